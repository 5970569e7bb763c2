import Testing

@testable import PhotoGPS

/// SubSecTimeOriginal (EXIF tag 0x9291), read with the other capture-time tags, in a JPEG's EXIF
/// block and through the compact block built for TIFF files.
@Suite struct CameraInfoTests {
    /// A little-endian TIFF: IFD0 with Make and the Exif IFD pointer, then an Exif IFD with
    /// DateTimeOriginal and SubSecTimeOriginal (ASCII, NUL-terminated).
    static func tiff(subSeconds: String) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        let make = Array("PhotoTag".utf8) + [0]
        let date = Array("2019:07:01 14:34:56".utf8) + [0]
        let fraction = Array(subSeconds.utf8) + [0]
        // IFD0 at 8: 2 entries (2 + 24 + 4 bytes), then Make's value; the Exif IFD follows.
        let ifd0 = 8, makeAt = ifd0 + 30, exifIFD = makeAt + make.count + make.count % 2
        let dateAt = exifIFD + 2 + 24 + 4, fractionAt = dateAt + date.count + date.count % 2
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(ifd0)
        bytes += u16(2) + u16(0x010F) + u16(2) + u32(make.count) + u32(makeAt)
        bytes += u16(0x8769) + u16(4) + u32(1) + u32(exifIFD) + u32(0)
        bytes += make + (make.count % 2 == 1 ? [0] : [])
        bytes += u16(2) + u16(0x9003) + u16(2) + u32(date.count) + u32(dateAt)
        let inline = fraction.count <= 4
        bytes += u16(0x9291) + u16(2) + u32(fraction.count)
        bytes += inline ? fraction + [UInt8](repeating: 0, count: 4 - fraction.count) : u32(fractionAt)
        bytes += u32(0) + date + (date.count % 2 == 1 ? [0] : [])
        if !inline { bytes += fraction }
        return bytes
    }

    /// The TIFF as the EXIF APP1 of a JPEG with no image data.
    static func jpeg(subSeconds: String) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff(subSeconds: subSeconds)
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
    }

    @Test(arguments: [("24", "24"), ("123456", "123456"), (" 5  ", "5"), ("", nil), ("1/2", nil)])
    func subSecTimeOriginalIsReadFromAJPEG(stored: String, expected: String?) throws {
        let camera = try #require(GPSReader().read(bytes: Self.jpeg(subSeconds: stored)).camera)
        #expect(camera.dateTimeOriginal == "2019-07-01T14:34:56")
        #expect(camera.subSecTimeOriginal == expected)
    }

    @Test func subSecTimeOriginalSurvivesTheCompactBlockOfATIFF() throws {
        let camera = try #require(GPSReader().read(bytes: Self.tiff(subSeconds: "070")).camera)
        #expect(camera.make == "PhotoTag")
        #expect(camera.dateTimeOriginal == "2019-07-01T14:34:56")
        #expect(camera.subSecTimeOriginal == "070")
    }
}
