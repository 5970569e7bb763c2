import PhotoTagSupport
import Testing

@testable import PhotoGPS

/// The invariants GPSFix and GPSTimestamp enforce (GPSFix.swift).
@Suite struct GPSFixTests {
    @Test func aValidFixKeepsEveryValue() throws {
        let timestamp = try #require(GPSTimestamp(year: 2024, month: 2, day: 29, nanosecondOfDay: 1))
        let fix = try #require(
            GPSFix(
                latitude: -90, longitude: 180, altitude: -12.5, timestamp: timestamp, direction: 0,
                directionReference: .magnetic, speed: 0, horizontalError: 0, mapDatum: "WGS-84", source: .loci))
        #expect(fix.latitude == -90 && fix.longitude == 180 && fix.altitude == -12.5)
        #expect(fix.timestamp == timestamp && fix.direction == 0 && fix.directionReference == .magnetic)
        #expect(fix.speed == 0 && fix.horizontalError == 0 && fix.mapDatum == "WGS-84" && fix.source == .loci)
        #expect(fix.from(.xmpSidecar).source == .xmpSidecar)
        #expect(fix.from(.xmpSidecar).latitude == -90)
    }

    @Test func onlyTheEqualsZeroPlaceholderIsRejectedAtTheOrigin() {
        #expect(GPSFix(latitude: 0, longitude: 0) == nil)
        #expect(GPSFix(latitude: -0.0, longitude: 0) == nil)
        #expect(GPSFix(latitude: 0, longitude: 1e-9) != nil)
    }

    @Test(arguments: [
        (90.000001, 0.0), (-90.5, 0.0), (1.0, 180.0001), (1.0, -181.0), (Double.nan, 1.0), (1.0, Double.nan),
        (Double.infinity, 1.0),
    ])
    func aPositionOutOfRangeIsNoFix(latitude: Double, longitude: Double) {
        #expect(GPSFix(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func invalidOptionalValuesAreNoFix() {
        #expect(GPSFix(latitude: 1, longitude: 1, direction: 360) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, direction: -1) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, direction: 359.9) != nil)
        #expect(GPSFix(latitude: 1, longitude: 1, directionReference: .true) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, speed: -1) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, speed: .infinity) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, horizontalError: -0.5) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, horizontalError: .nan) == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, mapDatum: "") == nil)
        #expect(GPSFix(latitude: 1, longitude: 1, altitude: .nan) == nil)
        // An altitude beyond Double's range reads as infinite (an XMP rational can do that).
        #expect(GPSFix(latitude: 1, longitude: 1, altitude: -.infinity)?.altitude == -.infinity)
    }

    @Test(arguments: [
        (0, 1, 1, 0 as Int64), (10000, 1, 1, 0), (2023, 2, 29, 0), (2024, 13, 1, 0), (2024, 4, 31, 0),
        (2024, 1, 0, 0), (2024, 1, 1, -1), (2024, 1, 1, 86_400_000_000_000),
    ])
    func anImpossibleTimestampIsNil(year: Int, month: Int, day: Int, nanosecondOfDay: Int64) {
        #expect(GPSTimestamp(year: year, month: month, day: day, nanosecondOfDay: nanosecondOfDay) == nil)
    }

    @Test func timestampsPrintAsISO8601() throws {
        let noon = try #require(GPSTimestamp(year: 1, month: 12, day: 31, nanosecondOfDay: 86_399_999_999_999))
        #expect(noon.description == "0001-12-31T23:59:59.999999999Z")
        #expect(noon.withISO8601 { String(decoding: $0, as: UTF8.self) } == "0001-12-31T23:59:59.999999999Z")
        let plain = try #require(GPSTimestamp(year: 2019, month: 7, day: 1, nanosecondOfDay: 45_296_240_000_000))
        #expect(plain.description == "2019-07-01T12:34:56.24Z")
    }

    @Test(
        arguments: [
            (9999, 1, 9, 0 as Int64, "9999-01-09T00:00:00Z"),
            (2020, 10, 10, 3_600_005_000_000, "2020-10-10T01:00:00.005Z"),
            (812, 3, 4, 59_000_000_001, "0812-03-04T00:00:59.000000001Z"),
            (2000, 2, 29, 86_399_100_000_000, "2000-02-29T23:59:59.1Z"),
        ])
    func timestampsKeepLeadingZerosAndDropTrailingOnes(
        year: Int, month: Int, day: Int, nanosecondOfDay: Int64, text: String
    ) throws {
        let timestamp = try #require(
            GPSTimestamp(year: year, month: month, day: day, nanosecondOfDay: nanosecondOfDay))
        #expect(timestamp.description == text)
        #expect(timestamp.withISO8601 { Array($0) } == Array(text.utf8))
    }
}
