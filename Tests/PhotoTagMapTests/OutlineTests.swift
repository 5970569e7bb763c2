import ReverseGeocoding
import Testing

@testable import PhotoTagMap

@Suite struct OutlineTests {
    static let outlines = MapPicture.bundledOutlines

    /// Whether a position is inside an odd number of the rings (the even-odd rule).
    static func inside(_ rings: [[GridPoint]], latitude: Double, longitude: Double) -> Bool {
        let x = longitude * 1e5, y = latitude * 1e5
        var odd = false
        for ring in rings {
            for index in ring.indices.dropFirst() {
                let a = ring[index - 1], b = ring[index]
                let (ay, by) = (Double(a.y), Double(b.y))
                guard (ay <= y) != (by <= y) else { continue }
                let crossing = Double(a.x) + (y - ay) / (by - ay) * Double(b.x - a.x)
                if crossing > x { odd.toggle() }
            }
        }
        return odd
    }

    @Test func theLandRingsAreClosedAndHoldTheLand() {
        #expect(Self.outlines.land.count > 1000)
        #expect(Self.outlines.land.allSatisfy { $0.first == $0.last && $0.count >= 4 })
        let land = [
            (48.85, 2.35), (-25.0, 134.0), (40.0, -100.0), (-80.0, 0.0), (67.0, 175.0), (67.0, -175.0), (-17.8, 177.9),
            (41.9029, 12.4534),  // the Vatican, a country without admin-1 regions, inside Rome
        ]
        for (latitude, longitude) in land {
            let inside = Self.inside(Self.outlines.land, latitude: latitude, longitude: longitude)
            #expect(inside, "\(latitude), \(longitude) is land")
        }
        let sea = [(30.0, -40.0), (0.0, -160.0), (-40.0, 80.0), (43.0, 5.0), (-17.3, 178.6)]
        for (latitude, longitude) in sea {
            let inside = Self.inside(Self.outlines.land, latitude: latitude, longitude: longitude)
            #expect(!inside, "\(latitude), \(longitude) is sea")
        }
    }

    @Test func bordersRunBetweenCountries() {
        #expect(Self.outlines.borders.count > 100)
        #expect(Self.outlines.borders.allSatisfy { $0.count >= 2 })
        // The French–Spanish border crosses the Pyrenees near 42.7° N, 0.5° E.
        let near = Self.outlines.borders.contains { line in
            line.contains { abs($0.latitude - 42.7) < 0.15 && abs($0.longitude - 0.5) < 0.3 }
        }
        #expect(near)
    }

    /// How many times the parallel `latitude` between two longitudes crosses the lines.
    static func crossings(_ lines: [[GridPoint]], latitude: Double, from west: Double, to east: Double) -> Int {
        let y = latitude * 1e5
        var count = 0
        for line in lines {
            for index in line.indices.dropFirst() {
                let a = line[index - 1], b = line[index]
                let (ay, by) = (Double(a.y), Double(b.y))
                guard (ay <= y) != (by <= y) else { continue }
                let x = (Double(a.x) + (y - ay) / (by - ay) * Double(b.x - a.x)) / 1e5
                if x > west, x < east { count += 1 }
            }
        }
        return count
    }

    /// Issue 23, item 24: a city-scale map draws the regions' borders the binary holds.
    @Test func regionBordersRunBetweenTheRegionsOfOneCountry() {
        let regions = Self.outlines.regionBorders
        #expect(regions.count > 1000 && regions.allSatisfy { $0.count >= 2 })
        // Going east from the middle of Berlin, the city ends (into Brandenburg) once, and the
        // country only at the Oder.
        #expect(Self.crossings(regions, latitude: 52.52, from: 13.405, to: 14.0) == 1)
        #expect(Self.crossings(Self.outlines.borders, latitude: 52.52, from: 13.405, to: 14.0) == 0)
        // The Rhine at Strasbourg is a country border, not a region's.
        #expect(Self.crossings(Self.outlines.borders, latitude: 48.58, from: 7.74, to: 7.85) == 1)
        #expect(Self.crossings(regions, latitude: 48.58, from: 7.74, to: 7.85) == 0)
    }

    @Test func aCountrysRingsContainItsPlaces() {
        let table = BoundaryTable.bundled
        let france = (0..<table.countryCount).first { table.countryCode($0) == "FR" }
        let rings = table.countryRings(france ?? -1)
        let paris = Self.inside(rings, latitude: 48.85, longitude: 2.35)
        let madrid = Self.inside(rings, latitude: 40.4, longitude: -3.7)
        #expect(paris && !madrid)
        #expect(table.countryRings(-1).isEmpty)
    }
}
