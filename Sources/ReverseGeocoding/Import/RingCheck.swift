/// Whether a polygon ring crosses itself: the check `boundaries import` makes of every ring it
/// reads (see ``GeoJSONReader``), in O(n log n) for a ring of n edges.
///
/// A ring is refused when two of its edges *cross* (each passes through the other's interior,
/// at one point) or *overlap* (they are collinear and share more than a point: a spike that
/// turns back on itself, or a ring that runs along itself). Edges that only *touch* (a vertex of
/// one on the other, such as a ring that comes back to one of its vertices, as real borders do
/// at a pinch point) are allowed, unless the ring goes on through that vertex to the other side
/// of the edge it touches, which is a crossing too. (Two visits of one vertex that cross there,
/// like an X, are taken for a touch: telling them apart needs the order of four directions
/// around the point, and real borders pinch, they do not cross, at their vertices.) Touches are
/// allowed because the containment test counts crossings of a ray with the edges,
/// and it gives every point one answer for such a ring, whereas a ring that crosses itself has
/// no inside to speak of. Edges of length zero (a position repeated) are ignored.
///
/// The test is the Shamos–Hoey sweep: the edges' endpoints in order of (x, y), a balanced tree
/// (a treap) of the edges the sweep line cuts, ordered along it, and each edge tested only
/// against its neighbours in that order when it comes in or goes out. The first fault (in sweep
/// order) that this finds is proof of one; if there were a fault and none was found, the two
/// edges of the leftmost one would have been neighbours at some step before it, and been tested.
/// All predicates are exact integer orientations on the 1e-5 degree grid.
enum RingCheck {
    /// Where a ring goes wrong: a point where two of its edges cross or overlap, and the
    /// positions (1-based, in the ring's order) of the edges' first vertices.
    struct Fault: Equatable {
        var longitude: Double
        var latitude: Double
        var edges: (Int, Int)

        static func == (a: Fault, b: Fault) -> Bool {
            a.longitude == b.longitude && a.latitude == b.latitude && a.edges == b.edges
        }
    }

    /// The first crossing or overlap of `ring` (closed: its last position is its first) found
    /// by the sweep, or `nil` when its edges only ever meet at their shared vertices or touch.
    static func firstFault(_ ring: [GridPoint]) -> Fault? {
        var steps = 0
        return firstFault(ring, steps: &steps)
    }

    /// ``firstFault(_:)``, adding to `steps` the number of comparisons and tests it made (how
    /// the tests show that the work grows as n log n, not n²).
    static func firstFault(_ ring: [GridPoint], steps: inout Int) -> Fault? {
        var sweep = Sweep(ring)
        defer { steps += sweep.steps }
        return sweep.run()
    }

    /// One edge, its endpoints in sweep order (`a` before `b` by x, then y).
    struct Edge {
        var a: GridPoint
        var b: GridPoint
        /// The index in the ring of the edge's first vertex.
        var index: Int
    }

    /// `(b - a) × (c - a)`: positive when `c` is to the left of `a → b`, zero when on its line.
    /// Differences are at most 3.6e7 grid units, so the products fit an `Int64` exactly.
    @inline(__always)
    static func orientation(_ a: GridPoint, _ b: GridPoint, _ c: GridPoint) -> Int64 {
        (Int64(b.x) - Int64(a.x)) * (Int64(c.y) - Int64(a.y)) - (Int64(b.y) - Int64(a.y)) * (Int64(c.x) - Int64(a.x))
    }

    @inline(__always)
    static func precedes(_ p: GridPoint, _ q: GridPoint) -> Bool { p.x != q.x ? p.x < q.x : p.y < q.y }

