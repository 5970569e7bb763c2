import Foundation
import TestSupport
import Testing

@testable import PhotoTagMap

/// Issue 23, item 24: a city-scale map (`--near 52.52,13.405 --within 30`) was a beige box with
/// four dots. It names the largest places around, from the place table in the binary.
@Suite struct ContextLabelTests {
    static let berlin = [(52.52, 13.405), (52.50, 13.35), (52.55, 13.45), (52.45, 13.3)].map {
        MapPoint(latitude: $0.0, longitude: $0.1, path: [], place: "Berlin", admin1: "Berlin", countryCode: "DE")
    }

    @Test func aCityMapNamesTheLargestPlacesAroundWhereNothingElseIs() throws {
        let picture = MapPicture(points: Self.berlin, counts: MapCounts(files: 4, located: 4))
        let names = picture.context.map(\.name)
        #expect(names.count >= 6 && names.count <= ContextLabel.most, "\(names)")
        #expect(names.contains("Kreuzberg") || names.contains("Neukölln"), "\(names)")
        let markers = picture.clusters.map {
            PlaneRect(minX: $0.x - $0.radius, minY: $0.y - $0.radius, maxX: $0.x + $0.radius, maxY: $0.y + $0.radius)
        }
        for (index, label) in picture.context.enumerated() {
            #expect(label.box.minX >= 0 && label.box.maxX <= picture.frame.width, "\(label.name)")
            #expect(label.box.minY >= 0 && label.box.maxY <= picture.frame.height, "\(label.name)")
            #expect(!markers.contains { $0.meets(label.box) }, "\(label.name) covers a marker")
            #expect(!picture.labels.contains { $0.box.meets(label.box) }, "\(label.name) covers a label")
            for other in picture.context[(index + 1)...] { #expect(!other.box.meets(label.box)) }
        }
        let svg = String(
            decoding: MapRenderer.svg(points: Self.berlin, counts: MapCounts(files: 4, located: 4)), as: UTF8.self)
        let context = try #require(svg.range(of: "<g id=\"context\""))
        #expect(svg.range(of: "<g id=\"markers\"")!.lowerBound > context.lowerBound, "under the markers")
    }

    @Test func aCountryOrTheWorldHasNone() {
        let france = [
            MapPoint(latitude: 48.8566, longitude: 2.3522, path: []),
            MapPoint(latitude: 43.2965, longitude: 5.3698, path: []),
        ]
        #expect(MapPicture(points: france, counts: MapCounts(files: 2, located: 2)).context.isEmpty)
        #expect(MapPicture(points: Samples.world, counts: MapCounts(files: 4, located: 4)).context.isEmpty)
    }
}
