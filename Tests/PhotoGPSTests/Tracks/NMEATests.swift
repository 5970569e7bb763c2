import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The NMEA 0183 reader: sentences, checksums, ExifTool's fix-assembly rules, dates, and the
/// corpus's NMEA logs.
@Suite struct NMEATests {
    /// Parses `lines` (joined by CR LF) in every chunking.
    func parse(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CollectingSink {
        try parseTrackInEveryChunking(
            NMEAParser(), Array((lines.joined(separator: "\r\n") + "\r\n").utf8), sourceLocation: sourceLocation)
    }

    @Test func readsRMCWithAnyTalker() throws {
        let sink = try parse([
            nmeaSentence("GPRMC,120000.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"),
            nmeaSentence("GNRMC,120001.50,A,4807.040,S,01131.002,W,022.4,084.4,230394,003.1,W,A"),
            nmeaSentence("GLRMC,120002,A,0007.5,N,00000.25,E,,,230394,,"),
            nmeaSentence("GARMC,120003,A,4807.04,N,01131.00,E,,,230394,,"),
            nmeaSentence("BDRMC,120004,,4807.04,N,01131.00,E,,,230394,,"),
        ])
        let noon = trackInstant("1994-03-23T12:00:00Z")
        #expect(
            sink.fixes == [
                TrackFix(time: noon, latitude: 48 + 7.038 / 60, longitude: 11 + 31.0 / 60),
                TrackFix(time: noon + 1.5, latitude: -(48 + 7.040 / 60), longitude: -(11 + 31.002 / 60)),
                TrackFix(time: noon + 2, latitude: 7.5 / 60, longitude: 0.25 / 60),
                TrackFix(time: noon + 3, latitude: 48 + 7.04 / 60, longitude: 11 + 31.0 / 60),
                TrackFix(time: noon + 4, latitude: 48 + 7.04 / 60, longitude: 11 + 31.0 / 60),
            ])
        #expect(sink.skipped.isEmpty)
    }

    @Test func checksumsAreVerifiedWhenPresent() throws {
        let good = nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,")
        var bad = nmeaSentence("GPRMC,120001,A,4807.038,N,01131.000,E,,,230394,,")
        bad.replaceSubrange(bad.index(bad.endIndex, offsetBy: -2)..., with: bad.hasSuffix("00") ? "01" : "00")
        let sink = try parse([
            good,
            bad,
            "$GPRMC,120002,A,4807.038,N,01131.000,E,,,230394,,",  // no checksum: read
            lowercaseChecksum("GPRMC,120003,A,4807.038,N,01131.000,E,,,230394,,"),
            "$GPRMC,120004,A,4807.038,N,01131.000,E,,,230394,,*4",
        ])
        #expect(sink.fixes.map(\.time) == [0.0, 2, 3].map { trackInstant("1994-03-23T12:00:00Z") + $0 })
        #expect(sink.skipped.count == 2)
        #expect(sink.skipped.first?.hasPrefix("line 2: RMC sentence with a wrong checksum '*") == true)
        #expect(sink.skipped.last == "line 5: RMC sentence with a wrong checksum '*4'")
    }

    /// A sentence whose checksum is written in lowercase hexadecimal digits.
    func lowercaseChecksum(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02x", body.utf8.reduce(UInt8(0), ^))
    }

