import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `geocode` of a table on standard input (issue 23, item 1): a header names the coordinates'
/// columns, in any order and among others, and the other columns are passed through; without
/// a header, `--columns lon,lat` gives the order.
@Suite struct GeocodeTableTests {
    static func run(_ arguments: [String], _ input: String) -> GeocodeInputTests.Run {
        GeocodeInputTests.run(arguments, input: input)
    }

    /// The finding: a lon-first header was warned about and then read lat-first,
    /// putting Paris (48.8566 N, 2.3522 E) at 2.35 N, 48.86 E, in Somalia.
    @Test(arguments: ["lon,lat", "x,y", "Longitude\tLatitude", "lng;lat", "\"x\",\"y\"", "LONG LAT"])
    func aHeaderWithTheLongitudeFirstIsHonoured(header: String) throws {
        let separator = header.contains("\t") ? "\t" : header.contains(";") ? ";" : header.contains(" ") ? " " : ","
        let run = Self.run(["geocode", "--format", "ndjson"], header + "\n2.3522\(separator)48.8566\n")
        let records = try GeocodeInputTests.records(run)
        try #require(records.count == 1, "\(run)")
        #expect(records[0]["latitude"] as? Double == 48.8566)
        #expect(records[0]["longitude"] as? Double == 2.3522)
        #expect((records[0]["place"] as? [String: Any])?["countryCode"] as? String == "FR")
        #expect(records[0]["input"] == nil)  // no other columns
        #expect(run.errors == "")
        #expect(run.status == PhotoTag.ExitStatus.success)
    }

    @Test func withoutAHeaderColumnsLonLatGivesTheOrder() throws {
        let lonLat = Self.run(
            ["geocode", "--format", "ndjson", "--columns", "lon,lat"], "2.3522,48.8566\n151.2093 -33.8688\n")
        let records = try GeocodeInputTests.records(lonLat)
        #expect(records.map { $0["latitude"] as? Double } == [48.8566, -33.8688])
        #expect(records.map { $0["longitude"] as? Double } == [2.3522, 151.2093])
        #expect(lonLat.status == PhotoTag.ExitStatus.success)
        // The default, said explicitly, and a header over the option.
        let latLon = Self.run(["geocode", "--format", "ndjson", "--columns", "lat,lon"], "48.8566,2.3522\n")
        #expect(try GeocodeInputTests.records(latLon).first?["latitude"] as? Double == 48.8566)
        let headed = Self.run(["geocode", "--format", "ndjson", "--columns", "lon,lat"], "lat,lon\n48.8566,2.3522\n")
        #expect(try GeocodeInputTests.records(headed).first?["latitude"] as? Double == 48.8566)
        #expect(Self.run(["geocode", "--columns", "y,x"], "1,2\n").status == 64)
    }

    /// More columns than the coordinates, quoted fields, `;` and tabs: the other columns come
    /// out with each record, under the header's names.
    @Test func theOtherColumnsArePassedThroughInEveryFormat() throws {
        let input = "id,lat,lon,alt,note\n7,48.8566,2.3522,35,\"Paris, centre\"\n\"x\"\"1\",51.5,-0.12\n"
        let ndjson = try GeocodeInputTests.records(Self.run(["geocode", "--format", "ndjson"], input))
        #expect(ndjson.count == 2)
        let first = try #require(ndjson[0]["input"] as? [String: Any])
        #expect(first["id"] as? String == "7" && first["alt"] as? String == "35")
        #expect(first["note"] as? String == "Paris, centre")
        let second = try #require(ndjson[1]["input"] as? [String: Any])
        #expect(second["id"] as? String == "x\"1" && second["alt"] is NSNull && second["note"] is NSNull)
        #expect(ndjson[1]["latitude"] as? Double == 51.5 && ndjson[1]["line"] as? Int == 3)
        // JSON: the same object.
        let json = Self.run(["geocode", "--format", "json"], input)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect((array[0]["input"] as? [String: Any])?["note"] as? String == "Paris, centre")
        // CSV: input_ columns after the record's own, a row for each record.
        let csv = try parseCSV(Self.run(["geocode", "--format", "csv"], input).output)
        #expect(Array(csv[0].suffix(4)) == ["line", "input_id", "input_alt", "input_note"])
        #expect(Array(csv[1].suffix(3)) == ["7", "35", "Paris, centre"])
        #expect(Array(csv[2].suffix(3)) == ["x\"1", "", ""])
        #expect(csv.allSatisfy { $0.count == csv[0].count })
        // GeoJSON: flat properties, as CSV names them.
        let geojson = Self.run(["geocode", "--format", "geojson"], input)
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(geojson.output.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        let properties = try #require(features[0]["properties"] as? [String: Any])
        #expect(properties["input_id"] as? String == "7" && properties["input_note"] as? String == "Paris, centre")
    }

    /// Semicolons with decimal commas (as spreadsheets in many languages save CSV), and tabs.
    @Test func semicolonsWithDecimalCommasAndTabs() throws {
        let semicolons = try GeocodeInputTests.records(
            Self.run(["geocode", "--format", "ndjson"], "name;lon;lat\nEiffel;2,2945;48,85822\n"))
        #expect(semicolons.first?["latitude"] as? Double == 48.85822)
        #expect(semicolons.first?["longitude"] as? Double == 2.2945)
        #expect((semicolons.first?["input"] as? [String: Any])?["name"] as? String == "Eiffel")
        let tabs = try GeocodeInputTests.records(
            Self.run(["geocode", "--format", "ndjson"], "id\tx\ty\n1\t-0.12\t51.5\n"))
        #expect(tabs.first?["latitude"] as? Double == 51.5)
    }

    /// A row that is not a row of its table is an error record that still carries its columns,
    /// and says why; the rows after it are read.
    @Test func aBadRowIsAnErrorRecordAndTheRunGoesOn() throws {
        let run = Self.run(
            ["geocode", "--format", "ndjson", "--no-place"], "id,lat,lon\n1,48.85\n2,\"91\n3,95,0\n4,1,2\n")
        let records = try GeocodeInputTests.records(run)
        #expect(
            records.map { $0["error"] as? String } == [
                "'1,48.85': 2 fields, the header names 3 columns",
                "'2,\"91': a quoted field that is never closed",
                "latitude 95 is out of range (-90 to 90)",
                nil,
            ])
        #expect(records.map { ($0["input"] as? [String: Any])?["id"] as? String } == ["1", nil, "3", "4"])
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }
}
