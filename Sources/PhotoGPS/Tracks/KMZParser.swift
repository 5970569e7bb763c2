import CZlib

/// A streaming reader of KMZ files: a ZIP archive whose first `.kml` entry (`doc.kml` by
/// convention) is read with ``KMLParser``. The archive is read front to back through its local
/// file headers (the central directory at its end is never needed): entries before the KML are
/// skipped, the KML's bytes are inflated as they come and fed to the KML reader, and what follows
/// it is not read. Entries may be stored or deflated; a deflated entry may have its sizes in a
/// data descriptor after its data (flag bit 3), since deflate data knows where it ends; ZIP64
/// sizes are read. Encrypted entries, other compression methods and stored entries of unknown
/// size are refused. The CRC-32 of the KML is checked.
struct KMZParser: TrackParser {
    /// Where the reader is in the archive.
    private enum Stage {
        /// Reading a local file header (its 30 fixed bytes).
        case header
        /// Reading the entry's name and extra field.
        case names
        /// Skipping the data of an entry that is not the KML, of known size.
        case skip
        /// Inflating and dropping a deflated entry of unknown size, to find its end.
        case skipDeflated
        /// Reading the KML entry's data.
        case kml
        /// Reading the data descriptor after an entry (of the KML: to check its CRC).
        case descriptor
        /// The KML is read; the rest of the archive is not.
        case done
    }

    /// The local file header of the entry being read.
    private struct Entry {
        var flags: UInt16 = 0
        var method: UInt16 = 0
        var crc: UInt32 = 0
        var compressedSize: UInt64 = 0
        var uncompressedSize: UInt64 = 0
        var nameLength = 0
        var extraLength = 0
        var zip64 = false
        var name = ""
        var isKML = false

        /// Whether the sizes and CRC are in a data descriptor after the data (flag bit 3).
        var hasDescriptor: Bool { flags & 0x0008 != 0 }
    }

    private var stage = Stage.header
    /// The header, names or descriptor bytes being collected.
    private var buffer: [UInt8] = []
    private var entry = Entry()
    /// The data bytes of the entry still to read (when its size is known).
    private var remaining: UInt64 = 0
    /// The archive's bytes read so far, for messages.
    private var offset: UInt64 = 0
    private var inflater: KMZInflater?
    /// The CRC-32 and size of the KML read so far.
    private var crc: UInt = 0
    private var inflated: UInt64 = 0
    private var kml = KMLParser()
    /// The most bytes the KML may inflate to.
    private let inflatedLimit: UInt64

    /// A reader at the start of a file; the KML may inflate to 4 GB.
    init() { self.init(inflatedLimit: 1 << 32) }

    /// A reader whose KML may inflate to at most `inflatedLimit` bytes.
    init(inflatedLimit: UInt64) { self.inflatedLimit = inflatedLimit }

