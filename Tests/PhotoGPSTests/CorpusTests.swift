import Foundation
import Testing

@testable import PhotoGPS

/// The shared dev corpus of real photos (`../shared/corpus/dev`, beside the repository), or the
/// folder named by `PHOTOTAG_CORPUS`. Users' clones do not have it; then these tests are skipped.
enum Corpus {
    static let directory: String = {
        if let path = ProcessInfo.processInfo.environment["PHOTOTAG_CORPUS"] { return path }
        return Fixtures.root + "/../../shared/corpus/dev"
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/manifest.tsv") }

    /// Files where phototag disagrees with the manifest on purpose: file → (status, source, why).
    static func allowList() throws -> [String: (status: String, source: String, reason: String)] {
        let path = Fixtures.root + "/../Tests/corpus-allowlist.tsv"
        var entries: [String: (String, String, String)] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#")
        {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { continue }
            entries[fields[0]] = (fields[1], fields[2], fields[3])
        }
        return entries
    }

    /// The manifest's rows as column name → value.
    static func manifest() throws -> [[String: String]] {
        let text = try String(contentsOfFile: directory + "/manifest.tsv", encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines.removeFirst()
        return lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }
}

@Suite(.enabled(if: Corpus.available, "the dev corpus (../shared/corpus/dev/manifest.tsv) is not present"))
struct CorpusTests {
    /// Every file of the corpus (JPEG, HEIC, HEIF, AVIF, PNG, WebP, TIFF, raw, broken), against
    /// exiftool's ground truth in the manifest.
    @Test func everyCorpusFileMatchesTheManifest() throws {
        let rows = try Corpus.manifest()
        let allowed = try Corpus.allowList()
        #expect(rows.count >= 150)
        var counts: [String: Int] = [:]
        for row in rows {
            let file = row["file"]!
            let reading = GPSReader().read(file: Corpus.directory + "/" + file)
            let expected = row["gps_status"]!
            counts["\(row["file_type"]!) \(expected)", default: 0] += 1
            let context = Comment(
                rawValue: "\(file): \(reading.status) \(reading.warnings) \(String(describing: reading.error))")
            if let exception = allowed[file] {
                #expect(reading.status.rawValue == exception.status, context)
                #expect((reading.fix?.source.rawValue ?? "-") == exception.source, context)
                continue
            }
            switch expected {
            case "valid", "xmp-only":
                guard reading.status == .located, let fix = reading.fix else {
                    Issue.record("expected located; \(context)")
                    continue
                }
                #expect(fix.source == (expected == "valid" ? .exif : .xmp), context)
                #expect(abs(fix.latitude - Double(row["lat"]!)!) <= 1e-7, context)
                #expect(abs(fix.longitude - Double(row["lon"]!)!) <= 1e-7, context)
                if let altitude = Double(row["alt"]!) {
                    #expect(abs((fix.altitude ?? .nan) - altitude) <= 0.01, context)
                }
                let time = row["gps_datetime_utc"]!
                if time.count >= 20, !time.hasPrefix("T") {  // a full date and time
                    #expect(fix.timestamp?.description == time, context)
                }
            case "gps-ifd-incomplete", "zero-zero", "out-of-range":
                #expect(reading.status == .invalidGPS, context)
                #expect(!reading.warnings.isEmpty, context)
            case "none":
                #expect(reading.status == .noGPS || reading.status == .error, context)
                if reading.status == .error { #expect(reading.error?.description.isEmpty == false, context) }
            default:
                Issue.record("unknown gps_status '\(expected)' for \(file)")
            }
        }
        let summary = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("corpus files checked: \(summary)")
    }
}
