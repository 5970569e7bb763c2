/// The binary boundary-table format shared by ``BoundaryTableBuilder`` (which writes it) and
/// ``BoundaryTable`` (which reads it in place, from the binary's own data or a mapped file).
///
/// It holds four layers of polygons (time zones, countries, admin-1 regions, seas; the bundled
/// boundary table has the first three, the bundled sea table only seas) and an index that
/// answers "which features contain this point" exactly, for the stored geometry, with integer
/// arithmetic only. Opening a table is a header check; nothing is parsed or built.
///
/// **Coordinates.** Vertices are stored in units of 1e-5 degree (exact for the 5-decimal data).
/// A query is rounded to the finer *query grid* of 1/64 of that unit (1.5625e-7 degree, about
/// 1.7 cm), so that every predicate is an exact `Int64` computation: query units are
/// `x = 64 × longitude × 1e5` (longitude wrapped to -180 ..< 180) and `y = 64 × latitude × 1e5`
/// (clamped to -90 ... 90, the north pole itself looked up one query unit south of it).
///
/// **Tie rule.** A point is treated as if moved an infinitesimal step east and then an even
/// smaller step north (a symbolic perturbation). So a point on a border belongs to exactly one of
/// the features that share it: the one to its east, or on an east-west border the one to its north;
/// at a vertex, the one that the point just east (then north) of it lies in. This is the half-open
/// crossing rule: an edge counts for the eastward ray from `(qx, qy)` when `(ay <= qy) != (by <= qy)`
/// and it crosses strictly east of `qx`.
///
/// **Edges.** Every edge of every ring is stored once, however many features share it (two
/// neighbours in a layer, and a time-zone border that is also a country border): each edge
/// carries a *toggle set*, the features whose boundary it is. Edges are stored in *arcs*,
/// chains of consecutive ring edges with the same toggle set, as runs of vertices.
///
/// **Index.** A grid of `2^24` query units (about 2.6 degrees) squares over the world, each the
/// root of a quadtree whose leaves hold at most a few dozen edges (cells are split in four until
/// then). Cell boundaries lie at 32 (mod 64) query units, between the vertex grid lines. Each
/// leaf stores the features containing its north-east corner `R = (X1, Y1)` (perturbed as above)
/// and the runs of edges that meet the closed cell. A query point `q` in the leaf is in feature
/// `F` when `F` contains `R` xor the path `q → (X1, qy) → R` crosses `F`'s boundary an odd number
/// of times; only the leaf's edges can cross that path.
///
/// Layout (little-endian, every section starting on a 64-byte boundary):
///
/// | bytes | content |
/// |---|---|
/// | 128 | header: magic `PTGBOUND`, version, byte-order mark, counts (see ``BoundaryTableHeader``), string offsets of the source and the date, offset and length of the time-zone rules; in its last 8 bytes the checksum of the whole table (see ``TableChecksum``) |
/// | 16 f | features, time zones then countries then admin-1 regions then seas: two string offsets (tz: tzid and `zone.tab` country; country: code and name; admin-1: country code and admin-1 code; sea: name and 0) and twice the area in (1e-5 degree)² as `UInt64` |
/// | 4 c r | grid: the root node of each cell, row by row from the south-west |
/// | 4 n | quadtree nodes: `0x8000_0000 | leaf` for a leaf, otherwise the index of the first of four children (south-west, south-east, north-west, north-east) |
/// | 8 l | leaves: first run (`UInt32`), run count (`UInt16`), set of features containing the corner (`UInt16`) |
/// | 8 u | runs: first vertex (`UInt32`), edge count (`UInt16`, the edges join vertex `i` to `i + 1`), toggle set (`UInt16`) |
/// | 4 (s + 1) | sets: start of each set in the set pool, and the end of the last |
/// | 2 p | set pool: global feature numbers (`UInt16`) |
/// | 8 ⌈v / 8⌉ | vertex blocks, one per 8 vertices: the block's key `(x, y)` as `Int32`s, or `x = Int32.min` and `y` the index of the block in the wide blocks |
/// | 4 v | vertices as `Int16` offsets `(dx, dy)` from their block's key (unused for wide blocks) |
/// | 64 w | wide blocks: 8 vertices as absolute `Int32` pairs, for blocks whose spread exceeds `Int16` |
/// | b | string pool: each string is a `UInt16` byte count and UTF-8 bytes; offset 0 is "none" |
/// | t | time-zone rules: an opaque blob (see ``BoundaryTable/timeZoneRules``) |
struct BoundaryTableLayout: Equatable {
    static let magic: [UInt8] = Array("PTGBOUND".utf8)
    /// 2: the header ends with the table's checksum. 3: a fourth layer, seas.
    static let version: UInt32 = 3
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerSize = 128
    /// Query units per stored unit (1e-5 degree).
    static let scale: Int64 = 64
    /// log2 of the size of a grid cell in query units.
    static let cellShift = 24
    /// The grid's origin: just west and south of (-180, -90), off the vertex grid lines.
    static let originX: Int64 = -18_000_000 * scale - 32
    static let originY: Int64 = -9_000_000 * scale - 32
    static let columns = Int((36_000_000 * scale + 32) >> cellShift) + 1
    static let rows = Int((18_000_000 * scale + 32) >> cellShift) + 1
    /// The size of the smallest cell, at ``BoundaryTableBuilder/maxDepth``: a node this small is
    /// always a leaf.
    static let smallestCell: Int64 = 1 << 7
    /// Flag of a quadtree node that is a leaf.
    static let leafFlag: UInt32 = 0x8000_0000
    /// `x` of a vertex block key that points to a wide block.
    static let wideMarker = Int32.min

