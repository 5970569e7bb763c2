import Testing

@testable import PhotoTagMap

@Suite struct ProjectionTests {
    @Test func equalEarthHasItsPublishedShape() {
        let half = EqualEarth.halfExtent
        // Šavrič et al. (2018): the map is 2.05458 times as wide as it is high.
        #expect(abs(half.x / half.y - 2.05458) < 1e-4)
        #expect(abs(half.x - 2.70663) < 1e-4)
        let origin = EqualEarth.project(longitude: 0, latitude: 0)
        #expect(origin.x == 0 && origin.y == 0)
        // Symmetric about the equator and the central meridian.
        let a = EqualEarth.project(longitude: 40, latitude: 30), b = EqualEarth.project(longitude: -40, latitude: -30)
        #expect(a.x == -b.x && a.y == -b.y)
    }

    @Test func theLongitudeArcTakesTheShortWayRound() throws {
        let fiji = try #require(longitudeArc([177.4, -179.9, 179.5]))
        #expect(abs(fiji.west - 177.4) < 1e-9)
        #expect(abs(fiji.span - 2.7) < 1e-9)
        let europe = try #require(longitudeArc([2, -4, 13]))
        #expect(europe.west == -4 && europe.span == 17)
        #expect(longitudeArc([]) == nil)
    }

    @Test func aRegionalTripGetsALocalProjectionCentredOnIt() {
        let points = Samples.france
        let frame = MapFrame.fit(latitudes: points.map(\.latitude), longitudes: points.map(\.longitude))
        guard case .equirectangular(let standard) = frame.projection.kind else {
            Issue.record("France got \(frame.projection.kind)")
            return
        }
        #expect(abs(standard - (43.2965 + 48.8566) / 2) < 1e-9)
        for point in points {
            let pixel = frame.pixel(latitude: point.latitude, longitude: point.longitude)
            #expect(pixel.x > 0.05 * frame.width && pixel.x < 0.95 * frame.width)
            #expect(pixel.y > 0.05 * frame.height && pixel.y < 0.95 * frame.height)
        }
    }

    @Test func aSetAcrossTheAntimeridianIsFittedAcrossIt() {
        let points = Samples.fiji
        let frame = MapFrame.fit(latitudes: points.map(\.latitude), longitudes: points.map(\.longitude))
        #expect(!frame.isWorld)
        #expect(abs(wrapLongitude(frame.projection.centralLongitude - 178.74)) < 0.01)
        // About 3 degrees of longitude across, not 357.
        #expect(frame.window.east - frame.window.west < 5)
        let west = frame.pixel(latitude: points[0].latitude, longitude: points[0].longitude)
        let east = frame.pixel(latitude: points[1].latitude, longitude: points[1].longitude)
        #expect(west.x < east.x)
        #expect(east.x - west.x > frame.width / 2)
    }

    @Test func aWorldSpanningSetGetsEqualEarth() {
        for points in [Samples.world, Samples.globe] {
            let frame = MapFrame.fit(latitudes: points.map(\.latitude), longitudes: points.map(\.longitude))
            #expect(frame.isWorld)
            for point in points {
                let pixel = frame.pixel(latitude: point.latitude, longitude: point.longitude)
                #expect(pixel.x > 0 && pixel.x < frame.width && pixel.y > 0 && pixel.y < frame.height)
            }
        }
        #expect(MapFrame.fit(latitudes: [], longitudes: []).isWorld)
        #expect(MapFrame.fit(latitudes: [], longitudes: []).projection.centralLongitude == 0)
    }

    @Test func aSetRoundThePacificIsCentredOnThePacific() {
        let points = Samples.pacific
        let frame = MapFrame.fit(latitudes: points.map(\.latitude), longitudes: points.map(\.longitude))
        #expect(frame.isWorld)
        // From Tokyo (139.7° E) east to San Francisco (122.4° W): the middle is 171° W.
        #expect(frame.projection.centralLongitude == -171)
        let xs = points.map { frame.pixel(latitude: $0.latitude, longitude: $0.longitude).x }
        #expect(xs.allSatisfy { $0 > 0 && $0 < frame.width })
        // In the middle of the map, not on both edges of a Greenwich-centred world.
        let middle = ((xs.max() ?? 0) + (xs.min() ?? 0)) / 2
        #expect(abs(middle - frame.width / 2) < 0.05 * frame.width)
        // A set that holds Greenwich keeps it in the middle; one east of it is centred on itself.
        let london = (51.5, -0.13), paris = (48.85, 2.35), tokyo = (35.7, 139.7), rome = (41.9, 12.5)
        let west = MapFrame.fit(latitudes: [london.0, tokyo.0], longitudes: [london.1, tokyo.1])
        #expect(west.projection.centralLongitude == 0)
        let east = MapFrame.fit(latitudes: [paris.0, rome.0, tokyo.0], longitudes: [paris.1, rome.1, tokyo.1])
        #expect(east.projection.centralLongitude == 71)
    }

    @Test func numbersAreWrittenTheSameWayEveryTime() {
        #expect(MarkupText.fixed(1.25, 1) == "1.3")
        #expect(MarkupText.fixed(-0.04, 1) == "0.0")
        #expect(MarkupText.fixed(-2.5, 0) == "-3")
        #expect(MarkupText.fixed(0.05, 2) == "0.05")
        #expect(MarkupText.pixel(12.0) == "12")
        #expect(MarkupText.pixel(12.04) == "12")
        #expect(MarkupText.pixel(-3.46) == "-3.5")
        #expect(MarkupText.grouped(1_234_567) == "1,234,567" && MarkupText.grouped(999) == "999")
        #expect(MarkupText.count(100_000, "file", "files") == "100,000 files")
        #expect(MarkupText.count(1, "file", "files") == "1 file")
        #expect(
            [999, 12_345, 999_999, 1_234_567, 12_345_678].map(MarkupText.short) == [
                "999", "12k", "999k", "1.2M", "12M",
            ])
    }
}