    /// Whether edges `e` and `f` of `ring` cross or overlap (see ``RingCheck``), and where.
    static func fault(_ e: Edge, _ f: Edge, in ring: [GridPoint]) -> Fault? {
        let o1 = orientation(e.a, e.b, f.a), o2 = orientation(e.a, e.b, f.b)
        let o3 = orientation(f.a, f.b, e.a), o4 = orientation(f.a, f.b, e.b)
        func found(_ longitude: Double, _ latitude: Double) -> Fault {
            Fault(
                longitude: longitude / 1e5, latitude: latitude / 1e5,
                edges: (min(e.index, f.index) + 1, max(e.index, f.index) + 1))
        }
        if o1 != 0, o2 != 0, o3 != 0, o4 != 0 {
            guard (o1 > 0) != (o2 > 0), (o3 > 0) != (o4 > 0) else { return nil }
            // A proper crossing: e.a + t (e.b - e.a), t = o3 / (o3 - o4).
            let t = Double(o3) / Double(o3 - o4)
            return found(
                Double(e.a.x) + t * Double(e.b.x - e.a.x), Double(e.a.y) + t * Double(e.b.y - e.a.y))
        }
        guard o1 == 0, o2 == 0 else {
            // At most a touch: a vertex of one edge inside the other. It is a crossing when the
            // ring goes on through that vertex to the other side of the edge it touches.
            func crosses(_ vertex: GridPoint, _ side: Int64, of edge: Edge, across other: Edge) -> Bool {
                side == 0 && precedes(other.a, vertex) && precedes(vertex, other.b)
                    && passesThrough(vertex, of: edge, across: other, in: ring)
            }
            for (vertex, side, edge, other) in [(f.a, o1, f, e), (f.b, o2, f, e), (e.a, o3, e, f), (e.b, o4, e, f)]
            where crosses(vertex, side, of: edge, across: other) {
                return found(Double(vertex.x), Double(vertex.y))
            }
            return nil
        }
        // Collinear: they overlap when the later start comes before the earlier end.
        let start = precedes(e.a, f.a) ? f.a : e.a
        let end = precedes(e.b, f.b) ? e.b : f.b
        guard precedes(start, end) else { return nil }
        return found(Double(start.x), Double(start.y))
    }

    /// Whether `ring`, at `vertex` (an endpoint of `edge`, lying on the line of `other`), comes
    /// from one side of `other`'s line and leaves to the other: the positions just before and
    /// just after the vertex (skipping repeats of it) are strictly on either side.
    static func passesThrough(_ vertex: GridPoint, of edge: Edge, across other: Edge, in ring: [GridPoint]) -> Bool {
        let count = ring.count - 1  // the distinct positions: the last is the first again
        let at = (ring[edge.index] == vertex ? edge.index : edge.index + 1) % count
        var before = at, after = at
        repeat { before = (before + count - 1) % count } while ring[before] == vertex && before != at
        repeat { after = (after + 1) % count } while ring[after] == vertex && after != at
        let sideBefore = orientation(other.a, other.b, ring[before])
        let sideAfter = orientation(other.a, other.b, ring[after])
        return (sideBefore > 0 && sideAfter < 0) || (sideBefore < 0 && sideAfter > 0)
    }

    /// The sweep's state: the edges, and the treap of those the sweep line cuts.
    private struct Sweep {
        let ring: [GridPoint]
        var edges: [Edge] = []
        // The treap, one node per edge (node i is edge i): children, parent and priority.
        var left: [Int32]
        var right: [Int32]
        var parent: [Int32]
        var priority: [UInt32]
        var root: Int32 = -1
        /// Comparisons along the sweep line and edge tests so far.
        var steps = 0

        init(_ ring: [GridPoint]) {
            self.ring = ring
            for index in 0..<max(0, ring.count - 1) where ring[index] != ring[index + 1] {
                let p = ring[index], q = ring[index + 1]
                edges.append(RingCheck.precedes(p, q) ? Edge(a: p, b: q, index: index) : Edge(a: q, b: p, index: index))
            }
            left = Array(repeating: -1, count: edges.count)
            right = left
            parent = left
            // Fixed pseudo-random priorities (a multiplicative hash of the node): the same
            // ring always takes the same steps.
            priority = (0..<edges.count).map {
                UInt32(truncatingIfNeeded: UInt64($0 + 1) &* 0x9E37_79B9_7F4A_7C15 >> 32)
            }
        }

        /// Whether edge `e` lies below edge `t` along the sweep line at `e`'s first endpoint,
        /// which `t` spans; a fault of the two, when that point is on `t`'s line, is found by
        /// the caller's neighbour tests.
        mutating func below(_ e: Int, _ t: Int) -> Bool {
            steps += 1
            let edge = edges[e], other = edges[t]
            var side = RingCheck.orientation(other.a, other.b, edge.a)
            if side == 0 { side = RingCheck.orientation(other.a, other.b, edge.b) }
            if side == 0 { return e < t }  // collinear: either order, the neighbour test sees them
            return side < 0
        }

