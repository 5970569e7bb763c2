import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// The ring check of `boundaries import` (issue 26, item 13): crossings and overlaps refused
/// with the feature and the spot, touches allowed, and the work near-linear in the ring's size.
@Suite struct RingCheckTests {
    static func ring(_ points: [(Int32, Int32)]) -> [GridPoint] {
        let ring = points.map { GridPoint(x: $0.0, y: $0.1) }
        return ring + [ring[0]]
    }

    /// Every pair of edges tested, the sweep's reference: whether any two cross or overlap.
    static func bruteForceHasFault(_ ring: [GridPoint]) -> Bool {
        var edges: [RingCheck.Edge] = []
        for index in 0..<ring.count - 1 where ring[index] != ring[index + 1] {
            let p = ring[index], q = ring[index + 1]
            edges.append(
                RingCheck.precedes(p, q)
                    ? RingCheck.Edge(a: p, b: q, index: index) : RingCheck.Edge(a: q, b: p, index: index))
        }
        for i in edges.indices {
            for j in edges.indices where j > i {
                if RingCheck.fault(edges[i], edges[j], in: ring) != nil { return true }
            }
        }
        return false
    }

    @Test func crossingsAndOverlapsAreFaultsAndTouchesAreNot() throws {
        // A square: no fault. A bow tie: its two long edges cross at (1, 1).
        #expect(RingCheck.firstFault(Self.ring([(0, 0), (2, 0), (2, 2), (0, 2)])) == nil)
        let bowTie = try #require(RingCheck.firstFault(Self.ring([(0, 0), (2, 2), (2, 0), (0, 2)])))
        #expect(bowTie.longitude == 1e-5 && bowTie.latitude == 1e-5 && bowTie.edges == (1, 3))
        // A spike that turns back on itself along its own edge.
        #expect(RingCheck.firstFault(Self.ring([(0, 0), (4, 0), (4, 4), (4, 6), (4, 2), (0, 4)])) != nil)
        // Two lobes that touch at one vertex (a pinch, as real borders have), and a vertex
        // that touches another edge: allowed.
        #expect(RingCheck.firstFault(Self.ring([(0, 0), (2, 2), (4, 0), (4, 4), (2, 2), (0, 4)])) == nil)
        #expect(RingCheck.firstFault(Self.ring([(0, 0), (4, 0), (4, 4), (2, 0), (0, 4)])) == nil)
        // A vertex on another edge that the ring goes through, to the other side: a crossing.
        let through = try #require(RingCheck.firstFault(Self.ring([(0, 0), (4, 0), (4, 4), (2, 0), (2, -2), (0, -2)])))
        #expect(through.longitude == 2e-5 && through.latitude == 0)
        // A repeated position is an edge of length zero, ignored; collinear edges in a row too.
        #expect(RingCheck.firstFault(Self.ring([(0, 0), (1, 0), (1, 0), (2, 0), (2, 2), (0, 2)])) == nil)
        // Vertical edges, which the sweep meets all at one x.
        #expect(RingCheck.firstFault(Self.ring([(0, 0), (0, 4), (1, 4), (1, -1), (2, 1), (-1, 1)])) != nil)
    }

    /// Random rings on a 5×5 grid (so that edges share points and lines all the time): the sweep
    /// finds a fault exactly when testing every pair of edges finds one.
    @Test func theSweepAgreesWithTestingEveryPair() {
        var generator = SeededGenerator(state: 13)
        var faults = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 3...9, using: &generator)
            let points = (0..<count).map { _ in
                (Int32.random(in: 0...4, using: &generator), Int32.random(in: 0...4, using: &generator))
            }
            let ring = Self.ring(points)
            let expected = Self.bruteForceHasFault(ring)
            if expected { faults += 1 }
            #expect((RingCheck.firstFault(ring) != nil) == expected, "\(points)")
        }
        #expect(faults > 2_000 && faults < 18_000)  // both answers well represented
    }

    /// A comb of `teeth` horizontal teeth (the sweep line cuts every tooth at once: the tree
    /// holds thousands of edges), whose last tooth, the one furthest east, is bent back across
    /// the one before it when `crossing`: found only at the very end of the sweep.
    static func comb(teeth: Int, crossing: Bool) -> [GridPoint] {
        var points: [(Int32, Int32)] = [(0, 0)]
        for tooth in 0..<Int32(teeth) {
            let length: Int32 = 1_000 + tooth  // longer and longer: the last tooth is the east end
            points += [(length, 4 * tooth), (length, 4 * tooth + 2), (10, 4 * tooth + 2), (10, 4 * tooth + 4)]
        }
        if crossing {
            // The last tooth's tip goes down through the tooth below.
            let last = points.count - 3
            points[last].1 -= 5
        }
        points.append((0, 4 * Int32(teeth)))
        return Self.ring(points)
    }

    @Test func theWorkGrowsAsNLogNNotNSquared() throws {
        var small = 0, large = 0
        #expect(RingCheck.firstFault(Self.comb(teeth: 2_000, crossing: false), steps: &small) == nil)
        #expect(RingCheck.firstFault(Self.comb(teeth: 50_000, crossing: false), steps: &large) == nil)
        // 8,001 and 200,001 positions: 25 times the edges. n log n gives about 34 times the
        // steps; n² would give 625.
        #expect(Double(large) / Double(small) < 50, "\(small) steps, then \(large)")
        var smallCrossing = 0, largeCrossing = 0
        let fault = try #require(RingCheck.firstFault(Self.comb(teeth: 2_000, crossing: true), steps: &smallCrossing))
        #expect(fault.edges.0 > 7_900)
        #expect(RingCheck.firstFault(Self.comb(teeth: 50_000, crossing: true), steps: &largeCrossing) != nil)
        #expect(Double(largeCrossing) / Double(smallCrossing) < 50, "\(smallCrossing) steps, then \(largeCrossing)")
    }

    /// Through the reader, as `boundaries import` reads a file: the feature (its line and first
    /// properties), which ring, and where.
    @Test func theReaderNamesTheFeatureAndTheSpot() {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"tzid":"Test/Good"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,0]]]}},
            {"type":"Feature","properties":{"tzid":"Test/Bad","country":null},"geometry":{"type":"MultiPolygon","coordinates":[
              [[[10,10],[12,10],[12,12],[10,10]]],
              [[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[3,3],[3,1],[1,3],[1,1]]]]}}
            ]}
            """
        #expect(
            throws: BoundaryError.badGeoJSON(
                path: "x.geojson", line: 3,
                reason: "the feature with tzid \"Test/Bad\", country null: hole 1 of polygon 2 crosses itself at "
                    + "latitude 2.00000, longitude 2.00000 (edges 1 and 3)")
        ) { try GeoJSONReader.parse(Array(text.utf8), name: "x.geojson") }
    }
}
