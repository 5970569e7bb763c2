// swift-tools-version:6.0
// A libFuzzer target over PhotoGPS (bytes → JPEG segments → EXIF block → libexif → GPS decoding).
// Build and run it with ./run (see README.md); a plain `swift build` here builds a small replay tool.
import PackageDescription

let package = Package(
    name: "PhotoGPSFuzz",
    dependencies: [
        .package(name: "phototag", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "PhotoGPSFuzzer",
            dependencies: [.product(name: "PhotoGPS", package: "phototag")]
        ),
        // Sidecars (XMP files, Google Takeout JSON): FUZZ_TARGET=SidecarFuzzer ./run
        .executableTarget(
            name: "SidecarFuzzer",
            dependencies: [.product(name: "PhotoGPS", package: "phototag")]
        ),
        // The sidecar editor of phototag tag (updating XMP sidecars): FUZZ_TARGET=XMPEditorFuzzer ./run
        .executableTarget(
            name: "XMPEditorFuzzer",
            dependencies: [.product(name: "PhotoGPS", package: "phototag")]
        ),
        // Track files (GPX, KML, KMZ, NMEA, IGC, FIT, CSV, Google location history):
        // FUZZ_TARGET=TrackFuzzer ./run, TRACK_FORMAT=gpx… to drive one reader.
        .executableTarget(
            name: "TrackFuzzer",
            dependencies: [.product(name: "PhotoGPS", package: "phototag")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
