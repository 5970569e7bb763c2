import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// Where the boundary GeoJSON files are (`../shared/boundaries`, or `PHOTOTAG_SHARED`), or `nil`
/// when they are absent (the tests that need them are then skipped, with the reason).
private let sharedBoundaries: String? = {
    let directory = SharedData.path("boundaries")
    return FileManager.default.fileExists(atPath: directory + "/timezones.geojson") ? directory : nil
}()

/// A point-in-polygon reference straight from the GeoJSON features: for each feature, the parity
/// of the edges crossed by the eastward ray, with the same tie rule as the table (an edge counts
/// when `(ay <= qy) != (by <= qy)` and it crosses strictly east of `qx`). Edges are bucketed by
/// latitude band only to keep the test fast; every edge meeting the band is tested.
private struct PolygonBruteForce {
    static let bandShift: Int64 = 16  // 65,536 query units, about 0.01 degree
    /// Per band: (global feature number, ax, ay, bx, by) in query units.
    var bands: [Int64: [(Int, Int64, Int64, Int64, Int64)]] = [:]
    let featureCount: Int

    init(_ features: [BoundaryFeature]) {
        featureCount = features.count
        let scale = BoundaryTableLayout.scale
        for (number, feature) in features.enumerated() {
            for polygon in feature.polygons {
                for ring in polygon {
                    for index in 0..<ring.count - 1 {
                        let a = ring[index], b = ring[index + 1]
                        let edge = (
                            number, Int64(a.x) * scale, Int64(a.y) * scale, Int64(b.x) * scale, Int64(b.y) * scale
                        )
                        guard edge.2 != edge.4 else { continue }  // horizontal edges never count
                        for band in (min(edge.2, edge.4) >> Self.bandShift)...(max(edge.2, edge.4) >> Self.bandShift) {
                            bands[band, default: []].append(edge)
                        }
                    }
                }
            }
        }
    }

    /// The features containing the query point, in order.
    func containing(_ qx: Int64, _ qy: Int64) -> [Int] {
        var parity: [Int: Bool] = [:]
        for (feature, ax, ay, bx, by) in bands[qy >> Self.bandShift] ?? [] where (ay <= qy) != (by <= qy) {
            // x of the crossing > qx  <=>  (ax - qx)(by - ay) + (qy - ay)(bx - ax) has the sign of (by - ay).
            let value = (ax - qx) * (by - ay) + (qy - ay) * (bx - ax)
            if (by > ay) ? value > 0 : value < 0 { parity[feature, default: false].toggle() }
        }
        return parity.filter(\.value).keys.sorted()
    }
}

@Suite struct BoundaryTests {
    static let table = BoundaryTable.bundled

    typealias Layers = (timeZones: [BoundaryFeature], countries: [BoundaryFeature], admin1: [BoundaryFeature])

    /// The three layers read from the shared files, once: the reader's error if one of them
    /// cannot be read, which fails the tests that use them.
    static let readLayers: Result<Layers, any Error> = Result {
        let directory = try #require(sharedBoundaries, "the tests that need the layers are enabled only with them")
        return (
            try GeoJSONReader.read(path: directory + "/timezones.geojson"),
            try GeoJSONReader.read(path: directory + "/countries.geojson"),
            try GeoJSONReader.read(path: directory + "/admin1.geojson")
        )
    }

    /// The three layers, or the error that read them.
    static func layers() throws -> Layers { try readLayers.get() }

    static let needsTheGeoJSON = ConditionTrait.enabled(
        if: sharedBoundaries != nil,
        "the boundary GeoJSON (\(SharedData.path("boundaries"))/timezones.geojson…) is not present")

    // MARK: the bundled table

    @Test func theBundledTableHoldsTheThreeLayers() {
        #expect(Self.table.timeZoneCount == 444)
        #expect(Self.table.countryCount == 250)
        #expect(Self.table.admin1Count == 3797)
        #expect(Self.table.source == "timezones.geojson, countries.geojson, admin1.geojson, tz rules, country names")
        #expect(Self.table.date == "2026-12-02")
        #expect(Self.table.byteCount <= 6_500_000)
        #expect(Self.table.timeZoneRules.count > 100_000 && Self.table.rules != nil)
    }

    @Test func everyFiniteHitHasAZone() {
        var generator = SeededGenerator(state: 11)
        for _ in 0..<2000 {
            let hit = Self.table.lookup(
                latitude: Double.random(in: -90...90, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator))
            #expect((1...2).contains(hit.timeZones.count))
        }
        #expect(Self.table.lookup(latitude: .nan, longitude: 0).timeZones.isEmpty)
    }

