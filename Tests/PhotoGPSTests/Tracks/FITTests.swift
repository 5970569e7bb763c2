import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// FIT files built byte by byte for the tests: definition and data messages in either byte
/// order, compressed timestamp headers, developer fields, and the header and file CRCs.
struct FITBuilder {
    /// The data records so far (what goes between the header and the file CRC).
    var records: [UInt8] = []

    /// `value`'s `size` low bytes in the given order.
    static func bytes(_ value: UInt64, _ size: Int, bigEndian: Bool) -> [UInt8] {
        let little = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        return bigEndian ? little.reversed() : little
    }

    /// A definition message: `fields` are (number, size, base type); `developer` fields are
    /// (number, size, developer data index).
    mutating func define(
        local: UInt8, global: UInt16, bigEndian: Bool = false, _ fields: [(UInt8, UInt8, UInt8)],
        developer: [(UInt8, UInt8, UInt8)]? = nil
    ) {
        records.append(0x40 | local | (developer == nil ? 0 : 0x20))
        records += [0, bigEndian ? 1 : 0] + Self.bytes(UInt64(global), 2, bigEndian: bigEndian)
        records.append(UInt8(fields.count))
        for (number, size, base) in fields { records += [number, size, base] }
        if let developer {
            records.append(UInt8(developer.count))
            for (number, size, index) in developer { records += [number, size, index] }
        }
    }

    /// A data message with a normal header: the fields' values (value, size) in order.
    mutating func data(local: UInt8, bigEndian: Bool = false, _ values: [(UInt64, Int)], extra: [UInt8] = []) {
        records.append(local)
        for (value, size) in values { records += Self.bytes(value, size, bigEndian: bigEndian) }
        records += extra
    }

    /// A data message with a compressed timestamp header (`offset`: the time's low five bits).
    mutating func compressed(local: UInt8, offset: UInt8, bigEndian: Bool = false, _ values: [(UInt64, Int)]) {
        records.append(0x80 | local << 5 | offset)
        for (value, size) in values { records += Self.bytes(value, size, bigEndian: bigEndian) }
    }

    /// The whole file: a header of `headerSize` bytes (with its CRC when `headerCRC`), the
    /// records, and the file CRC.
    func file(headerSize: Int = 14, headerCRC: Bool = true) -> [UInt8] {
        var header: [UInt8] = [UInt8(headerSize), 0x20] + Self.bytes(2140, 2, bigEndian: false)
        header += Self.bytes(UInt64(records.count), 4, bigEndian: false) + Array(".FIT".utf8)
        if headerSize == 14 {
            header += headerCRC ? Self.bytes(UInt64(FITParser.crc(0, header)), 2, bigEndian: false) : [0, 0]
        }
        let body = header + records
        return body + Self.bytes(UInt64(FITParser.crc(0, body)), 2, bigEndian: false)
    }
}

