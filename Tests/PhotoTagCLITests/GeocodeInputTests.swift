import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import ReverseGeocoding

/// What `geocode` reads: headers, first lines, byte order marks, degrees-minutes-seconds, and
/// what it prints with `--coordinates dms` and `--nearest` in CSV.
@Suite struct GeocodeInputTests {
    /// One in-process run: exit status, standard output and standard error.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String], input: String = "", chunk: Int = .max) -> Run {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, input: MemoryInput(input, chunk: chunk), output: output, errors: errors)
        return Run(status: status, output: output.text, errors: errors.text)
    }

    /// The NDJSON records of a run, decoded.
    static func records(_ run: Run) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    // MARK: - --nearest with CSV

    /// The k nearest places get columns of their own, for locate, scan and geocode alike.
    @Test func csvHasColumnsForTheNearestPlaces() throws {
        let runs = [
            Self.run(["geocode", "--format", "csv", "--nearest", "3"], input: "48.85,2.35\n-33.9,151.2\n95,1\n"),
            Self.run(["locate", "--format", "csv", "--nearest", "3", Fixtures.photo("altitude-wrapped.jpg")]),
            Self.run([
                "scan", "--format", "csv", "--nearest", "3", "--with-gps", "--no-progress", Fixtures.root + "/photos",
            ]),
        ]
        for run in runs {
            let rows = try parseCSV(run.output)
            try #require(rows.count >= 2, "\(run)")
            let header = rows[0]
            #expect(rows.allSatisfy { $0.count == header.count })
            for index in 1...3 {
                for field in ["geoname_id", "name", "admin1", "country_code", "distance_km", "bearing"] {
                    #expect(header.contains("nearby_\(index)_\(field)"))
                }
            }
            #expect(!header.contains("nearby_4_name"))
            #expect(header.firstIndex(of: "nearby_1_geoname_id") == header.firstIndex(of: "place_bearing")! + 1)
            let column = { (name: String) in header.firstIndex(of: name)! }
            for row in rows.dropFirst() where !row[column("place_name")].isEmpty {
                #expect(row[column("nearby_1_name")] == row[column("place_name")])
                #expect(row[column("nearby_1_distance_km")] == row[column("place_distance_km")])
                #expect(!row[column("nearby_3_name")].isEmpty)
                #expect(!row[column("nearby_3_geoname_id")].isEmpty)
                #expect(Double(row[column("nearby_3_distance_km")])! >= Double(row[column("nearby_2_distance_km")])!)
            }
        }
        // Without --nearest, the columns are as before.
        let plain = try parseCSV(Self.run(["geocode", "--format", "csv", "1,2"]).output)
        #expect(plain[0] == CSVColumns.coordinate)
    }
}
