// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "phototag",
    products: [
        .executable(name: "phototag", targets: ["phototag"]),
        .library(name: "PhotoGPS", targets: ["PhotoGPS"]),
    ],
    targets: [
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"]), .brew(["libexif"])]
        ),
        .target(name: "PhotoGPS", dependencies: ["CExif"]),
        .target(name: "PhotoTagCLI", dependencies: ["PhotoGPS"]),
        .executableTarget(name: "phototag", dependencies: ["PhotoTagCLI"]),
        .testTarget(name: "PhotoGPSTests", dependencies: ["PhotoGPS"]),
        .testTarget(name: "PhotoTagCLITests", dependencies: ["PhotoTagCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
