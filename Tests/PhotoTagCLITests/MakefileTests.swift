import Foundation
import Testing

/// The Makefile a newcomer meets first: `make help` lists every target.
@Suite struct MakefileTests {
    static let makefiles = ["Makefile", "Packaging/release.mk"].map { Binary.root + "/" + $0 }

    /// The targets the makefiles define (`name:` at the start of a line), in order.
    static func targets() throws -> [String] {
        var names: [String] = []
        for file in makefiles {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":"), line.first?.isLetter == true else { continue }
                let name = line[..<colon]
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                    !line[colon...].hasPrefix(":=")
                else { continue }
                names.append(String(name))
            }
        }
        return names
    }

    /// Runs a program from the repository root and returns its status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Binary.root)
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let hasMake = FileManager.default.isExecutableFile(atPath: "/usr/bin/make")

    @Test(.enabled(if: hasMake, "make is not installed"))
    func makeHelpListsEveryTargetWithWhatItDoes() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 20, "\(targets)")
        for target in ["help", "build", "run", "test", "install", "uninstall", "places", "boundaries"] {
            #expect(targets.contains(target), "no target \(target)")
        }
        let (status, output) = try Self.run(["make", "--no-print-directory", "help"])
        #expect(status == 0)
        let listed = output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(listed == targets, "make help lists \(listed)")
        // `make` alone is `make help`, not a build.
        let (plainStatus, plain) = try Self.run(["make", "--no-print-directory"])
        #expect(plainStatus == 0 && plain == output)
    }
}
