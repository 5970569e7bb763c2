import Foundation
import TestSupport
import Testing

/// The shared dev corpus of real photos (`../shared/corpus/dev`, beside the repository, or the
/// folder named by `PHOTOTAG_CORPUS`): ~170 files from many cameras, phones and libraries, with
/// exiftool's readings in `manifest.tsv`. Users' clones do not have it; then these tests skip.
enum Corpus {
    static let directory: String = {
        if let path = ProcessInfo.processInfo.environment["PHOTOTAG_CORPUS"] { return path }
        return SharedData.path("corpus/dev")
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/manifest.tsv") }

    /// The manifest's rows as column name → value.
    static func manifest() throws -> [[String: String]] { try SharedData.manifest(in: directory) }

    /// Files where phototag disagrees with the manifest on purpose (`Tests/corpus-allowlist.tsv`):
    /// file → the status and source phototag must give instead.
    static func allowList() throws -> [String: (status: String, source: String)] {
        var entries: [String: (String, String)] = [:]
        let text = try String(contentsOfFile: Binary.root + "/Tests/corpus-allowlist.tsv", encoding: .utf8)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 4 { entries[fields[0]] = (fields[1], fields[2]) }
        }
        return entries
    }
}

/// Conformance on real photos: the built binary over the whole dev corpus, record by record
/// against the manifest.
@Suite(.enabled(if: Corpus.available, "the dev corpus (../shared/corpus/dev/manifest.tsv) is not present"))
struct ConformanceTests {
    /// `phototag scan --format ndjson` over the corpus: every valid file located within 1e-7°
    /// (altitude 0.01 m, GPS time equal, country as exiftool's geolocation), every unusable GPS
    /// block invalid with a reason, every broken file an error or no GPS, every unsupported
    /// container a clear error. Prints one line per class.
    @Test func scanningTheCorpusMatchesTheManifest() throws {
        let rows = try Corpus.manifest()
        let allowed = try Corpus.allowList()
        #expect(rows.count >= 150)
        let scan = try Binary.run(["scan", "--format", "ndjson", "-q", Corpus.directory])
        #expect(scan.status == 2)  // the corpus holds broken files
        var records: [String: [String: Any]] = [:]
        for line in scan.text.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = String((record["file"] as! String).split(separator: "/").last!)
            #expect(records[name] == nil, "\(name) reported twice")
            records[name] = record
        }
        // Files scan does not pick by extension (.x3f, .jxl…) must still give a clear answer.
        let unscanned = rows.map { $0["file"]! }.filter { records[$0] == nil }
        if !unscanned.isEmpty {
            let located = try Binary.run(
                ["locate", "--format", "ndjson", "-q"] + unscanned.map { Corpus.directory + "/" + $0 })
            for line in located.text.split(separator: "\n") {
                let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                records[String((record["file"] as! String).split(separator: "/").last!)] = record
            }
        }
        var classes: [String: (total: Int, ok: Int)] = [:]
        for row in rows {
            let file = row["file"]!
            let expected = row["gps_status"]!
            let family = row["file_type"]!.split(separator: " ").first.map(String.init) ?? "?"
            guard let record = records[file] else {
                Issue.record("\(file): no record")
                continue
            }
            let problems = Self.check(record, against: row, allowed: allowed[file])
            let key = allowed[file] != nil ? "allow-listed" : "\(family) \(expected)"
            classes[key, default: (0, 0)].total += 1
            if problems.isEmpty { classes[key]!.ok += 1 }
            for problem in problems { Issue.record("\(file): \(problem)") }
        }
        for (name, count) in classes.sorted(by: { $0.key < $1.key }) {
            print("conformance: \(name): \(count.ok)/\(count.total) as expected")
        }
    }

    /// What is wrong with one record, given its manifest row.
    static func check(
        _ record: [String: Any], against row: [String: String], allowed: (status: String, source: String)?
    ) -> [String] {
        let status = record["status"] as? String ?? "?"
        let gps = record["gps"] as? [String: Any]
        let warnings = record["warnings"] as? [String] ?? []
        if let allowed {
            let source = gps?["source"] as? String ?? "-"
            return status == allowed.status && source == allowed.source
                ? [] : ["allow-listed as \(allowed.status)/\(allowed.source), got \(status)/\(source)"]
        }
        var problems: [String] = []
        switch row["gps_status"]! {
        case "valid", "xmp-only":
            guard status == "located", let gps else { return ["expected located, got \(status) \(warnings)"] }
            let wantedSource = row["gps_status"] == "valid" ? "exif" : "xmp"
            if gps["source"] as? String != wantedSource { problems.append("source \(gps["source"] ?? "nil")") }
            for (key, column) in [("latitude", "lat"), ("longitude", "lon")] {
                let value = gps[key] as? Double ?? .nan
                if !(abs(value - Double(row[column]!)!) <= 1e-7) {
                    problems.append("\(key) \(value) vs \(row[column]!)")
                }
            }
            if let altitude = Double(row["alt"]!), !(abs((gps["altitude"] as? Double ?? .nan) - altitude) <= 0.01) {
                problems.append("altitude \(gps["altitude"] ?? "nil") vs \(altitude)")
            }
            let time = row["gps_datetime_utc"]!
            if time.count >= 20, !time.hasPrefix("T"), gps["timestamp"] as? String != time {
                problems.append("timestamp \(gps["timestamp"] ?? "nil") vs \(time)")
            }
            let country = row["geo_country_code"]!
            let place = record["place"] as? [String: Any]
            // ExifTool names the country of its nearest city; phototag names the country that
            // contains the point, and none at sea (far out, where ExifTool's city is tens of km
            // away): then the named place must be ExifTool's country's, with the at-sea warning.
            let atSea = place?["countryCode"] is NSNull && warnings.contains { $0.contains("at sea") }
            let farOut = (Double(row["geo_distance_km"] ?? "") ?? 0) > 12
            if atSea && farOut {
                if place?["basis"] as? String != "nearest" { problems.append("at sea but basis is not nearest") }
            } else if !country.isEmpty, place?["countryCode"] as? String != country {
                problems.append("country \(place?["countryCode"] ?? "nil") vs \(country)")
            }
        case "gps-ifd-incomplete", "zero-zero", "out-of-range":
            if status != "invalid-gps" { problems.append("expected invalid-gps, got \(status)") }
            if warnings.isEmpty { problems.append("invalid-gps without a reason") }
        case "none":
            if status == "error" {
                if (record["error"] as? String ?? "").isEmpty { problems.append("an error without a message") }
            } else if status != "no-gps" {
                problems.append("expected no-gps or error, got \(status)")
            }
        default:
            problems.append("unknown gps_status \(row["gps_status"]!)")
        }
        return problems
    }

    /// Each file alone, in a fresh process with a time limit: no crash, no hang.
    @Test func everyCorpusFileFinishesQuicklyWithoutCrashing() throws {
        var slowest = (file: "", seconds: 0.0)
        for row in try Corpus.manifest() {
            let file = row["file"]!
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["locate", "--no-place", "-q", Corpus.directory + "/" + file]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = Date()
            try process.run()
            let deadline = start.addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(2000) }
            if process.isRunning {
                process.terminate()
                Issue.record("\(file): still running after 10 s")
                continue
            }
            let seconds = Date().timeIntervalSince(start)
            if seconds > slowest.seconds { slowest = (file, seconds) }
            #expect(process.terminationReason == .exit, "\(file): killed by signal \(process.terminationStatus)")
            #expect([0, 1, 2].contains(process.terminationStatus), "\(file): exit status \(process.terminationStatus)")
        }
        print("conformance: slowest file \(slowest.file) took \(Int(slowest.seconds * 1000)) ms (debug build)")
    }
}
