import Foundation

/// Test-only file helpers (the library itself never uses Foundation).
func listDirectory(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path)
}

func readWholeFile(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "phototag-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
