import TestSupport
import Testing

@testable import ReverseGeocoding

/// Unit vectors, haversine and bearing, against values worked out by hand (and in Python's math).
@Suite struct CoordinateTests {
    static func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)!
    }

    @Test(arguments: [
        (0.0, 0.0, SIMD3<Double>(1, 0, 0)),
        (0, 90, SIMD3(0, 1, 0)),
        (0, -90, SIMD3(0, -1, 0)),
        (0, 180, SIMD3(-1, 0, 0)),
        (0, -180, SIMD3(-1, 0, 0)),
        (90, 0, SIMD3(0, 0, 1)),
        (90, 123, SIMD3(0, 0, 1)),  // every longitude is the same point at a pole
        (-90, -45, SIMD3(0, 0, -1)),
        (45, 45, SIMD3(0.5, 0.5, 0.5.squareRoot())),
    ])
    func unitVectorPointsWhereTheCoordinateIs(latitude: Double, longitude: Double, expected: SIMD3<Double>) {
        let vector = Self.at(latitude, longitude).unitVector
        #expect(abs(vector.x - expected.x) < 1e-15)
        #expect(abs(vector.y - expected.y) < 1e-15)
        #expect(abs(vector.z - expected.z) < 1e-15)
        #expect(abs((vector * vector).sum() - 1) < 1e-15)
    }

    @Test(arguments: [
        // Paris → London
        (48.85341, 2.3488, 51.50853, -0.12574, 343.7713616108324),
        // a quarter of the equator: π/2 · R
        (0, 0, 0, 90, 10007.557221017962),
        // pole to pole: π · R
        (90, 0, -90, 0, 20015.114442035923),
        // one degree across the antimeridian, not 359
        (0, 179.5, 0, -179.5, 111.19508023353322),
        (37.77493, -122.41942, 37.7749, -122.4194, 0.003770657113819898),
        (12.5, 45.25, 12.5, 45.25, 0),
    ])
    func haversineDistanceInKilometres(lat1: Double, lon1: Double, lat2: Double, lon2: Double, km: Double) {
        #expect(abs(Self.at(lat1, lon1).distanceKm(to: Self.at(lat2, lon2)) - km) < 1e-9)
        #expect(abs(Self.at(lat2, lon2).distanceKm(to: Self.at(lat1, lon1)) - km) < 1e-9)
    }

    @Test(arguments: [
        (0.0, 0.0, 1.0, 0.0, 0.0),  // due north
        (0, 0, 0, 1, 90),  // due east
        (0, 0, -1, 0, 180),
        (0, 0, 0, -1, 270),
        (0, 179.5, 0, -179.5, 90),  // east across the antimeridian
        (0, -179.5, 0, 179.5, 270),  // west across it
        (48.85341, 2.3488, 51.50853, -0.12574, 330.1151762114015),  // Paris → London, north-west
        (10, 10, 10, 10, 0),  // no direction between equal points
    ])
    func initialBearingClockwiseFromNorth(lat1: Double, lon1: Double, lat2: Double, lon2: Double, degrees: Double) {
        #expect(abs(Self.at(lat1, lon1).bearing(to: Self.at(lat2, lon2)) - degrees) < 1e-9)
    }

    @Test(arguments: [
        (91.0, 0.0), (-90.000001, 0), (0, 180.000001), (0, -181), (.nan, 0), (0, .infinity), (-.infinity, 0),
    ])
    func outOfRangeCoordinatesAreRejected(latitude: Double, longitude: Double) {
        #expect(Coordinate(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func squaredChordMatchesTheGreatCircleDistance() {
        let a = Self.at(10, 20), b = Self.at(-30, 75)
        let difference = a.unitVector - b.unitVector
        let chord = (difference * difference).sum()
        #expect(abs(Coordinate.squaredChord(forDistanceKm: a.distanceKm(to: b)) - chord) < 1e-12)
        #expect(Coordinate.squaredChord(forDistanceKm: 1e9) == 4)  // capped at the antipode
    }
}
