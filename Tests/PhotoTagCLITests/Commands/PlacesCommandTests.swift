import Foundation
import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `phototag places import`, `places info`, `--places` and `--version`.
@Suite struct PlacesCommandTests {
    @Test func importReportsWhatItReadAndSkippedAndRebuildsTheFixtureTableExactly() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/test.places"
        let result = run(
            "places", "import", "--from", Fixtures.root + "/geonames", "--output", output, "--date=2024-01-01")
        #expect(result.status == 0)
        let size = try Data(contentsOf: URL(fileURLWithPath: Fixtures.places)).count
        #expect(
            result.output == """
                imported 8 places from cities-test.txt (1 left out by the filters)
                skipped 6 bad rows: 1 wrong column count, 1 bad geonameid, 2 bad coordinates, 1 bad population, 1 duplicate geonameid
                wrote \(output) (\(grouped(size)) bytes, data of 2024-01-01)

                """)
        #expect(result.errors == "")
        // The committed fixture table is exactly what the import makes: the format has not drifted.
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output))
                == Data(contentsOf: URL(fileURLWithPath: Fixtures.places)))
    }

    /// A name with control bytes (an escape sequence, a NUL, a bell) in an imported table: text
    /// shows it escaped as file names are, one line and no command to the terminal; JSON escapes
    /// it as JSON does.
    @Test func controlBytesInAnImportedNameAreEscapedInText() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dumps = directory + "/dumps"
        try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
        for name in ["admin1CodesASCII.txt", "admin2Codes.txt", "countryInfo.txt", "cities-test.txt"] {
            var text = try String(contentsOfFile: Fixtures.root + "/geonames/" + name, encoding: .utf8)
            if name == "cities-test.txt" {
                text = text.replacingOccurrences(of: "\tParis\t", with: "\tPa\u{1B}[31mr\u{0}is\u{7}\t")
            }
            try text.write(toFile: dumps + "/" + name, atomically: true, encoding: .utf8)
        }
        let table = directory + "/control.places"
        #expect(run("places", "import", "--from", dumps, "--output", table, "--date=2024-01-01").status == 0)
        let text = run("geocode", "--places", table, "48.8566,2.3522")
        #expect(text.output.contains(#"Pa\x1b[31mr\x00is\x07, "#), "\(text.output)")
        #expect(!text.output.utf8.contains(0x1B) && !text.output.utf8.contains(0))
        let json = run("geocode", "--places", table, "--format", "ndjson", "48.8566,2.3522")
        #expect(json.output.contains(#""name":"Pa\u001b[31mr\u0000is\u0007""#), "\(json.output)")
    }

    /// A FIFO as a place table, a dump or a boundary input is refused at once, never waited on.
    @Test func aFIFOIsRefusedNotWaitedFor() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        try #require(mkfifo(fifo, 0o644) == 0)
        let dumps = directory + "/dumps"
        try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
        for name in ["cities500.txt", "timezones.geojson"] { try #require(mkfifo(dumps + "/" + name, 0o644) == 0) }
        let runs: [[String]] = [
            ["places", "info", "--places", fifo],
            ["geocode", "--places", fifo, "48.85,2.35"],
            ["places", "import", "--from", dumps, "--output", directory + "/out.places"],
            ["boundaries", "import", "--from", dumps, "--output", directory + "/out.boundaries"],
        ]
        for arguments in runs {
            // On a thread, so that a regression fails the test after 20 s rather than hanging it.
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: (status: Int32, output: String, errors: String)? = nil
            Thread.detachNewThread {
                let output = MemorySink(), errors = MemorySink()
                let status = PhotoTag.run(arguments, output: output, errors: errors)
                result = (status, output.text, errors.text)
                done.signal()
            }
            guard done.wait(timeout: .now() + 20) == .success, let result else {
                Issue.record("\(arguments.joined(separator: " ")) waited on the FIFO")
                continue
            }
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors.contains("not a regular file"), "\(arguments): \(result.errors)")
        }
    }

    /// `places import --names`: the names table of `--lang`, from a folder of name lists.
    @Test func namesAreImportedIntoATableOfTheirOwn() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lists = [
            "places.tsv": "geonameid\tlang\tname\n2867714\tde\tMünchen\n2867714\tsr\tМинхен\nbad row\n",
            "admin1.tsv": "admin1_code\tlang\tname\nDE.02\tde\tBayern\n",
            "subdivisions.tsv": "iso_3166_2\tlang\tname\nDE-BY\tja\tバイエルン自由州\nDE-BY\tnl\tBeieren²\n",
            "admin1-iso3166-2.tsv": "admin1_code\tiso_3166_2\nDE.02\tDE-BY\n",
            "countries.tsv": "country_code\tlang\tname\nDE\tde\tDeutschland\n",
        ]
        for (name, text) in lists { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        let output = directory + "/names.table"
        let result = run("places", "import", "--names", directory, "--output", output, "--date=2026-12-02")
        #expect(result.errors == "" && result.status == 0)
        let size = try Data(contentsOf: URL(fileURLWithPath: output)).count
        #expect(
            result.output == """
                imported 2 place names, 1 region names and 1 more from CLDR subdivisions, 1 country names
                left out 1 CLDR names marked as shared; dropped the brackets of 0; wrote 1 Serbian names in Latin
                skipped 1 bad rows and 0 repeated ones
                wrote \(output) (\(grouped(size)) bytes, data of 2026-12-02)

                """)
        let names = try PlaceNames(tableBytes: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(names.localized(NameLanguage("sr-Latn")!).placeName(geonameId: 2_867_714) == "Minhen")
        for extra in [["--from", directory], ["--cities", "x.txt"], ["--all-features"]] {
            let refused = GeocodeInputTests.run(["places", "import", "--names", directory, "--output", output] + extra)
            #expect(refused.status == 64 && refused.errors.contains("does not go with '--names'"), "\(refused.errors)")
        }
        let missing = run("places", "import", "--names", directory + "/none", "--output", output)
        #expect(missing.status == 2 && missing.errors.contains("cannot read"), "\(missing.errors)")
    }

    @Test func importFailuresExitWith2() {
        let result = run("places", "import", "--from", "/nonexistent", "--output", "/tmp/never.places")
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.errors == "phototag: cannot read /nonexistent: no such file or directory\n")
    }

    @Test(
        arguments: [
            (
                ["places", "import", "--output", "x"],
                "Error: option '--from' is required\nUsage: phototag places import [options]\nSee 'phototag help places import'.\n"
            ),
            (
                ["places", "import", "--from", "d", "--output", "x", "--min-population", "-3"],
                "Error: option '--min-population' needs a whole number 0 or more, not '-3'\nUsage: phototag places import [options]\nSee 'phototag help places import'.\n"
            ),
            (
                ["places", "import", "--from", "d", "--output", "x", "--date", "July"],
                "Error: option '--date' needs a date like 2026-07-28, not 'July'\nUsage: phototag places import [options]\nSee 'phototag help places import'.\n"
            ),
            (
                ["places", "import", "--form", "d"],
                "Error: unknown option '--form'; did you mean '--from'?\nUsage: phototag places import [options]\nSee 'phototag help places import'.\n"
            ),
            (
                ["places"],
                "Error: 'places' needs a subcommand: import or info\nUsage: phototag <command> [options]\nSee 'phototag help'.\n"
            ),
            (
                ["places", "export"],
                "Error: unknown command 'places export'; did you mean 'places import'?\nUsage: phototag <command> [options]\nSee 'phototag help'.\n"
            ),
        ] as [([String], String)])
    func importUsageErrors(arguments: [String], message: String) {
        let output = MemorySink(), errors = MemorySink()
        #expect(PhotoTag.run(arguments, output: output, errors: errors) == 64)
        #expect(errors.text == message)
    }

    @Test func infoDescribesATable() {
        let result = run("places", "info", "--places", Fixtures.places)
        #expect(result.status == 0)
        #expect(
            result.output == "source: GeoNames cities-test.txt\ndate: 2024-01-01\nplaces: 8\nfile: \(Fixtures.places)\n"
        )
    }

    @Test func aMissingPlacesFileIsNamedAsThePlaceTable() {
        for result in [
            run("locate", "--places", "/nonexistent", "a.jpg"), run("places", "info", "--places", "/nonexistent"),
        ] {
            #expect(result.status == 2)
            #expect(result.errors == "phototag: place table '/nonexistent': no such file or directory\n")
        }
    }

    @Test func aBadPlacesFileStopsLocateBeforeAnyWork() {
        let photo = Fixtures.photo("ne-little-endian.jpg")
        let dump = Fixtures.root + "/geonames/cities-test.txt"
        let result = run("locate", "--places", dump, photo)
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(
            result.errors
                == "phototag: \(dump) is a GeoNames dump, not a phototag place table; build one with 'phototag places import'\n"
        )
    }

    /// The credits every bundled source asks for: GeoNames (CC BY 4.0), timezone-boundary-builder
    /// and OpenStreetMap (ODbL 1.0), Natural Earth (boundaries and seas), the IANA tz database.
    @Test func versionNamesTheToolTheDataAndTheCredit() {
        let output = run("--version").output
        #expect(
            output.hasPrefix(
                """
                phototag 0.1.0
                Place data: GeoNames cities500.txt, 234,908 places, as of 2026-07-28
                Place data © GeoNames (geonames.org), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)
                Boundaries: 444 time zones, 250 countries, 3,797 admin-1 regions, as of 2026-12-02

                """))
        for credit in [
            "timezone-boundary-builder 2026e", "© OpenStreetMap contributors", "Open Database License 1.0",
            "Natural Earth (public domain)", "IANA tz database 2026f",
            "Seas: 295 named seas and oceans, Natural Earth 1:10m marine polygons (public domain)",
        ] {
            #expect(output.contains(credit), "\(credit)")
        }
    }
}
