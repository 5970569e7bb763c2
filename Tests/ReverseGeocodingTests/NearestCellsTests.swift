import TestSupport
import Testing

@testable import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The nearest place found through ``NearestCells`` (a cell's candidates, or a search started
/// from its seed) is the one a search of the whole tree from its root finds, and the one a look
/// at every place finds: ties, poles, ±180° and cell edges included, on the bundled table and on
/// a random one with many exact ties.
@Suite struct NearestCellsTests {
    /// The nearest place by a search of the tree with no start, as before the cells.
    static func treeSearch(_ geocoder: ReverseGeocoder, _ query: Coordinate) -> Int {
        var best = UnsafePlaceTable.Best(worst: .infinity)
        geocoder.table.search(query.unitVector, minimumPopulation: 0, into: &best)
        return best.slot
    }

    /// The nearest place by looking at every place: smallest squared chord (as the search
    /// computes it), then the search's tie-break.
    static func everyPlace(_ geocoder: ReverseGeocoder, _ query: Coordinate) -> Int {
        let table = geocoder.table, q = query.unitVector
        var best = -1, bestSquared = Double.infinity
        for slot in 0..<table.count {
            let squared = table.squaredChord(q, slot)
            if best < 0 || squared < bestSquared || (squared == bestSquared && table.ranksBefore(slot, best)) {
                (best, bestSquared) = (slot, squared)
            }
        }
        return best
    }

    /// What `geocode` asks: the nearest place with no filter, through the cells.
    static func throughCells(_ geocoder: ReverseGeocoder, _ query: Coordinate) -> Int {
        geocoder.nearestSlot(query, query.unitVector, .none)
    }

    /// Random points, each with three more in the same cell (so that cells worked out by one
    /// point answer others), and points on cell edges and corners, at the poles and at ±180°.
    static func points(count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededGenerator(state: seed)
        var points: [Coordinate] = []
        for _ in 0..<count {
            let point = RandomPlaces.coordinate(&random)
            points.append(point)
            let south = min(89, (point.latitude).rounded(.down)), west = min(179, (point.longitude).rounded(.down))
            for _ in 0..<3 {
                points.append(
                    Coordinate(
                        latitude: south + .random(in: 0...1, using: &random),
                        longitude: west + .random(in: 0...1, using: &random))!)
            }
        }
        for latitude in [-90, -89.999_999, -89, -45.5, 0, 0.5, 45, 88.999_999_9, 89, 90] {
            for longitude in [-180, -179.999_999_9, -179, -0.000_001, 0, 1, 179.999_999_9, 180] {
                points.append(Coordinate(latitude: latitude, longitude: longitude)!)
            }
        }
        for _ in 0..<200 {  // cell corners
            points.append(
                Coordinate(
                    latitude: Double(Int.random(in: -90...90, using: &random)),
                    longitude: Double(Int.random(in: -180...180, using: &random)))!)
        }
        return points
    }

    @Test func theCellsGiveTheTreeSearchsAnswerOnTheBundledTable() throws {
        let geocoder = ReverseGeocoder.bundled
        var disagreements: [Coordinate] = []
        var listed = 0, searched = 0
        for point in Self.points(count: 3_000, seed: 14) {
            if Self.throughCells(geocoder, point) != Self.treeSearch(geocoder, point) { disagreements.append(point) }
            let entry = try #require(geocoder.cells.entry(NearestCells.cell(point)))
            if entry.candidates != nil { listed += 1 } else { searched += 1 }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        // Both ways of answering were used.
        #expect(listed > 1_000)
        #expect(searched > 1_000)
    }

    @Test func theCellsGiveTheAnswerOfEveryPlaceOnTheBundledTable() {
        let geocoder = ReverseGeocoder.bundled
        for point in Self.points(count: 100, seed: 15) {
            #expect(Self.throughCells(geocoder, point) == Self.everyPlace(geocoder, point), "\(point)")
        }
    }

    /// A random table where every tenth place sits on an earlier one (so distances tie) and
    /// places are few (so most cells list their candidates), in a geocoder of its own (its
    /// cells start empty).
    @Test func theCellsBreakTiesAsEveryPlaceDoesOnARandomTable() throws {
        let places = RandomPlaces.table(count: 3_000, seed: 21)
        let geocoder = try ReverseGeocoder(
            tableBytes: PlaceTableBuilder(source: "random", date: "2026-01-01").build(places))
        var points = Self.points(count: 500, seed: 22)
        // Points on top of places: a tie between a place and the ones stacked on it.
        points += places.prefix(300).map(\.validCoordinate)
        for point in points {
            #expect(Self.throughCells(geocoder, point) == Self.everyPlace(geocoder, point), "\(point)")
            #expect(
                geocoder.nearestPlaceView(to: point)?.view.slot == Self.everyPlace(geocoder, point), "\(point)")
        }
    }

    /// A new grid has no cell worked out (what it costs in page faults is PerformanceTests').
    @Test func aNewGridHasNoCellWorkedOut() {
        let cells = NearestCells()
        #expect((0..<64_800).allSatisfy { cells.entry($0) == nil })
    }

    @Test func aCellsRadiusReachesItsCorners() {
        // Every point of a cell is within its radius of the centre (the cells at a pole, at the
        // equator and at ±180° among them).
        var random = SeededGenerator(state: 23)
        let cells = NearestCells()
        for cell in [0, 359, 64_440, 64_799, 32_400, 32_399]
            + (0..<300).map({ _ in Int.random(in: 0..<64_800, using: &random) })
        {
            let south = Double(cell / 360) - 90, west = Double(cell % 360) - 180
            let centre = NearestCells.centre(cell)
            for (dy, dx) in [(0.0, 0.0), (0, 1), (1, 0), (1, 1), (0.5, 0), (0, 0.5), (1, 0.5), (0.5, 1)] {
                let point = Coordinate(latitude: south + dy, longitude: west + dx)!
                #expect(
                    NearestCells.cell(Coordinate(latitude: south + dy * 0.999, longitude: west + dx * 0.999)!) == cell)
                let angle =
                    2 * asin(min(1, ((point.unitVector - centre) * (point.unitVector - centre)).sum().squareRoot() / 2))
                #expect(angle <= cells.radius(cell), "cell \(cell) corner \(dy) \(dx)")
            }
        }
    }
}
