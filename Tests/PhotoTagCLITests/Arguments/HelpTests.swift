import TestSupport
import Testing

@testable import PhotoTagCLI

/// Every way of asking for help succeeds: `COMMAND --help`, `COMMAND -h`, `help COMMAND` and
/// `--help COMMAND`, for every command, the two groups and `help` itself.
@Suite struct HelpTests {
    /// The words of every command, of the groups that stand for two, and of `help`.
    static let commandWords: [[String]] =
        Command.allCases.map { $0.rawValue.split(separator: " ").map(String.init) }
        + Invocation.commandGroups.keys.sorted().map { [$0] } + [["help"]]

    static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, output: output, errors: errors)
        return (status, output.text, errors.text)
    }

    @Test(arguments: commandWords)
    func everyCommandsHelpExitsZero(words: [String]) {
        let asked = [words + ["--help"], words + ["-h"], ["help"] + words, ["--help"] + words]
        let runs = asked.map(Self.run)
        for (arguments, run) in zip(asked, runs) {
            #expect(run.status == PhotoTag.ExitStatus.success, "\(arguments): \(run.errors)")
            #expect(run.errors == "", "\(arguments)")
            #expect(run.output.contains("Usage: phototag"), "\(arguments)")
        }
        // `help` alone is the tool's help (and `help help` too); `help --help` is help's own.
        if words == ["help"] {
            #expect(runs[2].output == Help.toolHelp)
            #expect(runs[0].output == Help.text(Commands.help) && runs[1].output == runs[0].output)
        } else {
            #expect(Set(runs.map(\.output)).count == 1, "\(words)")
        }
    }

    @Test func helpHasItsOwnHelp() throws {
        #expect(try Invocation.parse(["help", "--help"]) == .helpOfHelp)
        #expect(try Invocation.parse(["help", "-h"]) == .helpOfHelp)
        #expect(try Invocation.parse(["help", "locate", "--help"]) == .helpOfHelp)
        #expect(try Invocation.parse(["--help", "--help"]) == .helpOfHelp)
        let text = Help.text(Commands.help)
        #expect(text.hasPrefix("Show help for commands.\n\nUsage: phototag help [<command>...]\n"))
        #expect(Help.toolHelp.contains("  help" + String(repeating: " ", count: 13) + "   Show help for commands\n"))
        // Another option is named as an unknown option, with the tool's usage.
        #expect(throws: UsageError(message: "unknown option '--json'", command: nil)) {
            try Invocation.parse(["help", "--json"])
        }
    }

    /// geocode's map has a marker per coordinate, with no file to link: its help says so
    /// (it used to speak of "each marker's files", copied from locate and scan).
    @Test func geocodesMapNoteSpeaksOfCoordinatesNotFiles() {
        let geocode = Help.text(.geocode)
        #expect(!geocode.contains("marker's files") && !geocode.contains("file://"))
        #expect(geocode.contains("each\nmarker's coordinates and place"))
        for command in [Command.locate, .scan] {
            #expect(Help.text(command).contains("marker's files as file:// links"), "\(command)")
        }
    }
}
