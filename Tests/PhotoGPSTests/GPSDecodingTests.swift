import TestSupport
import Testing

@testable import PhotoGPS

/// The pure conversion of the GPS policy (docs/gps.md, "How GPS is read"), on hand-made tag values:
/// no files, no libexif.
@Suite struct GPSDecodingTests {
    static func r(_ n: Int64, _ d: Int64) -> Rational { Rational(n, d) }
    static func ascii(_ text: String) -> ExifValue { .ascii(EntryBytes(Array(text.utf8) + [0])) }
    static func rationals(_ parts: (Int64, Int64)...) -> ExifValue {
        .rationals(EntryComponents(parts.map { Rational($0.0, $0.1) }))
    }

    /// A complete, valid block to vary one field at a time.
    static let base = GPSTags(
        latitudeRef: ascii("N"), latitude: rationals((48, 1), (51, 1), (2960, 100)),
        longitudeRef: ascii("E"), longitude: rationals((2, 1), (17, 1), (4020, 100)))

    @Test(arguments: [
        (rationals((48, 1), (51, 1), (2960, 100)), "N", 48.0 + 51.0 / 60 + 29.6 / 3600),
        (rationals((48, 1), (51, 1), (2960, 100)), "S", -(48.0 + 51.0 / 60 + 29.6 / 3600)),
        (rationals((37, 1), (46494, 1000), (0, 1)), "N", 37.7749),  // decimal minutes
        (rationals((515757623, 10_000_000), (0, 1), (0, 1)), "N", 51.5757623),  // decimal degrees
        (rationals((3512, 100)), "N", 35.12),  // one component
        (rationals((35, 1), (30, 1)), "S", -35.5),  // two components
        (rationals((90, 1), (0, 1), (0, 1)), "N", 90.0),  // the pole is in range
        (ExifValue.signedRationals([r(-33, 1), r(-51, 1), r(-5400, 100)]), "S", -33.865),
        (ExifValue.signedRationals([r(33, -1), r(0, 1), r(0, 1)]), "S", -33.0),  // negative denominator
    ])
    func latitudeConvertsToSignedDegrees(value: ExifValue, ref: String, expected: Double) {
        var warnings: [GPSWarning] = []
        let degrees = GPSFix.decodeCoordinate(value, reference: Self.ascii(ref), axis: .latitude, warnings: &warnings)
        #expect(degrees == expected)
        #expect(warnings.isEmpty)
    }

    @Test(
        arguments: [
            (rationals((48, 1), (51, 1), (0, 0)), ascii("N"), "GPSLatitude seconds has a zero denominator"),
            (rationals((48, 0), (51, 1), (0, 1)), ascii("N"), "GPSLatitude degrees has a zero denominator"),
            (rationals((48, 1), (0, 0)), ascii("N"), "GPSLatitude minutes has a zero denominator"),
            (rationals((48, 1), (51, 1), (0, 1)), nil, "GPSLatitudeRef is missing"),
            (rationals((48, 1), (51, 1), (0, 1)), ascii(""), "GPSLatitudeRef is '', expected N or S"),
            (rationals((48, 1), (51, 1), (0, 1)), ascii("E"), "GPSLatitudeRef is 'E', expected N or S"),
            (
                rationals((48, 1), (51, 1), (0, 1)), ExifValue.integers([1]),
                "GPSLatitudeRef has type integer, expected ASCII"
            ),
            (
                rationals((213, 1), (38, 1), (2400, 100)), ascii("N"),
                "GPSLatitude 213.64 is out of range (more than 90 degrees)"
            ),
            (
                rationals((90, 1), (0, 1), (1, 100)), ascii("S"),
                "GPSLatitude 90.00000277777778 is out of range (more than 90 degrees)"
            ),
            (rationals(), ascii("N"), "GPSLatitude has 0 components, expected 1 to 3"),
            (rationals((1, 1), (1, 1), (1, 1), (1, 1)), ascii("N"), "GPSLatitude has 4 components, expected 1 to 3"),
            (ascii("48.5"), ascii("N"), "GPSLatitude has type ASCII, expected RATIONAL"),
        ] as [(ExifValue, ExifValue?, String)])
    func invalidLatitudeIsRejectedWithItsReason(value: ExifValue, ref: ExifValue?, reason: String) {
        var warnings: [GPSWarning] = []
        let degrees = GPSFix.decodeCoordinate(value, reference: ref, axis: .latitude, warnings: &warnings)
        #expect(degrees == nil)
        #expect(warnings.map(\.description) == [reason])
    }

