import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The GPX reader: which points are fixes, what is read of them, which are skipped and why, and
/// which files are refused; every file read whole and in chunks of every size.
@Suite struct GPXTests {
    /// 2020-01-01T00:00:00Z.
    static let t0 = 1_577_836_800.0

    /// `body` wrapped in a GPX 1.1 root element, on line 2 (the XML declaration is line 1).
    static func gpx(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="phototag tests" xmlns="http://www.topografix.com/GPX/1/1">
        \(body)
        </gpx>
        """
    }

    @Test func readsTimedTrackRouteAndWaypointPointsAndSkipsUntimedOnes() throws {
        let text = Self.gpx(
            """
            <metadata><time>2019-01-01T00:00:00Z</time></metadata>
            <wpt lat="45.1" lon="13.5"><ele>12.5</ele><time>2020-01-01T00:00:00Z</time><name>A</name></wpt>
            <wpt lat="45.2" lon="13.6"><name>untimed</name></wpt>
            <rte><rtept lat="45.3" lon="13.7"><time>2020-01-01T00:01:00Z</time></rtept>\
            <rtept lat="45.4" lon="13.8"/></rte>
            <trk><name>T</name><trkseg>
            <trkpt lat="-33.5" lon="-70.25"><ele>-3</ele><time>2020-01-01T00:02:00Z</time></trkpt>
            <trkpt lat="-33.6" lon="-70.35"/>
            </trkseg><trkseg>
            <trkpt lat="-33.7" lon="-70.45"><time>2020-01-01T00:03:00Z</time><ele>7.25</ele></trkpt>
            </trkseg></trk>
            """)
        let read = try parseTrackInEveryChunking(GPXParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 45.1, longitude: 13.5, altitude: 12.5),
                TrackFix(time: Self.t0 + 60, latitude: 45.3, longitude: 13.7),
                TrackFix(time: Self.t0 + 120, latitude: -33.5, longitude: -70.25, altitude: -3),
                TrackFix(time: Self.t0 + 180, latitude: -33.7, longitude: -70.45, altitude: 7.25),
            ])
        #expect(
            read.skipped == [
                "line 5: <wpt> without <time>", "line 6: <rtept> without <time>", "line 9: <trkpt> without <time>",
            ])
    }

    @Test func readsAttributesInEitherOrderAndQuoteStyleWithEntitiesCDATAAndComments() throws {
        let text = Self.gpx(
            """
            <trk><desc><![CDATA[a <b> ]] ]]> &unknown; & text that is never read</desc><trkseg>
            <trkpt lon='2.5' lat = "48.75" ><time><![CDATA[2020-01-01T00:00:00Z]]></time></trkpt>
            <trkpt
               lat="&#52;8.5"
               lon="2&#x2e;25"><!-- a <comment> --><time>2020-01-01T00:00:01<!-- split -->Z</time><?pi data?></trkpt>
            <trkpt lat="48.25" lon="2.125" name="a &quot;quoted&quot; &amp; <!-- not --> name"><ele>1&#48;0</ele>
            <time> 2020-01-01T01:00:02&#x2B;01:00 </time></trkpt>
            <!DOCTYPE ignored><?xml-stylesheet href="x"?>
            </trkseg></trk>
            """)
        // The `<` in the attribute value of line 8 is not well-formed: that file is refused.
        #expect(
            xmlTrackErrorInEveryChunking(GPXParser(), text)
                == TrackReadError("line 8: '<' in the value of the attribute name: a tag is not closed"))
        let read = try parseTrackInEveryChunking(
            GPXParser(), Array(text.replacingOccurrences(of: "<!-- not -->", with: "&lt;!-- not --&gt;").utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 48.75, longitude: 2.5),
                TrackFix(time: Self.t0 + 1, latitude: 48.5, longitude: 2.25),
                TrackFix(time: Self.t0 + 2, latitude: 48.25, longitude: 2.125, altitude: 100),
            ])
        #expect(read.skipped.isEmpty)
    }

    @Test func readsOverADoctypeCommentsAndProcessingInstructionsBeforeTheRoot() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>
            <!-- exported by a tool > with a comment -->
            <!DOCTYPE gpx [
              <!ENTITY place "Caf\u{E9}">
              <!ATTLIST gpx version CDATA "1.0">
            ]>
            <?xml-stylesheet type="text/xsl" href="gpx.xsl"?>
            <gpx><wpt lat="1" lon="2"><name>&place;</name><time>2020-01-01T00:00:00Z</time></wpt></gpx>
            <!-- trailing comment --><?trailing pi?>
            """
        let read = try parseTrackInEveryChunking(GPXParser(), Array(text.utf8))
        expectXMLTrackFixes(read.fixes, [TrackFix(time: Self.t0, latitude: 1, longitude: 2)])
    }

    @Test func matchesNamesByTheirLocalNameAndOnlyThePointsOwnTime() throws {
        let text = """
            <?xml version="1.0"?>
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/0" version="1.0"><g:trk><g:trkseg>
            <g:trkpt g:lat="10.5" g:lon="20.5"><g:ele>5</g:ele><g:time>2020-01-01T00:00:00Z</g:time></g:trkpt>
            <trkpt lat="11" lon="21"><extensions><x:ext xmlns:x="urn:x"><x:time>2020-01-01T00:00:09Z</x:time>
            </x:ext></extensions></trkpt>
            <TRKPT LAT="12" LON="22"><TIME>2020-01-01T00:00:10Z</TIME></TRKPT>
            </g:trkseg></g:trk></g:gpx>
            """
        let read = try parseTrackInEveryChunking(GPXParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 10.5, longitude: 20.5, altitude: 5),
                TrackFix(time: Self.t0 + 10, latitude: 12, longitude: 22),
            ])
        #expect(read.skipped == ["line 4: <trkpt> without <time>"])
    }

    @Test func keepsFractionsZonesAndDuplicatesAsTheyAre() throws {
        let text = Self.gpx(
            """
            <trk><trkseg>
            <trkpt lat="57.01147" lon="9.992874"><time>2015-12-11T15:43:13.994+01:00</time></trkpt>
            <trkpt lat="1" lon="2"><time>2020-06-30T23:59:59.5-0230</time></trkpt>
            <trkpt lat="3" lon="4"><time>2020-01-01T00:00:00</time></trkpt>
            <trkpt lat="5" lon="6"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="3" lon="4"><time>2020-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk>
            """)
        let read = try parseTrackInEveryChunking(GPXParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: 1_449_844_993.994, latitude: 57.01147, longitude: 9.992874),
                TrackFix(time: 1_593_570_599.5, latitude: 1, longitude: 2),
                TrackFix(time: Self.t0, latitude: 3, longitude: 4),
                TrackFix(time: Self.t0, latitude: 5, longitude: 6),
                TrackFix(time: Self.t0, latitude: 3, longitude: 4),
            ])
        // Decimals are correctly rounded (one rounding, not digit by digit).
        #expect(read.fixes.first?.latitude == 57.01147 && read.fixes.first?.longitude == 9.992874)
    }

    @Test func skipsPointsWithBadNumbersOrTimesAndSaysWhy() throws {
        let text = Self.gpx(
            """
            <trkpt lat="abc" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="91" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="2"><time>yesterday</time></trkpt>
            <trkpt lat="1" lon="2"><time></time></trkpt>
            <trkpt lat="1" lon="2"><time>2020-02-30T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="2"><ele>n/a</ele><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat=" 1 " lon="2"><ele/><time>2020-01-01T00:00:01Z</time><time>2021-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="181"><time>2020-01-01T00:00:00Z</time></trkpt>
            """)
        let read = try parseTrackInEveryChunking(GPXParser(), Array(text.utf8))
        expectXMLTrackFixes(
            read.fixes,
            [
                TrackFix(time: Self.t0, latitude: 1, longitude: 2),
                TrackFix(time: Self.t0 + 1, latitude: 1, longitude: 2),
            ])
        #expect(
            read.skipped == [
                #"line 3: <trkpt> with lat="abc", not a number"#,
                "line 4: <trkpt> with latitude 91.0, longitude 2.0: out of range (-90...90, -180...180)",
                "line 5: <trkpt> without a lat attribute",
                "line 6: <trkpt> without lat and lon attributes",
                "line 7: <trkpt> with <time>yesterday</time>, not an ISO 8601 date and time",
                "line 8: <trkpt> with <time></time>, not an ISO 8601 date and time",
                "line 9: <trkpt> with <time>2020-02-30T00:00:00Z</time>, not an ISO 8601 date and time",
                "line 12: <trkpt> with latitude 1.0, longitude 181.0: out of range (-90...90, -180...180)",
            ])
    }

    @Test func readsUTF8WithAByteOrderMarkAndUTF16InEitherByteOrder() throws {
        let text = Self.gpx(
            """
            <wpt lat="1.5" lon="2.5"><name>é 日本 😀</name><time>2020-01-01T00:00:00Z</time></wpt>
            <wpt lat="3" lon="4"/>
            """)
        let plain = try parseTrackInEveryChunking(GPXParser(), Array(text.utf8))
        expectXMLTrackFixes(plain.fixes, [TrackFix(time: Self.t0, latitude: 1.5, longitude: 2.5)])
        let units = Array(text.utf16)
        let bigEndian = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let littleEndian = units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        for bytes in [
            [0xEF, 0xBB, 0xBF] + Array(text.utf8), [0xFE, 0xFF] + bigEndian, [0xFF, 0xFE] + littleEndian, bigEndian,
            littleEndian,
        ] {
            let read = try parseTrackInEveryChunking(GPXParser(), bytes)
            #expect(read.fixes == plain.fixes && read.skipped == plain.skipped)
            #expect(bytes.withUnsafeBytes { GPXParser.matches(prefix: $0) })
        }
        // An unpaired surrogate, a file cut in the middle of a code unit, and UTF-32.
        let lone = [0xFE, 0xFF] + Array(bigEndian.prefix(40)) + [0xD8, 0x00, 0x00, 0x3C] + bigEndian.dropFirst(40)
        #expect(
            xmlTrackErrorInEveryChunking(GPXParser(), lone)
                == TrackReadError("line 1: invalid UTF-16 (a high surrogate without its low one)"))
        #expect(
            xmlTrackErrorInEveryChunking(GPXParser(), [0xFF, 0xFE] + littleEndian + [0x0A])
                == TrackReadError("line 5: the file ends in the middle of a UTF-16 character: it is cut short"))
        #expect(
            xmlTrackErrorInEveryChunking(GPXParser(), [0xFF, 0xFE, 0, 0, 0x3C, 0, 0, 0])
                == TrackReadError("not a GPX file this reader can read: it is UTF-32; save it as UTF-8"))
        // The first fault in the document wins, however it is cut into chunks: here the root
        // element (not gpx), before a lone low surrogate further on (found by the TrackFuzzer).
        let wrongRoot = Array("<x>".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(
            xmlTrackErrorInEveryChunking(GPXParser(), [0xFE, 0xFF] + wrongRoot + [0xDC, 0x00] + bigEndian)
                == TrackReadError("not a GPX file: the root element is <x>"))
    }

    @Test func refusesFilesThatAreCutShortOrNotWellFormed() {
        let whole = Self.gpx(
            """
            <trk><trkseg>
            <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk>
            """)
        /// `whole` up to the first `marker`.
        func cut(before marker: String) -> String {
            whole.range(of: marker).map { String(whole[..<$0.lowerBound]) } ?? whole
        }
        let cases: [(String, String)] = [
            (cut(before: "</trkseg>"), "line 5: the file ends before </trkseg> (opened on line 3): it is cut short"),
            (cut(before: "00:00Z"), "line 4: the file ends before </time> (opened on line 4): it is cut short"),
            ("<gpx><trkpt lat=\"1\"", "line 1: the file ends inside the tag of line 1: it is cut short"),
            ("<gpx>\n<!-- a comment", "line 2: the file ends inside the comment of line 2: it is cut short"),
            ("<gpx><desc><![CDATA[x", "line 1: the file ends inside the CDATA section of line 1: it is cut short"),
            (
                "<gpx><wpt lat=\"1\" lon=\"2\"><time>&amp",
                "line 1: the file ends inside an entity (&…;): it is cut short"
            ),
            ("<gpx><trk>\n</trkseg></gpx>", "line 2: the end tag </trkseg> does not match <trk> of line 1"),
            (
                "<gpx></gpx>\n<gpx></gpx>",
                "line 2: a second root element <gpx> after the end of the first: "
                    + "is this several files joined together?"
            ),
            ("<gpx></gpx>\ntrailing", "line 2: text after the end of the root element </gpx>"),
            ("<gpx><trkpt lat=\"1\" lon=\"2\"><time>&nbsp;2020</time></trkpt></gpx>", "line 1: unknown entity &nbsp;"),
            ("<gpx><trkpt lat=1></trkpt></gpx>", "line 1: the attribute lat of <trkpt> has no quoted value"),
            ("<gpx><trkpt lat></trkpt></gpx>", "line 1: the attribute lat of <trkpt> has no quoted value"),
            ("<gpx>< trk></gpx>", "line 1: '<' followed by a space, not by a tag name"),
            ("<gpx><trk/ ></gpx>", "line 1: '/' not followed by '>' in the tag <trk>"),
            ("<gpx><![BAD[x]]></gpx>", "line 1: '<!' followed by 'B': not XML markup"),
            (
                "<gpx><wpt lat=\"1\" lon=\"2\"><time>a & b</time></wpt></gpx>",
                "line 1: '&' that does not start an entity (write &amp; for a lone '&')"
            ),
            ("", "not a GPX file: the file is empty"),
            ("  \n ", "not a GPX file: it has no XML element"),
            ("<?xml version=\"1.0\"?><!-- only -->", "not a GPX file: it has no XML element"),
            ("hello, world", "not a GPX file: line 1 has text ('h') before any XML element"),
            ("{\"gpx\": 1}", "not a GPX file: line 1 has text ('{') before any XML element"),
            (
                "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>",
                "not a GPX file: the root element is <kml>"
            ),
            ("<html><body>gpx</body></html>", "not a GPX file: the root element is <html>"),
        ]
        for (text, message) in cases {
            #expect(xmlTrackErrorInEveryChunking(GPXParser(), text) == TrackReadError(message), "\(text)")
        }
    }

    @Test func boundsWhatItKeepsWhateverTheFileSize() throws {
        // Text that is not read may be any length; text that is read is capped at 1 MB.
        let long = String(repeating: "abcdefgh", count: 400_000)
        let read = try parseTrack(
            GPXParser(),
            Self.gpx("<desc>\(long)</desc><wpt lat=\"1\" lon=\"2\"><time>2020-01-01T00:00:00Z</time></wpt>"),
            chunkSize: 1000)
        #expect(read.fixes.count == 1)
        let error = #expect(throws: TrackReadError.self) {
            _ = try parseTrack(
                GPXParser(), Self.gpx("<wpt lat=\"1\" lon=\"2\"><time>\(long)</time></wpt>"), chunkSize: 1000)
        }
        #expect(error?.message == "line 3: the text of <time> is longer than 1 MB")
        #expect(
            xmlTrackErrorInEveryChunking(GPXParser(), "<gpx>" + String(repeating: "<a>", count: 5000))
                == TrackReadError("line 1: elements nested more than 4096 deep"))
    }

    @Test func tellsGPXByItsRootElementWhateverComesFirst() {
        let yes = [
            "<gpx>", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">", "\u{FEFF}<gpx/>",
            "\n  <!-- made by x -->\n<?xml-stylesheet x?><!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx:gpx xmlns:gpx=\"x\">",
        ]
        let no = [
            "<kml>", "<gpxx>", "<?xml version=\"1.0\"?><html>", "", "<?xml version=\"1.0\"", "<gp", "gpx", "<!-- <gpx>",
        ]
        for text in yes {
            #expect(Array(text.utf8).withUnsafeBytes { GPXParser.matches(prefix: $0) }, "\(text)")
        }
        for text in no {
            #expect(!Array(text.utf8).withUnsafeBytes { GPXParser.matches(prefix: $0) }, "\(text)")
        }
    }

    @Test(
        .enabled(if: XMLTrackCorpus.available, "the shared track corpus (../shared/corpus/tracks-dev) is not present"))
    func readsTheCorpusGPXFilesAsExifToolDoes() throws {
        let files = XMLTrackCorpus.files("gpx__")
        #expect(files.count == 5)
        for file in files {
            let bytes = try XMLTrackCorpus.bytes(file)
            #expect(
                bytes.withUnsafeBytes { GPXParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
            let read = try parseTrackInEveryChunking(GPXParser(), bytes)
            let checked = try XMLTrackCorpus.check(read.fixes, file: file)
            #expect(checked == (try XMLTrackCorpus.locatedPhotos(file)), "\(file)")
        }
        // Routes without times: every point skipped, with its line.
        let route = try parseTrack(GPXParser(), try XMLTrackCorpus.bytes("gpx__gpxpy__route.gpx"))
        #expect(route.fixes.isEmpty && !route.skipped.isEmpty)
        #expect(route.skipped.allSatisfy { $0.hasSuffix(": <rtept> without <time>") })
    }
}
