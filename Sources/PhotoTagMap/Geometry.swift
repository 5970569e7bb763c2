/// An axis-aligned rectangle of the plane.
struct PlaneRect: Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    /// Whether every point is inside.
    func contains(_ points: [PlanePoint]) -> Bool {
        points.allSatisfy { $0.x >= minX && $0.x <= maxX && $0.y >= minY && $0.y <= maxY }
    }

    /// Whether the rectangle meets the bounding box of the points.
    func meets(_ box: PlaneRect) -> Bool {
        box.maxX >= minX && box.minX <= maxX && box.maxY >= minY && box.minY <= maxY
    }

    /// The bounding box of points (empty points give an inverted box).
    static func bounds(_ points: [PlanePoint]) -> PlaneRect {
        var box = PlaneRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for point in points {
            box.minX = min(box.minX, point.x)
            box.maxX = max(box.maxX, point.x)
            box.minY = min(box.minY, point.y)
            box.maxY = max(box.maxY, point.y)
        }
        return box
    }
}

/// Polygon and polyline clipping and simplification.
enum Geometry {
    /// One side of a rectangle: keep `x >= value` (`axis` 0, `above`), `x <= value`, `y >= value`
    /// or `y <= value`.
    private struct Side {
        var axis: Int
        var value: Double
        var above: Bool

        /// Whether a point is on the kept side (or on the line).
        func inside(_ point: PlanePoint) -> Bool {
            let coordinate = axis == 0 ? point.x : point.y
            return above ? coordinate >= value : coordinate <= value
        }

        /// Where the segment `a b` crosses the line (the caller knows that it does).
        func crossing(_ a: PlanePoint, _ b: PlanePoint) -> PlanePoint {
            if axis == 0 {
                let t = (value - a.x) / (b.x - a.x)
                return PlanePoint(x: value, y: a.y + t * (b.y - a.y))
            }
            let t = (value - a.y) / (b.y - a.y)
            return PlanePoint(x: a.x + t * (b.x - a.x), y: value)
        }
    }

    /// The four sides of a rectangle, each keeping its inside.
    private static func sides(_ rect: PlaneRect) -> [Side] {
        [
            Side(axis: 0, value: rect.minX, above: true), Side(axis: 0, value: rect.maxX, above: false),
            Side(axis: 1, value: rect.minY, above: true), Side(axis: 1, value: rect.maxY, above: false),
        ]
    }

    /// A closed ring (first point not repeated) clipped to a rectangle (Sutherland–Hodgman).
    ///
    /// The parts outside become runs along the rectangle's sides; for every point inside, the
    /// ring winds around it as before, so the even-odd fill inside the rectangle is unchanged.
    static func clip(ring: [PlanePoint], to rect: PlaneRect) -> [PlanePoint] {
        var current = ring
        for side in sides(rect) {
            guard let last = current.last else { return [] }
            var output: [PlanePoint] = []
            output.reserveCapacity(current.count + 4)
            var previous = last
            for point in current {
                let inside = side.inside(point), previousInside = side.inside(previous)
                if inside {
                    if !previousInside { output.append(side.crossing(previous, point)) }
                    output.append(point)
                } else if previousInside {
                    output.append(side.crossing(previous, point))
                }
                previous = point
            }
            current = output
        }
        return current
    }

    /// The parts of an open line inside a rectangle (Liang–Barsky on each segment).
    static func clip(line: [PlanePoint], to rect: PlaneRect) -> [[PlanePoint]] {
        var parts: [[PlanePoint]] = []
        var current: [PlanePoint] = []
        for index in line.indices.dropFirst() {
            let a = line[index - 1], b = line[index]
            guard let (p, q) = clip(segment: a, b, to: rect) else {
                if !current.isEmpty { parts.append(current) }
                current = []
                continue
            }
            if current.isEmpty { current.append(p) }
            current.append(q)
            if q != b {
                parts.append(current)
                current = []
            }
        }
        if current.count >= 2 { parts.append(current) }
        return parts.filter { $0.count >= 2 }
    }

    /// The part of segment `a b` inside a rectangle, `nil` when none.
    static func clip(segment a: PlanePoint, _ b: PlanePoint, to rect: PlaneRect) -> (PlanePoint, PlanePoint)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    t0 = max(t0, r)
                } else {
                    if r < t0 { return nil }
                    t1 = min(t1, r)
                }
            }
        }
        let start = t0 == 0 ? a : PlanePoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let end = t1 == 1 ? b : PlanePoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (start, end)
    }

    /// An open line simplified with Douglas–Peucker: no kept segment strays more than
    /// `tolerance` from the points it replaces. The ends are kept.
    static func simplify(line: [PlanePoint], tolerance: Double) -> [PlanePoint] {
        guard line.count > 2 else { return line }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var stack = [(0, line.count - 1)]
        let limit = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let a = line[first], b = line[last]
            var farthest = -1, distance = limit
            for index in first + 1..<last {
                let d = squaredDistance(line[index], a, b)
                if d > distance {
                    distance = d
                    farthest = index
                }
            }
            if farthest >= 0 {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return line.indices.filter { keep[$0] }.map { line[$0] }
    }

    /// A closed ring (first point not repeated) simplified like a line between its first point
    /// and the point farthest from it.
    static func simplify(ring: [PlanePoint], tolerance: Double) -> [PlanePoint] {
        guard ring.count > 3 else { return ring }
        let first = ring[0]
        var far = 0, distance = -1.0
        for (index, point) in ring.enumerated() {
            let d = (point.x - first.x) * (point.x - first.x) + (point.y - first.y) * (point.y - first.y)
            if d > distance {
                distance = d
                far = index
            }
        }
        guard far > 0 else { return [first] }
        let one = simplify(line: Array(ring[0...far]), tolerance: tolerance)
        let two = simplify(line: Array(ring[far...]) + [first], tolerance: tolerance)
        return one + two.dropFirst().dropLast()
    }

    /// The squared distance from `p` to the segment `a b`.
    static func squaredDistance(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        var t = length > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length : 0
        t = min(max(t, 0), 1)
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return ex * ex + ey * ey
    }

    /// Twice the signed area of a ring.
    static func twiceArea(_ ring: [PlanePoint]) -> Double {
        guard var previous = ring.last else { return 0 }
        var sum = 0.0
        for point in ring {
            sum += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return sum
    }
}