    let featureCount: Int
    let nodeCount: Int
    let leafCount: Int
    let runCount: Int
    let setCount: Int
    let setPoolCount: Int
    let vertexCount: Int
    let wideBlockCount: Int
    let stringsSize: Int
    let timeZoneRulesSize: Int

    var blockCount: Int { (vertexCount + 7) / 8 }

    let features: Int
    let grid: Int
    let nodes: Int
    let leaves: Int
    let runs: Int
    let sets: Int
    let setPool: Int
    let blocks: Int
    let vertices: Int
    let wideBlocks: Int
    let strings: Int
    let timeZoneRules: Int
    let totalSize: Int

    init(
        featureCount: Int, nodeCount: Int, leafCount: Int, runCount: Int, setCount: Int, setPoolCount: Int,
        vertexCount: Int, wideBlockCount: Int, stringsSize: Int, timeZoneRulesSize: Int
    ) {
        self.featureCount = featureCount
        self.nodeCount = nodeCount
        self.leafCount = leafCount
        self.runCount = runCount
        self.setCount = setCount
        self.setPoolCount = setPoolCount
        self.vertexCount = vertexCount
        self.wideBlockCount = wideBlockCount
        self.stringsSize = stringsSize
        self.timeZoneRulesSize = timeZoneRulesSize
        var offset = Self.headerSize
        func section(_ size: Int) -> Int {
            defer { offset = (offset + size + 63) & ~63 }
            return offset
        }
        features = section(16 * featureCount)
        grid = section(4 * Self.columns * Self.rows)
        nodes = section(4 * nodeCount)
        leaves = section(8 * leafCount)
        runs = section(8 * runCount)
        sets = section(4 * (setCount + 1))
        setPool = section(2 * setPoolCount)
        blocks = section(8 * ((vertexCount + 7) / 8))
        vertices = section(4 * vertexCount)
        wideBlocks = section(64 * wideBlockCount)
        strings = section(stringsSize)
        timeZoneRules = section(timeZoneRulesSize)
        totalSize = offset
    }
}

/// The header fields after the magic (byte offsets from the start of the file), all `UInt32`
/// but the checksum.
enum BoundaryTableHeader {
    static let version = 8
    static let byteOrderMark = 12
    static let timeZoneCount = 16
    static let countryCount = 20
    static let admin1Count = 24
    static let nodeCount = 28
    static let leafCount = 32
    static let runCount = 36
    static let setCount = 40
    static let setPoolCount = 44
    static let vertexCount = 48
    static let wideBlockCount = 52
    static let stringsSize = 56
    static let source = 60
    static let date = 64
    static let timeZoneRulesOffset = 68
    static let timeZoneRulesSize = 72
    static let seaCount = 76
    /// The table's checksum (`UInt64`; see ``TableChecksum``), the header's last 8 bytes.
    static let checksum = 120
}

/// Why a boundary table or its GeoJSON sources could not be read, built or opened.
///
/// Every case prints as one lowercase line without a final period.
public enum BoundaryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)
    /// A GeoJSON file is not what the import expects.
    case badGeoJSON(path: String, line: Int, reason: String)
    /// A feature lacks a property the import needs.
    case missingProperty(path: String, line: Int, name: String)
    /// The file is not a phototag boundary table (wrong magic, version, byte order or size).
    case notABoundaryTable(path: String, reason: String)
    /// The table would exceed the format's limits.
    case tableTooLarge(String)

    /// The error as one line, e.g. `cannot read countries.geojson: no such file or directory`.
    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .badGeoJSON(let path, let line, let reason): "\(path), line \(line): \(reason)"
        case .missingProperty(let path, let line, let name): "\(path), line \(line): no \"\(name)\" property"
        case .notABoundaryTable(let path, let reason): "\(path) is not a phototag boundary table (\(reason))"
        case .tableTooLarge(let what): "the boundary table is too large: \(what)"
        }
    }
}
