import Testing

@testable import PhotoGPS

/// PNG and WebP chunk walks (Chunks.swift) on small byte arrays.
@Suite struct ChunksTests {
    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func png(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var bytes = PNGChunks.signature
        for (type, data) in chunks {
            bytes += bigEndian32(data.count)
            bytes += Array(type.utf8)
            bytes += data
            bytes += bigEndian32(Int(CRC32.png(Array(type.utf8) + data)))
        }
        return bytes
    }

    static func webp(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for (type, data) in chunks {
            body += Array(type.utf8)
            body += bigEndian32(data.count).reversed()
            body += data
            if data.count % 2 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + bigEndian32(4 + body.count).reversed() + Array("WEBP".utf8) + body
    }

    static func iTXt(_ text: String, keyword: String = "XML:com.adobe.xmp", compressed: UInt8 = 0) -> [UInt8] {
        Array(keyword.utf8) + [0, compressed, 0] + Array("en".utf8) + [0] + [0] + Array(text.utf8)
    }

    static let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0]

    @Test func pngFindsEXIFAfterTheImageDataWithoutReadingIt() throws {
        let bytes = Self.png([
            ("IHDR", [UInt8](repeating: 0, count: 13)), ("IDAT", [UInt8](repeating: 0xEE, count: 5000)),
            ("eXIf", Self.tiff), ("IEND", []),
        ])
        let source = RecordingSource(bytes)
        let found = try PNGChunks.read(source, wantXMP: false)
        #expect(found.exif == Self.tiff)
        #expect(found.xmp == nil)
        let idat = (8 + 25 + 8)..<(8 + 25 + 8 + 5000)
        #expect(!source.touched(idat))
    }

    @Test func pngReadsXMPOnlyWhenAskedAndOnlyUncompressed() throws {
        let bytes = Self.png([
            ("iTXt", Self.iTXt("<x:xmpmeta/>", keyword: "Comment")), ("iTXt", Self.iTXt("<x:xmpmeta/>")),
            ("IEND", []),
        ])
        #expect(try PNGChunks.read(MemorySource(storage: bytes), wantXMP: false).xmp == nil)
        #expect(try PNGChunks.read(MemorySource(storage: bytes), wantXMP: true).xmp == Array("<x:xmpmeta/>".utf8))
        #expect(PNGChunks.xmpText(inITXt: Self.iTXt("<x/>", compressed: 1)) == nil)
        #expect(PNGChunks.xmpText(inITXt: Array("XML:com.adobe.xmp".utf8) + [0, 0]) == nil)
    }

    @Test func pngStopsAtIENDAndKeepsTheFirstEXIF() throws {
        let bytes = Self.png([("eXIf", Self.tiff), ("eXIf", [1, 2]), ("IEND", []), ("iTXt", Self.iTXt("late"))])
        let found = try PNGChunks.read(MemorySource(storage: bytes), wantXMP: true)
        #expect(found.exif == Self.tiff)
        #expect(found.xmp == nil)
    }