    @Test func longitudeAllowsUpTo180AndRejectsMore() {
        var warnings: [GPSWarning] = []
        let west = GPSFix.decodeCoordinate(
            Self.rationals((180, 1)), reference: Self.ascii("W"), axis: .longitude, warnings: &warnings)
        #expect(west == -180)
        let beyond = GPSFix.decodeCoordinate(
            Self.rationals((180, 1), (0, 1), (1, 1)), reference: Self.ascii("E"), axis: .longitude,
            warnings: &warnings)
        #expect(beyond == nil)
        #expect(
            warnings.map(\.description) == ["GPSLongitude 180.00027777777777 is out of range (more than 180 degrees)"])
    }

    @Test func negativeSRationalWithAPositiveRefKeepsTheRefAndWarns() {
        var warnings: [GPSWarning] = []
        let value = ExifValue.signedRationals([Self.r(-151, 1), Self.r(-12, 1), Self.r(-3600, 100)])
        let degrees = GPSFix.decodeCoordinate(value, reference: Self.ascii("E"), axis: .longitude, warnings: &warnings)
        #expect(degrees == 151.0 + 12.0 / 60 + 36.0 / 3600)
        #expect(
            warnings.map(\.description) == [
                "GPSLongitude is negative but GPSLongitudeRef is E; the ref decides the sign"
            ])
    }

    @Test func zeroZeroIsTheNoFixPlaceholderButOneZeroAxisIsARealPlace() {
        var tags = Self.base
        tags.latitude = Self.rationals((0, 1), (0, 1), (0, 1))
        tags.longitude = Self.rationals((0, 1), (0, 1), (0, 1))
        let placeholder = GPSFix.decode(tags)
        #expect(placeholder.fix == nil)
        #expect(placeholder.warnings.map(\.description) == ["position 0, 0 is the no-fix placeholder"])

        tags.longitude = Self.rationals((36, 1), (49, 1), (0, 1))
        let equator = GPSFix.decode(tags)
        #expect(equator.fix?.latitude == 0)
        #expect(equator.fix?.longitude == 36.0 + 49.0 / 60)
    }

    @Test func aBlockWithoutCoordinatesHasNoPosition() {
        let decoded = GPSFix.decode(GPSTags(timeStamp: Self.rationals((1, 1), (2, 1), (3, 1))))
        #expect(decoded.fix == nil)
        #expect(decoded.warnings.map(\.description) == ["the GPS block records no position"])
    }

    @Test func bothAxesReportTheirProblems() {
        var tags = Self.base
        tags.latitude = Self.rationals((48, 1), (51, 1), (0, 0))
        tags.longitudeRef = nil
        let decoded = GPSFix.decode(tags)
        #expect(decoded.fix == nil)
        #expect(
            decoded.warnings.map(\.description) == [
                "GPSLatitude seconds has a zero denominator", "GPSLongitudeRef is missing",
            ])
    }

    @Test(
        arguments: [
            (rationals((71, 2)), ExifValue.bytes([0]), 35.5 as Double?, [String]()),
            (rationals((71, 2)), nil, 35.5, []),
            (rationals((43050, 100)), .bytes([1]), -430.5, []),
            (
                rationals((4_294_967_291, 1)), .bytes([0]), -5,
                ["GPSAltitude 4294967291/1 is a wrapped negative number, read as -5.0 m"]
            ),
            (
                rationals((4_294_967_291, 1)), .bytes([1]), -5,
                ["GPSAltitude 4294967291/1 is a wrapped negative number, read as -5.0 m"]
            ),
            (ExifValue.signedRationals([r(-12, 1)]), .bytes([0]), -12, []),
            (rationals((10, 1)), .bytes([2]), 10, ["GPSAltitudeRef is 2, expected 0 or 1; read as above sea level"]),
            (rationals((10, 0)), .bytes([0]), nil, ["GPSAltitude has a zero denominator"]),
            (rationals((10, 1), (1, 1)), .bytes([0]), nil, ["GPSAltitude has 2 components, expected 1"]),
        ] as [(ExifValue, ExifValue?, Double?, [String])])
    func altitudeHonoursItsReference(value: ExifValue, ref: ExifValue?, metres: Double?, warnings expected: [String]) {
        var warnings: [GPSWarning] = []
        #expect(GPSFix.decodeAltitude(value, reference: ref, warnings: &warnings) == metres)
        #expect(warnings.map(\.description) == expected)
    }

    @Test(
        arguments: [
            (
                ascii("2019:07:01"), rationals((12, 1), (34, 1), (5624, 100)), "2019-07-01T12:34:56.24Z" as String?,
                [String]()
            ),
            (ascii("2019-07-01"), rationals((12, 1), (34, 1), (56, 1)), "2019-07-01T12:34:56Z", []),
            (ascii("2020:02:29"), rationals((0, 1), (0, 1), (0, 1)), "2020-02-29T00:00:00Z", []),
            (ascii("2015:11:22"), rationals((7, 1), (55, 1), (41002, 1000)), "2015-11-22T07:55:41.002Z", []),
            (ascii("2015:11:22"), rationals((7, 1), (0, 1), (1, 3)), "2015-11-22T07:00:00.333333333Z", []),
            (ascii("2015:11:22"), rationals((15, 2), (0, 1), (0, 1)), "2015-11-22T07:30:00Z", []),  // fractional hours
            (
                nil, rationals((14, 1), (50, 1), (1, 1)), nil,
                ["GPSTimeStamp has no GPSDateStamp, so the GPS time is unknown"]
            ),
            (ascii("2019:10:20"), nil, nil, ["GPSDateStamp has no GPSTimeStamp, so the GPS time is unknown"]),
            (
                ascii("2019:02:29"), rationals((1, 1), (0, 1), (0, 1)), nil,
                ["GPSDateStamp '2019:02:29' is not a valid date"]
            ),
            (
                ascii("2014:13:45"), rationals((1, 1), (0, 1), (0, 1)), nil,
                ["GPSDateStamp '2014:13:45' is not a valid date"]
            ),
            (
                ascii("0000:00:00"), rationals((0, 1), (0, 1), (0, 1)), nil,
                ["GPSDateStamp '0000:00:00' is not a valid date"]
            ),
            (
                ascii("2014:09:259"), rationals((1, 1), (0, 1), (0, 1)), nil,
                ["GPSDateStamp '2014:09:259' is not a valid date"]
            ),
            (
                ascii("2014:09-25"), rationals((1, 1), (0, 1), (0, 1)), nil,
                ["GPSDateStamp '2014:09-25' is not a valid date"]
            ),
            (
                ascii("2019:07:01"), rationals((24, 1), (0, 1), (0, 1)), nil,
                ["GPSTimeStamp 24:0:0 is not a valid time of day"]
            ),
            (
                ascii("2019:07:01"), rationals((4_294_967_295, 1), (0, 1), (0, 1)), nil,
                ["GPSTimeStamp 4294967295:0:0 is not a valid time of day"]
            ),
            (
                ascii("2019:07:01"), rationals((1, 1), (0, 1), (5, 0)), nil,
                ["GPSTimeStamp seconds has a zero denominator"]
            ),
            (ascii("2019:07:01"), rationals((1, 1), (0, 1)), nil, ["GPSTimeStamp has 2 components, expected 3"]),
            (nil, nil, nil, []),
        ] as [(ExifValue?, ExifValue?, String?, [String])])
    func gpsDateAndTimeBecomeOneUTCTimestampOrNothing(
        date: ExifValue?, time: ExifValue?, expected: String?, warnings expectedWarnings: [String]
    ) {
        var warnings: [GPSWarning] = []
        let timestamp = GPSFix.decodeTimestamp(date: date, time: time, warnings: &warnings)
        #expect(timestamp?.description == expected)
        #expect(warnings.map(\.description) == expectedWarnings)
    }

    @Test func speedIsConvertedToKilometresPerHour() {
        var tags = Self.base
        tags.speed = Self.rationals((10, 1))
        for (ref, expected) in [("K", 10.0), ("M", 16.09344), ("N", 18.52)] {
            tags.speedRef = Self.ascii(ref)
            #expect(GPSFix.decode(tags).fix?.speed == expected)
        }
        tags.speedRef = nil
        #expect(GPSFix.decode(tags).fix?.speed == 10)
        tags.speedRef = Self.ascii("X")
        let decoded = GPSFix.decode(tags)
        #expect(decoded.fix?.speed == nil)
        #expect(decoded.warnings.map(\.description) == ["GPSSpeedRef is 'X', expected K, M or N"])
    }

    @Test func directionMustBeBelow360() {
        var tags = Self.base
        tags.imgDirection = Self.rationals((3599, 10))
        tags.imgDirectionRef = Self.ascii("M")
        #expect(GPSFix.decode(tags).fix?.direction == 359.9)
        #expect(GPSFix.decode(tags).fix?.directionReference == .magnetic)
        tags.imgDirection = Self.rationals((360, 1))
        let decoded = GPSFix.decode(tags)
        #expect(decoded.fix?.direction == nil)
        #expect(decoded.warnings.map(\.description) == ["GPSImgDirection 360.0 is out of range"])
    }

    @Test func textValuesAreTrimmedOfNulsAndTrailingSpaces() {
        #expect(ExifValue.ascii(EntryBytes(Array("N\0\0".utf8))).text == "N")
        #expect(ExifValue.ascii(EntryBytes(Array("WGS-84   \0".utf8))).text == "WGS-84")
        #expect(ExifValue.bytes(EntryBytes(Array("S".utf8))).text == "S")
        #expect(ExifValue.rationals([]).text == nil)
        // Past the 32 bytes kept inline, the same.
        #expect(
            ExifValue.ascii(EntryBytes(Array("Canon EOS 5D Mark IV with a long name  \0\0".utf8))).text
                == "Canon EOS 5D Mark IV with a long name")
    }

    /// Entry values keep a few components inline and the rest in an array; both read and compare
    /// as the plain arrays they stand for.
    @Test(arguments: [0, 1, 2, 3, 4, 15, 16, 17, 31, 32, 33, 70])
    func entryValuesReadAsArraysAtEveryLength(count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: 7 * $0 + 1) }
        let stored = EntryBytes(bytes)
        #expect(Array(stored) == bytes)
        #expect(stored.count == count)
        stored.withBytes { #expect(Array($0) == bytes) }
        #expect(stored == EntryBytes(bytes))
        #expect(stored != EntryBytes(bytes + [0]))
        #expect(Set([stored, EntryBytes(bytes)]).count == 1)
        let parts = (0..<count).map { Rational(Int64($0), Int64($0 + 1)) }
        let components = EntryComponents(parts)
        #expect(Array(components) == parts)
        #expect(components == EntryComponents(count: count) { parts[$0] })
        #expect(components != EntryComponents(parts + [Rational(0, 1)]))
        #expect(Set([components, EntryComponents(parts)]).count == 1)
        #expect(components.description == parts.description)
    }

    @Test(arguments: [
        ("2019:07:01 14:34:56", "2019-07-01T14:34:56" as String?),
        ("2019:07:01 14:34:56\0", "2019-07-01T14:34:56"),
        ("0000:00:00 00:00:00", nil),
        ("    :  :     :  :  ", nil),
        ("2019:02:30 10:00:00", nil),
    ])
    func dateTimeOriginalBecomesISOLocalTime(text: String, expected: String?) {
        #expect(CameraInfo(dateTimeOriginal: text).dateTimeOriginal == expected)
    }
}
