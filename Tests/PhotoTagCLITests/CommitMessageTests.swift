import Foundation
import TestSupport
import Testing

/// `Scripts/commit-msg`, the check of CONTRIBUTING.md's "Commits" rules: on one message (as git's
/// commit-msg hook), and on every commit of a range.
@Suite struct CommitMessageTests {
    static let script = Binary.root + "/Scripts/commit-msg"

    /// Runs `program` with `arguments` in `directory`, `input` on standard input; the status and
    /// what it printed (standard output and error together).
    static func run(
        _ program: String, _ arguments: [String], input: String = "", in directory: String = Binary.root
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        // A git of its own: no user or system configuration, a fixed author.
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        for key in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { environment[key] = "Test" }
        for key in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { environment[key] = "test@example.invalid" }
        process.environment = environment
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    static func check(_ message: String) throws -> (status: Int32, output: String) {
        try run(script, ["-"], input: message)
    }

    static let accepted: [String] = [
        "Add the trip summary to the HTML map\n",
        "Move the map's CSS and JavaScript into files\n\nThe reasons, and the numbers, in the body.\n",
        // Words ending in "ed", "ing" or "s" that are imperatives all the same.
        "Embed the map's CSS with #embed\n", "Speed up the scan of a folder\n", "Need one lock, not two\n",
        "Bring back the progress bar\n", "Focus the tooltip on open\n", "Pass the zone to the formatter\n",
        "Re-embed the table after an import\n",
        // A scope before the verb; names that are not words are not judged.
        "PhotoGPS: Read the APP1 with libexif\n", "TIFFReader: Keep the GPS-pointer checks\n",
        "--summary-file: Write it atomically\n",
        // Exactly 72 characters, counted as characters, not bytes.
        "Add ünïcode " + String(repeating: "x", count: 60) + "\n",
        // What git leaves out: comment lines, leading blank lines, everything past the scissors.
        "\n# Please enter the commit message\nAdd a test\n\nBody.\n"
            + "# ------------------------ >8 ------------------------\nAdded, not kept.\n",
        // Subjects that `git rebase --autosquash` rewrites.
        "fixup! Added something, long ago.\n",
    ]

    @Test(arguments: accepted) func aGoodMessagePasses(message: String) throws {
        let result = try Self.check(message)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "")
    }

    static let refused: [(message: String, reason: String)] = [
        ("Add ünïcode " + String(repeating: "x", count: 61) + "\n", "the subject is 73 characters, more than 72"),
        ("Add the trip summary.\n", "the subject ends in a full stop"),
        ("Add the trip summary\nThe body, too soon.\n", "the body starts with no blank line after the subject"),
        ("Added the trip summary\n", #"("Added" reads as a past tense"#),
        ("Adding the trip summary\n", #"("Adding" reads as a gerund"#),
        ("Adds the trip summary\n", #"("Adds" reads as a third person"#),
        ("Fixes the zoom\n", #"("Fixes" reads as a third person"#),
        ("PhotoTagMap: Makes the map smaller\n", #"("Makes" reads as a third person"#),
        ("\n\n# only a comment\n", "the message is empty"),
    ]

    @Test(arguments: refused) func aBadMessageIsRefusedWithTheReason(message: String, reason: String) throws {
        let result = try Self.check(message)
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("standard input: the "), "\(result.output)")
        #expect(result.output.contains(reason), "\(result.output)")
        #expect(result.output.contains(#"see CONTRIBUTING.md, "Commits""#))
    }

    static let git = ["/usr/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A range is checked commit by commit, merges left out; as a hook, a bad message stops the
    /// commit.
    @Test(.enabled(if: git != nil, "git is not installed"))
    func aRangeAndTheHook() throws {
        let git = try #require(Self.git)
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func commit(_ message: String) throws -> (status: Int32, output: String) {
            try Self.run(git, ["commit", "--quiet", "--allow-empty", "--no-gpg-sign", "-m", message], in: folder)
        }
        #expect(try Self.run(git, ["init", "--quiet", "-b", "main", folder]).status == 0)
        #expect(try commit("Start the history").status == 0)
        #expect(try commit("Added a feature.").status == 0)
        #expect(try commit("Fix the feature\n\nThe reason.").status == 0)
        #expect(try commit(String(repeating: "Fix ", count: 20)).status == 0)
        let range = try Self.run(Self.script, ["--range", "main~3..main"], in: folder)
        #expect(range.status == 1)
        let lines = range.output.split(separator: "\n")
        #expect(lines.count == 4, "\(range.output)")
        #expect(lines.first?.hasSuffix("the subject ends in a full stop: Added a feature.") == true)
        #expect(
            lines.contains {
                $0.hasSuffix(
                    #"("Added" reads as a past tense; write "Add", not "Added", "Adding" or "Adds"): Added a feature."#)
            })
        #expect(lines.contains { $0.contains("the subject is 79 characters, more than 72") })
        #expect(try Self.run(Self.script, ["--range", "main~2..main~1"], in: folder).status == 0)

        // The hook, installed as CONTRIBUTING.md says (with an absolute link here).
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/.git/hooks/commit-msg", withDestinationPath: Self.script)
        let refused = try commit("Fixes the hook")
        #expect(refused.status != 0)
        #expect(refused.output.contains(#"("Fixes" reads as a third person"#), "\(refused.output)")
        #expect(try commit("Fix the hook").status == 0)
        #expect(try Self.run(git, ["log", "-1", "--format=%s"], in: folder).output == "Fix the hook\n")
    }
}
