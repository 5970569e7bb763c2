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
    func readIFD(
        at offset: UInt32, keeping tags: Set<UInt16>? = nil, valueLimit: Int = 1 << 16
    ) throws(PhotoGPSError) -> [TIFFEntry]? {
        let start = base + Int(offset)
        guard Int(offset) >= 8 || offset == 0, start + 2 <= end, offset != 0 else { return nil }
        let stored = try source.withBytes(at: start, length: 2) {
            $0.count == 2 ? Int(Self.u16($0, 0, bigEndian)) : nil
        }
        guard let stored else { return nil }
        let count = min(stored, 1000, (end - start - 2) / 12)
        return try source.withBytes(at: start + 2, length: 12 * count) { (table) throws(PhotoGPSError) in
            var entries: [TIFFEntry] = []
            entries.reserveCapacity(min(table.count / 12, tags?.count ?? .max))
            for index in 0..<(table.count / 12) {
                let at = 12 * index
                let tag = Self.u16(table, at, bigEndian), type = Self.u16(table, at + 2, bigEndian)
                if let tags, !tags.contains(tag) { continue }
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
            return entries
        }
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

    /// Reads a TIFF's IFD0, EXIF IFD and GPS IFD and returns the compact `Exif\0\0` block.
    static func block(from reader: TIFFReader<some ByteSource>) throws(PhotoGPSError) -> [UInt8] {
        guard let ifd0 = try reader.readIFD(at: reader.firstIFD, keeping: ifd0TagsAndPointers) else {
            throw .malformedEXIF("IFD0 offset \(reader.firstIFD) is outside the TIFF")
        }
        var exif: [TIFFEntry] = []
        if let offset = reader.pointer(ExifTag.exifIFDPointer, in: ifd0),
            let entries = try reader.readIFD(at: offset, keeping: exifTagsRead)
        {
            exif = entries
        }
        var gps = GPS.absent
        if let entry = ifd0.first(where: { $0.tag == ExifTag.gpsIFDPointer }) {
            if let offset = reader.pointer(ExifTag.gpsIFDPointer, in: ifd0) {
                gps = try reader.readIFD(at: offset, keeping: gpsTagsRead).map(GPS.entries) ?? .outOfBounds
            } else {
                gps = .badPointer(entry)
            }
        }
        return build(bigEndian: reader.bigEndian, ifd0: ifd0, exif: exif, gps: gps)
    }

    /// The GPS tags phototag reads (``GPSTags``), and GPSVersionID.
    static let gpsTagsRead: Set<UInt16> = [
        GPSTag.versionID, GPSTag.latitudeRef, GPSTag.latitude, GPSTag.longitudeRef, GPSTag.longitude,
        GPSTag.altitudeRef, GPSTag.altitude, GPSTag.timeStamp, GPSTag.speedRef, GPSTag.speed,
        GPSTag.imgDirectionRef, GPSTag.imgDirection, GPSTag.mapDatum, GPSTag.dateStamp, GPSTag.horizontalError,
    ]

    /// The IFD0 tags kept besides the IFD pointers.
    static let ifd0TagsRead: Set<UInt16> = [ExifTag.make, ExifTag.model]

    /// The IFD0 entries read: those tags and the IFD pointers.
    static let ifd0TagsAndPointers = ifd0TagsRead.union([ExifTag.exifIFDPointer, ExifTag.gpsIFDPointer])

    /// The EXIF IFD tags kept.
    static let exifTagsRead: Set<UInt16> = [
        ExifTag.dateTimeOriginal, ExifTag.offsetTimeOriginal, ExifTag.subSecTimeOriginal,
    ]

    /// The largest value kept for any entry: every tag phototag reads is far smaller, and capping
    /// them keeps the whole block inside libexif's 64 KiB window whatever the original holds.
    static let valueLimit = 1024

    /// Writes the compact block from entries already read: IFD0, then the GPS IFD, then the EXIF
    /// IFD, each with only the tags phototag reads and no value over ``valueLimit`` bytes.
    static func build(bigEndian: Bool, ifd0: [TIFFEntry], exif: [TIFFEntry], gps: GPS) -> [UInt8] {
        // Room for what it can hold at most: the 8-byte header; per IFD its count, next offset
        // and padding; every entry read and the two pointers; every value that does not fit in
        // its entry, padded to even.
        var entries = 2
        var values = 0
        func count(_ list: [TIFFEntry]) {
            entries += list.count
            for entry in list where entry.value.count > 4 { values += entry.value.count + 1 }
        }
        count(ifd0)
        count(exif)
        if case .entries(let list) = gps { count(list) }
        var writer = IFDWriter(bigEndian: bigEndian, capacity: 8 + 3 * 8 + 12 * entries + values)
        let small = { (entry: TIFFEntry) in entry.value.count <= valueLimit }
        // Each IFD's entries in one array, filtered and then sorted in place.
        var keptExif = exif.filter { exifTagsRead.contains($0.tag) && small($0) }
        // IFD0 goes first at offset 8; the pointers in it are patched once the others are written.
        var first: [TIFFEntry] = []
        first.reserveCapacity(ifd0.count + 2)
        for entry in ifd0 where ifd0TagsRead.contains(entry.tag) && small(entry) { first.append(entry) }
        let placeholder = { (tag: UInt16) in
            TIFFEntry(tag: tag, type: TIFFType.long.rawValue, count: 1, value: [0, 0, 0, 0])
        }
        if !keptExif.isEmpty { first.append(placeholder(ExifTag.exifIFDPointer)) }
        switch gps {
        case .absent: break
        case .entries, .outOfBounds:
            first.append(placeholder(ExifTag.gpsIFDPointer))
        case .badPointer(let entry):
            first.append(entry)
        }
        first.sort { $0.tag < $1.tag }
        let ifd0Offset = writer.append(first)
        switch gps {
        case .entries(let entries):
            var kept = entries.filter { gpsTagsRead.contains($0.tag) && small($0) }
            kept.sort { $0.tag < $1.tag }
            writer.patchPointer(ExifTag.gpsIFDPointer, inIFDAt: ifd0Offset, to: writer.append(kept))
        case .outOfBounds:
            // Still outside the block, as it was outside the file: the reader reports it.
            writer.patchPointer(ExifTag.gpsIFDPointer, inIFDAt: ifd0Offset, to: 0xFFFF_FFF0)
        case .absent, .badPointer:
            break
        }
        if !keptExif.isEmpty {
            keptExif.sort { $0.tag < $1.tag }
            writer.patchPointer(ExifTag.exifIFDPointer, inIFDAt: ifd0Offset, to: writer.append(keptExif))
        }
        return writer.bytes
    }
}

/// Appends IFDs (entries, next-IFD offset 0, then their out-of-line values) to a TIFF block.
///
/// The block is written in place, byte by byte, into one array sized up front: compacting the
/// EXIF of every photo of a scan allocates that array and nothing else here.
private struct IFDWriter {
    let bigEndian: Bool
    /// `Exif\0\0`, then the TIFF: offsets in the TIFF count from its header, 6 bytes in.
    private(set) var bytes: [UInt8]
    /// Where the TIFF header starts in `bytes`.
    private static let base = 6

    /// A block that will hold about `capacity` bytes of TIFF.
    init(bigEndian: Bool, capacity: Int) {
        self.bigEndian = bigEndian
        bytes = []
        bytes.reserveCapacity(Self.base + capacity)
        bytes.append(contentsOf: GPSReader.exifIdentifier)
        // The header, then IFD0's offset: 8, right after it.
        bytes.append(contentsOf: bigEndian ? TIFFHeader.motorola : TIFFHeader.intel)
        append32(8)
    }

    /// The TIFF's size so far (the offset of what is appended next).
    private var offset: Int { bytes.count - Self.base }

    private mutating func append16(_ value: UInt16) {
        if bigEndian {
            bytes.append(UInt8(value >> 8))
            bytes.append(UInt8(value & 0xFF))
        } else {
            bytes.append(UInt8(value & 0xFF))
            bytes.append(UInt8(value >> 8))
        }
    }

    private mutating func append32(_ value: UInt32) {
        append16(UInt16(bigEndian ? value >> 16 : value & 0xFFFF))
        append16(UInt16(bigEndian ? value & 0xFFFF : value >> 16))
    }

    /// Appends an IFD and returns its offset.
    mutating func append(_ entries: [TIFFEntry]) -> UInt32 {
        if offset % 2 == 1 { bytes.append(0) }
        let start = offset
        var dataOffset = start + 2 + 12 * entries.count + 4
        append16(UInt16(entries.count))
        for entry in entries {
            append16(entry.tag)
            append16(entry.type)
            append32(entry.count)
            if entry.value.count <= 4 {
                entry.value.withBytes { bytes.append(contentsOf: $0) }
                for _ in entry.value.count..<4 { bytes.append(0) }
            } else {
                append32(UInt32(dataOffset))
                dataOffset += entry.value.count + entry.value.count % 2
            }
        }
        append32(0)
        // The out-of-line values, in the order of their entries, each padded to an even length.
        for entry in entries where entry.value.count > 4 {
            entry.value.withBytes { bytes.append(contentsOf: $0) }
            if entry.value.count % 2 == 1 { bytes.append(0) }
        }
        return UInt32(start)
    }

    /// Sets the value of pointer entry `tag` in the IFD at `ifd`.
    mutating func patchPointer(_ tag: UInt16, inIFDAt ifd: UInt32, to value: UInt32) {
        let start = Self.base + Int(ifd)
        let (high, low) = (UInt8(tag >> 8), UInt8(tag & 0xFF))
        let tagBytes = bigEndian ? (high, low) : (low, high)
        let count = Int(
            bigEndian
                ? UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
                : UInt16(bytes[start + 1]) << 8 | UInt16(bytes[start]))
        for index in 0..<count {
            let at = start + 2 + 12 * index
            guard bytes[at] == tagBytes.0, bytes[at + 1] == tagBytes.1 else { continue }
            for byte in 0..<4 {
                let shift = UInt32(bigEndian ? 24 - 8 * byte : 8 * byte)
                bytes[at + 8 + byte] = UInt8(truncatingIfNeeded: value >> shift)
            }
        }
    }
}
