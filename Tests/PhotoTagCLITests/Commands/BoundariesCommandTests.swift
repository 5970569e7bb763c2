import Foundation
import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `phototag boundaries import` and `boundaries info`.
@Suite struct BoundariesCommandTests {
    /// Writes the three GeoJSON files of a tiny world: one zone, one country, one region.
    static func writeLayers(to directory: String, admin1: String? = nil) throws {
        let square = "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"
        func collection(_ properties: String) -> String {
            "{\"type\":\"FeatureCollection\",\"features\":[\n"
                + "{\"type\":\"Feature\",\"properties\":\(properties),"
                + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(square)}}\n]}\n"
        }
        try collection("{\"tzid\":\"Etc/GMT\",\"country\":null}")
            .write(toFile: directory + "/timezones.geojson", atomically: true, encoding: .utf8)
        try collection("{\"countryCode\":\"AA\"}")
            .write(toFile: directory + "/countries.geojson", atomically: true, encoding: .utf8)
        try (admin1 ?? collection("{\"countryCode\":\"AA\",\"admin1Code\":\"01\"}"))
            .write(toFile: directory + "/admin1.geojson", atomically: true, encoding: .utf8)
    }

    @Test func importWritesATableThatOpens() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeLayers(to: directory)
        let output = directory + "/test.table"
        let result = run("boundaries", "import", "--from", directory, "--output", output, "--date=2024-01-01")
        #expect(result.errors == "")
        #expect(result.status == 0)
        let size = try Data(contentsOf: URL(fileURLWithPath: output)).count
        #expect(
            result.output == """
                imported 1 time zones, 1 countries, 1 admin-1 regions
                wrote \(output) (\(grouped(size)) bytes, data of 2024-01-01)

                """)
    }

    /// Issue 27, §4: `--country-names` stores each country's name from GeoNames' countryInfo.txt
    /// (comment lines, then ISO code in column 1 and name in column 5), for countries without a
    /// place; without it the table has none. A file without a country is an error.
    @Test func countryNamesAreStoredFromCountryInfo() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeLayers(to: directory)
        let info = directory + "/countryInfo.txt"
        try "#ISO\tISO3\tISO-Numeric\tfips\tCountry\n# a comment\nAA\tAAA\t999\tAA\tAland of Tests\tCapital\n"
            .write(toFile: info, atomically: true, encoding: .utf8)
        for (names, expected) in [(true, "Aland of Tests" as String?), (false, nil)] {
            let output = directory + "/t.table"
            let arguments =
                ["boundaries", "import", "--from", directory, "--output", output]
                + (names ? ["--country-names", info] : [])
            let result = GeocodeInputTests.run(arguments)
            #expect(result.status == 0, "\(result.errors)")
            let table = try BoundaryTable(contentsOf: output)
            #expect(table.countryName(0) == expected)
            #expect(table.source.hasSuffix(", country names") == names)
        }
        try "# nothing\n".write(toFile: info, atomically: true, encoding: .utf8)
        let empty = GeocodeInputTests.run(
            ["boundaries", "import", "--from", directory, "--output", directory + "/u.table", "--country-names", info])
        #expect(empty.status == 2 && empty.errors.contains("no country in it"), "\(empty.errors)")
    }

    /// Issue 27, §4: `--seas` builds a table of named seas alone from 6-decimal marine polygons;
    /// the options of the three layers do not go with it.
    @Test func seasAreImportedIntoATableOfTheirOwn() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marine = directory + "/marine.geojson"
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"TEST SEA"},"geometry":{"type":"MultiPolygon","coordinates":\
        [[[[0.000001,0],[2,0],[2,2],[0,2],[0.000001,0]]]]}},
        {"type":"Feature","properties":{"name":""},"geometry":{"type":"Polygon","coordinates":\
        [[[5,5],[6,5],[6,6],[5,5]]]}},
        {"type":"Feature","properties":{"name":"Test Bay"},"geometry":{"type":"Polygon","coordinates":\
        [[[0.5,0.5],[0.5,1.000004],[1,1],[1,0.5],[0.5,0.5]]]}}
        ]}
        """.write(toFile: marine, atomically: true, encoding: .utf8)
        let output = directory + "/seas.table"
        let result = run("boundaries", "import", "--seas", marine, "--output", output, "--date=2026-12-02")
        #expect(result.errors == "" && result.status == 0)
        let size = try Data(contentsOf: URL(fileURLWithPath: output)).count
        #expect(
            result.output == """
                imported 2 seas (2 names); left out 1 without a name
                wrote \(output) (\(grouped(size)) bytes, data of 2026-12-02)

                """)
        let table = try BoundaryTable(contentsOf: output)
        #expect(table.seaCount == 2 && table.source == "marine.geojson")
        #expect(table.sea(Coordinate(latitude: 0.75, longitude: 0.75)!).map(table.seaName) == "Test Bay")
        #expect(table.sea(Coordinate(latitude: 1.5, longitude: 1.5)!).map(table.seaName) == "Test Sea")
        for extra in [["--from", directory], ["--country-names", marine]] {
            let refused = GeocodeInputTests.run(["boundaries", "import", "--seas", marine, "--output", output] + extra)
            #expect(refused.status == 64 && refused.errors.contains("does not go with '--seas'"), "\(refused.errors)")
        }
        let neither = GeocodeInputTests.run(["boundaries", "import", "--output", output])
        #expect(neither.status == 64 && neither.errors.contains("--from"), "\(neither.errors)")
    }

    @Test func aBadFileIsNamedWithItsLine() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeLayers(
            to: directory, admin1: "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\"}\n]}")
        let result = run("boundaries", "import", "--from", directory, "--output", directory + "/x.table")
        #expect(result.status == 2)
        #expect(
            result.errors
                == "phototag: \(directory)/admin1.geojson, line 2: a Feature lacks \"type\", \"properties\" or \"geometry\"\n"
        )
        #expect(run("boundaries", "import", "--from", directory).errors.contains("'--output' is required"))
        #expect(run("boundaries", "import", "--from", directory, "--output", "x", "--date", "May").status == 64)
    }

    @Test func infoDescribesTheBundledTable() {
        let result = run("boundaries", "info")
        #expect(result.status == 0)
        #expect(
            result.output.hasPrefix(
                "source: timezones.geojson, countries.geojson, admin1.geojson, tz rules, country names\n"
                    + "date: 2026-12-02\n"))
        #expect(
            result.output.contains(
                "admin-1 regions: 3797\nseas: 295 (a table of their own, \(grouped(BoundaryTable.bundledSeas.byteCount)) bytes)\n"
                    + "country names: 250\n"))
        #expect(run("boundaries").status == 64)
    }
}
