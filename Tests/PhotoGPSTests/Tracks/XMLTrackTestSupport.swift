import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// Parses `bytes` whole and in chunks of 1, 2, 3, 7, 64 and 4,096 bytes, and expects every way
/// to throw, the same error; returns it (`nil`, with an issue recorded, when one way does not
/// throw).
func xmlTrackErrorInEveryChunking<P: TrackParser>(
    _ parser: P, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) -> TrackReadError? {
    var first: TrackReadError?
    for size in [nil, 1, 2, 3, 7, 64, 4096] as [Int?] {
        do {
            let sink = try parseTrack(parser, bytes, chunkSize: size)
            Issue.record(
                "no error in chunks of \(size ?? bytes.count) bytes (\(sink.fixes.count) fixes)",
                sourceLocation: sourceLocation)
            return nil
        } catch {
            if let first {
                #expect(error == first, "chunks of \(size ?? bytes.count) bytes", sourceLocation: sourceLocation)
            } else {
                first = error
            }
        }
    }
    return first
}

/// ``xmlTrackErrorInEveryChunking(_:_:sourceLocation:)`` of a text.
func xmlTrackErrorInEveryChunking<P: TrackParser>(
    _ parser: P, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> TrackReadError? {
    xmlTrackErrorInEveryChunking(parser, Array(text.utf8), sourceLocation: sourceLocation)
}

/// Whether two fixes are the same to within 1e-9 s and degrees, and 1e-9 m.
func sameXMLTrackFix(_ a: TrackFix, _ b: TrackFix) -> Bool {
    let altitudes: Bool
    switch (a.altitude, b.altitude) {
    case (nil, nil): altitudes = true
    case (let x?, let y?): altitudes = abs(x - y) < 1e-9
    default: altitudes = false
    }
    return abs(a.time - b.time) < 1e-6 && abs(a.latitude - b.latitude) < 1e-9
        && abs(a.longitude - b.longitude) < 1e-9 && altitudes
}

/// Expects `fixes` to be `expected`, fix by fix.
func expectXMLTrackFixes(
    _ fixes: [TrackFix], _ expected: [TrackFix], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(fixes.count == expected.count, "\(fixes)", sourceLocation: sourceLocation)
    for (index, (fix, want)) in zip(fixes, expected).enumerated() {
        #expect(sameXMLTrackFix(fix, want), "fix \(index): \(fix), expected \(want)", sourceLocation: sourceLocation)
    }
}

/// The track corpus of `shared/corpus/tracks-dev`: its files, what ExifTool reads from each
/// (`tracks.tsv`), and the photos geotagged from them (`manifest.tsv`).
enum XMLTrackCorpus {
    static let directory = SharedData.path("corpus/tracks-dev")

    /// Whether the corpus is there (a clone without the shared data has none).
    static let available = FileManager.default.fileExists(atPath: directory + "/tracks.tsv")

    /// The bytes of `tracks/<name>`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try readWholeFile(directory + "/tracks/" + name)
    }

    /// The rows of a tab-separated file with a header line, as column → value.
    static func rows(_ file: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        var lines = text.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines.removeFirst()
        return lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The track files whose names start with `prefix` (`gpx__`).
    static func files(_ prefix: String) -> [String] {
        guard available, let rows = try? rows("tracks.tsv") else { return [] }
        return rows.compactMap { $0["file"] }.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Checks the fixes read from track `file` against the corpus: the number of distinct fix
    /// times and the first and last (`tracks.tsv`), and for each photo located from it, the
    /// fixes ExifTool's note names, interpolated at the photo's time, give the expected
    /// position within 1e-6° and 0.01 m. Returns how many photos were checked.
    @discardableResult
    static func check(
        _ fixes: [TrackFix], file: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let row = try #require(
            try rows("tracks.tsv").first { $0["file"] == file }, "\(file) in tracks.tsv",
            sourceLocation: sourceLocation)
        let times = Set(fixes.map(\.time))
        #expect(
            times.count == Int(row["truth_fixes"] ?? "") ?? 0, "\(file): distinct fix times",
            sourceLocation: sourceLocation)
        if let first = row["first_fix_utc"], !first.isEmpty, let last = row["last_fix_utc"] {
            let want = try #require(TrackTime.iso8601(first)), wantLast = try #require(TrackTime.iso8601(last))
            #expect(abs((times.min() ?? 0) - want) < 1e-6, "\(file): first fix", sourceLocation: sourceLocation)
            #expect(abs((times.max() ?? 0) - wantLast) < 1e-6, "\(file): last fix", sourceLocation: sourceLocation)
        }
        var checked = 0
        for photo in try rows("manifest.tsv") where photo["track"] == file && photo["expected_status"] == "located" {
            let name = photo["photo"] ?? "?"
            let note = photo["exiftool_note"] ?? ""
            let at = try #require(TrackTime.iso8601(photo["true_utc_time"] ?? ""), "\(name)")
            /// The fix read last at `time` (the one ExifTool keeps).
            func fix(_ time: String) throws -> TrackFix {
                let instant = try #require(TrackTime.iso8601(time), "\(name): \(time)")
                return try #require(
                    fixes.last { abs($0.time - instant) < 1e-6 }, "\(name): a fix at \(time)",
                    sourceLocation: sourceLocation)
            }
            var latitude: Double, longitude: Double, altitude: Double?
            let words = note.split(separator: " ").map(String.init)
            if note.hasPrefix("interpolated f="), words.count == 7 {
                let a = try fix(words[4]), b = try fix(words[6])
                let f = b.time == a.time ? 0 : (at - a.time) / (b.time - a.time)
                let noted = Double(words[1].dropFirst(2)) ?? .nan
                #expect(abs(f - noted) < 1e-6, "\(name): f \(f) vs \(noted)", sourceLocation: sourceLocation)
                latitude = a.latitude + f * (b.latitude - a.latitude)
                longitude = a.longitude + f * (b.longitude - a.longitude)
                if let x = a.altitude, let y = b.altitude { altitude = x + f * (y - x) }
            } else if note.hasPrefix("nearest fix "), words.count >= 3 {
                let a = try fix(words[2])
                (latitude, longitude, altitude) = (a.latitude, a.longitude, a.altitude)
            } else {
                Issue.record("\(name): unknown note \(note)", sourceLocation: sourceLocation)
                continue
            }
            let wantLatitude = try #require(Double(photo["expected_lat"] ?? ""))
            let wantLongitude = try #require(Double(photo["expected_lon"] ?? ""))
            #expect(abs(latitude - wantLatitude) <= 1e-6, "\(name): latitude", sourceLocation: sourceLocation)
            #expect(abs(longitude - wantLongitude) <= 1e-6, "\(name): longitude", sourceLocation: sourceLocation)
            if let want = Double(photo["expected_alt"] ?? "") {
                let got = try #require(altitude, "\(name): an altitude", sourceLocation: sourceLocation)
                #expect(abs(got - want) <= 0.01, "\(name): altitude \(got) vs \(want)", sourceLocation: sourceLocation)
            }
            checked += 1
        }
        return checked
    }

    /// The number of photos of `file` that the manifest expects located.
    static func locatedPhotos(_ file: String) throws -> Int {
        try rows("manifest.tsv").filter { $0["track"] == file && $0["expected_status"] == "located" }.count
    }
}