/// The FIT reader, on built files and on the corpus's Edge 800 activity.
@Suite struct FITTests {
    /// FIT seconds of 2012-04-12T12:53:58Z.
    static let start: UInt32 = 703_169_638
    /// The record fields of the little-endian definition: timestamp, latitude, longitude,
    /// altitude, enhanced altitude.
    static let recordFields: [(UInt8, UInt8, UInt8)] = [
        (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (78, 4, 0x86),
    ]

    /// Semicircles of `degrees`.
    static func semicircles(_ degrees: Double) -> UInt64 {
        UInt64(UInt32(bitPattern: Int32((degrees * 2_147_483_648 / 180).rounded())))
    }

    /// The fix expected from a record's raw values.
    static func fix(_ time: UInt32, _ latitude: UInt64, _ longitude: UInt64, altitude: Double?) -> TrackFix {
        TrackFix(
            time: Double(time) + 631_065_600,
            latitude: Double(Int32(bitPattern: UInt32(latitude))) * 180 / 2_147_483_648,
            longitude: Double(Int32(bitPattern: UInt32(longitude))) * 180 / 2_147_483_648, altitude: altitude)
    }

    /// A file with every kind of message the reader meets, and the fixes it holds.
    static func sample() -> (FITBuilder, [TrackFix]) {
        var fit = FITBuilder()
        let lat = semicircles(48.18952647), lon = semicircles(11.858895309)
        // file_id, then a little-endian record definition.
        fit.define(local: 0, global: 0, [(0, 1, 0x00), (1, 2, 0x84), (4, 4, 0x86)])
        fit.data(local: 0, [(4, 1), (1, 2), (UInt64(start), 4)])
        fit.define(local: 1, global: 20, recordFields)
        fit.data(local: 1, [(UInt64(start), 4), (lat, 4), (lon, 4), (5064, 2), (5065, 4)])
        // Enhanced altitude invalid: the plain altitude counts.
        fit.data(local: 1, [(UInt64(start + 1), 4), (lat + 10, 4), (lon + 10, 4), (5070, 2), (0xFFFF_FFFF, 4)])
        // No position: skipped.
        fit.data(local: 1, [(UInt64(start + 2), 4), (0x7FFF_FFFF, 4), (0x7FFF_FFFF, 4), (5070, 2), (5070, 4)])
        // A lap (global 19) with a position: not a fix, but its timestamp is the last one.
        fit.define(local: 2, global: 19, bigEndian: true, [(253, 4, 0x86), (3, 4, 0x85), (4, 4, 0x85)])
        fit.data(local: 2, bigEndian: true, [(UInt64(start + 3), 4), (lat, 4), (lon, 4)])
        // A big-endian record with a developer field (its 3 bytes skipped), no altitudes.
        fit.define(
            local: 3, global: 20, bigEndian: true, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)],
            developer: [(0, 3, 0)])
        fit.data(
            local: 3, bigEndian: true, [(UInt64(start + 4), 4), (lat + 20, 4), (lon - 20, 4)], extra: [1, 2, 3])
        // Compressed timestamps after start + 4, whose low five bits are 10 (start's are 6): offset 12
        // is later in the same 32 s, offset 3 rolls over to the next 32 s.
        fit.define(local: 1, global: 20, [(0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84)])
        fit.compressed(local: 1, offset: 12, [(lat + 30, 4), (lon + 30, 4), (0xFFFF, 2)])
        fit.compressed(local: 1, offset: 3, [(lat + 40, 4), (lon + 40, 4), (2600, 2)])
        // A record timed from the device's start: skipped.
        fit.define(local: 4, global: 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
        fit.data(local: 4, [(1000, 4), (lat, 4), (lon, 4)])
        let base = start & ~31
        let fixes = [
            fix(start, lat, lon, altitude: 5065.0 / 5 - 500),
            fix(start + 1, lat + 10, lon + 10, altitude: 5070.0 / 5 - 500),
            fix(start + 4, lat + 20, lon - 20, altitude: nil),
            fix(base + 12, lat + 30, lon + 30, altitude: nil),
            fix(base + 32 + 3, lat + 40, lon + 40, altitude: 2600.0 / 5 - 500),
        ]
        return (fit, fixes)
    }

