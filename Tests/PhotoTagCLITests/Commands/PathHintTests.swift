import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// A path where a command or a file belongs names the command line meant: `phototag photo.jpg`
/// is a usage error (64) that suggests `locate`, `phototag DIR` and `locate DIR` suggest `scan`
/// (locate's folder is still an error record, exit 2: the other files are read).
@Suite struct PathHintTests {
    static func runArray(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, output: output, errors: errors)
        return (status, output.text, errors.text)
    }

    @Test func aFileGivenAsTheCommandSuggestsLocate() {
        let photo = Fixtures.photo("ne-little-endian.jpg")
        let result = run(photo, "--json")
        #expect(result.status == PhotoTag.ExitStatus.usage)
        #expect(result.output == "")
        #expect(
            result.errors == """
                Error: '\(photo)' is a file, not a command; to read the photo, run: phototag locate \(shellWord(photo)) --json
                Usage: phototag <command> [options]
                See 'phototag help'.

                """)
        // A photo's name that is not there (yet) is still taken for a photo.
        #expect(
            run("missing photo.HEIC").errors.hasPrefix(
                "Error: unknown command 'missing photo.HEIC'; to read the photo, run: phototag locate 'missing photo.HEIC'\n"
            ))
    }

    @Test func aFolderGivenAsTheCommandSuggestsScan() {
        let folder = Fixtures.root + "/photos"
        let alone = run(folder)
        #expect(alone.status == PhotoTag.ExitStatus.usage)
        #expect(
            alone.errors.hasPrefix(
                "Error: '\(folder)' is a folder, not a command; to read the photos in it, run: phototag scan \(shellWord(folder))\n"
            ))
        // scan reads files given too: any folder among the paths makes it scan.
        let photo = Fixtures.photo("no-exif.jpg")
        #expect(
            run(photo, folder).errors.hasPrefix(
                "Error: '\(photo)' is a file, not a command; to read the photos, run: phototag scan \(shellWord(photo)) \(shellWord(folder))\n"
            ))
    }

    /// A hint's paths are written as a shell reads them back: the fixture paths above are quoted
    /// only where the clone's path needs it (spaces, say).
    @Test func hintsQuoteWordsAsAShellReadsThem() {
        #expect(shellWord("/tmp/Fixtures/photos/a.jpg") == "/tmp/Fixtures/photos/a.jpg")
        #expect(shellWord("/tmp/ünïcode/a,b=c@d%e+f:g.jpg") == "/tmp/ünïcode/a,b=c@d%e+f:g.jpg")
        #expect(shellWord("/tmp/a long path/a.jpg") == "'/tmp/a long path/a.jpg'")
        #expect(shellWord("it's.jpg") == #"'it'\''s.jpg'"#)
        #expect(shellWord("*.jpg") == "'*.jpg'")
        #expect(shellWord("") == "''")
    }

    @Test func typosAndOtherWordsAreUnchanged() {
        #expect(run("lcoate", "a.jpg").errors.hasPrefix("Error: unknown command 'lcoate'; did you mean 'locate'?\n"))
        #expect(run("frobnicate").errors.hasPrefix("Error: unknown command 'frobnicate'\n"))
        #expect(run("notes.txt").errors.hasPrefix("Error: unknown command 'notes.txt'\n"))
    }

    @Test func locatingAFolderIsAnErrorThatSuggestsScan() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = directory + "/my photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let photo = Fixtures.photo("ne-little-endian.jpg")
        let result = run("locate", "--format", "ndjson", "--places", Fixtures.places, folder, photo)
        #expect(result.status == PhotoTag.ExitStatus.unreadable)
        #expect(result.output.split(separator: "\n").count == 2)
        #expect(result.output.contains(#""error":"not a regular file (directory)""#))
        #expect(
            result.errors == """
                phototag: \(folder): not a regular file (directory)
                phototag: hint: locate reads files; to read the photos in a folder, run: phototag scan '\(folder)'

                """)
        // --quiet keeps stderr empty; the status still says it.
        let quiet = run("locate", "-q", "--places", Fixtures.places, folder)
        #expect(quiet.status == PhotoTag.ExitStatus.unreadable)
        #expect(quiet.errors == "")
    }
}

/// `scan` without a path is a usage error, as `locate` without a file is (and as exiftool
/// does), rather than a walk of the current folder (as find and fd do): a scan of wherever the
/// shell happens to be (a home folder) is long, and `.` is one character to type. The message
/// and the help say so.
@Suite struct ScanWithoutAPathTests {
    @Test func scanWithoutAPathIsAUsageErrorThatSaysHowToScanTheCurrentFolder() {
        for arguments in [["scan"], ["scan", "--json", "--with-gps"]] {
            let result = PathHintTests.runArray(arguments)
            #expect(result.status == PhotoTag.ExitStatus.usage, "\(arguments)")
            #expect(result.output == "")
            #expect(
                result.errors == """
                    Error: no paths given; to scan the current folder, run: phototag scan .
                    Usage: phototag scan [options] <path>...
                    See 'phototag help scan'.

                    """)
        }
        #expect(
            Help.text(.scan).contains(
                "give . for the current folder (scan without a path or\n--files-from is a usage error"))
        // --files-from alone is something to read.
        #expect(
            PathHintTests.runArray(["scan", "--files-from", "/dev/null", "--no-progress"]).status
                == PhotoTag.ExitStatus.success)
    }
}
