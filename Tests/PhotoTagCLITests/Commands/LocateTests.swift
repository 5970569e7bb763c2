import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Runs phototag in-process and returns (status, stdout, stderr).
func run(_ arguments: String...) -> (status: Int32, output: String, errors: String) {
    let output = MemorySink(), errors = MemorySink()
    let status = PhotoTag.run(arguments, output: output, errors: errors)
    return (status, output.text, errors.text)
}

@Suite struct LocateTests {
    @Test func textOutputIsOneLinePerFileInArgumentOrder() {
        let located = Fixtures.photo("ne-little-endian.jpg"), bare = Fixtures.photo("no-exif.jpg")
        let result = run("locate", "--places", Fixtures.places, located, bare)
        // The file column is as wide as the longer name, up to its cap (the paths are absolute).
        let column = min(located.count, RecordEmitter.maximumColumnWidth)
        #expect(result.status == 1)
        #expect(
            result.output == """
                \(located)  48.858222, 2.294500      Paris, Île-de-France, FR — 4.0 km W
                \(bare)\(String(repeating: " ", count: max(column - bare.count, 0) + 2))no GPS

                """)
        #expect(result.errors == "")
    }

    @Test func jsonOutputHasTheContractKeysInOrder() {
        let path = Fixtures.photo("sw-big-endian.jpg")
        let result = run("locate", "--format=json", "--places=\(Fixtures.places)", path)
        #expect(result.status == 0)
        #expect(
            result.output == """
                [
                  {
                    "file": "\(path)",
                    "sidecar": null,
                    "status": "located",
                    "gps": {
                      "latitude": -22.951869444444444,
                      "longitude": -43.210486111111116,
                      "altitude": 700.0,
                      "timestamp": "2020-02-29T09:05:00Z",
                      "direction": null,
                      "directionRef": null,
                      "speed": null,
                      "horizontalError": null,
                      "datum": null,
                      "source": "exif"
                    },
                    "place": {
                      "geonameId": 3833367,
                      "name": "Ushuaia",
                      "asciiName": "Ushuaia",
                      "admin1": "Tierra del Fuego",
                      "admin1Code": "23",
                      "admin2": "Ushuaia",
                      "countryCode": "AR",
                      "country": "Argentina",
                      "timezone": "America/Argentina/Ushuaia",
                      "population": 56825,
                      "featureCode": "PPLA",
                      "municipalityCode": null,
                      "latitude": -54.81084,
                      "longitude": -68.31591,
                      "distanceKm": 4108.046,
                      "bearing": 41,
                      "city": null,
                      "basis": "nearest",
                      "sea": null
                    },
                    "camera": {
                      "make": "PhotoTag",
                      "model": "Fixture Camera",
                      "dateTimeOriginal": null,
                      "offsetTimeOriginal": null
                    },
                    "time": {
                      "utc": "2020-02-29T09:05:00Z",
                      "local": "2020-02-29T06:05:00-03:00",
                      "offsetSource": "gps"
                    },
                    "warnings": [],
                    "error": null
                  }
                ]

                """)
    }

    @Test func jsonOutputOfEveryFixtureIsValidJSON() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/photos").sorted()
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["locate", "--json"] + names.map(Fixtures.photo), output: output, errors: errors)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.bytes)) as? [[String: Any]])
        #expect(decoded.count == names.count)
        for record in decoded {
            #expect(
                Set(record.keys) == [
                    "file", "sidecar", "status", "gps", "place", "camera", "time", "warnings", "error",
                ])
        }
    }

    @Test(
        arguments: [
            (["ne-little-endian.jpg", "sw-big-endian.jpg"], 0 as Int32),
            (["ne-little-endian.jpg", "no-exif.jpg"], 1),
            (["ne-little-endian.jpg", "zero-zero.jpg"], 1),
            (["no-exif.jpg", "empty.jpg", "ne-little-endian.jpg"], 2),
        ] as [([String], Int32)])
    func exitStatusSaysWhetherEveryFileWasLocated(files: [String], status: Int32) {
        let output = MemorySink(), errors = MemorySink()
        #expect(PhotoTag.run(["locate"] + files.map(Fixtures.photo), output: output, errors: errors) == status)
    }

    @Test func anUnreadableFileIsReportedOnStderrAndTheRunGoesOn() throws {
        let empty = Fixtures.photo("empty.jpg"), good = Fixtures.photo("equator.jpg")
        let result = run("locate", "--places", Fixtures.places, empty, good)
        #expect(result.status == 2)
        // Each line is the file's name, the padding of the file column (its width depends on
        // where the clone is: at most 48 cells, then a name pushes its own line), and the answer.
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 3 && lines[2].isEmpty, "\(result.output)")
        let answers = [
            (empty, "error: file is empty"), (good, "0.000000, 36.816667      Tiny, FR — 2145.6 km SE"),
        ]
        for (line, (name, answer)) in zip(lines, answers) {
            #expect(line.hasPrefix(name + "  "), "\(line)")
            #expect(line.dropFirst(name.count).drop { $0 == " " } == answer, "\(line)")
        }
        #expect(result.errors == "phototag: \(empty): file is empty\n")
    }

    @Test(
        arguments: [
            (
                ["locate"],
                "Error: no files given\nUsage: phototag locate [options] <file>...\nSee 'phototag help locate'.\n"
            ),
            (
                ["locate", "--format"],
                "Error: option '--format' needs a value\nUsage: phototag locate [options] <file>...\nSee 'phototag help locate'.\n"
            ),
            (
                ["locate", "--format=xml", "a.jpg"],
                "Error: unknown format 'xml' (choose from text, json, ndjson, csv, exiftool-csv, geojson, svg, html)\nUsage: phototag locate [options] <file>...\nSee 'phototag help locate'.\n"
            ),
            (
                ["locate", "--bogus", "a.jpg"],
                "Error: unknown option '--bogus'\nUsage: phototag locate [options] <file>...\nSee 'phototag help locate'.\n"
            ),
            (
                ["frobnicate"],
                "Error: unknown command 'frobnicate'\nUsage: phototag <command> [options]\nSee 'phototag help'.\n"
            ),
        ] as [([String], String)])
    func usageErrorsExitWith64AndDoNothing(arguments: [String], message: String) {
        let output = MemorySink(), errors = MemorySink()
        #expect(PhotoTag.run(arguments, output: output, errors: errors) == 64)
        #expect(output.text == "")
        #expect(errors.text == message)
    }

    @Test func doubleDashEndsOptions() {
        let result = run("locate", "--", "--format")
        #expect(result.status == 2)
        #expect(result.output == "--format  error: cannot open: no such file or directory\n")
        #expect(result.errors == "phototag: --format: cannot open: no such file or directory\n")
    }

    @Test func helpIsPrintedForTheToolAndForLocate() {
        #expect(run("--help").output == Help.text(nil))
        #expect(run("help", "locate").output == Help.text(.locate))
        #expect(run("locate", "--help").output == Help.text(.locate))
        #expect(run().output.hasPrefix("phototag: where was this photo taken?"))
    }
}
