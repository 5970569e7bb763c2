import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// One record per file, by device and inode, as folders already were (issue 23, item 3): a
/// path given twice, a file given and reached again through a link loop, hard links.
@Suite struct RepeatedFileTests {
    static let note = "already scanned: the same file as another path (repeated, linked or hard-linked)"

    /// `scan ARGUMENTS` in `root`: the records' files, and stderr's lines.
    static func scan(_ arguments: [String], in root: String) throws -> (files: [String], notes: [String]) {
        let result = try Binary.run(["scan", "--no-place", "--format", "ndjson"] + arguments, directory: root)
        let files = try ScanTreeTests.records(result.output).map { $0["file"] as! String }
        return (files, String(decoding: result.errors, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// `tree/top.jpg`, `tree/a/b/deep.jpg`, and `tree/a/b/loop → ../..` (back to `tree`).
    static func makeLoopTree() throws -> String {
        let base = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: base + "/tree/a/b", withIntermediateDirectories: true)
        for name in ["tree/top.jpg", "tree/a/b/deep.jpg"] {
            try FileSelectionTests.photo.write(to: URL(fileURLWithPath: base + "/" + name))
        }
        try FileManager.default.createSymbolicLink(atPath: base + "/tree/a/b/loop", withDestinationPath: "../..")
        return base
    }

    /// The case: top.jpg, given, was read again as tree/a/b/loop/top.jpg.
    @Test func aFileGivenAndReachedAgainThroughALoopHasOneRecord() throws {
        let base = try Self.makeLoopTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let (files, notes) = try Self.scan(["tree/top.jpg", "tree/a"], in: base)
        #expect(files == ["tree/top.jpg", "tree/a/b/deep.jpg"])
        #expect(
            notes == [
                "phototag: tree/a/b/loop/a: already scanned (a symbolic link loop or a repeated path)",
                "phototag: tree/a/b/loop/top.jpg: \(Self.note)",
            ])
    }

    @Test func aPathGivenTwiceHasOneRecord() throws {
        let base = try Self.makeLoopTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let (files, notes) = try Self.scan(["tree/top.jpg", "tree/top.jpg", "./tree/top.jpg"], in: base)
        #expect(files == ["tree/top.jpg"])
        #expect(notes == ["phototag: tree/top.jpg: \(Self.note)", "phototag: ./tree/top.jpg: \(Self.note)"])
    }

    @Test func hardLinksAreOneFile() throws {
        let base = try Self.makeLoopTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.linkItem(atPath: base + "/tree/top.jpg", toPath: base + "/tree/twin.jpg")
        let (files, notes) = try Self.scan(["tree"], in: base)
        #expect(files == ["tree/a/b/deep.jpg", "tree/top.jpg"])
        #expect(notes.contains("phototag: tree/twin.jpg: \(Self.note)"))
        // A copy is another file: read.
        try FileManager.default.copyItem(atPath: base + "/tree/top.jpg", toPath: base + "/tree/copy.jpg")
        #expect(try Self.scan(["tree"], in: base).files.contains("tree/copy.jpg"))
    }
}
