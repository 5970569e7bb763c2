import Foundation
import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Properties of the output formats that golden files alone do not show.
@Suite struct FormatTests {
    static func golden(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.root + "/expected/" + name))
    }

    @Test(arguments: OutputFormat.allCases)
    func emittingToASinkWritesWhatEmitReturns(format: OutputFormat) {
        let formatter = RecordFormatter(format: format, nearby: false, style: TextStyle(enabled: false), photos: true)
        var toArray = RecordEmitter(formatter: formatter, columnWidth: 12)
        var toSink = RecordEmitter(formatter: formatter, columnWidth: 12)
        let sink = MemorySink()
        var expected: [UInt8] = []
        for index in 0..<3 {
            let text = format == .text
            let rendered = RecordFormatter.Rendered(
                bytes: Array("{\"record\":\(index)}".utf8), column: text ? "file \(index)" : nil,
                more: text ? ["nearby \(index)"] : [])
            expected += toArray.emit(rendered)
            toSink.emit(rendered, to: sink)
        }
        #expect(sink.bytes == expected)
        #expect(toSink.count == 3)
    }

    @Test(arguments: OutputFormat.allCases)
    func aPhotoRendersTheSameFromTheRecordAsFromARecordOfIt(format: OutputFormat) throws {
        let formatter = RecordFormatter(format: format, nearby: false, style: TextStyle(enabled: false), photos: true)
        // One batch: each JSON record after the one before in `batch`, the others through `scratch`.
        let batch = ByteBuffer(capacity: 16), scratch = ByteBuffer(capacity: 16)
        for name in ["ne-little-endian.jpg", "no-exif.jpg", "gps-date-invalid.jpg", "ne-little-endian.jpg"] {
            var record = PhotoRecord(file: name, reading: GPSReader().read(path: Fixtures.photo(name)))
            record.resolveTime()
            let expected = formatter.render(.photo(record))
            let rendered = formatter.render(photo: record, appendingTo: batch, scratch: scratch)
            let bytes = rendered.span.map { span in batch.withUnsafeBytes { Array($0[span]) } } ?? rendered.bytes
            #expect(bytes == expected.bytes && rendered.column == expected.column)
            #expect(rendered.more == expected.more)
            #expect((rendered.span != nil) == (format == .json || format == .ndjson))
            if let span = rendered.span { #expect(span.upperBound == batch.count) }
        }
    }

    @Test(arguments: [OutputFormat.json, .ndjson, .csv])
    func recordsRenderedIntoOneBatchAreWrittenFromItsBytes(format: OutputFormat) throws {
        let formatter = RecordFormatter(format: format, nearby: false, style: TextStyle(enabled: false), photos: true)
        let batch = ByteBuffer(capacity: 16), scratch = ByteBuffer(capacity: 16)
        var expected: [UInt8] = [], renderings: [RecordFormatter.Rendered] = []
        var byRecord = RecordEmitter(formatter: formatter)
        for name in ["ne-little-endian.jpg", "no-exif.jpg", "gps-date-invalid.jpg"] {
            var record = PhotoRecord(file: name, reading: GPSReader().read(path: Fixtures.photo(name)))
            record.resolveTime()
            expected += byRecord.emit(formatter.render(.photo(record)))
            renderings.append(formatter.render(photo: record, appendingTo: batch, scratch: scratch))
        }
        let bytes = batch.bytes
        let sink = MemorySink()
        var emitter = RecordEmitter(formatter: formatter)
        bytes.withUnsafeBytes { bytes in
            for rendered in renderings { emitter.emit(rendered, to: sink, batch: bytes) }
        }
        #expect(sink.bytes == expected)
    }

    @Test func jsonAndGeoJSONDecodeWithFoundation() throws {
        for name in ["locate-all.json.out", "geocode-stdin.json.out", "locate-nearest.json.out"] {
            #expect(try JSONSerialization.jsonObject(with: Self.golden(name)) is [Any], "\(name)")
        }
        for name in ["locate-all.geojson.out", "geocode-stdin.geojson.out", "scan-near.geojson.out"] {
            let collection = try #require(try JSONSerialization.jsonObject(with: Self.golden(name)) as? [String: Any])
            #expect(collection["type"] as? String == "FeatureCollection")
        }
        for name in ["locate-all.ndjson.out", "geocode-stdin.ndjson.out", "scan-photos.ndjson.out"] {
            let lines = String(decoding: try Self.golden(name), as: UTF8.self).split(separator: "\n")
            #expect(!lines.isEmpty)
            for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
        }
    }

    @Test func geoJSONPointsAreLongitudeLatitudeAltitude() throws {
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Self.golden("locate-all.geojson.out")) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        // GeoJSON holds the located photos only: as many as the NDJSON of the same run has.
        let located = String(decoding: try Self.golden("locate-all.ndjson.out"), as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("\"status\":\"located\"") }
        #expect(features.count == located.count)
        var points = 0
        for feature in features {
            let properties = try #require(feature["properties"] as? [String: Any])
            guard let geometry = feature["geometry"] as? [String: Any] else {
                #expect(properties["status"] as? String != "located")
                continue
            }
            points += 1
            let coordinates = try #require(geometry["coordinates"] as? [Double])
            #expect(geometry["type"] as? String == "Point")
            #expect(coordinates[0] == properties["longitude"] as? Double)  // RFC 7946: longitude first
            #expect(coordinates[1] == properties["latitude"] as? Double)
            #expect(coordinates.count == ((properties["altitude"] as? Double) == nil ? 2 : 3))
        }
        #expect(points > 20)
        #expect(
            points == features.filter { ($0["properties"] as? [String: Any])?["status"] as? String == "located" }.count)
    }

    /// GeoJSON properties are the CSV columns, flat, by the same names in the same order, with the
    /// same values, typed: numbers as numbers, absent values as `null`.
    @Test func geoJSONPropertiesAreTheCSVColumnsTyped() throws {
        let photos = try listDirectory(Fixtures.root + "/photos").sorted().map(Fixtures.photo)
        let points = try String(contentsOfFile: Fixtures.root + "/geocode/points.txt", encoding: .utf8)
        let runs: [(arguments: [String], input: String, columns: [String])] = [
            (["locate", "--places", Fixtures.places] + photos, "", CSVColumns.photo),
            (["geocode", "--places", Fixtures.places], points, CSVColumns.coordinate),
            (["geocode", "--places", Fixtures.places, "--max-distance", "300"], points, CSVColumns.coordinate),
        ]
        for run in runs {
            func output(_ format: String) -> String {
                let output = MemorySink(), errors = MemorySink()
                // Every record, as in the CSV: GeoJSON keeps the unlocated ones only when asked.
                let every = format == "geojson" ? ["--all-records"] : []
                _ = PhotoTag.run(
                    run.arguments + ["--format", format] + every, input: MemoryInput(run.input), output: output,
                    errors: errors)
                return output.text
            }
            let rows = try parseCSV(output("csv"))
            #expect(rows.first == run.columns)
            let geoJSON = output("geojson")
            let collection = try #require(
                try JSONSerialization.jsonObject(with: Data(geoJSON.utf8)) as? [String: Any])
            let features = try #require(collection["features"] as? [[String: Any]])
            #expect(features.count == rows.count - 1)
            #expect(features.count > 5)
            // The keys in the CSV order, and the numbers as written, read from the text: a
            // dictionary has no order, and Foundation's parser rounds some numbers differently.
            var writtenNumbers: [[String: String]] = []
            for line in geoJSON.split(separator: "\n").dropFirst().dropLast() {
                let properties = try #require(line.split(separator: #""properties":"#).last)
                let keys = properties.matches(of: /"([a-z0-9_]+)":/).map { String($0.output.1) }
                #expect(keys == run.columns)
                writtenNumbers.append(
                    Dictionary(
                        properties.matches(of: /"([a-z0-9_]+)":(-?[0-9][0-9.eE+-]*)/).map {
                            (String($0.output.1), String($0.output.2))
                        }, uniquingKeysWith: { first, _ in first }))
            }
            #expect(writtenNumbers.count == features.count)
            for ((feature, row), numbers) in zip(zip(features, rows.dropFirst()), writtenNumbers) {
                let properties = try #require(feature["properties"] as? [String: Any])
                #expect(Set(properties.keys) == Set(run.columns))
                for (column, field) in zip(run.columns, row) {
                    let value = properties[column]
                    if field.isEmpty {
                        #expect(value is NSNull || value as? String == "", "\(column)")
                    } else if let number = numbers[column] {
                        #expect(Double(field) == Double(number), "\(column): \(field)")
                    } else {
                        #expect(value as? String == field, "\(column)")
                    }
                }
                for column in ["latitude", "longitude", "place_latitude", "place_population", "place_distance_km"]
                where properties[column] is NSNull == false {
                    #expect(properties[column] is NSNumber && !(properties[column] is String), "\(column)")
                }
            }
        }
    }

    /// GDAL (QGIS and the other GIS tools) reads the GeoJSON properties as typed fields, not as
    /// `String(JSON)`, and a GeoPackage made from it keeps every record.
    @Test(.enabled(if: ManualTests.available("ogrinfo"), "ogrinfo (Debian gdal-bin) is not installed"))
    func gdalReadsTypedFieldsAndAGeoPackageKeepsEveryRecord() throws {
        let scratch = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var folders = [Fixtures.root + "/photos"]
        if Corpus.available { folders.append(Corpus.directory) }
        for (index, folder) in folders.enumerated() {
            let scan = try Binary.run(["scan", "--places", EndToEndTests.table, "--format", "geojson", "-q", folder])
            let collection = try #require(try JSONSerialization.jsonObject(with: scan.output) as? [String: Any])
            let records = try #require(collection["features"] as? [Any]).count
            #expect(records > 20)
            let geoJSON = "\(scratch)/scan\(index).geojson", geoPackage = "\(scratch)/scan\(index).gpkg"
            try scan.output.write(to: URL(fileURLWithPath: geoJSON))
            let summary = try Self.tool("ogrinfo", ["-ro", "-al", "-so", geoJSON])
            #expect(!summary.contains("String(JSON)"))
            for (field, type) in [
                ("file", "String"), ("status", "String"), ("latitude", "Real"), ("longitude", "Real"),
                ("place_name", "String"), ("place_country_code", "String"), ("place_population", "Integer"),
                ("place_distance_km", "Real"), ("make", "String"),
            ] {
                #expect(summary.contains("\n\(field): \(type) "), "\(folder): \(field) is not \(type)")
            }
            #expect(summary.contains("Feature Count: \(records)\n"))
            _ = try Self.tool("ogr2ogr", ["-f", "GPKG", geoPackage, geoJSON])
            let converted = try Self.tool("ogrinfo", ["-ro", "-al", "-so", geoPackage])
            #expect(converted.contains("Feature Count: \(records)\n"), "\(folder)")
            #expect(converted.contains("\nplace_name: String "))
        }
    }

    /// Runs a tool and returns its standard output; a failure is recorded.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name) \(arguments)")
        return String(decoding: output, as: UTF8.self)
    }

    @Test func csvRoundTripsAndHasOneColumnPerHeader() throws {
        for name in ["locate-all.csv.out", "geocode-stdin.csv.out"] {
            let rows = try parseCSV(String(decoding: try Self.golden(name), as: UTF8.self))
            #expect(rows.count > 1)
            #expect(rows.allSatisfy { $0.count == rows[0].count }, "\(name)")
        }
        #expect(
            csvRow(["plain", "a,b", "say \"hi\"", "two\nlines", nil, ""])
                == Array("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,\r\n".utf8))
    }

    @Test func jsonEscapesControlCharactersAndKeepsUnicode() {
        let out = ByteBuffer()
        JSONWriter.appendQuoted("tab\tquote\"slash\\nl\nbell\u{07}é\u{FFFD}", to: out)
        #expect(String(decoding: out.bytes, as: UTF8.self) == #""tab\tquote\"slash\\nl\nbell\u0007é�""#)
    }

    /// `geocode` writes places straight from the table's bytes; `locate` from a ``Place``. Both
    /// must give the same JSON, escapes and non-ASCII text included.
    @Test func placesBorrowedFromTheTableAreWrittenAsPlacesAre() throws {
        let names = ["Paris", "Île-de-France", "say \"hi\"", "back\\slash", "tab\there", "del\u{7F}", "東京", ""]
        let places = names.enumerated().map { index, name in
            Place(
                geonameId: index + 1, name: name, asciiName: name.isEmpty ? "x" : "ascii \(index)",
                admin1: index % 2 == 0 ? name : nil, admin2: nil, countryCode: "FR", country: "Fr\"ance",
                timeZone: index % 3 == 0 ? nil : "Europe/Paris", population: index * 1000,
                featureCode: index == 1 ? nil : "PPL", latitude: Double(index) * 7.25 - 20,
                longitude: Double(index) * 11.5)
        }
        let geocoder = try ReverseGeocoder(
            tableBytes: try PlaceTableBuilder(source: "test", date: "2026-01-01").build(places))
        let locator = PlaceLocator(geocoder: geocoder, boundaries: nil)
        for place in places {
            let query = try #require(Coordinate(latitude: place.latitude + 0.01, longitude: place.longitude - 0.02))
            let location = locator.locate(query)
            let owned = try #require(geocoder.nearestPlace(to: query))
            #expect(location.nearest?.placeMatch.place == owned.place)
            for pretty in [false, true] {
                var borrowedJSON = JSONWriter(pretty: pretty), ownedJSON = JSONWriter(pretty: pretty)
                writePlace(location, to: &borrowedJSON)
                writePlace(owned, to: &ownedJSON)
                let borrowed = try #require(
                    try JSONSerialization.jsonObject(with: Data(borrowedJSON.bytes)) as? NSDictionary)
                let ownedObject = try #require(
                    try JSONSerialization.jsonObject(with: Data(ownedJSON.bytes)) as? NSDictionary)
                // The record's place is the nearby object of the same place, plus city, basis and sea.
                for case let key as String in ownedObject.allKeys {
                    #expect(
                        (borrowed[key] as? NSObject) == (ownedObject[key] as? NSObject), "\(place.name): \(key)")
                }
                #expect(borrowed["basis"] as? String == "nearest")
                #expect(borrowed["sea"] is NSNull)
                #expect(borrowed.count == ownedObject.count + 3)
            }
            var json = JSONWriter(pretty: false)
            writePlace(location, to: &json)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
            #expect(object["name"] as? String == place.name)
            #expect(object["admin1"] as? String == place.admin1)
        }
    }

    @Test func distancesAreWrittenAsTheRoundedDoubleWouldBe() {
        var random = SeededGenerator(state: 12)
        var values = [0, 0.0004, 0.0005, 0.001, 0.009, 0.01, 0.09, 0.1, 0.5, 1, 4.0093, 20_015.114442035923]
        for _ in 0..<20_000 { values.append(Double.random(in: 0...20_100, using: &random)) }
        for value in values {
            let fast = JSONWriter(pretty: false)
            var writer = fast
            writer.metres(value)
            let slow = JSONWriter(pretty: false)
            var reference = slow
            reference.number(roundedDistance(value))
            #expect(writer.bytes == reference.bytes, "\(value)")
        }
    }

    @Test func shortDecimalsAreWrittenExactlyAsDescriptionWrites() {
        var random = SeededGenerator(state: 21)
        var values: [Double] = [
            0.0001, 1, 17, -17, 0.5, -0.0702668333333333, 48.85341, 2.2944999999999998, 1e-5, 123456789,
        ]
        for _ in 0..<100_000 {
            let decimals = Int.random(in: 0...8, using: &random)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            values.append(Double(Int.random(in: -18_000_000_000...18_000_000_000, using: &random)) / scale)
            values.append(Double.random(in: -180...180, using: &random))
        }
        for value in values {
            let out = ByteBuffer()
            if JSONWriter.appendShortDecimal(value, to: out) {
                #expect(String(decoding: out.bytes, as: UTF8.self) == value.description, "\(value)")
            }
        }
    }

    /// Below 10^6, a number of at most seven decimals is always written by the integer path (the
    /// one test at seven decimals must not turn away a value that fewer decimals give), and
    /// exactly as `description` writes it.
    @Test func everyNumberOfAtMostSevenDecimalsBelowAMillionTakesTheShortPath() {
        var random = SeededGenerator(state: 22)
        var values: [Double] = [0.0001, 0.1, 0.3, 999_999.9999999, -999_999.5, 48.85341, -33.86785, 151.20732, 1e-4]
        for _ in 0..<200_000 {
            let decimals = Int.random(in: 0...7, using: &random)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let limit = Int(scale * 1e6) - 1
            let units = Int.random(in: -limit...limit, using: &random)
            guard Double(units.magnitude) / scale >= 1e-4 else { continue }
            values.append(Double(units) / scale)
        }
        for value in values {
            let out = ByteBuffer()
            let written = JSONWriter.appendShortDecimal(value, to: out)
            #expect(written, "\(value)")
            if written { #expect(String(decoding: out.bytes, as: UTF8.self) == value.description, "\(value)") }
        }
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
        let photo = Fixtures.photo("ne-little-endian.jpg")
        func text(terminal: Bool, _ environment: [String: String]) -> String {
            let output = MemorySink(isTerminal: terminal), errors = MemorySink()
            _ = PhotoTag.run(
                ["locate", "--places", Fixtures.places, photo], output: output, errors: errors,
                environment: Environment(environment))
            return output.text
        }
        #expect(text(terminal: true, [:]).contains("\u{1B}[32m"))
        #expect(!text(terminal: true, ["NO_COLOR": "1"]).contains("\u{1B}["))
        #expect(!text(terminal: true, ["TERM": "dumb"]).contains("\u{1B}["))
        #expect(!text(terminal: false, [:]).contains("\u{1B}["))
        #expect(text(terminal: true, ["NO_COLOR": ""]).contains("\u{1B}[32m"))  // empty means unset
    }

    @Test func geocodeInputSplitAnywhereGivesTheSameRecords() throws {
        let points = try String(contentsOfFile: Fixtures.root + "/geocode/points.txt", encoding: .utf8)
        func run(chunk: Int) -> (Int32, String) {
            let output = MemorySink(), errors = MemorySink()
            let status = PhotoTag.run(
                ["geocode", "--places", Fixtures.places, "--format", "ndjson"],
                input: MemoryInput(points, chunk: chunk),
                output: output, errors: errors)
            return (status, output.text)
        }
        let whole = run(chunk: .max)
        for chunk in [1, 2, 3, 7, 64] { #expect(run(chunk: chunk) == whole) }
        // And a last line without a newline still counts.
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["geocode", "--no-place"], input: MemoryInput("1,2\n3,4"), output: output, errors: errors)
        #expect(output.text == "1.000000, 2.000000       no place\n3.000000, 4.000000       no place\n")
    }

    @Test func manyCoordinatesAreGeocodedInParallelInInputOrder() throws {
        var lines = ""
        for index in 0..<5000 { lines += "\(Double(index % 180) - 89.5),\(Double(index % 360) - 179.5)\n" }
        let output = MemorySink(), errors = MemorySink()
        #expect(
            PhotoTag.run(
                ["geocode", "--places", Fixtures.places, "--format", "csv"], input: MemoryInput(lines), output: output,
                errors: errors)
                == 0)
        let rows = try parseCSV(output.text)
        #expect(rows.count == 5001)
        #expect(rows[1][0] == "-89.5" && rows[5000][0] == String(Double(4999 % 180) - 89.5))
    }

    @Test func theProgressBarDrawsCountsAndErasesItself() {
        let sink = MemorySink(isTerminal: true)
        let bar = ProgressBar(sink: sink, enabled: true, delay: 0)
        bar.total = 4
        bar.totalIsFinal = true
        bar.advance()
        bar.finish()
        #expect(sink.text.hasPrefix("\r\u{1B}[K[#####...............] 1/4 files  0 located  "))
        #expect(sink.text.hasSuffix("\r\u{1B}[K"))
        let silent = MemorySink(isTerminal: true)
        let disabled = ProgressBar(sink: silent, enabled: false, delay: 0)
        disabled.advance()
        disabled.finish()
        #expect(silent.text.isEmpty)
    }

    /// Issue 23, item 18: the bar was a count and a rate. It shows the files done of the total,
    /// the located ones, the rate, the time elapsed and the time left, within 80 columns; a count
    /// while the total is not known; spaces instead of escapes under `TERM=dumb`.
    @Test func theProgressBarShowsLocatedElapsedAndTimeLeft() {
        nonisolated(unsafe) var now = 100.0
        let sink = MemorySink(isTerminal: true)
        let bar = ProgressBar(sink: sink, enabled: true, delay: 0, clock: { now })
        bar.total = 1000
        for index in 0..<250 {
            now += 0.04  // 25 files a second
            bar.advance(located: index.isMultiple(of: 5))
        }
        let last = sink.text.components(separatedBy: "\r\u{1B}[K").last ?? ""
        #expect(last == "250 of 1,000+ files  50 located  25/s  0:10", "\(last)")
        bar.totalIsFinal = true
        now += 0.2
        bar.advance(located: true)
        let final = sink.text.components(separatedBy: "\r\u{1B}[K").last ?? ""
        #expect(final == "[#####...............] 251/1,000 files  51 located  25/s  0:10  ETA 0:31", "\(final)")
        bar.finish()
        #expect(sink.text.hasSuffix("\r\u{1B}[K"))
        // Big numbers: the rate, then the time elapsed, give way; the line never passes 79 columns.
        let wide = ProgressBar.line(
            done: 117_000, total: 1_170_000, totalIsFinal: true, located: 80_000, elapsed: 36_000)
        #expect(wide.count <= 79 && wide.contains("ETA") && wide.contains("80,000 located"), "\(wide)")
        #expect(ProgressBar.clockText(3723) == "1:02:03" && ProgressBar.clockText(7) == "0:07")
        // TERM=dumb: spaces over the previous bar, no escape sequence.
        let dumb = MemorySink(isTerminal: true)
        let plain = ProgressBar(sink: dumb, enabled: true, plain: true, delay: 0, clock: { now })
        plain.total = 4
        plain.totalIsFinal = true
        plain.advance()
        plain.finish()
        #expect(!dumb.text.contains("\u{1B}") && dumb.text.contains("[#####...............] 1/4 files"))
    }

    /// The interrupt handler's erasing, on one thread, comes after a bar another thread is writing,
    /// and no bar is drawn after it (a bar drawn in between was left on screen once, under
    /// AddressSanitizer, whose slower calls widened the window).
    @Test func theInterruptEraserWaitsForABarBeingWrittenAndStopsTheNext() {
        let gate = DrawGate()
        let events = Locked<[String]>([])
        let drawing = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            #expect(gate.beginDrawing())
            drawing.signal()
            usleep(100_000)  // a slow write of the bar
            events.withLock { $0.append("bar") }
            gate.endDrawing()
            finished.signal()
        }
        drawing.wait()
        gate.close(waitingUpTo: 5_000)
        events.withLock { $0.append("erase") }
        finished.wait()
        #expect(events.withLock { $0 } == ["bar", "erase"])
        #expect(!gate.beginDrawing())
    }

    @Test func theInterruptEraserDoesNotWaitForItsOwnThread() {
        let gate = DrawGate()
        #expect(gate.beginDrawing())
        let start = Date()
        gate.close(waitingUpTo: 5_000)  // a handler that interrupted this thread's own drawing
        #expect(Date().timeIntervalSince(start) < 1)
    }
}

