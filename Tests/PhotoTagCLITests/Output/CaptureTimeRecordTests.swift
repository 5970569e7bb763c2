import Foundation
import PhotoGPS
import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import ReverseGeocoding

/// A JPEG with just the capture-time and GPS tags a test asks for, built in memory: an EXIF APP1
/// holding a little-endian TIFF with IFD0 (Make), an Exif IFD and a GPS IFD; no image data.
struct TimedPhoto {
    var dateTimeOriginal: String? = nil
    var offsetTimeOriginal: String? = nil
    var subSecTimeOriginal: String? = nil
    /// Signed decimal degrees.
    var latitude: Double? = nil
    var longitude: Double? = nil
    /// GPSDateStamp, `2019:07:01`.
    var gpsDate: String? = nil
    /// GPSTimeStamp as hours, minutes and seconds (to the hundredth).
    var gpsTime: (Int, Int, Double)? = nil

    /// One IFD entry: tag, type (1 BYTE, 2 ASCII, 4 LONG, 5 RATIONAL), count, value bytes.
    private struct Entry {
        var tag: Int, type: Int, count: Int, value: [UInt8]
    }

    private static func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }

    private static func ascii(_ tag: Int, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: bytes.count, value: bytes)
    }

    private static func rationals(_ tag: Int, _ values: [(Int, Int)]) -> Entry {
        Entry(tag: tag, type: 5, count: values.count, value: values.flatMap { u32($0.0) + u32($0.1) })
    }

    /// Degrees, minutes and hundredths of seconds.
    private static func degrees(_ tag: Int, _ value: Double) -> Entry {
        let hundredths = Int((value.magnitude * 360_000).rounded())
        return rationals(tag, [(hundredths / 360_000, 1), (hundredths / 6000 % 60, 1), (hundredths % 6000, 100)])
    }

    private static func size(_ entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) / 2 * 2 : 0) }
    }

    /// The IFD at `offset`: entries sorted by tag, values over four bytes after it.
    private static func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
        let entries = entries.sorted { $0.tag < $1.tag }
        var data: [UInt8] = []
        var bytes = u16(entries.count)
        for entry in entries {
            bytes += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if entry.value.count <= 4 {
                bytes += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                bytes += u32(offset + 2 + 12 * entries.count + 4 + data.count)
                data += entry.value + (entry.value.count % 2 == 1 ? [0] : [])
            }
        }
        return bytes + u32(0) + data
    }

    var jpeg: [UInt8] {
        var exif: [Entry] = []
        if let dateTimeOriginal { exif.append(Self.ascii(0x9003, dateTimeOriginal)) }
        if let offsetTimeOriginal { exif.append(Self.ascii(0x9011, offsetTimeOriginal)) }
        if let subSecTimeOriginal { exif.append(Self.ascii(0x9291, subSecTimeOriginal)) }
        var gps: [Entry] = []
        if let latitude, let longitude {
            gps.append(Entry(tag: 0x0000, type: 1, count: 4, value: [2, 3, 0, 0]))
            gps += [Self.ascii(0x0001, latitude < 0 ? "S" : "N"), Self.degrees(0x0002, latitude)]
            gps += [Self.ascii(0x0003, longitude < 0 ? "W" : "E"), Self.degrees(0x0004, longitude)]
        }
        if let (hours, minutes, seconds) = gpsTime {
            gps.append(Self.rationals(0x0007, [(hours, 1), (minutes, 1), (Int((seconds * 100).rounded()), 100)]))
        }
        if let gpsDate { gps.append(Self.ascii(0x001D, gpsDate)) }
        let make = Self.ascii(0x010F, "PhotoTag")
        // IFD0 (Make and the pointers), the Exif IFD, then the GPS IFD when there are GPS tags.
        let pointerCount = gps.isEmpty ? 1 : 2
        let ifd0Size = Self.size([make]) + 12 * pointerCount
        let exifAt = 8 + ifd0Size, gpsAt = exifAt + Self.size(exif)
        var ifd0 = [make, Entry(tag: 0x8769, type: 4, count: 1, value: Self.u32(exifAt))]
        if !gps.isEmpty { ifd0.append(Entry(tag: 0x8825, type: 4, count: 1, value: Self.u32(gpsAt))) }
        var tiff = [0x49, 0x49, 0x2A, 0x00] + Self.u32(8) + Self.ifd(ifd0, at: 8) + Self.ifd(exif, at: exifAt)
        if !gps.isEmpty { tiff += Self.ifd(gps, at: gpsAt) }
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
    }
}

