import Foundation
import TestSupport
import Testing

/// One `$ command` of a `console` block in README.md and the output printed under it.
struct ConsoleExample: CustomTestStringConvertible, Sendable {
    /// The line in README.md where the command is.
    var line: Int
    var command: String
    var expected: String
    var testDescription: String { "README.md:\(line): \(command)" }
}

/// The README's examples cannot drift from what the binary prints.
///
/// Every `console` block of README.md is a transcript: each `$ command` runs with `/bin/sh` from
/// the repository root, with the built `phototag` first on `PATH`, and what it prints (standard
/// output and standard error, in the order written) must equal the lines under it, byte for byte.
/// Commands that cannot run here (a user's `~/Pictures`, a file they have) belong in `sh` blocks.
@Suite struct ReadmeTests {
    static let readme = Binary.root + "/README.md"

    static let examples: [ConsoleExample] = {
        guard let text = try? String(contentsOfFile: readme, encoding: .utf8) else { return [] }
        return consoleExamples(in: text)
    }()

    /// The transcripts of every `console` block in `markdown`.
    static func consoleExamples(in markdown: String) -> [ConsoleExample] {
        var examples: [ConsoleExample] = []
        var inConsole = false
        var inOtherBlock = false
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if inConsole || inOtherBlock {
                    inConsole = false
                    inOtherBlock = false
                } else if trimmed == "```console" {
                    inConsole = true
                } else {
                    inOtherBlock = true
                }
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                examples.append(ConsoleExample(line: index + 1, command: String(line.dropFirst(2)), expected: ""))
            } else if !examples.isEmpty {
                examples[examples.count - 1].expected += line + "\n"
            }
        }
        // A blank line between two commands separates them; it is not output.
        return examples.map { example in
            var example = example
            while example.expected.hasSuffix("\n\n") { example.expected.removeLast() }
            if example.expected == "\n" { example.expected = "" }
            return example
        }
    }

    @Test func theReadmeHasTranscripts() {
        #expect(Self.examples.count >= 8, "README.md has \(Self.examples.count) console commands")
        #expect(Self.examples.allSatisfy { $0.command.hasPrefix("phototag ") || $0.command.contains("| phototag ") })
    }

    @Test func transcriptsAreSplitAsAReaderSeesThem() {
        let markdown = """
            text
            ```console
            $ phototag a
            one
            two

            $ phototag b
            ```
            ```sh
            $ not a transcript
            ```
            """
        let examples = Self.consoleExamples(in: markdown)
        #expect(examples.map(\.command) == ["phototag a", "phototag b"])
        #expect(examples.map(\.expected) == ["one\ntwo\n", ""])
        #expect(examples.map(\.line) == [3, 7])
    }

    @Test(arguments: examples) func example(_ example: ConsoleExample) throws {
        let folder = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try Binary.runShell(example.command, environment: ["PATH": path])
        #expect(result.text == example.expected, "README.md:\(example.line)")
        if example.expected.isEmpty {
            #expect(result.status == 0, "README.md:\(example.line): prints nothing, so it must succeed")
        }
    }
}

extension Binary {
    /// Runs a shell command line from the repository root, standard output and standard error
    /// into one pipe (as a terminal shows them), standard input empty.
    static func runShell(_ command: String, environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = nil
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: data, errors: Data())
    }
}
