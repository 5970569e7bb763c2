import PhotoTagSupport

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
        var size = Int(ByteOrder.bigEndian.read(UInt32.self, header, at: 0))
        let type = fourCC(header, 4)
        var headerSize = 8
        if size == 1 {
            guard header.count == 16 else { throw .truncated("the file ends inside the header of box '\(type)'") }
            let large = ByteOrder.bigEndian.read(UInt64.self, header, at: 8)
            guard large <= UInt64(Int.max / 2) else { throw .malformedContainer("box '\(type)' claims \(large) bytes") }
            size = Int(large)
            headerSize = 16
        } else if size == 0 {
            size = end - offset  // the box runs to the end of its container
        }
        guard size >= headerSize else { throw .malformedContainer("box '\(type)' at byte \(offset) has size \(size)") }
        let box = Box(
            type: type, payload: offset + headerSize, end: min(offset + size, end),
            code: ByteOrder.bigEndian.read(UInt32.self, header, at: 4),
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

/// Four bytes as text, bytes outside printable ASCII shown as `?`.
func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
    String(
        decoding: bytes[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
}

/// The largest metadata box or item phototag reads into memory.
let metadataLimit = 16 << 20

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
    mutating func u16() throws(PhotoGPSError) -> UInt16 {
        ByteOrder.bigEndian.read(UInt16.self, bytes, at: try take(2))
    }
    mutating func u32() throws(PhotoGPSError) -> UInt32 {
        ByteOrder.bigEndian.read(UInt32.self, bytes, at: try take(4))
    }
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
