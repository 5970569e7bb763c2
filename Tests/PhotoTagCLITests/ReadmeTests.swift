import Foundation
import TestSupport
import Testing

/// One `$ command` of a `console` block in a Markdown file of the repository and the output
/// printed under it.
struct ConsoleExample: CustomTestStringConvertible, Sendable {
    /// The Markdown file, relative to the repository root (`README.md`, `docs/guide.md`).
    var file: String = ""
    /// The line in that file where the command is.
    var line: Int
    var command: String
    var expected: String
    /// Where the example is, as an editor opens it: `docs/guide.md:12`.
    var location: String { "\(file):\(line)" }
    var testDescription: String { "\(location): \(command)" }
}

/// The documentation's examples cannot drift from what the binary prints.
///
/// Every `console` block of every Markdown file in the repository (README.md, docs/, CONTRIBUTING.md,
/// Benchmarks/README.md…; hidden folders such as `.build` are not searched) is a transcript: each
/// `$ command` runs with `/bin/sh` from the repository root, with the built `phototag` first on
/// `PATH`, and what it prints (standard output and standard error, in the order written) must
/// equal the lines under it, byte for byte. Commands that cannot run here (a user's `~/Pictures`, a
/// file they have) belong in `sh` blocks.
@Suite struct ReadmeTests {
    /// The front page, which must keep a good number of examples of its own.
    static let frontPage = "README.md"

    /// Every Markdown file of the repository, relative to its root, sorted.
    static let markdownFiles: [String] = markdownFiles(below: Binary.root)

    static let examples: [ConsoleExample] = markdownFiles.flatMap { file -> [ConsoleExample] in
        guard let text = try? String(contentsOfFile: Binary.root + "/" + file, encoding: .utf8) else { return [] }
        return consoleExamples(in: text).map { example in
            var example = example
            example.file = file
            return example
        }
    }

    /// The `.md` files below `root`, as paths relative to it, in sorted order. Hidden files and
    /// folders (`.build`, `.git`, `Benchmarks/.cache`) are skipped, and symbolic links are not
    /// followed.
    static func markdownFiles(below root: String) -> [String] {
        var found: [String] = []
        var folders = [""]
        while let folder = folders.popLast() {
            let path = folder.isEmpty ? root : root + "/" + folder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let relative = folder.isEmpty ? name : folder + "/" + name
                let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + relative)
                switch attributes?[.type] as? FileAttributeType {
                case .typeDirectory?: folders.append(relative)
                case .typeRegular? where name.hasSuffix(".md"): found.append(relative)
                default: break
                }
            }
        }
        return found.sorted()
    }

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
        let front = Self.examples.filter { $0.file == Self.frontPage }
        #expect(front.count >= 8, "README.md has \(front.count) console commands")
        // README.md alone had 11 before the guide and the references moved to docs/.
        #expect(Self.examples.count >= 11, "the Markdown files have \(Self.examples.count) console commands")
        #expect(Self.examples.allSatisfy { $0.command.hasPrefix("phototag ") || $0.command.contains("| phototag ") })
    }

    /// Every Markdown file found reads as UTF-8 text: one that does not would lose its
    /// transcripts without a word (`examples` leaves it out).
    @Test func everyMarkdownFileIsReadable() throws {
        #expect(Self.markdownFiles.count >= 10, "\(Self.markdownFiles)")
        for file in Self.markdownFiles {
            _ = try String(contentsOfFile: Binary.root + "/" + file, encoding: .utf8)
        }
    }

    @Test func theFilesWithTranscriptsAreFound() {
        let files = Set(Self.examples.map(\.file))
        for file in [Self.frontPage, "docs/guide.md", "docs/output.md", "docs/places.md", "CONTRIBUTING.md"] {
            #expect(files.contains(file), "\(file) has no console example, or was not found")
        }
        #expect(!Self.markdownFiles.contains { $0.hasPrefix(".") || $0.contains("/.") })
    }

    /// Every relative link of the front page and of docs/ leads to a file of the repository, and
    /// every page of docs/ is linked from the front page: nothing moved out of it is lost.
    @Test func theDocumentationLinksResolve() throws {
        let pages = [Self.frontPage] + Self.markdownFiles.filter { $0.hasPrefix("docs/") } + ["CONTRIBUTING.md"]
        for page in pages {
            let text = try String(contentsOfFile: Binary.root + "/" + page, encoding: .utf8)
            let folder = (page as NSString).deletingLastPathComponent
            for target in Self.relativeLinks(in: text) {
                let path = ((Binary.root + "/" + folder + "/" + target) as NSString).standardizingPath
                #expect(
                    FileManager.default.fileExists(atPath: path), "\(page) links to \(target), which does not exist")
            }
        }
        let front = try String(contentsOfFile: Binary.root + "/" + Self.frontPage, encoding: .utf8)
        let linked = Set(Self.relativeLinks(in: front))
        for page in Self.markdownFiles where page.hasPrefix("docs/") {
            #expect(linked.contains(page), "README.md does not link to \(page)")
        }
    }

    /// The targets of the Markdown links `](target)` in `text` that are paths in the repository (no
    /// scheme, no `#` of the same page), without their `#fragment`.
    static func relativeLinks(in text: String) -> [String] {
        var links: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close].prefix { $0 != "#" })
            rest = rest[close...]
            if target.isEmpty || target.contains(":") || target.contains(" ") { continue }
            links.append(target)
        }
        return links
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
        #expect(result.text == example.expected, "\(example.location)")
        if example.expected.isEmpty {
            #expect(result.status == 0, "\(example.location): prints nothing, so it must succeed")
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
