import CExif
import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The file of the development corpus that libexif reads worse from its APP1 as is than from the
/// compact block of the IFD walker.
enum LibexifMisreadFile {
    static let name = "pillow__Tests__images__exif_gps.jpg"
    static let path = SharedData.path("corpus/dev/" + name)

    static var available: Bool { FileManager.default.fileExists(atPath: path) }
}

/// Why GPSReader hands libexif the compact block, not a JPEG's APP1 as is: ``LibexifMisreadFile``.
@Suite(.enabled(if: LibexifMisreadFile.available, "the shared dev corpus (../shared/corpus/dev) is not present"))
struct CompactBlockCorpusTests {

    /// The file's EXIF APP1 payload (`Exif\0\0` and the TIFF), as the JPEG carries it.
    static func app1() throws -> [UInt8] {
        let bytes = try readWholeFile(LibexifMisreadFile.path)
        let identifier = GPSReader.exifIdentifier
        let start = try #require(
            (4..<bytes.count - identifier.count).first { bytes[$0..<$0 + identifier.count].elementsEqual(identifier) })
        #expect(bytes[start - 4] == 0xFF && bytes[start - 3] == 0xE1, "the identifier starts an APP1 segment")
        let length = Int(bytes[start - 2]) << 8 | Int(bytes[start - 1])
        return Array(bytes[start..<start + length - 2])
    }

    @Test func libexifDropsTheExifAndGPSIFDsOfTheAPP1ThatTheCompactBlockKeeps() throws {
        let app1 = try Self.app1()
        let asIs = try ExifBlock(payload: app1)
        #expect(asIs.value(ExifTag.dateTimeOriginal, in: EXIF_IFD_EXIF) == nil)
        #expect(asIs.value(GPSTag.latitude, in: EXIF_IFD_GPS) == nil)

        let compact = try CompactTIFF.block(from: TIFFReader(source: MemorySource(storage: app1), base: 6))
        let block = try ExifBlock(payload: compact)
        #expect(block.text(ExifTag.dateTimeOriginal, in: EXIF_IFD_EXIF) == "2099:09:29 10:10:10")
        #expect(block.value(GPSTag.latitude, in: EXIF_IFD_GPS) != nil)
    }

    @Test func theReadingHasTheCameraTimeAndTheGPSIFDsWarnings() {
        let reading = GPSReader().read(path: LibexifMisreadFile.path)
        #expect(reading.status == .invalidGPS)
        #expect(reading.camera?.dateTimeOriginal == "2099-09-29T10:10:10")
        #expect(reading.warnings.map(\.description) == ["GPSLatitudeRef is missing", "GPSLongitude is missing"])
    }
}
