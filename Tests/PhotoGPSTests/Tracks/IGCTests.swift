import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The IGC reader: the date headers, B records, altitudes and validity, midnight, and the
/// corpus's flight logs.
@Suite struct IGCTests {
    /// Parses `lines` (joined by CR LF, as loggers write them) in every chunking.
    func parse(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CollectingSink {
        try parseTrackInEveryChunking(
            IGCParser(), Array((lines.joined(separator: "\r\n") + "\r\n").utf8), sourceLocation: sourceLocation)
    }

    @Test(arguments: ["HFDTE050110", "HFDTEDATE:050110,01", "HFDTE:050110"])
    func readsBothDateHeaders(_ header: String) throws {
        let sink = try parse([
            "AXMP eTrex Venture HC Software Version 3.10 - 695",
            header,
            "HOPLTPILOT: Josef Klein",
            "I023638FXA3940SIU",
            "B0723154916430N00643910EA0000000443",
            "LXMP comment",
            "B0731584915416S00645637WA0012300620",
        ])
        #expect(
            sink.fixes == [
                TrackFix(
                    time: trackInstant("2010-01-05T07:23:15Z"), latitude: 49 + (16 + 430 / 1000.0) / 60,
                    longitude: 6 + (43 + 910 / 1000.0) / 60, altitude: 443),
                TrackFix(
                    time: trackInstant("2010-01-05T07:31:58Z"), latitude: -(49 + (15 + 416 / 1000.0) / 60),
                    longitude: -(6 + (45 + 637 / 1000.0) / 60), altitude: 620),
            ])
        #expect(sink.skipped.isEmpty)
    }

    @Test func takesTheGNSSAltitudeOfValidRecordsAndKeepsVRecordsWithout() throws {
        let sink = try parse([
            "AFLASIQ",
            "HFDTE180710",
            "B0857055106070N00623988EA000760007800210",
            "B0857135106071N00623989EV000760007900210",
            "B0857215106071N00623989EA-0015-0012",
            "B0857295106070N00623988EA00078",
        ])
        #expect(sink.fixes.map(\.altitude) == [78, nil, -12, nil])
        #expect(sink.fixes.map(\.time) == [5.0, 13, 21, 29].map { trackInstant("2010-07-18T08:57:00Z") + $0 })
    }

    @Test func rollsOverMidnightUTC() throws {
        let sink = try parse([
            "AXXX001",
            "HFDTE311299",
            "B2359584916430N00643910EA0000000443",
            "B2359574916430N00643910EA0000000443",  // one second back: jitter, same day
            "B0000024916430N00643910EA0000000443",
            "B0000104916430N00643910EA0000000443",
        ])
        #expect(
            sink.fixes.map(\.time) == [
                trackInstant("1999-12-31T23:59:58Z"), trackInstant("1999-12-31T23:59:57Z"),
                trackInstant("2000-01-01T00:00:02Z"),
                trackInstant("2000-01-01T00:00:10Z"),
            ])
    }

    @Test func skipsUnreadableRecords() throws {
        let sink = try parse([
            "AXXX001",
            "HFDTE050110",
            "B072315491643",
            "B2523154916430N00643910EA0000000443",
            "B0723154916430X00643910EA0000000443",
            "B0723154916430N00643910QA0000000443",
            "B0723154916430N00643910EX0000000443",
            "B0723159916430N00643910EA0000000443",
            "B0723164916430N00643910EA0000000443",
        ])
        #expect(sink.fixes.map(\.time) == [trackInstant("2010-01-05T07:23:16Z")])
        #expect(
            sink.skipped == [
                "line 3: B record shorter than 25 characters",
                "line 4: B record time '252315' is not HHMMSS",
                "line 5: B record latitude '4916430X' is not DDMMmmmN or S",
                "line 6: B record longitude '00643910Q' is not DDDMMmmmE or W",
                "line 7: B record validity 'X' is not A or V",
                "line 8: B record position out of range",
            ])
    }

    @Test func refusesFilesWithoutADateOrNotIGC() {
        expectTrackError(
            IGCParser(), "AXXX001\nB0723154916430N00643910EA0000000443\nHFDTE050110\n",
            "no date in the IGC file: line 2 has a B record before any HFDTE header")
        expectTrackError(
            IGCParser(), "AXXX001\nHFDTE320110\n", "line 2: the HFDTE header's date '320110' is not DDMMYY")
        expectTrackError(IGCParser(), "", "not an IGC file: it has no records")
        expectTrackError(
            IGCParser(), "lat,lon,time\n1,2,2020-01-01T00:00:00Z\n", "not an IGC file: line 1 is not an A record")
    }

    @Test func sniffsIGCByContent() {
        #expect(sniffs(IGCParser.self, "AFLASIQ\r\nHFDTE180710\r\nHFFXA500\r\nB0857055106070N00623988EA0007600076"))
        #expect(sniffs(IGCParser.self, "AXMP eTrex Venture\nHFDTE050110\n"))
        #expect(!sniffs(IGCParser.self, "AXMP eTrex Venture\nB0857055106070N00623988EA0007600076\n"))  // no H record
        #expect(!sniffs(IGCParser.self, "Alpha,Beta\nHello\n"))
        #expect(!sniffs(IGCParser.self, "A\nHFDTE050110\n"))
        #expect(!sniffs(IGCParser.self, "AXMP\nHFDTE050110\nlat,lon,time\n"))
        #expect(!sniffs(IGCParser.self, "$GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,*6A\n"))
    }

    // MARK: corpus

    static let exiftool = "igc__exiftool__Geotag.igc"
    static let xcsoar = "igc__xcsoar__apf-bug554.igc"

    /// Both logs: the fix count, first and last times, and the photos' positions and altitudes.
    /// ExifTool's sample has pressure altitude 0 and GNSS altitudes: `expected_alt` 1152 at
    /// 08:13:48 is the GNSS one, so that is the altitude taken.
    @Test(
        .enabled(
            if: LineTrackCorpus.has(exiftool), "the shared track corpus (../shared/corpus/tracks-dev) is not here"),
        arguments: [exiftool, xcsoar])
    func corpusLogMatchesExifTool(_ track: String) throws {
        let bytes = try LineTrackCorpus.bytes(track)
        #expect(bytes.withUnsafeBytes { IGCParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
        let sink = try parseTrackInEveryChunking(IGCParser(), bytes)
        #expect(sink.skipped.isEmpty)
        try LineTrackCorpus.expectSummary(sink.fixes, of: track)
        #expect(try LineTrackCorpus.expectPhotos(sink.fixes, of: track) >= 2)
    }
}
