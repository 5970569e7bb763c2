import TestSupport
import Testing

@testable import PhotoTagMap

@Suite struct ClusterTests {
    /// Whether two markers overlap.
    static func overlap(_ a: Cluster, _ b: Cluster) -> Bool {
        let reach = a.radius + b.radius
        return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) < reach * reach
    }

    @Test func overlappingDotsBecomeOneMarkerWithTheirCount() {
        let pixels = [
            PlanePoint(x: 100, y: 100), PlanePoint(x: 103, y: 101), PlanePoint(x: 300, y: 300),
            PlanePoint(x: 101, y: 104),
        ]
        let clusters = Cluster.make(pixels)
        #expect(clusters.map(\.members) == [[0, 1, 3], [2]])
        #expect(clusters[0].radius > clusters[1].radius)
        #expect(abs(clusters[0].x - 304.0 / 3) < 1e-9)
    }

    @Test func noTwoMarkersOverlapAndNoPhotoIsLost() {
        var random = SeededGenerator(state: 15)
        for _ in 0..<20 {
            let count = Int.random(in: 1...3000, using: &random)
            let pixels = (0..<count).map { _ in
                PlanePoint(x: Double.random(in: 0...960, using: &random), y: Double.random(in: 0...640, using: &random))
            }
            let clusters = Cluster.make(pixels)
            #expect(clusters.flatMap(\.members).sorted() == Array(0..<count))
            for a in clusters.indices {
                for b in clusters.indices where a < b {
                    #expect(!Self.overlap(clusters[a], clusters[b]))
                }
            }
        }
    }

    /// Issue 23, item 22: the HTML page reclusters at each zoom level. At every level no photo is
    /// lost, no two markers overlap at that level's scale, and a marker holds whole markers of
    /// the next finer level (zooming in splits markers, never swaps photos between them).
    @Test func eachZoomLevelSplitsTheCoarserOnesMarkersWithoutOverlap() {
        var random = SeededGenerator(state: 22)
        for _ in 0..<8 {
            let count = Int.random(in: 1...1500, using: &random)
            // Clumps, as photos are: a few towns with photos a few metres to a kilometre apart.
            let towns = (0..<6).map { _ in
                PlanePoint(x: Double.random(in: 0...960, using: &random), y: Double.random(in: 0...640, using: &random))
            }
            let pixels = (0..<count).map { _ in
                let town = towns[Int.random(in: 0..<towns.count, using: &random)]
                let spread = [0.001, 0.05, 3][Int.random(in: 0..<3, using: &random)]
                return PlanePoint(
                    x: town.x + Double.random(in: -spread...spread, using: &random),
                    y: town.y + Double.random(in: -spread...spread, using: &random))
            }
            let levels = Cluster.levels(pixels)
            #expect(levels.count == Cluster.levelScales.count)
            for (level, clusters) in levels.enumerated() {
                let scale = Cluster.levelScales[level]
                #expect(clusters.flatMap(\.members).sorted() == Array(0..<count))
                for a in clusters.indices {
                    for b in clusters.indices where a < b {
                        let reach = clusters[a].radius + clusters[b].radius
                        let dx = (clusters[a].x - clusters[b].x) * scale, dy = (clusters[a].y - clusters[b].y) * scale
                        #expect(dx * dx + dy * dy >= reach * reach, "level \(level): markers \(a) and \(b) overlap")
                    }
                }
                guard level > 0 else { continue }
                var coarser = [Int](repeating: -1, count: count)
                for (index, cluster) in levels[level - 1].enumerated() {
                    for member in cluster.members { coarser[member] = index }
                }
                for cluster in clusters {
                    #expect(Set(cluster.members.map { coarser[$0] }).count == 1, "a marker split between two")
                }
                #expect(clusters.count >= levels[level - 1].count)
            }
            // The deepest zoom tells apart photos a tenth of a pixel apart, and the map as drawn
            // has as few markers as one clustering at its scale.
            #expect(levels[levels.count - 1].count > levels[Cluster.drawnLevel].count || count < 3)
        }
        let three = [PlanePoint(x: 100, y: 100), PlanePoint(x: 103, y: 101), PlanePoint(x: 300, y: 300)]
        #expect(Cluster.levels(three)[Cluster.drawnLevel].map(\.members) == Cluster.make(three).map(\.members))
        #expect(Cluster.levels(three).last?.count == 3)
    }

    @Test func labelsNameTheBiggestPlacesAndNeverOverlap() {
        var random = SeededGenerator(state: 7)
        for _ in 0..<20 {
            let pixels = (0..<400).map { _ in
                PlanePoint(x: Double.random(in: 0...960, using: &random), y: Double.random(in: 0...500, using: &random))
            }
            let clusters = Cluster.make(pixels)
            let names = clusters.indices.map { "Place \($0 % 40)" as String? }
            let labels = Label.place(clusters, names: names, width: 960, height: 500)
            #expect(!labels.isEmpty && labels.count <= Label.most)
            for a in labels.indices {
                #expect(labels[a].box.minX >= 0 && labels[a].box.maxX <= 960)
                for b in labels.indices where a < b { #expect(!labels[a].box.meets(labels[b].box)) }
            }
            #expect(Set(labels.map(\.text)).count == labels.count)
        }
        let one = Cluster.make([PlanePoint(x: 100, y: 100)])
        #expect(Label.place(one, names: [nil], width: 960, height: 500).isEmpty)
        #expect(Label.place(one, names: ["Nadi"], width: 960, height: 500).map(\.text) == ["Nadi (1)"])
    }

    /// Issue 23, item 22: `Arezzo (25)` held photos from seven countries, only 5 from Arezzo, and
    /// `England (8)` two French ones. A marker is named by the smallest area that holds all of it.
    @Test func aMarkerIsNamedByTheSmallestAreaThatHoldsAllOfIt() {
        func point(_ place: String?, _ region: String?, _ code: String?, _ country: String? = nil) -> MapPoint {
            MapPoint(
                latitude: 0, longitude: 0, path: [], place: place, admin1: region, countryCode: code, country: country)
        }
        func name(_ points: [MapPoint]) -> String? {
            MapPicture.name(of: Cluster(x: 0, y: 0, members: Array(points.indices)), in: points)
        }
        let ashbury = point("Ashbury", "England", "GB", "United Kingdom")
        #expect(name([ashbury, ashbury, ashbury]) == "Ashbury")
        #expect(name([ashbury, point("Meldon", "England", "GB", "United Kingdom")]) == "England")
        let wales = point("Rhymney", "Wales", "GB", "United Kingdom")
        #expect(name([ashbury, ashbury, wales]) == "United Kingdom")
        #expect(name([point("A", "R", "GB"), point("B", "S", "GB")]) == "GB", "a country without its name: its code")
        // Two places of one name in two regions are not one place.
        #expect(name([point("Springfield", "Illinois", "US"), point("Springfield", "Missouri", "US")]) == "US")
        // England and France: no country holds them; the commonest first.
        let calais = point("Calais", "Hauts-de-France", "FR", "France")
        #expect(name([ashbury, ashbury, calais]) == "GB, FR")
        let seven = ["IT", "IT", "FR", "CH", "AT", "DE", "SI", "HR"].map { point("x", "r", $0) }
        #expect(name(seven) == "IT, AT, CH +4")
        #expect(name([point(nil, nil, nil), point(nil, nil, nil)]) == nil)
        #expect(name([point(nil, "Bay", "US"), point("Town", "Bay", "US")]) == "Bay")
    }
}
