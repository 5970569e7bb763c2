import PhotoTagSupport
import TestSupport
import Testing

@testable import ReverseGeocoding

/// The invariants behind ReverseGeocoding's `@unchecked Sendable` and `nonisolated(unsafe)`
/// declarations, each exercised the way the CLI uses it: one shared geocoder, boundary table or
/// set of tz rules, reached from many threads at once (`onThreads`, as the scan's readers), with
/// answers that must be those of one thread alone. Run under ThreadSanitizer
/// (`PHOTOTAG_SANITIZER=thread swift test --sanitize=thread --filter Concurrency`), a broken
/// invariant is a reported race even when the answers happen to come out right.
@Suite struct ConcurrencyInvariantTests {
    static let threads = 8

    /// The bundled tables as files (the committed bytes), so that a test opens a fresh copy:
    /// mapped (``MappedFile``) with a ``NearestCells`` grid of its own that no other test has
    /// worked out yet.
    static let placesPath = BuiltProducts.root + "/Sources/CGeoNamesData/places.table"
    static let boundariesPath = BuiltProducts.root + "/Sources/CBoundaryData/boundaries.table"
    static let seasPath = BuiltProducts.root + "/Sources/CBoundaryData/seas.table"

    /// Random points (the poles, the antimeridian and the open sea included), and points packed
    /// into a few cells, which many threads then work out at once.
    static func points(_ count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededGenerator(state: seed)
        var points = (0..<count / 2).map { _ in RandomPlaces.coordinate(&random) }
        for index in 0..<(count - count / 2) {
            let cell = index % 16
            points.append(
                Coordinate(
                    latitude: Double(cell * 7 - 50) + .random(in: 0..<1, using: &random),
                    longitude: Double(cell * 19 - 150) + .random(in: 0..<1, using: &random))!)
        }
        points.shuffle(using: &random)
        return points
    }

    /// `answer(item)` for every item, worked out by ``threads`` threads at once (thread `t` takes
    /// items `t`, `t + threads`…), in item order.
    ///
    /// Each thread keeps its answers until it has them all and hands them over under a lock only
    /// then: a lock taken after each answer would order the threads' work (each unlock before the
    /// next thread's lock), and ThreadSanitizer would see no race where the code under test has
    /// one.
    static func inParallel<Item: Sendable, Answer: Sendable>(
        _ items: [Item], _ answer: @escaping @Sendable (Item) -> Answer
    ) -> [Answer] {
        let answers = Locked([Answer?](repeating: nil, count: items.count))
        onThreads(threads) { thread in
            let mine = stride(from: thread, to: items.count, by: threads).map { ($0, answer(items[$0])) }
            answers.withLock { answers in
                for (index, found) in mine { answers[index] = found }
            }
        }
        return answers.withLock { $0.map { $0! } }
    }

    /// `UnsafePlaceTable` (`@unchecked Sendable`) and `MappedFile` (`nonisolated(unsafe) let
    /// bytes`): the table's memory is only read, so threads searching one mapped table at once
    /// find what one thread finds. The filtered searches walk the k-d tree (no cells); the
    /// shared names (regions, time zones) are decoded under the geocoder's lock.
    @Test func aMappedPlaceTableSearchedByManyThreadsGivesOneThreadsAnswers() throws {
        let geocoder = try ReverseGeocoder(contentsOf: Self.placesPath)
        let points = Self.points(1_200, seed: 51)
        let filter = PlaceFilter(maximumDistanceKm: 2_000, minimumPopulation: 5_000)
        let serial = try ReverseGeocoder(contentsOf: Self.placesPath)
        let expected = points.map {
            [serial.nearestPlace(to: $0, filter: filter)] + serial.nearestPlaces(to: $0, count: 3).map(Optional.some)
        }
        let found = Self.inParallel(points) { point in
            [geocoder.nearestPlace(to: point, filter: filter)]
                + geocoder.nearestPlaces(to: point, count: 3).map(Optional.some)
        }
        #expect(found == expected)
    }