    @Test func thePoles() {
        let north = Self.table.lookup(latitude: 90, longitude: 0)
        #expect(north.timeZones == ["Etc/GMT"])
        #expect(north.isOcean)
        #expect(north.countryCode == nil)
        // Every longitude of the north pole is looked up just south of it, in the ocean zones.
        for longitude in stride(from: -180.0, through: 180, by: 15) {
            #expect(Self.table.lookup(latitude: 90, longitude: longitude).isOcean)
        }
        let south = Self.table.lookup(latitude: -90, longitude: 0)
        #expect(south.countryCode == "AQ")
        #expect(south.timeZones == ["Antarctica/McMurdo"])
        #expect(!south.isOcean)
        #expect(Self.table.lookup(latitude: -90, longitude: 120).countryCode == "AQ")
    }

    @Test func bothSidesOfTheAntimeridian() {
        // Fiji and Chukotka straddle it; 180 is the same meridian as -180.
        for longitude in [179.999, -179.999] {
            #expect(Self.table.lookup(latitude: -16.6, longitude: longitude).countryCode == "FJ")
            #expect(Self.table.lookup(latitude: 67.5, longitude: longitude).countryCode == "RU")
            #expect(Self.table.lookup(latitude: 67.5, longitude: longitude).timeZones == ["Asia/Anadyr"])
        }
        #expect(Self.table.lookup(latitude: 0, longitude: 180) == Self.table.lookup(latitude: 0, longitude: -180))
        #expect(Self.table.lookup(latitude: 0, longitude: 540) == Self.table.lookup(latitude: 0, longitude: -180))
        #expect(Self.table.lookup(latitude: 0, longitude: 179.9999).timeZones == ["Etc/GMT-12"])
        #expect(Self.table.lookup(latitude: 0, longitude: -179.9999).timeZones == ["Etc/GMT+12"])
    }

    @Test func enclaves() {
        // Baarle-Hertog: Belgian by country, zone and region (Flanders, BE.VLG): the admin-1
        // layer is cut to the country borders, so the enclave is not Noord-Brabant's.
        let baarle = Self.table.lookup(latitude: 51.4397, longitude: 4.9281)
        #expect(baarle.countryCode == "BE")
        #expect(baarle.timeZones == ["Europe/Brussels"])
        #expect(baarle.admin1 == BoundaryHit.Admin1(countryCode: "BE", code: "VLG"))
        // Baarle-Nassau around it is Dutch.
        #expect(Self.table.lookup(latitude: 51.4457, longitude: 4.9530).countryCode == "NL")
        // Llívia: Spanish (Catalonia) inside France.
        let llivia = Self.table.lookup(latitude: 42.465, longitude: 1.98)
        #expect(llivia.countryCode == "ES")
        #expect(llivia.timeZones == ["Europe/Madrid"])
        #expect(llivia.admin1 == BoundaryHit.Admin1(countryCode: "ES", code: "56"))
        #expect(Self.table.lookup(latitude: 42.46, longitude: 2.04).countryCode == "FR")
        // Campione d'Italia: Italian by country, zone and region (Lombardy, IT.09), not Ticino.
        let campione = Self.table.lookup(latitude: 45.9697, longitude: 8.9717)
        #expect(campione.countryCode == "IT")
        #expect(campione.timeZones == ["Europe/Rome"])
        #expect(campione.admin1 == BoundaryHit.Admin1(countryCode: "IT", code: "09"))
        #expect(Self.table.lookup(latitude: 46.0, longitude: 8.95).countryCode == "CH")
    }

    @Test func keptOverlapsGiveBothZones() {
        let urumqi = Self.table.lookup(latitude: 43.8, longitude: 87.6)
        #expect(urumqi.timeZones == ["Asia/Shanghai", "Asia/Urumqi"])
        #expect(urumqi.countryCode == "CN")
        #expect(Self.table.preferredZone(urumqi, nearestPlaceZone: "Asia/Urumqi") == "Asia/Urumqi")
        #expect(Self.table.preferredZone(urumqi, nearestPlaceZone: "Asia/Shanghai") == "Asia/Shanghai")
        // Neither zone is the nearest place's: the smaller zone.
        #expect(Self.table.preferredZone(urumqi, nearestPlaceZone: "Asia/Kabul") == "Asia/Urumqi")
        #expect(Self.table.preferredZone(urumqi, nearestPlaceZone: nil) == "Asia/Urumqi")
        let hebron = Self.table.lookup(latitude: 31.53, longitude: 35.1)
        #expect(Set(hebron.timeZones) == ["Asia/Hebron"] || Set(hebron.timeZones) == ["Asia/Hebron", "Asia/Jerusalem"])
        // One zone: that zone, whatever the nearest place says.
        let paris = Self.table.lookup(latitude: 48.85, longitude: 2.35)
        #expect(Self.table.preferredZone(paris, nearestPlaceZone: "Europe/Brussels") == "Europe/Paris")
    }

