import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// The man page and completion scripts come from the command specs: every option is in them,
/// and each is valid for its reader.
@Suite struct ManualTests {
    static func available(_ tool: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
    }

    static func run(_ tool: String, _ arguments: [String], input: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
    }

    @Test func theManPageNamesEveryCommandAndOption() {
        let page = Manual.page()
        for command in Command.allCases {
            #expect(page.contains(".SS " + Manual.escape(command.spec.usage)), "\(command)")
            for option in command.spec.options {
                #expect(page.contains("\\fB" + Manual.escape(option.name) + "\\fR"), "\(command) \(option.name)")
            }
        }
        #expect(page.hasPrefix(".TH PHOTOTAG 1 "))
        #expect(page.contains("CC BY 4.0"))
    }

    @Test(.enabled(if: available("groff"), "groff is not installed"))
    func theManPageRendersWithoutWarnings() throws {
        let (status, warnings) = try Self.run("groff", ["-man", "-Tutf8", "-ww", "-z"], input: Manual.page())
        #expect(status == 0)
        #expect(warnings == "")
    }

    /// The lines that show how to install each completion script.
    static let installLines = Shell.allCases.map { "phototag completions \($0.rawValue) >" }

    @Test func theCompletionInstallLinesAreKeptApartInTheRoff() {
        let lines = Manual.page().split(separator: "\n").map(String.init)
        for install in Self.installLines {
            guard let index = lines.firstIndex(where: { $0.contains(Manual.escape(install)) }) else {
                Issue.record("no line '\(install)'")
                continue
            }
            // No-fill mode (.nf) is on there: roff keeps each line as it is.
            #expect(lines[..<index].last { $0 == ".nf" || $0 == ".fi" } == ".nf", "\(install)")
        }
    }

    @Test(.enabled(if: available("groff"), "groff is not installed"))
    func theCompletionInstallLinesRenderOnePerLine() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["groff", "-man", "-Tutf8", "-P-cbou"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(Manual.page().utf8))
        try stdin.fileHandleForWriting.close()
        let rendered = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = rendered.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for shell in Shell.allCases {
            // A line of its own: it starts with the shell's name, and holds no other install line.
            let own = lines.filter {
                $0.hasPrefix("\(shell.rawValue):") && $0.contains("completions \(shell.rawValue) >")
            }
            #expect(own.count == 1, "\(shell)")
            #expect(own.allSatisfy { line in Self.installLines.filter { line.contains($0) }.count == 1 }, "\(shell)")
        }
    }

    @Test func completionsOfferEveryOptionOfEveryCommand() {
        for shell in Shell.allCases {
            let script = Manual.completions(for: shell)
            for command in Command.allCases {
                for option in command.spec.options {
                    let name = shell == .fish ? "-l \(option.name.dropFirst(2))" : option.name
                    #expect(script.contains(name), "\(shell) \(command) \(option.name)")
                }
            }
            for format in OutputFormat.allCases { #expect(script.contains(format.rawValue)) }
        }
    }

    @Test func theCommandsPrintThem() {
        let output = MemorySink(), errors = MemorySink()
        #expect(PhotoTag.run(["completions", "fish"], output: output, errors: errors) == 0)
        #expect(output.text == Manual.completions(for: .fish))
        let page = MemorySink()
        #expect(PhotoTag.run(["manpage"], output: page, errors: errors) == 0)
        #expect(page.text == Manual.page())
    }
}