    /// Whether a file starting with `prefix` is a KMZ: it starts with a ZIP local file header.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    /// Reads the next chunk of the archive: headers, skipped entries, the KML's data.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        var input = chunk
        while !input.isEmpty {
            switch stage {
            case .header:
                guard buffer.count >= 4 || collect(&input, upTo: 4) else { break }
                try checkSignature()
                guard collect(&input, upTo: 30) else { break }
                readHeader()
            case .names:
                guard collect(&input, upTo: 30 + entry.nameLength + entry.extraLength) else { break }
                try readNames(into: &sink)
            case .skip:
                let count = Int(min(remaining, UInt64(input.count)))
                remaining -= UInt64(count)
                advance(&input, by: count)
                if remaining == 0 { stage = .header }
            case .skipDeflated:
                if try inflate(&input, into: &sink) { startDescriptor() }
            case .kml:
                if try readKML(&input, into: &sink) {
                    if entry.hasDescriptor {
                        startDescriptor()
                    } else {
                        try finishKML(crc: entry.crc, into: &sink)
                    }
                }
            case .descriptor:
                try readDescriptor(&input, into: &sink)
            case .done:
                return
            }
        }
    }

    /// The end of the file: throws unless the KML was read to its end.
    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        switch stage {
        case .done:
            return
        case .header where buffer.isEmpty && offset == 0:
            throw TrackReadError("not a KMZ file: the file is empty")
        case .header where buffer.isEmpty:
            throw TrackReadError("the KMZ archive ends before any .kml file: it has none, or is cut short")
        case .kml:
            throw TrackReadError("the KMZ's \(entry.name) is cut short")
        default:
            throw TrackReadError("the KMZ archive is cut short (at byte \(offset))")
        }
    }

    // MARK: - Headers

    /// Moves bytes from `input` to ``buffer`` until it holds `count`; whether it does.
    private mutating func collect(_ input: inout UnsafeRawBufferPointer, upTo count: Int) -> Bool {
        let taken = min(count - buffer.count, input.count)
        buffer.append(contentsOf: input.prefix(taken))
        advance(&input, by: taken)
        return buffer.count == count
    }

    /// Moves `input` on by `count` bytes (read), counting them in ``offset``.
    private mutating func advance(_ input: inout UnsafeRawBufferPointer, by count: Int) {
        input = UnsafeRawBufferPointer(rebasing: input[count...])
        offset += UInt64(count)
    }

    /// A little-endian number of `size` bytes at `index` of ``buffer``.
    private func number(at index: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in (0..<size).reversed() { value = value << 8 | UInt64(buffer[index + k]) }
        return value
    }

    /// The first 4 bytes of a header are read: a local file header goes on, the central
    /// directory (no more entries) or anything else ends the archive.
    private func checkSignature() throws(TrackReadError) {
        switch number(at: 0, size: 4) {
        case 0x0403_4B50:
            return
        case 0x0201_4B50, 0x0605_4B50, 0x0606_4B50:
            throw TrackReadError("the KMZ archive has no .kml file")
        default:
            throw offset == 4
                ? TrackReadError("not a KMZ file: it does not start with a ZIP local file header")
                : TrackReadError("the KMZ archive is corrupt: no ZIP local file header at byte \(offset - 4)")
        }
    }

    /// The 30 bytes of a local file header are read.
    private mutating func readHeader() {
        entry = Entry()
        entry.flags = UInt16(number(at: 6, size: 2))
        entry.method = UInt16(number(at: 8, size: 2))
        entry.crc = UInt32(number(at: 14, size: 4))
        entry.compressedSize = number(at: 18, size: 4)
        entry.uncompressedSize = number(at: 22, size: 4)
        entry.nameLength = Int(number(at: 26, size: 2))
        entry.extraLength = Int(number(at: 28, size: 2))
        stage = .names
    }

    /// The name and extra field of an entry are read: decides whether it is the KML to read or an
    /// entry to skip, and how.
    private mutating func readNames(into sink: inout some TrackSink) throws(TrackReadError) {
        entry.name = String(decoding: buffer[30..<(30 + entry.nameLength)], as: UTF8.self)
        readZip64Sizes()
        buffer.removeAll(keepingCapacity: true)
        let lowercased = entry.name.lowercased()
        entry.isKML = lowercased.hasSuffix(".kml") && !lowercased.hasSuffix("/")
        let name = entry.name
        if entry.isKML {
            guard entry.flags & 0x0041 == 0 else {
                throw TrackReadError("the KMZ's \(name) is encrypted: it cannot be read")
            }
            guard entry.method == 0 || entry.method == 8 else {
                throw TrackReadError(
                    "the KMZ's \(name) is compressed with ZIP method \(entry.method), not stored or deflated: "
                        + "it cannot be read")
            }
        }
        if entry.hasDescriptor {
            guard entry.method == 8 else {
                throw TrackReadError(
                    "the KMZ's \(name) has its size after its data and is not deflated: the archive cannot be "
                        + "read as a stream")
            }
        }
        remaining = entry.compressedSize
        if entry.isKML {
            crc = 0
            inflated = 0
            if entry.method == 8 {
                guard let fresh = KMZInflater() else { throw TrackReadError("zlib could not start inflating") }
                inflater = fresh
            }
            stage = .kml
            if entry.method == 0, remaining == 0 { try finishKML(crc: entry.crc, into: &sink) }
        } else if entry.hasDescriptor {
            guard let fresh = KMZInflater() else { throw TrackReadError("zlib could not start inflating") }
            inflater = fresh
            stage = .skipDeflated
        } else {
            stage = remaining == 0 ? .header : .skip
        }
    }

    /// Takes the sizes from the ZIP64 extra field (ID 1) when the header's are 0xFFFFFFFF.
    private mutating func readZip64Sizes() {
        var index = 30 + entry.nameLength
        let end = index + entry.extraLength
        while index + 4 <= end {
            let id = number(at: index, size: 2), size = Int(number(at: index + 2, size: 2))
            let body = index + 4
            guard body + size <= end else { return }
            if id == 1 {
                entry.zip64 = true
                var field = body
                if entry.uncompressedSize == 0xFFFF_FFFF, field + 8 <= body + size {
                    entry.uncompressedSize = number(at: field, size: 8)
                    field += 8
                }
                if entry.compressedSize == 0xFFFF_FFFF, field + 8 <= body + size {
                    entry.compressedSize = number(at: field, size: 8)
                }
            }
            index = body + size
        }
    }

    /// The data of an entry with a data descriptor has ended: reads the descriptor next.
    private mutating func startDescriptor() {
        buffer.removeAll(keepingCapacity: true)
        stage = .descriptor
    }

    /// Reads the data descriptor (an optional signature, the CRC-32, the compressed and the
    /// uncompressed sizes, of 8 bytes each for ZIP64); after the KML's, checks its CRC.
    private mutating func readDescriptor(
        _ input: inout UnsafeRawBufferPointer, into sink: inout some TrackSink
    ) throws(TrackReadError) {
        guard buffer.count >= 4 || collect(&input, upTo: 4) else { return }
        let signed = number(at: 0, size: 4) == 0x0807_4B50
        let length = (signed ? 8 : 4) + (entry.zip64 ? 16 : 8)
        guard collect(&input, upTo: length) else { return }
        let crc = UInt32(number(at: signed ? 4 : 0, size: 4))
        buffer.removeAll(keepingCapacity: true)
        if entry.isKML {
            try finishKML(crc: crc, into: &sink)
        } else {
            stage = .header
        }
    }

    // MARK: - Data

    /// Reads KML bytes from `input`: stored ones as they are, deflated ones through zlib. Returns
    /// whether the entry's data has ended.
    private mutating func readKML(
        _ input: inout UnsafeRawBufferPointer, into sink: inout some TrackSink
    ) throws(TrackReadError) -> Bool {
        if entry.method == 8 { return try inflate(&input, into: &sink) }
        let count = Int(min(remaining, UInt64(input.count)))
        try feedKML(UnsafeRawBufferPointer(rebasing: input[..<count]), into: &sink)
        remaining -= UInt64(count)
        advance(&input, by: count)
        return remaining == 0
    }

    /// Inflates deflated data from `input` (no further than the entry's compressed size when it
    /// is known), feeding what comes out to the KML reader when the entry is the KML. Returns
    /// whether the deflate stream has ended; `input` is left at the bytes after it.
    private mutating func inflate(
        _ input: inout UnsafeRawBufferPointer, into sink: inout some TrackSink
    ) throws(TrackReadError) -> Bool {
        if inflater != nil, !isKnownUniquelyReferenced(&inflater), let shared = inflater {
            // A copy of this reader shares the stream: take a copy of its state first.
            guard let copy = KMZInflater(copying: shared) else { throw TrackReadError("zlib could not copy its state") }
            inflater = copy
        }
        guard let stream = inflater, let base = input.baseAddress else { return false }
        let known = !entry.hasDescriptor
        var available = min(input.count, 1 << 30)
        if known { available = Int(min(UInt64(available), remaining)) }
        let z = stream.stream
        z.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        z.pointee.avail_in = uInt(available)
        var ended = false
        while true {
            z.pointee.next_out = stream.output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(stream.output.count)
            let status = CZlib.inflate(z, Z_NO_FLUSH)
            let produced = stream.output.count - Int(z.pointee.avail_out)
            if produced > 0, entry.isKML {
                try feedKML(UnsafeRawBufferPointer(rebasing: stream.output[..<produced]), into: &sink)
            }
            if status == Z_STREAM_END {
                ended = true
                break
            }
            if status == Z_BUF_ERROR || (status == Z_OK && z.pointee.avail_in == 0 && z.pointee.avail_out != 0) {
                break  // everything given is consumed: more input is needed
            }
            guard status == Z_OK else {
                let reason = z.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw TrackReadError("the KMZ's \(entry.name) is corrupt: \(reason)")
            }
        }
        let consumed = available - Int(z.pointee.avail_in)
        advance(&input, by: consumed)
        if known {
            remaining -= UInt64(consumed)
            if ended, remaining != 0 {
                throw TrackReadError("the KMZ's \(entry.name) is corrupt: its deflate data ends before its size")
            } else if !ended, remaining == 0 {
                throw TrackReadError("the KMZ's \(entry.name) is corrupt: its deflate data ends early")
            }
        }
        if ended { inflater = nil }
        return ended
    }

    /// Feeds inflated (or stored) KML bytes to the KML reader, with their CRC and size.
    private mutating func feedKML(
        _ bytes: UnsafeRawBufferPointer, into sink: inout some TrackSink
    ) throws(TrackReadError) {
        guard let base = bytes.baseAddress else { return }
        inflated += UInt64(bytes.count)
        guard inflated <= inflatedLimit else {
            throw TrackReadError(
                "the KMZ's \(entry.name) inflates to more than \(inflatedLimit) bytes: too big to be a track")
        }
        crc = crc32_z(crc, base.assumingMemoryBound(to: Bytef.self), bytes.count)
        do {
            try kml.feed(bytes, into: &sink)
        } catch {
            throw TrackReadError("the KMZ's \(entry.name): \(error.message)")
        }
    }

    /// The KML's data has ended: checks its CRC-32 (and size, when the header gives it) and
    /// finishes the KML reader.
    private mutating func finishKML(crc expected: UInt32, into sink: inout some TrackSink) throws(TrackReadError) {
        stage = .done
        guard UInt32(truncatingIfNeeded: crc) == expected else {
            throw TrackReadError("the KMZ's \(entry.name) is corrupt: its CRC-32 does not match")
        }
        if !entry.hasDescriptor, inflated != entry.uncompressedSize {
            throw TrackReadError(
                "the KMZ's \(entry.name) is corrupt: it inflates to \(inflated) bytes, not \(entry.uncompressedSize)")
        }
        do {
            try kml.finish(into: &sink)
        } catch {
            throw TrackReadError("the KMZ's \(entry.name): \(error.message)")
        }
    }
}

/// A zlib raw-inflate stream and its output buffer. zlib's state points back at its `z_stream`,
/// so the stream lives at a fixed address, owned by this object; a copy of a reader that shares
/// one takes its own with ``init(copying:)`` before inflating.
private final class KMZInflater {
    let stream: UnsafeMutablePointer<z_stream>
    let output: UnsafeMutableRawBufferPointer

    /// A fresh stream for raw deflate data (no zlib or gzip wrapper); `nil` when zlib fails.
    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: 1 << 16, alignment: 16)
        guard inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            output.deallocate()
            return nil
        }
    }

    /// A stream in the same state as `other`; `nil` when zlib fails.
    init?(copying other: KMZInflater) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: other.output.count, alignment: 16)
        guard inflateCopy(stream, other.stream) == Z_OK else {
            stream.deallocate()
            output.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }
}
