import Foundation
import TestSupport
import Testing

@testable import PhotoTagMap

/// The SVG as a reader sees it: xmllint parses it, rsvg-convert draws it, and the pixels at the
/// photos' projected positions are the marker's colour while the open sea is the sea's.
@Suite(
    .enabled(
        if: Tools.xmllint != nil && Tools.rsvgConvert != nil,
        "xmllint (libxml2-utils) or rsvg-convert (librsvg2-bin) is not installed: Scripts/install-test-tools"))
struct SVGRenderingTests {
    /// Writes, checks and renders an SVG; returns the picture (for positions) and the image.
    static func draw(_ points: [MapPoint], name: String, files: Int? = nil) throws -> (MapPicture, PNGImage, Int) {
        let bytes = MapRenderer.svg(
            points: points, counts: MapCounts(files: files ?? points.count, located: points.count))
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/\(name).svg"
        try Tools.write(bytes, to: path)
        #expect(try Tools.wellFormedProblems(path) == nil)
        let image = try Tools.render(svg: path)
        let picture = MapPicture(points: points, counts: MapCounts(files: files ?? points.count, located: points.count))
        #expect(image.width == Int(picture.frame.width) && image.height == Int(picture.totalHeight.rounded()))
        return (picture, image, bytes.count)
    }

    /// The colour at a position's projected pixel.
    static func colour(_ image: PNGImage, _ picture: MapPicture, _ latitude: Double, _ longitude: Double) -> String? {
        let pixel = picture.frame.pixel(latitude: latitude, longitude: longitude)
        return image.colour(x: Int(pixel.x), y: Int(pixel.y + MapPicture.header))
    }

