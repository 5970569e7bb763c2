import Foundation
import TestSupport
import Testing

@testable import PhotoTagMap

/// Issue 23, item 25: the route, the photos in time order drawn as one line per day.
@Suite struct RouteTests {
    static func at(_ day: Int, _ hour: Int, _ latitude: Double, _ longitude: Double) -> MapPoint {
        MapPoint(
            latitude: latitude, longitude: longitude, path: [],
            time: MapTime(year: 2019, month: 7, day: day, hour: hour))
    }

    @Test func eachDayIsALineThatStartsWhereTheDayBeforeEnded() {
        // Given out of order: the route follows the times.
        let points = [
            Self.at(2, 9, 47.56, 7.59), Self.at(1, 18, 48.86, 2.35), Self.at(1, 9, 48.85, 2.29),
            Self.at(3, 12, 47.37, 8.54),
        ]
        let pixels = points.map { PlanePoint(x: $0.longitude * 10, y: $0.latitude * 10) }
        let route = Route(points: points, pixels: pixels, width: 960)
        #expect(route.days.map(\.date) == ["2019-07-01", "2019-07-02", "2019-07-03"])
        #expect(route.days[0].points == [pixels[2], pixels[1]])
        #expect(route.days[1].points == [pixels[1], pixels[0]], "the move from the day before comes first")
        #expect(route.days[2].points == [pixels[0], pixels[3]])
        #expect(Set(route.days.map(\.colour)).count == 3)
        #expect(route.shownAtFirst, "a three-day trip")
        #expect(Route.pathData(route.days[0].points, width: 960) == "M22.9 488.5L23.5 488.6")
    }

    @Test func aSpanOfYearsIsHiddenAtFirstAndFewTimesMakeNoRoute() {
        var later = Self.at(1, 9, 1, 1)
        later.time = MapTime(year: 2021, month: 1, day: 1, hour: 0)
        let points = [Self.at(1, 9, 0, 0), later]
        let route = Route(points: points, pixels: [PlanePoint(x: 0, y: 0), PlanePoint(x: 1, y: 1)], width: 960)
        #expect(route.days.count == 2 && !route.shownAtFirst)
        var untimed = Self.at(1, 9, 0, 0)
        untimed.time = nil
        #expect(
            Route(points: [Self.at(1, 9, 0, 0), untimed], pixels: [.init(x: 0, y: 0), .init(x: 1, y: 1)], width: 960)
                .days.isEmpty)
    }

    @Test func aMoveAcrossTheFramesEdgeIsCutNotDrawnAcrossTheMap() {
        let pixels = [PlanePoint(x: 950, y: 10), PlanePoint(x: 955, y: 12), PlanePoint(x: 5, y: 14)]
        #expect(Route.pathData(pixels, width: 960) == "M950 10L955 12M5 14")
    }

    @Test func theSVGDrawsItUnderTheMarkersAndTheHTMLTogglesIt() throws {
        let trip = Samples.world
        let svg = String(
            decoding: MapRenderer.svg(points: trip, counts: MapCounts(files: 4, located: 4)), as: UTF8.self)
        let route = try #require(svg.range(of: "<g id=\"route\""), "a route")
        #expect(svg.range(of: "<g id=\"markers\"")!.lowerBound > route.lowerBound, "under the markers")
        #expect(svg.components(separatedBy: "class=\"day\"").count - 1 == 4)
        #expect(!svg[route.lowerBound...].prefix(200).contains("display=\"none\""), "a twelve-day trip is shown")
        let html = String(
            decoding: MapRenderer.html(points: trip, counts: MapCounts(files: 4, located: 4)), as: UTF8.self)
        #expect(html.contains("id=\"route-toggle\"") && html.contains("aria-pressed=\"true\""))
        let none = String(
            decoding: MapRenderer.html(points: [Samples.point(1, 1, "a")], counts: MapCounts(files: 1, located: 1)),
            as: UTF8.self)
        #expect(!none.contains("id=\"route-toggle\"") && !none.contains("id=\"route\""))
    }
}