/// A photo record keeps its path as bytes and writes them as they are when they are UTF-8, the
/// text with U+FFFD's (as `String(decoding:as:)` makes it) when they are not.
@Suite struct RecordPathTests {
    /// `isValidUTF8` says yes exactly when decoding keeps the bytes as they are: over every
    /// sequence of one or two bytes, and random ones of up to 12 bytes, UTF-8's lead bytes likely.
    @Test func validUTF8IsWhatDecodingKeeps() {
        func check(_ bytes: [UInt8]) {
            let kept = Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
            #expect(bytes.withUnsafeBytes { isValidUTF8($0) } == kept, "\(bytes)")
        }
        for first in 0...255 {
            check([UInt8(first)])
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
        }
        var generator = SystemRandomNumberGenerator()
        let likely: [UInt8] = [
            0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x90, 0x8F,
        ]
        for _ in 0..<100_000 {
            let count = Int.random(in: 0...12, using: &generator)
            check(
                (0..<count).map { _ in
                    Bool.random(using: &generator)
                        ? likely.randomElement(using: &generator)! : UInt8.random(in: 0...255)
                })
        }
        // Long ASCII runs (read eight bytes at a time) with a bad byte at every place.
        let ascii = Array("0123456789abcdefghijklmnopqrstu".utf8)
        for place in ascii.indices {
            var bytes = ascii
            bytes[place] = 0xFF
            check(bytes)
            check(ascii + [0xE2, 0x82, 0xAC])
        }
    }

