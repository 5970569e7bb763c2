import TestSupport
import Testing

@testable import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random points that stress a geocoder: uniform on the sphere, crowded at both poles, on both
/// sides of ±180°, and exact duplicates.
enum RandomPlaces {
    static func coordinate(_ random: inout SeededGenerator) -> Coordinate {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:  // near the north pole
            return Coordinate(
                latitude: .random(in: 89...90, using: &random), longitude: .random(in: -180...180, using: &random))!
        case 1:  // near the south pole
            return Coordinate(
                latitude: .random(in: -90 ... -89, using: &random), longitude: .random(in: -180...180, using: &random))!
        case 2:  // either side of the antimeridian
            let side: Double = Bool.random(using: &random) ? 1 : -1
            return Coordinate(
                latitude: .random(in: -60...60, using: &random),
                longitude: side * .random(in: 179...180, using: &random))!
        default:  // uniform on the sphere
            let z = Double.random(in: -1...1, using: &random)
            return Coordinate(latitude: asin(z) * 180 / .pi, longitude: .random(in: -180...180, using: &random))!
        }
    }

    static func table(count: Int, seed: UInt64) -> [Place] {
        var random = SeededGenerator(state: seed)
        var places: [Place] = []
        for id in 1...count {
            // Every tenth place sits exactly on an earlier one, so distances tie.
            let spot =
                id % 10 == 0 && !places.isEmpty
                ? places[Int.random(in: 0..<places.count, using: &random)].validCoordinate
                : coordinate(&random)
            places.append(
                Place(
                    geonameId: id * 7 % 100_003, name: "P\(id)", asciiName: "P\(id)", countryCode: "ZZ",
                    population: [0, 0, 500, 1000, 1000, 50_000][Int.random(in: 0..<6, using: &random)],
                    latitude: spot.latitude, longitude: spot.longitude))
        }
        return places
    }
}

/// The search's box gap, written for the processor's maximum, is the `Swift.max` formula it
/// replaced, bit for bit, on points inside, outside and on the edges of boxes, with signed zeros,
/// infinite (empty) boxes and boxes whose bounds are crossed.
@Suite struct BoxGapTests {
    @Test func theGapIsSwiftMaxOfTheTwoSidesAndZero() {
        var random = SeededGenerator(state: 9)
        var cases: [(Float, Double, Float)] = [
            (0, 0, 0), (0, -0.0, 0), (-0.0, 0, -0.0), (1, 1, 1), (.infinity, 0.5, -.infinity), (-1, 2, 1), (-1, -2, 1),
            (0.5, 0.25, -0.5),
        ]
        for _ in 0..<100_000 {
            let a = Float.random(in: -1...1, using: &random), b = Float.random(in: -1...1, using: &random)
            let q = Bool.random(using: &random) ? Double(a) : Double.random(in: -1.1...1.1, using: &random)
            cases.append((min(a, b), q, max(a, b)))
            cases.append((max(a, b), q, min(a, b)))
        }
        for (low, q, high) in cases {
            let expected = Swift.max(Swift.max(Double(low) - q, q - Double(high)), 0)
            #expect(UnsafePlaceTable.gap(low, q, high).bitPattern == expected.bitPattern, "\(low) \(q) \(high)")
        }
    }
}

/// The exact answer, by looking at every place: smallest squared chord, then larger population,
/// then smaller geonameid.
struct BruteForce {
    let places: [Place]
    let xs: [Double], ys: [Double], zs: [Double]
    let populations: [Int], ids: [Int]

    init(_ places: [Place]) {
        self.places = places
        let vectors = places.map(\.validCoordinate.unitVector)
        xs = vectors.map(\.x)
        ys = vectors.map(\.y)
        zs = vectors.map(\.z)
        populations = places.map(\.population)
        ids = places.map(\.geonameId)
    }

    /// Whether place `a` at squared chord `da` ranks before place `b` at `db`.
    func before(_ da: Double, _ a: Int, _ db: Double, _ b: Int) -> Bool {
        if da != db { return da < db }
        return populations[a] != populations[b] ? populations[a] > populations[b] : ids[a] < ids[b]
    }

    func squaredChord(_ q: SIMD3<Double>, _ index: Int) -> Double {
        let dx = q.x - xs[index], dy = q.y - ys[index], dz = q.z - zs[index]
        return dx * dx + dy * dy + dz * dz
    }

    /// The single nearest place, in one pass.
    func nearest(to query: Coordinate) -> Place {
        let q = query.unitVector
        var best = 0
        var bestDistance = squaredChord(q, 0)
        for index in 1..<places.count {
            let distance = squaredChord(q, index)
            if distance <= bestDistance, before(distance, index, bestDistance, best) {
                best = index
                bestDistance = distance
            }
        }
        return places[best]
    }

    /// The `count` nearest places that pass `filter`, nearest first.
    func nearest(to query: Coordinate, count: Int, filter: PlaceFilter = .none) -> [Place] {
        let q = query.unitVector
        var ranked: [(Double, Int)] = []
        for index in places.indices where populations[index] >= filter.minimumPopulation {
            if let limit = filter.maximumDistanceKm, places[index].validCoordinate.distanceKm(to: query) > limit {
                continue
            }
            ranked.append((squaredChord(q, index), index))
        }
        ranked.sort { before($0.0, $0.1, $1.0, $1.1) }
        return ranked.prefix(count).map { places[$0.1] }
    }
}

