import ReverseGeocoding

/// The country outlines made into SVG path data for one frame: unwrapped around the central
/// meridian, clipped to the view, projected and simplified for the output scale.
enum OutlineDrawing {
    /// No detail smaller than this many pixels is kept.
    static let tolerance = 0.5
    /// Rings smaller than this many square pixels are left out.
    static let smallestArea = 0.5
    /// Edges longer than this many degrees are split before an Equal Earth projection (seam and
    /// pole edges, which the projection curves).
    static let longestEdge = 1.0

    /// What ``paths(_:frame:)`` draws.
    struct Paths {
        var land: [UInt8]
        var borders: [UInt8]
        var regions: [UInt8]
    }

    /// The path data of the land (for the even-odd rule), of the country borders and of the
    /// region borders, in tenths of a pixel (see ``PathData``). Region borders are drawn on a
    /// regional frame only: a world map would be a mesh of them.
    static func paths(_ outlines: BoundaryOutlines, frame: MapFrame) -> Paths {
        let view = PlaneRect(minX: -4, minY: -4, maxX: frame.width + 4, maxY: frame.height + 4)
        var land = PathData()
        for ring in outlines.land {
            for piece in pieces(ring, frame: frame, closed: true) {
                var points = piece
                if !view.contains(points) { points = Geometry.clip(ring: points, to: view) }
                guard abs(Geometry.twiceArea(points)) >= 2 * smallestArea else { continue }
                points = Geometry.simplify(ring: points, tolerance: tolerance)
                if points.count >= 3 { land.append(points, closed: true) }
            }
        }
        let regions = frame.isWorld ? [] : lines(outlines.regionBorders, frame: frame, view: view)
        return Paths(land: land.bytes, borders: lines(outlines.borders, frame: frame, view: view), regions: regions)
    }

    /// The path data of open lines, clipped to `view` and simplified.
    private static func lines(_ lines: [[GridPoint]], frame: MapFrame, view: PlaneRect) -> [UInt8] {
        var path = PathData()
        for line in lines {
            for piece in pieces(line, frame: frame, closed: false) {
                let parts = view.contains(piece) ? [piece] : Geometry.clip(line: piece, to: view)
                for part in parts {
                    let points = Geometry.simplify(line: part, tolerance: tolerance)
                    if points.count >= 2 { path.append(points, closed: false) }
                }
            }
        }
        return path.bytes
    }

    /// A ring or line in pixels: its longitudes unwrapped from the central meridian (a ring that
    /// goes once round the globe, like Antarctica's, is closed through its pole), repeated 360°
    /// east and west where that reaches the window, clipped to the window in degrees, then
    /// projected. Rings come back without their closing point.
    static func pieces(_ outline: [GridPoint], frame: MapFrame, closed: Bool) -> [[PlanePoint]] {
        guard let first = outline.first else { return [] }
        var points: [PlanePoint] = []
        points.reserveCapacity(outline.count + 2)
        var longitude = frame.projection.relativeLongitude(first.longitude)
        var previous = first.longitude
        for vertex in outline {
            longitude += wrapLongitude(vertex.longitude - previous)
            previous = vertex.longitude
            points.append(PlanePoint(x: longitude, y: vertex.latitude))
        }
        if closed {
            let start = points[0], end = points[points.count - 1]
            if abs(end.x - start.x) > 180 {
                let pole = (points.max { abs($0.y) < abs($1.y) }?.y ?? 0) < 0 ? -90.0 : 90.0
                points.append(PlanePoint(x: end.x, y: pole))
                points.append(PlanePoint(x: start.x, y: pole))
            } else {
                points.removeLast()
            }
        }
        let box = PlaneRect.bounds(points)
        let window = PlaneRect(
            minX: frame.window.west, minY: frame.window.south, maxX: frame.window.east, maxY: frame.window.north)
        var pieces: [[PlanePoint]] = []
        for shift in [-360.0, 0, 360] {
            let shifted = PlaneRect(minX: box.minX + shift, minY: box.minY, maxX: box.maxX + shift, maxY: box.maxY)
            guard window.meets(shifted) else { continue }
            let moved = shift == 0 ? points : points.map { PlanePoint(x: $0.x + shift, y: $0.y) }
            let inside = window.contains(moved)
            let parts: [[PlanePoint]]
            if closed {
                parts = [inside ? moved : Geometry.clip(ring: moved, to: window)]
            } else {
                parts = inside ? [moved] : Geometry.clip(line: moved, to: window)
            }
            for part in parts where part.count >= (closed ? 3 : 2) {
                pieces.append(project(part, frame: frame, closed: closed))
            }
        }
        return pieces
    }

