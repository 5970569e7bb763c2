/// One box of an ISO base media file (HEIF, AVIF, CR3, MP4): its type and where its payload is.
struct Box: Hashable, Sendable {
    /// The four-character type, e.g. `meta`.
    var type: String
    /// Where the payload (after the size, type and any 64-bit size) starts in the source.
    var payload: Int
    /// Where the box ends in the source.
    var end: Int
    /// The type as a number: the 1-based key index of a QuickTime `ilst` item, or `©xyz`.
    var code: UInt32 = 0
    /// Whether the file ends before the size the box declares (`end` is then the end of the file).
    var isCutShort = false
    /// Whether the box declares more bytes than the range it was found in (its parent) holds.
    var overrunsParent = false
    var payloadLength: Int { end - payload }
}

/// Walks the boxes inside a byte range, reading 8 or 16 header bytes per box and no payload.
struct Boxes<Source: ByteSource> {
    let source: Source
    private var offset: Int
    private let end: Int

    init(in source: Source, from start: Int, to end: Int) {
        self.source = source
        offset = start
        self.end = min(end, source.count)
    }

    /// The next box, `nil` at the end of the range.
    ///
    /// - Throws: ``PhotoGPSError/malformedContainer(_:)`` for a box whose size is impossible.
    mutating func next() throws(PhotoGPSError) -> Box? {
        guard offset + 8 <= end else { return nil }
        let header = try source.bytes(at: offset, length: 16)
        guard header.count >= 8 else { return nil }
        var size = Int(bigEndian32(header, 0))
        let type = fourCC(header, 4)
        var headerSize = 8
        if size == 1 {
            guard header.count == 16 else { throw .truncated("the file ends inside the header of box '\(type)'") }
            let large = UInt64(bigEndian32(header, 8)) << 32 | UInt64(bigEndian32(header, 12))
            guard large <= UInt64(Int.max / 2) else { throw .malformedContainer("box '\(type)' claims \(large) bytes") }
            size = Int(large)
            headerSize = 16
        } else if size == 0 {
            size = end - offset  // the box runs to the end of its container
        }
        guard size >= headerSize else { throw .malformedContainer("box '\(type)' at byte \(offset) has size \(size)") }
        let box = Box(
            type: type, payload: offset + headerSize, end: min(offset + size, end), code: bigEndian32(header, 4),
            isCutShort: offset + size > source.count, overrunsParent: offset + size > end)
        if offset + size > end, offset + size > source.count {
            // A box cut short by the end of the file: still usable up to where the file ends.
            offset = end
        } else {
            offset += size
        }
        return box
    }

    /// The first box of `type` in the range.
    static func find(_ type: String, in source: Source, from start: Int, to end: Int) throws(PhotoGPSError) -> Box? {
        var boxes = Boxes(in: source, from: start, to: end)
        while let box = try boxes.next() {
            if box.type == type { return box }
        }
        return nil
    }
}

func bigEndian16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }

func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
        | UInt32(bytes[offset + 3])
}

