import CBoundaryData
import PhotoTagSupport

/// The boundary table read in place: typed views into bytes that something else keeps alive.
///
/// **Borrowed memory.** The view holds pointers into the table's bytes and owns none of them: it
/// is valid only while they are. The bundled table is static data of the binary, valid for the
/// whole process; a table from a file or an array is a ``MappedFile`` or ``AlignedTableBytes``
/// that the ``BoundaryTable`` holds, so a view (with its tz rules and the strings' bytes it hands
/// out) is valid while that table lives. The bytes are never written, so any number of threads
/// read them at once.
///
/// Every read that the bytes could get wrong is bounds-checked and the arithmetic wraps, so a
/// damaged table gives odd answers, never a crash.
struct UnsafeBoundaryTable: @unchecked Sendable {  // read-only views of immutable memory
    // Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.aMappedBoundaryTableLookedUpByManyThreadsGivesOneThreadsAnswers.
    let bytes: UnsafeRawBufferPointer
    let layout: BoundaryTableLayout
    let timeZoneCount: Int
    let countryCount: Int
    let admin1Count: Int
    let seaCount: Int
    let sourceOffset: UInt32
    let dateOffset: UInt32
    private let base: UnsafeRawPointer
    private let strings: UnsafeStringPool

    /// Opens the table in `bytes`, which must stay valid and unchanged while the table is used;
    /// `validating` checks the checksum of the whole table (see ``TableChecksum``)
    /// and that the string pool is well formed and valid UTF-8 (a table from outside the binary:
    /// the bundled one is checked by the tests).
    init(bytes: UnsafeRawBufferPointer, name: String, validating: Bool = false) throws(BoundaryError) {
        func fail(_ reason: String) -> BoundaryError { .notABoundaryTable(path: name, reason: reason) }
        guard let base = bytes.baseAddress, bytes.count >= BoundaryTableLayout.headerSize else {
            throw fail("\(bytes.count) bytes is too short")
        }
        guard Array(bytes[0..<8]) == BoundaryTableLayout.magic else { throw fail("unknown format") }
        func u32(_ offset: Int) -> Int { Int(ByteOrder.littleEndian.load(UInt32.self, base, at: offset)) }
        typealias Header = BoundaryTableHeader
        guard u32(Header.byteOrderMark) == BoundaryTableLayout.byteOrderMark else { throw fail("byte order") }
        let version = u32(Header.version)
        guard version == BoundaryTableLayout.version else {
            throw fail("version \(version), expected \(BoundaryTableLayout.version)")
        }
        guard Int(bitPattern: base) % 64 == 0 else { throw fail("misaligned in memory") }
        let counts = (
            u32(Header.timeZoneCount), u32(Header.countryCount), u32(Header.admin1Count), u32(Header.seaCount)
        )
        let layout = BoundaryTableLayout(
            featureCount: counts.0 + counts.1 + counts.2 + counts.3, nodeCount: u32(Header.nodeCount),
            leafCount: u32(Header.leafCount), runCount: u32(Header.runCount), setCount: u32(Header.setCount),
            setPoolCount: u32(Header.setPoolCount), vertexCount: u32(Header.vertexCount),
            wideBlockCount: u32(Header.wideBlockCount), stringsSize: u32(Header.stringsSize),
            timeZoneRulesSize: u32(Header.timeZoneRulesSize))
        guard layout.totalSize == bytes.count else {
            throw fail("\(bytes.count) bytes, the header says \(layout.totalSize)")
        }
        guard !validating || Self.checksumMatches(bytes) else { throw fail("damaged: its checksum does not match") }
        guard u32(Header.timeZoneRulesOffset) == layout.timeZoneRules else { throw fail("time-zone rules offset") }
        guard layout.featureCount < Int(UInt16.max) else { throw fail("too many features") }
        self.bytes = bytes
        self.base = base
        self.layout = layout
        (timeZoneCount, countryCount, admin1Count, seaCount) = counts
        sourceOffset = UInt32(u32(Header.source))
        dateOffset = UInt32(u32(Header.date))
        strings = UnsafeStringPool(UnsafeRawBufferPointer(start: base + layout.strings, count: layout.stringsSize))
        guard !validating || validateStrings() else { throw fail("its names are not valid UTF-8") }
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

    /// Whether the checksum in the header of the table `bytes` (at least a header long) is that
    /// of the table.
    static func checksumMatches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let stored = ByteOrder.littleEndian.read(UInt64.self, bytes, at: BoundaryTableHeader.checksum)
        return TableChecksum.of(bytes, header: BoundaryTableLayout.headerSize) == stored
    }