    @Test func coastalPointsTakeTheNearestAdmin1Region() {
        // In the harbour of Nice: France's territorial water, in no admin-1 polygon.
        let nice = Self.table.lookup(latitude: 43.69, longitude: 7.29)
        #expect(nice.countryCode == "FR")
        #expect(!nice.countryFromFallback)
        let inside = Self.table.lookup(latitude: 43.72, longitude: 7.25)
        #expect(inside.admin1 != nil)
        #expect(!inside.admin1FromFallback)
        // Off the coast of Fiji: the nearest Fijian region.
        let fiji = Self.table.lookup(latitude: -17, longitude: 179.99)
        #expect(fiji.countryCode == "FJ")
        #expect(fiji.admin1FromFallback)
        #expect(fiji.admin1?.countryCode == "FJ")
        // The open sea: no country, no region.
        let ocean = Self.table.lookup(latitude: 0, longitude: -30)
        #expect(ocean.countryCode == nil && ocean.admin1 == nil && ocean.isOcean)
    }

    // MARK: against the GeoJSON

    @Test(needsTheGeoJSON) func containmentAgreesWithBruteForceOn100kPoints() throws {
        let layers = try Self.layers()
        let all = layers.timeZones + layers.countries + layers.admin1
        let reference = PolygonBruteForce(all)
        var generator = SeededGenerator(state: 2026)
        var disagreements: [String] = []
        var onBorders = 0
        for index in 0..<100_000 {
            let (latitude, longitude): (Double, Double)
            if index % 3 == 0 {
                // Anywhere, uniformly on the sphere.
                latitude = asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi
                longitude = Double.random(in: -180..<180, using: &generator)
            } else {
                // Near or exactly on a border: a random vertex, moved a little, or a vertex, or the
                // midpoint of an edge.
                let feature = all[Int.random(in: 0..<all.count, using: &generator)]
                let polygon = feature.polygons[Int.random(in: 0..<feature.polygons.count, using: &generator)]
                let ring = polygon[Int.random(in: 0..<polygon.count, using: &generator)]
                let at = Int.random(in: 0..<ring.count - 1, using: &generator)
                let a = ring[at], b = ring[at + 1]
                let unit = 1.0 / Double(BoundaryTableLayout.scale) / 1e5
                switch index % 6 {
                case 1, 4:
                    latitude = Double(a.y) * 1e-5 + Double.random(in: -0.01...0.01, using: &generator)
                    longitude = Double(a.x) * 1e-5 + Double.random(in: -0.01...0.01, using: &generator)
                case 2:
                    latitude = Double(a.y) * 1e-5
                    longitude = Double(a.x) * 1e-5
                    onBorders += 1
                default:
                    latitude = Double(32 * (Int64(a.y) + Int64(b.y))) * unit
                    longitude = Double(32 * (Int64(a.x) + Int64(b.x))) * unit
                    onBorders += 1
                }
            }
            let (qx, qy) = try #require(UnsafeBoundaryTable.queryPoint(latitude: latitude, longitude: longitude))
            let expected = reference.containing(qx, qy)
            let found = Self.table.view.containing(qx, qy)
            var got: [Int] = []
            if let zone = found.timeZone { got.append(zone) }
            if let zone = found.secondTimeZone { got.append(zone) }
            if let country = found.country { got.append(layers.timeZones.count + country) }
            if let admin1 = found.admin1 { got.append(layers.timeZones.count + layers.countries.count + admin1) }
            if got.sorted() != expected, disagreements.count < 10 {
                disagreements.append("\(latitude),\(longitude): table \(got.sorted()), reference \(expected)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
        #expect(onBorders > 30_000)
    }

    /// A border shared by two countries: the point on it belongs to the one east of it (north of
    /// an east-west edge), at the edge's midpoint and at its vertices alike.
    @Test(needsTheGeoJSON) func pointsOnSharedBordersBelongToTheEasternOrNorthernNeighbour() throws {
        let layers = try Self.layers()
        var owner: [[Int32]: Int] = [:]
        for (number, feature) in layers.countries.enumerated() {
            for ring in feature.polygons.joined() {
                for index in 0..<ring.count - 1 {
                    owner[[ring[index].x, ring[index].y, ring[index + 1].x, ring[index + 1].y]] = number
                }
            }
        }
        var checked = (vertical: 0, horizontal: 0)
        var index = 0
        var wrong: [String] = []
        let unit = 1.0 / Double(BoundaryTableLayout.scale) / 1e5
        for (key, left) in owner.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            // The same edge the other way round is the neighbour's (rings are CCW: interior left).
            guard let right = owner[[key[2], key[3], key[0], key[1]]] else { continue }
            index += 1
            guard index % 10 == 0 || key[1] == key[3] else { continue }
            let (ax, ay, bx, by) = (Int64(key[0]), Int64(key[1]), Int64(key[2]), Int64(key[3]))
            let expected: Int
            if ay == by {
                expected = bx > ax ? left : right  // going east, the left side is north
                checked.horizontal += 1
            } else {
                expected = by > ay ? right : left  // going north, the right side is east
                checked.vertical += 1
            }
            let hit = Self.table.lookup(
                latitude: Double(32 * (ay + by)) * unit, longitude: Double(32 * (ax + bx)) * unit)
            if hit.features.country != expected, wrong.count < 10 { wrong.append("edge \(key)") }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(checked.vertical > 1000)
        #expect(checked.horizontal > 0)
    }

    // MARK: building and opening

    /// A square feature from (x0, y0) to (x1, y1) in degrees, counter-clockwise.
    static func square(
        _ properties: [(key: String, value: String?)], _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double
    )
        -> BoundaryFeature
    {
        func point(_ x: Double, _ y: Double) -> GridPoint {
            GridPoint(x: Int32((x * 1e5).rounded()), y: Int32((y * 1e5).rounded()))
        }
        let ring = [point(x0, y0), point(x1, y0), point(x1, y1), point(x0, y1), point(x0, y0)]
        return BoundaryFeature(properties: properties, polygons: [[ring]], line: 1)
    }

    /// A small world: two ocean zones, two land zones that overlap, two countries, one region.
    /// The tz rules fixture of `Fixtures/tz/` (13 zones), stored in the small table.
    static let testRules: [UInt8] = try! TestSupport.readWholeFile(Fixtures.root + "/tz/test.tzrules")

    /// Rules that are not tz rules make the table unusable (never silently rule-less).
    @Test func aTableWithDamagedRulesIsRejected() throws {
        let zones = [Self.square([("tzid", "Etc/GMT+2"), ("country", nil)], -40, -10, -20, 10)]
        let bytes = try BoundaryTableBuilder(source: "test", date: "2026-01-02", timeZoneRules: [1, 2, 3])
            .build(timeZones: zones, countries: [], admin1: [])
        #expect(throws: BoundaryError.self) { try BoundaryTable(tableBytes: bytes) }
    }

    /// A table held in memory is checked as a file is: names that are not UTF-8 are refused.
    @Test func aTableInMemoryWithACorruptStringPoolIsRejected() throws {
        var bytes = Self.smallTable
        let name = Array("Test/West".utf8)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: name) })
        bytes[start + 4] = 0xC3  // a lead byte followed by an ASCII letter: not UTF-8
        bytes = TableChecksumTests.resealed(bytes, header: BoundaryTableLayout.headerSize)  // crafted, not damaged
        #expect(
            throws: BoundaryError.notABoundaryTable(path: "the boundary table", reason: "its names are not valid UTF-8")
        ) { try BoundaryTable(tableBytes: bytes) }
    }

    static let smallTable: [UInt8] = {
        let zones = [square([("tzid", "Etc/GMT+2"), ("country", nil)], -40, -10, -20, 10)]
        let countries = [
            square([("countryCode", "AA")], 10, 10, 20, 20),
            square([("countryCode", "BB")], 20, 10, 30, 20),
        ]
        let admin1 = [square([("countryCode", "AA"), ("admin1Code", "01")], 10, 10, 19.99, 19.99)]
        let land = [
            square([("tzid", "Test/West"), ("country", "AA")], 10, 10, 22, 20),
            square([("tzid", "Test/East"), ("country", "BB")], 18, 10, 30, 20),
        ]
        let builder = BoundaryTableBuilder(source: "test", date: "2026-01-02", timeZoneRules: testRules)
        return try! builder.build(timeZones: zones + land, countries: countries, admin1: admin1)
    }()

    @Test func aSmallTableAnswersByContainment() throws {
        let table = try BoundaryTable(tableBytes: Self.smallTable)
        #expect(table.source == "test" && table.date == "2026-01-02")
        #expect(Array(table.timeZoneRules) == Self.testRules)
        #expect(table.rules?.zone(named: "Europe/Berlin") != nil)
        // The land zones overlap between 18 and 22 degrees east; of equal area, the first by name.
        let overlap = table.lookup(latitude: 15, longitude: 19)
        #expect(overlap.timeZones == ["Test/West", "Test/East"])
        #expect(!overlap.isOcean)
        #expect(table.preferredZone(overlap, nearestPlaceZone: nil) == "Test/East")
        #expect(table.preferredZone(overlap, nearestPlaceZone: "Test/West") == "Test/West")
        #expect(table.lookup(latitude: 15, longitude: 12).timeZones == ["Test/West"])
        let sea = table.lookup(latitude: 0, longitude: -30)
        #expect(sea.timeZones == ["Etc/GMT+2"] && sea.isOcean && sea.countryCode == nil)
        // On the AA/BB border at 20 degrees east: the eastern neighbour.
        #expect(table.lookup(latitude: 15, longitude: 20).countryCode == "BB")
        #expect(table.lookup(latitude: 15, longitude: 19.99999).countryCode == "AA")
        // On the southern edge of both: inside (north of it); on the northern edge: outside.
        #expect(table.lookup(latitude: 10, longitude: 15).countryCode == "AA")
        #expect(table.lookup(latitude: 20, longitude: 15).countryCode == nil)
        // Between the region's edge and the country's: the nearest region of the country.
        let coast = table.lookup(latitude: 19.995, longitude: 15)
        #expect(coast.countryCode == "AA")
        #expect(coast.admin1 == BoundaryHit.Admin1(countryCode: "AA", code: "01"))
        #expect(coast.admin1FromFallback)
        #expect(table.lookup(latitude: 15, longitude: 15).admin1FromFallback == false)
    }

    @Test func buildingIsReproducible() throws {
        let again = BoundaryTests.smallTable
        #expect(again == Self.smallTable)
        let zones = [Self.square([("tzid", "Etc/GMT"), ("country", nil)], -180, -90, 180, 90)]
        let builder = BoundaryTableBuilder(source: "test", date: "2026-01-02")
        #expect(
            try builder.build(timeZones: zones, countries: [], admin1: [])
                == builder.build(timeZones: zones, countries: [], admin1: []))
    }

    @Test func damagedTablesAreRejectedOrHarmless() throws {
        let bytes = Self.smallTable
        #expect(throws: BoundaryError.self) { try BoundaryTable(tableBytes: Array(bytes.prefix(100))) }
        #expect(throws: BoundaryError.self) { try BoundaryTable(tableBytes: Array(bytes.dropLast(64))) }
        var magic = bytes
        magic[0] = UInt8(ascii: "X")
        #expect(throws: BoundaryError.notABoundaryTable(path: "the boundary table", reason: "unknown format")) {
            try BoundaryTable(tableBytes: magic)
        }
        var version = bytes
        version[BoundaryTableHeader.version] = 99
        #expect(throws: BoundaryError.self) { try BoundaryTable(tableBytes: version) }
        var count = bytes
        count[BoundaryTableHeader.vertexCount] &+= 16
        #expect(throws: BoundaryError.self) { try BoundaryTable(tableBytes: count) }
        #expect(throws: BoundaryError.self) { try BoundaryTable(tableBytes: Array(repeating: 0, count: 10)) }
        // Damage past the header, resealed (a crafted table: damage alone is refused by the
        // checksum, see TableChecksumTests): opening may fail, lookups must not crash.
        var generator = SeededGenerator(state: 7)
        for _ in 0..<200 {
            var damaged = bytes
            for _ in 0..<8 {
                let at = Int.random(in: 128..<damaged.count, using: &generator)
                damaged[at] = UInt8.random(in: 0...255, using: &generator)
            }
            damaged = TableChecksumTests.resealed(damaged, header: BoundaryTableLayout.headerSize)
            guard let table = try? BoundaryTable(tableBytes: damaged) else { continue }
            for _ in 0..<20 {
                _ = table.lookup(
                    latitude: Double.random(in: -90...90, using: &generator),
                    longitude: Double.random(in: -180...180, using: &generator))
            }
        }
    }

    @Test func theReaderReportsFileLineAndWhat() throws {
        func error(_ text: String) -> String {
            do {
                _ = try GeoJSONReader.parse(Array(text.utf8), name: "x.geojson")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let head = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        let feature = { (geometry: String) in
            head + "{\"type\":\"Feature\",\"properties\":{\"a\":\"b\"},\"geometry\":" + geometry + "}\n]}"
        }
        let ring = "[[0,0],[1,0],[1,1],[0,0]]"
        #expect(error(feature("{\"type\":\"Polygon\",\"coordinates\":[\(ring)]}")) == "no error")
        #expect(error(feature("{\"type\":\"MultiPolygon\",\"coordinates\":[[\(ring)],[\(ring)]]}")) == "no error")
        #expect(
            error(feature("{\"type\":\"Point\",\"coordinates\":[\(ring)]}"))
                == "x.geojson, line 2: geometry type Point, expected Polygon or MultiPolygon")
        #expect(
            error(feature("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0.5]]]}"))
                == "x.geojson, line 2: a ring that is not closed")
        #expect(
            error(feature("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1.123456,0],[1,1],[0,0]]]}"))
                == "x.geojson, line 2: a coordinate with more than 5 decimals")
        #expect(
            error(feature("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1e2,0],[1,1],[0,0]]]}"))
                == "x.geojson, line 2: a number with an exponent")
        #expect(
            error(feature("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[181,0],[1,1],[0,0]]]}"))
                == "x.geojson, line 2: longitude out of range")
        #expect(error(head + "\n\n]") == "x.geojson, line 4: unexpected end of file, expected ',' or '}'")
        #expect(error(head + "]}\nx") == "x.geojson, line 3: text after the FeatureCollection")
        let parsed = try GeoJSONReader.parse(
            Array(feature("{\"type\":\"Polygon\",\"coordinates\":[[[-0.5,0],[1.25,0],[1,1],[-0.5,0]]]}").utf8),
            name: "x")
        let first = try #require(parsed.first)
        #expect(first.polygons.first?.first?.first == GridPoint(x: -50_000, y: 0))
        #expect(first.property("a") == "b")
    }
}

