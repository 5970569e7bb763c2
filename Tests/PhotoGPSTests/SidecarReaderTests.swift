import TestSupport
import Testing

@testable import PhotoGPS

/// The sidecar readers themselves, on bytes: Google Takeout JSON and XMP sidecars (their use
/// through `scan` and `locate` is PhotoTagCLITests' SidecarTests).
@Suite struct SidecarReaderTests {
    @Test func takeoutJSONIsReadStrictly() throws {
        let bad: [(String, String)] = [
            ("{\"a\": 01}", "a number with a leading zero at byte 6"),
            ("{\"a\": 1, \"a\": 2}", "repeated key \"a\" at byte 9"),
            ("{\"a\": NaN}", "expected a value at byte 6"),
            ("{\"a\": \"\\x\"}", "unknown escape at byte 8"),
            ("{\"a\": \"\\ud800\"}", "a lone surrogate in a \\u escape at byte 13"),
            ("{} {}", "unexpected text after the JSON value at byte 3"),
            (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), "nested deeper than 64 at byte 64"),
        ]
        for (text, message) in bad {
            let reading = Sidecar.read(bytes: Array(text.utf8), kind: .takeout)
            #expect(reading.error == .malformedContainer("the JSON sidecar is not JSON: \(message)"), "\(text)")
        }
        #expect(
            try JSONValue.parse(Array("\u{FEFF} {\"k\": [1.5e2, \"\\u00e9\\ud83d\\ude00\", true, null]}".utf8))
                == .object([("k", .array([.number(150), .string("é😀"), .bool(true), .null]))]))
    }

    @Test func takeoutPositionRules() {
        func read(_ json: String) -> GPSReading { Sidecar.read(bytes: Array(json.utf8), kind: .takeout) }
        // geoData wins; 0/0 falls to geoDataExif; both 0/0 is no position.
        let both = read(
            #"{"geoData": {"latitude": 1.5, "longitude": 2.5}, "geoDataExif": {"latitude": 3, "longitude": 4}}"#)
        #expect(both.fix?.latitude == 1.5 && both.fix?.source == .takeout)
        let exif = read(
            #"{"geoData": {"latitude": 0.0, "longitude": 0.0}, "geoDataExif": {"latitude": 3, "longitude": 4}}"#)
        #expect(exif.fix?.latitude == 3)
        #expect(read(#"{"geoData": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0}}"#).status == .noGPS)
        // Out of range and wrong kinds are invalid, with the reason.
        let far = read(#"{"geoData": {"latitude": 91, "longitude": 2}}"#)
        #expect(far.status == .invalidGPS)
        #expect(far.warnings == [.outOfRange(field: .takeout(path: "geoData.latitude"), degrees: 91, limit: 90)])
        let text = read(#"{"geoData": {"latitude": "48.1", "longitude": 2}}"#)
        #expect(text.status == .invalidGPS)
        #expect(text.warnings.first?.description == #"Takeout JSON geoData.latitude "48.1" is not a valid value"#)
        // photoTakenTime: a string of seconds (as Takeout writes it) or a number, in UTC.
        let time = read(#"{"photoTakenTime": {"timestamp": "951782400"}}"#)
        #expect(time.camera?.dateTimeOriginal == "2000-02-29T00:00:00" && time.camera?.offsetTimeOriginal == "+00:00")
        #expect(read(#"{"photoTakenTime": {"timestamp": 0}}"#).camera?.dateTimeOriginal == "1970-01-01T00:00:00")
        // JSON that is not Takeout metadata.
        #expect(read(#"{"title": "album"}"#).error == .unsupportedFormat("JSON without Google Takeout metadata"))
        #expect(read("[]").error == .malformedContainer("the JSON sidecar is not an object"))
    }

    @Test func xmpSidecarCoordinateForms() {
        func read(_ attributes: String) -> GPSReading {
            Sidecar.read(bytes: Array(SidecarText.xmp(attributes).utf8), kind: .xmp)
        }
        #expect(
            read(#"exif:GPSLatitude="48,51.4938N" exif:GPSLongitude="2,17,40.2W""#).fix?.longitude
                == -(2 + 17.0 / 60 + 40.2 / 3600))
        let decimal = read(
            #"exif:GPSLatitude="47.6754" exif:GPSLatitudeRef="S" exif:GPSLongitude="-122.3174" exif:GPSLongitudeRef="W""#
        )
        #expect(decimal.fix?.latitude == -47.6754 && decimal.fix?.longitude == -122.3174)
        #expect(decimal.fix?.source == .xmpSidecar)
        // The hemisphere letter wins over a Ref in the DMS form; a decimal without a Ref is signed.
        #expect(
            read(#"exif:GPSLatitude="1,30N" exif:GPSLatitudeRef="S" exif:GPSLongitude="-2.5""#).fix?.latitude == 1.5)
        let badRef = read(#"exif:GPSLatitude="1.5" exif:GPSLatitudeRef="X" exif:GPSLongitude="2""#)
        #expect(badRef.status == .invalidGPS)
        #expect(badRef.warnings == [.xmpBadValue(name: "exif:GPSLatitudeRef", value: "X")])
        #expect(read(#"xmp:CreateDate="2002-02-02T02:02:02Z""#).camera?.offsetTimeOriginal == "+00:00")
        #expect(read("").status == .noGPS)
        #expect(
            Sidecar.read(bytes: Array("<a><b></a>".utf8), kind: .xmp).error
                == .malformedContainer("the XMP sidecar is not well-formed XML"))
    }
}
