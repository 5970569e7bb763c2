import PhotoTagSupport

/// One IFD entry with its value bytes, as stored (in the TIFF's byte order).
struct TIFFEntry: Hashable, Sendable {
    /// The tag number (``ExifTag``, ``GPSTag``).
    var tag: UInt16
    /// The field type, as stored (a ``TIFFType`` raw value).
    var type: UInt16
    /// The number of components.
    var count: UInt32
    /// The value's bytes, in the TIFF's byte order (kept inline up to 32 bytes: a coordinate, a
    /// date or a camera's name).
    var value: EntryBytes
}

/// Reads IFDs from a TIFF structure anywhere in a ``ByteSource`` (a whole TIFF file, a box of an
/// ISO BMFF file, a block in memory), touching only the IFDs and values asked for.
struct TIFFReader<Source: ByteSource> {
    let source: Source
    /// Where the TIFF header starts in the source; offsets in the TIFF count from here.
    let base: Int
    /// The end of the TIFF structure in the source (offsets beyond it are out of bounds).
    let end: Int
    let bigEndian: Bool
    /// IFD0's offset.
    let firstIFD: UInt32

    /// Whether the 2-byte magic after the byte-order mark is one a TIFF may have: 42 (TIFF),
    /// 0x4F52/0x5352 (Olympus ORF), 0x55 (Panasonic RW2). A function, not a set: a generic type
    /// has no stored static, and a computed set would be built on every header read.
    static func isMagic(_ magic: UInt16) -> Bool { magic == 42 || magic == 0x4F52 || magic == 0x5352 || magic == 0x55 }

    /// Reads the 8-byte header at `base`.
    ///
    /// - Throws: ``PhotoGPSError`` when the source ends early or the bytes are not a TIFF header.
    init(source: Source, base: Int = 0, end: Int? = nil) throws(PhotoGPSError) {
        self.source = source
        self.base = base
        self.end = min(end ?? source.count, source.count)
        (bigEndian, firstIFD) = try source.withBytes(at: base, length: 8) { (header) throws(PhotoGPSError) in
            guard header.count == 8 else { throw .truncated("the file ends inside the TIFF header") }
            let bigEndian: Bool
            switch (header[0], header[1]) {
            case (0x49, 0x49): bigEndian = false
            case (0x4D, 0x4D): bigEndian = true
            default: throw .malformedEXIF("no TIFF byte-order mark")
            }
            let order = ByteOrder(bigEndian: bigEndian)
            let magic = order.read(UInt16.self, header, at: 2)
            if magic == 43 { throw .unsupportedFormat("BigTIFF") }
            guard Self.isMagic(magic) else { throw .malformedEXIF("TIFF magic number \(magic)") }
            return (bigEndian, order.read(UInt32.self, header, at: 4))
        }
    }

    /// The TIFF's byte order, as the reads take it.
    var byteOrder: ByteOrder { ByteOrder(bigEndian: bigEndian) }

