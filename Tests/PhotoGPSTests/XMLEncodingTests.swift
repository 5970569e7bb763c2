import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// Issue 23, item 12: sidecars were told by name only (`cat x.xmp | phototag locate -` gave
/// "unsupported"), and XMP in UTF-16 or UTF-32 was not well-formed to phototag, while xmllint and
/// ExifTool read it.
@Suite struct XMLEncodingTests {
    static let xmp =
        SidecarText.xmp(#"exif:GPSLatitude="48,51.4933N" exif:GPSLongitude="2,17.67E""#)
        + "<!-- é 日本 😀 -->"

    /// `text` in each encoding XML allows, with and without a byte order mark.
    static func encodings(_ text: String) -> [(name: String, bytes: [UInt8])] {
        let utf16 = Array(text.utf16), scalars = text.unicodeScalars.map(\.value)
        func be16(_ units: [UInt16]) -> [UInt8] { units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        func le16(_ units: [UInt16]) -> [UInt8] { units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
        func be32(_ values: [UInt32]) -> [UInt8] {
            values.flatMap { v in (0..<4).map { UInt8(v >> (24 - 8 * $0) & 0xFF) } }
        }
        func le32(_ values: [UInt32]) -> [UInt8] { values.flatMap { v in (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } } }
        return [
            ("UTF-8", Array(text.utf8)), ("UTF-8 BOM", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            ("UTF-16BE BOM", [0xFE, 0xFF] + be16(utf16)), ("UTF-16LE BOM", [0xFF, 0xFE] + le16(utf16)),
            ("UTF-16BE", be16(utf16)), ("UTF-16LE", le16(utf16)),
            ("UTF-32BE BOM", [0, 0, 0xFE, 0xFF] + be32(scalars)), ("UTF-32LE BOM", [0xFF, 0xFE, 0, 0] + le32(scalars)),
            ("UTF-32BE", be32(scalars)), ("UTF-32LE", le32(scalars)),
        ]
    }

    @Test func everyEncodingOfAnXMPSidecarGivesTheSamePosition() {
        for (name, bytes) in Self.encodings(Self.xmp) {
            #expect(XMLEncoding.utf8(bytes) == Array(Self.xmp.utf8), "\(name)")
            let reading = Sidecar.read(bytes: bytes, kind: .xmp)
            #expect(reading.status == .located && abs((reading.fix?.latitude ?? 0) - 48.858222) < 1e-5, "\(name)")
            #expect(Sidecar.kind(ofContent: bytes) == .xmp, "\(name)")
            // Read as a photo (standard input, a file of any name): the content says sidecar.
            #expect(GPSReader().read(bytes: bytes).fix?.source == .xmpSidecar, "\(name)")
        }
    }

    @Test func brokenCodeUnitsAreNotWellFormed() {
        // An unpaired surrogate, and a UTF-16 document cut in the middle of a code unit.
        #expect(XMLEncoding.utf8([0xFE, 0xFF, 0x00, 0x3C, 0xD8, 0x00, 0x00, 0x3E]) == nil)
        #expect(XMLEncoding.utf8([0xFF, 0xFE, 0x3C, 0x00, 0x3E]) == nil)
        #expect(XMLEncoding.utf8([0, 0, 0xFE, 0xFF, 0, 0x11, 0, 0]) == nil)  // beyond U+10FFFF
        #expect(Sidecar.read(bytes: [0xFE, 0xFF, 0x00, 0x3C, 0xD8, 0x00], kind: .xmp).error != nil)
    }

    @Test func takeoutJSONIsToldByItsKeysAndOtherTextIsNotASidecar() {
        let takeout = #"{"title": "a.jpg", "geoData": {"latitude": 48.8582, "longitude": 2.2945}}"#
        #expect(Sidecar.kind(ofContent: Array(takeout.utf8)) == .takeout)
        #expect(GPSReader().read(bytes: Array(takeout.utf8)).fix?.source == .takeout)
        for other in [#"{"a": 1}"#, "<html><body>adobe</body></html>", "just text", ""] {
            #expect(Sidecar.kind(ofContent: Array(other.utf8)) == nil, "\(other)")
        }
        #expect(GPSReader().read(bytes: Array("just text".utf8)).error == .unsupportedFormat(nil))
    }
}