/// The `time` object of `locate` and `scan` records (``CaptureTime`` through the real path: the
/// file read, the place looked up in the bundled table, the zone's rules from the binary).
@Suite struct CaptureTimeRecordTests {
    /// The Eiffel Tower: in Europe/Paris.
    static let paris = (latitude: 48.858222, longitude: 2.2945)

    /// Writes `photos` to a temporary folder, runs `locate` with `arguments` on them and returns
    /// the NDJSON records in order (and stderr).
    static func locate(
        _ photos: [TimedPhoto], _ arguments: [String] = ["--format", "ndjson"]
    ) throws -> (records: [[String: Any]], errors: String) {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var paths: [String] = []
        for (index, photo) in photos.enumerated() {
            let path = folder + "/photo\(index).jpg"
            try Data(photo.jpeg).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["locate"] + arguments + paths, output: output, errors: errors)
        let records = try output.text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        return (records, errors.text)
    }

    static func locate(_ photo: TimedPhoto, _ arguments: [String] = ["--format", "ndjson"]) throws -> [String: Any] {
        let records = try locate([photo], arguments).records
        try #require(records.count == 1)
        return records[0]
    }

    /// The record's `time` as strings (`"-"` for `null` values), or `nil` for `"time": null`.
    static func time(_ record: [String: Any]) -> [String]? {
        guard let time = record["time"] as? [String: Any] else { return nil }
        return ["utc", "local", "offsetSource"].map { time[$0] as? String ?? "-" }
    }

    @Test func theKeyComesRightAfterCamera() throws {
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(
            ["locate", "--format", "ndjson", "--no-place", Fixtures.photo("ne-little-endian.jpg")], output: output,
            errors: errors)
        #expect(output.text.contains(#""offsetTimeOriginal":"+02:00"},"time":{"utc":"#))
        #expect(output.text.contains(#""offsetSource":"exif"},"warnings":[]"#))
    }

