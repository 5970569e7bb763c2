import TestSupport
import Testing

@testable import PhotoGPS

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
    var source: GPSFix.Source? = nil

    var testDescription: String { file }
}

/// Every photo in `Fixtures/photos/`, through the whole reading path, with its exact outcome.
@Suite struct GPSReaderTests {
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
        .init(file: "not-a-jpeg.jpg", status: .error, error: "unsupported file format"),
        .init(file: "exif-garbage.jpg", status: .error, error: "malformed EXIF: the EXIF block has no TIFF header"),
        .init(file: "ifd-loop.jpg", status: .located, latitude: 10, longitude: 20),
        // Containers (Fixtures/make_containers.py).
        .init(
            file: "heic-iloc-v0.heic", status: .located, latitude: 41.89022222222222, longitude: 12.492305555555555,
            altitude: 12.5),
        .init(
            file: "heic-iloc-v1-idat.heic", status: .located, latitude: 38.69188888888888, longitude: -9.215972222222222
        ),
        .init(
            file: "heic-iloc-v2-extents.heic", status: .located, latitude: 48.20847222222223,
            longitude: 16.373166666666666, timestamp: "2023-05-17T09:41:07.5Z"),
        .init(
            file: "avif-exif.avif", status: .located, latitude: 50.087833333333336, longitude: 14.42136111111111,
            altitude: 193.5),
        .init(file: "heic-no-exif.heic", status: .noGPS),
        .init(file: "heic-xmp-item.heic", status: .located, latitude: 34.995, longitude: 135.785, source: .xmp),
        .init(file: "mp4-video.heic", status: .noGPS),
        .init(
            file: "cr3-cmt4.cr3", status: .located, latitude: 64.14194444444445, longitude: -21.92666666666667,
            altitude: 74.5),
        .init(
            file: "png-exif-before-idat.png", status: .located, latitude: -33.92527777777777,
            longitude: 18.42388888888889),
        .init(
            file: "png-exif-after-idat.png", status: .located, latitude: -34.60333333333333,
            longitude: -58.38166666666667),
        .init(
            file: "png-exif-prefixed.png", status: .located, latitude: 18.921944444444446, longitude: 72.83472222222221),
        .init(file: "png-xmp-itxt.png", status: .located, latitude: 37.7749, longitude: -122.4194, source: .xmp),
        .init(file: "jpeg-named.png", status: .located, latitude: 37.578611111111115, longitude: 126.97722222222222),
        .init(file: "webp-exif.webp", status: .located, latitude: 19.4325, longitude: -99.13305555555554),
        .init(
            file: "webp-exif-prefixed.webp", status: .located, latitude: 1.2869444444444442,
            longitude: 103.85472222222222),
        .init(file: "webp-simple.webp", status: .noGPS),
        .init(file: "webp-xmp.webp", status: .located, latitude: 25.197197, longitude: 55.274376, source: .xmp),
        .init(file: "tiff-le.tif", status: .located, latitude: 41.00833333333333, longitude: 28.979999999999997),
        .init(
            file: "tiff-be-gps-beyond-64k.tif", status: .located, latitude: 55.75416666666667,
            longitude: 37.62027777777778),
        .init(file: "dng-like.dng", status: .located, latitude: 49.28388888888889, longitude: -123.1086111111111),
        .init(file: "orf-like.orf", status: .located, latitude: 34.68722222222222, longitude: 135.52611111111113),
        .init(file: "rw2-like.rw2", status: .located, latitude: 29.979166666666664, longitude: 31.134166666666665),
        .init(file: "bigtiff.tif", status: .error, error: "unsupported file format: BigTIFF"),
        // XMP in JPEG.
        .init(
            file: "xmp-only.jpg", status: .located, latitude: 48.858221666666665, longitude: 2.2945, altitude: 35.5,
            source: .xmp),
        .init(
            file: "xmp-dji.jpg", status: .located, latitude: 22.5311, longitude: 114.0214, altitude: 120.5, source: .xmp
        ),
        .init(file: "xmp-and-exif.jpg", status: .located, latitude: 48.85305555555556, longitude: 2.3497222222222223),
        .init(file: "xmp-elements.jpg", status: .located, latitude: 52.519999999999996, longitude: 13.41, source: .xmp),
        .init(
            file: "xmp-malformed.jpg", status: .noGPS,
            warnings: ["the XMP packet is not well-formed XML; its GPS values are not used"]),
        .init(
            file: "xmp-invalid-exif.jpg", status: .located, latitude: 43.64253333333333, longitude: -79.38733333333333,
            warnings: ["GPSLatitude minutes has a zero denominator"], source: .xmp),
        .init(file: "xmp-dji-west.jpg", status: .located, latitude: 37.7749, longitude: -122.4194, source: .xmp),
        // Regressions found by fuzzing (Fuzz/README.md): both once took seconds under the fuzzer.
        .init(
            file: "fuzz-iloc-zero-width-extents.heic", status: .error,
            error: "malformed file: 'iloc' lists more than 65,536 extents"),
        .init(
            file: "fuzz-xmp-deep-nesting.jpg", status: .noGPS,
            warnings: ["the XMP packet is not well-formed XML; its GPS values are not used"]),
        .init(
            file: "fuzz-idat-offset-overflow.heic", status: .error,
            error: "malformed file: item 1 lies outside the 'idat' box"),
        .init(file: "fuzz-tiff-long-make.tif", status: .located, latitude: 48.5, longitude: 11.25),
    ]

    @Test(arguments: expectations)
    func fixturePhotoHasItsExactOutcome(_ expected: Expectation) {
        let reading = GPSReader().read(path: Fixtures.photo(expected.file))
        #expect(reading.status == expected.status)
        #expect(reading.fix?.latitude == expected.latitude)
        #expect(reading.fix?.longitude == expected.longitude)
        #expect(reading.fix?.altitude == expected.altitude)
        #expect(reading.fix?.timestamp?.description == expected.timestamp)
        #expect(reading.warnings.map(\.description) == expected.warnings)
        #expect(reading.error?.description == expected.error)
        #expect((reading.fix != nil) == (reading.status == .located))
        if reading.status == .located { #expect(reading.fix?.source == (expected.source ?? .exif)) }
    }

    /// The entry arrays a thread keeps from photo to photo (EntryArrays) carry nothing from one
    /// to the next: every fixture read in a row on one thread, forwards then backwards, has the
    /// outcome it has alone.
    @Test func fixturePhotosReadOneAfterAnotherOnOneThreadKeepTheirOutcomes() {
        let reader = GPSReader()
        for expected in Self.expectations + Self.expectations.reversed() {
            let reading = reader.read(path: Array(Fixtures.photo(expected.file).utf8))
            #expect(reading.status == expected.status, "\(expected.file)")
            #expect(reading.fix?.latitude == expected.latitude, "\(expected.file)")
            #expect(reading.fix?.longitude == expected.longitude, "\(expected.file)")
            #expect(reading.fix?.altitude == expected.altitude, "\(expected.file)")
            #expect(reading.fix?.timestamp?.description == expected.timestamp, "\(expected.file)")
            #expect(reading.warnings.map(\.description) == expected.warnings, "\(expected.file)")
            #expect(reading.error?.description == expected.error, "\(expected.file)")
        }
    }

    @Test func everyFixturePhotoHasAnExpectation() throws {
        let listed = Set(Self.expectations.map(\.file))
        let present = Set(try listDirectory(Fixtures.root + "/photos"))
        #expect(listed == present)
    }

    @Test func theFullFixCarriesEveryOptionalField() throws {
        let reading = GPSReader().read(path: Fixtures.photo("ne-little-endian.jpg"))
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
        let reading = GPSReader().read(path: Fixtures.photo("exif-without-gps.jpg"))
        #expect(
            reading.camera
                == CameraInfo(make: "PhotoTag", model: "No GPS Camera", dateTimeOriginal: "2021:05:06 07:08:09"))
        #expect(GPSReader().read(path: Fixtures.photo("no-exif.jpg")).camera == nil)
    }

    @Test(arguments: expectations.map(\.file))
    func readingBytesAgreesWithReadingTheFile(_ name: String) throws {
        let path = Fixtures.photo(name)
        let bytes = try readWholeFile(path)
        #expect(GPSReader().read(bytes: bytes) == GPSReader().read(path: path))
    }

    /// A fixture PNG with one byte of its eXIf chunk changed: the CRC no longer matches, so the
    /// position is not used (it could be any), with a warning, under the invalid-gps policy.
    @Test func aPNGWhoseEXIFChunkFailsItsCRCIsInvalidNotWrong() throws {
        let original = try readFixture("png-exif-before-idat.png")
        let start = try #require(firstIndex(of: Array("eXIf".utf8), in: original))
        var damaged = original
        damaged[start + 4 + 40] ^= 0x10
        let reading = GPSReader().read(bytes: damaged)
        #expect(reading.status == .invalidGPS)
        #expect(reading.fix == nil)
        #expect(reading.warnings == [.badChunkCRC(chunk: "eXIf")])
        #expect(GPSReader().read(bytes: original).status == .located)
    }

    private func readFixture(_ name: String) throws -> [UInt8] {
        let path = Fixtures.photo(name)
        let reading = try FileSource(path: path)
        return try reading.bytes(at: 0, length: reading.count)
    }

    private func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        bytes.indices.first { bytes[$0...].starts(with: pattern) }
    }
}
