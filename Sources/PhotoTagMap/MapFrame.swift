import PhotoTagSupport

/// A point in the plane: projection units or pixels, depending on the stage.
struct PlanePoint: Sendable, Equatable {
    var x: Double
    var y: Double
}

/// Where the map sits in the picture: the projection, the part of the plane shown and the
/// pixel size (see ``fit(latitudes:longitudes:width:)``).
struct MapFrame: Sendable {
    /// The width of the map area in pixels.
    static let defaultWidth = 960.0
    /// The height of the map area is kept between these.
    static let heights = (minimum: 380.0, maximum: 640.0)
    /// A regional view when the positions fit in this many degrees of longitude and latitude.
    static let regionalSpan = (longitude: 100.0, latitude: 60.0)
    /// The padding around the positions, as a fraction of their extent on each side.
    static let padding = 0.1

    var projection: Projection
    /// Pixels per plane unit.
    var scale: Double
    /// The plane coordinates of the top-left corner of the map area (smallest x, largest y).
    var west: Double
    var north: Double
    /// The size of the map area in pixels.
    var width: Double
    var height: Double
    /// The window of relative longitude and latitude (degrees) the outlines are clipped to before
    /// they are projected.
    var window: (west: Double, south: Double, east: Double, north: Double)

    /// Whether this is the whole-world projection.
    var isWorld: Bool { projection.kind == .equalEarth }

    /// The pixel of a plane point (y down, origin at the map area's top-left corner).
    func pixel(_ point: PlanePoint) -> PlanePoint {
        PlanePoint(x: (point.x - west) * scale, y: (north - point.y) * scale)
    }

    /// The pixel of a position.
    func pixel(latitude: Double, longitude: Double) -> PlanePoint {
        let (x, y) = projection.project(longitude: longitude, latitude: latitude)
        return pixel(PlanePoint(x: x, y: y))
    }

    /// The frame for a set of positions: a regional equirectangular view centred on them when
    /// they fit in ``regionalSpan`` (across ±180° when that is shorter), else Equal Earth
    /// (centred on Greenwich, or on the Pacific for a set round it); in both cases fitted to the positions with ``padding`` and at least a minimum extent. No
    /// positions give the whole world.
    static func fit(latitudes: [Double], longitudes: [Double], width: Double = defaultWidth) -> MapFrame {
        let finite = zip(latitudes, longitudes).filter { $0.0.isFinite && $0.1.isFinite }
        let lats = finite.map { min(max($0.0, -90), 90) }, lons = finite.map(\.1)
        guard let arc = longitudeArc(lons), let south = lats.min(), let north = lats.max() else {
            return world(width: width)
        }
        if arc.span <= regionalSpan.longitude, north - south <= regionalSpan.latitude, max(-south, north) <= 82 {
            let centre = wrapLongitude(arc.west + arc.span / 2)
            let projection = Projection(
                kind: .equirectangular(standardLatitude: (south + north) / 2), centralLongitude: centre)
            let points = finite.map { projection.project(longitude: $0.1, latitude: $0.0) }
            return fitted(projection, points, minimumExtent: 0.25, width: width, limit: nil)
        }
        // Greenwich in the middle, unless the positions lie round the other side (a Pacific set):
        // then the middle of their arc, in whole degrees.
        let greenwich = arc.west > 0 ? 360 - arc.west : -arc.west  // east of the arc's west end
        let containsGreenwich = greenwich <= arc.span
        let middle = containsGreenwich || arc.span > 270 ? 0 : wrapLongitude(arc.west + arc.span / 2).rounded()
        let projection = Projection(kind: .equalEarth, centralLongitude: middle)
        let points = finite.map { projection.project(longitude: $0.1, latitude: $0.0) }
        let half = EqualEarth.halfExtent
        return fitted(projection, points, minimumExtent: 0.6, width: width, limit: (half.x, half.y))
    }

    /// The whole world in Equal Earth.
    static func world(width: Double = defaultWidth) -> MapFrame {
        let half = EqualEarth.halfExtent
        return fitted(
            Projection(kind: .equalEarth, centralLongitude: 0), [(-half.x, -half.y), (half.x, half.y)],
            minimumExtent: 0, width: width, limit: (half.x, half.y), padding: 0.02)
    }

    /// The frame around projected points, padded, at least `minimumExtent` plane units each way,
    /// at most `limit` (half-extents) each way, with the height kept in ``heights``.
    private static func fitted(
        _ projection: Projection, _ points: [(x: Double, y: Double)], minimumExtent: Double, width: Double,
        limit: (x: Double, y: Double)?, padding: Double = padding
    ) -> MapFrame {
        var minX = points.map(\.x).min() ?? 0, maxX = points.map(\.x).max() ?? 0
        var minY = points.map(\.y).min() ?? 0, maxY = points.map(\.y).max() ?? 0
        let padX = max((maxX - minX) * padding, (minimumExtent - (maxX - minX)) / 2, 0)
        let padY = max((maxY - minY) * padding, (minimumExtent - (maxY - minY)) / 2, 0)
        (minX, maxX, minY, maxY) = (minX - padX, maxX + padX, minY - padY, maxY + padY)
        if let limit {
            (minX, maxX) = (max(minX, -limit.x * 1.02), min(maxX, limit.x * 1.02))
            (minY, maxY) = (max(minY, -limit.y * 1.04), min(maxY, limit.y * 1.04))
        }
        let spanX = max(maxX - minX, 1e-9), spanY = max(maxY - minY, 1e-9)
        let height = min(max(width * spanY / spanX, heights.minimum), heights.maximum).rounded()
        let scale = min(width / spanX, height / spanY)
        let centre = ((minX + maxX) / 2, (minY + maxY) / 2)
        let west = centre.0 - width / scale / 2, top = centre.1 + height / scale / 2
        let window: (Double, Double, Double, Double)
        switch projection.kind {
        case .equalEarth:
            window = (-180, -90, 180, 90)
        case .equirectangular(let standard):
            let cosine = cos(standard * .pi / 180)
            let margin = 4 / scale
            window = (
                (west - margin) / cosine, top - height / scale - margin, (west + width / scale + margin) / cosine,
                top + margin
            )
        }
        return MapFrame(
            projection: projection, scale: scale, west: west, north: top, width: width, height: height,
            window: window)
    }
}
