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
        // The trip's stops: each country's row, then its places' (Paris, then one for each of the others).
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

    /// A script run after the page's own, as a user's hands: wheel, drag, pinch, the buttons, a
    /// hover, sorting by two columns and a row click; it writes what it saw into the DOM.
    static let hands = """
        <script>
        (function () {
          var out = [];
          var view = document.getElementById("view");
          function box() { return view.getAttribute("viewBox").split(" ").map(Number); }
          var home = box();
          var rect = view.getBoundingClientRect();
          var cx = rect.left + rect.width / 2, cy = rect.top + rect.height / 2;
          view.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
          out.push("wheel=" + (box()[2] < home[2]));
          var before = box();
          function pointer(type, id, x, y) {
            view.dispatchEvent(new PointerEvent(type, { pointerId: id, clientX: x, clientY: y, bubbles: true }));
          }
          pointer("pointerdown", 7, cx, cy);
          pointer("pointermove", 7, cx + 60, cy + 30);
          pointer("pointerup", 7, cx + 60, cy + 30);
          out.push("drag=" + (box()[0] < before[0] && box()[1] < before[1]));
          before = box();
          pointer("pointerdown", 8, cx - 20, cy);
          pointer("pointerdown", 9, cx + 20, cy);
          pointer("pointermove", 9, cx + 100, cy);
          pointer("pointerup", 8, cx - 20, cy);
          pointer("pointerup", 9, cx + 100, cy);
          out.push("pinch=" + (box()[2] < before[2]));
          document.getElementById("zoom-reset").click();
          out.push("reset=" + (box().join(" ") === home.join(" ")));
          document.getElementById("zoom-in").click();
          out.push("zoomin=" + (box()[2] === home[2] / 2));
          document.getElementById("zoom-reset").click();
          var route = document.getElementById("route"), toggle = document.getElementById("route-toggle");
          var before = route.getAttribute("display");
          toggle.click();
          var hidden = route.getAttribute("display") + "," + toggle.getAttribute("aria-pressed");
          toggle.click();
          out.push("route=" + [before, hidden, route.getAttribute("display")].join("/"));
          var marker = document.getElementById("m0");
          marker.dispatchEvent(new PointerEvent("pointerenter", { clientX: cx, clientY: cy }));
          var tip = document.getElementById("tip");
          var links = tip.querySelectorAll("a");
          out.push("tip=" + (!tip.hidden && links.length > 0 && links[0].href.indexOf("file:///photos/") === 0));
          out.push("titles=" + document.querySelectorAll("#markers title").length);
          var headings = document.querySelectorAll("#table th");
          headings[3].click();
          out.push("bycount=" + document.querySelector("#table tbody tr").cells[0].textContent);
          headings[0].click();
          out.push("bycode=" + document.querySelector("#table tbody tr").cells[0].textContent);
          var row = document.querySelector("#table tbody tr.place");
          row.click();
          out.push("highlight=" + row.cells[2].textContent + ":" + document.querySelectorAll(".marker.highlight").length);
          document.documentElement.setAttribute("data-hands", out.join(";"));
        })();
        </script>
        """

    @Test func panZoomTooltipSortingAndHighlightingWork() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var html = String(
            decoding: MapRenderer.html(points: Self.points, counts: MapCounts(files: 40, located: 34)), as: UTF8.self)
        let end = try #require(html.range(of: "</body>"))
        html.insert(contentsOf: Self.hands, at: end.lowerBound)
        let path = try Self.write(Array(html.utf8), folder, "hands.html")
        let visit = try Browser.visit(path)
        #expect(visit.console == [])
        #expect(
            visit.dom.contains(
                "data-hands=\"wheel=true;drag=true;pinch=true;reset=true;zoomin=true;route=/none,false/inline;tip=true;"
                    + "titles=0;bycount=FR;bycode=AU;"
                    + "highlight=Sydney:1\""))
    }

    /// Measures what the hands feel: the client position of a marker under the cursor through
    /// ten wheel notches (to about ×7), and how far a 100-pixel drag moves it at that zoom.
    static let measure = """
        <script>
        (function () {
          var view = document.getElementById("view");
          function box() { return view.getAttribute("viewBox").split(" ").map(Number); }
          var home = box();
          function centre(id) {
            var r = document.getElementById(id).getBoundingClientRect();
            return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
          }
          // A mouse event's position is in whole pixels: the cursor is the pixel nearest the
          // marker, and the marker is where zooming about that pixel puts it.
          var first = centre("m1");
          var cursor = { x: Math.round(first.x), y: Math.round(first.y) };
          var drift = 0;
          for (var i = 0; i < 10; i++) {
            view.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, clientX: cursor.x, clientY: cursor.y,
                                                         bubbles: true, cancelable: true }));
            var scale = home[2] / box()[2], now = centre("m1");
            drift = Math.max(drift, Math.hypot(now.x - (cursor.x + (first.x - cursor.x) * scale),
                                               now.y - (cursor.y + (first.y - cursor.y) * scale)));
          }
          var zoom = home[2] / box()[2];
          // Drag towards the side with map left to show, so that the edge does not stop it.
          var perPixel = box()[2] / document.getElementById("map").getBoundingClientRect().width;
          var dx = box()[0] - 100 * perPixel * 2 >= home[0] ? 100 : -100;
          function pointer(type, x, y) {
            view.dispatchEvent(new PointerEvent(type, { pointerId: 3, clientX: x, clientY: y, bubbles: true }));
          }
          var start = centre("m1");
          start = { x: Math.round(start.x), y: Math.round(start.y) };
          var marker = centre("m1");
          pointer("pointerdown", start.x, start.y);
          for (var step = 1; step <= 10; step++) { pointer("pointermove", start.x + dx * step / 10, start.y); }
          pointer("pointerup", start.x + dx, start.y);
          var end = centre("m1");
          document.documentElement.setAttribute("data-measure", [zoom.toFixed(1), drift.toFixed(2),
            (end.x - marker.x).toFixed(2), (end.y - marker.y).toFixed(2), dx].join(" "));
        })();
        </script>
        """

    /// Issue 23, item 21: the point under the cursor drifted with each wheel notch, and at ×8 a
    /// 100 px drag moved the map 11 px: both measured the drawn content's box, not the frame's.
    @Test func zoomKeepsThePointUnderTheCursorAndADragFollowsThePointer() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var html = String(
            decoding: MapRenderer.html(points: Self.points, counts: MapCounts(files: 40, located: 34)), as: UTF8.self)
        let end = try #require(html.range(of: "</body>"))
        html.insert(contentsOf: Self.measure, at: end.lowerBound)
        let path = try Self.write(Array(html.utf8), folder, "measure.html")
        let visit = try Browser.visit(path)
        #expect(visit.console == [])
        let attribute = try #require(visit.dom.range(of: "data-measure=\""), "the measuring script did not run")
        let values = visit.dom[attribute.upperBound...].prefix { $0 != "\"" }.split(separator: " ").compactMap {
            Double($0)
        }
        try #require(values.count == 5, "\(values)")
        let (zoom, drift, movedX, movedY, wanted) = (values[0], values[1], values[2], values[3], values[4])
        #expect(zoom > 6, "ten notches zoom in about 7 times: \(zoom)")
        #expect(drift < 1, "the point under the cursor stays there: it drifted \(drift) px")
        #expect(abs(movedX - wanted) < 1 && abs(movedY) < 1, "a \(wanted) px drag moved the marker \(movedX) px")
    }

    /// Measures the layout: the map's size against the window's, the visible labels' heights and
    /// whether two of them overlap, the title's height, and whether the credits are inside.
    static let layout = """
        <script>
        (function () {
          var map = document.getElementById("map").getBoundingClientRect();
          var shown = Array.prototype.filter.call(document.querySelectorAll("#labels text"), function (text) {
            return text.id.charAt(0) === "l" && text.getAttribute("display") !== "none";
          }).map(function (text) { return text.getBoundingClientRect(); });
          var overlaps = 0;
          shown.forEach(function (a, i) {
            shown.forEach(function (b, j) {
              if (i < j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) { overlaps++; }
            });
          });
          var lowest = Math.min.apply(null, shown.map(function (box) { return box.height; }));
          var title = document.querySelector("#map > text").getBoundingClientRect();
          var credits = document.getElementById("credits").getBoundingClientRect();
          var inside = credits.left >= map.left && credits.right <= map.right + 1 && credits.bottom <= map.bottom + 1;
          document.documentElement.setAttribute("data-layout", [window.innerWidth, window.innerHeight,
            Math.round(map.width), Math.round(map.height), shown.length, lowest.toFixed(1), overlaps,
            title.height.toFixed(1), inside].join(" "));
        })();
        </script>
        """

    /// Issue 23, item 23: the map was about 780×420 in a 1400×900 window, half of it blank, with
    /// 9 px labels, and unusable at 400 px wide. It fills the window, its text keeps its pixel
    /// size at every width, and labels that would overlap are hidden.
    @Test(arguments: [(400, 800), (1400, 900), (1920, 1080)])
    func theMapFillsTheWindowWithLegibleLabelsAtEveryWidth(_ width: Int, _ height: Int) throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A European trip: a regional map, whose sea fills the frame.
        let cities: [(Double, Double, String, String)] = [
            (48.8566, 2.3522, "Paris", "FR"), (52.52, 13.405, "Berlin", "DE"), (41.9028, 12.4964, "Rome", "IT"),
            (40.4168, -3.7038, "Madrid", "ES"), (50.0755, 14.4378, "Prague", "CZ"),
            (47.4979, 19.0402, "Budapest", "HU"),
            (45.4642, 9.19, "Milan", "IT"), (50.8503, 4.3517, "Brussels", "BE"), (52.3676, 4.9041, "Amsterdam", "NL"),
            (48.2082, 16.3738, "Vienna", "AT"),
        ]
        let points = cities.enumerated().map { index, city in
            Samples.point(city.0, city.1, city.2, country: city.3, day: index + 1)
        }
        var html = String(
            decoding: MapRenderer.html(points: points, counts: MapCounts(files: 10, located: 10)), as: UTF8.self)
        let end = try #require(html.range(of: "</body>"))
        html.insert(contentsOf: Self.layout, at: end.lowerBound)
        let path = try Self.write(Array(html.utf8), folder, "layout-\(width).html")
        let visit = try Browser.visit(path, width: width, height: height)
        #expect(visit.console == [])
        let attribute = try #require(visit.dom.range(of: "data-layout=\""), "the layout script did not run")
        let fields = visit.dom[attribute.upperBound...].prefix { $0 != "\"" }.split(separator: " ").map(String.init)
        try #require(fields.count == 9, "\(fields)")
        let numbers = fields.prefix(8).compactMap { Double($0) }
        let (windowWidth, windowHeight, mapWidth, mapHeight) = (numbers[0], numbers[1], numbers[2], numbers[3])
        #expect(mapWidth >= windowWidth - 40, "the map is \(mapWidth) px wide in a \(windowWidth) px window")
        #expect(mapHeight >= windowHeight - 40, "the map is \(mapHeight) px high in a \(windowHeight) px window")
        #expect(numbers[4] >= 3, "labels shown: \(numbers[4])")
        #expect(numbers[5] >= 12, "the smallest label is \(numbers[5]) px high")
        #expect(numbers[6] == 0, "\(numbers[6]) pairs of labels overlap")
        #expect(numbers[7] >= 16, "the title is \(numbers[7]) px high")
        #expect(fields[8] == "true", "the credits are inside the map")
        // The screenshot: the sea fills the map to its corners, not a band in white.
        let shot = visit.screenshot
        #expect(shot.width == width)
        #expect(shot.colour(x: 20, y: 60) == MapColours.sea, "top left")
        #expect(shot.colour(x: width - 60, y: height - 90) == MapColours.sea, "bottom right")
    }

    /// A city map's place names keep their size in pixels as the map zooms, as labels do.
    @Test func aCityMapsPlaceNamesKeepTheirSizeWhenZoomed() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var html = String(
            decoding: MapRenderer.html(points: ContextLabelTests.berlin, counts: MapCounts(files: 4, located: 4)),
            as: UTF8.self)
        let script = """
            <script>
            (function () {
              var view = document.getElementById("view");
              function height() { return document.querySelector("#context text").getBoundingClientRect().height; }
              var before = height();
              var r = view.getBoundingClientRect();
              for (var i = 0; i < 5; i++) {
                view.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, clientX: Math.round(r.left + r.width / 2),
                  clientY: Math.round(r.top + r.height / 2), bubbles: true, cancelable: true }));
              }
              document.documentElement.setAttribute("data-context", before.toFixed(1) + " " + height().toFixed(1));
            })();
            </script>
            """
        html.insert(contentsOf: script, at: try #require(html.range(of: "</body>")).lowerBound)
        let visit = try Browser.visit(try Self.write(Array(html.utf8), folder, "berlin.html"))
        #expect(visit.console == [])
        let attribute = try #require(visit.dom.range(of: "data-context=\""))
        let heights = visit.dom[attribute.upperBound...].prefix { $0 != "\"" }.split(separator: " ").compactMap {
            Double($0)
        }
        #expect(heights.count == 2 && heights[0] >= 11 && abs(heights[0] - heights[1]) < 0.6, "\(heights)")
    }

    /// Issue 23, item 22: clusters never split on zoom. On a world map Paris and Versailles,
    /// 17 km apart, are one marker; zoomed in about a hundred times they are two, each labelled
    /// with only its own photos, and a table row highlights the markers of the level shown.
    @Test func markersSplitAsTheMapZoomsInAndNameOnlyTheirPhotos() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var points = Array(Samples.world.dropFirst())
        for index in 0..<20 {
            let inParis = index < 10
            var point = Samples.point(
                (inParis ? 48.8566 : 48.8049) + Double(index % 5) * 2e-4, inParis ? 2.3522 : 2.1204,
                (inParis ? "paris-" : "versailles-") + String(index), place: inParis ? "Paris" : "Versailles",
                country: "FR", day: 2)
            point.admin1 = "Île-de-France"
            points.append(point)
        }
        let script = """
            <script>
            (function () {
              var view = document.getElementById("view"), out = [];
              function labels() {
                return Array.prototype.filter.call(document.querySelectorAll("#labels text"), function (text) {
                  return text.id.charAt(0) === "l";
                }).map(function (text) { return text.textContent; }).sort().join("|");
              }
              function paris() {
                var best = null;
                document.querySelectorAll("#markers circle").forEach(function (circle) {
                  var r = circle.getBoundingClientRect();
                  if (!best || r.width > best.width) { best = r; }
                });
                return { x: Math.round(best.left + best.width / 2), y: Math.round(best.top + best.height / 2) };
              }
              out.push(document.querySelectorAll("#markers circle").length + " " + labels());
              var at = paris();
              for (var i = 0; i < 8; i++) {
                view.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: at.x, clientY: at.y,
                                                             bubbles: true, cancelable: true }));
              }
              out.push(document.querySelectorAll("#markers circle").length + " " + labels());
              var row = Array.prototype.filter.call(document.querySelectorAll("#table tbody tr.place"), function (tr) {
                return tr.cells[2].textContent === "Versailles";
              })[0];
              row.click();
              var lit = document.querySelectorAll(".marker.highlight");
              lit[0].dispatchEvent(new PointerEvent("pointerenter", { clientX: at.x, clientY: at.y }));
              var files = Array.prototype.map.call(document.querySelectorAll("#tip li a"), function (a) {
                return a.textContent.indexOf("versailles-") >= 0;
              });
              out.push(lit.length + " " + files.length + " " + files.every(Boolean));
              document.getElementById("zoom-reset").click();
              out.push(document.querySelectorAll("#markers circle").length + " " +
                       document.querySelectorAll(".marker.highlight").length + " " + labels());
              document.documentElement.setAttribute("data-levels", out.join(";"));
            })();
            </script>
            """
        var html = String(
            decoding: MapRenderer.html(points: points, counts: MapCounts(files: 23, located: 23)), as: UTF8.self)
        html.insert(contentsOf: script, at: try #require(html.range(of: "</body>")).lowerBound)
        let visit = try Browser.visit(try Self.write(Array(html.utf8), folder, "levels.html"))
        #expect(visit.console == [])
        let attribute = try #require(visit.dom.range(of: "data-levels=\""), "the script did not run")
        let seen = visit.dom[attribute.upperBound...].prefix { $0 != "\"" }.split(separator: ";").map(String.init)
        #expect(
            seen == [
                "4 New York (1)|Sydney (1)|Tokyo (1)|Île-de-France (20)",
                "5 Paris (10)|Versailles (10)",
                "1 10 true",
                "4 1 New York (1)|Sydney (1)|Tokyo (1)|Île-de-France (20)",
            ], "\(seen)")
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

