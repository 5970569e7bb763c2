import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// ``PlaceFragments`` keeps the JSON of the places written lately, by slot: a record written with
/// it must be the record written without it, whichever places were written before.
@Suite struct PlaceFragmentsTests {
    /// Clusters of nearby points (so places repeat, and the next cluster's places replace the
    /// last one's), written with a table of one entry and of two (where every place shares an
    /// entry with others) and with the table `geocode` uses: each record is the one written
    /// without a table, and the table did give back places it kept.
    @Test(arguments: [1, 2, 4096])
    func recordsWithFragmentsAreTheRecordsWithout(capacity: Int) throws {
        let locator = PlaceLocator.bundled
        let fragments = PlaceFragments(capacity: capacity)
        var random = SeededGenerator(state: 31)
        var hits = 0, points = 0
        for _ in 0..<300 {
            let latitude = Double.random(in: -80...80, using: &random)
            let longitude = Double.random(in: -179...179, using: &random)
            for _ in 0..<10 {
                let coordinate = try #require(
                    Coordinate(
                        latitude: latitude + Double.random(in: -0.5...0.5, using: &random),
                        longitude: longitude + Double.random(in: -0.5...0.5, using: &random)))
                let location = locator.locate(coordinate)
                if let slot = location.nearest?.view.slot, fragments.entry(slot) != nil { hits += 1 }
                let cached = ByteBuffer(), plain = ByteBuffer()
                var json = JSONWriter(pretty: false, into: cached)
                CoordinateRecord.writeCompact(
                    coordinate: coordinate, location: location, line: points, fragments: fragments, to: &json)
                json = JSONWriter(pretty: false, into: plain)
                CoordinateRecord.writeCompact(coordinate: coordinate, location: location, line: points, to: &json)
                #expect(
                    String(decoding: cached.bytes, as: UTF8.self) == String(decoding: plain.bytes, as: UTF8.self))
                points += 1
            }
        }
        #expect(hits > points / 4, "\(hits) of \(points) places were kept")
    }

    /// Two places in the same entry: the second replaces the first, and the first is then not
    /// found (rather than read back with the second's text).
    @Test func aPlaceIsOnlyReadBackFromItsOwnEntry() throws {
        let fragments = PlaceFragments(capacity: 4)
        let first: [UInt8] = Array("{\"geonameId\":1,\"admin1\":".utf8), second: [UInt8] = Array(",\"latitude\":2".utf8)
        first.withUnsafeBytes { head in
            second.withUnsafeBytes { middle in
                fragments.keep(3, head: head, middle: middle)
                fragments.keep(7, head: middle, middle: head)
            }
        }
        #expect(fragments.entry(3) == nil)
        let kept = try #require(fragments.entry(7))
        #expect(Array(kept.head) == second && Array(kept.middle) == first)
        #expect(fragments.entry(11) == nil)
    }
}
