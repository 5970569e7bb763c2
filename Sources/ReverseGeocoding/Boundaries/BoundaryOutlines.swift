/// The land and the borders as drawable lines: the outline of all land as closed rings, the
/// borders between two countries and those between two admin-1 regions of one country as open
/// lines.
///
/// The rings are meant for the even-odd fill rule: a point is on land when it is inside an odd
/// number of rings (holes, enclaves and lakes come out right whatever the rings' direction).
/// Polygons are split at ±180° as in the source, so a ring can run along the antimeridian.
package struct BoundaryOutlines: Sendable {
    /// Closed rings (the first point repeated at the end) whose even-odd union is the land.
    package var land: [[GridPoint]]
    /// Open lines where two countries meet, each edge once.
    package var borders: [[GridPoint]]
    /// Open lines where two admin-1 regions of the same country meet, each edge once (none of
    /// them is also in ``borders``).
    package var regionBorders: [[GridPoint]] = []
}

extension BoundaryTable {
    /// The land, the country borders and the region borders (see ``BoundaryOutlines``), read from
    /// the stored edges.
    ///
    /// The admin-1 layer follows the coastline (the country layer also holds the territorial
    /// sea), so the land is the union of the admin-1 regions, together with the countries that
    /// have no admin-1 region (Antarctica, a few islands); a border is an edge between admin-1
    /// regions of two countries, a region border one between two regions of the same country.
    /// Each stored edge carries the set of features whose boundary it
    /// is: an edge of an odd number of those features is on the coast of their union.
    ///
    /// The output depends only on the table: the edges are visited in storage order, so the same
    /// table always gives the same rings. It takes a fraction of a second for the bundled table;
    /// keep the result rather than asking again.
    package func countryOutlines() -> BoundaryOutlines {
        let view = self.view
        let edgeSets = view.edgeSets()
        let countries = view.timeZoneCount..<view.timeZoneCount + view.countryCount
        let regions = countries.upperBound..<countries.upperBound + view.admin1Count
        // The countries with admin-1 regions, by the pool offset of their code (pooled once).
        var covered = Set<UInt32>()
        for feature in regions { covered.insert(view.featureField(feature, 0)) }
        var isLand = [Bool](repeating: false, count: view.layout.setCount)
        var isBorder = [Bool](repeating: false, count: view.layout.setCount)
        var isRegionBorder = [Bool](repeating: false, count: view.layout.setCount)
        for index in 0..<view.layout.setCount {
            var parity = false
            var first: UInt32? = nil
            var regionCount = 0
            for member in view.set(index) {
                let feature = Int(member)
                if regions.contains(feature) {
                    parity.toggle()
                    regionCount += 1
                    let code = view.featureField(feature, 0)
                    if let first, first != code { isBorder[index] = true }
                    first = first ?? code
                } else if countries.contains(feature), !covered.contains(view.featureField(feature, 0)) {
                    parity.toggle()
                }
            }
            isLand[index] = parity
            isRegionBorder[index] = regionCount >= 2 && !isBorder[index]
        }
        return BoundaryOutlines(
            land: view.rings(edgeSets: edgeSets, where: { $0 >= 0 && isLand[Int($0)] }),
            borders: view.lines(edgeSets: edgeSets, where: { $0 >= 0 && isBorder[Int($0)] }),
            regionBorders: view.lines(edgeSets: edgeSets, where: { $0 >= 0 && isRegionBorder[Int($0)] }))
    }

    /// The rings of country `index` (see ``countryCount``), for the even-odd fill rule; empty for
    /// an index out of range.
    package func countryRings(_ index: Int) -> [[GridPoint]] {
        guard index >= 0, index < view.countryCount else { return [] }
        let feature = UInt16(view.timeZoneCount + index)
        var member = [Bool](repeating: false, count: view.layout.setCount)
        for set in 0..<view.layout.setCount { member[set] = view.set(set).contains(feature) }
        return view.rings(edgeSets: view.edgeSets(), where: { $0 >= 0 && member[Int($0)] })
    }
}

