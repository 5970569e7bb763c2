import Foundation
import Testing

/// The Makefile and the toolchain check a newcomer meets first: `make help` lists every target,
/// and a toolchain whose clang cannot embed the tables is refused with the reason.
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

    /// Runs a command line from the repository root (``Binary/runShell(_:environment:)``): its
    /// status and what it printed.
    static func run(_ command: String, environment: [String: String] = [:]) throws -> (Int32, String) {
        let result = try Binary.runShell(command, environment: environment)
        return (result.status, result.text)
    }

    static let hasMake = FileManager.default.isExecutableFile(atPath: "/usr/bin/make")

    @Test(.enabled(if: hasMake, "make is not installed"))
    func makeHelpListsEveryTargetWithWhatItDoes() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 20, "\(targets)")
        for target in ["help", "build", "run", "test", "install", "uninstall", "places", "boundaries"] {
            #expect(targets.contains(target), "no target \(target)")
        }
        let (status, output) = try Self.run("make --no-print-directory help")
        #expect(status == 0)
        let listed = output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(listed == targets, "make help lists \(listed)")
        // `make` alone is `make help`, not a build.
        let (plainStatus, plain) = try Self.run("make --no-print-directory")
        #expect(plainStatus == 0 && plain == output)
    }

    /// A toolchain is found from `swift -print-target-info`; one whose clang has no `#embed` (as
    /// clang 18 and older) is refused before any build starts, naming the version.
    @Test func aToolchainWithoutEmbedIsRefusedWithTheReason() throws {
        let folder = NSTemporaryDirectory() + "phototag-toolchain-" + UUID().uuidString
        let bin = folder + "/usr/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func script(_ name: String, _ body: String) throws {
            try ("#!/bin/sh\n" + body).write(toFile: bin + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/" + name)
        }
        try script(
            "swift",
            "printf '{\\n  \"target\": {\\n    \"triple\": \"x86_64-unknown-linux-gnu\",\\n  },\\n  \"paths\": {\\n    \"runtimeResourcePath\": \"\(folder)/usr/lib/swift\",\\n  }\\n}\\n'\n"
        )
        try script("swift-frontend", "exit 0\n")
        // An old clang: it knows C but not #embed.
        try script(
            "clang",
            """
            if [ "$1" = --version ]; then echo "clang version 16.0.6"; exit 0; fi
            for argument; do case "$argument" in *.c) grep -q '#embed' "$argument" && exit 1;; esac; done
            exit 0

            """)
        let (oldStatus, old) = try Self.run("Scripts/toolchain", environment: ["SWIFT": bin + "/swift"])
        #expect(oldStatus == 1)
        #expect(old.contains("has a clang without C23 #embed: clang version 16.0.6"), "\(old)")
        #expect(old.contains("clang is 19 or later"))
        // The same toolchain with a clang that embeds is accepted: its bin folder is the answer.
        try script("clang", "exit 0\n")
        let (newStatus, new) = try Self.run("Scripts/toolchain", environment: ["SWIFT": bin + "/swift"])
        #expect(newStatus == 0)
        #expect(new == bin + "\n")
    }
}
