/// The binary place-table format shared by ``PlaceTableBuilder`` (which writes it) and
/// ``PlaceTable`` (which reads it in place, from the binary's own data or a mapped file).
///
/// Everything that does not depend on the query is done when the table is built: rows parsed,
/// names resolved, unit vectors computed and the k-d tree laid out. Opening a table is a header
/// check; a lookup touches a few dozen tree nodes and one row.
///
/// Layout (little-endian, every section starting on a 64-byte boundary, a cache line):
///
/// | bytes | content |
/// |---|---|
/// | 64 | header: magic `PTGPLACE`, version, count, region count, string-pool size, source and date strings, byte-order mark, leaf size, node count |
/// | 24 n | unit vectors (x, y, z as `Double`), in tree order |
/// | 8 n, 8 n | latitude, longitude (`Double`, as in the dump) |
/// | 8 n | population (`UInt64`) |
/// | 4 n | geonameid (`UInt32`) |
/// | 4 n × 5 | string offsets: name, ASCII name, feature code, timezone; region index |
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
    static let version: UInt32 = 1
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerSize = 64
    /// `Float`s per node box: min x, y, z, max x, y, z and two of padding.
    static let boxStride = 8

    let count: Int
    let regionCount: Int
    let stringsSize: Int
    let nodeCount: Int

    let vectors: Int
    let latitudes: Int
    let longitudes: Int
    let populations: Int
    let ids: Int
    let names: Int
    let asciiNames: Int
    let featureCodes: Int
    let timezones: Int
    let regions: Int
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
        latitudes = section(8 * n)
        longitudes = section(8 * n)
        populations = section(8 * n)
        ids = section(4 * n)
        names = section(4 * n)
        asciiNames = section(4 * n)
        featureCodes = section(4 * n)
        timezones = section(4 * n)
        regions = section(4 * n)
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
}
