/// Compiles the boundary layers (time zones, countries, admin-1 regions, seas) into the binary table
/// that ``BoundaryTable`` reads (see `BoundaryTableLayout` (BoundaryTableLayout.swift)).
///
/// The output depends only on the features (in file order), the metadata and the time-zone rules:
/// every step iterates in a fixed order, so the same input always gives the same bytes.
package struct BoundaryTableBuilder {
    /// Most edges a quadtree leaf holds before it is split (unless it is already at the
    /// deepest level).
    static let leafEdges = 24
    /// The deepest quadtree level below a grid cell (cells stay a multiple of 64 query units).
    static let maxDepth = 17

    /// Where the data came from, shown by `phototag boundaries info`.
    package var source: String
    /// The date of the data (`YYYY-MM-DD`).
    package var date: String
    /// The time-zone rules, stored as an opaque blob (may be empty).
    package var timeZoneRules: [UInt8]
    /// Each country's name by its code, stored with the country (none when missing).
    package var countryNames: [String: String] = [:]

    /// A builder that stamps its tables with `source` and `date` and stores `timeZoneRules` with them.
    package init(source: String, date: String, timeZoneRules: [UInt8] = []) {
        self.source = source
        self.date = date
        self.timeZoneRules = timeZoneRules
    }

    /// The three GeoJSON files of a boundaries directory.
    package static let fileNames = (
        timeZones: "timezones.geojson", countries: "countries.geojson", admin1: "admin1.geojson"
    )

    /// Reads the three layers from `directory` and builds the table.
    package func build(directory: String) throws(BoundaryError) -> [UInt8] {
        let names = Self.fileNames
        return try build(
            timeZones: try GeoJSONReader.read(path: directory + "/" + names.timeZones),
            countries: try GeoJSONReader.read(path: directory + "/" + names.countries),
            admin1: try GeoJSONReader.read(path: directory + "/" + names.admin1),
            names: (
                directory + "/" + names.timeZones, directory + "/" + names.countries, directory + "/" + names.admin1
            ))
    }

    /// Builds the table from the layers' features.
    ///
    /// Time zones need the properties `tzid` (and `country`, a string or null), countries
    /// `countryCode`, admin-1 regions `countryCode` and `admin1Code`, seas `name`. `names` name
    /// the files of the first three layers in messages, `seasName` the seas'.
    package func build(
        timeZones: [BoundaryFeature], countries: [BoundaryFeature], admin1: [BoundaryFeature],
        seas: [BoundaryFeature] = [],
        names: (String, String, String) = ("time zones", "countries", "admin-1 regions"), seasName: String = "seas"
    ) throws(BoundaryError) -> [UInt8] {
        let featureCount = timeZones.count + countries.count + admin1.count + seas.count
        guard featureCount < Int(UInt16.max) else { throw .tableTooLarge("\(featureCount) features") }
        var pool = StringPool(tooLarge: BoundaryError.tableTooLarge)
        let sourceOffset = try pool.add(source)
        let dateOffset = try pool.add(date)

        // Feature records: two strings and the area.
        var records: [(UInt32, UInt32, UInt64)] = []
        func required(_ feature: BoundaryFeature, _ key: String, _ path: String) throws(BoundaryError) -> String {
            guard let value = feature.property(key) else {
                throw .missingProperty(path: path, line: feature.line, name: key)
            }
            return value
        }
        for feature in timeZones {
            records.append(
                (
                    try pool.add(try required(feature, "tzid", names.0)), try pool.add(feature.property("country")),
                    Self.twiceArea(feature)
                ))
        }
        for feature in countries {
            let code = try required(feature, "countryCode", names.1)
            records.append((try pool.add(code), try pool.add(countryNames[code]), Self.twiceArea(feature)))
        }
        for feature in admin1 {
            records.append(
                (
                    try pool.add(try required(feature, "countryCode", names.2)),
                    try pool.add(try required(feature, "admin1Code", names.2)), Self.twiceArea(feature)
                ))
        }
        for feature in seas {
            records.append((try pool.add(try required(feature, "name", seasName)), 0, Self.unsignedTwiceArea(feature)))
        }
        let all = timeZones + countries + admin1 + seas
        var geometry = Self.edges(all)
        let tree = Self.index(&geometry, featureCount: featureCount)
        guard geometry.sets.count <= Int(UInt16.max) else { throw .tableTooLarge("\(geometry.sets.count) sets") }
        guard geometry.vertices.count < Int(UInt32.max) else { throw .tableTooLarge("too many vertices") }

        // Vertex blocks: a key and Int16 offsets, or absolute values for wide blocks.
        let vertexCount = geometry.vertices.count
        var keys: [(Int32, Int32)] = []
        var offsets = [Int16](repeating: 0, count: 2 * vertexCount)
        var wide: [Int32] = []
        for block in 0..<(vertexCount + 7) / 8 {
            let members = geometry.vertices[(8 * block)..<min(8 * block + 8, vertexCount)]
            let key = members.first!
            let fits = members.allSatisfy {
                abs(Int($0.x) - Int(key.x)) <= 32767 && abs(Int($0.y) - Int(key.y)) <= 32767
            }
            if fits {
                keys.append((key.x, key.y))
                for (index, point) in zip(members.indices, members) {
                    offsets[2 * index] = Int16(Int(point.x) - Int(key.x))
                    offsets[2 * index + 1] = Int16(Int(point.y) - Int(key.y))
                }
            } else {
                keys.append((BoundaryTableLayout.wideMarker, Int32(wide.count / 16)))
                for index in 0..<8 {
                    let point = index < members.count ? members[members.startIndex + index] : key
                    wide += [point.x, point.y]
                }
            }
        }

        let setPoolCount = geometry.sets.reduce(0) { $0 + $1.count }
        let layout = BoundaryTableLayout(
            featureCount: featureCount, nodeCount: tree.nodes.count, leafCount: tree.leaves.count,
            runCount: tree.runs.count, setCount: geometry.sets.count, setPoolCount: setPoolCount,
            vertexCount: vertexCount, wideBlockCount: wide.count / 16, stringsSize: pool.bytes.count,
            timeZoneRulesSize: timeZoneRules.count)
        guard layout.totalSize <= Int(UInt32.max) else { throw .tableTooLarge("\(layout.totalSize) bytes") }

        var out = TableByteWriter(size: layout.totalSize)
        typealias Header = BoundaryTableHeader
        out.put(BoundaryTableLayout.magic, at: 0)
        out.put32(BoundaryTableLayout.version, at: Header.version)
        out.put32(BoundaryTableLayout.byteOrderMark, at: Header.byteOrderMark)
        out.put32(UInt32(timeZones.count), at: Header.timeZoneCount)
        out.put32(UInt32(countries.count), at: Header.countryCount)
        out.put32(UInt32(admin1.count), at: Header.admin1Count)
        out.put32(UInt32(seas.count), at: Header.seaCount)
        out.put32(UInt32(tree.nodes.count), at: Header.nodeCount)
        out.put32(UInt32(tree.leaves.count), at: Header.leafCount)
        out.put32(UInt32(tree.runs.count), at: Header.runCount)
        out.put32(UInt32(geometry.sets.count), at: Header.setCount)
        out.put32(UInt32(setPoolCount), at: Header.setPoolCount)
        out.put32(UInt32(vertexCount), at: Header.vertexCount)
        out.put32(UInt32(wide.count / 16), at: Header.wideBlockCount)
        out.put32(UInt32(pool.bytes.count), at: Header.stringsSize)
        out.put32(sourceOffset, at: Header.source)
        out.put32(dateOffset, at: Header.date)
        out.put32(UInt32(layout.timeZoneRules), at: Header.timeZoneRulesOffset)
        out.put32(UInt32(timeZoneRules.count), at: Header.timeZoneRulesSize)
        for (index, record) in records.enumerated() {
            out.put32(record.0, at: layout.features + 16 * index)
            out.put32(record.1, at: layout.features + 16 * index + 4)
            out.put64(record.2, at: layout.features + 16 * index + 8)
        }
        for (index, root) in tree.grid.enumerated() { out.put32(root, at: layout.grid + 4 * index) }
        for (index, node) in tree.nodes.enumerated() { out.put32(node, at: layout.nodes + 4 * index) }
        for (index, leaf) in tree.leaves.enumerated() {
            out.put32(leaf.firstRun, at: layout.leaves + 8 * index)
            out.put16(leaf.runCount, at: layout.leaves + 8 * index + 4)
            out.put16(leaf.set, at: layout.leaves + 8 * index + 6)
        }
        for (index, run) in tree.runs.enumerated() {
            out.put32(run.firstVertex, at: layout.runs + 8 * index)
            out.put16(run.edgeCount, at: layout.runs + 8 * index + 4)
            out.put16(run.set, at: layout.runs + 8 * index + 6)
        }
        var start = 0
        for (index, set) in geometry.sets.enumerated() {
            out.put32(UInt32(start), at: layout.sets + 4 * index)
            for (offset, feature) in set.enumerated() { out.put16(feature, at: layout.setPool + 2 * (start + offset)) }
            start += set.count
        }
        out.put32(UInt32(start), at: layout.sets + 4 * geometry.sets.count)
        for (index, key) in keys.enumerated() {
            out.put32(UInt32(bitPattern: key.0), at: layout.blocks + 8 * index)
            out.put32(UInt32(bitPattern: key.1), at: layout.blocks + 8 * index + 4)
        }
        for (index, offset) in offsets.enumerated() {
            out.put16(UInt16(bitPattern: offset), at: layout.vertices + 2 * index)
        }
        for (index, value) in wide.enumerated() {
            out.put32(UInt32(bitPattern: value), at: layout.wideBlocks + 4 * index)
        }
        out.put(pool.bytes, at: layout.strings)
        out.put(timeZoneRules, at: layout.timeZoneRules)
        out.sealChecksum(header: BoundaryTableLayout.headerSize)
        return out.bytes
    }

    /// The country names of GeoNames' `countryInfo.txt` at `path`, by ISO code.
    package static func countryNames(countryInfo path: String) throws(BoundaryError) -> [String: String] {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path)
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        let names = GeoNamesImport.countryNames(bytes)
        guard !names.isEmpty else { throw .cannotRead(path: path, reason: "no country in it") }
        return names
    }

    /// The seas of a marine layer as the table stores them: a feature without a name (or with an
    /// empty one) is left out, since it cannot name a point (Natural Earth has 11, sounds and
    /// straits it does not label); a name in capitals only, Natural Earth's label style for the
    /// largest oceans (`INDIAN OCEAN`), is written as the others are (`Indian Ocean`).
    package static func namedSeas(_ features: [BoundaryFeature]) -> (seas: [BoundaryFeature], unnamed: Int) {
        var seas: [BoundaryFeature] = []
        for var feature in features {
            guard let name = feature.property("name"), !name.isEmpty else { continue }
            if !name.contains(where: \.isLowercase) {
                let words = name.split(separator: " ", omittingEmptySubsequences: false)
                let cased = words.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
                feature.properties = feature.properties.map {
                    $0.key == "name" ? ("name", cased.joined(separator: " ")) : $0
                }
            }
            seas.append(feature)
        }
        return (seas, features.count - seas.count)
    }

    /// Writes a built table to `path` (through a temporary file renamed into place).
    package static func write(_ table: [UInt8], to path: String) throws(BoundaryError) {
        do {
            try writeWholeFile(table, to: path)
        } catch {
            guard case .cannotWrite(_, let reason) = error else { throw .cannotWrite(path: path, reason: "\(error)") }
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// Twice the area of a feature (exteriors counter-clockwise, holes clockwise), in
    /// (1e-5 degree)², exact.
    static func twiceArea(_ feature: BoundaryFeature) -> UInt64 {
        var sum: Int64 = 0
        for polygon in feature.polygons {
            for ring in polygon {
                for index in 0..<ring.count - 1 {
                    let a = ring[index], b = ring[index + 1]
                    sum += Int64(a.x) * Int64(b.y) - Int64(b.x) * Int64(a.y)
                }
            }
        }
        return UInt64(max(0, sum))
    }

    /// Twice the area of a feature whose rings may wind either way (Natural Earth's marine
    /// polygons): each polygon's exterior less its holes, whatever their orientation, in
    /// (1e-5 degree)², exact.
    static func unsignedTwiceArea(_ feature: BoundaryFeature) -> UInt64 {
        var total: Int64 = 0
        for polygon in feature.polygons {
            var sum: Int64 = 0
            for (index, ring) in polygon.enumerated() {
                var signed: Int64 = 0
                for vertex in 0..<ring.count - 1 {
                    let a = ring[vertex], b = ring[vertex + 1]
                    signed += Int64(a.x) * Int64(b.y) - Int64(b.x) * Int64(a.y)
                }
                sum += index == 0 ? abs(signed) : -abs(signed)
            }
            total += max(0, sum)
        }
        return UInt64(total)
    }

    // MARK: edges

    /// The deduplicated edges: vertices in chains, and each edge's toggle set.
    struct Geometry {
        /// Chains of ring vertices; edge `i` joins vertex `i` to `i + 1` when `edgeSet[i] >= 0`.
        var vertices: [GridPoint] = []
        /// The toggle set of the edge starting at each vertex, -1 where a chain ends.
        var edgeSet: [Int32] = []
        /// The distinct sets of global feature numbers, sorted; set 0 is the empty set.
        var sets: [[UInt16]] = [[]]
        var setIndex: [[UInt16]: Int32] = [[]: 0]

        mutating func set(_ members: [UInt16]) -> Int32 {
            if let index = setIndex[members] { return index }
            let index = Int32(sets.count)
            sets.append(members)
            setIndex[members] = index
            return index
        }
    }

    /// An undirected edge, its endpoints in a fixed order.
    private struct EdgeKey: Hashable {
        let a: UInt64
        let b: UInt64

        init(_ p: GridPoint, _ q: GridPoint) {
            let u = UInt64(UInt32(bitPattern: p.x)) << 32 | UInt64(UInt32(bitPattern: p.y))
            let v = UInt64(UInt32(bitPattern: q.x)) << 32 | UInt64(UInt32(bitPattern: q.y))
            (a, b) = u < v ? (u, v) : (v, u)
        }
    }

    /// Every ring edge once, with the features whose boundary it is (an edge twice in one feature
    /// cancels out), laid out in chains along the rings in feature order.
    static func edges(_ features: [BoundaryFeature]) -> Geometry {
        var slots: [EdgeKey: Int] = [:]
        var members: [[UInt16]] = []
        for (number, feature) in features.enumerated() {
            for polygon in feature.polygons {
                for ring in polygon {
                    for index in 0..<ring.count - 1 where ring[index] != ring[index + 1] {
                        let key = EdgeKey(ring[index], ring[index + 1])
                        if let slot = slots[key] {
                            if let at = members[slot].firstIndex(of: UInt16(number)) {
                                members[slot].remove(at: at)
                            } else {
                                members[slot].append(UInt16(number))
                            }
                        } else {
                            slots[key] = members.count
                            members.append([UInt16(number)])
                        }
                    }
                }
            }
        }
        var geometry = Geometry()
        var emitted = [Bool](repeating: false, count: members.count)
        for feature in features {
            for polygon in feature.polygons {
                for ring in polygon {
                    var open = false
                    for index in 0..<ring.count - 1 where ring[index] != ring[index + 1] {
                        let slot = slots[EdgeKey(ring[index], ring[index + 1])]!
                        guard !emitted[slot], !members[slot].isEmpty else {
                            open = false
                            continue
                        }
                        emitted[slot] = true
                        if !open {
                            geometry.vertices.append(ring[index])
                            geometry.edgeSet.append(-1)
                            open = true
                        }
                        geometry.edgeSet[geometry.edgeSet.count - 1] = geometry.set(members[slot].sorted())
                        geometry.vertices.append(ring[index + 1])
                        geometry.edgeSet.append(-1)
                    }
                }
            }
        }
        return geometry
    }

    // MARK: index

    struct Leaf {
        var firstRun: UInt32
        var runCount: UInt16
        var set: UInt16
    }

    struct Run {
        var firstVertex: UInt32
        var edgeCount: UInt16
        var set: UInt16
    }

    struct Tree {
        var grid: [UInt32] = []
        var nodes: [UInt32] = []
        var leaves: [Leaf] = []
        var runs: [Run] = []
    }

    /// An edge in query units.
    struct Segment {
        var ax: Int64, ay: Int64, bx: Int64, by: Int64

        /// Whether the segment meets the closed rectangle (exact).
        func meets(x0: Int64, y0: Int64, x1: Int64, y1: Int64) -> Bool {
            guard max(ax, bx) >= x0, min(ax, bx) <= x1, max(ay, by) >= y0, min(ay, by) <= y1 else { return false }
            let dx = bx - ax, dy = by - ay
            var positive = false, negative = false
            for (cx, cy) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                let left = dx * (cy - ay), right = dy * (cx - ax)
                if left > right { positive = true } else if left < right { negative = true } else { return true }
            }
            return positive && negative
        }
    }

    /// Builds the grid of quadtrees, each leaf with its corner's features and its edge runs.
    static func index(_ geometry: inout Geometry, featureCount: Int) -> Tree {
        let scale = BoundaryTableLayout.scale
        let cell = Int64(1) << BoundaryTableLayout.cellShift
        let columns = BoundaryTableLayout.columns, rows = BoundaryTableLayout.rows
        let (originX, originY) = (BoundaryTableLayout.originX, BoundaryTableLayout.originY)
        var segments: [Segment] = []
        var edgeVertex: [Int] = []
        for index in geometry.edgeSet.indices where geometry.edgeSet[index] >= 0 {
            let a = geometry.vertices[index], b = geometry.vertices[index + 1]
            segments.append(
                Segment(ax: Int64(a.x) * scale, ay: Int64(a.y) * scale, bx: Int64(b.x) * scale, by: Int64(b.y) * scale))
            edgeVertex.append(index)
        }
        // The grid cells each edge meets.
        var cells = [[Int32]](repeating: [], count: columns * rows)
        for (edge, segment) in segments.enumerated() {
            let c0 = Int((min(segment.ax, segment.bx) - originX) >> Int64(BoundaryTableLayout.cellShift))
            let c1 = Int((max(segment.ax, segment.bx) - originX) >> Int64(BoundaryTableLayout.cellShift))
            let r0 = Int((min(segment.ay, segment.by) - originY) >> Int64(BoundaryTableLayout.cellShift))
            let r1 = Int((max(segment.ay, segment.by) - originY) >> Int64(BoundaryTableLayout.cellShift))
            for row in r0...r1 {
                for column in c0...c1 {
                    let x0 = originX + Int64(column) * cell, y0 = originY + Int64(row) * cell
                    if segment.meets(x0: x0, y0: y0, x1: x0 + cell, y1: y0 + cell) {
                        cells[row * columns + column].append(Int32(edge))
                    }
                }
            }
        }
        let reference = CornerReference(segments: segments, sets: edgeVertex.map { Int(geometry.edgeSet[$0]) })
        var parity = [Bool](repeating: false, count: featureCount)

        var tree = Tree()
        func build(_ edges: [Int32], x0: Int64, y0: Int64, size: Int64, depth: Int) -> UInt32 {
            if edges.count <= leafEdges || depth == maxDepth {
                let members = reference.features(atX: x0 + size, y: y0 + size, geometry: geometry, parity: &parity)
                let set = geometry.set(members)
                let firstRun = tree.runs.count
                for edge in edges {
                    let vertex = edgeVertex[Int(edge)], set = UInt16(geometry.edgeSet[vertex])
                    if let last = tree.runs.last, tree.runs.count > firstRun, last.set == set,
                        Int(last.firstVertex) + Int(last.edgeCount) == vertex, last.edgeCount < UInt16.max
                    {
                        tree.runs[tree.runs.count - 1].edgeCount += 1
                    } else {
                        tree.runs.append(Run(firstVertex: UInt32(vertex), edgeCount: 1, set: set))
                    }
                }
                tree.leaves.append(
                    Leaf(firstRun: UInt32(firstRun), runCount: UInt16(tree.runs.count - firstRun), set: UInt16(set)))
                return BoundaryTableLayout.leafFlag | UInt32(tree.leaves.count - 1)
            }
            let base = tree.nodes.count
            tree.nodes += [0, 0, 0, 0]
            let half = size / 2
            for child in 0..<4 {
                let cx = x0 + (child & 1 == 1 ? half : 0), cy = y0 + (child >= 2 ? half : 0)
                let inside = edges.filter {
                    segments[Int($0)].meets(x0: cx, y0: cy, x1: cx + half, y1: cy + half)
                }
                tree.nodes[base + child] = build(inside, x0: cx, y0: cy, size: half, depth: depth + 1)
            }
            return UInt32(base)
        }
        for row in 0..<rows {
            for column in 0..<columns {
                tree.grid.append(
                    build(
                        cells[row * columns + column], x0: originX + Int64(column) * cell,
                        y0: originY + Int64(row) * cell, size: cell, depth: 0))
            }
        }
        return tree
    }

    /// The features containing a point, by counting crossings of the eastward ray over the edges
    /// of its horizontal band (the reference for each leaf's corner).
    struct CornerReference {
        static let bandShift: Int64 = 20
        let segments: [Segment]
        let sets: [Int]
        /// For each band, the edges meeting it, by decreasing maximum x.
        var bands: [[Int32]]

        init(segments: [Segment], sets: [Int]) {
            self.segments = segments
            self.sets = sets
            let count = (BoundaryTableLayout.rows << (BoundaryTableLayout.cellShift - Int(Self.bandShift))) + 2
            var bands = [[Int32]](repeating: [], count: count)
            for (edge, segment) in segments.enumerated() {
                let b0 = Int((min(segment.ay, segment.by) - BoundaryTableLayout.originY) >> Self.bandShift)
                let b1 = Int((max(segment.ay, segment.by) - BoundaryTableLayout.originY) >> Self.bandShift)
                for band in b0...b1 { bands[band].append(Int32(edge)) }
            }
            for band in bands.indices {
                bands[band].sort {
                    let u = max(segments[Int($0)].ax, segments[Int($0)].bx)
                    let v = max(segments[Int($1)].ax, segments[Int($1)].bx)
                    return u != v ? u > v : $0 < $1
                }
            }
            self.bands = bands
        }

        /// The sorted global numbers of the features containing `(x, y)` (query units).
        func features(atX x: Int64, y: Int64, geometry: Geometry, parity: inout [Bool]) -> [UInt16] {
            let band = Int((y - BoundaryTableLayout.originY) >> Self.bandShift)
            guard band >= 0, band < bands.count else { return [] }
            var touched: [UInt16] = []
            for edge in bands[band] {
                var s = segments[Int(edge)]
                guard max(s.ax, s.bx) > x else { break }
                guard (s.ay <= y) != (s.by <= y) else { continue }
                if s.ay > s.by { s = Segment(ax: s.bx, ay: s.by, bx: s.ax, by: s.ay) }
                // Crossing strictly east of x: (ax - x)(by - ay) + (y - ay)(bx - ax) > 0.
                guard (s.ax - x) * (s.by - s.ay) + (y - s.ay) * (s.bx - s.ax) > 0 else { continue }
                for feature in geometry.sets[sets[Int(edge)]] {
                    parity[Int(feature)].toggle()
                    touched.append(feature)
                }
            }
            var inside: [UInt16] = []
            for feature in touched where parity[Int(feature)] {
                inside.append(feature)
                parity[Int(feature)] = false
            }
            for feature in touched { parity[Int(feature)] = false }
            return inside.sorted()
        }
    }
}
