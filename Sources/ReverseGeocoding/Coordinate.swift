import PhotoTagSupport

/// A point on the Earth in WGS 84 decimal degrees, validated on creation.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// The mean Earth radius (IUGG R1) used for every distance, in kilometres.
    public static let earthRadiusKm = 6371.0088

    /// Creates a coordinate, or `nil` when either value is not finite or out of range.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `latitude, longitude` in decimal degrees, e.g. `48.8566, 2.3522`.
    public var description: String { "\(latitude), \(longitude)" }

    /// The point as a unit vector: x towards 0°N 0°E, y towards 0°N 90°E, z towards the north pole.
    ///
    /// Straight-line (chord) distance between unit vectors orders points exactly as great-circle
    /// distance does, with no trouble at the poles or across ±180°.
    public var unitVector: SIMD3<Double> {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The great-circle distance to `other` in kilometres (haversine formula).
    public func distanceKm(to other: Coordinate) -> Double {
        let phi1 = latitude * .pi / 180, phi2 = other.latitude * .pi / 180
        let dPhi = phi2 - phi1, dLambda = (other.longitude - longitude) * .pi / 180
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * Self.earthRadiusKm * asin(min(1, a.squareRoot()))
    }

    /// The initial bearing of the great circle from this point to `other`, in degrees clockwise
    /// from true north, in `0..<360`; 0 when the points coincide.
    public func bearing(to other: Coordinate) -> Double {
        let phi1 = latitude * .pi / 180, phi2 = other.latitude * .pi / 180
        let dLambda = (other.longitude - longitude) * .pi / 180
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        guard x != 0 || y != 0 else { return 0 }
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : (degrees >= 360 ? degrees - 360 : degrees)
    }

    /// The squared chord length between unit vectors that corresponds to a great-circle distance.
    static func squaredChord(forDistanceKm distance: Double) -> Double {
        let angle = min(Double.pi, max(0, distance / earthRadiusKm))
        let chord = 2 * sin(angle / 2)
        return chord * chord
    }
}