/// Four bytes as text, bytes outside printable ASCII shown as `?`.
func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
    String(
        decoding: bytes[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
}

/// The largest metadata box or item phototag reads into memory.
let metadataLimit = 16 << 20

/// Finds the EXIF and XMP items of a HEIF or AVIF file (ISO/IEC 23008-12): `meta` → `iinf` for
/// the item types, `iloc` for where their bytes are (every version, field size, extent count, and
/// `idat` construction), reading the `meta` box and the items' extents only.
struct HEIFItems<Source: ByteSource> {
    let source: Source
    /// The `meta` box's payload, read into memory.
    private let meta: [UInt8]
    private var exifItem: UInt32?
    private var xmpItem: UInt32?
    private var locations: [UInt32: Location] = [:]
    /// The `idat` box's payload (items stored inside `meta`).
    private var idat: Range<Int>?

    private struct Location {
        var construction: Int
        var baseOffset: Int
        var extents: [(offset: Int, length: Int)]
    }

    /// Reads the top-level `meta` box; `nil` when the file has none.
    init?(source: Source) throws(PhotoGPSError) {
        self.source = source
        guard let metaBox = try Boxes.find("meta", in: source, from: 0, to: source.count) else { return nil }
        guard metaBox.payloadLength <= metadataLimit else {
            throw .malformedContainer("the 'meta' box is \(metaBox.payloadLength) bytes")
        }
        meta = try source.bytes(at: metaBox.payload, length: metaBox.payloadLength)
        let memory = MemorySource(storage: meta)
        // meta is a FullBox: 4 bytes of version and flags, then child boxes.
        var children = Boxes(in: memory, from: 4, to: meta.count)
        while let box = try children.next() {
            switch box.type {
            case "iinf": try readItemInfo(box)
            case "iloc": try readLocations(box)
            case "idat": idat = box.payload..<box.end
            default: break
            }
        }
    }

    /// The EXIF item's bytes, if the file has one.
    func exif() throws(PhotoGPSError) -> [UInt8]? { try exifItem.map(data(of:)) ?? nil }

    /// The XMP item's bytes (a `mime` item of type `application/rdf+xml`), if any.
    func xmp() throws(PhotoGPSError) -> [UInt8]? { try xmpItem.map(data(of:)) ?? nil }

    private mutating func readItemInfo(_ box: Box) throws(PhotoGPSError) {
        var reader = ByteReader(meta, box.payload..<box.end)
        let version = try reader.u8()
        try reader.skip(3)
        _ = version == 0 ? Int(try reader.u16()) : Int(try reader.u32())
        var entries = Boxes(in: MemorySource(storage: meta), from: reader.position, to: box.end)
        while let entry = try entries.next() {
            guard entry.type == "infe" else { continue }
            var fields = ByteReader(meta, entry.payload..<entry.end)
            let entryVersion = try fields.u8()
            try fields.skip(3)
            guard entryVersion >= 2 else { continue }  // versions 0 and 1 name no item type
            let id = entryVersion == 2 ? UInt32(try fields.u16()) : try fields.u32()
            try fields.skip(2)  // item_protection_index
            let type = try fields.fourCC()
            if type == "Exif", exifItem == nil { exifItem = id }
            if type == "mime" {
                _ = try fields.cString()  // item_name
                if try fields.cString() == "application/rdf+xml", xmpItem == nil { xmpItem = id }
            }
        }
    }

    private mutating func readLocations(_ box: Box) throws(PhotoGPSError) {
        var reader = ByteReader(meta, box.payload..<box.end)
        let version = try reader.u8()
        try reader.skip(3)
        guard version <= 2 else { throw .malformedContainer("'iloc' version \(version)") }
        let sizes = try reader.u8()
        let more = try reader.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F), baseOffsetSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 0x0F) : 0
        let itemCount = version < 2 ? Int(try reader.u16()) : Int(try reader.u32())
        // Zero-sized fields read no bytes, so a box's size does not bound its extents: cap them.
        var extentsRead = 0
        for _ in 0..<itemCount {
            let id = version < 2 ? UInt32(try reader.u16()) : try reader.u32()
            var construction = 0
            if version >= 1 { construction = Int(try reader.u16() & 0x0F) }
            try reader.skip(2)  // data_reference_index
            let baseOffset = try reader.sized(baseOffsetSize)
            let extentCount = Int(try reader.u16())
            var extents: [(Int, Int)] = []
            extentsRead += extentCount
            guard extentsRead <= 65_536 else { throw .malformedContainer("'iloc' lists more than 65,536 extents") }
            for _ in 0..<extentCount {
                if indexSize > 0 { _ = try reader.sized(indexSize) }
                extents.append((try reader.sized(offsetSize), try reader.sized(lengthSize)))
            }
            if id == exifItem || id == xmpItem || locations[id] == nil {
                locations[id] = Location(construction: construction, baseOffset: baseOffset, extents: extents)
            }
        }
    }

    /// An item's bytes: its extents joined, from the file (construction 0) or `idat` (1).
    private func data(of item: UInt32) throws(PhotoGPSError) -> [UInt8]? {
        guard let location = locations[item] else {
            throw .malformedContainer("item \(item) has no location in 'iloc'")
        }
        var bytes: [UInt8] = []
        for extent in location.extents {
            let start = location.baseOffset &+ extent.offset
            switch location.construction {
            case 0:
                // Offsets come from the file: compare by subtraction, so no sum can overflow.
                guard start >= 0, start <= source.count else {
                    throw .malformedContainer("item \(item) lies outside the file")
                }
                let length = extent.length == 0 ? source.count - start : extent.length
                guard length >= 0, length <= metadataLimit - bytes.count else {
                    throw .malformedContainer("item \(item) is larger than \(metadataLimit) bytes")
                }
                let read = try source.bytes(at: start, length: length)
                guard read.count == length else { throw .truncated("the file ends inside item \(item)") }
                bytes += read
            case 1:
                guard let idat else { throw .malformedContainer("item \(item) is in an 'idat' box that is missing") }
                guard start >= 0, start <= idat.count else {
                    throw .malformedContainer("item \(item) lies outside the 'idat' box")
                }
                let length = extent.length == 0 ? idat.count - start : extent.length
                guard length >= 0, length <= idat.count - start, length <= metadataLimit - bytes.count else {
                    throw .malformedContainer("item \(item) lies outside the 'idat' box")
                }
                bytes += meta[(idat.lowerBound + start)..<(idat.lowerBound + start + length)]
            default:
                throw .malformedContainer("item \(item) uses construction method \(location.construction)")
            }
        }
        return bytes
    }
}