extension UnsafeBoundaryTable {
    /// The toggle set of the edge from each vertex to the next, `-1` where no edge starts (the
    /// end of a chain): every edge is in the runs of at least one quadtree leaf.
    func edgeSets() -> [Int32] {
        var sets = [Int32](repeating: -1, count: layout.vertexCount)
        guard let base = bytes.baseAddress else { return sets }
        for run in 0..<layout.runCount {
            let record = base + layout.runs + 8 * run
            let first = Int(record.load(as: UInt32.self))
            let edges = Int(record.load(fromByteOffset: 4, as: UInt16.self))
            let set = Int32(record.load(fromByteOffset: 6, as: UInt16.self))
            guard first + edges < layout.vertexCount, Int(set) < layout.setCount else { continue }
            for vertex in first..<first + edges { sets[vertex] = set }
        }
        return sets
    }

    /// Vertex `index` in stored units.
    func gridPoint(_ index: Int) -> GridPoint {
        let (x, y) = vertex(index)
        let scale = BoundaryTableLayout.scale
        return GridPoint(x: Int32(truncatingIfNeeded: x / scale), y: Int32(truncatingIfNeeded: y / scale))
    }

    /// The selected edges joined into closed rings: each ring walks unused edges from vertex to
    /// vertex until it is back where it started (every vertex of a polygon boundary has an even
    /// number of its edges, so the walk always closes).
    func rings(edgeSets: [Int32], where selected: (Int32) -> Bool) -> [[GridPoint]] {
        // Number the distinct points (looked up, never iterated: the order stays fixed).
        var numbers: [GridPoint: Int32] = [:]
        var points: [GridPoint] = []
        var edges: [(Int32, Int32)] = []
        func number(_ point: GridPoint) -> Int32 {
            if let known = numbers[point] { return known }
            let new = Int32(points.count)
            numbers[point] = new
            points.append(point)
            return new
        }
        for vertex in edgeSets.indices where selected(edgeSets[vertex]) {
            let a = number(gridPoint(vertex)), b = number(gridPoint(vertex + 1))
            if a != b { edges.append((a, b)) }
        }
        // The edges at each point, in edge order (compressed rows).
        var start = [Int32](repeating: 0, count: points.count + 1)
        for (a, b) in edges {
            start[Int(a) + 1] += 1
            start[Int(b) + 1] += 1
        }
        for index in 0..<points.count { start[index + 1] += start[index] }
        var fill = start
        var incident = [Int32](repeating: 0, count: 2 * edges.count)
        for (edge, (a, b)) in edges.enumerated() {
            incident[Int(fill[Int(a)])] = Int32(edge)
            fill[Int(a)] += 1
            incident[Int(fill[Int(b)])] = Int32(edge)
            fill[Int(b)] += 1
        }
        var used = [Bool](repeating: false, count: edges.count)
        var next = start  // the first incident edge not yet looked at, per point
        var rings: [[GridPoint]] = []
        for first in edges.indices where !used[first] {
            used[first] = true
            let origin = edges[first].0
            var ring = [points[Int(origin)]]
            var at = edges[first].1
            ring.append(points[Int(at)])
            while at != origin {
                guard let edge = takeUnused(at) else { break }
                let (a, b) = edges[Int(edge)]
                at = a == at ? b : a
                ring.append(points[Int(at)])
            }
            if ring.count >= 4 { rings.append(ring) }
        }
        return rings

        func takeUnused(_ point: Int32) -> Int32? {
            var index = next[Int(point)]
            while index < start[Int(point) + 1] {
                let edge = incident[Int(index)]
                index += 1
                if !used[Int(edge)] {
                    used[Int(edge)] = true
                    next[Int(point)] = index
                    return edge
                }
            }
            next[Int(point)] = index
            return nil
        }
    }

    /// The selected edges as open lines, following the stored chains (a line ends where the
    /// chain does or where an edge is not selected).
    func lines(edgeSets: [Int32], where selected: (Int32) -> Bool) -> [[GridPoint]] {
        var lines: [[GridPoint]] = []
        var current: [GridPoint] = []
        for vertex in edgeSets.indices {
            if selected(edgeSets[vertex]) {
                if current.isEmpty { current.append(gridPoint(vertex)) }
                current.append(gridPoint(vertex + 1))
            } else if !current.isEmpty {
                lines.append(current)
                current = []
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
