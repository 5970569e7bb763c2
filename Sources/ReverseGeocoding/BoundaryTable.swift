import CBoundaryData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The features of each layer that contain a point, as indices into the layers (allocation-free;
/// see ``BoundaryTable/features(_:fallback:)``); `nil` means none.
public struct BoundaryFeatures: Sendable, Equatable {
    /// The time zone, an index into ``BoundaryTable/timeZoneCount``; `nil` when none.
    public var timeZone: Int? { Self.index(timeZoneIndex) }
    /// A second time zone in a kept overlap (see ``BoundaryTable/preferredZone(_:nearestPlaceZone:)``);
    /// `nil` when none.
    public var secondTimeZone: Int? { Self.index(secondTimeZoneIndex) }
    /// The country, an index into ``BoundaryTable/countryCount``; `nil` when none.
    public var country: Int? { Self.index(countryIndex) }
    /// The admin-1 region, an index into ``BoundaryTable/admin1Count``; `nil` when none.
    public var admin1: Int? { Self.index(admin1Index) }
    /// Whether ``country`` is the nearest country rather than one that contains the point.
    public internal(set) var countryFromFallback = false
    /// Whether ``admin1`` is the nearest admin-1 region rather than one that contains the point.
    public internal(set) var admin1FromFallback = false

    /// The indices as the lookup keeps them, compact and allocation-free: `-1` means none.
    package var timeZoneIndex: Int32 = -1
    package var secondTimeZoneIndex: Int32 = -1
    package var countryIndex: Int32 = -1
    package var admin1Index: Int32 = -1

    /// No feature: every index `-1`, no fallback.
    package init() {}

    private static func index(_ stored: Int32) -> Int? { stored < 0 ? nil : Int(stored) }
}

/// What the boundaries say about a point: country, admin-1 region and time zones.
public struct BoundaryHit: Sendable, Equatable {
    /// An admin-1 region: its country and its GeoNames admin-1 code (e.g. `US`, `CA`).
    public struct Admin1: Sendable, Hashable {
        /// The ISO 3166-1 alpha-2 code of the region's country (`FR`).
        public var countryCode: String
        /// The region's admin-1 code within its country, as GeoNames writes it (`11`).
        public var code: String
    }

    /// The country (ISO 3166-1 alpha-2, or `XK`); `nil` at sea.
    public var countryCode: String?
    /// The admin-1 region; `nil` at sea or in a country without admin-1 regions.
    public var admin1: Admin1?
    /// The time zones (tzids): one, or two in a kept overlap (never none for a finite position).
    public var timeZones: [String]
    /// Whether only ocean zones (`Etc/*`) contain the point.
    public var isOcean: Bool
    /// Whether the country came from the nearest-polygon fallback.
    public var countryFromFallback: Bool
    /// Whether the admin-1 region came from the nearest-polygon fallback.
    public var admin1FromFallback: Bool
    /// The same answer as feature indices.
    public var features: BoundaryFeatures
}

/// Time-zone, country and admin-1 boundaries, and the exact point lookup over them.
///
/// The table is either the one compiled into the binary (``bundled``) or a file built by
/// `phototag boundaries import` (``init(contentsOf:)``). Opening it checks the header; nothing is
/// parsed (see `BoundaryTableLayout` (BoundaryTableLayout.swift) for the format, the index and the tie rule for points on
/// a border). A lookup reads one quadtree path and a few dozen edges.
///
/// **Containment** is exact for the stored geometry: a point (rounded to 1.7 cm) is in a
/// feature when it is inside its polygons, and a point on a border shared by two features is in
/// exactly one of them, the one to its east (or, on an east-west border, to its north).
///
/// **Fallback.** The admin-1 layer follows the coastline and has no territorial water. A point
/// in no admin-1 region takes the admin-1 region whose boundary is nearest, within
/// ``fallbackDegrees`` (0.05 degree, about 5.5 km), preferring a region of the point's country
/// (nearest of that country when any is within reach, else the nearest of any country). Likewise
/// a point in a land time zone but in no country takes the nearest country within the same
/// distance (the open ocean, inside only `Etc/*` zones, keeps no country). Distances are in
/// degrees of latitude, with longitude differences scaled by the cosine of the latitude; the
/// fallback does not look across the antimeridian.
///
/// **Kept overlaps.** Some time zones overlap on purpose (Urumqi/Shanghai, Hebron/Jerusalem …):
/// there the lookup returns both, and ``preferredZone(_:nearestPlaceZone:)`` chooses.
///
/// A `BoundaryTable` is immutable; one instance serves any number of threads.
public final class BoundaryTable: Sendable {
    /// How far the nearest-polygon fallback looks, in degrees.
    public static let fallbackDegrees = 0.05

    let view: BoundaryTableView
    /// Keeps the bytes under `view` alive (a mapped file or an array); `nil` for the bundled data.
    private let owner: (any Sendable)?

    /// The table compiled into this binary.
    public static let bundled: BoundaryTable = {
        let bytes = UnsafeRawBufferPointer(start: CBoundaryData_table(), count: CBoundaryData_tableSize())
        do {
            return try BoundaryTable(
                view: try BoundaryTableView(bytes: bytes, name: "the bundled boundary table"), owner: nil)
        } catch {
            // The build embeds a table that the test suite opens and checks.
            preconditionFailure("\(error)")
        }
    }()

    /// The time-zone rules stored with the polygons (`boundaries import --tzdata`); `nil` when the
    /// table has none.
    public let rules: TimeZoneRules?

    private init(view: BoundaryTableView, owner: (any Sendable)?) throws(BoundaryError) {
        self.view = view
        self.owner = owner
        if view.timeZoneRules.isEmpty {
            rules = nil
        } else {
            do {
                rules = try TimeZoneRules(bytes: view.timeZoneRules)
            } catch {
                throw .notABoundaryTable(path: "the boundary table", reason: "its tz rules: \(error)")
            }
        }
    }

    /// Opens a table file written by `phototag boundaries import`, mapping it read-only.
    public convenience init(contentsOf path: String) throws(BoundaryError) {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        try self.init(view: try BoundaryTableView(bytes: file.bytes, name: path, validatingStrings: true), owner: file)
    }

    /// Opens a table held in memory (as written by `phototag boundaries import`), checking it as
    /// ``init(contentsOf:)`` checks a file.
    ///
    /// - Throws: ``BoundaryError/notABoundaryTable(path:reason:)`` when the bytes are not a
    ///   boundary table or its names are not valid UTF-8.
    public convenience init(tableBytes: [UInt8]) throws(BoundaryError) {
        let storage = AlignedTableBytes(tableBytes)
        let view = try BoundaryTableView(bytes: storage.bytes, name: "the boundary table", validatingStrings: true)
        try self.init(view: view, owner: storage)
    }

    /// Where the table's data came from.
    public var source: String { view.string(at: view.sourceOffset) ?? "" }
    /// The date of the table's data (`YYYY-MM-DD`).
    public var date: String { view.string(at: view.dateOffset) ?? "" }
    /// How many time zones the table holds.
    public var timeZoneCount: Int { view.timeZoneCount }
    /// How many countries the table holds.
    public var countryCount: Int { view.countryCount }
    /// How many admin-1 regions the table holds.
    public var admin1Count: Int { view.admin1Count }
    /// The table's size in bytes.
    public var byteCount: Int { view.bytes.count }
    /// How many distinct edges, vertices and quadtree leaves the table holds.
    public var statistics: (vertices: Int, leaves: Int, runs: Int) {
        (view.layout.vertexCount, view.layout.leafCount, view.layout.runCount)
    }

    /// The time-zone rules stored with the boundaries (an opaque blob, possibly empty), borrowed
    /// from the table: valid while the table lives.
    package var timeZoneRules: UnsafeRawBufferPointer { view.timeZoneRules }

    /// The tzid of time zone `index`.
    public func timeZoneName(_ index: Int) -> String { view.string(at: view.featureField(index, 0)) ?? "" }
    /// The `zone.tab` country of time zone `index` (`nil` for the ocean zones).
    public func timeZoneCountry(_ index: Int) -> String? { view.string(at: view.featureField(index, 1)) }
    /// The country and admin-1 code of admin-1 region `index` as UTF-8 borrowed from the table
    /// (empty when missing, as ``admin1(_:)`` gives them): no `String` made.
    package func admin1UTF8(_ index: Int) -> (countryCode: UnsafeRawBufferPointer, code: UnsafeRawBufferPointer) {
        let feature = view.timeZoneCount + view.countryCount + index
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return (
            view.utf8(at: view.featureField(feature, 0)) ?? empty, view.utf8(at: view.featureField(feature, 1)) ?? empty
        )
    }

    /// The code of country `index`.
    public func countryCode(_ index: Int) -> String {
        view.string(at: view.featureField(view.timeZoneCount + index, 0)) ?? ""
    }
    /// The country and admin-1 code of admin-1 region `index`.
    public func admin1(_ index: Int) -> BoundaryHit.Admin1 {
        let feature = view.timeZoneCount + view.countryCount + index
        return BoundaryHit.Admin1(
            countryCode: view.string(at: view.featureField(feature, 0)) ?? "",
            code: view.string(at: view.featureField(feature, 1)) ?? "")
    }

    /// The features containing `coordinate`, as indices (no allocation), with the nearest-polygon
    /// fallback unless `fallback` is `false`.
    public func features(_ coordinate: Coordinate, fallback: Bool = true) -> BoundaryFeatures {
        features(latitude: coordinate.latitude, longitude: coordinate.longitude, fallback: fallback)
    }

    /// ``features(_:fallback:)`` of a point given as two numbers, unchecked (`package`: for the
    /// benchmarks' and the tests' raw values). A non-finite coordinate gives no features.
    package func features(latitude: Double, longitude: Double, fallback: Bool = true) -> BoundaryFeatures {
        guard let (qx, qy) = BoundaryTableView.queryPoint(latitude: latitude, longitude: longitude) else {
            return BoundaryFeatures()
        }
        var found = view.containing(qx, qy)
        guard fallback else { return found }
        if found.countryIndex < 0, found.timeZoneIndex >= 0, !isOcean(found) {
            if let country = view.nearest(layer: 1, qx, qy, sameCountryAs: nil) {
                found.countryIndex = Int32(country)
                found.countryFromFallback = true
            }
        }
        if found.admin1Index < 0, found.countryIndex >= 0 {
            let countryOffset = view.featureField(view.timeZoneCount + Int(found.countryIndex), 0)
            if let region = view.nearest(layer: 2, qx, qy, sameCountryAs: countryOffset) {
                found.admin1Index = Int32(region)
                found.admin1FromFallback = true
            }
        }
        return found
    }

    /// Whether the zones found are all ocean zones (`Etc/*`).
    private func isOcean(_ found: BoundaryFeatures) -> Bool {
        guard found.timeZoneIndex >= 0 else { return false }
        return view.isOceanZone(Int(found.timeZoneIndex))
            && (found.secondTimeZoneIndex < 0 || view.isOceanZone(Int(found.secondTimeZoneIndex)))
    }

    /// What the boundaries say about `coordinate` (see the type's documentation for the rules).
    public func lookup(_ coordinate: Coordinate) -> BoundaryHit {
        lookup(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// ``lookup(_:)`` of a point given as two numbers, unchecked (`package`: for the tests' raw
    /// values, such as a longitude past 180° or a NaN). A non-finite coordinate gives no features.
    package func lookup(latitude: Double, longitude: Double) -> BoundaryHit {
        let found = features(latitude: latitude, longitude: longitude)
        var zones: [String] = []
        if found.timeZoneIndex >= 0 { zones.append(timeZoneName(Int(found.timeZoneIndex))) }
        if found.secondTimeZoneIndex >= 0 { zones.append(timeZoneName(Int(found.secondTimeZoneIndex))) }
        return BoundaryHit(
            countryCode: found.countryIndex >= 0 ? countryCode(Int(found.countryIndex)) : nil,
            admin1: found.admin1Index >= 0 ? admin1(Int(found.admin1Index)) : nil, timeZones: zones,
            isOcean: isOcean(found),
            countryFromFallback: found.countryFromFallback, admin1FromFallback: found.admin1FromFallback,
            features: found)
    }

    /// The one time zone to use for a hit: with two zones (a kept overlap), the zone of the nearest
    /// GeoNames place when it is one of them, otherwise the smaller zone (by area; equal areas by
    /// tzid). With one zone, that zone; with none, `nil`.
    public func preferredZone(_ hit: BoundaryHit, nearestPlaceZone: String?) -> String? {
        let first = hit.features.timeZoneIndex, second = hit.features.secondTimeZoneIndex
        guard first >= 0 else { return nil }
        guard second >= 0 else { return timeZoneName(Int(first)) }
        let names = (timeZoneName(Int(first)), timeZoneName(Int(second)))
        if let nearestPlaceZone, nearestPlaceZone == names.0 || nearestPlaceZone == names.1 { return nearestPlaceZone }
        let areas = (view.area(Int(first)), view.area(Int(second)))
        if areas.0 != areas.1 { return areas.0 < areas.1 ? names.0 : names.1 }
        return min(names.0, names.1)
    }
}

/// The table read in place: typed views into bytes that something else keeps alive.
///
/// Every read that the bytes could get wrong is bounds-checked and the arithmetic wraps, so a
/// damaged table gives odd answers, never a crash.
struct BoundaryTableView: @unchecked Sendable {  // read-only views of immutable memory
    let bytes: UnsafeRawBufferPointer
    let layout: BoundaryTableLayout
    let timeZoneCount: Int
    let countryCount: Int
    let admin1Count: Int
    let sourceOffset: UInt32
    let dateOffset: UInt32
    private let base: UnsafeRawPointer
    private let strings: UnsafeRawBufferPointer

    /// Opens the table in `bytes`, which must stay valid and unchanged while the table is used;
    /// `validatingStrings` also checks that the string pool is well formed and valid UTF-8 (a
    /// table from outside the binary: the bundled one is checked by the tests).
    init(bytes: UnsafeRawBufferPointer, name: String, validatingStrings: Bool = false) throws(BoundaryError) {
        func fail(_ reason: String) -> BoundaryError { .notABoundaryTable(path: name, reason: reason) }
        guard let base = bytes.baseAddress, bytes.count >= BoundaryTableLayout.headerSize else {
            throw fail("\(bytes.count) bytes is too short")
        }
        guard Array(bytes[0..<8]) == BoundaryTableLayout.magic else { throw fail("unknown format") }
        func u32(_ offset: Int) -> Int { Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian) }
        typealias Header = BoundaryTableHeader
        guard u32(Header.byteOrderMark) == BoundaryTableLayout.byteOrderMark else { throw fail("byte order") }
        let version = u32(Header.version)
        guard version == BoundaryTableLayout.version else {
            throw fail("version \(version), expected \(BoundaryTableLayout.version)")
        }
        guard Int(bitPattern: base) % 64 == 0 else { throw fail("misaligned in memory") }
        let counts = (u32(Header.timeZoneCount), u32(Header.countryCount), u32(Header.admin1Count))
        let layout = BoundaryTableLayout(
            featureCount: counts.0 + counts.1 + counts.2, nodeCount: u32(Header.nodeCount),
            leafCount: u32(Header.leafCount), runCount: u32(Header.runCount), setCount: u32(Header.setCount),
            setPoolCount: u32(Header.setPoolCount), vertexCount: u32(Header.vertexCount),
            wideBlockCount: u32(Header.wideBlockCount), stringsSize: u32(Header.stringsSize),
            timeZoneRulesSize: u32(Header.timeZoneRulesSize))
        guard layout.totalSize == bytes.count else {
            throw fail("\(bytes.count) bytes, the header says \(layout.totalSize)")
        }
        guard u32(Header.timeZoneRulesOffset) == layout.timeZoneRules else { throw fail("time-zone rules offset") }
        guard layout.featureCount < Int(UInt16.max) else { throw fail("too many features") }
        self.bytes = bytes
        self.base = base
        self.layout = layout
        (timeZoneCount, countryCount, admin1Count) = counts
        sourceOffset = UInt32(u32(Header.source))
        dateOffset = UInt32(u32(Header.date))
        strings = UnsafeRawBufferPointer(start: base + layout.strings, count: layout.stringsSize)
        guard !validatingStrings || validateStrings() else { throw fail("its names are not valid UTF-8") }
        // The set table must be in order and inside the pool: checked once here, so that a lookup
        // needs no check per set.
        var previous = 0
        for index in 0...layout.setCount {
            let start = u32(layout.sets + 4 * index)
            guard start >= previous, start <= layout.setPoolCount else { throw fail("set table") }
            previous = start
        }
        for index in 0..<layout.setPoolCount {
            guard Int(base.load(fromByteOffset: layout.setPool + 2 * index, as: UInt16.self)) < layout.featureCount
            else { throw fail("set pool") }
        }
    }

    var timeZoneRules: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + layout.timeZoneRules, count: layout.timeZoneRulesSize)
    }

    /// Checks that the string pool is well formed and every string valid UTF-8.
    func validateStrings() -> Bool { isValidStringPool(strings) }

    /// The string at a pool offset; `nil` for offset 0 (none) or an offset outside the pool.
    func string(at offset: UInt32) -> String? {
        utf8(at: offset).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 bytes of the string at a pool offset, borrowed from the table; `nil` for offset
    /// 0 (none) or an offset outside the pool.
    func utf8(at offset: UInt32) -> UnsafeRawBufferPointer? {
        let start = Int(offset)
        guard start != 0, start + 2 <= strings.count else { return nil }
        let length = Int(strings[start]) | Int(strings[start + 1]) << 8
        guard start + 2 + length <= strings.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: strings[start + 2..<start + 2 + length])
    }

    /// String field 0 or 1 of global feature `feature`.
    func featureField(_ feature: Int, _ field: Int) -> UInt32 {
        guard feature >= 0, feature < layout.featureCount else { return 0 }
        return base.load(fromByteOffset: layout.features + 16 * feature + 4 * field, as: UInt32.self).littleEndian
    }

    /// Twice the area of global feature `feature`.
    func area(_ feature: Int) -> UInt64 {
        guard feature >= 0, feature < layout.featureCount else { return 0 }
        return base.load(fromByteOffset: layout.features + 16 * feature + 8, as: UInt64.self).littleEndian
    }

    /// Whether time zone `index` is an ocean zone (its tzid starts with `Etc/`).
    func isOceanZone(_ index: Int) -> Bool {
        let start = Int(featureField(index, 0))
        guard start != 0, start + 6 <= strings.count else { return false }
        return strings[start + 2] == UInt8(ascii: "E") && strings[start + 3] == UInt8(ascii: "t")
            && strings[start + 4] == UInt8(ascii: "c") && strings[start + 5] == UInt8(ascii: "/")
    }

    // MARK: coordinates

    /// A position in query units (see `BoundaryTableLayout` (BoundaryTableLayout.swift)): longitude wrapped to
    /// -180 ..< 180, latitude clamped to -90 ... 90 with the north pole one unit south of it.
    /// `nil` when not finite.
    static func queryPoint(latitude: Double, longitude: Double) -> (x: Int64, y: Int64)? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        let perDegree = Double(BoundaryTableLayout.scale) * 1e5
        let half = 18_000_000 * BoundaryTableLayout.scale
        var lon = longitude
        if lon < -180 || lon >= 180 { lon -= 360 * ((lon + 180) / 360).rounded(.down) }
        var x = nearestInteger(lon * perDegree)
        if x >= half { x -= 2 * half }
        if x < -half { x += 2 * half }
        let quarter = 9_000_000 * BoundaryTableLayout.scale
        let y = nearestInteger(min(max(latitude, -90), 90) * perDegree)
        return (x, min(max(y, -quarter), quarter - 1))
    }

    /// `Int64(value.rounded())` (halves away from zero) for a finite `value` of magnitude below
    /// 2^52, without a call of the C library's `round`: the truncated part is exact there, and so
    /// is what it leaves.
    @inline(__always)
    static func nearestInteger(_ value: Double) -> Int64 {
        let whole = Int64(value)
        let fraction = value - Double(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }

    /// Vertex `index` in query units (the caller checks the index).
    @inline(__always)
    func vertex(_ index: Int) -> (x: Int64, y: Int64) {
        let block = base + layout.blocks + 8 * (index >> 3)
        let keyX = block.load(as: Int32.self), keyY = block.load(fromByteOffset: 4, as: Int32.self)
        let scale = BoundaryTableLayout.scale
        if keyX != BoundaryTableLayout.wideMarker {
            let offsets = base + layout.vertices + 4 * index
            let dx = offsets.load(as: Int16.self), dy = offsets.load(fromByteOffset: 2, as: Int16.self)
            return ((Int64(keyX) &+ Int64(dx)) &* scale, (Int64(keyY) &+ Int64(dy)) &* scale)
        }
        let wide = Int(UInt32(bitPattern: keyY))
        guard wide < layout.wideBlockCount else { return (0, 0) }
        let entry = base + layout.wideBlocks + 64 * wide + 8 * (index & 7)
        return (
            Int64(entry.load(as: Int32.self)) &* scale, Int64(entry.load(fromByteOffset: 4, as: Int32.self)) &* scale
        )
    }

    /// The leaf containing a query point, and its north-east corner.
    @inline(__always)
    func leaf(_ qx: Int64, _ qy: Int64) -> (leaf: Int, x1: Int64, y1: Int64)? {
        let shift = Int64(BoundaryTableLayout.cellShift)
        let column = Int((qx &- BoundaryTableLayout.originX) >> shift)
        let row = Int((qy &- BoundaryTableLayout.originY) >> shift)
        guard column >= 0, column < BoundaryTableLayout.columns, row >= 0, row < BoundaryTableLayout.rows else {
            return nil
        }
        var node = base.load(
            fromByteOffset: layout.grid + 4 * (row * BoundaryTableLayout.columns + column), as: UInt32.self)
        var x0 = BoundaryTableLayout.originX + Int64(column) << shift
        var y0 = BoundaryTableLayout.originY + Int64(row) << shift
        var size = Int64(1) << shift
        while node & BoundaryTableLayout.leafFlag == 0 {
            guard Int(node) + 3 < layout.nodeCount, size > BoundaryTableLayout.smallestCell else { return nil }
            size >>= 1
            var child = Int(node)
            if qx >= x0 + size {
                child += 1
                x0 += size
            }
            if qy >= y0 + size {
                child += 2
                y0 += size
            }
            node = base.load(fromByteOffset: layout.nodes + 4 * child, as: UInt32.self)
        }
        let leaf = Int(node & ~BoundaryTableLayout.leafFlag)
        guard leaf < layout.leafCount else { return nil }
        return (leaf, x0 + size, y0 + size)
    }

    /// The members of set `index`.
    @inline(__always)
    func set(_ index: Int) -> UnsafeBufferPointer<UInt16> {
        guard index < layout.setCount else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = Int(base.load(fromByteOffset: layout.sets + 4 * index, as: UInt32.self))
        let end = Int(base.load(fromByteOffset: layout.sets + 4 * index + 4, as: UInt32.self))
        let pool = (base + layout.setPool).assumingMemoryBound(to: UInt16.self)
        return UnsafeBufferPointer(start: pool + start, count: end - start)
    }

    /// Whether the edge `a → b` crosses the path `q → (x1, qy) → (x1, y1)` an odd number of
    /// times, under the tie rule (see `BoundaryTableLayout` (BoundaryTableLayout.swift)). Exact: every product fits in
    /// `Int64` for coordinates in range (and wraps, never traps, for damaged ones).
    @inline(__always)
    static func crossesPath(
        _ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, _ qx: Int64, _ qy: Int64, _ x1: Int64, _ y1: Int64
    ) -> Bool {
        var odd = false
        // The eastward leg at qy (+ε): crossings with qx < x ≤ x1.
        if (ay <= qy) != (by <= qy) {
            let (lx, ly, ux, uy) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let dy = uy &- ly, t = (qy &- ly) &* (ux &- lx)
            if (lx &- qx) &* dy &+ t > 0 && (lx &- x1) &* dy &+ t <= 0 { odd = true }
        }
        // The northward leg at x1 (+δ, never a vertex x): crossings with qy (+ε) < y < y1 (+ε).
        if (ax < x1) != (bx < x1) {
            let (lx, ly, rx, ry) = ax < bx ? (ax, ay, bx, by) : (bx, by, ax, ay)
            let dx = rx &- lx, t = (x1 &- lx) &* (ry &- ly)
            let fromQuery = (ly &- qy) &* dx &+ t, fromCorner = (ly &- y1) &* dx &+ t
            let rising = ry > ly
            if (fromQuery > 0 || (fromQuery == 0 && rising)) && (fromCorner < 0 || (fromCorner == 0 && !rising)) {
                odd.toggle()
            }
        }
        return odd
    }

    /// The features containing a query point, without the fallback.
    func containing(_ qx: Int64, _ qy: Int64) -> BoundaryFeatures {
        var found = BoundaryFeatures()
        guard let (leaf, x1, y1) = leaf(qx, qy) else { return found }
        let leafRecord = base + layout.leaves + 8 * leaf
        let firstRun = Int(leafRecord.load(as: UInt32.self))
        let runCount = Int(leafRecord.load(fromByteOffset: 4, as: UInt16.self))
        let corner = Int(leafRecord.load(fromByteOffset: 6, as: UInt16.self))
        guard firstRun + runCount <= layout.runCount else { return found }
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 64) { members in
            var count = 0
            @inline(__always) func toggle(_ set: UnsafeBufferPointer<UInt16>) {
                for feature in set {
                    var index = 0
                    while index < count, members[index] != feature { index += 1 }
                    if index < count {
                        count -= 1
                        members[index] = members[count]
                    } else if count < members.count {
                        members[count] = feature
                        count += 1
                    }
                }
            }
            toggle(set(corner))
            for run in firstRun..<firstRun + runCount {
                let record = base + layout.runs + 8 * run
                let first = Int(record.load(as: UInt32.self))
                let edges = Int(record.load(fromByteOffset: 4, as: UInt16.self))
                guard first + edges < layout.vertexCount else { continue }
                var odd = false
                var (ax, ay) = vertex(first)
                for index in first + 1...first + edges {
                    let (bx, by) = vertex(index)
                    if Self.crossesPath(ax, ay, bx, by, qx, qy, x1, y1) { odd.toggle() }
                    (ax, ay) = (bx, by)
                }
                // Every edge of a run toggles the same set: only the parity matters.
                if odd { toggle(set(Int(record.load(fromByteOffset: 6, as: UInt16.self)))) }
            }
            for index in 0..<count { place(Int(members[index]), into: &found) }
            return found
        }
    }

    /// Records global feature `feature` in its layer's slot (the smaller index first when two
    /// zones overlap; a layer that should hold one feature keeps the smallest).
    @inline(__always)
    private func place(_ feature: Int, into found: inout BoundaryFeatures) {
        if feature < timeZoneCount {
            let zone = Int32(feature)
            if found.timeZoneIndex < 0 {
                found.timeZoneIndex = zone
            } else if zone < found.timeZoneIndex {
                found.secondTimeZoneIndex =
                    found.secondTimeZoneIndex < 0
                    ? found.timeZoneIndex : min(found.secondTimeZoneIndex, found.timeZoneIndex)
                found.timeZoneIndex = zone
            } else if found.secondTimeZoneIndex < 0 || zone < found.secondTimeZoneIndex {
                found.secondTimeZoneIndex = zone
            }
        } else if feature < timeZoneCount + countryCount {
            let country = Int32(feature - timeZoneCount)
            if found.countryIndex < 0 || country < found.countryIndex { found.countryIndex = country }
        } else {
            let region = Int32(feature - timeZoneCount - countryCount)
            if found.admin1Index < 0 || region < found.admin1Index { found.admin1Index = region }
        }
    }

    // MARK: fallback

    /// The feature of `layer` (1 countries, 2 admin-1) whose boundary is nearest to the query
    /// point within ``BoundaryTable/fallbackDegrees``: of the country whose code has pool offset
    /// `sameCountryAs` when any such is in reach, else of any. `nil` when none is in reach.
    func nearest(layer: Int, _ qx: Int64, _ qy: Int64, sameCountryAs country: UInt32?) -> Int? {
        let low = layer == 1 ? timeZoneCount : timeZoneCount + countryCount
        let high = layer == 1 ? timeZoneCount + countryCount : layout.featureCount
        let perDegree = Double(BoundaryTableLayout.scale) * 1e5
        let latitude = Double(qy) / perDegree
        let cosine = max(cos(latitude * .pi / 180), 0.05)
        let radius = BoundaryTable.fallbackDegrees * perDegree
        let reachX = Int64((radius / cosine).rounded(.up)), reachY = Int64(radius.rounded(.up))
        var best = (any: (distance: Double.infinity, feature: -1), same: (distance: Double.infinity, feature: -1))
        let limit = radius * radius
        // Bounds the work on a damaged table (a valid one visits a few hundred nodes).
        var budget = 100_000

        func consider(_ leaf: Int) {
            let leafRecord = base + layout.leaves + 8 * leaf
            let firstRun = Int(leafRecord.load(as: UInt32.self))
            let runCount = Int(leafRecord.load(fromByteOffset: 4, as: UInt16.self))
            guard firstRun + runCount <= layout.runCount else { return }
            for run in firstRun..<firstRun + runCount {
                let record = base + layout.runs + 8 * run
                let members = set(Int(record.load(fromByteOffset: 6, as: UInt16.self)))
                guard members.contains(where: { Int($0) >= low && Int($0) < high }) else { continue }
                let first = Int(record.load(as: UInt32.self))
                let edges = Int(record.load(fromByteOffset: 4, as: UInt16.self))
                guard first + edges < layout.vertexCount else { continue }
                var nearest = Double.infinity
                var a = vertex(first)
                for index in first + 1...first + edges {
                    let b = vertex(index)
                    nearest = min(nearest, Self.squaredDistance(qx, qy, a, b, cosine))
                    a = b
                }
                guard nearest <= limit else { continue }
                for member in members where Int(member) >= low && Int(member) < high {
                    let feature = Int(member) - low
                    if nearest < best.any.distance || (nearest == best.any.distance && feature < best.any.feature) {
                        best.any = (nearest, feature)
                    }
                    if let country, featureField(Int(member), 0) == country,
                        nearest < best.same.distance || (nearest == best.same.distance && feature < best.same.feature)
                    {
                        best.same = (nearest, feature)
                    }
                }
            }
        }

        func visit(_ node: UInt32, x0: Int64, y0: Int64, size: Int64) {
            guard x0 <= qx + reachX, x0 + size >= qx - reachX, y0 <= qy + reachY, y0 + size >= qy - reachY else {
                return
            }
            if node & BoundaryTableLayout.leafFlag != 0 {
                let leaf = Int(node & ~BoundaryTableLayout.leafFlag)
                if leaf < layout.leafCount { consider(leaf) }
                return
            }
            guard Int(node) + 3 < layout.nodeCount, size > BoundaryTableLayout.smallestCell, budget > 0 else { return }
            budget -= 1
            let half = size / 2
            for child in 0..<4 {
                visit(
                    base.load(fromByteOffset: layout.nodes + 4 * (Int(node) + child), as: UInt32.self),
                    x0: x0 + (child & 1 == 1 ? half : 0), y0: y0 + (child >= 2 ? half : 0), size: half)
            }
        }

        let shift = Int64(BoundaryTableLayout.cellShift)
        let columns = BoundaryTableLayout.columns, rows = BoundaryTableLayout.rows
        let c0 = max(0, Int((qx - reachX - BoundaryTableLayout.originX) >> shift))
        let c1 = min(columns - 1, Int((qx + reachX - BoundaryTableLayout.originX) >> shift))
        let r0 = max(0, Int((qy - reachY - BoundaryTableLayout.originY) >> shift))
        let r1 = min(rows - 1, Int((qy + reachY - BoundaryTableLayout.originY) >> shift))
        guard c0 <= c1, r0 <= r1 else { return nil }
        for row in r0...r1 {
            for column in c0...c1 {
                visit(
                    base.load(fromByteOffset: layout.grid + 4 * (row * columns + column), as: UInt32.self),
                    x0: BoundaryTableLayout.originX + Int64(column) << shift,
                    y0: BoundaryTableLayout.originY + Int64(row) << shift, size: Int64(1) << shift)
            }
        }
        if best.same.feature >= 0 { return best.same.feature }
        return best.any.feature >= 0 ? best.any.feature : nil
    }

    /// The squared distance from `q` to the segment `a b`, in query units, with x scaled by
    /// `cosine`.
    static func squaredDistance(
        _ qx: Int64, _ qy: Int64, _ a: (x: Int64, y: Int64), _ b: (x: Int64, y: Int64), _ cosine: Double
    ) -> Double {
        let ax = Double(a.x - qx) * cosine, ay = Double(a.y - qy)
        let bx = Double(b.x - qx) * cosine, by = Double(b.y - qy)
        let dx = bx - ax, dy = by - ay
        let length = dx * dx + dy * dy
        var t = length > 0 ? -(ax * dx + ay * dy) / length : 0
        t = min(max(t, 0), 1)
        let px = ax + t * dx, py = ay + t * dy
        return px * px + py * py
    }
}
