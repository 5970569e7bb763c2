import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import PhotoTagSupport
@testable import ReverseGeocoding

/// Issue 23, item 17: `geocode` in CSV and text took 2.4 and 2.9 times its NDJSON time. Both are
/// now written straight from the lookup (`CSVRowWriter`, `TextLine`); these check that the fast
/// lines are byte for byte what the record path renders, over seeded points of the whole world
/// (land, sea, cities and their districts), with the bundled tables.
@Suite struct GeocodeFastPathTests {
    static func points(_ count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededGenerator(state: seed)
        return (0..<count).map { index in
            // Half anywhere, half near big cities (districts, distinct cities).
            if index.isMultiple(of: 2) {
                return Coordinate(
                    latitude: Double.random(in: -80...80, using: &random),
                    longitude: Double.random(in: -180...180, using: &random))!
            }
            let cities = [(48.8566, 2.3522), (52.52, 13.405), (35.68, 139.76), (-33.87, 151.21), (40.71, -74.0)]
            let city = cities[index / 2 % cities.count]
            return Coordinate(
                latitude: city.0 + Double.random(in: -0.3...0.3, using: &random),
                longitude: city.1 + Double.random(in: -0.3...0.3, using: &random))!
        }
    }

    static func recordLine(_ formatter: RecordFormatter, _ coordinate: Coordinate, line: Int) -> [UInt8] {
        var record = CoordinateRecord(line: line)
        record.coordinate = coordinate
        record.place = formatter.place.lookUp(coordinate, in: PlaceLocator.bundled)
        let out = ByteBuffer(capacity: 512)
        formatter.append(.coordinate(record), at: 1, to: out)
        return out.bytes
    }

    /// The place options without `--lang`, and with it in German and Japanese.
    static let languages: [PlaceOptions] = [nil, "de", "ja"].map { tag in
        var options = PlaceOptions()
        options.names = tag.flatMap(NameLanguage.init).map(PlaceNames.bundled.localized)
        return options
    }

    @Test(arguments: languages)
    func theTextLineIsWhatTheRecordRenders(_ place: PlaceOptions) {
        var formatter = RecordFormatter(format: .text, nearby: false, style: TextStyle(enabled: false), photos: false)
        formatter.place = place
        var fast = 0
        for coordinate in Self.points(4000, seed: 17) {
            let location = place.locate(coordinate, in: PlaceLocator.bundled)
            let out = ByteBuffer(capacity: 512)
            guard TextLine.appendPlaced(coordinate, location, names: place.names, to: out) else { continue }
            fast += 1
            out.append(0x0A)
            let expected = Self.recordLine(formatter, coordinate, line: 1)
            #expect(out.bytes == expected, "\(String(decoding: out.bytes, as: UTF8.self))")
        }
        #expect(fast > 3900, "nearly every point takes the fast path")
        for value in [0.0, -0.0, -0.0000004, 0.0000005, 179.9999996, -12.3456785, 1e17] {
            let out = ByteBuffer(capacity: 64)
            TextLine.appendFixed(value, 6, to: out)
            #expect(String(decoding: out.bytes, as: UTF8.self) == fixed(value, 6), "\(value)")
        }
    }

    @Test(arguments: languages)
    func theCSVRowIsWhatTheRecordWrites(_ place: PlaceOptions) {
        var formatter = RecordFormatter(format: .csv, nearby: false, style: TextStyle(enabled: false), photos: false)
        formatter.place = place
        let input = InputValues(names: ["id", "note"], values: ["7", "=x, \"y\""])
        for (index, coordinate) in Self.points(2000, seed: 23).enumerated() {
            let location = place.locate(coordinate, in: PlaceLocator.bundled)
            let out = ByteBuffer(capacity: 1024)
            CoordinateRecord.writeCSV(
                coordinate: coordinate, location: location, line: index, input: input, guardFormulas: true,
                columns: place.names != nil ? .local : [], to: out)
            var record = CoordinateRecord(line: index, input: input)
            record.coordinate = coordinate
            record.place = place.lookUp(coordinate, in: PlaceLocator.bundled)
            let expected = ByteBuffer(capacity: 1024)
            formatter.append(.coordinate(record), at: 1, to: expected)
            #expect(out.bytes == expected.bytes, "\(String(decoding: out.bytes, as: UTF8.self))")
        }
    }

    @Test func csvCellsAreQuotedAndDefusedAsRFC4180AndOWASPSay() throws {
        let out = ByteBuffer(capacity: 256)
        let input = InputValues(names: ["a", "b", "c", "d"], values: ["plain", "say \"hi\", twice", "-12", "@x\ny"])
        var record = CoordinateRecord(line: 3, input: input)
        record.error = "bad"
        record.writeCSV(to: out, nearby: 0, guardFormulas: true, columns: [])
        let rows = try parseCSV(String(decoding: out.bytes, as: UTF8.self))
        #expect(rows.count == 1)
        #expect(rows[0].suffix(4) == ["plain", "say \"hi\", twice", "-12", "'@x\ny"])
    }
}