    static func checkDots(_ points: [MapPoint], _ image: PNGImage, _ picture: MapPicture) {
        for point in points {
            #expect(
                colour(image, picture, point.latitude, point.longitude) == MapColours.marker,
                "\(MarkupText.shown(point.path))")
        }
    }

    @Test func aWorldMapShowsEachCityOnItsPixelAndTheSeaBetween() throws {
        let (picture, image, _) = try Self.draw(Samples.world, name: "world")
        Self.checkDots(Samples.world, image, picture)
        #expect(Self.colour(image, picture, 30, -40) == MapColours.sea)  // the North Atlantic
        #expect(Self.colour(image, picture, -20, 75) == MapColours.sea)  // the Indian Ocean
        #expect(Self.colour(image, picture, 23, 12) == MapColours.land)  // the Sahara (Libya)
        #expect(image.colour(x: 5, y: 5) == MapColours.background)
    }

    @Test func aCountryMapShowsEachCityOnItsPixelAndTheSeaBetween() throws {
        let (picture, image, _) = try Self.draw(Samples.france, name: "france")
        Self.checkDots(Samples.france, image, picture)
        #expect(Self.colour(image, picture, 45.5, -3.5) == MapColours.sea)  // the Bay of Biscay
        #expect(Self.colour(image, picture, 42.8, 5.5) == MapColours.sea)  // the Gulf of Lion
        #expect(Self.colour(image, picture, 46.5, 2.5) == MapColours.land)  // the Centre
    }

    /// Issue 23, item 24: a city-scale map draws the borders between regions (Berlin's with
    /// Brandenburg here), and only there: the pixels that the regions' path changes all lie on
    /// it. A world map has none.
    @Test func aCityMapDrawsTheRegionsBorders() throws {
        let points = ContextLabelTests.berlin
        let counts = MapCounts(files: 4, located: 4)
        let picture = MapPicture(points: points, counts: counts)
        #expect(!picture.regionBorders.isEmpty)
        let svg = String(decoding: MapRenderer.svg(points: points, counts: counts), as: UTF8.self)
        let start = try #require(svg.range(of: "<path id=\"regions\""))
        let end = try #require(svg.range(of: "/>\n", range: start.upperBound..<svg.endIndex))
        var without = svg
        without.removeSubrange(start.lowerBound..<end.upperBound)
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Tools.write(Array(svg.utf8), to: folder + "/with.svg")
        try Tools.write(Array(without.utf8), to: folder + "/without.svg")
        #expect(try Tools.wellFormedProblems(folder + "/with.svg") == nil)
        let drawn = try Tools.render(svg: folder + "/with.svg"), bare = try Tools.render(svg: folder + "/without.svg")
        // The border's pixels, from its vertices (every 10th of a pixel along each edge).
        var near = Set<Int>()
        for line in MapPicture.bundledOutlines.regionBorders {
            for index in line.indices.dropFirst() {
                let a = picture.frame.pixel(latitude: line[index - 1].latitude, longitude: line[index - 1].longitude)
                let b = picture.frame.pixel(latitude: line[index].latitude, longitude: line[index].longitude)
                guard max(a.x, b.x) > -10, min(a.x, b.x) < picture.frame.width + 10, max(a.y, b.y) > -10,
                    min(a.y, b.y) < picture.frame.height + 10
                else { continue }
                let steps = max(1, Int((hypot(b.x - a.x, b.y - a.y) * 10).rounded(.up)))
                for step in 0...steps {
                    let t = Double(step) / Double(steps)
                    let x = Int((a.x + t * (b.x - a.x)).rounded()), y = Int((a.y + t * (b.y - a.y)).rounded())
                    for dy in -2...2 { for dx in -2...2 { near.insert((y + dy) * 100_000 + x + dx) } }
                }
            }
        }
        var changed = 0, astray = 0
        for y in 0..<Int(picture.frame.height) {
            for x in 0..<Int(picture.frame.width) {
                let row = y + Int(MapPicture.header)
                guard drawn.colour(x: x, y: row) != bare.colour(x: x, y: row) else { continue }
                changed += 1
                if !near.contains(y * 100_000 + x) { astray += 1 }
            }
        }
        #expect(changed > 300, "the border is drawn")
        #expect(astray == 0, "and nothing else is")
        let world = String(
            decoding: MapRenderer.svg(points: Samples.world, counts: MapCounts(files: 4, located: 4)), as: UTF8.self)
        #expect(!world.contains("id=\"regions\""))
    }

    @Test func aMapAcrossTheAntimeridianShowsBothSides() throws {
        let (picture, image, _) = try Self.draw(Samples.fiji, name: "fiji")
        Self.checkDots(Samples.fiji, image, picture)
        #expect(Self.colour(image, picture, -17.0, 179.0) == MapColours.sea)  // the Koro Sea
        #expect(Self.colour(image, picture, -17.6, 177.6) == MapColours.land)  // Viti Levu (its west)
        let bering = [
            Samples.point(64.73, 177.51, "Anadyr"), Samples.point(64.50, -165.41, "Nome"),
        ]
        let (picture2, image2, _) = try Self.draw(bering, name: "bering")
        Self.checkDots(bering, image2, picture2)
        #expect(Self.colour(image2, picture2, 63.0, -175.0) == MapColours.sea)  // the Bering Sea
        #expect(Self.colour(image2, picture2, 66.0, -172.0) == MapColours.land)  // Chukotka, west of 180°
    }

    @Test func aWorldMapRoundThePacificShowsEachCityAndTheOcean() throws {
        let (picture, image, _) = try Self.draw(Samples.pacific, name: "pacific")
        Self.checkDots(Samples.pacific, image, picture)
        #expect(Self.colour(image, picture, 0, -170) == MapColours.sea)  // the middle of the Pacific
        #expect(Self.colour(image, picture, 0, 179.9) == MapColours.sea)  // both sides of ±180°
        #expect(Self.colour(image, picture, 0, -179.9) == MapColours.sea)
        #expect(Self.colour(image, picture, 64, -150) == MapColours.land)  // Alaska
        #expect(Self.colour(image, picture, 65, 170) == MapColours.land)  // Chukotka, across ±180°
        #expect(Self.colour(image, picture, -25, 134) == MapColours.land)  // Australia
    }

    @Test func theWholeWorldStaysUnder300KBAndACountryUnder150KB() throws {
        let (worldPicture, worldImage, world) = try Self.draw(Samples.globe, name: "globe")
        Self.checkDots(Samples.globe, worldImage, worldPicture)
        #expect(Self.colour(worldImage, worldPicture, -80, 60) == MapColours.land)  // Antarctica
        let (_, _, country) = try Self.draw(Samples.france, name: "france")
        print("map sizes: world \(world) bytes, country \(country) bytes")
        #expect(world <= 300_000)
        #expect(country <= 150_000)
        // Drawn, not empty: most of the bytes are outlines.
        #expect(world > 50_000 && country > 3_000)
    }

    @Test func twoRendersGiveTheSameBytes() {
        for points in [Samples.world, Samples.france, Samples.fiji, []] {
            let counts = MapCounts(files: 7, located: points.count)
            #expect(MapRenderer.svg(points: points, counts: counts) == MapRenderer.svg(points: points, counts: counts))
            #expect(
                MapRenderer.html(points: points, counts: counts) == MapRenderer.html(points: points, counts: counts))
        }
    }

    @Test func textWithMarkupAndInvalidUTF8StaysWellFormed() throws {
        var points = Samples.france
        points[0].path = Array("/photos/<a href=\"x\">&'.jpg".utf8) + [0xFF, 0xC3, 0x28, 0x01]
        points[0].place = "<Paris & \"Co\" 'x'>\u{1}"
        points[1].admin1 = "Provence-Alpes-Côte d'Azur"
        let (picture, image, _) = try Self.draw(points, name: "markup")
        Self.checkDots(points, image, picture)
        let text = String(
            decoding: MapRenderer.svg(points: points, counts: MapCounts(files: 4, located: 4)), as: UTF8.self)
        #expect(text.contains("&lt;Paris &amp; &quot;Co&quot; &#39;x&#39;&gt;\u{FFFD}"))
        #expect(!text.contains("<Paris"))
    }

    @Test func aRunWithNothingLocatedStillGivesAWorldMap() throws {
        let (picture, image, _) = try Self.draw([], name: "empty", files: 3)
        #expect(picture.frame.isWorld && picture.clusters.isEmpty)
        #expect(picture.title == "3 files, 0 located")
        #expect(Self.colour(image, picture, 0, -30) == MapColours.sea)
        #expect(Self.colour(image, picture, -25, 134) == MapColours.land)
    }

    @Test func theTitleCountsAndDatesTheRun() throws {
        let (picture, _, _) = try Self.draw(Samples.world, name: "title", files: 10)
        #expect(picture.title == "10 files, 4 located, 2019-07-01 – 2019-07-12")
        let svg = String(
            decoding: MapRenderer.svg(points: Samples.world, counts: MapCounts(files: 10, located: 4)), as: UTF8.self)
        #expect(svg.contains(">10 files, 4 located, 2019-07-01 – 2019-07-12</text>"))
        #expect(svg.contains("GeoNames"))
        #expect(svg.contains("OpenStreetMap contributors"))
        #expect(svg.contains("Natural Earth"))
        #expect(svg.contains(" km"))
    }
}
