import Testing

@testable import PhotoGPS

/// A sink that keeps everything a track parser hands it, for the parsers' tests.
struct CollectingSink: TrackSink {
    var fixes: [TrackFix] = []
    var skipped: [String] = []

    mutating func add(_ fix: TrackFix) { fixes.append(fix) }
    mutating func skip(_ reason: String) { skipped.append(reason) }
}

/// Feeds `bytes` to a fresh `parser` in chunks of `chunkSize` bytes (the whole file at once when
/// `nil`), then finishes it: what every parser test goes through, so that each reader is checked
/// at every chunk boundary a file read in blocks can put anywhere.
func parseTrack<P: TrackParser>(
    _ parser: P, _ bytes: [UInt8], chunkSize: Int? = nil
) throws(TrackReadError) -> CollectingSink {
    var parser = parser
    var sink = CollectingSink()
    let size = max(1, chunkSize ?? bytes.count)
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + size)
        let result: Result<Void, TrackReadError> = bytes[start..<end].withUnsafeBytes { chunk in
            do throws(TrackReadError) {
                try parser.feed(chunk, into: &sink)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        start = end
    }
    try parser.finish(into: &sink)
    return sink
}

/// ``parseTrack(_:_:chunkSize:)`` of a text.
func parseTrack<P: TrackParser>(
    _ parser: P, _ text: String, chunkSize: Int? = nil
) throws(TrackReadError)
    -> CollectingSink
{
    try parseTrack(parser, Array(text.utf8), chunkSize: chunkSize)
}

/// Parses `bytes` whole and in chunks of 1, 2, 3, 7, 64 and 4,096 bytes, and expects every way
/// to give the same fixes and skips; returns them.
func parseTrackInEveryChunking<P: TrackParser>(
    _ parser: P, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) throws(TrackReadError) -> CollectingSink {
    let whole = try parseTrack(parser, bytes)
    for size in [1, 2, 3, 7, 64, 4096] {
        let chunked = try parseTrack(parser, bytes, chunkSize: size)
        #expect(chunked.fixes == whole.fixes, "chunks of \(size) bytes", sourceLocation: sourceLocation)
        #expect(chunked.skipped == whole.skipped, "chunks of \(size) bytes", sourceLocation: sourceLocation)
    }
    return whole
}

@Suite struct TrackTimeTests {
    @Test(arguments: [
        ("2003-05-24T17:09:28Z", 1_053_796_168.0),
        ("2003-05-24T17:09:28", 1_053_796_168.0),
        ("2003-05-24 17:09:28z", 1_053_796_168.0),
        ("2003-05-24T11:09:28-06:00", 1_053_796_168.0),
        ("2003-05-24T23:09:28+0600", 1_053_796_168.0),
        ("2003-05-24T19:09:28+02", 1_053_796_168.0),
        ("2015-12-11T15:43:13.994+01:00", 1_449_844_993.994),
        ("  2003-05-24T17:09:28Z\n", 1_053_796_168.0),
    ])
    func readsISO8601(_ text: String, _ expected: Double) {
        #expect(TrackTime.iso8601(text).map { abs($0 - expected) < 1e-6 } == true, "\(text)")
    }

    @Test(arguments: [
        "", "2003-05-24", "2003-13-24T17:09:28Z", "2003-02-29T17:09:28Z", "2003-05-24T24:00:00Z",
        "2003-05-24T17:09:60Z", "2003-05-24T17:09:28.Z", "2003-05-24T17:09:28 Z", "2003-05-24T17:09:28+25:00",
        "2003-05-24T17:09:28Zjunk", "２００３-05-24T17:09:28Z",
    ])
    func refusesWhatIsNotAnInstant(_ text: String) {
        #expect(TrackTime.iso8601(text) == nil, "\(text)")
    }
}
