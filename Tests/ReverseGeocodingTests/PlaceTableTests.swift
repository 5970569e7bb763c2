import TestSupport
import Testing

@testable import ReverseGeocoding

/// The place table's own guarantees: the search's stack bound, the checks made when a table is
/// opened, and the builder's refusal of bad places.
@Suite struct PlaceTableTests {
    /// `count` places at one spot, with distinct populations and ids.
    static func identicalPlaces(_ count: Int) -> [Place] {
        (0..<count).map { index in
            Place(
                geonameId: index + 1, name: "P\(index)", asciiName: "P\(index)", countryCode: "ZZ",
                population: index % 7, latitude: 12.5, longitude: -45.25)
        }
    }

    /// The deepest leaf of the implicit tree, found by walking every node as the search splits them.
    static func walkedDepth(_ count: Int, leafSize: Int) -> Int {
        func depth(_ lo: Int, _ hi: Int) -> Int {
            guard hi - lo > leafSize else { return 0 }
            let mid = lo + (hi - lo) / 2
            return 1 + max(depth(lo, mid), depth(mid, hi))
        }
        return depth(0, count)
    }

    @Test func theTreeDepthIsTheDepthOfTheTreeTheSearchWalks() {
        for leafSize in [1, 2, 3, 8] {
            for count in 0...600 {
                #expect(
                    UnsafePlaceTable.treeDepth(count: count, leafSize: leafSize)
                        == Self.walkedDepth(count, leafSize: leafSize))
            }
        }
        // The largest count the format holds stays within the search's bound.
        #expect(UnsafePlaceTable.treeDepth(count: Int(UInt32.max), leafSize: 1) == UnsafePlaceTable.maximumTreeDepth)
    }

    /// Identical places give degenerate boxes that are all at distance 0, so the search keeps a
    /// pending subtree at every level: its stack is filled to the tree's depth, and a subtree
    /// dropped for want of room would lose places.
    @Test func aSearchOverIdenticalPlacesFindsEveryOne() throws {
        let places = Self.identicalPlaces(5_000)
        let geocoder = try ReverseGeocoder(
            tableBytes: PlaceTableBuilder(source: "test", date: "2026-01-01").build(places))
        #expect(geocoder.table.depth == Self.walkedDepth(5_000, leafSize: PlaceTableBuilder.leafSize))
        let query = try #require(Coordinate(latitude: 12.5, longitude: -45.25))
        let found = geocoder.nearestPlaces(to: query, count: places.count)
        #expect(found.count == places.count)
        #expect(Set(found.map(\.place.geonameId)) == Set(places.map(\.geonameId)))
        // Ties are ranked by larger population, then smaller geonameid.
        let expected = places.sorted {
            $0.population != $1.population ? $0.population > $1.population : $0.geonameId < $1.geonameId
        }
        #expect(found.map(\.place.geonameId) == expected.map(\.geonameId))
        #expect(geocoder.nearestPlace(to: query)?.place.geonameId == expected[0].geonameId)
    }

    /// A table held in memory is checked as a file is: names that are not UTF-8 are refused.
    @Test func aTableInMemoryWithACorruptStringPoolIsRejected() throws {
        var places = Self.identicalPlaces(20)
        places[3].name = "Zqxjvw"
        var bytes = try PlaceTableBuilder(source: "test", date: "2026-01-01").build(places)
        #expect(throws: Never.self) { try ReverseGeocoder(tableBytes: bytes) }
        let name = Array("Zqxjvw".utf8)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: name) })
        bytes[start + 2] = 0xFF  // never valid in UTF-8
        bytes = TableChecksumTests.resealed(bytes, header: PlaceTableLayout.headerSize)  // crafted, not damaged
        #expect(
            throws: ReverseGeocodingError.notAPlaceTable(
                path: "the place table", reason: "its names are not valid UTF-8")
        ) {
            try ReverseGeocoder(tableBytes: bytes)
        }
    }

    /// A place the builder cannot place is an error, not a crash.
    @Test func theBuilderRejectsAnInvalidCoordinate() {
        var places = Self.identicalPlaces(3)
        places[1].latitude = 91
        #expect(throws: ReverseGeocodingError.invalidCoordinate(geonameId: 2, latitude: 91, longitude: -45.25)) {
            try PlaceTableBuilder(source: "test", date: "2026-01-01").build(places)
        }
        places[1].latitude = .nan
        #expect(throws: ReverseGeocodingError.self) {
            try PlaceTableBuilder(source: "test", date: "2026-01-01").build(places)
        }
        #expect(places[1].coordinate == nil)
    }
}
