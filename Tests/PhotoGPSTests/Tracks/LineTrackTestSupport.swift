import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// Expects every way of feeding `bytes` to `parser` (whole, and in chunks of 1, 2, 3, 7, 64 and
/// 4,096 bytes) to throw the error `message`.
func expectTrackError<P: TrackParser>(
    _ parser: P, _ bytes: [UInt8], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    for size in [nil, 1, 2, 3, 7, 64, 4096] {
        do {
            let sink = try parseTrack(parser, bytes, chunkSize: size)
            Issue.record("no error, \(sink.fixes.count) fixes (chunks: \(size ?? 0))", sourceLocation: sourceLocation)
        } catch {
            #expect(error.message == message, "chunks: \(size ?? 0)", sourceLocation: sourceLocation)
        }
    }
}

/// ``expectTrackError(_:_:_:sourceLocation:)`` of a text.
func expectTrackError<P: TrackParser>(
    _ parser: P, _ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectTrackError(parser, Array(text.utf8), message, sourceLocation: sourceLocation)
}

/// Whether `parser`'s type claims `text` by content.
func sniffs<P: SniffingTrackParser>(_ parser: P.Type, _ text: String) -> Bool {
    Array(text.utf8.prefix(4096)).withUnsafeBytes { P.matches(prefix: $0) }
}

/// The readers of this part, which can tell their format from a file's first bytes.
protocol SniffingTrackParser: TrackParser {
    /// A reader at the start of a file.
    init()
    /// Whether a file starting with `prefix` (at most 4,096 bytes) is of the reader's format.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool
}

// The four readers already have both requirements.
extension NMEAParser: SniffingTrackParser {}
extension IGCParser: SniffingTrackParser {}
extension CSVTrackParser: SniffingTrackParser {}
extension FITParser: SniffingTrackParser {}

/// An NMEA sentence with its checksum: `$` + `body` + `*hh`.
func nmeaSentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    return "$" + body + "*" + String(format: "%02X", sum)
}

/// `TrackTime.iso8601` of a test's literal instant.
func trackInstant(_ text: String) -> Double {
    guard let time = TrackTime.iso8601(text) else {
        Issue.record("not an instant: \(text)")
        return .nan
    }
    return time
}

/// The track-log corpus (`shared/corpus/tracks-dev`): its files, `tracks.tsv` and `manifest.tsv`.
enum LineTrackCorpus {
    /// The corpus folder.
    static let folder = SharedData.path("corpus/tracks-dev")

    /// Whether the corpus is here (a user's clone does not have it).
    static func has(_ track: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/tracks/" + track)
    }

    /// A track file's bytes.
    static func bytes(_ track: String) throws -> [UInt8] { try readWholeFile(folder + "/tracks/" + track) }

    /// The `tracks.tsv` row of a track file.
    static func row(_ track: String) throws -> [String: String] {
        let text = try String(contentsOfFile: folder + "/tracks.tsv", encoding: .utf8)
        var lines = text.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines.removeFirst()
        let rows = lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        return try #require(rows.first { $0["file"] == track })
    }

    /// The fixes by time, the one read last winning for equal times (as ExifTool keeps them).
    static func byTime(_ fixes: [TrackFix]) -> [TrackFix] {
        var kept: [Double: TrackFix] = [:]
        for fix in fixes { kept[(fix.time * 1000).rounded() / 1000] = fix }
        return kept.values.sorted { $0.time < $1.time }
    }

    /// Expects `fixes` to have the number of distinct times, the first and the last time that
    /// `tracks.tsv` gives for `track` (its `truth_fixes`, or the count in `exiftool_reads`), or
    /// the ones given.
    static func expectSummary(
        _ fixes: [TrackFix], of track: String, count: Int? = nil, first firstTime: String? = nil,
        last lastTime: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let row = try row(track)
        let sorted = byTime(fixes)
        var expected = count ?? Int(row["truth_fixes"] ?? "")
        if expected == nil, let reads = row["exiftool_reads"], let colon = reads.firstIndex(of: ":") {
            expected = Int(reads[reads.index(after: colon)...].split(separator: " ").first ?? "")
        }
        #expect(sorted.count == expected, "distinct fix times", sourceLocation: sourceLocation)
        let first = try #require(sorted.first), last = try #require(sorted.last)
        let expectedFirst = trackInstant(firstTime ?? row["first_fix_utc"] ?? "")
        let expectedLast = trackInstant(lastTime ?? row["last_fix_utc"] ?? "")
        #expect(abs(first.time - expectedFirst) < 1e-3, "first fix", sourceLocation: sourceLocation)
        #expect(abs(last.time - expectedLast) < 1e-3, "last fix", sourceLocation: sourceLocation)
    }

    /// For each photo of `manifest.tsv` on `track` that ExifTool located: the fixes its
    /// `exiftool_note` names are among `fixes`, and interpolating them at the photo's instant (by
    /// the note's f) gives `expected_lat`, `expected_lon` and `expected_alt`. Returns how many
    /// photos were checked.
    @discardableResult
    static func expectPhotos(
        _ fixes: [TrackFix], of track: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let sorted = byTime(fixes)
        func fix(at text: Substring) throws -> TrackFix {
            let time = trackInstant(String(text))
            return try #require(sorted.first { abs($0.time - time) < 1e-3 }, "no fix at \(text)")
        }
        var checked = 0
        for photo in try SharedData.manifest(in: folder) where photo["track"] == track {
            guard photo["expected_status"] == "located" else { continue }
            let note = photo["exiftool_note"] ?? ""
            let words = note.split(separator: " ")
            let at = trackInstant(photo["true_utc_time"] ?? "")
            var latitude: Double, longitude: Double, altitude: Double?
            if note.hasPrefix("interpolated") {
                let noteF = try #require(Double(words[1].dropFirst(2)))
                let a = try fix(at: words[4]), b = try fix(at: words[6])
                let f = b.time == a.time ? 0 : (at - a.time) / (b.time - a.time)
                #expect(abs(f - noteF) < 1e-6, "f of \(photo["photo"] ?? "")", sourceLocation: sourceLocation)
                latitude = a.latitude + (b.latitude - a.latitude) * f
                longitude = a.longitude + (b.longitude - a.longitude) * f
                if let low = a.altitude, let high = b.altitude { altitude = low + (high - low) * f }
            } else {
                #expect(note.hasPrefix("nearest fix"), "\(note)", sourceLocation: sourceLocation)
                let a = try fix(at: words[2])
                latitude = a.latitude
                longitude = a.longitude
                altitude = a.altitude
            }
            let name = photo["photo"] ?? ""
            let expectedLatitude = try #require(Double(photo["expected_lat"] ?? ""))
            let expectedLongitude = try #require(Double(photo["expected_lon"] ?? ""))
            #expect(abs(latitude - expectedLatitude) <= 1e-6, "\(name)", sourceLocation: sourceLocation)
            #expect(abs(longitude - expectedLongitude) <= 1e-6, "\(name)", sourceLocation: sourceLocation)
            if let expectedAltitude = Double(photo["expected_alt"] ?? "") {
                let value = try #require(altitude, "\(name) has no altitude")
                #expect(abs(value - expectedAltitude) <= 0.01, "\(name)", sourceLocation: sourceLocation)
            } else {
                #expect(altitude == nil, "\(name)", sourceLocation: sourceLocation)
            }
            checked += 1
        }
        return checked
    }
}
