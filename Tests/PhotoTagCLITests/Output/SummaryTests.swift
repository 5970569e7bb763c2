import Foundation
import TestSupport
import Testing

@testable import PhotoGPS
@testable import PhotoTagCLI
@testable import ReverseGeocoding

/// `--summary` in machine form (one JSON line with `json`/`ndjson`) and `--summary-file`.
@Suite struct SummaryTests {
    /// Every photo fixture: located ones, ones without GPS, invalid ones and unreadable ones.
    static func photos() throws -> [String] {
        let folder = Fixtures.root + "/photos"
        return try listDirectory(folder).sorted().map { folder + "/" + $0 }
    }

    /// Runs phototag in-process with the arguments given as an array.
    static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, output: output, errors: errors)
        return (status, output.text, errors.text)
    }

    /// A JSON object decoded by Foundation; the test fails when the text is not one.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(
            JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// The summary the records themselves add up to: statuses, countries and places by id.
    static func expectedCounts(
        ofRecords records: [[String: Any]]
    ) -> (
        statuses: [String: Int], countries: [String: Int], places: [Int: Int]
    ) {
        var statuses = ["located": 0, "no-gps": 0, "invalid-gps": 0, "error": 0]
        var countries: [String: Int] = [:], places: [Int: Int] = [:]
        for record in records {
            statuses[record["status"] as! String, default: 0] += 1
            guard record["status"] as? String == "located", let place = record["place"] as? [String: Any] else {
                continue
            }
            // At sea, a located photo is in no country: "null" here, a null code in the summary.
            countries[place["countryCode"] as? String ?? "null", default: 0] += 1
            if let id = place["geonameId"] as? Int { places[id, default: 0] += 1 }
        }
        return (statuses, countries, places)
    }

    /// Checks a decoded summary against the records: every count, every key in order.
    static func check(_ summaryLine: String, against records: [[String: Any]]) throws {
        #expect(summaryLine.hasSuffix("}\n") && summaryLine.dropLast().allSatisfy { $0 != "\n" }, "one line")
        #expect(summaryLine.hasPrefix(#"{"files":"#))
        let summary = try object(summaryLine)
        let expected = expectedCounts(ofRecords: records)
        #expect(summary["files"] as? Int == records.count)
        #expect(summary["statuses"] as? [String: Int] == expected.statuses)
        let countries = summary["countries"] as? [[String: Any]] ?? []
        #expect(
            Dictionary(
                uniqueKeysWithValues: countries.map { ($0["countryCode"] as? String ?? "null", $0["count"] as! Int) })
                == expected.countries)
        #expect(countries.map { $0["count"] as! Int }.reduce(0, +) == expected.statuses["located"])
        #expect(summary["kept"] as? Int == records.count)
        let places = summary["places"] as? [[String: Any]] ?? []
        #expect(
            Dictionary(uniqueKeysWithValues: places.map { ($0["geonameId"] as! Int, $0["count"] as! Int) })
                == expected.places)
        // Commonest first.
        let counts = places.map { $0["count"] as! Int }
        #expect(counts == counts.sorted(by: >))
        #expect(!expected.places.isEmpty, "the fixtures have located photos")
    }

    @Test func ndjsonSummaryIsOneJSONLineOnStderrThatAddsUpTheRecords() throws {
        let photos = try Self.photos()
        let result = Self.run(["locate", "--format", "ndjson", "--summary", "--places", Fixtures.places] + photos)
        let records = try result.output.split(separator: "\n").map { try Self.object(String($0)) }
        #expect(records.count == photos.count)
        // Per-file errors come first, each on its line; the summary is the last line.
        let lastLine = result.errors.split(separator: "\n").last.map { $0 + "\n" } ?? ""
        try Self.check(String(lastLine), against: records)
        #expect(result.errors.split(separator: "\n").dropLast().allSatisfy { $0.hasPrefix("phototag: ") })
    }

    @Test func jsonSummaryOfAScanGoesToTheSummaryFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/summary.json"
        let result = Self.run([
            "scan", "--format=json", "--quiet", "--summary-file", file, "--places", Fixtures.places,
            Fixtures.root + "/photos",
        ])
        #expect(result.errors == "")
        let records = try #require(
            JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]], "not a JSON array")
        #expect(!records.isEmpty)
        try Self.check(String(contentsOfFile: file, encoding: .utf8), against: records)
    }

    /// Issue 23, item 9: `--summary --json` wrote the summary to stderr, among the warnings.
    /// `--summary-file -` writes it to standard output in place of the records: the summary
    /// alone, while stderr keeps what it says of the files.
    @Test func summaryFileDashPrintsOnlyTheSummaryOnStandardOutput() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/summary.json"
        for format in ["json", "ndjson"] {
            let arguments = ["scan", "--format", format, "--places", Fixtures.places, Fixtures.root + "/photos"]
            let dash = Self.run(arguments + ["--summary-file", "-"])
            let toFile = Self.run(arguments + ["--summary-file", file])
            #expect(dash.output == (try String(contentsOfFile: file, encoding: .utf8)), "\(format)")
            #expect(try Self.object(dash.output)["files"] as? Int == 61)
            #expect(dash.output.split(separator: "\n").count == 1)
            #expect(dash.errors == toFile.errors && !dash.errors.isEmpty)  // the errors' lines, no summary
            #expect(dash.status == toFile.status)
        }
        let text = Self.run(["scan", "--summary-file", "-", "--places", Fixtures.places, Fixtures.root + "/photos"])
        #expect(text.output.hasPrefix("61 files\n"))
    }

    /// Issue 23, item 6: `scan --with-gps --summary` said `0 error` while files had failed and
    /// the exit status was 2. The summary counts every file read; a filter changes only what is
    /// printed, and the summary says how many records it kept.
    @Test func aFilteredRunsSummaryCountsEveryFileReadAndWhatTheFilterKept() throws {
        let folder = Fixtures.root + "/photos"
        let all = Self.run(["scan", "--json", "--summary-file", "-", "--places", Fixtures.places, folder])
        let unfiltered = try Self.object(all.output)
        let statuses = try #require(unfiltered["statuses"] as? [String: Int])
        #expect(statuses["error"] ?? 0 > 0 && statuses["located"] ?? 0 > 0, "the fixtures have both")
        for (filter, keptStatuses) in [
            ("--with-gps", ["located"]), ("--without-gps", ["no-gps", "invalid-gps", "error"]),
        ] {
            let base = ["scan", "--json", "--places", Fixtures.places, filter, folder]
            let summary = try Self.object(Self.run(base + ["--summary-file", "-"]).output)
            #expect(summary["files"] as? Int == unfiltered["files"] as? Int, "\(filter)")
            #expect(summary["statuses"] as? [String: Int] == statuses, "\(filter): the files read, not the printed")
            let records = Self.run(base)
            let printed = try #require(
                JSONSerialization.jsonObject(with: Data(records.output.utf8)) as? [[String: Any]])
            #expect(summary["kept"] as? Int == printed.count, "\(filter)")
            #expect(printed.count == keptStatuses.map { statuses[$0] ?? 0 }.reduce(0, +), "\(filter)")
            #expect(records.status == 2, "\(filter): a file failed")
            let text = Self.run(["scan", "--summary-file", "-", "--places", Fixtures.places, filter, folder]).output
            #expect(
                text.split(separator: "\n").contains {
                    $0.trimmingCharacters(in: .whitespaces) == "\(statuses["error"]!)  error"
                },
                "\(filter): \(text)")
            #expect(text.contains("\n\(printed.count) of them kept by the filters\n"), "\(filter): \(text)")
        }
        #expect(
            !Self.run(["scan", "--summary-file", "-", "--places", Fixtures.places, folder]).output.contains("kept"))
    }

    /// Issue 23, item 19: `locate --with-gps` was refused; it filters as `scan --with-gps` does,
    /// and its summary still counts every file.
    @Test func locateFiltersAsScanDoes() throws {
        let photos = try Self.photos()
        let result = Self.run(["locate", "--json", "--with-gps", "--places", Fixtures.places] + photos)
        let records = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(!records.isEmpty && records.allSatisfy { $0["status"] as? String == "located" })
        let all = Self.run(["locate", "--json", "--places", Fixtures.places] + photos)
        let every = try #require(JSONSerialization.jsonObject(with: Data(all.output.utf8)) as? [[String: Any]])
        #expect(records.count == every.filter { $0["status"] as? String == "located" }.count)
        #expect(result.status == all.status, "a filter does not change the exit status")
        let near = Self.run(
            [
                "locate", "--json", "--near", "48.8566,2.3522", "--within", "20", "--places", Fixtures.places,
            ] + photos)
        let close = try #require(JSONSerialization.jsonObject(with: Data(near.output.utf8)) as? [[String: Any]])
        #expect(!close.isEmpty && close.count < records.count)
    }

    /// Issue 23, item 6: the JSON summary had no count of the files skipped, and a photo at sea
    /// was in no country, so the countries did not add up to the located photos.
    @Test func theSummaryCountsSkippedFilesAndPhotosAtSea() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A photo placed in the English Channel by its sidecar, and one in Paris; the bundled
        // tables, whose boundaries say which points are in no country.
        try FileManager.default.copyItem(atPath: Fixtures.photo("no-exif.jpg"), toPath: directory + "/sea.jpg")
        try Data(SidecarText.xmp(#"exif:GPSLatitude="50,12.0N" exif:GPSLongitude="1,30.0W""#).utf8).write(
            to: URL(fileURLWithPath: directory + "/sea.jpg.xmp"))
        try FileManager.default.copyItem(
            atPath: Fixtures.photo("ne-little-endian.jpg"), toPath: directory + "/ne-little-endian.jpg")
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        let result = Self.run(["scan", "--all-files", "--json", "--summary-file", "-", directory])
        let summary = try Self.object(result.output)
        #expect(summary["files"] as? Int == 2)
        #expect(summary["skipped"] as? Int == 1)
        let countries = try #require(summary["countries"] as? [[String: Any]])
        #expect(countries.count == 2)
        #expect(countries.last?["countryCode"] is NSNull && countries.last?["count"] as? Int == 1, "\(countries)")
        #expect(countries.map { $0["count"] as! Int }.reduce(0, +) == 2)
        let text = Self.run(["scan", "--all-files", "--summary-file", "-", directory])
        #expect(text.output.contains("\n  1  --  in no country (at sea)\n"), "\(text.output)")
        #expect(text.output.contains("\n  1  skipped, not photos\n"), "\(text.output)")
    }

    /// Issue 23, item 20: the trip is an itinerary, and the HTML map's table, the JSON summary
    /// and the text summary show the same stops in the same order.
    @Test func theHTMLTableAndTheJSONAndTextSummariesShowTheSameItinerary() throws {
        let arguments = ["scan", "--places", Fixtures.places, Fixtures.root + "/photos"]
        let summary = try Self.object(Self.run(arguments + ["--json", "--summary-file", "-"]).output)
        let trip = try #require(summary["trip"] as? [[String: Any]])
        var fromJSON: [String] = []
        for country in trip {
            fromJSON.append("\(country["countryCode"] as? String ?? "--") \(country["count"] as! Int)")
            for place in country["places"] as! [[String: Any]] {
                fromJSON.append("  \(place["name"] as? String ?? "") \(place["count"] as! Int)")
            }
        }
        // Country, then place: the same stop twice when the trip comes back (FR, AR, FR…).
        #expect(fromJSON.filter { !$0.hasPrefix(" ") }.prefix(5) == ["FR 4", "AR 1", "FR 1", "FJ 1", "FR 1"])
        let html = Self.run(arguments + ["--format", "html"]).output
        var fromHTML: [String] = []
        for row in html.components(separatedBy: "<tr class=\"").dropFirst() {
            let cells = row.components(separatedBy: "<td").dropFirst().map {
                String($0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
                    .replacingOccurrences(of: "&quot;", with: "\"")
            }
            fromHTML.append(
                row.hasPrefix("country") ? "\(cells[0]) \(cells[3])" : "  \(cells[2]) \(cells[3])")
        }
        #expect(fromHTML == fromJSON)
        let text = Self.run(arguments + ["--summary-file", "-"]).output
        let tripLines = text.components(separatedBy: "trip:\n").last!.split(separator: "\n")
        #expect(tripLines.count == fromJSON.count)
    }

    @Test func textAndCSVWriteTheTextSummaryToTheFileAndStillPrintTheRecords() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let photo = Fixtures.photo("ne-little-endian.jpg")
        for format in ["text", "csv", "geojson"] {
            let file = directory + "/summary-\(format).txt"
            let result = Self.run([
                "locate", "--format", format, "--summary-file", file, "--places", Fixtures.places, photo,
            ])
            let plain = Self.run(["locate", "--format", format, "--places", Fixtures.places, photo])
            #expect(result.status == 0)
            #expect(result.output == plain.output, "\(format): the records as without a summary")
            #expect(result.errors == "")
            #expect(
                try String(contentsOfFile: file, encoding: .utf8)
                    == "1 file\n  1  located\n  0  no GPS\n  0  invalid GPS\n  0  error\ncountries:\n  1  FR  France\nplaces:\n"
                    + "  1  Paris, Île-de-France, FR\ntrip:\n  FR  1 photo  2019-07-01\n  FR  Paris  1 photo  2019-07-01\n",
                "\(format)")
        }
    }

    @Test func aSummaryFileThatCannotBeWrittenIsAnError() {
        let result = Self.run([
            "locate", "--json", "--summary-file", "/nonexistent/summary.json", "--places", Fixtures.places,
            Fixtures.photo("ne-little-endian.jpg"),
        ])
        #expect(result.status == 2)
        #expect(result.errors == "phototag: summary file '/nonexistent/summary.json': no such file or directory\n")
    }

    @Test func theJSONSummaryHoldsEveryPlaceInAStableOrder() throws {
        var summary = Summary()
        // 25 places, place i seen i times, plus two places of one name in one region.
        func add(_ place: Place, times: Int) {
            let match = PlaceMatch(place: place, distanceKm: 1, bearing: 0)
            for _ in 0..<times { summary.add(.located, PlaceAnswer(nearest: match)) }
        }
        for index in 1...25 {
            add(
                Place(
                    geonameId: 1000 + index, name: "Town \(index)", asciiName: "Town \(index)", admin1: "Region",
                    countryCode: index.isMultiple(of: 2) ? "FR" : "DE",
                    country: index.isMultiple(of: 2) ? "France" : "Germany",
                    latitude: 0, longitude: 0), times: index)
        }
        for id in [2, 1] {
            add(
                Place(geonameId: id, name: "Twin", asciiName: "Twin", countryCode: "IT", latitude: 0, longitude: 0),
                times: 1)
        }
        let json = summary.json()
        let decoded = try Self.object(json)
        let places = decoded["places"] as? [[String: Any]] ?? []
        #expect(places.count == 27)
        #expect(places.prefix(2).map { $0["name"] as? String } == ["Town 25", "Town 24"])
        #expect(places.suffix(3).map { $0["geonameId"] as? Int } == [1001, 1, 2])
        #expect(places.last?["admin1"] is NSNull)
        #expect(decoded["files"] as? Int == 327)
        #expect(
            json.hasPrefix(
                #"{"files":327,"kept":327,"skipped":0,"statuses":{"located":327,"no-gps":0,"invalid-gps":0,"error":0},"countries":[{"countryCode":"DE","country":"Germany","count":169},{"countryCode":"FR","country":"France","count":156},{"countryCode":"IT","country":null,"count":2}],"places":[{"geonameId":1025,"name":"Town 25","admin1":"Region","countryCode":"DE","count":25},"#
            ))
        // The text summary still shows the 20 commonest, by label: the twins are one line there.
        #expect(summary.text().contains("places (the 20 commonest of 26):"))
    }
}