    /// Checks that the string pool is well formed and every string valid UTF-8.
    func validateStrings() -> Bool { strings.isValid }

    /// The string at a pool offset; `nil` for offset 0 (none) or an offset outside the pool.
    func string(at offset: UInt32) -> String? { strings.string(at: offset) }

    /// The UTF-8 bytes of the string at a pool offset, borrowed from the table; `nil` for offset
    /// 0 (none) or an offset outside the pool.
    func utf8(at offset: UInt32) -> UnsafeRawBufferPointer? { strings.utf8(at: offset) }

    /// String field 0 or 1 of global feature `feature`.
    func featureField(_ feature: Int, _ field: Int) -> UInt32 {
        guard feature >= 0, feature < layout.featureCount else { return 0 }
        return ByteOrder.littleEndian.load(UInt32.self, base, at: layout.features + 16 * feature + 4 * field)
    }

    /// Twice the area of global feature `feature`.
    func area(_ feature: Int) -> UInt64 {
        guard feature >= 0, feature < layout.featureCount else { return 0 }
        return ByteOrder.littleEndian.load(UInt64.self, base, at: layout.features + 16 * feature + 8)
    }

    /// The name of sea `index` as UTF-8 borrowed from the table; `nil` for an index out of range.
    func seaNameUTF8(_ index: Int) -> UnsafeRawBufferPointer? {
        guard index >= 0, index < seaCount else { return nil }
        return utf8(at: featureField(timeZoneCount + countryCount + admin1Count + index, 0))
    }

    /// Whether time zone `index` is an ocean zone (its tzid starts with `Etc/`).
    func isOceanZone(_ index: Int) -> Bool {
        let start = Int(featureField(index, 0))
        let pool = strings.bytes
        guard start != 0, start + 6 <= pool.count else { return false }
        return pool[start + 2] == UInt8(ascii: "E") && pool[start + 3] == UInt8(ascii: "t")
            && pool[start + 4] == UInt8(ascii: "c") && pool[start + 5] == UInt8(ascii: "/")
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
    /// zones overlap; a layer that should hold one feature keeps the smallest index; of seas,
    /// which nest, the smallest area, then the smallest index).
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
        } else if feature < timeZoneCount + countryCount + admin1Count {
            let region = Int32(feature - timeZoneCount - countryCount)
            if found.admin1Index < 0 || region < found.admin1Index { found.admin1Index = region }
        } else {
            placeSea(feature, into: &found)
        }
    }

    /// ``place(_:into:)`` of a sea: kept apart, and never inlined, so that the lookup of the
    /// other layers stays as small as it was (inlined, it made `containing` of every point
    /// 10% slower).
    @inline(never)
    private func placeSea(_ feature: Int, into found: inout BoundaryFeatures) {
        let sea = Int32(feature - timeZoneCount - countryCount - admin1Count)
        let first = timeZoneCount + countryCount + admin1Count
        if found.seaIndex < 0 {
            found.seaIndex = sea
        } else {
            let (area, best) = (self.area(feature), self.area(first + Int(found.seaIndex)))
            if area < best || (area == best && sea < found.seaIndex) { found.seaIndex = sea }
        }
    }

    // MARK: fallback

    /// The feature of `layer` (1 countries, 2 admin-1) whose boundary is nearest to the query
    /// point within ``BoundaryTable/fallbackDegrees``: of the country whose code has pool offset
    /// `sameCountryAs` when any such is in reach, else of any. `nil` when none is in reach.
    func nearest(layer: Int, _ qx: Int64, _ qy: Int64, sameCountryAs country: UInt32?) -> Int? {
        let low = layer == 1 ? timeZoneCount : timeZoneCount + countryCount
        let high = layer == 1 ? timeZoneCount + countryCount : timeZoneCount + countryCount + admin1Count
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