    @Test func readsRecordsOfBothByteOrders() throws {
        #expect(Self.start & 31 == 6)
        let (fit, fixes) = Self.sample()
        for file in [fit.file(), fit.file(headerCRC: false), fit.file(headerSize: 12)] {
            let sink = try parseTrackInEveryChunking(FITParser(), file)
            #expect(sink.fixes == fixes)
            let headerSize = Int(file[0])
            // Offsets: the no-position record, the record timed from the device's start.
            let noPosition = headerSize + 15 + 8 + 21 + 19 + 19
            #expect(
                sink.skipped == [
                    "byte \(noPosition): record without a position",
                    "byte \(file.count - 2 - 13): record timed 1000 s after the device started, not a date",
                ])
        }
    }

    @Test func aCompressedTimestampNeedsAFullOneBefore() throws {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, [(0, 4, 0x85), (1, 4, 0x85)])
        fit.compressed(local: 0, offset: 3, [(1, 4), (2, 4)])
        let sink = try parseTrackInEveryChunking(FITParser(), fit.file())
        #expect(sink.fixes.isEmpty)
        #expect(sink.skipped == ["byte 26: record with a compressed timestamp and no full timestamp before it"])
    }

    @Test func readsChainedFiles() throws {
        let (first, fixes) = Self.sample()
        var second = FITBuilder()
        second.define(local: 0, global: 20, bigEndian: true, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
        second.data(local: 0, bigEndian: true, [(UInt64(Self.start + 100), 4), (5, 4), (6, 4)])
        let sink = try parseTrackInEveryChunking(FITParser(), first.file() + second.file(headerSize: 12))
        #expect(sink.fixes == fixes + [Self.fix(Self.start + 100, 5, 6, altitude: nil)])
        // The second file's definitions are its own: local type 1 is not defined there.
        var third = FITBuilder()
        third.data(local: 1, [(1, 4)])
        let firstFile = first.file()
        expectTrackError(
            FITParser(), firstFile + third.file(),
            "byte \(firstFile.count + 14): a FIT data message of local type 1, which no definition message defined")
        expectTrackError(
            FITParser(), firstFile + [0, 0, 0, 0],
            "byte \(firstFile.count): what follows the FIT file is not another FIT file (header size 0)")
    }

    @Test func checksTheCRCs() {
        let (fit, _) = Self.sample()
        var file = fit.file()
        file[file.count - 4] ^= 0x01  // a byte of the last record's longitude
        let computed = FITParser.crc(0, file.dropLast(2))
        let stored = UInt16(file[file.count - 2]) | UInt16(file[file.count - 1]) << 8
        func hex(_ value: UInt16) -> String { String(format: "0x%04X", value) }
        expectTrackError(
            FITParser(), file,
            "the FIT file's CRC is wrong (byte \(file.count - 2): stored \(hex(stored)), computed \(hex(computed)))")
        var header = fit.file()
        header[12] ^= 0xFF
        let headerStored = UInt16(header[12]) | UInt16(header[13]) << 8
        let headerComputed = FITParser.crc(0, header[0..<12])
        expectTrackError(
            FITParser(), header,
            "the FIT header's CRC is wrong: stored \(hex(headerStored)), computed \(hex(headerComputed))")
    }

    @Test func refusesTruncatedAndMalformedFiles() {
        let (fit, _) = Self.sample()
        let file = fit.file()
        expectTrackError(
            FITParser(), Array(file[0..<9]),
            "the FIT file is cut short: it ends at byte 9, in its header, which starts at byte 0")
        expectTrackError(
            FITParser(), Array(file[0..<40]),
            "the FIT file is cut short: it ends at byte 40, before the end of its data at byte \(file.count - 2)")
        expectTrackError(
            FITParser(), Array(file.dropLast()),
            "the FIT file is cut short: it ends at byte \(file.count - 1), in its CRC, at byte \(file.count - 2)")
        expectTrackError(FITParser(), [UInt8](), "not a FIT file: it is empty")
        expectTrackError(FITParser(), "<?xml version=\"1.0\"?>", "not a FIT file: its header size is 60, not 12 or 14")
        var signature = file
        signature[9] = UInt8(ascii: "X")
        expectTrackError(FITParser(), signature, "not a FIT file: no .FIT at bytes 8 to 11")
        // A data size shorter than the messages: the message running past it is refused.
        var short = FITBuilder()
        short.define(local: 0, global: 20, [(0, 4, 0x85), (1, 4, 0x85)])
        var shortFile = short.file(headerSize: 12, headerCRC: false)
        shortFile[4] = 8
        expectTrackError(
            FITParser(), shortFile,
            "byte 12: a message runs past the end of the data the FIT header announces (byte 20)")
        var architecture = FITBuilder()
        architecture.records = [0x40, 0, 2, 20, 0, 0]
        expectTrackError(
            FITParser(), architecture.file(), "byte 14: a FIT definition message with architecture 2, not 0 or 1")
    }

    @Test func sniffsFITByItsHeader() {
        let (fit, _) = Self.sample()
        #expect(fit.file().withUnsafeBytes { FITParser.matches(prefix: $0) })
        #expect(fit.file(headerSize: 12).withUnsafeBytes { FITParser.matches(prefix: $0) })
        #expect(![UInt8](fit.file().prefix(11)).withUnsafeBytes { FITParser.matches(prefix: $0) })
        #expect(!sniffs(FITParser.self, "<?xml version=\"1.0\"?>\n<gpx>"))
        #expect(!sniffs(FITParser.self, "\u{0C}xxxxxxx.FIX"))
    }

    // MARK: corpus

    static let edge800 = "fit__gpsbabel__garmin-edge-800.fit"

    /// The truth-derived GPX of the file's record messages: (time, lat, lon, ele) of each trkpt.
    static func truthPoints() throws -> [(Double, Double, Double, Double)] {
        let path = LineTrackCorpus.folder + "/truth-derived/" + edge800 + ".records.gpx"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func value(_ part: Substring, between open: String, and close: String) throws -> Double {
            let start = try #require(part.range(of: open)).upperBound
            let end = try #require(part[start...].range(of: close)).lowerBound
            let field = String(part[start..<end])
            return try #require(open == "<time>" ? TrackTime.iso8601(field) : Double(field))
        }
        return try text.components(separatedBy: "<trkpt ").dropFirst().map { point in
            let part = Substring(point)
            return (
                try value(part, between: "<time>", and: "</time>"), try value(part, between: "lat=\"", and: "\""),
                try value(part, between: "lon=\"", and: "\""), try value(part, between: "<ele>", and: "</ele>")
            )
        }
    }

    /// The Edge 800 file: exactly the record messages of the truth-derived GPX (ExifTool's 1287
    /// fixes add a lap/session fix the truth leaves out), and the photos' positions.
    @Test(
        .enabled(if: LineTrackCorpus.has(edge800), "the shared track corpus (../shared/corpus/tracks-dev) is not here"))
    func corpusFileEqualsItsRecordMessages() throws {
        let bytes = try LineTrackCorpus.bytes(Self.edge800)
        #expect(bytes.withUnsafeBytes { FITParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
        let sink = try parseTrackInEveryChunking(FITParser(), bytes)
        #expect(sink.skipped.isEmpty)
        let truth = try Self.truthPoints()
        try #require(sink.fixes.count == truth.count)
        for (fix, (time, latitude, longitude, elevation)) in zip(sink.fixes, truth) {
            #expect(fix.time == time)
            #expect(abs(fix.latitude - latitude) <= 1e-9 && abs(fix.longitude - longitude) <= 1e-9)
            #expect(abs((fix.altitude ?? .nan) - elevation) <= 1e-6)
        }
        // tracks.tsv's first and last times are ExifTool's own reading, whose last fix (14:13:42) is
        // a lap/session message's, 1163 s after the last record: the count is the truth's.
        let row = try LineTrackCorpus.row(Self.edge800)
        #expect(row["truth_fixes"] == "1286" && row["last_fix_utc"] == "2012-04-12T14:13:42Z")
        try LineTrackCorpus.expectSummary(
            sink.fixes, of: Self.edge800, first: "2012-04-12T12:53:58Z", last: "2012-04-12T13:54:19Z")
        #expect(try LineTrackCorpus.expectPhotos(sink.fixes, of: Self.edge800) == 3)
    }
}
