import PhotoTagSupport

/// A place table read in place: typed views into bytes that something else keeps alive.
///
/// **Borrowed memory.** The view holds pointers into the table's bytes and owns none of them: it
/// is valid only while they are. The bundled table is static data of the binary, valid for the
/// whole process; a table from a file or an array is a ``MappedFile`` or ``AlignedTableBytes``
/// that the ``ReverseGeocoder`` holds, so a view (and every pointer and string's bytes it hands
/// out) is valid while that geocoder lives. The bytes are never written, so any number of
/// threads read them at once.
///
/// Opening checks the header and the size, and for a table from outside the binary its
/// checksum, so that a damaged table is refused rather than searched; every later read is
/// bounds-checked all the same where the bytes could disagree with the header (string offsets,
/// region indices, tree nodes), so that no table can make a lookup crash.
struct UnsafePlaceTable: @unchecked Sendable {  // read-only views of immutable memory
    // Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.aMappedPlaceTableSearchedByManyThreadsGivesOneThreadsAnswers.
    /// The whole table.
    let bytes: UnsafeRawBufferPointer
    let count: Int
    let leafSize: Int
    /// The number of splits from the root to the deepest leaf (see ``treeDepth(count:leafSize:)``),
    /// at most ``maximumTreeDepth``: the search keeps at most this many pending subtrees.
    let depth: Int
    /// Pool offsets of where the data came from and its date (see ``source`` and ``date``). The
    /// table holds no `String`, so copying it (every ``PlaceView`` access does) costs no
    /// reference counting.
    private let sourceOffset: UInt32
    private let dateOffset: UInt32
    private let layout: PlaceTableLayout
    private let vectors: UnsafePointer<Double>
    /// One ``PlaceTableLayout/rowStride``-byte row per place (see ``PlaceTableLayout/Row``).
    private let rows: UnsafeRawPointer
    private let boxes: UnsafePointer<Float>
    private let regionTable: UnsafePointer<UInt32>
    private let strings: UnsafeStringPool