        mutating func run() -> Fault? {
            // Events: 2i is edge i coming in (at a), 2i + 1 going out (at b); at one point,
            // edges go out before others come in (two such only share that point).
            var events = Array(0..<(2 * edges.count))
            func point(_ event: Int) -> GridPoint { event & 1 == 0 ? edges[event >> 1].a : edges[event >> 1].b }
            events.sort { x, y in
                let p = point(x), q = point(y)
                if p != q { return RingCheck.precedes(p, q) }
                if (x & 1) != (y & 1) { return x & 1 == 1 }
                return x < y
            }
            for event in events {
                let edge = event >> 1
                if event & 1 == 0 {
                    insert(edge)
                    let below = predecessor(edge), above = successor(edge)
                    if let fault = test(edge, below) { return fault }
                    if let fault = test(edge, above) { return fault }
                } else {
                    let below = predecessor(edge), above = successor(edge)
                    remove(edge)
                    if below >= 0, above >= 0, let fault = test(below, above) { return fault }
                }
            }
            return nil
        }

        /// The fault of edges `e` and `f` (`f` may be -1: none). Consecutive edges share a
        /// vertex, which is no fault unless they also overlap (a spike).
        mutating func test(_ e: Int, _ f: Int) -> Fault? {
            guard f >= 0 else { return nil }
            steps += 1
            return RingCheck.fault(edges[e], edges[f], in: ring)
        }

        // MARK: treap

        mutating func insert(_ node: Int) {
            let n = Int32(node)
            guard root >= 0 else {
                root = n
                return
            }
            var current = root
            while true {
                if below(node, Int(current)) {
                    if left[Int(current)] < 0 {
                        left[Int(current)] = n
                        break
                    }
                    current = left[Int(current)]
                } else {
                    if right[Int(current)] < 0 {
                        right[Int(current)] = n
                        break
                    }
                    current = right[Int(current)]
                }
            }
            parent[node] = current
            while parent[node] >= 0, priority[Int(parent[node])] < priority[node] { rotateUp(node) }
        }

        mutating func remove(_ node: Int) {
            // Rotate the node down until it has at most one child, then splice it out.
            while left[node] >= 0, right[node] >= 0 {
                let child = priority[Int(left[node])] > priority[Int(right[node])] ? left[node] : right[node]
                rotateUp(Int(child))
            }
            let child = left[node] >= 0 ? left[node] : right[node]
            let up = parent[node]
            if child >= 0 { parent[Int(child)] = up }
            if up < 0 {
                root = child
            } else if left[Int(up)] == Int32(node) {
                left[Int(up)] = child
            } else {
                right[Int(up)] = child
            }
            left[node] = -1
            right[node] = -1
            parent[node] = -1
        }

        /// Rotates `node` above its parent.
        mutating func rotateUp(_ node: Int) {
            let n = Int32(node)
            let up = Int(parent[node])
            let grand = parent[up]
            if left[up] == n {
                left[up] = right[node]
                if right[node] >= 0 { parent[Int(right[node])] = Int32(up) }
                right[node] = Int32(up)
            } else {
                right[up] = left[node]
                if left[node] >= 0 { parent[Int(left[node])] = Int32(up) }
                left[node] = Int32(up)
            }
            parent[up] = n
            parent[node] = grand
            if grand < 0 {
                root = n
            } else if left[Int(grand)] == Int32(up) {
                left[Int(grand)] = n
            } else {
                right[Int(grand)] = n
            }
        }

        /// The edge just below `node` along the sweep line, or -1.
        func predecessor(_ node: Int) -> Int {
            if left[node] >= 0 {
                var current = Int(left[node])
                while right[current] >= 0 { current = Int(right[current]) }
                return current
            }
            var current = node
            while parent[current] >= 0 {
                let up = Int(parent[current])
                if right[up] == Int32(current) { return up }
                current = up
            }
            return -1
        }

        /// The edge just above `node` along the sweep line, or -1.
        func successor(_ node: Int) -> Int {
            if right[node] >= 0 {
                var current = Int(right[node])
                while left[current] >= 0 { current = Int(left[current]) }
                return current
            }
            var current = node
            while parent[current] >= 0 {
                let up = Int(parent[current])
                if left[up] == Int32(current) { return up }
                current = up
            }
            return -1
        }
    }
}