    @Test func theFixtureWithOffsetTimeOriginalKeepsItsOffsetNotTheGPSFraction() throws {
        // DateTimeOriginal 14:34:56, OffsetTimeOriginal +02:00, GPS 12:34:56.24Z, no SubSec.
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(
            ["locate", "--format", "ndjson", Fixtures.photo("ne-little-endian.jpg")], output: output, errors: errors)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(output.bytes)) as? [String: Any])
        #expect(Self.time(record) == ["2019-07-01T12:34:56Z", "2019-07-01T14:34:56+02:00", "exif"])
    }

    @Test func offsetTimeOriginalGivesTheOffsetAndSubSecondsAreKept() throws {
        let record = try Self.locate(
            TimedPhoto(
                dateTimeOriginal: "2019:07:01 14:34:56", offsetTimeOriginal: "+02:00", subSecTimeOriginal: "24",
                latitude: Self.paris.latitude, longitude: Self.paris.longitude, gpsDate: "2019:07:01",
                gpsTime: (12, 34, 57.5)))
        #expect(Self.time(record) == ["2019-07-01T12:34:56.24Z", "2019-07-01T14:34:56.24+02:00", "exif"])
        #expect(record["warnings"] as? [String] == [])
    }

    @Test func theGPSTimeGivesTheOffsetAndLocalIsTheClockWhereThePhotoWasTaken() throws {
        // The camera is still on New York summer time (UTC−4); the photo is taken in Paris.
        let record = try Self.locate(
            TimedPhoto(
                dateTimeOriginal: "2019:07:01 08:34:56", latitude: Self.paris.latitude,
                longitude: Self.paris.longitude, gpsDate: "2019:07:01", gpsTime: (12, 35, 30)))
        #expect((record["place"] as? [String: Any])?["timezone"] as? String == "Europe/Paris")
        #expect(Self.time(record) == ["2019-07-01T12:34:56Z", "2019-07-01T14:34:56+02:00", "gps"])
    }

    @Test func withNeitherOffsetNorGPSTimeThePlacesZoneGivesTheOffset() throws {
        let record = try Self.locate(
            TimedPhoto(
                dateTimeOriginal: "2019:07:01 14:34:56", latitude: Self.paris.latitude,
                longitude: Self.paris.longitude))
        #expect((record["place"] as? [String: Any])?["timezone"] as? String == "Europe/Paris")
        #expect(Self.time(record) == ["2019-07-01T12:34:56Z", "2019-07-01T14:34:56+02:00", "timezone"])
        #expect(record["warnings"] as? [String] == [])
    }

    /// Ürümqi, inside both Asia/Urumqi (UTC+6) and Asia/Shanghai (UTC+8), which the boundary data
    /// keeps overlapping on purpose.
    static let urumqi = (latitude: 43.80, longitude: 87.60)

    @Test func inAnOverlapThePhotosOffsetPicksTheZoneAndItsLocalTime() throws {
        let (records, errors) = try Self.locate([
            // A phone on Beijing time: +08:00 recorded.
            TimedPhoto(
                dateTimeOriginal: "2024:07:01 14:00:00", offsetTimeOriginal: "+08:00", latitude: Self.urumqi.latitude,
                longitude: Self.urumqi.longitude),
            // A camera on Xinjiang time, its offset from the GPS time (UTC 08:00).
            TimedPhoto(
                dateTimeOriginal: "2024:07:01 14:00:00", latitude: Self.urumqi.latitude,
                longitude: Self.urumqi.longitude, gpsDate: "2024:07:01", gpsTime: (8, 0, 1)),
            // No offset of its own: the zone the boundaries prefer, and its offset.
            TimedPhoto(
                dateTimeOriginal: "2024:07:01 14:00:00", latitude: Self.urumqi.latitude,
                longitude: Self.urumqi.longitude),
        ])
        #expect(errors == "")
        #expect(
            records.map { ($0["place"] as? [String: Any])?["timezone"] as? String } == [
                "Asia/Shanghai", "Asia/Urumqi", "Asia/Urumqi",
            ])
        #expect(
            records.map(Self.time) == [
                ["2024-07-01T06:00:00Z", "2024-07-01T14:00:00+08:00", "exif"],
                ["2024-07-01T08:00:00Z", "2024-07-01T14:00:00+06:00", "gps"],
                ["2024-07-01T08:00:00Z", "2024-07-01T14:00:00+06:00", "timezone"],
            ])
    }

    @Test func theZonesRulesAreTheBundledOnesWithTheirHistory() throws {
        // Kathmandu is UTC+5:45; Moscow was UTC+3 in January 2010 and UTC+4 in January 2012.
        let (records, _) = try Self.locate([
            TimedPhoto(dateTimeOriginal: "2019:07:01 12:00:00", latitude: 27.7172, longitude: 85.324),
            TimedPhoto(dateTimeOriginal: "2010:01:15 12:00:00", latitude: 55.7558, longitude: 37.6173),
            TimedPhoto(dateTimeOriginal: "2012:01:15 12:00:00", latitude: 55.7558, longitude: 37.6173),
        ])
        #expect(
            records.map(Self.time) == [
                ["2019-07-01T06:15:00Z", "2019-07-01T12:00:00+05:45", "timezone"],
                ["2010-01-15T09:00:00Z", "2010-01-15T12:00:00+03:00", "timezone"],
                ["2012-01-15T08:00:00Z", "2012-01-15T12:00:00+04:00", "timezone"],
            ])
    }

    @Test func withoutDateTimeOriginalTheGPSTimeIsTheInstant() throws {
        let record = try Self.locate(
            TimedPhoto(
                latitude: Self.paris.latitude, longitude: Self.paris.longitude, gpsDate: "2019:07:01",
                gpsTime: (12, 34, 56.5)))
        #expect(Self.time(record) == ["2019-07-01T12:34:56.5Z", "2019-07-01T14:34:56.5+02:00", "gps"])
    }

    @Test func aGPSTimestampsInstantIsWhatItsDescriptionReadsAs() throws {
        let stamps = [
            GPSTimestamp(year: 2019, month: 7, day: 1, nanosecondOfDay: 45_296_240_000_000),
            GPSTimestamp(year: 1, month: 1, day: 1, nanosecondOfDay: 0),
            GPSTimestamp(year: 9999, month: 12, day: 31, nanosecondOfDay: 86_399_999_999_999),
            GPSTimestamp(year: 2024, month: 2, day: 29, nanosecondOfDay: 1),
        ]
        for stamp in stamps {
            let stamp = try #require(stamp)
            let read = try #require(CaptureTime.parseGPSTime(stamp.description))
            #expect(stamp.instant == read, "\(stamp)")
        }
    }

    @Test func aPhotoWithNoTimeAtAllHasANullTime() throws {
        let record = try Self.locate(TimedPhoto(latitude: Self.paris.latitude, longitude: Self.paris.longitude))
        #expect(record.keys.contains("time"))
        #expect(record["time"] is NSNull)
    }

    @Test func withoutAZoneLocalIsDateTimeOriginalWithItsOffsetOrNull() throws {
        // No position, and a located photo with --no-place: no zone either way.
        let (records, _) = try Self.locate([
            TimedPhoto(dateTimeOriginal: "2021:05:06 07:08:09", offsetTimeOriginal: "-07:00"),
            TimedPhoto(dateTimeOriginal: "2021:05:06 07:08:09"),
        ])
        #expect(
            records.map(Self.time) == [
                ["2021-05-06T14:08:09Z", "2021-05-06T07:08:09-07:00", "exif"], ["-", "-", "-"],
            ])
        let unplaced = try Self.locate(
            TimedPhoto(
                dateTimeOriginal: "2019:07:01 08:34:56", latitude: Self.paris.latitude,
                longitude: Self.paris.longitude, gpsDate: "2019:07:01", gpsTime: (12, 34, 56)),
            ["--format", "ndjson", "--no-place"])
        #expect(Self.time(unplaced) == ["2019-07-01T12:34:56Z", "-", "gps"])
    }

    @Test func aLocalTimeTheClocksSkippedOrShowedTwiceIsReadByTheRuleWithAWarning() throws {
        // Paris: 02:00 → 03:00 on 2019-03-31, 03:00 → 02:00 on 2019-10-27.
        let (records, _) = try Self.locate([
            TimedPhoto(
                dateTimeOriginal: "2019:03:31 02:30:00", latitude: Self.paris.latitude,
                longitude: Self.paris.longitude),
            TimedPhoto(
                dateTimeOriginal: "2019:10:27 02:30:00", latitude: Self.paris.latitude,
                longitude: Self.paris.longitude),
        ])
        #expect(
            records.map(Self.time) == [
                ["2019-03-31T01:30:00Z", "2019-03-31T03:30:00+02:00", "timezone"],
                ["2019-10-27T00:30:00Z", "2019-10-27T02:30:00+02:00", "timezone"],
            ])
        #expect(
            records[0]["warnings"] as? [String] == [
                "2019-03-31T02:30:00 did not exist in Europe/Paris (the clocks skipped 1 h); read with the offset "
                    + "before the change, +01:00"
            ])
        #expect(
            records[1]["warnings"] as? [String] == [
                "2019-10-27T02:30:00 happened twice in Europe/Paris (at +02:00, then at +01:00); the first is used"
            ])
    }

    @Test func aStaleGPSTimeIsNotUsedWithAWarningAfterTheGPSWarnings() throws {
        // The GPS time is 2 h 4 min 56 s behind: no quarter hour.
        var photo = TimedPhoto(
            dateTimeOriginal: "2019:07:01 14:34:56", latitude: Self.paris.latitude, longitude: Self.paris.longitude,
            gpsDate: "2019:07:01", gpsTime: (12, 30, 0))
        let record = try Self.locate(photo)
        #expect(Self.time(record) == ["2019-07-01T12:34:56Z", "2019-07-01T14:34:56+02:00", "timezone"])
        #expect(
            record["warnings"] as? [String] == [
                "the GPS time is 2 h 4 min 56 s behind DateTimeOriginal, not a time-zone offset; not used"
            ])
        // A GPS warning (a time without a date), then the capture time's (a skipped local time).
        photo = TimedPhoto(
            dateTimeOriginal: "2019:03:31 02:30:00", latitude: Self.paris.latitude, longitude: Self.paris.longitude,
            gpsTime: (1, 30, 0))
        let both = try Self.locate(photo)
        let warnings = try #require(both["warnings"] as? [String])
        #expect(warnings.count == 2)
        #expect(warnings.first == "GPSTimeStamp has no GPSDateStamp, so the GPS time is unknown")
        #expect(warnings.last?.hasPrefix("2019-03-31T02:30:00 did not exist in Europe/Paris") == true)
    }

    @Test func captureTimeWarningsGoToStandardErrorForTextAndIntoCSVAndGeoJSON() throws {
        let photo = TimedPhoto(
            dateTimeOriginal: "2019:03:31 02:30:00", latitude: Self.paris.latitude, longitude: Self.paris.longitude)
        let warning =
            "2019-03-31T02:30:00 did not exist in Europe/Paris (the clocks skipped 1 h); read with the offset before "
            + "the change, +01:00"
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(photo.jpeg).write(to: URL(fileURLWithPath: folder + "/photo.jpg"))
        let text = MemorySink(), textErrors = MemorySink()
        _ = PhotoTag.run(["locate", folder + "/photo.jpg"], output: text, errors: textErrors)
        #expect(textErrors.text == "phototag: \(folder)/photo.jpg: warning: \(warning)\n")
        // The record line itself is unchanged: one line, no time on it.
        #expect(text.text.split(separator: "\n").count == 1)
        #expect(text.text.contains("photo.jpg  48.858222, 2.294500  "))
        // (The temporary folder's random name may hold "2019" itself.)
        #expect(!text.text.replacingOccurrences(of: folder, with: "").contains("2019"))
        let csv = MemorySink(), geojson = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["locate", "--format", "csv", folder + "/photo.jpg"], output: csv, errors: errors)
        _ = PhotoTag.run(["locate", "--format", "geojson", folder + "/photo.jpg"], output: geojson, errors: errors)
        let rows = csv.text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        try #require(rows.count == 2)
        let header = rows[0].map(String.init)
        let columns = [
            "offset_time_original", "time_utc", "time_local", "time_offset_source", "warnings", "error", "file_bytes",
        ]
        let first = try #require(header.firstIndex(of: "offset_time_original"))
        #expect(Array(header[first...]) == columns)
        #expect(
            rows[1][first...].joined(separator: ",")
                == ",2019-03-31T01:30:00Z,2019-03-31T03:30:00+02:00,timezone,\"\(warning)\",,")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geojson.bytes)) as? [String: Any])
        let feature = try #require((collection["features"] as? [[String: Any]])?.first)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["time_utc"] as? String == "2019-03-31T01:30:00Z")
        #expect(properties["time_local"] as? String == "2019-03-31T03:30:00+02:00")
        #expect(properties["time_offset_source"] as? String == "timezone")
        #expect(properties["warnings"] as? String == warning)
    }

    @Test func aPhotoWithoutPositionShowsItsCaptureTimeWarningsOnStandardErrorToo() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = TimedPhoto(dateTimeOriginal: "2019:07:01 14:34:56", offsetTimeOriginal: "+15:00")
        try Data(photo.jpeg).write(to: URL(fileURLWithPath: folder + "/photo.jpg"))
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["locate", folder + "/photo.jpg"], output: output, errors: errors)
        #expect(
            errors.text
                == "phototag: \(folder)/photo.jpg: warning: OffsetTimeOriginal \"+15:00\" is not a UTC offset; ignored\n"
        )
        #expect(output.text.hasSuffix("no GPS\n"))
    }

    @Test func scanRecordsHaveTheTimeToo() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = TimedPhoto(
            dateTimeOriginal: "2019:07:01 14:34:56", latitude: Self.paris.latitude, longitude: Self.paris.longitude)
        try Data(photo.jpeg).write(to: URL(fileURLWithPath: folder + "/photo.jpg"))
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["scan", "--format", "ndjson", folder], output: output, errors: errors)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(output.bytes)) as? [String: Any])
        #expect(Self.time(record) == ["2019-07-01T12:34:56Z", "2019-07-01T14:34:56+02:00", "timezone"])
    }
}

