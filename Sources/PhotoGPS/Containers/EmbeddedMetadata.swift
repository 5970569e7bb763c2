import PhotoTagSupport

/// A window of another source: bytes `start ..< start + count` of `base`, as offsets from 0. A
/// raw file's embedded JPEG preview is read through it as any JPEG is.
struct WindowSource<Base: ByteSource>: ByteSource {
    let base: Base
    let start: Int
    let count: Int

    /// The window `range` of `base`, clamped to the bytes `base` has.
    init(_ base: Base, _ range: Range<Int>) {
        self.base = base
        start = min(max(range.lowerBound, 0), base.count)
        count = max(0, min(range.upperBound, base.count) - start)
    }

    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8] {
        guard offset >= 0, offset < count, length > 0 else { return [] }
        return try base.bytes(at: start + offset, length: min(length, count - offset))
    }

    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        guard offset >= 0, offset < count, length > 0 else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try base.withBytes(at: start + offset, length: min(length, count - offset), body)
    }
}

/// Raw formats whose EXIF is in an embedded JPEG preview: Fujifilm RAF and Sigma X3F.
enum RawPreview {
    /// A RAF file's JPEG: its offset and length are big-endian 32-bit numbers at bytes 84 and 88,
    /// after the 16-byte `FUJIFILMCCD-RAW ` magic, the format version, the camera's id and name.
    static func rafJPEG(in source: some ByteSource) throws(PhotoGPSError) -> Range<Int> {
        let header = try source.bytes(at: 84, length: 8)
        guard header.count == 8 else { throw .truncated("the RAF header ends at byte \(84 + header.count)") }
        let offset = Int(ByteOrder.bigEndian.read(UInt32.self, header, at: 0))
        let length = Int(ByteOrder.bigEndian.read(UInt32.self, header, at: 4))
        guard offset >= 92, length > 0, offset <= source.count else {
            throw .malformedContainer("the RAF JPEG preview at byte \(offset) (\(length) bytes) is not in the file")
        }
        return offset..<min(offset + length, source.count)
    }

    /// An X3F file's JPEG previews, in directory order. The directory's offset is the file's
    /// last 4 bytes (little-endian, as everything in X3F); the directory (`SECd`, version, entry
    /// count) lists sections by offset, length and type, and an image section (`IMAG`, `IMA2`)
    /// starts with `SECi`, its version, type and format (18: JPEG), width, height and row size,
    /// 28 bytes before the image data. Old files (the SD9 and SD10) have none.
    static func x3fJPEGs(in source: some ByteSource) throws(PhotoGPSError) -> [Range<Int>] {
        let little = ByteOrder.littleEndian
        guard source.count >= 44 else { throw .truncated("the X3F file has \(source.count) bytes") }
        let tail = try source.bytes(at: source.count - 4, length: 4)
        let directory = Int(little.read(UInt32.self, tail, at: 0))
        let head = try source.bytes(at: directory, length: 12)
        guard head.count == 12, head.starts(with: Array("SECd".utf8)) else {
            throw .malformedContainer("the X3F directory at byte \(directory) does not start with 'SECd'")
        }
        let entries = Int(little.read(UInt32.self, head, at: 8))
        guard entries <= 1000, directory + 12 + entries * 12 <= source.count else {
            throw .malformedContainer("the X3F directory at byte \(directory) lists \(entries) sections")
        }
        let table = try source.bytes(at: directory + 12, length: entries * 12)
        var previews: [Range<Int>] = []
        for index in 0..<entries {
            let offset = Int(little.read(UInt32.self, table, at: index * 12))
            let length = Int(little.read(UInt32.self, table, at: index * 12 + 4))
            let type = fourCC(table, index * 12 + 8)
            guard type == "IMAG" || type == "IMA2", length > 28, offset + length <= source.count else { continue }
            let section = try source.bytes(at: offset, length: 28)
            guard section.count == 28, section.starts(with: Array("SECi".utf8)),
                little.read(UInt32.self, section, at: 12) == 18
            else { continue }
            previews.append(offset + 28..<offset + length)
        }
        return previews
    }
}

/// JPEG XL: a bare codestream (`FF 0A`), which holds no metadata, or the ISO BMFF-style container
/// (a `JXL ` signature box, `ftyp`, then boxes) with the EXIF in an `Exif` box (a 4-byte offset
/// to the TIFF header, then the data, as in HEIF) and XMP in an `xml ` box. Either may instead be
/// Brotli-compressed in a `brob` box, which phototag cannot decompress: that is a warning.
enum JPEGXL {
    struct Metadata {
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var warnings: [GPSWarning] = []
    }

    static func metadata(in source: some ByteSource) throws(PhotoGPSError) -> Metadata {
        var found = Metadata()
        let head = try source.bytes(at: 0, length: 2)
        if head == [0xFF, 0x0A] { return found }  // a bare codestream
        var boxes = Boxes(in: source, from: 0, to: source.count)
        while let box = try boxes.next() {
            switch box.type {
            case "Exif" where found.exif == nil && box.payloadLength <= metadataLimit:
                found.exif = try source.bytes(at: box.payload, length: box.payloadLength)
            case "xml " where found.xmp == nil && box.payloadLength <= metadataLimit:
                found.xmp = try source.bytes(at: box.payload, length: box.payloadLength)
            case "brob":
                let inner = try source.bytes(at: box.payload, length: 4)
                if inner.count == 4, ["Exif", "xml "].contains(fourCC(inner, 0)) {
                    found.warnings.append(.compressedMetadata(box: fourCC(inner, 0)))
                }
            default: continue
            }
        }
        return found
    }
}
