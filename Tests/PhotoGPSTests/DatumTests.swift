import Testing

@testable import PhotoGPS

/// GPSMapDatum (issue 23, item 15): a position in another datum than WGS 84, such as Japan's
/// old Tokyo datum (about 400 m off), is given as stored, but never without a warning.
@Suite struct DatumTests {
    /// A GPS block at 35.6586 N, 139.7454 E (Tokyo Tower) with `datum` as GPSMapDatum, read
    /// as the reader reads a file's.
    static func decoded(datum: String?) throws -> GPSDecoding {
        let tiff = TIFFBytes(bigEndian: false)
        var gps = [
            tiff.entry(GPSTag.latitudeRef, .ascii, [0x4E, 0]),
            tiff.entry(GPSTag.latitude, .rational, [35, 1, 39, 1, 3096, 100]),
            tiff.entry(GPSTag.longitudeRef, .ascii, [0x45, 0]),
            tiff.entry(GPSTag.longitude, .rational, [139, 1, 44, 1, 4344, 100]),
        ]
        if let datum {
            let bytes = Array(datum.utf8) + [0]
            gps.append(
                TIFFBytes.Entry(
                    tag: GPSTag.mapDatum, type: TIFFType.ascii.rawValue, count: UInt32(bytes.count),
                    value: bytes + (bytes.count < 4 ? [UInt8](repeating: 0, count: 4 - bytes.count) : [])))
        }
        let block = try ExifBlock(payload: tiff.app1(ifd0: [], gps: gps))
        return GPSFix.decode(block.gpsTags())
    }

    @Test func aTokyoDatumPositionIsGivenAsStoredWithAWarning() throws {
        let tokyo = try Self.decoded(datum: "TOKYO")
        let fix = try #require(tokyo.fix)
        #expect(abs(fix.latitude - 35.6586) < 1e-4 && abs(fix.longitude - 139.7454) < 1e-4)
        #expect(fix.mapDatum == "TOKYO")
        #expect(
            tokyo.warnings.map(\.description) == [
                "the position's datum is TOKYO, not WGS 84 (Tokyo datum positions are about 400 to 500 m off in Japan); it is given as stored, not converted"
            ])
    }

    @Test(arguments: [
        "WGS-84", "WGS84", "WGS 1984", "wgs_84", "EPSG:4326", "EPSG:9777", "ETRS89", "JGD2011", "ITRF2014",
    ])
    func wgs84AndDatumsWithinMetresOfItGiveNoWarning(datum: String) throws {
        let decoded = try Self.decoded(datum: datum)
        #expect(decoded.fix != nil)
        #expect(decoded.warnings.isEmpty, "\(datum)")
    }

    @Test func anUnknownDatumIsSaidToBeUnknown() throws {
        #expect(try Self.decoded(datum: nil).warnings.isEmpty)
        let unknown = try Self.decoded(datum: "PULKOVO 1942")
        #expect(
            unknown.warnings.map(\.description) == [
                "the position's datum is PULKOVO 1942, not known to be WGS 84; it is given as stored, not converted"
            ])
        #expect(GPSFix.datumWarning("NAD27") != nil && GPSFix.datumWarning("WGS-72") != nil)
    }
}
