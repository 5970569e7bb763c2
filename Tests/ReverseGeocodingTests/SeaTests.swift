import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// Issue 27, §4: the named sea of a point at sea, from a table of Natural Earth's marine polygons
/// (`boundaries import --seas`), the smallest containing one winning where they overlap.
@Suite struct SeaTests {
    static func parse(_ coordinates: String, rounding: Bool) throws(BoundaryError) -> [BoundaryFeature] {
        let text =
            "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{\"name\":\"S\"},"
            + "\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":\(coordinates)}}\n]}"
        return try GeoJSONReader.parse(Array(text.utf8), name: "m.geojson", rounding: rounding)
    }

    /// Six decimals are an error for the boundary layers, and rounded (half away from zero, from
    /// the digits) for the seas.
    @Test func roundingTakesSixDecimalsToTheGridExactly() throws {
        let ring = "[[[[0.000005,-0.000005],[1.123454,0],[1.123456,1],[-0.0000149,1],[0.000005,-0.000005]]]]"
        #expect(
            throws: BoundaryError.badGeoJSON(
                path: "m.geojson", line: 2, reason: "a coordinate with more than 5 decimals")
        ) {
            try Self.parse(ring, rounding: false)
        }
        let features = try Self.parse(ring, rounding: true)
        #expect(
            features[0].polygons[0][0] == [
                GridPoint(x: 1, y: -1), GridPoint(x: 112_345, y: 0), GridPoint(x: 112_346, y: 100_000),
                GridPoint(x: -1, y: 100_000), GridPoint(x: 1, y: -1),
            ])
    }

    /// A vertex that rounding makes a repeat of the one before is dropped; a ring left with
    /// fewer than four positions is dropped, and a sliver exterior takes its holes with it.
    @Test func roundingDropsRepeatsAndSlivers() throws {
        let square = "[[0,0],[1,0],[1,1],[0,1],[0,0]]"
        let repeated = "[[0,0],[1,0],[1.000001,0],[1,1],[0,1],[0,0]]"
        let sliver = "[[5,5],[5.000001,5],[5.000002,5.000001],[5,5]]"
        let hole = "[[5.000001,5.000001],[5.000002,5.000001],[5.000001,5.000002],[5.000001,5.000001]]"
        let features = try Self.parse("[[\(repeated)],[\(sliver),\(hole)],[\(square)]]", rounding: true)
        #expect(features[0].polygons.count == 2)
        #expect(features[0].polygons[0][0].count == 5)
        #expect(features[0].polygons[1] == features[0].polygons[0])
        // A polygon with no ring at all is still an error.
        #expect(throws: BoundaryError.self) { try Self.parse("[[]]", rounding: true) }
    }

    static func square(
        _ name: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = false
    )
        -> BoundaryFeature
    {
        var feature = BoundaryTests.square([("name", name)], x0, y0, x1, y1)
        if clockwise { feature.polygons[0][0].reverse() }
        return feature
    }

    /// An ocean, a gulf in it drawn clockwise (Natural Earth's rings wind either way) and a bay in
    /// the gulf: a point is in the smallest of those that contain it.
    @Test func theSmallestContainingSeaWinsWhateverItsRingsWinding() throws {
        let seas = [
            Self.square("Ocean", -50, -50, 50, 50), Self.square("Gulf", 0, 0, 20, 20, clockwise: true),
            Self.square("Bay", 5, 5, 10, 10),
        ]
        let bytes = try BoundaryTableBuilder(source: "m", date: "2026-12-02")
            .build(timeZones: [], countries: [], admin1: [], seas: seas)
        let table = try BoundaryTable(tableBytes: bytes)
        #expect(table.seaCount == 3 && table.timeZoneCount == 0 && table.countryCount == 0)
        func sea(_ latitude: Double, _ longitude: Double) -> String? {
            table.sea(Coordinate(latitude: latitude, longitude: longitude)!).map(table.seaName)
        }
        #expect(sea(7, 7) == "Bay")
        #expect(sea(15, 15) == "Gulf")
        #expect(sea(-30, 10) == "Ocean")
        #expect(sea(60, 10) == nil)
        #expect(BoundaryTableBuilder.unsignedTwiceArea(seas[1]) == 2 * 20 * 20 * 100_000 * 100_000)
        // The other layers of a table with seas answer as before.
        let both = try BoundaryTable(
            tableBytes: try BoundaryTableBuilder(source: "m", date: "2026-12-02").build(
                timeZones: [], countries: [BoundaryTests.square([("countryCode", "AA")], 6, 6, 7, 7)], admin1: [],
                seas: seas))
        let inside = both.features(latitude: 6.5, longitude: 6.5)
        #expect(inside.country == 0 && inside.sea == 0 + 2)
        #expect(both.seaName(2) == "Bay" && both.countryCode(0) == "AA")
    }

    /// A sea without a name is refused, naming the file.
    @Test func aSeaNeedsAName() {
        let feature = BoundaryTests.square([("label", "x")], 0, 0, 1, 1)
        #expect(throws: BoundaryError.missingProperty(path: "m.geojson", line: 1, name: "name")) {
            try BoundaryTableBuilder(source: "m", date: "d")
                .build(timeZones: [], countries: [], admin1: [], seas: [feature], seasName: "m.geojson")
        }
    }

    /// The bundled sea table: Natural Earth's 295 named marine polygons (of 306; 11 have no
    /// name), valid as a table from outside would have to be, every name in mixed case.
    @Test func theBundledSeaTableHoldsNaturalEarthsSeas() throws {
        let table = BoundaryTable.bundledSeas
        #expect(table.seaCount == 295)
        let names = (0..<table.seaCount).map(table.seaName)
        #expect(names.allSatisfy { !$0.isEmpty && $0.contains(where: \.isLowercase) })
        #expect(names.contains("Indian Ocean") && names.contains("Southern Ocean") && names.contains("Øresund"))
        #expect(table.timeZoneCount == 0 && table.countryCount == 0 && table.admin1Count == 0)
        #expect(table.view.validateStrings())
        #expect(UnsafeBoundaryTable.checksumMatches(table.view.bytes))
        func sea(_ latitude: Double, _ longitude: Double) -> String? {
            table.sea(Coordinate(latitude: latitude, longitude: longitude)!).map(table.seaName)
        }
        #expect(sea(50.2, -1.5) == "English Channel")
        #expect(sea(26, -90) == "Gulf of Mexico")
        #expect(sea(39.5, 12) == "Tyrrhenian Sea")
        #expect(sea(0, -30) == "South Atlantic Ocean")
        // The one overlap of the data: the Great Barrier Reef lies inside the Coral Sea.
        #expect(sea(-23.35, 152.65) == "Great Barrier Reef")
        #expect(sea(-15, 155) == "Coral Sea")
        // Far inland, no sea.
        #expect(sea(48.85, 2.35) == nil)
    }

    /// The locator names the sea only at sea: a point on a coast that Natural Earth's label area
    /// overlaps keeps its country and has no sea.
    @Test func theLocatorNamesTheSeaOnlyAtSea() throws {
        let locator = PlaceLocator.bundled
        let channel = locator.answer(Coordinate(latitude: 50.2, longitude: -1.5)!)
        #expect(channel.atSea && channel.sea == "English Channel" && channel.countryCode == nil)
        #expect(channel.nearest?.place.name == "Niton")
        // Dover's harbour: inside the English Channel's polygon and inside GB.
        #expect(BoundaryTable.bundledSeas.sea(Coordinate(latitude: 51.12, longitude: 1.33)!) != nil)
        let dover = locator.answer(Coordinate(latitude: 51.12, longitude: 1.33)!)
        #expect(!dover.atSea && dover.sea == nil && dover.countryCode == "GB")
        // Without a sea table, no sea.
        let plain = PlaceLocator(geocoder: .bundled, boundaries: .bundled)
        #expect(plain.answer(Coordinate(latitude: 50.2, longitude: -1.5)!).sea == nil)
    }
}
