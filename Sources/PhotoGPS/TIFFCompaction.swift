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
            let magic = Self.u16(header, 2, bigEndian)
            if magic == 43 { throw .unsupportedFormat("BigTIFF") }
            guard Self.isMagic(magic) else { throw .malformedEXIF("TIFF magic number \(magic)") }
            return (bigEndian, Self.u32(header, 4, bigEndian))
        }
    }

    /// The 16-bit number at `offset` of `bytes` (indexed from 0) in the given byte order.
    static func u16<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int, _ bigEndian: Bool) -> UInt16
    where Bytes.Index == Int {
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    /// The 16-bit number at `offset` of `raw` in the given byte order, in one load.
    @inline(__always)
    static func load16(_ raw: UnsafeRawBufferPointer, _ offset: Int, _ bigEndian: Bool) -> UInt16 {
        let stored = raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: stored) : UInt16(littleEndian: stored)
    }

    /// The 32-bit number at `offset` of `bytes` (indexed from 0) in the given byte order.
    static func u32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int, _ bigEndian: Bool) -> UInt32
    where Bytes.Index == Int {
        let high = UInt32(u16(bytes, bigEndian ? offset : offset + 2, bigEndian))
        let low = UInt32(u16(bytes, bigEndian ? offset + 2 : offset, bigEndian))
        return high << 16 | low
    }

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
        let stored = try source.withBytes(at: start, length: 2) {
            $0.count == 2 ? Int(Self.u16($0, 0, bigEndian)) : nil
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
                let tag = Self.load16(raw, at, bigEndian)
                if let tags, !tags.contains(tag) { continue }
                let type = Self.load16(raw, at + 2, bigEndian)
                let components = Self.u32(table, at + 4, bigEndian)
                guard let size = TIFFType(rawValue: type)?.size else { continue }
                let length = Int(components) * size
                guard length <= valueLimit else { continue }
                let value: EntryBytes
                if length <= 4 {
                    value = EntryBytes(UnsafeBufferPointer(rebasing: table[(at + 8)..<(at + 8 + length)]))
                } else {
                    let valueOffset = base + Int(Self.u32(table, at + 8, bigEndian))
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
        let stored = try source.withBytes(at: start, length: 2) {
            $0.count == 2 ? Int(Self.u16($0, 0, bigEndian)) : nil
        }
        // Fewer than 2 bytes only when a file shrank while it was read.
        guard let count = stored else { return .cutShort }
        // The entries that lie inside the TIFF, read 32 at a time (one read, not one per entry).
        let inside = min(count, (end - start - 2) / 12)
        var first = 0
        while first < inside {
            let chunk = min(32, inside - first)
            let found = try source.withBytes(at: start + 2 + 12 * first, length: 12 * chunk) { table -> Lookup? in
                for at in stride(from: 0, to: table.count - 11, by: 12) where Self.u16(table, at, bigEndian) == tag {
                    return .found(
                        Self.u32(table, at + 8, bigEndian), type: Self.u16(table, at + 2, bigEndian),
                        count: Self.u32(table, at + 4, bigEndian))
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
        return Self.u32(entry.value, 0, bigEndian)
    }
}

/// Builds the small TIFF block handed to libexif for containers whose EXIF is larger than
/// libexif's 64 KiB limit or spread over a file (TIFF, DNG and raw files, CR3).
///
/// The block holds exactly what phototag reads: IFD0's Make and Model, the EXIF IFD's
/// DateTimeOriginal, OffsetTimeOriginal and SubSecTimeOriginal, and the whole GPS IFD, re-based into a few hundred
/// bytes in the original byte order. Values are copied byte for byte, so libexif decodes the same
/// numbers it would have read from the original.
enum CompactTIFF {
    /// What became of the GPS IFD while reading the original.
    enum GPS {
        /// IFD0 has no GPSInfo entry.
        case absent
        /// The GPS IFD's entries.
        case entries([TIFFEntry])
        /// The GPSInfo entry exists but is not one LONG (kept as is, so the reader reports it).
        case badPointer(TIFFEntry)
        /// The GPSInfo pointer leads outside the TIFF.
        case outOfBounds
    }

    /// What the compact block is made of: the entries read from a TIFF's IFD0, EXIF IFD and GPS
    /// IFD, in its byte order.
    struct Parts {
        var bigEndian: Bool
        var ifd0: [TIFFEntry]
        var exif: [TIFFEntry]
        var gps: GPS

        /// Gives the arrays of the entries back to `arrays`, emptied, and leaves these parts empty.
        mutating func recycle(into arrays: EntryArrays) {
            arrays.recycle(&ifd0)
            arrays.recycle(&exif)
            if case .entries(var entries) = gps {
                gps = .absent
                arrays.recycle(&entries)
            }
        }

        /// The compact `Exif\0\0` block (see ``CompactTIFF/build(bigEndian:ifd0:exif:gps:)``).
        var block: [UInt8] { CompactTIFF.build(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: gps) }

        /// Calls `body` with the compact block, written into temporary memory (on the stack when
        /// small, as the block of a camera's photo is) rather than an array.
        func withBlock<Result: ~Copyable, Failure: Error>(
            _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try CompactTIFF.withBlock(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: gps, body)
        }
    }

    /// Reads a TIFF's IFD0, EXIF IFD and GPS IFD and returns the compact `Exif\0\0` block.
    static func block(from reader: TIFFReader<some ByteSource>) throws(PhotoGPSError) -> [UInt8] {
        try parts(from: reader).block
    }

    /// Reads a TIFF's IFD0, EXIF IFD and GPS IFD: the entries the compact block is made of.
    ///
    /// With `arrays`, the entries are read into arrays taken from them (give them back with
    /// ``Parts/recycle(into:)``).
    static func parts(
        from reader: TIFFReader<some ByteSource>, reusing arrays: EntryArrays? = nil
    ) throws(PhotoGPSError) -> Parts {
        guard
            let ifd0 = try reader.readIFD(
                at: reader.firstIFD, keeping: ifd0TagsAndPointers, into: arrays?.take() ?? [])
        else {
            throw .malformedEXIF("IFD0 offset \(reader.firstIFD) is outside the TIFF")
        }
        var exif: [TIFFEntry] = []
        if let offset = reader.pointer(ExifTag.exifIFDPointer, in: ifd0),
            let entries = try reader.readIFD(at: offset, keeping: exifTagsRead, into: arrays?.take() ?? [])
        {
            exif = entries
        }
        var gps = GPS.absent
        if let entry = ifd0.first(where: { $0.tag == ExifTag.gpsIFDPointer }) {
            if let offset = reader.pointer(ExifTag.gpsIFDPointer, in: ifd0) {
                gps =
                    try reader.readIFD(at: offset, keeping: gpsTagsRead, into: arrays?.take() ?? []).map(GPS.entries)
                    ?? .outOfBounds
            } else {
                gps = .badPointer(entry)
            }
        }
        return Parts(bigEndian: reader.bigEndian, ifd0: ifd0, exif: exif, gps: gps)
    }

    /// The GPS tags phototag reads (``GPSTags``). Not GPSVersionID, which nothing reads: libexif
    /// looks up the name of every entry it loads six times over for a GPS tag (in
    /// exif_data_load_data_content and, for a debug message built even when nothing logs, in
    /// exif_data_load_data_entry), so an entry less in the block is ~500 instructions less.
    static let gpsTagsRead: TagSet = [
        GPSTag.latitudeRef, GPSTag.latitude, GPSTag.longitudeRef, GPSTag.longitude,
        GPSTag.altitudeRef, GPSTag.altitude, GPSTag.timeStamp, GPSTag.speedRef, GPSTag.speed,
        GPSTag.imgDirectionRef, GPSTag.imgDirection, GPSTag.mapDatum, GPSTag.dateStamp, GPSTag.horizontalError,
    ]

    /// The IFD0 tags kept besides the IFD pointers.
    static let ifd0TagsRead: TagSet = [ExifTag.make, ExifTag.model]

    /// The IFD0 entries read: those tags and the IFD pointers.
    static let ifd0TagsAndPointers = ifd0TagsRead.union([ExifTag.exifIFDPointer, ExifTag.gpsIFDPointer])

    /// The EXIF IFD tags kept.
    static let exifTagsRead: TagSet = [
        ExifTag.dateTimeOriginal, ExifTag.offsetTimeOriginal, ExifTag.subSecTimeOriginal,
    ]

    /// The largest value kept for any entry: every tag phototag reads is far smaller, and capping
    /// them keeps the whole block inside libexif's 64 KiB window whatever the original holds.
    static let valueLimit = 1024

    /// Writes the compact block from entries already read: IFD0, then the GPS IFD, then the EXIF
    /// IFD, each with only the tags phototag reads and no value over ``valueLimit`` bytes.
    static func build(bigEndian: Bool, ifd0: [TIFFEntry], exif: [TIFFEntry], gps: GPS) -> [UInt8] {
        withBlock(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: gps) { Array($0) }
    }

    /// The room the values of `entries` that go out of line take at most in the block: each one
    /// over 4 bytes and not over ``valueLimit``, plus a byte of padding.
    private static func outOfLineRoom(_ entries: [TIFFEntry]) -> Int {
        var room = 0
        for entry in entries where entry.value.count > 4 && entry.value.count <= valueLimit {
            room += entry.value.count + 1
        }
        return room
    }

    /// ``build(bigEndian:ifd0:exif:gps:)`` into temporary memory, handed to `body`.
    ///
    /// Each IFD's entries are its kept ones in ascending tag order, those of one tag in the order
    /// read (a stable sort by tag); they are written tag by tag straight from the lists read, so
    /// no filtered or sorted copy of a list is made.
    static func withBlock<Result: ~Copyable, Failure: Error>(
        bigEndian: Bool, ifd0: [TIFFEntry], exif: [TIFFEntry], gps: GPS,
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Room for what it can hold at most: `Exif\0\0` and the 8-byte header; per IFD its count,
        // next offset and padding; every entry read and the two pointers; every value that does
        // not fit in its entry and is not over the limit, padded to even.
        var entries = 2 + ifd0.count + exif.count
        var values = outOfLineRoom(ifd0) + outOfLineRoom(exif)
        switch gps {
        case .entries(let list):
            entries += list.count
            values += outOfLineRoom(list)
        case .badPointer(let entry):
            // Kept whatever its size.
            values += entry.value.count + 1
        case .absent, .outOfBounds:
            break
        }
        let capacity = IFDWriter.base + 8 + 3 * 8 + 12 * entries + values
        let outcome = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { memory in
            Swift.Result { () throws(Failure) -> Result in
                var writer = IFDWriter(bigEndian: bigEndian, memory: memory)
                let keptExif = KeptEntries(exif, tags: exifTagsRead)
                // IFD0 goes first at offset 8; the pointers in it are patched once the others are
                // written. Their tags sort after Make and Model, the EXIF pointer's first.
                var pointers = IFDWriter.Pointers()
                if !keptExif.isEmpty { pointers.exif = true }
                switch gps {
                case .absent: break
                case .entries, .outOfBounds: pointers.gps = true
                case .badPointer(let entry): pointers.badGPS = entry
                }
                let ifd0Offset = writer.append(KeptEntries(ifd0, tags: ifd0TagsRead), pointers)
                switch gps {
                case .entries(let entries):
                    let offset = writer.append(KeptEntries(entries, tags: gpsTagsRead))
                    writer.patchPointer(ExifTag.gpsIFDPointer, inIFDAt: ifd0Offset, to: offset)
                case .outOfBounds:
                    // Still outside the block, as it was outside the file: the reader reports it.
                    writer.patchPointer(ExifTag.gpsIFDPointer, inIFDAt: ifd0Offset, to: 0xFFFF_FFF0)
                case .absent, .badPointer:
                    break
                }
                if !keptExif.isEmpty {
                    writer.patchPointer(ExifTag.exifIFDPointer, inIFDAt: ifd0Offset, to: writer.append(keptExif))
                }
                return try body(UnsafeBufferPointer(rebasing: memory[..<writer.count]))
            }
        }
        return try outcome.get()
    }
}

/// The entries of one IFD that go into the compact block: those of `tags` whose value is at most
/// ``CompactTIFF/valueLimit`` bytes, visited in ascending tag order, entries of one tag in the
/// order they were read.
private struct KeptEntries {
    let entries: [TIFFEntry]
    /// The tags present among the kept entries.
    private let present: TagSet
    /// How many entries are kept.
    let count: Int
    /// Whether the kept entries are already in ascending tag order as read (as a TIFF's IFDs
    /// should be): then they are visited in one pass.
    private let ascending: Bool

    init(_ entries: [TIFFEntry], tags: TagSet) {
        self.entries = entries
        var present = TagSet()
        var count = 0
        var ascending = true
        var last: UInt16 = 0
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where Self.keeps(entries[index], tags) {
                let tag = entries[index].tag
                if count > 0, tag < last { ascending = false }
                last = tag
                count += 1
                present.insert(tag)
            }
        }
        self.present = present
        self.count = count
        self.ascending = ascending
    }

    private static func keeps(_ entry: TIFFEntry, _ tags: TagSet) -> Bool {
        tags.contains(entry.tag) && entry.value.count <= CompactTIFF.valueLimit
    }

    var isEmpty: Bool { count == 0 }

    /// Calls `body` with each kept entry, in the order above.
    func forEach(_ body: (TIFFEntry) -> Void) {
        entries.withUnsafeBufferPointer { entries in
            if ascending {
                for index in entries.indices where present.contains(entries[index].tag) {
                    if entries[index].value.count <= CompactTIFF.valueLimit { body(entries[index]) }
                }
                return
            }
            present.forEachAscending { tag in
                for index in entries.indices where entries[index].tag == tag {
                    if entries[index].value.count <= CompactTIFF.valueLimit { body(entries[index]) }
                }
            }
        }
    }
}

/// A few TIFF tag numbers, looked up without hashing: tags below 64 (every GPS tag) as bits, and
/// up to eight others in a list kept inline.
struct TagSet: ExpressibleByArrayLiteral, Equatable, Sendable {
    /// Bit `n` set when tag `n` (below 64) is in the set.
    private var low: UInt64 = 0
    /// The tags of 64 and above, ascending; the first `highCount` are in use.
    private var high: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Bit `n` set when a tag of 64 and above whose low six bits are `n` is in the set: most tags
    /// that are not in it are told so by this bit alone (an EXIF IFD has forty, three are asked
    /// for), without going through `high`.
    private var highBits: UInt64 = 0
    private var highCount = 0
    /// The most tags of 64 and above a set holds.
    static let highCapacity = 8

    /// An empty set.
    init() {}

    /// The tags listed.
    init(arrayLiteral tags: UInt16...) {
        for tag in tags { insert(tag) }
    }

    /// Whether no tag is in the set.
    var isEmpty: Bool { low == 0 && highCount == 0 }

    /// How many tags are in the set.
    var count: Int { low.nonzeroBitCount + highCount }

    /// Whether `tag` is in the set.
    func contains(_ tag: UInt16) -> Bool {
        if tag < 64 { return low & (1 << UInt64(tag)) != 0 }
        guard highBits & (1 << UInt64(tag & 63)) != 0 else { return false }
        return withUnsafeBytes(of: high) { raw in
            // Ascending: the first one not below `tag` decides.
            for index in 0..<highCount {
                let element = raw.load(fromByteOffset: 2 * index, as: UInt16.self)
                if element >= tag { return element == tag }
            }
            return false
        }
    }

    /// Adds `tag`; more than ``highCapacity`` tags of 64 and above is a programming error.
    mutating func insert(_ tag: UInt16) {
        if tag < 64 {
            low |= 1 << UInt64(tag)
            return
        }
        guard !contains(tag) else { return }
        precondition(highCount < Self.highCapacity, "a TagSet holds at most 8 tags of 64 and above")
        withUnsafeMutableBytes(of: &high) { raw in
            // Kept ascending: shift the larger ones up one place.
            var index = highCount
            while index > 0, raw.load(fromByteOffset: 2 * (index - 1), as: UInt16.self) > tag {
                raw.storeBytes(
                    of: raw.load(fromByteOffset: 2 * (index - 1), as: UInt16.self), toByteOffset: 2 * index,
                    as: UInt16.self)
                index -= 1
            }
            raw.storeBytes(of: tag, toByteOffset: 2 * index, as: UInt16.self)
        }
        highCount += 1
        highBits |= 1 << UInt64(tag & 63)
    }

    /// The set with the tags of `other` added.
    func union(_ other: TagSet) -> TagSet {
        var union = self
        union.low |= other.low
        other.forEachAscending { union.insert($0) }
        return union
    }

    /// Calls `body` with every tag, in ascending order.
    func forEachAscending(_ body: (UInt16) -> Void) {
        var bits = low
        while bits != 0 {
            body(UInt16(bits.trailingZeroBitCount))
            bits &= bits - 1
        }
        withUnsafeBytes(of: high) { raw in
            for index in 0..<highCount { body(raw.load(fromByteOffset: 2 * index, as: UInt16.self)) }
        }
    }

    static func == (left: TagSet, right: TagSet) -> Bool {
        guard left.low == right.low, left.highCount == right.highCount else { return false }
        var equal = true
        withUnsafeBytes(of: left.high) { a in
            withUnsafeBytes(of: right.high) { b in
                for index in 0..<left.highCount
                where a.load(fromByteOffset: 2 * index, as: UInt16.self)
                    != b.load(fromByteOffset: 2 * index, as: UInt16.self)
                {
                    equal = false
                }
            }
        }
        return equal
    }
}

/// Appends IFDs (entries, next-IFD offset 0, then their out-of-line values) to a TIFF block.
///
/// The block is written in place, byte by byte, into memory sized for the most it can hold:
/// compacting the EXIF of every photo of a scan allocates nothing here.
private struct IFDWriter {
    let bigEndian: Bool
    /// `Exif\0\0`, then the TIFF: offsets in the TIFF count from its header, 6 bytes in.
    private let memory: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes of `memory` are written.
    private(set) var count = 0
    /// Where the TIFF header starts in the block.
    static let base = 6

    /// The IFD pointers written at the end of IFD0, their values patched later.
    struct Pointers {
        /// An EXIF IFD pointer.
        var exif = false
        /// A GPS IFD pointer.
        var gps = false
        /// The original GPSInfo entry, kept as is because it is not one LONG (instead of `gps`);
        /// its tag is GPSInfo's, so it sorts last, as the pointer would.
        var badGPS: TIFFEntry? = nil
    }

    /// A block in `memory`, which must hold all that is appended.
    init(bigEndian: Bool, memory: UnsafeMutableBufferPointer<UInt8>) {
        self.bigEndian = bigEndian
        self.memory = memory
        for byte in GPSReader.exifIdentifier { append8(byte) }
        // The header, then IFD0's offset: 8, right after it.
        for byte in bigEndian ? TIFFHeader.motorola : TIFFHeader.intel { append8(byte) }
        append32(8)
    }

    /// The TIFF's size so far (the offset of what is appended next).
    private var offset: Int { count - Self.base }

    // The memory is sized for all that is appended (see CompactTIFF.withBlock), so the writes
    // go through the base pointer without a bounds check each.

    @inline(__always)
    private mutating func append8(_ value: UInt8) {
        memory.baseAddress![count] = value
        count += 1
    }

    @inline(__always)
    private mutating func append16(_ value: UInt16) {
        let stored = bigEndian ? value.bigEndian : value.littleEndian
        UnsafeMutableRawPointer(memory.baseAddress! + count).storeBytes(of: stored, as: UInt16.self)
        count += 2
    }

    @inline(__always)
    private mutating func append32(_ value: UInt32) {
        let stored = bigEndian ? value.bigEndian : value.littleEndian
        UnsafeMutableRawPointer(memory.baseAddress! + count).storeBytes(of: stored, as: UInt32.self)
        count += 4
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(memory.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends an IFD of the kept entries, then `pointers`, and returns its offset.
    mutating func append(_ entries: KeptEntries, _ pointers: Pointers = Pointers()) -> UInt32 {
        if offset % 2 == 1 { append8(0) }
        let start = offset
        let total = entries.count + (pointers.exif ? 1 : 0) + (pointers.gps || pointers.badGPS != nil ? 1 : 0)
        var dataOffset = start + 2 + 12 * total + 4
        append16(UInt16(truncatingIfNeeded: total))
        entries.forEach { appendEntry($0, dataOffset: &dataOffset) }
        if pointers.exif { appendPointer(ExifTag.exifIFDPointer) }
        if pointers.gps { appendPointer(ExifTag.gpsIFDPointer) }
        if let bad = pointers.badGPS { appendEntry(bad, dataOffset: &dataOffset) }
        append32(0)
        // The out-of-line values, in the order of their entries, each padded to an even length.
        entries.forEach { appendValue($0) }
        if let bad = pointers.badGPS { appendValue(bad) }
        return UInt32(start)
    }

    /// An entry of the table: its value inline, or where it will be among the IFD's values.
    @inline(__always)
    private mutating func appendEntry(_ entry: TIFFEntry, dataOffset: inout Int) {
        append16(entry.tag)
        append16(entry.type)
        append32(entry.count)
        if entry.value.count <= 4 {
            entry.value.withBytes { append($0) }
            for _ in entry.value.count..<4 { append8(0) }
        } else {
            append32(UInt32(truncatingIfNeeded: dataOffset))
            dataOffset += entry.value.count + entry.value.count % 2
        }
    }

    /// A pointer entry (one LONG) whose value is patched later.
    private mutating func appendPointer(_ tag: UInt16) {
        append16(tag)
        append16(TIFFType.long.rawValue)
        append32(1)
        append32(0)
    }

    /// An entry's value when it is out of line, padded to an even length.
    private mutating func appendValue(_ entry: TIFFEntry) {
        guard entry.value.count > 4 else { return }
        entry.value.withBytes { append($0) }
        if entry.value.count % 2 == 1 { append8(0) }
    }

    /// Sets the value of pointer entry `tag` in the IFD at `ifd`.
    mutating func patchPointer(_ tag: UInt16, inIFDAt ifd: UInt32, to value: UInt32) {
        let start = Self.base + Int(ifd)
        let (high, low) = (UInt8(tag >> 8), UInt8(tag & 0xFF))
        let tagBytes = bigEndian ? (high, low) : (low, high)
        let count = Int(
            bigEndian
                ? UInt16(memory[start]) << 8 | UInt16(memory[start + 1])
                : UInt16(memory[start + 1]) << 8 | UInt16(memory[start]))
        for index in 0..<count {
            let at = start + 2 + 12 * index
            guard memory[at] == tagBytes.0, memory[at + 1] == tagBytes.1 else { continue }
            for byte in 0..<4 {
                let shift = UInt32(bigEndian ? 24 - 8 * byte : 8 * byte)
                memory[at + 8 + byte] = UInt8(truncatingIfNeeded: value >> shift)
            }
        }
    }
}
