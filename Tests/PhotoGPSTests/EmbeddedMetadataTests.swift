import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// Issue 23, item 13: JPEG XL and Sigma X3F files were skipped without a word by a scan, and
/// reported as unsupported when named. JPEG XL's `Exif` and `xml ` boxes, and the EXIF of the JPEG
/// preview inside Fujifilm RAF and Sigma X3F files, are now read (Containers/EmbeddedMetadata.swift).
@Suite struct EmbeddedMetadataTests {
    static let box = ISOBMFFTests.box
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) } }

    /// A JPEG with GPS: 48.858222 N, 2.2945 E.
    static func jpeg() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg"))))
    }

    /// The JPEG's EXIF block without its `Exif\0\0` identifier: the TIFF.
    static func tiff() throws -> [UInt8] {
        let jpeg = try jpeg()
        let start = try #require(jpeg.firstRange(of: GPSReader.exifIdentifier)).upperBound
        let length = Int(jpeg[start - 8]) << 8 | Int(jpeg[start - 7])  // the APP1 length
        return Array(jpeg[start..<start - 6 + length - 2])
    }

    static let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    static let ftyp = ISOBMFFTests.box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))

    static func expectParis(_ reading: GPSReading) {
        #expect(reading.status == .located, "\(reading)")
        #expect(
            abs((reading.fix?.latitude ?? 0) - 48.858222) < 1e-5 && abs((reading.fix?.longitude ?? 0) - 2.2945) < 1e-5)
    }

    @Test func aJPEGXLContainersExifBoxIsRead() throws {
        let file =
            Self.signature + Self.ftyp + Self.box("jxlc", [0xFF, 0x0A, 1, 2, 3])
            + Self.box("Exif", [0, 0, 0, 0] + (try Self.tiff()))
        Self.expectParis(GPSReader().read(bytes: file))
    }

    @Test func aJPEGXLContainersXMPIsReadWithoutExif() {
        let xmp = SidecarText.xmp(#"exif:GPSLatitude="48,51.4933N" exif:GPSLongitude="2,17.67E""#)
        let file = Self.signature + Self.ftyp + Self.box("xml ", Array(xmp.utf8)) + Self.box("jxlc", [0xFF, 0x0A])
        let reading = GPSReader().read(bytes: file)
        #expect(reading.status == .located && abs((reading.fix?.latitude ?? 0) - 48.858222) < 1e-5, "\(reading)")
    }

    @Test func aBareCodestreamHasNoGPSAndCompressedMetadataIsAWarning() throws {
        #expect(GPSReader().read(bytes: [0xFF, 0x0A, 0xF8, 0x19, 0x14, 0x09]).status == .noGPS)
        let file =
            Self.signature + Self.ftyp + Self.box("brob", Array("Exif".utf8) + [1, 2, 3, 4])
            + Self.box("jxlc", [0xFF, 0x0A])
        let reading = GPSReader().read(bytes: file)
        #expect(reading.status == .noGPS && reading.error == nil)
        #expect(reading.warnings == [.compressedMetadata(box: "Exif")])
    }

    @Test func aRAFsPreviewJPEGIsRead() throws {
        let jpeg = try Self.jpeg()
        var file = Array("FUJIFILMCCD-RAW 0201FF383501".utf8)
        file += [UInt8](repeating: 0, count: 84 - file.count)
        file += ISOBMFFTests.u32(100) + ISOBMFFTests.u32(jpeg.count)
        file += [UInt8](repeating: 0, count: 100 - file.count) + jpeg + [UInt8](repeating: 0xAA, count: 64)
        Self.expectParis(GPSReader().read(bytes: file))
        // A preview outside the file is an error that says so.
        var broken = file
        broken.replaceSubrange(84..<88, with: ISOBMFFTests.u32(1 << 30))
        #expect(GPSReader().read(bytes: broken).error.map { "\($0)".contains("RAF") } == true)
    }

    @Test func anX3FsJPEGPreviewIsReadFromItsDirectory() throws {
        let jpeg = try Self.jpeg()
        var file = Array("FOVb".utf8) + [0, 0, 3, 0] + [UInt8](repeating: 0, count: 32)
        // A non-JPEG image section first (format 3), then the JPEG (format 18).
        func section(format: Int, data: [UInt8]) -> [UInt8] {
            Array("SECi".utf8) + [0, 0, 2, 0] + Self.le32(2) + Self.le32(format) + Self.le32(4) + Self.le32(4)
                + Self.le32(16) + data
        }
        let raw = section(format: 3, data: [UInt8](repeating: 7, count: 64))
        let preview = section(format: 18, data: jpeg)
        let rawAt = file.count
        file += raw
        let previewAt = file.count
        file += preview
        let directory = file.count
        file += Array("SECd".utf8) + [0, 0, 2, 0] + Self.le32(2)
        file += Self.le32(rawAt) + Self.le32(raw.count) + Array("IMAG".utf8)
        file += Self.le32(previewAt) + Self.le32(preview.count) + Array("IMA2".utf8)
        file += Self.le32(directory)
        Self.expectParis(GPSReader().read(bytes: file))
        #expect(
            try RawPreview.x3fJPEGs(in: MemorySource(storage: file)) == [previewAt + 28..<previewAt + preview.count])
    }

    static let corpus = SharedData.path("corpus/dev")

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: corpus), "the dev corpus (../shared/corpus/dev) is not present"))
    func theCorpussSigmaDP2GivesItsCameraFromThePreview() {
        let reading = GPSReader().read(path: Self.corpus + "/exiftool__t__images__SigmaDP2.x3f")
        #expect(reading.status == .noGPS && reading.error == nil)
        #expect(reading.camera?.model == "SIGMA DP2" && reading.camera?.dateTimeOriginal == "2009-11-28T13:05:20")
        for name in ["exiftool__t__images__JXL.jxl", "tika__tika-parser-image-module__testJXL.jxl"] {
            let bare = GPSReader().read(path: Self.corpus + "/" + name)
            #expect(bare.status == .noGPS && bare.error == nil, "\(name)")
        }
    }
}