    @Test func aPNGCutShortInsideIDATKeepsWhatCameBeforeButNotInsideEXIF() throws {
        let good = Self.png([("eXIf", Self.tiff), ("IDAT", [UInt8](repeating: 0, count: 100))])
        let cutInIDAT = Array(good.prefix(good.count - 50))
        #expect(try PNGChunks.read(MemorySource(storage: cutInIDAT), wantXMP: true).exif == Self.tiff)
        let cutInEXIF = Array(Self.png([("eXIf", Self.tiff)]).prefix(8 + 8 + 4))
        #expect(throws: PhotoGPSError.truncated("the file ends inside PNG chunk 'eXIf'")) {
            try PNGChunks.read(MemorySource(storage: cutInEXIF), wantXMP: false)
        }
        var huge = Self.png([("eXIf", [])])
        huge.replaceSubrange(8..<12, with: [0x80, 0, 0, 0])
        #expect(throws: PhotoGPSError.malformedContainer("PNG chunk 'eXIf' claims 2147483648 bytes")) {
            try PNGChunks.read(MemorySource(storage: huge), wantXMP: false)
        }
    }

    @Test func theCRCIsPNGs() {
        // The check value of ISO 3309 / ITU-T V.42, and the CRC every PNG's IEND chunk carries.
        #expect(CRC32.png(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.png(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test func aPNGChunkWhoseCRCDoesNotMatchIsNotUsedWithAWarning() throws {
        let good = Self.png([("eXIf", Self.tiff), ("iTXt", Self.iTXt("<x:xmpmeta/>")), ("IEND", [])])
        // One bit of the eXIf data flipped: no EXIF, a warning, and the walk stops there.
        var damaged = good
        damaged[8 + 8 + 5] ^= 0x01
        let found = try PNGChunks.read(MemorySource(storage: damaged), wantXMP: true)
        #expect(found.exif == nil)
        #expect(found.warnings == [.badChunkCRC(chunk: "eXIf")])
        #expect(
            found.warnings.map(\.description) == [
                "the CRC of PNG chunk 'eXIf' does not match its bytes; the chunk is not used"
            ])
        // The XMP chunk's CRC damaged: no XMP.
        var badXMP = good
        badXMP[8 + 8 + Self.tiff.count + 4 + 8 + 3] ^= 0x40
        let xmp = try PNGChunks.read(MemorySource(storage: badXMP), wantXMP: true)
        #expect(xmp.exif == Self.tiff)
        #expect(xmp.xmp == nil)
        #expect(xmp.warnings == [.badChunkCRC(chunk: "iTXt")])
        #expect(try PNGChunks.read(MemorySource(storage: good), wantXMP: true).warnings == [])
        // With an IHDR first, as every PNG has, the same: its CRC is right.
        let header = ("IHDR", [UInt8](repeating: 1, count: 13))
        var withHeader = Self.png([header, ("eXIf", Self.tiff), ("IEND", [])])
        withHeader[8 + 25 + 8 + 5] ^= 0x01
        #expect(try PNGChunks.read(MemorySource(storage: withHeader), wantXMP: false).exif == nil)
        // A writer that computes no CRC (0 in every chunk, IHDR's included) is read unchecked.
        var unchecked = withHeader
        for at in [8 + 8 + 13, 8 + 25 + 8 + Self.tiff.count] {
            unchecked.replaceSubrange(at..<at + 4, with: [0, 0, 0, 0])
        }
        let read = try PNGChunks.read(MemorySource(storage: unchecked), wantXMP: false)
        #expect(read.exif?.count == Self.tiff.count)
        #expect(read.warnings == [])
    }

    @Test func webpFindsEXIFAndXMPPastOddSizedChunks() throws {
        let bytes = Self.webp([
            ("VP8X", [UInt8](repeating: 0, count: 10)), ("VP8 ", [UInt8](repeating: 0xEE, count: 1001)),
            ("EXIF", Self.tiff), ("XMP ", Array("<x/>".utf8)),
        ])
        let found = try WebPChunks.read(MemorySource(storage: bytes), wantXMP: true)
        #expect(found.exif == Self.tiff)
        #expect(found.xmp == Array("<x/>".utf8))
        #expect(try WebPChunks.read(MemorySource(storage: bytes), wantXMP: false).xmp == nil)
    }

    @Test func aWebPCutShortInsideItsEXIFIsTruncated() throws {
        let bytes = Array(Self.webp([("EXIF", Self.tiff)]).dropLast(3))
        #expect(throws: PhotoGPSError.truncated("the file ends inside WebP chunk 'EXIF'")) {
            try WebPChunks.read(MemorySource(storage: bytes), wantXMP: false)
        }
        let cutImage = Array(Self.webp([("VP8 ", [UInt8](repeating: 0, count: 40))]).dropLast(3))
        #expect(try WebPChunks.read(MemorySource(storage: cutImage), wantXMP: true).exif == nil)
    }
}
