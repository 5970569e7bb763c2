import Foundation
import TestSupport
import Testing

@testable import PhotoTagMap

/// `phototag scan --format svg` and `--format html` on real photos, through the same checks as
/// the renderer's own tests: the project's fixtures always, the shared development corpus when
/// it is there.
@Suite(
    .serialized,
    .enabled(
        if: Tools.xmllint != nil && Tools.rsvgConvert != nil && Tools.chromium != nil,
        "xmllint, rsvg-convert or Chromium is not installed: Scripts/install-test-tools"))
struct EndToEndMapTests {
    /// The repository root.
    static let root = String(Fixtures.root.dropLast("/Fixtures".count))

    /// The `phototag` binary beside the test bundle.
    static let binary: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("phototag").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root + "/.build/debug/phototag"
    }()

    /// Runs phototag from the repository root; its standard output and exit status.
    static func phototag(_ arguments: [String]) throws -> (bytes: [UInt8], status: Int32) {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        #expect(FileManager.default.createFile(atPath: folder + "/out", contents: nil))
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/out"))
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        return (try readWholeFile(folder + "/out"), process.terminationStatus)
    }

    /// The located positions of a scan and their place names, from its JSON records (the same
    /// doubles the map drew, and the names its labels show).
    static func positions(_ arguments: [String]) throws -> (files: Int, points: [MapPoint]) {
        let (bytes, _) = try phototag(["scan", "--json"] + arguments)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
        let points: [MapPoint] = records.compactMap { record in
            guard let gps = record["gps"] as? [String: Any], let latitude = gps["latitude"] as? Double,
                let longitude = gps["longitude"] as? Double, record["status"] as? String == "located"
            else { return nil }
            // As the map names them: the city when there is one, the region and the country.
            let place = record["place"] as? [String: Any], city = place?["city"] as? [String: Any]
            return MapPoint(
                latitude: latitude, longitude: longitude, path: [],
                place: city?["name"] as? String ?? place?["name"] as? String, admin1: place?["admin1"] as? String,
                countryCode: place?["countryCode"] as? String, country: place?["country"] as? String)
        }
        return (records.count, points)
    }

    /// Scans to SVG and HTML and checks both as a reader would.
    func check(_ arguments: [String], name: String) throws {
        let (files, points) = try Self.positions(arguments)
        #expect(!points.isEmpty)
        let svg = try Self.phototag(["scan", "--format", "svg"] + arguments)
        #expect(try Self.phototag(["scan", "--format", "svg"] + arguments).bytes == svg.bytes, "deterministic")
        let html = try Self.phototag(["scan", "--format", "html"] + arguments)
        #expect(try Self.phototag(["scan", "--format", "html"] + arguments).bytes == html.bytes, "deterministic")
        #expect(svg.status == html.status)

        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let svgPath = folder + "/\(name).svg", htmlPath = folder + "/\(name).html"
        try Tools.write(svg.bytes, to: svgPath)
        try Tools.write(html.bytes, to: htmlPath)
        #expect(try Tools.wellFormedProblems(svgPath) == nil)
        let text = String(decoding: svg.bytes, as: UTF8.self)
        #expect(text.contains(">\(MarkupText.count(files, "file", "files")), \(points.count) located"))

        // The map drawn from the same positions: every marker on its pixel, in the marker's colour
        // (a single dot at its centre; a cluster above its count; not where a label covers it).
        let picture = MapPicture(points: points, counts: MapCounts(files: files, located: points.count))
        #expect(text.components(separatedBy: "class=\"marker\"").count - 1 == picture.clusters.count)
        let image = try Tools.render(svg: svgPath)
        var checked = 0
        for cluster in picture.clusters {
            let x = cluster.x, y = cluster.members.count == 1 ? cluster.y : cluster.y - 0.75 * cluster.radius
            let covered = picture.labels.contains {
                $0.box.meets(PlaneRect(minX: x - 1, minY: y - 1, maxX: x + 1, maxY: y + 1))
            }
            guard !covered else { continue }
            checked += 1
            let colour = image.colour(x: Int(x), y: Int(y + MapPicture.header))
            #expect(colour == MapColours.marker, "marker at \(x), \(y)")
        }
        #expect(checked >= picture.clusters.count * 3 / 4)
        // Open sea in the middle of the South Atlantic, when the frame shows it.
        let sea = picture.frame.pixel(latitude: -30, longitude: -15)
        if sea.x > 0, sea.x < picture.frame.width, sea.y > 0, sea.y < picture.frame.height {
            #expect(image.colour(x: Int(sea.x), y: Int(sea.y + MapPicture.header)) == MapColours.sea)
        }

        let visit = try Browser.visit(htmlPath)
        #expect(visit.console == [])
        #expect(visit.requests == [])
        #expect(visit.dom.contains("data-ready=\"true\""))
        #expect(visit.dom.components(separatedBy: "class=\"marker\"").count - 1 == picture.clusters.count)
        #expect(visit.screenshot.distinctColours > 100)
    }

    @Test func theFixturesMakeAMap() throws {
        try check(["--places", "Fixtures/geonames/test.places", "Fixtures/photos"], name: "fixtures")
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: SharedData.path("corpus/dev/manifest.tsv")),
            "the dev corpus (../shared/corpus/dev) is not present"))
    func theDevelopmentCorpusMakesAMap() throws {
        try check([SharedData.path("corpus/dev")], name: "dev")
    }
}
