import PhotoTagSupport
import ReverseGeocoding

// In-process boundary lookup throughput on the bundled table, one core.
//
//   swift build -c release --product boundary-queries && .build/release/boundary-queries [count] [seed]
//
// Two query sets: points uniform on the sphere (mostly open sea: few edges, no fallback) and
// points within 20 km of a random place (on land and along coasts, where the admin-1 fallback
// runs). For each, prints lookups per second of `features(latitude:longitude:)` (all three
// layers, fallback included, no allocation) and of `lookup(latitude:longitude:)` (with the
// strings), the first also without the fallback (containment only), and a checksum of the answers so that builds can be compared for identical results.
// Then the smallest named sea of the uniform points at sea (the bundled sea table).
let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
var random = SplitMix64(state: arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : 1)
let start = monotonicSeconds()
let table = BoundaryTable.bundled
print("open: \(Int((monotonicSeconds() - start) * 1e6)) µs, \(table.byteCount) bytes")

let uniform = (0..<count).map { _ in
    (asin(Double.random(in: -1...1, using: &random)) * 180 / .pi, Double.random(in: -180...180, using: &random))
}
let geocoder = ReverseGeocoder.bundled
let nearPlaces = uniform.map { point in
    let place = geocoder.nearestPlace(to: Coordinate(latitude: point.0, longitude: point.1)!)!.place
    return (
        min(90, max(-90, place.latitude + Double.random(in: -0.18...0.18, using: &random))),
        min(180, max(-180, place.longitude + Double.random(in: -0.18...0.18, using: &random)))
    )
}

// The sea table, asked (as `geocode` asks it) only for the points that no country contains.
let seas = BoundaryTable.bundledSeas
let atSea = uniform.filter { table.features(latitude: $0.0, longitude: $0.1).countryIndex < 0 }
do {
    var checksum = 0
    let begin = monotonicSeconds()
    for (latitude, longitude) in atSea {
        checksum &+= seas.sea(Coordinate(latitude: latitude, longitude: longitude)!) ?? -1
    }
    let seconds = monotonicSeconds() - begin
    print(
        "seas, \(atSea.count) uniform points at sea: \(Int(Double(atSea.count) / seconds)) lookups/s, checksum \(checksum)"
    )
}

for (name, queries) in [("uniform on the sphere", uniform), ("within 20 km of a place", nearPlaces)] {
    var checksum = 0
    var fallbacks = 0
    var begin = monotonicSeconds()
    for (latitude, longitude) in queries {
        let found = table.features(latitude: latitude, longitude: longitude)
        checksum &+= Int(found.timeZoneIndex) &* 31 &+ Int(found.countryIndex) &* 7 &+ Int(found.admin1Index)
        if found.admin1FromFallback { fallbacks += 1 }
    }
    let indices = monotonicSeconds() - begin
    begin = monotonicSeconds()
    for (latitude, longitude) in queries {
        checksum &+= Int(table.features(latitude: latitude, longitude: longitude, fallback: false).timeZoneIndex)
    }
    let containment = monotonicSeconds() - begin
    begin = monotonicSeconds()
    for (latitude, longitude) in queries {
        checksum &+= table.lookup(latitude: latitude, longitude: longitude).timeZones.count
    }
    let strings = monotonicSeconds() - begin
    print(
        "\(name): \(Int(Double(count) / containment)) containments/s, \(Int(Double(count) / indices)) features/s, "
            + "\(Int(Double(count) / strings)) lookups/s, "
            + "\(fallbacks) admin-1 fallbacks, checksum \(checksum)")
}
