import Foundation
import TestSupport
import Testing

@testable import PhotoTagMap

/// The HTML page in headless Chromium: it loads offline without console errors, asks for
/// nothing from the network, has a marker per cluster and a row per place, and looks like a map.
@Suite(
    .serialized,
    .enabled(if: Tools.chromium != nil, "Chromium (Debian chromium) is not installed: Scripts/install-test-tools"))
struct HTMLBrowserTests {
    /// The sample trip: four cities, 30 photos round the Eiffel Tower, and a file name with markup
    /// and a byte that is not UTF-8.
    static let points: [MapPoint] = {
        var points = Samples.world
        for index in 0..<30 {
            var point = Samples.point(48.8584 + Double(index % 5) * 1e-4, 2.2945, "eiffel-\(index)", place: "Paris")
            point.countryCode = "FR"
            point.admin1 = "Île-de-France"
            points.append(point)
        }
        points[1].path = Array("/photos/<b>&\"it's\" ".utf8) + [0xE9] + Array(".jpg".utf8)
        return points
    }()

    static func write(_ bytes: [UInt8], _ folder: String, _ name: String) throws -> String {
        let path = folder + "/" + name
        try Tools.write(bytes, to: path)
        return path
    }

    @Test func thePageLoadsOfflineWithoutErrorsAndShowsEveryMarker() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let counts = MapCounts(files: 40, located: Self.points.count)
        let path = try Self.write(MapRenderer.html(points: Self.points, counts: counts), folder, "map.html")
        let visit = try Browser.visit(path)
        #expect(visit.console == [])
        #expect(visit.requests == [])
        #expect(visit.dom.contains("data-ready=\"true\""), "the script did not run to its end")
        let picture = MapPicture(points: Self.points, counts: counts)
        // At world scale the Eiffel Tower's 30 photos and the one in central Paris are one marker.
        #expect(picture.clusters.count == 4)
        #expect(visit.dom.components(separatedBy: "class=\"marker\"").count - 1 == picture.clusters.count)
        // Country, region and place rows: FR, Île-de-France, Paris; then one each for the others.
        #expect(visit.dom.components(separatedBy: "<tr class=\"place\"").count - 1 == 5)
        #expect(visit.dom.contains("<td class=\"number\">31</td>"))
        // A screenshot with the sea, the land and the markers in it.
        let shot = visit.screenshot
        #expect(shot.width == 1400 && shot.height == 1000)
        #expect(shot.distinctColours > 100)
        var sea = 0, marker = 0
        for y in stride(from: 0, to: shot.height, by: 2) {
            for x in stride(from: 0, to: shot.width, by: 2) {
                let colour = shot.colour(x: x, y: y)
                if colour == MapColours.sea { sea += 1 }
                if colour == MapColours.marker { marker += 1 }
            }
        }
        #expect(sea > 20_000)
        #expect(marker > 20)
    }

    @Test func fileNamesAreEscapedAndLinkedByTheirBytes() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let html = MapRenderer.html(points: Self.points, counts: MapCounts(files: 40, located: 34))
        let text = String(decoding: html, as: UTF8.self)
        #expect(!text.contains("<b>&"))
        #expect(text.contains("\"file:///photos/%3Cb%3E%26%22it%27s%22%20%E9.jpg\""))
        // The page shows the name, with U+FFFD for the byte that is not UTF-8, once the tooltip
        // is built: the data it is built from holds exactly that text.
        #expect(text.contains("\\u003cb\\u003e\\u0026\\\"it's\\\" \u{FFFD}.jpg"))
        let path = try Self.write(html, folder, "names.html")
        let visit = try Browser.visit(path)
        #expect(visit.console == [])
        #expect(visit.dom.contains("data-ready=\"true\""))
    }

    /// Chromium's headless mode needs JavaScript for `--dump-dom` and `--screenshot`, so the page
    /// is shown as a browser without JavaScript sees it: with its `<script>` elements taken out.
    @Test func withoutJavaScriptTheMapAndTheTableAreStillThere() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let html = String(
            decoding: MapRenderer.html(points: Self.points, counts: MapCounts(files: 40, located: 34)), as: UTF8.self)
        var markup = html
        while let start = markup.range(of: "<script"),
            let end = markup.range(of: "</script>", range: start.upperBound..<markup.endIndex)
        {
            markup.removeSubrange(start.lowerBound..<end.upperBound)
        }
        #expect(markup.count < html.count && !markup.contains("<script"))
        let path = try Self.write(Array(markup.utf8), folder, "static.html")
        let visit = try Browser.visit(path)
        #expect(visit.console == [] && visit.requests == [])
        #expect(!visit.dom.contains("data-ready"))
        #expect(visit.dom.components(separatedBy: "class=\"marker\"").count - 1 == 4)
        #expect(visit.dom.components(separatedBy: "<tr class=\"place\"").count - 1 == 5)
        #expect(visit.dom.contains("<div id=\"zoom\" hidden=\"\">"), "the buttons need the script: hidden without it")
        let shot = visit.screenshot
        var sea = 0, marker = 0
        for y in stride(from: 0, to: shot.height, by: 2) {
            for x in stride(from: 0, to: shot.width, by: 2) {
                let colour = shot.colour(x: x, y: y)
                if colour == MapColours.sea { sea += 1 }
                if colour == MapColours.marker { marker += 1 }
            }
        }
        #expect(sea > 20_000 && marker > 20)
    }

    @Test func theChecksThemselvesCatchAnErrorAndARequest() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = """
            <!DOCTYPE html><html><body><img style="display: none" src="http://tiles.example.invalid/1/0/0.png">
            <script>throw new Error("boom");</script></body></html>
            """
        let path = try Self.write(Array(page.utf8), folder, "bad.html")
        let visit = try Browser.visit(path, width: 400, height: 300)
        #expect(visit.console.contains { $0.contains("boom") })
        #expect(visit.requests.contains { $0.hasPrefix("http://tiles.example.invalid/") })
        #expect(visit.screenshot.distinctColours == 1)
    }
}