/// Canon CR3 (ISO BMFF): the TIFF structures in `moov` → `uuid` (85c0b687-820f-11e0-8111-
/// f4ce462b6a48) → `CMT1` (IFD0), `CMT2` (the EXIF IFD), `CMT4` (the GPS IFD itself).
enum CR3 {
    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// The compact `Exif\0\0` block built from the CMT boxes, or `nil` when there are none.
    static func exifBlock(in source: some ByteSource) throws(PhotoGPSError) -> [UInt8]? {
        guard let moov = try Boxes.find("moov", in: source, from: 0, to: source.count) else { return nil }
        var boxes = Boxes(in: source, from: moov.payload, to: moov.end)
        var canon: Box? = nil
        while let box = try boxes.next() {
            if box.type == "uuid", try source.bytes(at: box.payload, length: 16) == canonUUID {
                canon = box
                break
            }
        }
        guard let canon else { return nil }
        var cmt: [String: TIFFReader<MemorySource>] = [:]
        var children = Boxes(in: source, from: canon.payload + 16, to: canon.end)
        while let box = try children.next() {
            guard ["CMT1", "CMT2", "CMT4"].contains(box.type), cmt[box.type] == nil, box.payloadLength <= metadataLimit
            else { continue }
            let bytes = try source.bytes(at: box.payload, length: box.payloadLength)
            cmt[box.type] = try TIFFReader(source: MemorySource(storage: bytes))
        }
        guard let ifd0Reader = cmt["CMT1"] ?? cmt["CMT4"] else { return nil }
        let ifd0 =
            try cmt["CMT1"].flatMap { reader throws(PhotoGPSError) in
                try reader.readIFD(at: reader.firstIFD, keeping: CompactTIFF.ifd0TagsRead)
            } ?? []
        let exif =
            try cmt["CMT2"].flatMap { reader throws(PhotoGPSError) in
                try reader.readIFD(at: reader.firstIFD, keeping: CompactTIFF.exifTagsRead)
            } ?? []
        var gps = CompactTIFF.GPS.absent
        if let reader = cmt["CMT4"] {
            gps =
                try reader.readIFD(at: reader.firstIFD, keeping: CompactTIFF.gpsTagsRead).map(CompactTIFF.GPS.entries)
                ?? .outOfBounds
        }
        // Each CMT box is a TIFF of its own; the GPS values keep the byte order of CMT4.
        let bigEndian = cmt["CMT4"]?.bigEndian ?? ifd0Reader.bigEndian
        return CompactTIFF.build(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: gps)
    }
}

/// Sequential big-endian reads from a byte array, throwing instead of trapping at the end.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = min(range.upperBound, bytes.count)
    }

    private mutating func take(_ count: Int) throws(PhotoGPSError) -> Int {
        guard count >= 0, position + count <= end else {
            throw .malformedContainer("a box ends in the middle of its fields")
        }
        defer { position += count }
        return position
    }

    mutating func skip(_ count: Int) throws(PhotoGPSError) { _ = try take(count) }
    mutating func u8() throws(PhotoGPSError) -> UInt8 { bytes[try take(1)] }
    mutating func u16() throws(PhotoGPSError) -> UInt16 { bigEndian16(bytes, try take(2)) }
    mutating func u32() throws(PhotoGPSError) -> UInt32 { bigEndian32(bytes, try take(4)) }
    mutating func fourCC() throws(PhotoGPSError) -> String { PhotoGPS.fourCC(bytes, try take(4)) }

    /// An unsigned big-endian integer of 0, 4 or 8 bytes (the sizes `iloc` allows).
    mutating func sized(_ size: Int) throws(PhotoGPSError) -> Int {
        switch size {
        case 0: return 0
        case 4: return Int(try u32())
        case 8:
            let value = UInt64(try u32()) << 32 | UInt64(try u32())
            guard value <= UInt64(Int.max / 2) else { throw .malformedContainer("an 'iloc' value of \(value)") }
            return Int(value)
        default: throw .malformedContainer("an 'iloc' field of \(size) bytes")
        }
    }

    /// A NUL-terminated UTF-8 string (the rest of the range when there is no NUL).
    mutating func cString() throws(PhotoGPSError) -> String {
        let start = position
        while position < end, bytes[position] != 0 { position += 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if position < end { position += 1 }
        return text
    }
}