    /// Opens the table in `bytes`, which must stay valid and unchanged while the table is used.
    ///
    /// - Parameters:
    ///   - name: how to refer to the table in errors (its path).
    ///   - verifyingChecksum: check the checksum of the whole table (one from outside the
    ///     binary; the bundled one is checked by the tests).
    init(bytes: UnsafeRawBufferPointer, name: String, verifyingChecksum: Bool = false) throws(ReverseGeocodingError) {
        func fail(_ reason: String) -> ReverseGeocodingError { .notAPlaceTable(path: name, reason: reason) }
        guard let base = bytes.baseAddress, bytes.count >= PlaceTableLayout.headerSize else {
            throw fail("\(bytes.count) bytes is too short")
        }
        guard Array(bytes[0..<8]) == PlaceTableLayout.magic else {
            if bytes.prefix(16).allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x09 || $0 >= 0x20 }),
                bytes.firstIndex(of: 0x09).map({ $0 < 16 }) == true
            {
                throw .geoNamesDumpGiven(path: name)
            }
            throw fail("unknown format")
        }
        func u32(_ offset: Int) -> UInt32 { ByteOrder.littleEndian.load(UInt32.self, base, at: offset) }
        guard u32(PlaceTableHeader.byteOrderMark) == PlaceTableLayout.byteOrderMark else {
            throw fail("byte order")
        }
        let version = u32(PlaceTableHeader.version)
        guard version == PlaceTableLayout.version else {
            throw fail("version \(version), expected \(PlaceTableLayout.version)")
        }
        guard Int(bitPattern: base) % 64 == 0 else { throw fail("misaligned in memory") }
        let layout = PlaceTableLayout(
            count: Int(u32(PlaceTableHeader.count)), regionCount: Int(u32(PlaceTableHeader.regionCount)),
            stringsSize: Int(u32(PlaceTableHeader.stringsSize)), nodeCount: Int(u32(PlaceTableHeader.nodeCount)))
        guard layout.totalSize == bytes.count else {
            throw fail("\(bytes.count) bytes, the header says \(layout.totalSize)")
        }
        guard !verifyingChecksum || Self.checksumMatches(bytes) else {
            throw fail("damaged: its checksum does not match")
        }
        let leafSize = Int(u32(PlaceTableHeader.leafSize))
        guard leafSize >= 1 else { throw fail("leaf size 0") }
        let depth = Self.treeDepth(count: layout.count, leafSize: leafSize)
        // Unreachable with a 32-bit count, and checked all the same: the search's stack depends on it.
        guard depth <= Self.maximumTreeDepth else { throw fail("a tree \(depth) levels deep") }
        self.depth = depth
        self.bytes = bytes
        self.layout = layout
        self.count = layout.count
        self.leafSize = leafSize
        func view<T>(_ offset: Int, _ type: T.Type, _ count: Int) -> UnsafePointer<T> {
            (base + offset).bindMemory(to: T.self, capacity: count)
        }
        vectors = view(layout.vectors, Double.self, 3 * count)
        rows = UnsafeRawPointer(base + layout.rows)
        boxes = view(layout.boxes, Float.self, PlaceTableLayout.boxStride * layout.nodeCount)
        regionTable = view(layout.regionTable, UInt32.self, 6 * layout.regionCount)
        strings = UnsafeStringPool(UnsafeRawBufferPointer(start: base + layout.strings, count: layout.stringsSize))
        sourceOffset = u32(PlaceTableHeader.source)
        dateOffset = u32(PlaceTableHeader.date)
    }

    /// Whether the checksum in the header of the table `bytes` (at least a header long) is that
    /// of the table.
    static func checksumMatches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let stored = ByteOrder.littleEndian.read(UInt64.self, bytes, at: PlaceTableHeader.checksum)
        return TableChecksum.of(bytes, header: PlaceTableLayout.headerSize) == stored
    }

    /// Where the table's data came from, e.g. `GeoNames cities500.txt`.
    var source: String { string(at: sourceOffset) ?? "" }
    /// The date of the table's data (`YYYY-MM-DD`).
    var date: String { string(at: dateOffset) ?? "" }

    /// The string at a pool offset; `nil` for offset 0 (none) or an offset outside the pool.
    func string(at offset: UInt32) -> String? { strings.string(at: offset) }

    /// The UTF-8 bytes of the string at a pool offset, borrowed from the table; `nil` for offset
    /// 0 (none) or an offset outside the pool.
    func utf8(at offset: UInt32) -> UnsafeRawBufferPointer? { strings.utf8(at: offset) }

    /// Field `offset` (a ``PlaceTableLayout/Row`` constant) of the row of `slot`.
    @inline(__always)
    private func field<T>(_ slot: Int, _ offset: Int, as type: T.Type) -> T {
        rows.load(fromByteOffset: PlaceTableLayout.rowStride * slot + offset, as: T.self)
    }

    /// The pool offsets of the place at `slot`'s own and shared strings.
    func stringOffsets(at slot: Int) -> (name: UInt32, asciiName: UInt32, featureCode: UInt32, timezone: UInt32) {
        typealias Row = PlaceTableLayout.Row
        return (
            field(slot, Row.name, as: UInt32.self), field(slot, Row.asciiName, as: UInt32.self),
            field(slot, Row.featureCode, as: UInt32.self), field(slot, Row.timezone, as: UInt32.self)
        )
    }

    /// The pool offset of field `field` (0 country code … 5 admin2) of region `index`.
    func regionString(_ index: Int, field: Int) -> UInt32 { regionTable[6 * index + field] }

    /// Checks that every string of the pool is valid UTF-8 (tables from files: the bundled one
    /// is checked by the tests), so that borrowed bytes can be written out as text.
    func validateStrings() -> Bool { strings.isValid }

    /// The names shared by many places: a region (country, admin1, admin2) and the like.
    /// Decoded once per geocoder and cached (see ``ReverseGeocoder``).
    final class Region: Sendable {
        let countryCode: String
        let country: String?
        let admin1Code: String?
        let admin1: String?
        let admin2Code: String?
        let admin2: String?

        init(_ fields: [String?]) {
            countryCode = fields[0] ?? ""
            country = fields[1]
            admin1Code = fields[2]
            admin1 = fields[3]
            admin2Code = fields[4]
            admin2 = fields[5]
        }

        static let unknown = Region(Array(repeating: nil, count: 6))
    }

    var regionCount: Int { layout.regionCount }

    /// The region index of the place at `slot`; `nil` when the table's index is out of range.
    func regionIndex(at slot: Int) -> Int? {
        let index = Int(field(slot, PlaceTableLayout.Row.region, as: UInt32.self))
        return index < layout.regionCount ? index : nil
    }

    /// Decodes region `index`'s names.
    func region(_ index: Int) -> Region {
        Region((0..<6).map { string(at: regionTable[6 * index + $0]) })
    }

    /// The string-pool offsets of the timezone and feature code of the place at `slot`, which
    /// repeat across places and are cached by offset.
    func sharedStringOffsets(at slot: Int) -> (timezone: UInt32, featureCode: UInt32) {
        (
            field(slot, PlaceTableLayout.Row.timezone, as: UInt32.self),
            field(slot, PlaceTableLayout.Row.featureCode, as: UInt32.self)
        )
    }

    /// Whether the place at `slot` is a city section (feature code `PPLX`); `nil` when it has no
    /// feature code.
    @inline(__always)
    func isSection(at slot: Int) -> Bool? {
        guard let code = utf8(at: sharedStringOffsets(at: slot).featureCode), !code.isEmpty else { return nil }
        return code.count == 4 && code[0] == 0x50 && code[1] == 0x50 && code[2] == 0x4C && code[3] == 0x58
    }

    /// The pool offsets of the admin-3 and admin-4 codes of the place at `slot` (0: none).
    @inline(__always)
    func lowerAdminCodes(at slot: Int) -> (admin3: UInt32, admin4: UInt32) {
        (
            field(slot, PlaceTableLayout.Row.admin3Code, as: UInt32.self),
            field(slot, PlaceTableLayout.Row.admin4Code, as: UInt32.self)
        )
    }

    /// The slot of the main place of the municipality of the place at `slot` (see
    /// ``PlaceTableBuilder/municipalMains(_:order:)``); `nil` for none, or a slot out of range in
    /// a damaged table.
    @inline(__always)
    func municipalMain(at slot: Int) -> Int? {
        let main = field(slot, PlaceTableLayout.Row.municipalMain, as: UInt32.self)
        return main == PlaceTableLayout.noMain || Int(main) >= count ? nil : Int(main)
    }

    /// The place stored at `slot`, with its shared names already decoded.
    func place(at slot: Int, region: Region, timezone: String?, featureCode: String?) -> Place {
        let strings = stringOffsets(at: slot), (latitude, longitude) = coordinate(at: slot)
        let lower = lowerAdminCodes(at: slot)
        return Place(
            geonameId: Int(geonameId(at: slot)), name: string(at: strings.name) ?? "",
            asciiName: string(at: strings.asciiName) ?? "", admin1: region.admin1, admin2: region.admin2,
            admin1Code: region.admin1Code, admin2Code: region.admin2Code, admin3Code: string(at: lower.admin3),
            admin4Code: string(at: lower.admin4), countryCode: region.countryCode,
            country: region.country, timeZone: timezone, population: Int(clamping: population(at: slot)),
            featureCode: featureCode, latitude: latitude, longitude: longitude)
    }

    /// The unit vector of the place at `slot`.
    func unitVector(at slot: Int) -> SIMD3<Double> {
        SIMD3(vectors[3 * slot], vectors[3 * slot + 1], vectors[3 * slot + 2])
    }

    func coordinate(at slot: Int) -> (latitude: Double, longitude: Double) {
        (
            field(slot, PlaceTableLayout.Row.latitude, as: Double.self),
            field(slot, PlaceTableLayout.Row.longitude, as: Double.self)
        )
    }
    func population(at slot: Int) -> UInt64 { field(slot, PlaceTableLayout.Row.population, as: UInt64.self) }
    func geonameId(at slot: Int) -> UInt32 { field(slot, PlaceTableLayout.Row.geonameId, as: UInt32.self) }

    /// Whether `a` ranks before `b` among places at the same distance: larger population first,
    /// then smaller geonameid.
    @inline(__always)
    func ranksBefore(_ a: Int, _ b: Int) -> Bool {
        let pa = population(at: a), pb = population(at: b)
        return pa != pb ? pa > pb : geonameId(at: a) < geonameId(at: b)
    }

    /// The squared chord from `query` (a unit vector) to the place at `slot`, computed exactly as
    /// the search computes it, so that a bound made from it admits that place again.
    @inline(__always)
    func squaredChord(_ query: SIMD3<Double>, _ slot: Int) -> Double {
        let vector = vectors + 3 &* slot
        let dx = query.x - vector[0], dy = query.y - vector[1], dz = query.z - vector[2]
        return dx * dx + dy * dy + dz * dz
    }

    /// Collects the best places found so far during a search.
    protocol Collector {
        /// The largest squared chord a place may have and still be offered.
        var worst: Double { get }
        /// Offers a place; the search only calls this with `squaredChord <= worst`.
        mutating func offer(_ squaredChord: Double, _ slot: Int, in table: UnsafePlaceTable)
    }

    /// The single best place.
    struct Best: Collector {
        var worst: Double
        var slot = -1

        @inline(__always)
        mutating func offer(_ squaredChord: Double, _ candidate: Int, in table: UnsafePlaceTable) {
            // squaredChord <= worst here, so an equal distance wins only on the tie-break.
            if squaredChord < worst || slot < 0 || table.ranksBefore(candidate, slot) {
                worst = squaredChord
                slot = candidate
            }
        }
    }

    /// Every place within a squared chord, into storage for at most `limit` slots; when there are
    /// more, the search is cut short (the bound drops below every distance) and ``overflowed``
    /// is set.
    struct Within: Collector {
        var worst: Double
        let slots: UnsafeMutablePointer<UInt32>
        let limit: Int
        var count = 0
        var overflowed = false

        init(squaredChord: Double, into slots: UnsafeMutablePointer<UInt32>, limit: Int) {
            worst = squaredChord
            self.slots = slots
            self.limit = limit
        }

        mutating func offer(_ squaredChord: Double, _ candidate: Int, in table: UnsafePlaceTable) {
            guard count < limit else {
                overflowed = true
                worst = -1
                return
            }
            // Slots are below the table's 32-bit count.
            slots[count] = UInt32(truncatingIfNeeded: candidate)
            count += 1
        }
    }

    /// The `limit` best places, best first.
    struct BestN: Collector {
        let limit: Int
        let bound: Double
        var found: [(squaredChord: Double, slot: Int)] = []
        var worst: Double { found.count < limit ? bound : found[found.count - 1].squaredChord }

        init(limit: Int, bound: Double) {
            self.limit = limit
            self.bound = bound
            found.reserveCapacity(limit + 1)
        }

        mutating func offer(_ squaredChord: Double, _ candidate: Int, in table: UnsafePlaceTable) {
            func before(_ a: (squaredChord: Double, slot: Int)) -> Bool {
                squaredChord != a.squaredChord ? squaredChord < a.squaredChord : table.ranksBefore(candidate, a.slot)
            }
            if found.count == limit, let last = found.last, !before(last) { return }
            var index = found.count
            while index > 0, before(found[index - 1]) { index -= 1 }
            found.insert((squaredChord, candidate), at: index)
            if found.count > limit { found.removeLast() }
        }
    }

    /// The squared distance from the query to node `node`'s bounding box: 0 inside it, infinite
    /// for an empty node (its box is inverted) or one beyond the table's node count.
    @inline(__always)
    private func squaredDistance(_ qx: Double, _ qy: Double, _ qz: Double, toBoxOf node: Int) -> Double {
        guard node < layout.nodeCount else { return .infinity }
        let box = boxes + PlaceTableLayout.boxStride &* node
        let gx = Self.gap(box[0], qx, box[3]), gy = Self.gap(box[1], qy, box[4])
        let gz = Self.gap(box[2], qz, box[5])
        return gx * gx + gy * gy + gz * gz
    }

    /// How far `q` lies outside `low ... high` on one axis (0 inside):
    /// `Swift.max(Swift.max(low - q, q - high), 0)`, written as `a > b ? a : b`, which is the
    /// processor's own maximum and gives the same number whenever there is no NaN (a box of the
    /// table and a query are never NaN).
    @inline(__always)
    static func gap(_ low: Float, _ q: Double, _ high: Float) -> Double {
        let below = Double(low) - q, above = q - Double(high)
        let larger = below > above ? below : above
        return larger > 0 ? larger : 0
    }

    /// Searches the tree for the places closest to `query` (a unit vector).
    ///
    /// Only places whose squared chord distance is at most `collector.worst` and whose population
    /// is at least `minimumPopulation` are offered. A subtree is entered only when its bounding
    /// box is within the current worst distance (so places at exactly that distance, ties, are
    /// always seen), the nearer child first.
    ///
    /// - Complexity: O(log n) expected for nearby places; O(n) worst case (a very strict filter).
    func search<C: Collector>(_ query: SIMD3<Double>, minimumPopulation: UInt64, into collector: inout C) {
        guard count > 0 else { return }
        let qx = query.x, qy = query.y, qz = query.z
        let filtered = minimumPopulation > 0  // then populations are read only on ties
        let vectors = vectors, leafSize = leafSize
        // Slots are below `count` and nodes below `2^34` (a depth of at most 32), so the index
        // arithmetic below cannot overflow: it wraps rather than checks, in the loop every lookup
        // runs dozens of times.
        @inline(__always) func consider(_ slot: Int, _ collector: inout C) {
            if filtered, population(at: slot) < minimumPopulation { return }
            let vector = vectors + 3 &* slot
            let dx = qx - vector[0], dy = qy - vector[1], dz = qz - vector[2]
            let squared = dx * dx + dy * dy + dz * dz
            if squared <= collector.worst { collector.offer(squared, slot, in: self) }
        }
        // The pending subtrees on the stack are at strictly increasing depths, 1 to `depth` (a
        // subtree is pushed one level below the node being split, and the ones pushed while
        // descending from a popped subtree lie below it), so `depth` entries (the root's one at
        // least) always suffice: the preconditions below cannot fail, and no subtree is ever
        // dropped. At most 33 entries of 24 bytes stay under the 1 KiB that Swift allocates on
        // the stack.
        let capacity = Swift.max(1, depth)
        withUnsafeTemporaryAllocation(of: PendingSubtree.self, capacity: capacity) { stack in
            stack[0] = PendingSubtree(lo: 0, hi: UInt32(count), node: 1, bound: 0)
            var top = 1
            while top > 0 {
                top &-= 1
                let pending = stack[top]
                var lo = Int(pending.lo), hi = Int(pending.hi), node = pending.node, bound = pending.bound
                while bound <= collector.worst {
                    guard hi &- lo > leafSize else {
                        for slot in lo..<hi { consider(slot, &collector) }
                        break
                    }
                    let mid = lo &+ (hi &- lo) / 2
                    let left = node &* 2, right = left &+ 1
                    let toLeft = squaredDistance(qx, qy, qz, toBoxOf: left)
                    let toRight = squaredDistance(qx, qy, qz, toBoxOf: right)
                    if toLeft <= toRight {
                        if toRight <= collector.worst {
                            precondition(top < capacity, "the k-d tree is deeper than its depth")
                            stack[top] = PendingSubtree(
                                lo: UInt32(truncatingIfNeeded: mid), hi: UInt32(truncatingIfNeeded: hi), node: right,
                                bound: toRight)
                            top &+= 1
                        }
                        (hi, node, bound) = (mid, left, toLeft)
                    } else {
                        if toLeft <= collector.worst {
                            precondition(top < capacity, "the k-d tree is deeper than its depth")
                            stack[top] = PendingSubtree(
                                lo: UInt32(truncatingIfNeeded: lo), hi: UInt32(truncatingIfNeeded: mid), node: left,
                                bound: toLeft)
                            top &+= 1
                        }
                        (lo, node, bound) = (mid, right, toRight)
                    }
                }
            }
        }
    }
}

extension UnsafePlaceTable {
    /// The deepest tree a table may have: 32 splits, as a 32-bit count of places gives with
    /// leaves of one place.
    static let maximumTreeDepth = 32

    /// The number of splits from the root to the deepest leaf of the implicit tree over `count`
    /// places (see ``PlaceTableBuilder``): a node of more than `leafSize` places splits into
    /// halves, the larger holding `n - n / 2`. The tree's shape depends on nothing else, not on
    /// where the places are, so identical or collinear places do not make it deeper.
    static func treeDepth(count: Int, leafSize: Int) -> Int {
        var size = count, depth = 0
        while size > leafSize {
            size -= size / 2
            depth += 1
        }
        return depth
    }
}

/// A subtree the search has yet to visit, and the squared distance to its box.
struct PendingSubtree {
    var lo: UInt32
    var hi: UInt32
    /// An `Int`, not a `UInt32`: below a tree 32 deep, a node's index exceeds 2^32 (still 24 bytes).
    var node: Int
    var bound: Double
}