/// The HTML page's data, without a browser.
@Suite struct HTMLContentTests {
    @Test func relativePathsLinkFromTheDirectoryAndCoordinatesHaveNoLink() {
        let points = [
            MapPoint(latitude: 48.85, longitude: 2.35, path: Array("photos/a b.jpg".utf8), place: "Paris"),
            MapPoint(latitude: 43.3, longitude: 5.37, path: [], place: "Marseille"),
            MapPoint(latitude: 45.76, longitude: 4.84, path: Array("/abs/c.jpg".utf8), place: "Lyon"),
        ]
        let html = String(
            decoding: MapRenderer.html(
                points: points, counts: MapCounts(files: 3, located: 3), directory: Array("/home/me".utf8)),
            as: UTF8.self)
        #expect(html.contains("[\"photos/a b.jpg\",\"file:///home/me/photos/a%20b.jpg\","))
        #expect(html.contains("[\"43.30000, 5.37000\",\"\","))
        #expect(html.contains("[\"/abs/c.jpg\",\"file:///abs/c.jpg\","))
        let relative = String(
            decoding: MapRenderer.html(points: points, counts: MapCounts(files: 3, located: 3)), as: UTF8.self)
        #expect(relative.contains("[\"photos/a b.jpg\",\"photos/a%20b.jpg\","))
    }
}
