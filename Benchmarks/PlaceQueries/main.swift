import PhotoTagSupport
import ReverseGeocoding

// In-process nearest-place throughput on the bundled table, one core.
//
//   swift build -c release --product place-queries && .build/release/place-queries [count] [seed]
//
// Two query sets: points uniform on the sphere (71% of them at sea, far from any place: the
// tree's hard case) and points within 20 km of a random place (where photos are taken). For
// each, prints queries per second of the full public call (`nearestPlace(to:)`, the Place with
// its names), and a checksum of the answers so that builds can be compared for identical results.
let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
var random = SplitMix64(state: arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : 1)
let geocoder = ReverseGeocoder.bundled

let uniform = (0..<count).map { _ in
    Coordinate(
        latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
        longitude: Double.random(in: -180...180, using: &random))!
}
// Near places: a random point of the uniform set snapped to its nearest place, then moved up to
// about 20 km (0.18°) in latitude and longitude.
let nearPlaces = uniform.map { point in
    let place = geocoder.nearestPlace(to: point)!.place
    return Coordinate(
        latitude: min(90, max(-90, place.latitude + Double.random(in: -0.18...0.18, using: &random))),
        longitude: min(180, max(-180, place.longitude + Double.random(in: -0.18...0.18, using: &random))))!
}

for (name, queries) in [("uniform on the sphere", uniform), ("within 20 km of a place", nearPlaces)] {
    var checksum = 0
    let start = monotonicSeconds()
    for query in queries {
        checksum &+= geocoder.nearestPlace(to: query)?.place.geonameId ?? 0
    }
    let elapsed = monotonicSeconds() - start
    let rate = Int(Double(count) / elapsed)
    print(
        "\(name): \(count) queries in \((elapsed * 1000).rounded() / 1000) s, \(rate) queries/s, checksum \(checksum)")
}
