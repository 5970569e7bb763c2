import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The KML reader: gx:Track, timed Point placemarks and TimeSpans are fixes; paths, untimed
/// points and other elements' time primitives are not; every file read whole and in chunks of
/// every size.
@Suite struct KMLTests {
    /// 2020-01-01T00:00:00Z.
    static let t0 = 1_577_836_800.0

    /// `body` in a KML 2.2 document, from line 4 (the declaration, `<kml>` and `<Document>`
    /// are lines 1 to 3).
    static func kml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document>
        \(body)
        </Document>
        </kml>
        """
    }

    @Test func pairsTheWhenAndCoordOfATrackInOrderWhetherAlternatedOrGrouped() throws {
        let alternated = Self.kml(
            """
            <Placemark><gx:Track>
            <altitudeMode>clampToGround</altitudeMode>
            <when>2013-11-13T01:03:34.245-08:00</when>
            <gx:coord>-106.026069 34.166232 0</gx:coord>
            <when>2013-11-13T09:04:35Z</when>
            <gx:coord>-106.027012  34.165476</gx:coord>
            </gx:Track></Placemark>
            """)
        let grouped = Self.kml(
            """
            <Placemark><gx:MultiTrack><gx:Track>
            <when>2013-11-13T01:03:34.245-08:00</when>
            <when>2013-11-13T09:04:35Z</when>
            <gx:coord>-106.026069 34.166232 0</gx:coord>
            <gx:coord>-106.027012  34.165476</gx:coord>
            <ExtendedData><SchemaData schemaUrl="#s"><gx:SimpleArrayData name="speed">
            <gx:value>1</gx:value><gx:value>2</gx:value></gx:SimpleArrayData></SchemaData></ExtendedData>
            </gx:Track></gx:MultiTrack></Placemark>
            """)
        let expected = [
            TrackFix(time: 1_384_333_414.245, latitude: 34.166232, longitude: -106.026069, altitude: 0),
            TrackFix(time: 1_384_333_475, latitude: 34.165476, longitude: -106.027012),
        ]
        for text in [alternated, grouped] {
            let read = try parseTrackInEveryChunking(KMLParser(), Array(text.utf8))
            expectXMLTrackFixes(read.fixes, expected)
            #expect(read.skipped.isEmpty)
        }
        // KML 2.3 writes the track without the gx: prefix; kml: prefixes name the same elements.
        let plain = Self.kml(
            """
            <kml:Placemark><Track><when>2020-01-01T00:00:00Z</when><coord>1.5 2.5 3.5</coord></Track></kml:Placemark>
            """)
        expectXMLTrackFixes(
            try parseTrackInEveryChunking(KMLParser(), Array(plain.utf8)).fixes,
            [TrackFix(time: Self.t0, latitude: 2.5, longitude: 1.5, altitude: 3.5)])
    }

    @Test func skipsTrackEntriesThatCannotBePairedOrRead() throws {
        let text = Self.kml(
            """
            <Placemark><gx:Track>
            <when>2020-01-01T00:00:00Z</when>
            <when>2020-01-01</when>
            <when>2020-01-01T00:00:02Z</when>
            <when>bad</when>
            <when>2020-01-01T00:00:04Z</when>
            <when>2020-01-01T00:00:05Z</when>
            <gx:coord>1 2 3</gx:coord>
            <gx:coord>1 2 3</gx:coord>
            <gx:coord>1 north</gx:coord>
            <gx:coord>1,2,3</gx:coord>
            <gx:coord>1 95</gx:coord>
            </gx:Track></Placemark>
            <Placemark><gx:Track>
            <gx:coord>4 5</gx:coord>
            <when>2020-01-01T00:00:06Z</when>
            <gx:coord>4 6</gx:coord>
            </gx:Track></Placemark>
            """)
        let read = try parseTrackInEveryChunking(KMLParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 2, longitude: 1, altitude: 3),
                TrackFix(time: Self.t0 + 6, latitude: 5, longitude: 4),
            ])
        #expect(
            read.skipped == [
                #"line 6: "2020-01-01" is not an ISO 8601 date and time"#,
                #"line 8: "bad" is not an ISO 8601 date and time"#,
                #"line 13: <gx:coord> "1 north" is not one position (longitude, latitude and an optional altitude)"#,
                "line 15: latitude 95.0, longitude 1.0: out of range (-90...90, -180...180)",
                "line 4: <gx:Track> has a <when> without its <gx:coord>",
                "line 17: <gx:Track> has a <gx:coord> without its <when>",
            ])
    }

    @Test func readsTimedPointPlacemarksAndNotPathsOrOtherTimes() throws {
        let text = Self.kml(
            """
            <LookAt><gx:TimeSpan><begin>2019-01-01T00:00:00Z</begin><end>2019-01-02T00:00:00Z</end></gx:TimeSpan>
            <longitude>-86.84</longitude><latitude>35.83</latitude></LookAt>
            <Folder><TimeSpan><begin>2019-01-01T00:00:00Z</begin><end>2019-01-02T00:00:00Z</end></TimeSpan>
            <Placemark><name>A &amp; B</name><description><![CDATA[<b>Time: 2018-01-01T00:00:00Z</b>]]></description>
            <LookAt><gx:TimeStamp><when>2018-01-01T00:00:00Z</when></gx:TimeStamp></LookAt>
            <TimeStamp><when>2020-01-01T00:00:00Z</when></TimeStamp>
            <Point><coordinates>-86.844140,35.836146</coordinates></Point></Placemark>
            <Placemark><Point><coordinates>
              &#45;86.8,35.8,120.5
            </coordinates></Point><TimeStamp><when>2020-01-01T01:00:00+01:00</when></TimeStamp></Placemark>
            <Placemark><MultiGeometry><Point><coordinates>1,2</coordinates></Point>
            <Point><coordinates>3,4</coordinates></Point></MultiGeometry>
            <TimeStamp><when>2020-01-01T00:00:01Z</when></TimeStamp></Placemark>
            <Placemark><TimeStamp><when>2020-01-01T00:00:02Z</when></TimeStamp>
            <LineString><coordinates>-122.0841,37.4220,10 -122.0851,37.4230,12</coordinates></LineString></Placemark>
            <Placemark><Point><coordinates>5,6</coordinates></Point></Placemark>
            <Placemark><Point><coordinates>5,6 7,8</coordinates></Point>
            <TimeStamp><when>2020-01-01T00:00:03Z</when></TimeStamp></Placemark>
            <Placemark><Point><coordinates/></Point><TimeStamp><when>2020-01-01T00:00:04Z</when></TimeStamp></Placemark>
            <Placemark><Point/><TimeStamp><when>2020-01-01T00:00:05Z</when></TimeStamp></Placemark>
            <Placemark><Point><coordinates>5,6</coordinates></Point><TimeStamp><when>soon</when></TimeStamp></Placemark>
            <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>1,2 3,4 5,6 1,2</coordinates>
            </LinearRing></outerBoundaryIs></Polygon>\
            <TimeStamp><when>2020-01-01T00:00:06Z</when></TimeStamp></Placemark>
            </Folder>
            """)
        let read = try parseTrackInEveryChunking(KMLParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 35.836146, longitude: -86.844140),
                TrackFix(time: Self.t0, latitude: 35.8, longitude: -86.8, altitude: 120.5),
                TrackFix(time: Self.t0 + 1, latitude: 2, longitude: 1),
            ])
        #expect(
            read.skipped == [
                "line 15: a second <Point> in the <Placemark> of line 14: not read",
                "line 18: <LineString> has no times: it is a path, not a track",
                "line 19: <Point> without <TimeStamp> or <TimeSpan> in its <Placemark>",
                #"line 20: <coordinates> "5,6 7,8" is not one position (longitude, latitude and an optional altitude)"#,
                "line 22: <Point> <coordinates> are empty",
                "line 23: <Point> without <coordinates>",
                #"line 24: "soon" is not an ISO 8601 date and time"#,
            ])
    }

    @Test func givesATimeSpanAFixAtItsBeginAndItsEnd() throws {
        let text = Self.kml(
            """
            <Placemark><TimeSpan><begin>2020-01-01T00:00:00Z</begin><end>2020-01-01T05:00:00Z</end></TimeSpan>
            <Point><coordinates>10,20,30</coordinates></Point></Placemark>
            <Placemark><TimeSpan><end>2020-01-01T06:00:00Z</end></TimeSpan>\
            <Point><coordinates>11,21</coordinates></Point>
            </Placemark>
            <Placemark><TimeSpan><begin>2020-01-01T08:00:00Z</begin><end>2020-01-01T07:00:00Z</end></TimeSpan>
            <Point><coordinates>12,22</coordinates></Point></Placemark>
            <Placemark><TimeSpan><begin>2020-01-01T09:00:00Z</begin></TimeSpan><Point><coordinates>13,23</coordinates>
            </Point></Placemark>
            <Placemark><TimeSpan><begin>2020-01-01T09:00:00Z</begin><end>later</end></TimeSpan>
            <Point><coordinates>13,23</coordinates></Point></Placemark>
            """)
        let read = try parseTrackInEveryChunking(KMLParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 20, longitude: 10, altitude: 30),
                TrackFix(time: Self.t0 + 5 * 3600, latitude: 20, longitude: 10, altitude: 30),
                TrackFix(time: Self.t0 + 6 * 3600, latitude: 21, longitude: 11),
                TrackFix(time: Self.t0 + 7 * 3600, latitude: 22, longitude: 12),
            ])
        #expect(
            read.skipped == [
                "line 10: <Placemark> with a <TimeSpan> without <end>: not a fix",
                #"line 12: "later" is not an ISO 8601 date and time"#,
            ])
    }

    @Test func refusesFilesThatAreCutShortOrNotKML() {
        let whole = Self.kml(
            "<Placemark><gx:Track><when>2020-01-01T00:00:00Z</when><gx:coord>1 2</gx:coord></gx:Track></Placemark>")
        let cut = String(whole[..<(whole.range(of: "</Document>")?.lowerBound ?? whole.endIndex)])
        let cases: [(String, String)] = [
            (cut, "line 5: the file ends before </Document> (opened on line 3): it is cut short"),
            ("<kml><Document></kml>", "line 1: the end tag </kml> does not match <Document> of line 1"),
            ("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>", "not a KML file: the root element is <gpx>"),
            ("PK\u{3}\u{4}", "not a KML file: line 1 has text ('P') before any XML element"),
            (
                "<kml><Placemark><TimeStamp><when>2020-01-01T00:00:00&#xD800;</when></TimeStamp></Placemark></kml>",
                "line 1: unknown entity &#xD800;"
            ),
        ]
        for (text, message) in cases {
            #expect(xmlTrackErrorInEveryChunking(KMLParser(), text) == TrackReadError(message), "\(text)")
        }
    }

    @Test func tellsKMLByItsRootElement() {
        for text in ["<kml>", "\u{FEFF}<?xml version=\"1.0\"?>\n<kml:kml xmlns:kml=\"x\">", "<!-- x --><kml/>"] {
            #expect(Array(text.utf8).withUnsafeBytes { KMLParser.matches(prefix: $0) }, "\(text)")
        }
        for text in ["<gpx>", "<kmlx>", "<Document>", "PK\u{3}\u{4}", "kml"] {
            #expect(!Array(text.utf8).withUnsafeBytes { KMLParser.matches(prefix: $0) }, "\(text)")
        }
    }

    @Test(
        .enabled(if: XMLTrackCorpus.available, "the shared track corpus (../shared/corpus/tracks-dev) is not present"))
    func readsTheCorpusKMLFilesAsExifToolDoes() throws {
        let files = XMLTrackCorpus.files("kml__")
        #expect(files.count == 3)
        for file in files {
            let bytes = try XMLTrackCorpus.bytes(file)
            #expect(
                bytes.withUnsafeBytes { KMLParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
            let read = try parseTrackInEveryChunking(KMLParser(), bytes)
            let checked = try XMLTrackCorpus.check(read.fixes, file: file)
            #expect(checked == (try XMLTrackCorpus.locatedPhotos(file)), "\(file)")
        }
        // A LineString with one TimeStamp is a path, not a track: no fix, and the reason.
        let path = try parseTrack(KMLParser(), try XMLTrackCorpus.bytes("kml__dawarich__linestring_track.kml"))
        #expect(path.fixes.isEmpty && path.skipped == ["line 10: <LineString> has no times: it is a path, not a track"])
        // GPSBabel's file: 4 timed Points; 42 untimed ones and 10 paths are skipped.
        let segmented = try parseTrack(KMLParser(), try XMLTrackCorpus.bytes("kml__gpsbabel__segmented_tracks.kml"))
        #expect(segmented.fixes.count == 4 && segmented.skipped.count == 52)
    }
}
