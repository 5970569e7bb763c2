/// The binary place-table format shared by ``PlaceTableBuilder`` (which writes it) and
/// ``UnsafePlaceTable`` (which reads it in place, from the binary's own data or a mapped file).
///
/// Everything that does not depend on the query is done when the table is built: rows parsed,
/// names resolved, unit vectors computed and the k-d tree laid out. Opening a table is a header
/// check; a lookup touches a few dozen tree nodes and one row.
///
/// The vectors are apart from the rows because the search scans them, eight to a leaf; the rest of
/// a place is one row, read only for the place found, so that rendering it costs one cache miss
/// rather than one per field (version 1 stored each field as its own column, and a million random
/// lookups spent more time waiting for those misses than searching).
///
/// Layout (little-endian, every section starting on a 64-byte boundary, a cache line):
///
/// | bytes | content |
/// |---|---|
/// | 64 | header: magic `PTGPLACE`, version, count, region count, string-pool size, source and date strings, byte-order mark, leaf size, node count; in its last 8 bytes the checksum of the whole table (see ``TableChecksum``) |
/// | 24 n | unit vectors (x, y, z as `Double`), in tree order: all the search reads of a place |
/// | 64 n | rows, one cache line each, in the same order: latitude, longitude (`Double`, as in the dump), population (`UInt64`), geonameid, then string offsets of the name, ASCII name, feature code and timezone, the region index, string offsets of the admin-3 and admin-4 codes, and the slot of the place's municipality main place (``PlaceTableBuilder/municipalMains(_:order:)``; `0xFFFF_FFFF` for none) (`UInt32`s); 4 bytes of padding |
/// | 32 m | bounding box of each tree node (min x, y, z, max x, y, z as `Float`, rounded outwards; 8 bytes of padding) |
/// | 24 r | regions: string offsets of country code, country, admin1 code, admin1, admin2 code, admin2 |
/// | s | string pool: each string is a `UInt16` byte count and UTF-8 bytes; offset 0 is the empty string, read as "none" |
///
/// The tree is implicit: node 1 (the root) covers every row; node `k` covering rows `lo..<hi` is
/// a leaf when it has at most `leafSize` rows (scanned in full), and otherwise has children
/// `2k` covering `lo..<mid` and `2k + 1` covering `mid..<hi`, `mid = lo + (hi - lo) / 2`. Places
/// live only in leaves, and a node's two children's boxes share one cache line. Rows are sorted
/// so that each node splits along the axis where its places spread most, but the search needs
/// only the boxes: the tight box around every node's places prunes far better than splitting
/// planes for points that all lie on a sphere.
struct PlaceTableLayout: Equatable {
    static let magic: [UInt8] = Array("PTGPLACE".utf8)
    /// 3: the header ends with the table's checksum. 4: the admin-3 and admin-4 codes. 5: each
    /// place's municipality main place.
    static let version: UInt32 = 5
    /// ``Row/municipalMain`` of a place without one.
    static let noMain = UInt32.max
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerSize = 64
    /// `Float`s per node box: min x, y, z, max x, y, z and two of padding.
    static let boxStride = 8

    let count: Int
    let regionCount: Int
    let stringsSize: Int
    let nodeCount: Int

    /// Bytes per row, and each field's offset in a row.
    static let rowStride = 64
    enum Row {
        static let latitude = 0
        static let longitude = 8
        static let population = 16
        static let geonameId = 24
        static let name = 28
        static let asciiName = 32
        static let featureCode = 36
        static let timezone = 40
        static let region = 44
        static let admin3Code = 48
        static let admin4Code = 52
        static let municipalMain = 56
    }

    let vectors: Int
    let rows: Int
    let boxes: Int
    let regionTable: Int
    let strings: Int
    let totalSize: Int

    init(count n: Int, regionCount r: Int, stringsSize s: Int, nodeCount m: Int) {
        count = n
        regionCount = r
        stringsSize = s
        nodeCount = m
        var offset = Self.headerSize
        func section(_ size: Int) -> Int {
            defer { offset = (offset + size + 63) & ~63 }
            return offset
        }
        vectors = section(24 * n)
        rows = section(Self.rowStride * n)
        boxes = section(32 * m)
        regionTable = section(24 * r)
        strings = section(s)
        totalSize = offset
    }
}

/// The header fields after the magic, in file order (byte offsets from the start of the file).
enum PlaceTableHeader {
    static let version = 8
    static let count = 12
    static let regionCount = 16
    static let stringsSize = 20
    static let source = 24
    static let date = 28
    static let byteOrderMark = 32
    static let leafSize = 36
    static let nodeCount = 40
    /// The table's checksum (`UInt64`; see ``TableChecksum``), the header's last 8 bytes.
    static let checksum = 56
}