@Suite struct NearestPlaceTests {
    static let places = RandomPlaces.table(count: 2_000, seed: 42)
    static let geocoder = try! ReverseGeocoder(
        tableBytes: PlaceTableBuilder(source: "random", date: "2026-01-01").build(places))
    static let brute = BruteForce(places)

    @Test func treeAgreesWithBruteForceOn10000RandomQueries() {
        var random = SeededGenerator(state: 7)
        var disagreements = 0
        for _ in 0..<10_000 {
            let query = RandomPlaces.coordinate(&random)
            let expected = Self.brute.nearest(to: query)
            let found = Self.geocoder.nearestPlace(to: query)
            // Compare distances (to rounding: the tree reports the vector form of the same
            // great-circle distance), then the tie-broken identity.
            if found?.place.geonameId != expected.geonameId
                || abs((found?.distanceKm ?? .infinity) - expected.validCoordinate.distanceKm(to: query)) > 1e-9
            {
                disagreements += 1
            }
        }
        #expect(disagreements == 0)
    }

    @Test func queriesOnTopOfPlacesFindThemOrTheirTieWinner() {
        for place in Self.places.prefix(500) {
            let expected = Self.brute.nearest(to: place.validCoordinate)
            let found = Self.geocoder.nearestPlace(to: place.validCoordinate)
            #expect(found?.place.geonameId == expected.geonameId)
            #expect(found?.distanceKm == 0)  // the same vector: exactly zero
        }
    }

    @Test(arguments: [1, 2, 5, 17])
    func kNearestIsTheSameListAsBruteForce(k: Int) {
        var random = SeededGenerator(state: UInt64(100 + k))
        for _ in 0..<500 {
            let query = RandomPlaces.coordinate(&random)
            let expected = Self.brute.nearest(to: query, count: k).map(\.geonameId)
            #expect(Self.geocoder.nearestPlaces(to: query, count: k).map(\.place.geonameId) == expected)
        }
    }

    @Test func filtersAgreeWithBruteForce() {
        var random = SeededGenerator(state: 99)
        for _ in 0..<1_000 {
            let query = RandomPlaces.coordinate(&random)
            let filter = PlaceFilter(
                maximumDistanceKm: [nil, 50, 500, 3000][Int.random(in: 0..<4, using: &random)],
                minimumPopulation: [0, 1, 1000, 50_000][Int.random(in: 0..<4, using: &random)])
            let expected = Self.brute.nearest(to: query, count: 3, filter: filter).map(\.geonameId)
            #expect(Self.geocoder.nearestPlaces(to: query, count: 3, filter: filter).map(\.place.geonameId) == expected)
            #expect(Self.geocoder.nearestPlace(to: query, filter: filter)?.place.geonameId == expected.first)
        }
    }

    @Test func maximumDistanceIncludesAPlaceExactlyAtTheLimit() throws {
        let place = Self.places[123]
        let query = try #require(Coordinate(latitude: place.latitude + 0.3, longitude: place.longitude))
        let nearest = try #require(Self.geocoder.nearestPlace(to: query))
        let distance = nearest.distanceKm
        #expect(
            Self.geocoder.nearestPlace(to: query, filter: PlaceFilter(maximumDistanceKm: distance))?.place
                == nearest.place)
        #expect(Self.geocoder.nearestPlace(to: query, filter: PlaceFilter(maximumDistanceKm: distance.nextDown)) == nil)
        #expect(Self.geocoder.nearestPlace(to: query, filter: PlaceFilter(maximumDistanceKm: 0)) == nil)
        #expect(Self.geocoder.nearestPlace(to: query, filter: PlaceFilter(maximumDistanceKm: -1)) == nil)
    }

    @Test func minimumPopulationIncludesAPlaceExactlyAtTheLimit() throws {
        let place = try #require(Self.places.first { $0.population == 50_000 })
        let atLimit = PlaceFilter(minimumPopulation: 50_000), above = PlaceFilter(minimumPopulation: 50_001)
        #expect(Self.geocoder.nearestPlace(to: place.validCoordinate, filter: atLimit)?.place.population == 50_000)
        #expect(Self.geocoder.nearestPlace(to: place.validCoordinate, filter: above) == nil)
    }

    @Test func resultsCarryDistanceAndBearingFromThePlaceToThePoint() throws {
        let place = Self.places[5]
        let query = try #require(Coordinate(latitude: max(-90, place.latitude - 0.01), longitude: place.longitude))
        let match = try #require(
            Self.geocoder.nearestPlaces(to: query, count: 3).first { $0.place.geonameId == place.geonameId })
        #expect(abs(match.distanceKm - place.validCoordinate.distanceKm(to: query)) < 1e-9)
        #expect(abs(match.bearing - place.validCoordinate.bearing(to: query)) < 1e-9)
        #expect(abs(match.bearing - 180) < 1e-6 || place.latitude <= -89.99)  // the point is due south
    }

    @Test func anEmptyTableFindsNothing() throws {
        let empty = try ReverseGeocoder(tableBytes: PlaceTableBuilder(source: "none", date: "2026-01-01").build([]))
        #expect(empty.placeCount == 0)
        #expect(empty.nearestPlace(to: Coordinate(latitude: 1, longitude: 2)!) == nil)
        #expect(empty.nearestPlaces(to: Coordinate(latitude: 1, longitude: 2)!, count: 3) == [])
    }
}

extension Place {
    /// The coordinate of a test place, all of which are made valid: a bad one stops the test.
    var validCoordinate: Coordinate { coordinate! }
}