    @Test func aFixStartsAtTheFirstSentenceTypeOfTheFile() throws {
        // ZDA first (as GPSBabel's sample): the fix takes ZDA's whole second, GGA's position and
        // altitude; RMC's (later, different) position does not overwrite them.
        let sink = try parse([
            nmeaSentence("GPZDA,032908,07,08,2004,00,00"),
            nmeaSentence("GPGGA,032908.379,4231.8291,N,08807.3033,W,1,05,1.6,209.8,M,-34.2,M,0.0,0000"),
            nmeaSentence("GPGSA,A,3,28,08,11,27,07,,,,,,,,4.9,1.6,4.5"),
            nmeaSentence("GPRMC,032908.379,A,4231.9999,N,08807.9999,W,0.17,138.92,070804,,"),
            nmeaSentence("GPZDA,032909,07,08,2004,00,00"),
            nmeaSentence("GPRMC,032909.379,A,4231.8291,N,08807.3034,W,0.18,145.85,070804,,"),
            nmeaSentence("GPGGA,032909.379,4231.1111,N,08807.1111,W,1,05,1.6,209.7,M,-34.2,M,0.0,0000"),
        ])
        let start = trackInstant("2004-08-07T03:29:08Z")
        #expect(
            sink.fixes == [
                TrackFix(time: start, latitude: 42 + 31.8291 / 60, longitude: -(88 + 7.3033 / 60), altitude: 209.8),
                TrackFix(time: start + 1, latitude: 42 + 31.8291 / 60, longitude: -(88 + 7.3034 / 60), altitude: 209.7),
            ])
    }

    @Test func ggaFirstTakesItsDateFromTheNextRMCAndRollsOverMidnight() throws {
        let sink = try parse([
            "# a comment header, as gpsd's logs have",
            nmeaSentence("GNGGA,235959.50,4134.49795459,N,09345.03431408,W,2,10,0.9,278.161,M,-31.442,M,6.6,0133"),
            nmeaSentence("GNRMC,235959.50,A,4134.49795459,N,09345.03431408,W,0.148,124.888,311224,11.5985,E,D"),
            nmeaSentence("GNGGA,000000.00,4134.49795443,N,09345.03431421,W,2,10,0.9,278.5,M,-31.442,M,6.6,0133"),
            nmeaSentence("GNRMC,000000.00,A,4134.49795443,N,09345.03431421,W,0.355,139.060,010125,11.5985,E,D"),
            // 10.5 minutes later: no date within 10 s, so the GGA waits for the RMC after it.
            nmeaSentence("GPGGA,001030.00,4134.49,N,09345.03,W,4,10,0.9,280,M,-31.442,M,6.6,0133"),
            nmeaSentence("GPRMC,001030.00,A,4134.49,N,09345.03,W,0.355,139.060,010125,11.5985,E,D"),
            // A GGA without a following RMC borrows the date of the RMC 0.1 s before.
            nmeaSentence("GPGGA,001030.10,4134.50,N,09345.03,W,4,10,0.9,281,M,-31.442,M,6.6,0133"),
        ])
        let midnight = trackInstant("2025-01-01T00:00:00Z")
        #expect(
            sink.fixes == [
                TrackFix(
                    time: midnight - 0.5, latitude: 41 + 34.49795459 / 60, longitude: -(93 + 45.03431408 / 60),
                    altitude: 278.161),
                TrackFix(
                    time: midnight, latitude: 41 + 34.49795443 / 60, longitude: -(93 + 45.03431421 / 60),
                    altitude: 278.5),
                TrackFix(time: midnight + 630, latitude: 41 + 34.49 / 60, longitude: -(93 + 45.03 / 60), altitude: 280),
                TrackFix(
                    time: midnight + 630.1, latitude: 41 + 34.50 / 60, longitude: -(93 + 45.03 / 60), altitude: 281),
            ])
    }

    @Test func rmcFirstRollsOverMidnightWithItsOwnDates() throws {
        let sink = try parse([
            nmeaSentence("GPRMC,235959,A,5040.3182,N,00505.9469,E,,,240410,,,A"),
            nmeaSentence("GPGGA,235959,5040.3182,N,00505.9469,E,1,08,1.0,100.0,M,,M,,"),
            nmeaSentence("GPRMC,000001,A,5040.3183,N,00505.9470,E,,,250410,,,A"),
            nmeaSentence("GPGGA,000001,5040.3183,N,00505.9470,E,1,08,1.0,101.0,M,,M,,"),
        ])
        #expect(sink.fixes.map(\.time) == [trackInstant("2010-04-24T23:59:59Z"), trackInstant("2010-04-25T00:00:01Z")])
        #expect(sink.fixes.map(\.altitude) == [100, 101])
    }

    @Test func voidAndFixlessSentencesAreSkipped() throws {
        let sink = try parse([
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,"),
            nmeaSentence("GPRMC,120001,V,4807.038,N,01131.000,E,,,230394,,"),
            nmeaSentence("GPRMC,120002,V,,,,,,,230394,,,N"),
            nmeaSentence("GPRMC,120003,A,,,,,,,230394,,,N"),
            nmeaSentence("GPRMC,120004,A,4807.038,N,01131.000,E,,,320394,,"),
            nmeaSentence("GPRMC,1200,A,4807.038,N,01131.000,E,,,230394,,"),
            nmeaSentence("GPRMC,120006,A,48x7.038,N,01131.000,E,,,230394,,"),
            nmeaSentence("GPRMC,120007,A,4807.038,N,01131.000,E,,,230394,,"),
            // GGA of another type than the first: a quality 0 one adds nothing, silently.
            nmeaSentence("GPGGA,120007,4807.038,N,01131.000,E,0,00,,,M,,M,,"),
            nmeaSentence("GPRMC,120008,A,9107.038,N,01131.000,E,,,230394,,"),
        ])
        #expect(sink.fixes.map(\.time) == [0.0, 7].map { trackInstant("1994-03-23T12:00:00Z") + $0 })
        #expect(sink.fixes.map(\.altitude) == [nil, nil])
        #expect(
            sink.skipped == [
                "line 2: RMC status V (void: no fix)",
                "line 3: RMC status V (void: no fix)",
                "line 4: RMC without a position",
                "line 5: RMC date '320394' is not ddmmyy",
                "line 6: RMC time '1200' is not hhmmss",
                "line 7: RMC latitude '48x7.038,N' is not ddmm.mmm,N or S",
                "line 10: position out of range",
            ])
    }

    @Test func aFixLeftWithoutPositionIsSkippedWithItsSentencesReason() throws {
        let sink = try parse([
            nmeaSentence("GPZDA,120000,23,03,1994,00,00"),
            nmeaSentence("GPGGA,120000,,,,,0,00,,,M,,M,,"),
            nmeaSentence("GPZDA,120001,23,03,1994,00,00"),
            nmeaSentence("GPGLL,4807.038,N,01131.000,E,120001,A,A"),
            nmeaSentence("GPZDA,120002,23,03,1994,00,00"),
        ])
        #expect(
            sink.fixes == [
                TrackFix(
                    time: trackInstant("1994-03-23T12:00:01Z"), latitude: 48 + 7.038 / 60, longitude: 11 + 31.0 / 60)
            ])
        #expect(sink.skipped == ["line 2: GGA without a fix (quality 0)", "line 5: no position for this fix"])
    }

    @Test func textBeforeTheSentenceAndOtherSentencesAreIgnored() throws {
        let sink = try parse([
            "Log started 2010-04-24",
            nmeaSentence("PTNTHPR,254.7,N,-1.7,N,-12.1,N,A"),
            "12:00:00.123 > " + nmeaSentence("GPRMC,112723.000,A,5040.3182,N,00505.9469,E,28.66,138.74,240410,,,A"),
            nmeaSentence("GPGSV,3,1,09,28,64,316,40,08,60,189,42,11,50,085,46,07,37,246,45"),
            "",
            nmeaSentence("GPVTG,138.92,T,,M,0.17,N,0.3,K"),
        ])
        #expect(
            sink.fixes == [
                TrackFix(
                    time: trackInstant("2010-04-24T11:27:23Z"), latitude: 50 + 40.3182 / 60, longitude: 5 + 5.9469 / 60)
            ])
    }

    @Test func ggaWithoutAnyDateIsRefused() {
        let lines = [
            nmeaSentence("GPGGA,235600.000,5013.476,N,01710.477,E,1,09,0.8,468.770,M,0.0,M,,"),
            nmeaSentence("GPGGA,235601.000,5013.476,N,01710.479,E,1,09,0.8,471.120,M,0.0,M,,"),
        ]
        expectTrackError(
            NMEAParser(), lines.joined(separator: "\n"), "no date in the NMEA file: it has GGA without RMC or ZDA")
    }

    @Test func aDatelessFixAmongDatedOnesIsSkipped() throws {
        let sink = try parse([
            nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPGGA,120100,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPRMC,120100,A,4807.038,N,01131.000,E,,,230394,,"),
        ])
        #expect(sink.fixes.map(\.time) == [trackInstant("1994-03-23T12:01:00Z")])
        #expect(sink.skipped == ["line 1: no date for this fix (no RMC or ZDA within 10 s)"])
    }

    @Test func refusesWhatIsNotNMEA() {
        expectTrackError(NMEAParser(), "", "not an NMEA file: no RMC, GGA, GLL or ZDA sentence")
        expectTrackError(
            NMEAParser(), "<?xml version=\"1.0\"?>\n<gpx></gpx>\n", "not an NMEA file: no RMC, GGA, GLL or ZDA sentence"
        )
        let long = String(repeating: "x", count: TrackLineSplitter.maximumLineLength + 1)
        expectTrackError(
            NMEAParser(), nmeaSentence("GPGSA,A,3") + "\n" + long,
            "line 2: longer than 1048576 bytes: not a text track file")
    }

    @Test func sniffsNMEAByContent() {
        let rmc = nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,")
        #expect(sniffs(NMEAParser.self, rmc + "\r\n"))
        #expect(
            sniffs(
                NMEAParser.self,
                "# gpsd log\n#\n" + nmeaSentence("GNGGA,132819.60,4134.4,N,09345.0,W,2,10,0.9,278.1,M,,M,,")))
        #expect(sniffs(NMEAParser.self, "\u{FEFF}" + nmeaSentence("GPZDA,032908,07,08,2004,00,00")))
        #expect(!sniffs(NMEAParser.self, "$GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,\n"))  // no checksum
        #expect(!sniffs(NMEAParser.self, nmeaSentence("PTNTHPR,254.7,N,-1.7,N,-12.1,N,A")))
        #expect(!sniffs(NMEAParser.self, "<?xml version=\"1.0\"?>\n<!-- " + rmc + " -->\n"))
        #expect(!sniffs(NMEAParser.self, "lat,lon,time\n1,2,2020-01-01T00:00:00Z\n"))
        #expect(!sniffs(NMEAParser.self, "AXCS\nHFDTE010120\n"))
    }

    // MARK: corpus

    static let gpsbabel = "nmea__gpsbabel__nmea.nmea"
    static let gpsd = "nmea__gpsd__nmea-rtk.nmea"
    static let exiftool = "nmea__exiftool__Geotag2.log"
    static let adddate = "nmea__gpsbabel__adddate.nmea"

    @Test(
        .enabled(
            if: LineTrackCorpus.has(gpsbabel), "the shared track corpus (../shared/corpus/tracks-dev) is not here"),
        arguments: [gpsbabel, gpsd])
    func corpusLogMatchesExifTool(_ track: String) throws {
        let bytes = try LineTrackCorpus.bytes(track)
        #expect(bytes.withUnsafeBytes { NMEAParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
        let sink = try parseTrackInEveryChunking(NMEAParser(), bytes)
        #expect(sink.skipped.isEmpty)
        try LineTrackCorpus.expectSummary(sink.fixes, of: track)
        #expect(try LineTrackCorpus.expectPhotos(sink.fixes, of: track) >= 2)
    }

    /// ExifTool's own sample: RMC and heading sentences (whose checksums are wrong, but they are
    /// not read), no photos: the three fixes ExifTool loads.
    @Test(
        .enabled(if: LineTrackCorpus.has(exiftool), "the shared track corpus (../shared/corpus/tracks-dev) is not here")
    )
    func exifToolSampleHasItsThreeFixes() throws {
        let sink = try parseTrackInEveryChunking(NMEAParser(), try LineTrackCorpus.bytes(Self.exiftool))
        #expect(sink.skipped.isEmpty)
        try LineTrackCorpus.expectSummary(sink.fixes, of: Self.exiftool, count: 3)
    }

    /// GPSBabel's GGA-only sample has no date at all (ExifTool falls back to times of day, which
    /// a fix in seconds since the epoch cannot hold): refused with the reason.
    @Test(
        .enabled(if: LineTrackCorpus.has(adddate), "the shared track corpus (../shared/corpus/tracks-dev) is not here"))
    func datelessSampleIsRefused() throws {
        let bytes = try LineTrackCorpus.bytes(Self.adddate)
        #expect(bytes.withUnsafeBytes { NMEAParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
        expectTrackError(NMEAParser(), bytes, "no date in the NMEA file: it has GGA without RMC or ZDA")
    }
}
