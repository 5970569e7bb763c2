import Testing

@testable import PhotoGPS

/// ISO BMFF boxes, HEIF items and CR3's CMT boxes (Containers/ISOBMFF.swift, HEIF.swift and CR3.swift) on small byte arrays.
@Suite struct ISOBMFFTests {
    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(8 + payload.count) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    static func walk(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) throws(PhotoGPSError) -> [Box] {
        let source = MemorySource(storage: bytes)
        var boxes = Boxes(in: source, from: start, to: end ?? bytes.count)
        var found: [Box] = []
        while let box = try boxes.next() { found.append(box) }
        return found
    }

    // MARK: Boxes

    @Test func boxesAreWalkedByTheirSizes() throws {
        let bytes = Self.box("ftyp", Array("heic".utf8)) + Self.box("free", []) + Self.box("meta", [1, 2, 3])
        let boxes = try Self.walk(bytes)
        #expect(boxes.map(\.type) == ["ftyp", "free", "meta"])
        #expect(boxes.map(\.payload) == [8, 20, 28])
        #expect(boxes.map(\.payloadLength) == [4, 0, 3])
        #expect(boxes.allSatisfy { !$0.isCutShort && !$0.overrunsParent })
        #expect(try Boxes.find("meta", in: MemorySource(storage: bytes), from: 0, to: bytes.count)?.payload == 28)
        #expect(try Boxes.find("moov", in: MemorySource(storage: bytes), from: 0, to: bytes.count) == nil)
    }

    @Test func aLargeSizeAndASizeOfZeroAreUnderstood() throws {
        let large = Self.u32(1) + Array("mdat".utf8) + Self.u32(0) + Self.u32(16 + 2) + [9, 9]
        let toEnd = Self.u32(0) + Array("mdat".utf8) + [1, 2, 3, 4, 5]
        let boxes = try Self.walk(large + toEnd)
        #expect(boxes.map(\.payload) == [16, 18 + 8])
        #expect(boxes.map(\.payloadLength) == [2, 5])
    }

    @Test func aBoxCutShortByTheEndOfTheFileIsUsableUpToIt() throws {
        let bytes = Array(Self.box("moov", [UInt8](repeating: 0, count: 100)).prefix(50))
        let box = try #require(try Self.walk(bytes).first)
        #expect(box.isCutShort && box.overrunsParent)
        #expect(box.end == 50)
        #expect(try Self.walk(bytes).count == 1)
    }

    @Test func aBoxLargerThanItsParentIsMarked() throws {
        let bytes = Self.box("trak", Self.box("tkhd", [0, 0, 0, 0]) + [0, 0])
        // The parent's range ends 2 bytes into its 12-byte child.
        let child = try #require(try Self.walk(bytes, from: 8, to: 18).first)
        #expect(child.overrunsParent && !child.isCutShort)
        #expect(child.end == 18)
    }

    @Test(
        arguments: [
            (u32(4) + Array("free".utf8), PhotoGPSError.malformedContainer("box 'free' at byte 0 has size 4")),
            (u32(1) + Array("mdat".utf8) + u32(0), .truncated("the file ends inside the header of box 'mdat'")),
            (
                u32(1) + Array("mdat".utf8) + u32(0x7FFF_FFFF) + u32(0),
                .malformedContainer("box 'mdat' claims 9223372032559808512 bytes")
            ),
        ] as [([UInt8], PhotoGPSError)])
    func anImpossibleSizeIsAnError(bytes: [UInt8], error: PhotoGPSError) {
        #expect(throws: error) { try Self.walk(bytes) }
    }

    @Test func aTypeOutsidePrintableASCIIIsShownWithQuestionMarks() throws {
        let bytes = Self.u32(8) + [0xA9, 0x78, 0x79, 0x7A]
        let box = try #require(try Self.walk(bytes).first)
        #expect(box.type == "?xyz")
        #expect(box.code == 0xA978_797A)
    }

    // MARK: ByteReader

    @Test func byteReaderReadsSizedFieldsAndStopsAtItsEnd() throws {
        var reader = ByteReader(
            [0, 0, 0, 5] + [0, 0, 0, 0, 0, 0, 0, 7] + Array("mime".utf8) + [0x61, 0, 0x62], 0..<19)
        #expect(try reader.sized(4) == 5)
        #expect(try reader.sized(8) == 7)
        #expect(try reader.sized(0) == 0)
        #expect(try reader.cString() == "mimea")
        #expect(try reader.cString() == "b")  // the rest of the range, without a NUL
        #expect(throws: PhotoGPSError.malformedContainer("a box ends in the middle of its fields")) { try reader.u8() }
        var odd = ByteReader([1, 2], 0..<2)
        #expect(throws: PhotoGPSError.malformedContainer("an 'iloc' field of 2 bytes")) { try odd.sized(2) }
    }

    // MARK: HEIFItems

