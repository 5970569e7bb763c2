import Foundation
import TestSupport
import Testing

/// The built `phototag` binary, run as users run it, against golden files in `Fixtures/expected/`.
///
/// Each case runs from the repository root (so paths in the output are `Fixtures/…`) with the
/// eight-place test table, and must match `<name>.out`, `<name>.err` and its exit status exactly.
/// To update the golden files after an intended change, run
/// `PHOTOTAG_UPDATE_GOLDEN=1 swift test --filter EndToEndTests` and review the diff.
enum Binary {
    /// The repository root.
    static let root = BuiltProducts.root

    /// `phototag` beside the test bundle in the build folder.
    static let path = BuiltProducts.path(of: "phototag")

    struct Result {
        var status: Int32
        var output: Data
        var errors: Data
        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// How to run phototag as an unprivileged user, so that file permissions apply: directly when
    /// the tests are not root; as `nobody` through util-linux's `setpriv` when they are (as in
    /// CI), if `nobody` may run the binary from where it is. `nil` when neither works.
    static let unprivileged: [String]? = {
        guard geteuid() == 0 else { return [] }
        let prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        guard FileManager.default.isExecutableFile(atPath: prefix[0]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix[0])
        process.arguments = Array(prefix.dropFirst()) + [path, "--version"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? prefix : nil
    }()

    /// Runs phototag with `arguments`, standard input from `input`, in `directory`; with
    /// `unprivileged`, as ``unprivileged`` says (the caller checks that it is not `nil`).
    static func run(
        _ arguments: [String], input: Data? = nil, directory: String = root, environment: [String: String] = [:],
        unprivileged: Bool = false
    ) throws -> Result {
        let process = Process()
        let command = (unprivileged ? Self.unprivileged ?? [] : []) + [path] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = nil
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = stderr.fileHandleForReading.readDataToEndOfFile() }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: outputData, errors: errorData)
    }
}

/// One golden case: arguments, optional standard input, expected exit status.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var input: String? = nil
    var status: Int32
    var testDescription: String { name }
}