    /// Every format writes a record of a path's bytes exactly as a record of its decoded text,
    /// but for the bytes of a path that is not UTF-8, which the structured formats add in base64
    /// (`fileBytes`, `file_bytes`: see FileBytesTests), and exiftool-csv writes as they are (for
    /// exiftool to find the file).
    @Test(arguments: OutputFormat.allCases)
    func aPathIsWrittenAsItsText(format: OutputFormat) {
        var formatter = RecordFormatter(format: format, nearby: false, style: TextStyle(enabled: false), photos: true)
        formatter.allPositions = true  // exiftool-csv: a row for the photo's own position
        let reading = GPSReader().read(path: Fixtures.photo("ne-little-endian.jpg"))
        let paths: [[UInt8]] = [
            Array("./plain/é/name with space.jpg".utf8), [0xFF, 0xFE] + Array(".jpg".utf8),
            Array("./a/".utf8) + [0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF4, 0x90] + Array("\"q\".jpg".utf8), [],
        ]
        for path in paths {
            // In the middle of a larger array, as a scan's batch has it.
            let batch = Array("before/".utf8) + path + Array("/after".utf8)
            var record = PhotoRecord(path: batch[7..<(7 + path.count)], reading: reading)
            var text = PhotoRecord(file: String(decoding: path, as: UTF8.self), reading: reading)
            record.resolveTime()
            text.resolveTime()
            #expect(record.file == text.file)
            let rendered = ByteBuffer(capacity: 16), scratch = ByteBuffer(capacity: 16)
            let fromBytes = formatter.render(photo: record, appendingTo: rendered, scratch: scratch)
            let fromText = formatter.render(.photo(text))
            let bytes = fromBytes.span.map { span in rendered.withUnsafeBytes { Array($0[span]) } } ?? fromBytes.bytes
            let utf8 = String(validating: path, as: UTF8.self) != nil
            if format == .exiftoolCSV {
                // The cell is the path's bytes, quoted (quotes doubled) when it holds a quote.
                let cell = path.contains(0x22) ? [0x22] + path.flatMap { $0 == 0x22 ? [$0, $0] : [$0] } + [0x22] : path
                #expect(bytes.starts(with: cell + [0x2C]) && bytes.count > 40)
                #expect(formatter.render(.photo(record)).bytes == bytes)
                if utf8 { #expect(bytes == fromText.bytes) }
            } else if utf8 || format == .text || format.isMap {
                #expect(bytes == fromText.bytes && fromBytes.column == fromText.column)
                #expect(formatter.render(.photo(record)).bytes == fromText.bytes)
            } else {
                #expect(String(decoding: bytes, as: UTF8.self).contains(base64(path[...])))
                #expect(formatter.render(.photo(record)).bytes == bytes)
            }
        }
    }
}
