import PhotoTagSupport

/// A map projection from longitude/latitude (degrees) to plane units, y pointing north.
///
/// Longitudes are taken relative to ``centralLongitude`` and wrapped to -180 ..< 180 first, so a
/// view centred on the antimeridian keeps both sides of it together.
struct Projection: Sendable, Equatable {
    /// The kinds of projection.
    enum Kind: Sendable, Equatable {
        /// Equal Earth (Šavrič, Patterson and Jenny 2018): an equal-area world projection with
        /// little shape distortion; units are radians of the unit sphere.
        case equalEarth
        /// Equirectangular with true scale along the parallel `standardLatitude`; units are
        /// degrees of latitude.
        case equirectangular(standardLatitude: Double)
    }

    var kind: Kind
    var centralLongitude: Double

    /// `longitude - centralLongitude` wrapped to -180 ..< 180.
    func relativeLongitude(_ longitude: Double) -> Double {
        wrapLongitude(longitude - centralLongitude)
    }

    /// Projects a longitude already relative to the central meridian (not wrapped again, so a
    /// ring unwrapped past ±180 stays continuous).
    func project(relativeLongitude lambda: Double, latitude: Double) -> (x: Double, y: Double) {
        switch kind {
        case .equalEarth:
            return EqualEarth.project(longitude: lambda, latitude: latitude)
        case .equirectangular(let standard):
            return (lambda * cos(standard * .pi / 180), latitude)
        }
    }

    /// Projects a position.
    func project(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        project(relativeLongitude: relativeLongitude(longitude), latitude: latitude)
    }

    /// Kilometres on the ground per plane unit along the parallel at `latitude` near the central
    /// meridian (for the scale bar).
    func kilometresPerUnit(atLatitude latitude: Double) -> Double {
        let step = 0.01
        let a = project(relativeLongitude: -step / 2, latitude: latitude)
        let b = project(relativeLongitude: step / 2, latitude: latitude)
        let ground = step * cos(latitude * .pi / 180) * earthRadiusKm * .pi / 180
        let plane = abs(b.x - a.x)
        return plane > 0 ? ground / plane : 0
    }
}

/// The mean radius of the Earth, in kilometres.
let earthRadiusKm = 6371.0088

/// `longitude` wrapped to -180 ..< 180.
func wrapLongitude(_ longitude: Double) -> Double {
    guard longitude.isFinite else { return longitude }
    var value = longitude
    if value < -180 || value >= 180 { value -= 360 * ((value + 180) / 360).rounded(.down) }
    return value >= 180 ? value - 360 : value
}

/// The Equal Earth projection on the unit sphere.
enum EqualEarth {
    static let a1 = 1.340264, a2 = -0.081106, a3 = 0.000893, a4 = 0.003796
    static let m = 3.0.squareRoot() / 2

    /// The projection of a longitude and latitude in degrees.
    static func project(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        let lambda = longitude * .pi / 180, phi = min(max(latitude, -90), 90) * .pi / 180
        let theta = asin(m * sin(phi))
        let t2 = theta * theta, t6 = t2 * t2 * t2
        let x = lambda * cos(theta) / (m * (a1 + 3 * a2 * t2 + t6 * (7 * a3 + 9 * a4 * t2)))
        let y = theta * (a1 + a2 * t2 + t6 * (a3 + a4 * t2))
        return (x, y)
    }

    /// Half the width and half the height of the whole world.
    static var halfExtent: (x: Double, y: Double) {
        (project(longitude: 180, latitude: 0).x, project(longitude: 0, latitude: 90).y)
    }
}

/// The smallest arc of longitudes holding every given longitude: its west end and its width in
/// degrees (east of the west end, possibly past 180). `nil` for no longitudes.
func longitudeArc(_ longitudes: [Double]) -> (west: Double, span: Double)? {
    let sorted = longitudes.map(wrapLongitude).sorted()
    guard let first = sorted.first, let last = sorted.last else { return nil }
    // The largest gap between neighbours (circularly) is left out of the arc.
    var gap = first + 360 - last, west = first
    for index in sorted.indices.dropFirst() where sorted[index] - sorted[index - 1] > gap {
        gap = sorted[index] - sorted[index - 1]
        west = sorted[index]
    }
    return (west, 360 - gap)
}
