import Testing

@testable import PhotoGPS

/// The project's own fixtures, found from this file's path (no SwiftPM resources).
enum Fixtures {
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/PhotoGPSTests/FixturePhotoTests.swift
        return parts.joined(separator: "/") + "/Fixtures"
    }()

    static func photo(_ name: String) -> String { "\(root)/photos/\(name)" }
}

/// What a fixture photo must yield, field by field.
struct Expectation: CustomTestStringConvertible, Sendable {
    var file: String
    var status: GPSReading.Status
    var latitude: Double? = nil
    var longitude: Double? = nil
    var altitude: Double? = nil
    var timestamp: String? = nil
    var warnings: [String] = []
    var error: String? = nil

    var testDescription: String { file }
}

/// Every photo in `Fixtures/photos/`, through the whole reading path, with its exact outcome.
@Suite struct FixturePhotoTests {
    static let expectations: [Expectation] = [
        .init(
            file: "ne-little-endian.jpg", status: .located, latitude: 48.858222222222224, longitude: 2.2944999999999998,
            altitude: 35.5, timestamp: "2019-07-01T12:34:56.24Z"),
        .init(
            file: "sw-big-endian.jpg", status: .located, latitude: -22.951869444444444, longitude: -43.210486111111116,
            altitude: 700, timestamp: "2020-02-29T09:05:00Z"),
        .init(file: "decimal-minutes.jpg", status: .located, latitude: 37.7749, longitude: -122.4194),
        .init(file: "fill-bytes.jpg", status: .located, latitude: 37.7749, longitude: -122.4194),
        .init(file: "decimal-degrees.jpg", status: .located, latitude: 51.5757623, longitude: -1.5678859),
        .init(file: "one-component.jpg", status: .located, latitude: 35.12, longitude: 139.75),
        .init(
            file: "srational-negative.jpg", status: .located, latitude: -33.865, longitude: 151.20999999999998,
            warnings: ["GPSLongitude is negative but GPSLongitudeRef is E; the ref decides the sign"]),
        .init(
            file: "zero-denominator-seconds.jpg", status: .invalidGPS,
            warnings: ["GPSLatitude seconds has a zero denominator"]),
        .init(file: "missing-ref.jpg", status: .invalidGPS, warnings: ["GPSLatitudeRef is missing"]),
        .init(file: "zero-zero.jpg", status: .invalidGPS, warnings: ["position 0, 0 is the no-fix placeholder"]),
        .init(
            file: "latitude-213.jpg", status: .invalidGPS,
            warnings: ["GPSLatitude 213.64 is out of range (more than 90 degrees)"]),
        .init(
            file: "altitude-below-sea-level.jpg", status: .located, latitude: 31.5, longitude: 35.480000000000004,
            altitude: -430.5),
        .init(
            file: "altitude-wrapped.jpg", status: .located, latitude: 52.36666666666667, longitude: 4.883333333333333,
            altitude: -5, warnings: ["GPSAltitude 4294967291/1 is a wrapped negative number, read as -5.0 m"]),
        .init(
            file: "gps-time-without-date.jpg", status: .located, latitude: 51.84666666666667,
            longitude: -3.3377777777777777,
            warnings: ["GPSTimeStamp has no GPSDateStamp, so the GPS time is unknown"]),
        .init(
            file: "gps-date-invalid.jpg", status: .located, latitude: 40.4, longitude: -3.7,
            warnings: ["GPSDateStamp '2014:13:45' is not a valid date"]),
        .init(file: "equator.jpg", status: .located, latitude: 0, longitude: 36.81666666666667),
        .init(file: "gps-ifd-empty.jpg", status: .invalidGPS, warnings: ["the GPS block records no position"]),
        .init(file: "exif-without-gps.jpg", status: .noGPS),
        .init(file: "no-exif.jpg", status: .noGPS),
        .init(file: "app7-before-app1.jpg", status: .located, latitude: 39.91, longitude: 116.39),
        .init(
            file: "xmp-before-exif.jpg", status: .located, latitude: 35.65861111111111, longitude: 139.70277777777775),
        .init(
            file: "truncated-in-exif.jpg", status: .error,
            error: "truncated file: the file ends inside the EXIF block, at byte 40 of 462"),
        .init(
            file: "truncated-after-exif.jpg", status: .located, latitude: 48.858222222222224,
            longitude: 2.2944999999999998, altitude: 35.5, timestamp: "2019-07-01T12:34:56.24Z"),
        .init(file: "empty.jpg", status: .error, error: "file is empty"),
        .init(file: "not-a-jpeg.jpg", status: .error, error: "unsupported file format (not a JPEG)"),
        .init(file: "exif-garbage.jpg", status: .error, error: "malformed EXIF: the EXIF block has no TIFF header"),
        .init(file: "ifd-loop.jpg", status: .located, latitude: 10, longitude: 20),
    ]

    @Test(arguments: expectations)
    func fixturePhotoHasItsExactOutcome(_ expected: Expectation) {
        let reading = GPSReader().read(file: Fixtures.photo(expected.file))
        #expect(reading.status == expected.status)
        #expect(reading.fix?.latitude == expected.latitude)
        #expect(reading.fix?.longitude == expected.longitude)
        #expect(reading.fix?.altitude == expected.altitude)
        #expect(reading.fix?.timestamp?.description == expected.timestamp)
        #expect(reading.warnings.map(\.description) == expected.warnings)
        #expect(reading.error?.description == expected.error)
        #expect((reading.fix != nil) == (reading.status == .located))
    }

    @Test func everyFixturePhotoHasAnExpectation() throws {
        let listed = Set(Self.expectations.map(\.file))
        let present = Set(try listDirectory(Fixtures.root + "/photos").filter { $0.hasSuffix(".jpg") })
        #expect(listed == present)
    }

    @Test func theFullFixCarriesEveryOptionalField() throws {
        let reading = GPSReader().read(file: Fixtures.photo("ne-little-endian.jpg"))
        let fix = try #require(reading.fix)
        #expect(fix.direction == 262.5)
        #expect(fix.directionReference == .true)
        #expect(fix.speed == 3.6)
        #expect(fix.horizontalError == 5)
        #expect(fix.mapDatum == "WGS-84")
        #expect(fix.source == .exif)
        #expect(
            reading.camera
                == CameraInfo(
                    make: "PhotoTag", model: "Fixture Camera", dateTimeOriginal: "2019:07:01 14:34:56",
                    offsetTimeOriginal: "+02:00"))
    }

    @Test func cameraInfoIsReadWithoutGPS() {
        let reading = GPSReader().read(file: Fixtures.photo("exif-without-gps.jpg"))
        #expect(
            reading.camera
                == CameraInfo(make: "PhotoTag", model: "No GPS Camera", dateTimeOriginal: "2021:05:06 07:08:09"))
        #expect(GPSReader().read(file: Fixtures.photo("no-exif.jpg")).camera == nil)
    }

    @Test(arguments: expectations.map(\.file))
    func readingBytesAgreesWithReadingTheFile(_ name: String) throws {
        let path = Fixtures.photo(name)
        let bytes = try readWholeFile(path)
        #expect(GPSReader().read(bytes: bytes) == GPSReader().read(file: path))
    }
}
