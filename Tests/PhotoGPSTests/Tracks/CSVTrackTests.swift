import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The CSV track reader: header names and separators, quoting, line ends, the time forms, the
/// rows it skips, and GPSBabel's unicsv file of the corpus.
@Suite struct CSVTrackTests {
    /// Parses `text` in every chunking.
    func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> CollectingSink {
        try parseTrackInEveryChunking(CSVTrackParser(), Array(text.utf8), sourceLocation: sourceLocation)
    }

    @Test func readsGPSBabelUnicsvWithDateAndTimeColumns() throws {
        let sink = try parse(
            "No,Latitude,Longitude,Altitude,Speed,Date,Time\r\n"
                + "1,40.781704,-73.960901,58.2,0.00,2013/04/30,14:23:57\r\n"
                + "2,40.781705,-73.960900,,0.00,2013/04/30,14:23:58\r\n"
                + "3,40.781705,-73.960899,58.2,0.00,30/04/2013,14:23:59.5")
        let start = trackInstant("2013-04-30T14:23:57Z")
        #expect(
            sink.fixes == [
                TrackFix(time: start, latitude: 40.781704, longitude: -73.960901, altitude: 58.2),
                TrackFix(time: start + 1, latitude: 40.781705, longitude: -73.960900),
                TrackFix(time: start + 2.5, latitude: 40.781705, longitude: -73.960899, altitude: 58.2),
            ])
        #expect(sink.skipped.isEmpty)
    }

    @Test func readsAnyColumnOrderQuotesAndLineEnds() throws {
        let text =
            "\u{FEFF}\"Time (UTC)\",\"Name\",\"GPS_Longitude\",ele,\"lat\"\r"
            + "2020-03-18T13:28:19Z,\"Home, \"\"sweet\"\" home\",-93.5,280,41.5\r"
            + "2020-03-18 15:28:20+02:00,\"two\nlines\",\"-93.25\",,\"41.25\"\n"
            + "2020-03-18T13:28:21,x,-93.125,281.5,41.125\n"
            + "2020-03-18T13:28:22Z,\"unclosed,-93,1,41\n"
        let sink = try parse(text)
        let start = trackInstant("2020-03-18T13:28:19Z")
        #expect(
            sink.fixes == [
                TrackFix(time: start, latitude: 41.5, longitude: -93.5, altitude: 280),
                TrackFix(time: start + 1, latitude: 41.25, longitude: -93.25),
                TrackFix(time: start + 2, latitude: 41.125, longitude: -93.125, altitude: 281.5),
            ])
        #expect(sink.skipped == ["line 6: unterminated quoted field"])
    }

    @Test func sniffsSemicolonsTabsAndDecimalCommas() throws {
        let semicolons = try parse("datetime;lat;lon;alt\n2013-04-30T14:23:57Z;40,5;-73,25;12,5\n")
        #expect(
            semicolons.fixes == [
                TrackFix(time: trackInstant("2013-04-30T14:23:57Z"), latitude: 40.5, longitude: -73.25, altitude: 12.5)
            ])
        let tabs = try parse("# exported\n\nlat\tlng\ttimestamp\n40.5\t-73.25\t2013-04-30T14:23:57Z\n")
        #expect(tabs.fixes == [TrackFix(time: trackInstant("2013-04-30T14:23:57Z"), latitude: 40.5, longitude: -73.25)])
        // With a comma separator, "40,5" is two fields.
        let commas = try parse("lat,lon,time\n40,5,-73.25,2013-04-30T14:23:57Z\n")
        #expect(commas.skipped == ["line 2: time '-73.25' is not a date and time"])
    }

    @Test func readsEpochSecondsAndMilliseconds() throws {
        let sink = try parse(
            "unix_time,latitude,longitude\n1367331837,1,2\n1367331838500,1,2\n1367331839.25,1,2\n12.5,1,2\n")
        #expect(sink.fixes.map(\.time) == [1_367_331_837, 1_367_331_838.5, 1_367_331_839.25])
        #expect(sink.skipped == ["line 5: time '12.5' is not a date and time"])
    }

    @Test func readsHemisphereLettersReferenceColumnsAndZones() throws {
        let sink = try parse(
            "Date,Time,Latitude,LatRef,Longitude,LonRef\n"
                + "2013-04-30,14:23:57Z,40.5,S,73.25,W\n"
                + "20130430,16:23:58+02:00,40.5,N,73.25,E\n"
                + "2013.04.30,09:23:59 -0500,N 40.5,,73.25 W,\n"
                + "30.04.2013,01:00:00+02,40.5s,,073.25e,\n")
        let start = trackInstant("2013-04-30T14:23:57Z")
        #expect(
            sink.fixes == [
                TrackFix(time: start, latitude: -40.5, longitude: -73.25),
                TrackFix(time: start + 1, latitude: 40.5, longitude: 73.25),
                TrackFix(time: start + 2, latitude: 40.5, longitude: -73.25),
                TrackFix(time: trackInstant("2013-04-29T23:00:00Z"), latitude: -40.5, longitude: 73.25),
            ])
    }

    @Test func skipsRowsItCannotReadWithTheReason() throws {
        let sink = try parse(
            "lat,lon,date,time,alt\n"
                + "1,2,2013-04-30,14:23:57,abc\n"
                + ",2,2013-04-30,14:23:57\n"
                + "x1,2,2013-04-30,14:23:57\n"
                + "1,,2013-04-30,14:23:57\n"
                + "1,2,2013-04-30,\n"
                + "1,2,,14:23:57\n"
                + "1,2,2013-13-30,14:23:57\n"
                + "1,2,2013-04-30,25:00:00\n"
                + "91,2,2013-04-30,14:23:57\n"
                + "1,2\n"
                + "\n"
                + "# a comment\n"
                + "1,2,2013-04-30T14:23:58Z\n")
        #expect(sink.fixes.map(\.time) == [trackInstant("2013-04-30T14:23:57Z")])
        #expect(sink.fixes.first?.altitude == nil)
        #expect(
            sink.skipped == [
                "line 3: no latitude",
                "line 4: latitude 'x1' is not a number",
                "line 5: no longitude",
                "line 6: no time",
                "line 7: time '14:23:57' has no date",
                "line 8: date '2013-13-30' is not a date",
                "line 9: time '25:00:00' is not a date and time",
                "line 10: position out of range",
                "line 11: no time",
                "line 14: no time",
            ])
    }

    @Test func refusesFilesWithoutAUsableHeader() {
        expectTrackError(CSVTrackParser(), "", "not a CSV track: it has no header line")
        expectTrackError(CSVTrackParser(), "# only a comment\n", "not a CSV track: it has no header line")
        expectTrackError(
            CSVTrackParser(), "date,lat,lon\n2013-04-30,1,2\n",
            "not a CSV track: its header (line 1) does not name latitude, longitude and time columns")
        expectTrackError(
            CSVTrackParser(), "<?xml version=\"1.0\"?>\n<gpx lat=\"1\" lon=\"2\"><time/></gpx>\n",
            "not a CSV track: its header (line 1) does not name latitude, longitude and time columns")
        let long = "lat,lon,time\n" + String(repeating: "1", count: TrackLineSplitter.maximumLineLength + 1)
        expectTrackError(CSVTrackParser(), long, "line 2: longer than 1048576 bytes: not a text track file")
        let quoted = "lat,lon,time\n\"" + String(repeating: "1\n", count: TrackLineSplitter.maximumLineLength / 2 + 1)
        expectTrackError(CSVTrackParser(), quoted, "line 2: longer than 1048576 bytes: not a text track file")
    }

    @Test func sniffsOnlyAHeaderNamingPositionAndTime() {
        #expect(sniffs(CSVTrackParser.self, "No,Latitude,Longitude,Altitude,Speed,Date,Time\r\n1,2,3"))
        #expect(sniffs(CSVTrackParser.self, "# comment\n\nlat;lon;timestamp\n"))
        #expect(sniffs(CSVTrackParser.self, "\"GPS Latitude (deg)\"\t\"GPS Longitude (deg)\"\t\"GPS Time [UTC]\"\n"))
        #expect(!sniffs(CSVTrackParser.self, "date,lat,lon\n"))
        #expect(!sniffs(CSVTrackParser.self, "latitude longitude time\n"))
        #expect(!sniffs(CSVTrackParser.self, "<?xml version=\"1.0\"?>\n<gpx><trkpt lat=\"1\" lon=\"2\"><time>"))
        #expect(!sniffs(CSVTrackParser.self, nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,") + "\n"))
        #expect(!sniffs(CSVTrackParser.self, "{\"locations\": [{\"latitudeE7\": 1, \"timestamp\": \"x\"}]}"))
        #expect(!sniffs(CSVTrackParser.self, "AXMP eTrex\nHFDTE050110\n"))
    }

    // MARK: corpus

    static let unicsv = "csv__gpsbabel__bike~unicsv.csv"

    @Test(
        .enabled(if: LineTrackCorpus.has(unicsv), "the shared track corpus (../shared/corpus/tracks-dev) is not here"))
    func corpusFileMatchesExifTool() throws {
        let bytes = try LineTrackCorpus.bytes(Self.unicsv)
        #expect(
            bytes.withUnsafeBytes { CSVTrackParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
        let sink = try parseTrackInEveryChunking(CSVTrackParser(), bytes)
        #expect(sink.skipped.isEmpty)
        try LineTrackCorpus.expectSummary(sink.fixes, of: Self.unicsv)
        #expect(try LineTrackCorpus.expectPhotos(sink.fixes, of: Self.unicsv) == 2)
    }

    /// Each reader of this part claims, by content, exactly the corpus's files of its format
    /// (named `<format>__…`): in particular CSV, the last resort, claims no GPX, KML, NMEA, IGC,
    /// FIT or Google JSON file.
    @Test(
        .enabled(if: LineTrackCorpus.has(unicsv), "the shared track corpus (../shared/corpus/tracks-dev) is not here"))
    func eachReaderClaimsOnlyItsOwnCorpusFiles() throws {
        let sniffers: [(String, (UnsafeRawBufferPointer) -> Bool)] = [
            ("nmea", NMEAParser.matches), ("igc", IGCParser.matches), ("csv", CSVTrackParser.matches),
            ("fit", FITParser.matches),
        ]
        for name in try listDirectory(LineTrackCorpus.folder + "/tracks") {
            let bytes = try LineTrackCorpus.bytes(name)
            let format = String(name.prefix { $0 != "_" })
            for (reader, matches) in sniffers {
                let claimed = bytes.withUnsafeBytes { matches(UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) }
                #expect(claimed == (format == reader), "\(reader) reader on \(name)")
            }
        }
    }
}
