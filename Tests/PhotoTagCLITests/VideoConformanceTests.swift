import Foundation
import TestSupport
import Testing

/// The shared corpus of real videos and XMP sidecars (`$PHOTOTAG_SHARED/corpus/video-dev`, by
/// default `../shared` beside the repository), with ExifTool 13.58's readings in `manifest.tsv`.
/// Users' clones do not have it; then these tests skip.
enum VideoCorpusFiles {
    static let directory = SharedData.path("corpus/video-dev")

    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/manifest.tsv") }

    /// The manifest's rows as column name → value.
    static func manifest() throws -> [[String: String]] { try SharedData.manifest(in: directory) }
}

/// Conformance on real videos: the built binary over every video of the corpus, record by record
/// against the manifest. The `.xmp` sidecar rows are left to the sidecar conformance test: they
/// are not videos, and a sidecar is read with the photo it belongs to.
@Suite(
    .enabled(
        if: VideoCorpusFiles.available, "the video corpus (../shared/corpus/video-dev/manifest.tsv) is not present")
)
struct VideoConformanceTests {
    /// ExifTool's group and tag → phototag's `gps.source`.
    static let sources = [
        "Keys:GPSCoordinates": "quicktime-keys", "UserData:GPSCoordinates": "udta-xyz",
        "ItemList:GPSCoordinates": "udta-xyz", "UserData:LocationInformation": "3gpp-loci",
    ]

    /// Every `valid` video located within 1e-5° (altitude 0.01 m) from the box ExifTool names,
    /// every `zero-zero` one invalid with the placeholder warning, every `none` one without a
    /// position (no GPS, or an error with a message). Prints the counts per class.
    @Test func locatingEveryCorpusVideoMatchesTheManifest() throws {
        let rows = try VideoCorpusFiles.manifest().filter { $0["file_type"] != "XMP" }
        #expect(rows.count >= 25)
        let paths = rows.map { VideoCorpusFiles.directory + "/" + $0["file"]! }
        let result = try Binary.run(["locate", "--no-place", "--format", "ndjson", "-q"] + paths)
        var records: [String: [String: Any]] = [:]
        for line in result.text.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            records[String((record["file"] as! String).split(separator: "/").last!)] = record
        }
        var classes: [String: (total: Int, ok: Int)] = [:]
        for row in rows {
            let file = row["file"]!
            guard let record = records[file] else {
                Issue.record("\(file): no record")
                continue
            }
            let problems = Self.check(record, against: row)
            let key = "\(row["file_type"]!) \(row["gps_status"]!)"
            classes[key, default: (0, 0)].total += 1
            if problems.isEmpty { classes[key]!.ok += 1 }
            for problem in problems { Issue.record("\(file): \(problem)") }
        }
        for (name, count) in classes.sorted(by: { $0.key < $1.key }) {
            print("video conformance: \(name): \(count.ok)/\(count.total) as expected")
        }
    }

    /// What is wrong with one record, given its manifest row.
    static func check(_ record: [String: Any], against row: [String: String]) -> [String] {
        let status = record["status"] as? String ?? "?"
        let gps = record["gps"] as? [String: Any]
        let warnings = record["warnings"] as? [String] ?? []
        switch row["gps_status"]! {
        case "valid":
            guard status == "located", let gps else { return ["expected located, got \(status) \(warnings)"] }
            var problems: [String] = []
            for (key, column) in [("latitude", "lat"), ("longitude", "lon")] {
                let value = gps[key] as? Double ?? .nan
                if !(abs(value - Double(row[column]!)!) <= 1e-5) {
                    problems.append("\(key) \(value) vs \(row[column]!)")
                }
            }
            if let altitude = Double(row["alt"]!), !(abs((gps["altitude"] as? Double ?? .nan) - altitude) <= 0.01) {
                problems.append("altitude \(gps["altitude"] ?? "nil") vs \(altitude)")
            }
            let tag = row["source_tag"]!
            if let wanted = sources[tag], gps["source"] as? String != wanted {
                problems.append("source \(gps["source"] ?? "nil") vs \(wanted) (\(tag))")
            }
            return problems
        case "zero-zero":
            return status == "invalid-gps" && warnings.contains("position 0, 0 is the no-fix placeholder")
                ? [] : ["expected invalid-gps with the placeholder warning, got \(status) \(warnings)"]
        case "none":
            if status == "error" {
                return (record["error"] as? String ?? "").isEmpty ? ["an error without a message"] : []
            }
            return status == "no-gps" ? [] : ["expected no-gps or error, got \(status)"]
        default:
            return ["unknown gps_status \(row["gps_status"]!)"]
        }
    }
}