    /// Projects relative longitudes and latitudes to pixels, splitting long edges first for
    /// Equal Earth.
    private static func project(_ points: [PlanePoint], frame: MapFrame, closed: Bool) -> [PlanePoint] {
        var output: [PlanePoint] = []
        output.reserveCapacity(points.count)
        func add(_ point: PlanePoint) {
            let (x, y) = frame.projection.project(relativeLongitude: point.x, latitude: point.y)
            output.append(frame.pixel(PlanePoint(x: x, y: y)))
        }
        let split = frame.isWorld
        for index in points.indices {
            let point = points[index]
            add(point)
            guard split, closed || index + 1 < points.count else { continue }
            let next = points[(index + 1) % points.count]
            let steps = Int((max(abs(next.x - point.x), abs(next.y - point.y)) / longestEdge).rounded(.up))
            if steps > 1 {
                for step in 1..<steps {
                    let t = Double(step) / Double(steps)
                    add(PlanePoint(x: point.x + t * (next.x - point.x), y: point.y + t * (next.y - point.y)))
                }
            }
        }
        return output
    }

    /// The outline of the whole globe in Equal Earth, as pixels (for the sea).
    static func globe(frame: MapFrame) -> [PlanePoint] {
        var edge: [PlanePoint] = []
        for step in 0...180 { edge.append(PlanePoint(x: 180, y: 90 - Double(step))) }
        for step in 0...180 { edge.append(PlanePoint(x: -180, y: -90 + Double(step))) }
        return edge.map {
            let (x, y) = frame.projection.project(relativeLongitude: $0.x, latitude: $0.y)
            return frame.pixel(PlanePoint(x: x, y: y))
        }
    }
}

/// SVG path data in whole tenths of a pixel: an absolute move to each ring's first point, then
/// relative lines (`M12 34l5-6 7 8z`), with points that round to the same tenth left out.
struct PathData {
    var bytes: [UInt8] = []

    mutating func append(_ points: [PlanePoint], closed: Bool) {
        var previous: (Int, Int)? = nil
        var count = 0
        var body: [UInt8] = []
        for point in points {
            let x = Int((point.x * 10).rounded()), y = Int((point.y * 10).rounded())
            if let (px, py) = previous {
                if px == x, py == y { continue }
                if count == 1 {
                    body.append(UInt8(ascii: "l"))
                    body.appendNumber(x - px)
                } else {
                    body.appendNumberSeparated(x - px)
                }
                body.appendNumberSeparated(y - py)
            } else {
                body.append(UInt8(ascii: "M"))
                body.appendNumber(x)
                body.appendNumberSeparated(y)
            }
            previous = (x, y)
            count += 1
        }
        guard count >= (closed ? 3 : 2) else { return }
        bytes += body
        if closed { bytes.append(UInt8(ascii: "z")) }
    }
}

extension [UInt8] {
    /// Appends an integer in decimal.
    mutating func appendNumber(_ value: Int) {
        append(contentsOf: String(value).utf8)
    }

    /// Appends an integer after a space, or right after the previous number when it has a minus
    /// sign (which separates it).
    mutating func appendNumberSeparated(_ value: Int) {
        if value >= 0 { append(UInt8(ascii: " ")) }
        appendNumber(value)
    }
}