/// The `time` of every record of the dev corpus (see ``Corpus``), checked against the record's own
/// readings and exiftool's DateTimeOriginal in the manifest. Prints how many files got each
/// `offsetSource`.
@Suite(.enabled(if: Corpus.available, "the dev corpus (../shared/corpus/dev/manifest.tsv) is not present"))
struct CaptureTimeCorpusTests {
    /// `2019-07-01T14:34:56` (the first 19 characters of the text) as seconds since the epoch.
    static func seconds(_ text: some StringProtocol) -> Int? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.date(from: String(text.prefix(19))).map { Int($0.timeIntervalSince1970) }
    }

    /// exiftool's `2019:07:01 14:34:56[…]` as `2019-07-01T14:34:56`, when it is a real date and time.
    static func isoDateTime(_ exif: String) -> String? {
        let b = Array(exif.prefix(19))
        guard b.count == 19, b[4] == ":", b[7] == ":", b[10] == " " else { return nil }
        let text = String(b[0..<4]) + "-" + String(b[5..<7]) + "-" + String(b[8..<10]) + "T" + String(b[11...])
        return seconds(text) == nil ? nil : text
    }

    /// `+02:00` (or the end of `2019-07-01T14:34:56.24+02:00`) as seconds east of UTC.
    static func offset(_ text: some StringProtocol) -> Int? {
        let tail = Array(text.suffix(6))
        guard tail.count == 6, tail[0] == "+" || tail[0] == "-", tail[3] == ":",
            let hours = Int(String(tail[1...2])), let minutes = Int(String(tail[4...5]))
        else { return nil }
        return (tail[0] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    @Test func everyTimeFollowsTheRule() throws {
        let rows = try Corpus.manifest()
        let truth = Dictionary(
            rows.map { ($0["file"]!, $0["datetime_original"] ?? "") }, uniquingKeysWith: { a, _ in a })
        let scan = try Binary.run(["scan", "--format", "ndjson", "-q", Corpus.directory])
        var sources: [String: Int] = [:]
        var checkedAgainstExiftool = 0
        for line in scan.text.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let file = String((record["file"] as! String).split(separator: "/").last!)
            let camera = record["camera"] as? [String: Any]
            let dateTime = camera?["dateTimeOriginal"] as? String
            let cameraOffset = camera?["offsetTimeOriginal"] as? String
            let gpsTime = (record["gps"] as? [String: Any])?["timestamp"] as? String
            let time = record["time"] as? [String: Any]
            let utc = time?["utc"] as? String, local = time?["local"] as? String
            let source = time?["offsetSource"] as? String
            sources[time == nil ? "time null" : source ?? "offsetSource null", default: 0] += 1

            // DateTimeOriginal as exiftool read it (its text may carry a fraction or an offset).
            if let dateTime, let expected = truth[file].flatMap(Self.isoDateTime) {
                checkedAgainstExiftool += 1
                #expect(dateTime == expected, "\(file): DateTimeOriginal \(dateTime) vs exiftool's \(expected)")
            }
            guard dateTime != nil || gpsTime != nil else {
                #expect(time == nil, "\(file): a time without DateTimeOriginal or GPS time")
                continue
            }
            let utcSeconds = utc.flatMap { Self.seconds($0) }
            if let dateTime, let cameraOffset, let offset = Self.offset(cameraOffset), abs(offset) < 15 * 3600 {
                // utc = DateTimeOriginal − OffsetTimeOriginal, always.
                #expect(source == "exif", "\(file)")
                #expect(
                    utcSeconds != nil && utcSeconds == Self.seconds(dateTime).map { $0 - offset },
                    "\(file): \(dateTime)\(cameraOffset) gave \(utc ?? "nil")")
            } else if dateTime == nil, let gpsTime {
                #expect(source == "gps" && utc == gpsTime, "\(file): \(utc ?? "nil") vs the GPS time \(gpsTime)")
            } else if source == "gps", let gpsTime, let gpsSeconds = Self.seconds(gpsTime), let utcSeconds {
                #expect(abs(utcSeconds - gpsSeconds) <= 121, "\(file): \(utc!) vs the GPS time \(gpsTime)")
            } else if source == "timezone", let dateTime, let local, let utcSeconds {
                // The wall clock is kept, and local is utc shifted by the offset it shows.
                #expect(local.prefix(19) == dateTime.prefix(19), "\(file): \(local) vs \(dateTime)")
                #expect(
                    Self.seconds(local).map { $0 - utcSeconds } == Self.offset(local), "\(file): \(local) vs \(utc!)")
            } else {
                #expect(source == nil && utc == nil && local == nil, "\(file): \(String(describing: time))")
            }
            if let local, let utcSeconds {
                #expect(Self.seconds(local).map { $0 - utcSeconds } == Self.offset(local), "\(file): \(local)")
            }
        }
        #expect(checkedAgainstExiftool >= 100)
        #expect(
            sources["exif", default: 0] > 0 && sources["gps", default: 0] > 0 && sources["timezone", default: 0] > 0)
        print(
            "capture time: "
                + sources.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; DateTimeOriginal equal to exiftool's for \(checkedAgainstExiftool) files")
    }
}