/// The bundled table carries the tz rules of every zone it has polygons for, so a local time can
/// be given wherever a point is.
@Suite struct BundledBoundaryRulesTests {
    @Test func everyZoneOfTheBundledTableHasItsRules() throws {
        let table = BoundaryTable.bundled
        let rules = try #require(table.rules, "the bundled table was imported without --tzdata")
        #expect(table.timeZoneCount == 444)
        for index in 0..<table.timeZoneCount {
            let name = table.timeZoneName(index)
            #expect(rules.zone(named: name) != nil, "\(name)")
        }
        // One known answer through the bundled rules: Moscow in January 2010 and 2012.
        let moscow = try #require(rules.zone(named: "Europe/Moscow"))
        #expect(rules.offset(moscow, atUTC: 1_263_556_800).utcOffset == 3 * 3600)  // 2010-01-15T12:00Z
        #expect(rules.offset(moscow, atUTC: 1_326_628_800).utcOffset == 4 * 3600)  // 2012-01-15T12:00Z
    }

    /// The query point's rounding is the standard library's `rounded()` (halves away from zero)
    /// on every kind of value it meets: halves of both signs, values a hair off a half, whole
    /// values, and the largest magnitudes.
    @Test func queryPointsRoundAsTheStandardLibraryRounds() {
        var random = SeededGenerator(state: 52)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994]
        values += [4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 4_503_599_627_370_496, 1_152_000_000.5]
        for _ in 0..<100_000 {
            let whole = Double(Int64.random(in: -1_200_000_000...1_200_000_000, using: &random))
            values.append(whole + 0.5)
            values.append(whole - 0.5)
            values.append((whole + 0.5).nextUp)
            values.append((whole + 0.5).nextDown)
            values.append(Double.random(in: -180...180, using: &random) * 6_400_000)
        }
        for value in values {
            #expect(UnsafeBoundaryTable.nearestInteger(value) == Int64(value.rounded()), "\(value)")
        }
    }
}