@Suite struct EndToEndTests {
    static let table = "Fixtures/geonames/test.places"
    static let photos: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/photos")) ?? []
        return names.filter { $0.hasSuffix(".jpg") }.sorted().map { "Fixtures/photos/\($0)" }
    }()
    static let points = "Fixtures/geocode/points.txt"

    static let cases: [GoldenCase] =
        OutputFormatCases.all.map { format in
            GoldenCase(
                name: "locate-all.\(format)", arguments: ["locate", "--places", table, "--format", format] + photos,
                status: 2)
        }
        + OutputFormatCases.all.map { format in
            GoldenCase(
                name: "geocode-stdin.\(format)", arguments: ["geocode", "--places=\(table)", "--format=\(format)"],
                input: points, status: 2)
        }
        + [
            GoldenCase(
                name: "locate-located.text",
                arguments: [
                    "locate", "--places", table, "Fixtures/photos/ne-little-endian.jpg",
                    "Fixtures/photos/sw-big-endian.jpg",
                ],
                status: 0),
            GoldenCase(
                name: "locate-no-gps.text", arguments: ["locate", "--places", table, "Fixtures/photos/no-exif.jpg"],
                status: 1),
            GoldenCase(
                name: "locate-nearest.json",
                arguments: [
                    "locate", "--places", table, "--nearest", "3", "--json", "Fixtures/photos/ne-little-endian.jpg",
                ],
                status: 0),
            GoldenCase(
                name: "locate-nearest.text",
                arguments: ["locate", "--places", table, "--nearest=2", "Fixtures/photos/ne-little-endian.jpg"],
                status: 0),
            GoldenCase(
                name: "locate-no-place.csv",
                arguments: [
                    "locate", "--no-place", "--format", "csv", "Fixtures/photos/ne-little-endian.jpg",
                    "Fixtures/photos/zero-zero.jpg",
                ],
                status: 1),
            GoldenCase(
                name: "locate-quiet.text",
                arguments: [
                    "locate", "-q", "--places", table, "Fixtures/photos/empty.jpg",
                    "Fixtures/photos/srational-negative.jpg",
                ],
                status: 2),
            GoldenCase(
                name: "scan-photos.ndjson",
                arguments: ["scan", "--places", table, "--format", "ndjson", "Fixtures/photos"], status: 2),
            GoldenCase(name: "scan-photos.text", arguments: ["scan", "--places", table, "Fixtures/photos"], status: 2),
            GoldenCase(
                name: "scan-with-gps.csv",
                arguments: ["scan", "--places", table, "--with-gps", "--format=csv", "Fixtures"], status: 2),
            GoldenCase(
                name: "scan-without-gps.text",
                arguments: ["scan", "--places", table, "--without-gps", "-q", "Fixtures/photos"], status: 2),
            GoldenCase(
                name: "locate-all.exiftool-csv",
                arguments: ["locate", "--places", table, "--format", "exiftool-csv", "--all-positions"] + photos,
                status: 2),
            GoldenCase(
                name: "scan-sidecars.exiftool-csv",
                arguments: ["scan", "--format", "exiftool-csv", "--lang", "de", "Fixtures/sidecars"], status: 0),
            GoldenCase(
                name: "scan-near.geojson",
                arguments: [
                    "scan", "--places", table, "--near", "48.85,2.29", "--within", "10", "--format", "geojson", "-q",
                    "Fixtures/photos",
                ],
                status: 2),
            GoldenCase(
                name: "scan-summary.text",
                arguments: ["scan", "--places", table, "--summary", "-q", "Fixtures/photos"], status: 2),
            GoldenCase(
                name: "scan-summary.json",
                arguments: ["scan", "--places", table, "--summary", "--json", "-q", "Fixtures/photos"], status: 2),
            GoldenCase(
                name: "scan-sort-roots.text",
                arguments: [
                    "scan", "--no-place", "--sort", "Fixtures/photos/zero-zero.jpg", "Fixtures/photos/equator.jpg",
                ], status: 0),
            GoldenCase(
                name: "geocode-arguments.text", arguments: ["geocode", "--places", table, "48.85,2.29", "-33.9,151.2"],
                status: 0),
            GoldenCase(
                name: "geocode-max-distance.json",
                arguments: [
                    "geocode", "--places", table, "--max-distance", "1", "--json", "48.85,2.29", "48.8566,2.3522",
                ], status: 1),
            GoldenCase(
                name: "geocode-min-population.ndjson",
                arguments: [
                    "geocode", "--places", table, "--min-population", "1000000", "--format", "ndjson", "43.3,5.4",
                ], status: 0),
            GoldenCase(name: "usage-typo.text", arguments: ["locate", "--fromat", "json", "x.jpg"], status: 64),
            GoldenCase(
                name: "usage-missing-within.text", arguments: ["scan", "--near", "1,2", "Fixtures"], status: 64),
            GoldenCase(name: "usage-bad-nearest.text", arguments: ["geocode", "--nearest", "0", "1,2"], status: 64),
            GoldenCase(name: "places-info.text", arguments: ["places", "info", "--places", table], status: 0),
            GoldenCase(name: "help.text", arguments: ["--help"], status: 0),
            GoldenCase(name: "help-locate.text", arguments: ["help", "locate"], status: 0),
            GoldenCase(name: "help-scan.text", arguments: ["scan", "--help"], status: 0),
            GoldenCase(name: "help-tag.text", arguments: ["tag", "--help"], status: 0),
            GoldenCase(name: "help-geocode.text", arguments: ["help", "geocode"], status: 0),
            GoldenCase(name: "help-places-import.text", arguments: ["help", "places", "import"], status: 0),
            GoldenCase(name: "help-places-info.text", arguments: ["places", "info", "-h"], status: 0),
            GoldenCase(name: "help-completions.text", arguments: ["help", "completions"], status: 0),
            GoldenCase(name: "help-manpage.text", arguments: ["help", "manpage"], status: 0),
            GoldenCase(name: "version.text", arguments: ["--version"], status: 0),
        ]

    @Test(arguments: cases)
    func outputMatchesTheGoldenFiles(_ golden: GoldenCase) throws {
        let input = try golden.input.map { try Data(contentsOf: URL(fileURLWithPath: Binary.root + "/" + $0)) }
        let result = try Binary.run(golden.arguments, input: input)
        let base = Fixtures.root + "/expected/" + golden.name
        if ProcessInfo.processInfo.environment["PHOTOTAG_UPDATE_GOLDEN"] != nil {
            try result.output.write(to: URL(fileURLWithPath: base + ".out"))
            try result.errors.write(to: URL(fileURLWithPath: base + ".err"))
        }
        #expect(result.status == golden.status)
        #expect(
            String(decoding: result.output, as: UTF8.self)
                == (try String(contentsOfFile: base + ".out", encoding: .utf8)))
        #expect(
            String(decoding: result.errors, as: UTF8.self)
                == (try String(contentsOfFile: base + ".err", encoding: .utf8)))
    }

    @Test func runningTwiceGivesTheSameBytes() throws {
        let arguments = ["scan", "--places", Self.table, "--format", "ndjson", "Fixtures"]
        let first = try Binary.run(arguments), second = try Binary.run(arguments)
        #expect(first.output == second.output)
        #expect(!first.output.isEmpty)
    }

    @Test func everyGoldenFileBelongsToACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/expected")
        let names = Set(Self.cases.flatMap { [$0.name + ".out", $0.name + ".err"] })
        #expect(Set(files).subtracting(["README.md"]) == names)
    }
}

enum OutputFormatCases {
    static let all = ["text", "json", "ndjson", "csv", "geojson"]
}