    /// An `infe` (version 2) for `id` of `type`, with a content type for `mime` items.
    static func infe(_ id: Int, _ type: String, contentType: String? = nil) -> [UInt8] {
        var payload = u16(id) + u16(0) + Array(type.utf8)
        if let contentType { payload += [0] + Array(contentType.utf8) + [0] }
        return fullBox("infe", version: 2, payload)
    }

    /// A HEIF with an `Exif` item and an XMP item: the EXIF bytes in the file (construction 0),
    /// the XMP bytes in `idat` (construction 1).
    static func heif(exif: [UInt8], xmp: [UInt8], exifOffsetShift: Int = 0) -> [UInt8] {
        let iinf = fullBox(
            "iinf", version: 0, u16(2) + infe(1, "Exif") + infe(2, "mime", contentType: "application/rdf+xml"))
        func iloc(exifOffset: Int) -> [UInt8] {
            // version 1: offset size 4, length size 4, base offset size 0, index size 0.
            fullBox(
                "iloc", version: 1,
                [0x44, 0x00] + u16(2)
                    + u16(1) + u16(0) + u16(0) + u16(1) + u32(exifOffset) + u32(exif.count)
                    + u16(2) + u16(1) + u16(0) + u16(1) + u32(0) + u32(xmp.count))
        }
        let idat = box("idat", xmp)
        let ftyp = box("ftyp", Array("heic".utf8) + u32(0))
        // The Exif item is the payload of the mdat box after meta, whose size does not depend on it.
        let metaLength = fullBox("meta", version: 0, iinf + iloc(exifOffset: 0) + idat).count
        let meta = fullBox(
            "meta", version: 0, iinf + iloc(exifOffset: ftyp.count + metaLength + 8 + exifOffsetShift) + idat)
        return ftyp + meta + box("mdat", exif)
    }

    @Test func heifItemsAreFoundInTheFileAndInIdat() throws {
        let exif: [UInt8] = [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + [0x4D, 0x4D, 0, 0x2A]
        let bytes = Self.heif(exif: exif, xmp: Array("<x/>".utf8))
        let items = try #require(try HEIFItems(source: MemorySource(storage: bytes)))
        #expect(try items.exif() == exif)
        #expect(try items.xmp() == Array("<x/>".utf8))
    }

    @Test func anItemOutsideTheFileIsAnError() throws {
        let bytes = Self.heif(exif: [1, 2, 3, 4], xmp: [], exifOffsetShift: 1000)
        let items = try #require(try HEIFItems(source: MemorySource(storage: bytes)))
        #expect(throws: PhotoGPSError.malformedContainer("item 1 lies outside the file")) { try items.exif() }
    }

    @Test func aFileWithoutMetaHasNoItems() throws {
        #expect(try HEIFItems(source: MemorySource(storage: Self.box("ftyp", Array("avif".utf8)))) == nil)
    }

    // MARK: CR3

    @Test func cr3sCMTBoxesBecomeOneCompactBlock() throws {
        let tiff = TIFFBytes(bigEndian: false)
        let cmt1 = tiff.tiff(ifd0: [tiff.entry(ExifTag.make, .ascii, Array("Canon".utf8).map(UInt32.init) + [0])])
        let cmt2 = tiff.tiff(ifd0: [
            tiff.entry(ExifTag.dateTimeOriginal, .ascii, Array("2021:05:06 07:08:09".utf8).map(UInt32.init) + [0])
        ])
        let cmt4 = tiff.tiff(ifd0: [
            tiff.entry(GPSTag.latitudeRef, .ascii, [0x4E, 0]),
            tiff.entry(GPSTag.latitude, .rational, [10, 1, 30, 1, 0, 1]),
            tiff.entry(GPSTag.longitudeRef, .ascii, [0x45, 0]),
            tiff.entry(GPSTag.longitude, .rational, [20, 1, 0, 1, 0, 1]),
        ])
        let uuid = Self.box(
            "uuid", CR3.canonUUID + Self.box("CMT1", cmt1) + Self.box("CMT2", cmt2) + Self.box("CMT4", cmt4))
        let bytes = Self.box("ftyp", Array("crx ".utf8)) + Self.box("moov", uuid)
        let block = try #require(try CR3.exifBlock(in: MemorySource(storage: bytes)))
        let reading = GPSReader().read(bytes: bytes)
        #expect(reading.status == .located)
        #expect(reading.fix?.latitude == 10.5 && reading.fix?.longitude == 20)
        #expect(reading.camera?.make == "Canon")
        #expect(reading.camera?.dateTimeOriginal == "2021-05-06T07:08:09")
        #expect(block.starts(with: GPSReader.exifIdentifier))
        #expect(
            try CR3.exifBlock(
                in: MemorySource(storage: Self.box("moov", Self.box("uuid", [UInt8](repeating: 0, count: 16))))) == nil)
    }
}
