import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Issue 23, item 8: on a library of 117,000 files stderr had 25,000 warning lines, and `-q`,
/// the only way to quiet them, also hid the progress bar and the errors. `--warnings summary`
/// counts them by kind for the end; `--warnings none` drops them; errors stay either way.
@Suite struct WarningModeTests {
    static func run(
        _ arguments: [String], errors: MemorySink = MemorySink()
    ) -> (status: Int32, output: String, errors: String) {
        let output = MemorySink()
        let status = PhotoTag.run(
            arguments.map(Argument.init), input: MemoryInput(""), output: output, errors: errors,
            environment: Environment(), progressDelay: 0)
        return (status, output.text, errors.text)
    }

    static let scan = ["scan", "--places", Fixtures.places, Fixtures.root + "/photos"]

    /// The lines that are not warnings: the errors.
    static func errorLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.contains(": warning: ") }
    }

    @Test func summaryCountsEveryRecordsWarningsByKindAndKeepsTheErrors() throws {
        let all = Self.run(Self.scan)
        #expect(all.errors.contains(": warning: "), "the fixtures have warnings")
        let summary = Self.run(Self.scan + ["--warnings", "summary"])
        #expect(summary.status == all.status)
        #expect(summary.output == all.output, "the records do not change")
        #expect(!summary.errors.contains(": warning: "))
        let lines = summary.errors.split(separator: "\n")
        let heading = try #require(lines.firstIndex { $0.contains(" by kind:") })
        #expect(Array(lines[..<heading]) == Self.errorLines(all.errors), "the errors, as before")
        // The counts add up to every warning the records hold.
        let json = Self.run(Self.scan + ["--json"]).output
        let records = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let warnings = records.map { ($0["warnings"] as? [String] ?? []).count }
        let total = warnings.reduce(0, +)
        #expect(lines[heading].hasPrefix("phototag: \(total) warnings in \(warnings.filter { $0 > 0 }.count) files"))
        let counted = lines[(heading + 1)...].map { line in
            Int(line.dropFirst("phototag: ".count).drop { $0 == " " }.prefix { $0.isNumber })!
        }
        #expect(counted.reduce(0, +) == total)
        #expect(counted == counted.sorted(by: >), "commonest first")
        #expect(lines[(heading + 1)...].allSatisfy { $0.hasPrefix("phototag: ") && $0.contains(" (first: ") })
    }

    @Test func noneDropsTheWarningsAndKeepsTheErrorsAndTheBar() {
        let all = Self.run(Self.scan)
        let none = Self.run(Self.scan + ["--warnings", "none"])
        #expect(none.errors.split(separator: "\n") == Self.errorLines(all.errors))
        #expect(none.status == all.status)
        let terminal = MemorySink(isTerminal: true)
        _ = Self.run(Self.scan + ["--warnings", "none", "--progress", "--json"], errors: terminal)
        #expect(terminal.text.contains(" files  "), "the bar is drawn")
    }

    @Test func aScansSkippedEntriesAreWarningsToo() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: Fixtures.photo("ne-little-endian.jpg"), toPath: root + "/a.jpg")
        let twice = ["scan", "--places", Fixtures.places, root + "/a.jpg", root + "/a.jpg", root + "/a.jpg"]
        #expect(Self.run(twice).errors.contains("already scanned"))
        #expect(Self.run(twice + ["--warnings", "none"]).errors == "")
        let summary = Self.run(twice + ["--warnings", "summary"]).errors
        #expect(
            summary.hasPrefix("phototag: 2 warnings in 2 files, by kind:\nphototag: 2  already scanned"), "\(summary)")
    }

    @Test func aWarningsKindLeavesOutWhatVariesFromFileToFile() {
        let pairs = [
            (
                "the GPS time is 2 h 3 min 1 s ahead of DateTimeOriginal, not a time-zone offset; not used",
                "the GPS time is 1 d 5 s ahead of DateTimeOriginal, not a time-zone offset; not used"
            ),
            ("GPSDateStamp '2019:13:01' is not a valid date", "GPSDateStamp \"x\" is not a valid date"),
            (
                "GPSLatitude -91.5 is out of range (more than 90 degrees)",
                "GPSLatitude 200 is out of range (more than 90 degrees)"
            ),
            ("expected a marker at byte 276, found 0x00", "expected a marker at byte 39, found 0x34"),
        ]
        for (a, b) in pairs {
            #expect(WarningTally.kind(of: a) == WarningTally.kind(of: b), "\(a)")
            #expect(!WarningTally.kind(of: a).contains { $0.isNumber && $0 != "0" } || a.contains("0x"), "\(a)")
        }
        #expect(WarningTally.kind(of: "the file's end") == "the file's end", "an apostrophe is not a quote")
        #expect(WarningTally.kind(of: "GPSLatitude seconds") != WarningTally.kind(of: "GPSLongitude seconds"))
        #expect(
            WarningTally.kind(of: "position 0, 0 is the no-fix placeholder")
                == "position N, N is the no-fix placeholder")
    }
}
