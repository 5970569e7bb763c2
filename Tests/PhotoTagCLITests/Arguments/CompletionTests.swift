import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// The completion scripts at work: each is loaded into its shell, which is asked for the
/// completions of a command line typed in a folder holding `a.jpg`, `my photo.jpg` and a
/// folder `my album`.
@Suite struct CompletionTests {
    /// A shell found on this machine, by name.
    static func available(_ shell: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + shell) }
    }

    /// A fresh folder with the test files, and the completion script for `shell` beside them;
    /// removed by ``cleanUp(_:)``.
    static func folder(for shell: Shell) throws -> (folder: String, script: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("phototag-completion-\(UUID())")
        let folder = base.appendingPathComponent("photos")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("my album"), withIntermediateDirectories: true)
        for name in ["a.jpg", "my photo.jpg"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        let script = base.appendingPathComponent("phototag.\(shell.rawValue)")
        try Data(Manual.completions(for: shell).utf8).write(to: script)
        return (folder.path, script.path)
    }

    /// Removes what ``folder(for:)`` made.
    static func cleanUp(_ folder: String) {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: folder).deletingLastPathComponent().path)
    }

    /// Runs `shell` with `arguments` in `folder`; its standard output, split into lines.
    static func run(_ shell: String, _ arguments: [String], in folder: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// What bash's completion function offers for the last of `words` (the word being typed),
    /// one entry per line, sorted.
    static func bash(_ words: String...) throws -> [String] {
        let (folder, script) = try folder(for: .bash)
        defer { cleanUp(folder) }
        let program = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _phototag
            (( ${#COMPREPLY[@]} )) && printf '%s\\n' "${COMPREPLY[@]}"
            exit 0
            """
        return try run("bash", ["--norc", "--noprofile", "-c", program, "bash", script] + words, in: folder).sorted()
    }

    /// What fish offers for `line` (`complete -C`), without the descriptions, sorted.
    static func fish(_ line: String) throws -> [String] {
        try fishWithDescriptions(line).map {
            String($0.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }.sorted()
    }

    /// What fish offers for `line`, each candidate with its description after a tab, if any.
    static func fishWithDescriptions(_ line: String) throws -> [String] {
        let (folder, script) = try folder(for: .fish)
        defer { cleanUp(folder) }
        let program = "source $argv[1]; complete -C $argv[2]"
        return try run("fish", ["--no-config", "-c", program, script, line], in: folder)
    }

    /// Issue 23, item 19: fish repeated the option's help on every value it offered
    /// (`csv  Output: text (default), json, ndjson…`). Values have no description; the option
    /// keeps its own.
    @Test(.enabled(if: available("fish"), "fish is not installed"))
    func fishShowsTheOptionsTextOnTheOptionNotOnEachValue() throws {
        let values = try Self.fishWithDescriptions("phototag scan --format ")
        #expect(values.sorted() == OutputFormat.allCases.map(\.rawValue).sorted(), "\(values)")
        let option = try Self.fishWithDescriptions("phototag scan --forma")
        #expect(option == ["--format\t" + Options.format.help], "\(option)")
        #expect(try Self.fishWithDescriptions("phototag scan --warnings ").sorted() == ["all", "none", "summary"])
    }

    @Test(.enabled(if: available("bash"), "bash is not installed"))
    func bashCompletesFileNamesWhole() throws {
        #expect(try Self.bash("phototag", "locate", "") == ["a.jpg", "my album", "my photo.jpg"])
        #expect(try Self.bash("phototag", "scan", "--hidden", "my") == ["my album", "my photo.jpg"])
        #expect(try Self.bash("phototag", "locate", "--", "my") == ["my album", "my photo.jpg"])
        #expect(try Self.bash("phototag", "locate", "--places", "my") == ["my album", "my photo.jpg"])
        #expect(try Self.bash("phototag", "places", "import", "--from", "") == ["my album"])
        #expect(try Self.bash("phototag", "places", "import", "--output", "a") == ["a.jpg"])
    }

    @Test(.enabled(if: available("bash"), "bash is not installed"))
    func bashCompletesCommandsOptionsAndValues() throws {
        #expect(try Self.bash("phototag", "loc") == ["locate"])
        #expect(try Self.bash("phototag", "-") == ["--help", "--version", "-V", "-h"])
        #expect(try Self.bash("phototag", "places", "i") == ["import", "info"])
        #expect(try Self.bash("phototag", "boundaries", "i") == ["import", "info"])
        #expect(try Self.bash("phototag", "boundaries", "import", "--tz") == ["--tzdata"])
        #expect(try Self.bash("phototag", "boundaries", "import", "--tzdata", "") == ["my album"])
        #expect(try Self.bash("phototag", "bou") == ["boundaries"])
        #expect(try Self.bash("phototag", "scan", "--form") == ["--format"])
        #expect(try Self.bash("phototag", "scan", "--with") == ["--with-gps", "--within", "--without-gps"])
        #expect(try Self.bash("phototag", "places", "import", "--f") == ["--from"])
        #expect(try Self.bash("phototag", "scan", "--format", "") == OutputFormat.allCases.map(\.rawValue).sorted())
        #expect(try Self.bash("phototag", "scan", "--format", "=", "nd") == ["ndjson"])
        #expect(try Self.bash("phototag", "completions", "") == ["bash", "fish", "zsh"])
        #expect(try Self.bash("phototag", "help", "s") == ["scan"])
        // Numbers and coordinates: nothing to offer, and no file names either.
        #expect(try Self.bash("phototag", "locate", "--nearest", "") == [])
        #expect(try Self.bash("phototag", "geocode", "") == [])
    }

    @Test(.enabled(if: available("fish"), "fish is not installed"))
    func fishCompletesCommandsOptionsValuesAndFiles() throws {
        #expect(try Self.fish("phototag loc") == ["locate"])
        #expect(try Self.fish("phototag scan --form") == ["--format"])
        #expect(try Self.fish("phototag scan --format ") == OutputFormat.allCases.map(\.rawValue).sorted())
        #expect(try Self.fish("phototag locate my") == ["my album/", "my photo.jpg"])
        #expect(try Self.fish("phototag places import --from ") == ["my album/"])
        #expect(try Self.fish("phototag boundaries ") == ["import", "info"])
        #expect(try Self.fish("phototag boundaries import --tzdata ") == ["my album/"])
        #expect(try Self.fish("phototag locate --nearest ") == [])
        #expect(try Self.fish("phototag completions ") == ["bash", "fish", "zsh"])
    }

    /// Whether `shell -n` (read without running) accepts the script.
    static func parses(_ shell: Shell) throws -> Bool {
        let (folder, script) = try folder(for: shell)
        defer { cleanUp(folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell.rawValue, "-n", script]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(.enabled(if: available("bash"), "bash is not installed"))
    func theBashScriptParses() throws { #expect(try Self.parses(.bash)) }

    @Test(.enabled(if: available("zsh"), "zsh is not installed"))
    func theZshScriptParses() throws { #expect(try Self.parses(.zsh)) }

    @Test(.enabled(if: available("fish"), "fish is not installed"))
    func theFishScriptParses() throws { #expect(try Self.parses(.fish)) }

    @Test func everyValueOptionMeansOneKindOfValueInEveryCommand() {
        for command in Command.allCases {
            for option in command.spec.options {
                let listed = Manual.valueOptions.first { $0.option.name == option.name }
                #expect(listed?.completion == Manual.completion(ofValueOf: option), "\(command) \(option.name)")
            }
        }
    }
}
