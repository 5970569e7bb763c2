// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "phototag",
    products: [
        .executable(name: "phototag", targets: ["phototag"]),
        .library(name: "PhotoGPS", targets: ["PhotoGPS"]),
        .library(name: "ReverseGeocoding", targets: ["ReverseGeocoding"]),
    ],
    targets: [
        // libexif's headers, and the library to link.
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"]), .brew(["libexif"])]
        ),
        // PhotoGPS's helpers over libexif: the allocator arena and the entry accessors.
        .target(name: "CExifShim", dependencies: ["CExif"]),
        // System calls, threads, signals and libm behind typed wrappers (Platform/, the only
        // sources that import Glibc or Darwin), the lock, decimal numbers and dates: one of each
        // for every module (`package` access; not a product). `Extern` declares the one C function
        // the Glibc module lacks (renameat2, for SafeWrite.swift) with `@_extern(c)`.
        .target(name: "PhotoTagSupport", swiftSettings: [.enableExperimentalFeature("Extern")]),
        // zlib's headers and library, to inflate KMZ track files.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "PhotoGPS", dependencies: ["CExif", "CExifShim", "CZlib", "PhotoTagSupport"]),
        // The bundled place and names tables, embedded with C23 #embed (see Sources/CGeoNamesData/places.c).
        .target(name: "CGeoNamesData", exclude: ["places.table", "names.table"]),
        // The bundled boundary table, embedded the same way (see Sources/CBoundaryData/boundaries.c).
        .target(name: "CBoundaryData", exclude: ["boundaries.table"]),
        .target(name: "ReverseGeocoding", dependencies: ["CGeoNamesData", "CBoundaryData", "PhotoTagSupport"]),
        // The HTML map's CSS and JavaScript, embedded the same way (see Sources/CMapAssets/assets.c).
        .target(name: "CMapAssets", exclude: ["map.css", "map.js"]),
        // The SVG and HTML maps (`package` access; not a product).
        .target(name: "PhotoTagMap", dependencies: ["ReverseGeocoding", "CMapAssets", "PhotoTagSupport"]),
        .target(name: "PhotoTagCLI", dependencies: ["PhotoGPS", "ReverseGeocoding", "PhotoTagMap", "PhotoTagSupport"]),
        .executableTarget(name: "phototag", dependencies: ["PhotoTagCLI", "PhotoTagSupport"]),
        // Benchmarks (see Benchmarks/README.md); not installed.
        .executableTarget(
            name: "place-queries", dependencies: ["ReverseGeocoding", "PhotoTagSupport"],
            path: "Benchmarks/PlaceQueries"),
        .executableTarget(
            name: "boundary-queries", dependencies: ["ReverseGeocoding", "PhotoTagSupport"],
            path: "Benchmarks/BoundaryQueries"),
        .executableTarget(
            name: "track-queries", dependencies: ["PhotoGPS", "PhotoTagSupport"], path: "Benchmarks/TrackQueries"),
        .target(name: "TestSupport", dependencies: ["PhotoTagSupport"], path: "Tests/TestSupport"),
        .testTarget(name: "PhotoTagSupportTests", dependencies: ["PhotoTagSupport", "TestSupport"]),
        .testTarget(name: "PhotoGPSTests", dependencies: ["PhotoGPS", "TestSupport"]),
        .testTarget(name: "ReverseGeocodingTests", dependencies: ["ReverseGeocoding", "TestSupport"]),
        .testTarget(name: "PhotoTagCLITests", dependencies: ["PhotoTagCLI", "TestSupport"]),
        .testTarget(name: "PhotoTagMapTests", dependencies: ["PhotoTagMap", "ReverseGeocoding", "TestSupport"]),
        // Costs rather than answers: page faults, and the reads strace sees the built binary make.
        .testTarget(name: "PerformanceTests", dependencies: ["ReverseGeocoding", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c2x
)
