import PhotoGPS
import PhotoTagSupport

// In-process matching of instants against a big track, one core: the "matching 100,000 photos
// against 10M fixes takes ≤ 1 s after reading" target of Benchmarks/README.md ("Tracks").
//
//   swift build -c release --product track-queries && .build/release/track-queries [fixes] [photos] [seed]
//
// The track is a walk of `fixes` fixes (10M by default) 5 s apart on average, each gap drawn
// from 1-9 s, with a gap of two hours after one fix in a thousand, so that every rule is taken: on a fix,
// between two, across a wide gap, beyond the ends. It is built the way a file's fixes are
// (Track.add, the compact run), then `photos` random instants over its span are placed. Prints
// the build time and bytes per fix, the placements per second, how many were placed, and a
// checksum of the positions so that builds can be compared for identical results.
let arguments = CommandLine.arguments
let fixCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000_000 : 10_000_000
let photoCount = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
var random = SplitMix64(state: arguments.count > 3 ? UInt64(arguments[3]) ?? 1 : 1)

let start = 1_500_000_000.0
var time = start, latitude = 48.0, longitude = 2.0
let fixes = (0..<fixCount).lazy.map { _ -> TrackFix in
    time += Double.random(in: 0...1, using: &random) < 0.999 ? Double(Int.random(in: 1...9, using: &random)) : 7200
    latitude = min(80, max(-80, latitude + Double.random(in: -1e-4...1e-4, using: &random)))
    longitude += Double.random(in: -1e-4...1e-4, using: &random)
    if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
    return TrackFix(time: time, latitude: latitude, longitude: longitude, altitude: nil)
}
let before = peakResidentBytes()
let buildStart = monotonicSeconds()
var track = Track()
track.add(file: "walk", fixes: fixes)
let buildTime = monotonicSeconds() - buildStart
let perFix = Double(peakResidentBytes() - before) / Double(fixCount)
print(
    "built \(track.count) fixes in \((buildTime * 1000).rounded() / 1000) s, about \((perFix * 10).rounded() / 10) bytes per fix resident"
)

let span = track.timeRange!
let instants = (0..<photoCount).map { _ in
    Double.random(in: span.lowerBound - 3600...span.upperBound + 3600, using: &random)
}
var placed = 0, checksum = 0.0
let queryStart = monotonicSeconds()
for instant in instants {
    if case .success(let position) = track.position(at: instant) {
        placed += 1
        checksum += position.latitude + position.longitude
    }
}
let elapsed = monotonicSeconds() - queryStart
print(
    "placed \(placed) of \(photoCount) instants in \((elapsed * 1000).rounded() / 1000) s, \(Int(Double(photoCount) / elapsed)) per second, checksum \(checksum)"
)