    /// `NearestCells` (`@unchecked Sendable`): a cell is claimed by one thread (compare and
    /// exchange), its candidates written by that thread alone and published with a release store,
    /// which an acquire load pairs with. Many threads meet in the same fresh cells at once, and
    /// each answer is the one a search of the whole tree gives.
    @Test func freshCellsWorkedOutByManyThreadsAtOnceGiveTheTreeSearchsAnswers() throws {
        // From an array, so that the table is ``AlignedTableBytes`` (`nonisolated(unsafe) let bytes`).
        let geocoder = try ReverseGeocoder(tableBytes: TestSupport.readWholeFile(Self.placesPath))
        let points = Self.points(4_000, seed: 52)
        let expected = points.map { NearestCellsTests.treeSearch(geocoder, $0) }
        #expect(geocoder.cells.entry(NearestCells.cell(points[0])) == nil)
        let found = Self.inParallel(points) { NearestCellsTests.throughCells(geocoder, $0) }
        #expect(found == expected)
        #expect(points.allSatisfy { geocoder.cells.entry(NearestCells.cell($0)) != nil })
    }

    /// `UnsafeBoundaryTable` (`@unchecked Sendable`): the boundary table's memory is only read;
    /// many threads looking points up in one mapped table (with its fallback) find what one
    /// thread finds.
    @Test func aMappedBoundaryTableLookedUpByManyThreadsGivesOneThreadsAnswers() throws {
        let table = try BoundaryTable(contentsOf: Self.boundariesPath)
        let points = Self.points(2_000, seed: 53)
        let expected = points.map(BoundaryTable.bundled.lookup)
        let found = Self.inParallel(points) { table.lookup($0) }
        #expect(found == expected)
    }

    /// `TimeZoneRules` (`@unchecked Sendable`): the rules' memory (inside the boundary table) is
    /// only read, and their POSIX rules are immutable objects; many threads asking one set of
    /// rules for offsets and wall-clock instants get one thread's answers.
    @Test func sharedTimeZoneRulesAskedByManyThreadsGiveOneThreadsAnswers() throws {
        let table = try BoundaryTable(contentsOf: Self.boundariesPath)
        let rules = try #require(table.rules)
        let names = rules.zoneNames
        var random = SeededGenerator(state: 54)
        let questions = (0..<3_000).map { _ in
            (
                names[Int.random(in: 0..<names.count, using: &random)],
                Int64.random(in: -2_000_000_000...4_000_000_000, using: &random)
            )
        }
        @Sendable func answer(_ rules: TimeZoneRules, _ question: (String, Int64)) -> [String] {
            let zone = rules.zone(named: question.0)!
            let local = CivilDateTime(secondsSinceEpoch: question.1)
            return ["\(rules.offset(zone, atUTC: question.1))", "\(rules.utc(fromLocal: local, zone: zone))"]
        }
        let bundled = try #require(BoundaryTable.bundled.rules)
        let expected = questions.map { answer(bundled, $0) }
        let found = Self.inParallel(questions) { answer(rules, $0) }
        #expect(found == expected)
    }

    /// `UnsafeLocation` (`@unchecked Sendable`): a location made on one thread is read on another
    /// (the scan hands its records to the thread that writes them). Its borrowed names point into
    /// the locator's immutable tables, so they read the same there, while the locator lives.
    @Test func locationsMadeOnManyThreadsReadTheSameOnAnother() throws {
        let locator = PlaceLocator(
            geocoder: try ReverseGeocoder(contentsOf: Self.placesPath),
            boundaries: try BoundaryTable(contentsOf: Self.boundariesPath),
            seas: try BoundaryTable(contentsOf: Self.seasPath))
        let points = Self.points(2_000, seed: 55)
        let expected = points.map { PlaceLocator.bundled.answer($0) }
        let locations = Self.inParallel(points) { locator.locate($0) }
        #expect(locations.map(PlaceAnswer.init) == expected)
        withExtendedLifetime(locator) {}
    }
}
