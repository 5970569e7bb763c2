import PhotoTagSupport

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
    /// exif_data_load_data_entry), so every entry left out of the block saves that work.
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

/// Appends IFDs (entries, next-IFD offset 0, then their out-of-line values) to a TIFF block.
///
/// The block is written in place, byte by byte, into memory sized for the most it can hold:
/// compacting the EXIF of every photo of a scan allocates nothing here.
private struct IFDWriter {
    /// The byte order of the TIFF the entries came from, which the block keeps.
    let order: ByteOrder
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
        order = ByteOrder(bigEndian: bigEndian)
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
        order.store(value, UnsafeMutableRawPointer(memory.baseAddress!), at: count)
        count += 2
    }

    @inline(__always)
    private mutating func append32(_ value: UInt32) {
        order.store(value, UnsafeMutableRawPointer(memory.baseAddress!), at: count)
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
        let count = Int(order.read(UInt16.self, memory, at: start))
        for index in 0..<count {
            let at = start + 2 + 12 * index
            guard order.read(UInt16.self, memory, at: at) == tag else { continue }
            order.store(value, UnsafeMutableRawPointer(memory.baseAddress!), at: at + 8)
        }
    }
}