    /// Reads the IFD at `offset` with its entries' values (each value at most `valueLimit`
    /// bytes; larger ones, such as a MakerNote, are left out). `nil` when the IFD lies outside
    /// the TIFF. At most 1,000 entries are read.
    ///
    /// With `tags`, only entries with those tags are kept, and the values of the others are
    /// never read (a MakerNote or a thumbnail costs nothing).
    ///
    /// The entries are appended to `storage` (empty, taken from ``EntryArrays`` to reuse its
    /// room).
    func readIFD(
        at offset: UInt32, keeping tags: TagSet? = nil, valueLimit: Int = 1 << 16,
        into storage: consuming [TIFFEntry] = []
    ) throws(PhotoGPSError) -> [TIFFEntry]? {
        let start = base + Int(offset)
        guard Int(offset) >= 8 || offset == 0, start + 2 <= end, offset != 0 else { return nil }
        let order = byteOrder
        let stored = try source.withBytes(at: start, length: 2) {
            $0.count == 2 ? Int(order.read(UInt16.self, $0, at: 0)) : nil
        }
        guard let stored else { return nil }
        let count = min(stored, 1000, (end - start - 2) / 12)
        // Moved, not copied: a copy would share the storage's buffer, and the first append would
        // then allocate another.
        var entries = consume storage
        try source.withBytes(at: start + 2, length: 12 * count) { (table) throws(PhotoGPSError) in
            entries.reserveCapacity(min(table.count / 12, tags?.count ?? .max))
            // Most entries of an IFD read with `tags` are skipped: the tag is read first, with
            // one unaligned load.
            let raw = UnsafeRawBufferPointer(table)
            for index in 0..<(table.count / 12) {
                let at = 12 * index
                let tag = order.load(UInt16.self, raw, at: at)
                if let tags, !tags.contains(tag) { continue }
                let type = order.load(UInt16.self, raw, at: at + 2)
                let components = order.read(UInt32.self, table, at: at + 4)
                guard let size = TIFFType(rawValue: type)?.size else { continue }
                let length = Int(components) * size
                guard length <= valueLimit else { continue }
                let value: EntryBytes
                if length <= 4 {
                    value = EntryBytes(UnsafeBufferPointer(rebasing: table[(at + 8)..<(at + 8 + length)]))
                } else {
                    let valueOffset = base + Int(order.read(UInt32.self, table, at: at + 8))
                    guard valueOffset + length <= end else { continue }
                    value = try source.withBytes(at: valueOffset, length: length) { EntryBytes($0) }
                    guard value.count == length else { continue }
                }
                entries.append(TIFFEntry(tag: tag, type: type, count: components, value: value))
            }
        }
        return entries
    }

    /// What looking for a tag in an IFD found.
    enum Lookup: Equatable {
        /// The entry's value field read as a LONG (the shape of IFD pointers), with its type and count.
        case found(UInt32, type: UInt16, count: UInt32)
        /// Every entry was read and none has the tag.
        case absent
        /// The IFD runs past the end of the TIFF before the tag was found.
        case cutShort
    }

    /// Looks for the first entry with tag `tag` in the IFD at `offset`, entry by entry, so that an
    /// IFD cut short by the end of the data is told apart from one without the tag.
    func lookup(_ tag: UInt16, inIFDAt offset: UInt32) throws(PhotoGPSError) -> Lookup {
        let start = base + Int(offset)
        guard start + 2 <= end else { return .cutShort }
        let order = byteOrder
        let stored = try source.withBytes(at: start, length: 2) {
            $0.count == 2 ? Int(order.read(UInt16.self, $0, at: 0)) : nil
        }
        // Fewer than 2 bytes only when a file shrank while it was read.
        guard let count = stored else { return .cutShort }
        // The entries that lie inside the TIFF, read 32 at a time (one read, not one per entry).
        let inside = min(count, (end - start - 2) / 12)
        var first = 0
        while first < inside {
            let chunk = min(32, inside - first)
            let found = try source.withBytes(at: start + 2 + 12 * first, length: 12 * chunk) { table -> Lookup? in
                for at in stride(from: 0, to: table.count - 11, by: 12)
                where order.read(UInt16.self, table, at: at) == tag {
                    return .found(
                        order.read(UInt32.self, table, at: at + 8), type: order.read(UInt16.self, table, at: at + 2),
                        count: order.read(UInt32.self, table, at: at + 4))
                }
                return nil
            }
            if let found { return found }
            first += chunk
        }
        return inside < count ? .cutShort : .absent
    }

    /// Whether an IFD could start at `offset` (its entry count lies inside the TIFF).
    func contains(ifdAt offset: UInt32) -> Bool { base + Int(offset) + 2 <= end }

    /// The LONG value of entry `tag` (an IFD pointer), if it is one LONG or IFD.
    func pointer(_ tag: UInt16, in entries: [TIFFEntry]) -> UInt32? {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.count == 1,
            TIFFType(rawValue: entry.type)?.isPointer == true,
            entry.value.count == 4
        else { return nil }
        return byteOrder.read(UInt32.self, entry.value, at: 0)
    }
}
