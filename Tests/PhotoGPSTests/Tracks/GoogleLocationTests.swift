import Foundation
import PhotoTagSupport
import TestSupport
import Testing

@testable import PhotoGPS

/// The seconds of an ISO 8601 instant, for expected fixes.
private func at(_ text: String) -> Double {
    guard let time = TrackTime.iso8601(text) else {
        Issue.record("bad test time \(text)")
        return .nan
    }
    return time
}

/// Parses `text` with a Google parser in every chunking (see ``parseTrackInEveryChunking``).
private func parseGoogle(
    _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) throws(TrackReadError)
    -> CollectingSink
{
    try parseTrackInEveryChunking(GoogleLocationParser(), Array(text.utf8), sourceLocation: sourceLocation)
}

/// The error a Google parser gives for `text`, which must be the same in every chunking.
private func googleError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let bytes = Array(text.utf8)
    var messages: [String?] = []
    for size in [nil, 1, 2, 3, 7, 64, 4096] {
        do {
            _ = try parseTrack(GoogleLocationParser(), bytes, chunkSize: size)
            messages.append(nil)
        } catch {
            messages.append(error.message)
        }
    }
    #expect(Set(messages).count == 1, "\(messages)", sourceLocation: sourceLocation)
    return messages[0]
}

/// `text` without its white space outside strings: the minified form of a pretty-printed file.
private func minified(_ text: String) -> String {
    var result = ""
    var inString = false
    var escaped = false
    for character in text {
        if inString {
            result.append(character)
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inString = false
            }
        } else if character == "\"" {
            inString = true
            result.append(character)
        } else if !character.isWhitespace {
            result.append(character)
        }
    }
    return result
}

/// Whether two fixes agree: times exactly, positions within 1e-9°, altitudes within 1e-9 m.
private func same(_ a: TrackFix, _ b: TrackFix) -> Bool {
    a.time == b.time && abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9
        && (a.altitude == nil) == (b.altitude == nil) && abs((a.altitude ?? 0) - (b.altitude ?? 0)) < 1e-9
}

/// Expects `fixes` to be `expected`, one by one.
private func expectFixes(
    _ fixes: [TrackFix], _ expected: [TrackFix], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(fixes.count == expected.count, "\(fixes)", sourceLocation: sourceLocation)
    for (fix, wanted) in zip(fixes, expected) {
        #expect(same(fix, wanted), "\(fix) is not \(wanted)", sourceLocation: sourceLocation)
    }
}

@Suite struct GoogleRecordsTests {
    /// Entries in every form Records.json writes them, keys in any order, with nested activity
    /// timestamps that are not the fix's, and text fields with escapes.
    static let records = """
        {
          "locations": [
            {
              "latitudeE7": 437789954,
              "longitudeE7": -794176419,
              "accuracy": 30,
              "activity": [
                {
                  "activity": [ { "type": "STILL", "confidence": 58 } ],
                  "timestamp": "2015-10-10T18:47:31.321Z"
                },
                {
                  "timestamp": "2015-10-10T18:47:01.532Z",
                  "activity": [ { "type": "UNKNOWN \\"quoted\\" \\u00b0", "confidence": 25 } ]
                }
              ],
              "source": "WIFI",
              "deviceTag": 1433424142,
              "timestamp": "2015-10-10T18:47:02.597Z"
            },
            {
              "timestamp": "2015-10-10T20:48:02.5+02:00",
              "activity": [ { "timestamp": "2015-10-10T18:49:00Z", "activity": [] } ],
              "longitudeE7": 1517265645,
              "altitude": 132,
              "verticalAccuracy": 3,
              "latitudeE7": 4294967295,
              "platformType": "ANDROID\\\\\\"",
              "serverTimestamp": "2015-10-10T18:50:00Z"
            },
            {
              "latitudeE7": -337000000,
              "longitudeE7": 3807265645,
              "timestampMs": "1444503002768",
              "altitude": -12.5
            },
            {
              "timestampMs": 1444503033308,
              "latitudeE7": 437898152,
              "longitudeE7": -794373202,
              "deviceTimestamp": "2015-10-10T18:51:00Z",
              "activity": [ { "timestampMs": "1444503099999" } ]
            }
          ]
        }
        """

    static let expected = [
        TrackFix(time: at("2015-10-10T18:47:02.597Z"), latitude: 43.7789954, longitude: -79.4176419),
        // Google's altitudes are not read (ExifTool reads none).
        TrackFix(time: at("2015-10-10T18:48:02.5Z"), latitude: -0.0000001, longitude: 151.7265645),
        TrackFix(time: 1_444_503_002.768, latitude: -33.7, longitude: -48.7701651),
        TrackFix(time: 1_444_503_033.308, latitude: 43.7898152, longitude: -79.4373202),
    ]

    @Test func readsEachEntryAtItsOwnTimestamp() throws {
        let sink = try parseGoogle(Self.records)
        expectFixes(sink.fixes, Self.expected)
        #expect(sink.skipped.isEmpty)
    }

    @Test func readsMinifiedFilesAlike() throws {
        let text = minified(Self.records)
        #expect(!text.contains("\n"))
        let sink = try parseGoogle(text)
        expectFixes(sink.fixes, Self.expected)
    }

    @Test func readsFilesWithAByteOrderMarkAndCarriageReturns() throws {
        let text = "\u{FEFF}" + Self.records.replacingOccurrences(of: "\n", with: "\r\n")
        expectFixes(try parseGoogle(text).fixes, Self.expected)
    }

    @Test func readsTimestampMsAsStringAndNumber() throws {
        let sink = try parseGoogle(
            """
            {"locations":[{"latitudeE7":1,"longitudeE7":2,"timestampMs":"1444503002768"},
            {"latitudeE7":1,"longitudeE7":2,"timestampMs":1444503002769},
            {"latitudeE7":1,"longitudeE7":2,"timestampMs":"-1000"},
            {"latitudeE7":"3","longitudeE7":"4","timestampMs":1.5e3}]}
            """)
        #expect(sink.fixes.map(\.time) == [1_444_503_002.768, 1_444_503_002.769, -1, 1.5])
        #expect(sink.fixes.last?.latitude == 3e-7)
    }

    @Test func wrapsE7ValuesWrittenAsUnsigned() throws {
        let sink = try parseGoogle(
            """
            {"locations":[{"latitudeE7":3957967296,"longitudeE7":1800000000,"timestamp":"2020-01-01T00:00:00Z"},
            {"latitudeE7":-900000000,"longitudeE7":1800000001,"timestamp":"2020-01-01T00:00:01Z"}]}
            """)
        expectFixes(
            sink.fixes,
            [
                TrackFix(time: at("2020-01-01T00:00:00Z"), latitude: -33.7, longitude: 180),
                TrackFix(time: at("2020-01-01T00:00:01Z"), latitude: -90, longitude: -249.4967295),
            ].filter(\.isValid))
        #expect(sink.skipped == ["locations[1] (line 2): a position out of range (-90.0, -249.4967295)"])
    }

    @Test func skipsEntriesWithoutTimeOrPositionWithTheReason() throws {
        let sink = try parseGoogle(
            """
            {
              "locations": [
                { "latitudeE7": 1, "longitudeE7": 2, "activity": [ { "timestamp": "2020-01-01T00:00:00Z" } ] },
                { "latitudeE7": 1, "timestamp": "2020-01-01T00:00:00Z" },
                { "latitudeE7": 1, "longitudeE7": 2, "timestamp": "yesterday" },
                { "latitudeE7": 1.5, "longitudeE7": true, "timestamp": "2020-01-01T00:00:00Z" },
                { "latitudeE7": 1, "longitudeE7": 2, "timestamp": "2020-01-01T00:00:00Z", "latitudeE7": 3 },
                { "latitudeE7": { "value": 1 }, "longitudeE7": 2, "timestamp": "2020-01-01T00:00:00Z" },
                42,
                [ "not", "an", "entry" ],
                { "latitudeE7": null, "longitudeE7": 2, "timestamp": "2020-01-01T00:00:00Z" },
                { "latitudeE7": 10, "longitudeE7": 20, "timestamp": "2020-01-01T00:00:10Z", "altitude": "high" }
              ]
            }
            """)
        expectFixes(sink.fixes, [TrackFix(time: at("2020-01-01T00:00:10Z"), latitude: 1e-6, longitude: 2e-6)])
        #expect(
            sink.skipped == [
                "locations[0] (line 3): no timestamp",
                "locations[1] (line 4): no position",
                "locations[2] (line 5): timestamp \"yesterday\" cannot be read",
                "locations[3] (line 6): longitudeE7 is a boolean",
                "locations[4] (line 7): latitudeE7 is repeated",
                "locations[5] (line 8): latitudeE7 is an object",
                "locations[6] (line 9): a number, not an object",
                "locations[7] (line 10): an array, not an object",
                "locations[8] (line 11): no position",
            ])
    }

    @Test func readsLocationsAfterOtherTopLevelKeys() throws {
        let sink = try parseGoogle(
            #"{"version": {"a": [1, "locations"]}, "locations": [{"latitudeE7": 1, "longitudeE7": 2, "timestamp": "2020-01-01T00:00:00Z"}], "z": null}"#
        )
        expectFixes(sink.fixes, [TrackFix(time: at("2020-01-01T00:00:00Z"), latitude: 1e-7, longitude: 2e-7)])
    }

    @Test func readsEntriesWithLongUnreadFields() throws {
        // Each entry has a long string that is not read (nor kept), read in chunks that split it.
        let padding = String(repeating: "x", count: 5000)
        var text = "{\"locations\":["
        for index in 0..<200 {
            if index > 0 { text += "," }
            text +=
                "{\"note\":\"\(padding)\",\"latitudeE7\":\(index),\"longitudeE7\":1,\"timestampMs\":\"\(index * 1000)\"}"
        }
        text += "]}"
        let sink = try parseTrack(GoogleLocationParser(), text, chunkSize: 997)
        #expect(sink.fixes.count == 200)
        #expect(sink.fixes.last?.time == 199)
    }
}

@Suite struct GoogleSemanticTests {
    static let semantic = """
        {
          "timelineObjects": [
            {
              "activitySegment": {
                "startLocation": { "latitudeE7": 436996461, "longitudeE7": -798555542 },
                "endLocation": { "latitudeE7": 438870938, "longitudeE7": -790177265 },
                "duration": { "startTimestamp": "2021-08-01T00:22:28Z", "endTimestamp": "2021-08-01T01:22:24Z" },
                "activities": [ { "activityType": "IN_PASSENGER_VEHICLE", "probability": 96.1 } ],
                "waypointPath": { "waypoints": [ { "latE7": 436996498, "lngE7": -798555450 } ] },
                "simplifiedRawPath": {
                  "points": [
                    { "latE7": 437584724, "lngE7": -793611984, "accuracyMeters": 2, "timestamp": "2021-08-05T20:34:33Z" },
                    { "timestampMs": "1628196278000", "lngE7": -793960495, "latE7": 437840691 }
                  ]
                },
                "parkingEvent": {
                  "location": { "latitudeE7": 438870938, "longitudeE7": -790177265, "accuracyMetres": 160 },
                  "method": "END_OF_ACTIVITY_SEGMENT",
                  "timestamp": "2021-08-01T01:22:24Z"
                }
              }
            },
            {
              "placeVisit": {
                "location": { "latitudeE7": 438865167, "longitudeE7": -790179014, "address": "6 Rumbellow Cres" },
                "duration": { "startTimestamp": "2021-08-01T01:22:24Z", "endTimestamp": "2021-08-01T01:25:36Z" },
                "childVisits": [
                  {
                    "location": { "latitudeE7": 1, "longitudeE7": 2 },
                    "simplifiedRawPath": { "points": [ { "latE7": 10, "lngE7": 20, "timestamp": "2021-08-01T01:23:00Z" } ] }
                  }
                ],
                "simplifiedRawPath": {
                  "points": [ { "latE7": 438865000, "lngE7": -790179000, "timestamp": "2021-08-01T01:24:00.250Z" } ]
                }
              }
            },
            {
              "activitySegment": {
                "parkingEvent": { "location": { "latitudeE7": 1, "longitudeE7": 2 } },
                "simplifiedRawPath": { "points": [ { "latE7": 1, "timestamp": "2021-08-01T01:23:00Z" } ] }
              }
            }
          ]
        }
        """

    @Test func readsSimplifiedRawPathsAndParkingEventsOnly() throws {
        for text in [Self.semantic, minified(Self.semantic)] {
            let sink = try parseGoogle(text)
            expectFixes(
                sink.fixes,
                [
                    TrackFix(time: at("2021-08-05T20:34:33Z"), latitude: 43.7584724, longitude: -79.3611984),
                    TrackFix(time: 1_628_196_278, latitude: 43.7840691, longitude: -79.3960495),
                    TrackFix(time: at("2021-08-01T01:22:24Z"), latitude: 43.8870938, longitude: -79.0177265),
                    TrackFix(time: at("2021-08-01T01:23:00Z"), latitude: 1e-6, longitude: 2e-6),
                    TrackFix(time: at("2021-08-01T01:24:00.25Z"), latitude: 43.8865, longitude: -79.0179),
                ])
            let lines = text == Self.semantic ? (40, 41) : (1, 1)
            #expect(
                sink.skipped == [
                    "timelineObjects[2].activitySegment.parkingEvent (line \(lines.0)): no timestamp",
                    "timelineObjects[2].activitySegment.simplifiedRawPath.points[0] (line \(lines.1)): no position",
                ])
        }
    }
}

@Suite struct GoogleTimelineTests {
    static let timeline = """
        {
          "semanticSegments": [
            {
              "startTime": "2024-06-15T09:00:00.000+02:00",
              "endTime": "2024-06-15T10:00:00.000+02:00",
              "visit": {
                "topCandidate": { "placeId": "ChIJ", "placeLocation": { "latLng": "48.8566\\u00b0, 2.3522\\u00b0" } }
              }
            },
            {
              "startTime": "2024-06-15T10:00:00.000+02:00",
              "activity": {
                "start": { "latLng": "48.8566°, 2.3522°" },
                "end": { "latLng": "48.8606°, 2.3376°" }
              }
            },
            {
              "timelinePath": [
                { "point": "48.8606\\u00b0, 2.3376\\u00b0", "time": "2024-06-15T10:35:00.000+02:00" },
                { "time": "2024-06-15T08:40:00Z", "point": "48.8620°, -2.3350°" },
                { "point": "geo:-48.5,170.25", "time": "2024-06-15T10:45:30.5+0200" },
                { "point": " 1 , 2 ", "time": "2024-06-15T08:46:00Z" },
                { "point": "48.8620°; 2.3350°", "time": "2024-06-15T08:47:00Z" },
                { "point": "48.8620°, 2.3350°" }
              ]
            }
          ],
          "rawSignals": [
            { "position": { "LatLng": "48.8566, 2.3522", "timestamp": "2024-06-15T09:05:00.000Z" } }
          ],
          "userLocationProfile": { "frequentPlaces": [ { "placeLocation": "48.8566, 2.3522" } ] }
        }
        """

    @Test func readsTimelinePathPointsOnly() throws {
        let rawSignalsFirst = """
            {"rawSignals": [{"position": {"LatLng": "1°, 2°", "timestamp": "2024-06-15T09:05:00Z"}}],
             "semanticSegments": [{"timelinePath": [{"point": "48.8606°, 2.3376°", "time": "2024-06-15T08:35:00Z"}]}]}
            """
        let sink = try parseGoogle(Self.timeline)
        expectFixes(
            sink.fixes,
            [
                TrackFix(time: at("2024-06-15T08:35:00Z"), latitude: 48.8606, longitude: 2.3376),
                TrackFix(time: at("2024-06-15T08:40:00Z"), latitude: 48.862, longitude: -2.335),
                TrackFix(time: at("2024-06-15T08:45:30.5Z"), latitude: -48.5, longitude: 170.25),
                TrackFix(time: at("2024-06-15T08:46:00Z"), latitude: 1, longitude: 2),
            ])
        #expect(
            sink.skipped == [
                "semanticSegments[2].timelinePath[4] (line 23): point \"48.8620°; 2.3350°\" cannot be read",
                "semanticSegments[2].timelinePath[5] (line 24): no time",
            ])
        #expect(try parseGoogle(minified(Self.timeline)).fixes == sink.fixes)
        #expect(try parseGoogle(rawSignalsFirst).fixes.map(\.time) == [at("2024-06-15T08:35:00Z")])
    }
}

@Suite struct GoogleFormatTests {
    /// ``GoogleLocationParser/shape(prefix:)`` of a text.
    static func shape(_ text: String) -> GoogleLocationParser.Shape? {
        Array(text.utf8).withUnsafeBytes { GoogleLocationParser.shape(prefix: $0) }
    }

    @Test func tellsTheShapeByTheFirstKey() {
        #expect(Self.shape(GoogleRecordsTests.records) == .records)
        #expect(Self.shape(minified(GoogleRecordsTests.records)) == .records)
        #expect(Self.shape("\u{FEFF}\r\n {\"locations\":") == .records)
        #expect(Self.shape(GoogleSemanticTests.semantic) == .semantic)
        #expect(Self.shape(GoogleTimelineTests.timeline) == .timeline)
        #expect(Self.shape("{\"rawSignals\": [") == .timeline)
        #expect(Self.shape("{\"userLocationProfile\": {") == .timeline)
        #expect(Self.shape("{\"loc\\u0061tions\": [") == .records)
        for text in [
            "", "{", "{\"locat", "[{\"locations\": []}]", "{\"type\": \"FeatureCollection\"}",
            "<?xml version=\"1.0\"?>",
            "{\"timelineEdits\": []}", "locations", "{locations: []}",
        ] {
            #expect(Self.shape(text) == nil, "\(text)")
            #expect(!Array(text.utf8).withUnsafeBytes { GoogleLocationParser.matches(prefix: $0) })
        }
        #expect(Array(GoogleRecordsTests.records.utf8).withUnsafeBytes { GoogleLocationParser.matches(prefix: $0) })
    }

    @Test func looksAtTheFirst4096BytesOnly() {
        let text = "{" + String(repeating: " ", count: 4090) + "\"locations\": []}"
        #expect(Self.shape(text) == nil)
        #expect(Self.shape("{" + String(repeating: " ", count: 4080) + "\"locations\": []}") == .records)
    }

    @Test func refusesFilesCutShort() throws {
        let text = GoogleRecordsTests.records
        // Cut anywhere in the file, even between entries: refused, whatever was read before.
        for cut in stride(from: 1, to: text.utf8.count, by: 37) {
            let prefix = String(decoding: Array(text.utf8)[..<cut], as: UTF8.self)
            let error = googleError(prefix)
            #expect(error?.contains("the text ends inside") == true, "cut at \(cut): \(error ?? "no error")")
        }
        #expect(googleError("{\"locations\": [") == "line 1 (byte offset 15): the text ends inside an array (2 open)")
        #expect(
            googleError("{\"locations\": [{\"timestamp\": \"2020")
                == "line 1 (byte offset 34): the text ends inside a string")
    }

    @Test func refusesWhatIsNotJSON() {
        #expect(googleError("") == "not JSON: line 1 (byte offset 0): the text holds no JSON value")
        #expect(googleError(" \n ") == "not JSON: line 2 (byte offset 3): the text holds no JSON value")
        #expect(
            googleError("<?xml version=\"1.0\"?><gpx/>")
                == "not JSON: line 1 (byte offset 0): expected a value, found '<'")
        #expect(googleError("\u{FEFF}locations") == "not JSON: line 1 (byte offset 3): expected a value, found 'l'")
        #expect(googleError("{'locations': []}") == "line 1 (byte offset 1): expected a key, found '''")
    }

    @Test func refusesInvalidJSONEvenWhereItIsSkipped() {
        let cases: [(String, String)] = [
            ("{\"locations\": [{\"activity\": [1,]}]}", "line 1 (byte offset 31): expected a value, found ']'"),
            ("{\"locations\": [], \"x\": {\"a\" 1}}", "line 1 (byte offset 28): expected ':' after a key, found '1'"),
            ("{\"locations\": [], \"x\": [01]}", "line 1 (byte offset 25): a number with a leading zero"),
            ("{\"locations\": [], \"x\": \"\\x\"}", "line 1 (byte offset 25): an unknown escape \\'x' in a string"),
            ("{\"locations\": [], \"x\": \"\\ud800\"}", "line 1 (byte offset 30): a lone surrogate in a \\u escape"),
            (
                "{\"locations\": [], \"x\": \"a\nb\"}",
                "line 1 (byte offset 25): a control character (byte 0xa) in a string"
            ),
            ("{\"locations\": [], \"x\": tru}", "line 1 (byte offset 26): expected a value"),
            ("{\"locations\": [], \"x\": [}", "line 1 (byte offset 24): expected a value, found '}'"),
            ("{\"locations\": []}}", "line 1 (byte offset 17): text after the JSON value: '}'"),
            ("{\"locations\": [],}", "line 1 (byte offset 17): expected a key, found '}'"),
            ("{\"locations\": [] \"x\": 1}", "line 1 (byte offset 17): expected ',' or '}', found '\"'"),
            ("{\"locations\": [1 2]}", "line 1 (byte offset 17): expected ',' or ']', found '2'"),
            ("{\"locations\": [-]}", "line 1 (byte offset 16): expected a digit, found ']'"),
            ("{\"locations\": [1.e5]}", "line 1 (byte offset 17): a misplaced exponent in a number"),
            (
                "{\"x\": " + String(repeating: "[", count: 600),
                "line 1 (byte offset 517): nested deeper than 512 levels"
            ),
        ]
        for (text, message) in cases {
            #expect(googleError(text) == message, "\(text)")
        }
    }

    @Test func refusesOtherTopLevels() {
        #expect(
            googleError("[{\"locations\": []}]")
                == "not a Google location history: the top level is an array, not an object")
        #expect(
            googleError("\"locations\"") == "not a Google location history: the top level is a string, not an object")
        #expect(googleError("42") == "not a Google location history: the top level is not an object")
        #expect(
            googleError("{\"type\": \"FeatureCollection\", \"features\": []}")
                == "not a Google location history: the top-level object has none of the keys locations (Records.json), "
                + "timelineObjects (Semantic Location History) and semanticSegments (Timeline export)")
        #expect(
            googleError("{\"locations\": {}}") == "not a Google location history: locations is an object, not an array")
        #expect(
            googleError("{\"timelineObjects\": 3}")
                == "not a Google location history: timelineObjects is a number, not an array")
        #expect(googleError("{}") != nil)
        #expect(googleError("{\"userLocationProfile\": {}}") == nil)
    }
}

@Suite struct GoogleJSONStreamScannerTests {
    /// The tokens of `text`, with their texts, read in chunks of `size` bytes.
    static func tokens(_ text: String, chunkSize size: Int) throws(TrackReadError) -> [String] {
        let bytes = Array(text.utf8)
        var scanner = JSONStreamScanner()
        var result: [String] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            let outcome: Result<Void, TrackReadError> = bytes[start..<end].withUnsafeBytes { chunk in
                var index = 0
                do throws(TrackReadError) {
                    while let token = try scanner.next(chunk, &index) {
                        switch token {
                        case .key, .string, .number:
                            let text = scanner.withText(chunk) { String(decoding: $0, as: UTF8.self) }
                            result.append("\(token):\(text)@\(scanner.depth)")
                        default:
                            result.append("\(token)@\(scanner.depth)")
                        }
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try outcome.get()
            start = end
        }
        try scanner.finish()
        return result
    }

    @Test func tokenizesEveryKindOfValueInEveryChunking() throws {
        let text = """
            \u{FEFF} {"a\\u00e9\\"": [1, -0.5e+3, 0, 12E-2, true, false, null, "x\\\\y\\/\\b\\f\\n\\r\\t"],
              "emoji \\ud83d\\ude00": {}, "": [], "long": "\(String(repeating: "é", count: 3000))"}
            """
        let expected = [
            "objectStart@1", "key:aé\"@1", "arrayStart@2", "number:1@2", "number:-0.5e+3@2", "number:0@2",
            "number:12E-2@2", "trueValue@2", "falseValue@2", "null@2", "string:x\\y/\u{8}\u{c}\n\r\t@2", "arrayEnd@1",
            "key:emoji 😀@1", "objectStart@2", "objectEnd@1", "key:@1", "arrayStart@2", "arrayEnd@1", "key:long@1",
            "string:\(String(repeating: "é", count: 3000))@1", "objectEnd@0",
        ]
        for size in [1, 2, 3, 5, 7, 64, 4096, 100_000] {
            #expect(try Self.tokens(text, chunkSize: size) == expected, "chunks of \(size)")
        }
        #expect(try Self.tokens("-12.5e3", chunkSize: 2) == [])
        #expect(try Self.tokens(" \"top\" ", chunkSize: 2) == ["string:top@0"])
    }

    @Test func skipsValuesAndContainers() throws {
        let text = #"{"a": {"b": [1, {"c": "\u00e9"}]}, "d": [2, [3]], "e": "f", "g": 4}"#
        for size in [1, 3, 4096] {
            let bytes = Array(text.utf8)
            var scanner = JSONStreamScanner()
            var seen: [String] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                let outcome: Result<Void, TrackReadError> = bytes[start..<end].withUnsafeBytes { chunk in
                    var index = 0
                    do throws(TrackReadError) {
                        while let token = try scanner.next(chunk, &index) {
                            let text = scanner.withText(chunk) { String(decoding: $0, as: UTF8.self) }
                            seen.append(token == .key || token == .string || token == .number ? text : "\(token)")
                            if token == .key, text == "a" || text == "e" { scanner.skipValue() }
                            if token == .arrayStart, scanner.depth == 3 { scanner.skipValue() }
                        }
                        return .success(())
                    } catch {
                        return .failure(error)
                    }
                }
                try outcome.get()
                start = end
            }
            try scanner.finish()
            #expect(
                seen == [
                    "objectStart", "a", "d", "arrayStart", "2", "arrayStart", "arrayEnd", "e", "g", "4", "objectEnd",
                ])
        }
    }

    @Test func refusesTokensLongerThanTheCap() {
        let long = "{\"locations\": [{\"timestamp\": \"" + String(repeating: "1", count: (1 << 20) + 1) + "\"}]}"
        for size in [4096, 1 << 21] {
            #expect(throws: TrackReadError.self) { try parseTrack(GoogleLocationParser(), long, chunkSize: size) }
        }
        // A skipped string is not kept, whatever its length.
        let skipped = "{\"locations\": [{\"note\": \"" + String(repeating: "1", count: (1 << 20) + 1) + "\"}]}"
        #expect(throws: Never.self) { try parseTrack(GoogleLocationParser(), skipped, chunkSize: 4096) }
    }
}

/// The Google files of the tracks corpus, against its truth.
@Suite struct GoogleCorpusTests {
    static let directory = SharedData.path("corpus/tracks-dev")
    static let records = directory + "/tracks/google-records__kgeo-timeline__records.json"
    static let recordsTruth = directory + "/truth-derived/google-records__kgeo-timeline__records.json.truth.gpx"
    static let present = FileManager.default.fileExists(atPath: directory + "/manifest.tsv")

    /// The fixes of a corpus file, read in every chunking.
    static func fixes(_ name: String) throws -> [TrackFix] {
        let path = name.hasPrefix("/") ? name : directory + "/tracks/" + name
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.withUnsafeBytes { GoogleLocationParser.matches(prefix: $0) }, "\(name)")
        let sink = try parseTrackInEveryChunking(GoogleLocationParser(), bytes)
        #expect(sink.skipped.isEmpty, "\(sink.skipped)")
        return sink.fixes
    }

    /// The `<trkpt>`s of a GPX written by the corpus's tools (one a line).
    static func gpxFixes(_ path: String) throws -> [TrackFix] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">(?:<ele>([-0-9.]+)</ele>)?<time>([^<]+)</time>"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            func group(_ index: Int) -> String? {
                Range(match.range(at: index), in: text).map { String(text[$0]) }
            }
            return TrackFix(
                time: at(group(4) ?? ""), latitude: Double(group(1) ?? "") ?? .nan,
                longitude: Double(group(2) ?? "") ?? .nan, altitude: group(3).flatMap { Double($0) })
        }
    }

    @Test(.enabled(if: present, "the shared tracks corpus is not here"))
    func recordsMatchTheTruth() throws {
        let fixes = try Self.fixes(Self.records)
        let truth = try Self.gpxFixes(Self.recordsTruth)
        #expect(truth.count == 12)
        #expect(fixes.count == truth.count)
        for (fix, wanted) in zip(fixes, truth) {
            #expect(fix.time == wanted.time)
            #expect(abs(fix.latitude - wanted.latitude) <= 1e-7 && abs(fix.longitude - wanted.longitude) <= 1e-7)
            #expect(fix.altitude == wanted.altitude)
        }
    }

    @Test(
        .enabled(if: present, "the shared tracks corpus is not here"),
        arguments: [
            "google-semantic__kgeo-timeline__semantic-2021-august.json",
            "google-timeline__kgeo-device-timeline__test-data.json",
            "google-timeline__dawarich__timeline_new_format.json",
        ])
    func fixTimesMatchTheTracksTable(_ name: String) throws {
        let rows = try Self.table("tracks.tsv")
        let row = try #require(rows.first { $0["file"] == name })
        let fixes = try Self.fixes(name)
        let times = Set(fixes.map(\.time))
        #expect(times.count == Int(row["truth_fixes"] ?? ""))
        #expect(times.min() == TrackTime.iso8601(row["first_fix_utc"] ?? ""))
        #expect(times.max() == TrackTime.iso8601(row["last_fix_utc"] ?? ""))
        if name.hasPrefix("google-semantic") { #expect(fixes.count == 175) }
    }

    @Test(.enabled(if: present, "the shared tracks corpus is not here"))
    func photosAreLocatedFromTheFixesTheirNotesName() throws {
        let photos = try SharedData.manifest(in: Self.directory).filter {
            ($0["track"] ?? "").hasPrefix("google-") && $0["expected_status"] == "located"
        }
        #expect(photos.count == 9)
        for photo in photos {
            let name = photo["photo"] ?? ""
            let fixes = try Self.fixes(photo["track"] ?? "")
            let note = photo["exiftool_note"] ?? ""
            let times = Self.instants(in: note)
            // Of fixes with the same time, the one read last counts.
            let used = times.map { time in fixes.last { $0.time == time } }
            guard let first = used.first ?? nil else {
                Issue.record("\(name): no fix at the time \(note) names")
                continue
            }
            var latitude = first.latitude, longitude = first.longitude
            var altitude = first.altitude
            if times.count == 2 {
                guard let second = used[1], let factor = Self.factor(in: note) else {
                    Issue.record("\(name): \(note) names a fix not read")
                    continue
                }
                let utc = try #require(TrackTime.iso8601(photo["true_utc_time"] ?? ""))
                #expect(abs((utc - first.time) / (second.time - first.time) - factor) < 5e-6, "\(name)")
                latitude += factor * (second.latitude - first.latitude)
                longitude += factor * (second.longitude - first.longitude)
                if let a = first.altitude, let b = second.altitude { altitude = a + factor * (b - a) }
            }
            #expect(abs(latitude - (Double(photo["expected_lat"] ?? "") ?? .nan)) <= 1e-6, "\(name)")
            #expect(abs(longitude - (Double(photo["expected_lon"] ?? "") ?? .nan)) <= 1e-6, "\(name)")
            if let expected = Double(photo["expected_alt"] ?? "") {
                #expect(abs((altitude ?? .nan) - expected) <= 0.01, "\(name)")
            } else {
                #expect(altitude == nil, "\(name)")
            }
        }
    }

    /// The ISO 8601 instants of an `exiftool_note`, in order.
    static func instants(in note: String) -> [Double] {
        note.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "(" || $0 == ")" })
            .compactMap { word in word.count >= 20 ? TrackTime.iso8601(String(word)) : nil }
    }

    /// The `f=` of an `exiftool_note`.
    static func factor(in note: String) -> Double? {
        note.split(separator: " ").first { $0.hasPrefix("f=") }.flatMap { Double($0.dropFirst(2)) }
    }

    /// The rows of one of the corpus's tables.
    static func table(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        var lines = text.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines.removeFirst()
        return lines.map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
    }
}

/// Writes Records.json files of any size shaped like real ones (the corpus's kgeo-timeline file
/// and Takeout exports): pretty-printed or minified entries with `latitudeE7`, `longitudeE7`,
/// `accuracy`, sometimes `altitude` and `verticalAccuracy`, nested `activity` records with their
/// own timestamps, `source`, `deviceTag`, `platformType`, and an ISO `timestamp` (one entry in
/// ten has a `timestampMs` string instead).
private struct GoogleRecordsGenerator {
    var random = SeededGenerator(state: 2015)
    /// Milliseconds since 1970 of the next entry.
    var milliseconds: Int64 = 1_444_502_822_597
    var latitudeE7 = 437_789_954
    var longitudeE7 = -794_176_419
    let minify: Bool

    /// The fix the last entry written stands for.
    private(set) var lastFix = TrackFix(time: 0, latitude: 0, longitude: 0)

    init(minify: Bool) { self.minify = minify }

    /// `2015-10-10T18:47:02.597Z` for milliseconds since 1970.
    static func iso(_ milliseconds: Int64) -> String {
        let seconds = GregorianCalendar.floorDivide(milliseconds, 1000)
        let days = GregorianCalendar.floorDivide(seconds, 86_400)
        let (year, month, day) = GregorianCalendar.civilDate(fromDays: days)
        let second = Int(seconds - days * 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(milliseconds - seconds * 1000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(year)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))."
            + "\(fraction)Z"
    }

    /// The file's opening.
    var head: String { minify ? "{\"locations\":[" : "{\n  \"locations\": [" }

    /// The file's end.
    var tail: String { minify ? "]}" : "\n  ]\n}\n" }

    /// One more entry (with the comma before it unless `first`).
    mutating func entry(first: Bool) -> String {
        milliseconds += Int64.random(in: 1000...120_000, using: &random)
        latitudeE7 += Int.random(in: -2000...2000, using: &random)
        longitudeE7 += Int.random(in: -2000...2000, using: &random)
        let hasAltitude = Int.random(in: 0..<3, using: &random) == 0
        let altitude = Int.random(in: 50...300, using: &random)
        var fields: [(String, String)] = [
            ("latitudeE7", "\(latitudeE7)"), ("longitudeE7", "\(longitudeE7)"),
            ("accuracy", "\(Int.random(in: 3...1500, using: &random))"),
        ]
        if hasAltitude {
            fields.append(("altitude", "\(altitude)"))
            fields.append(("verticalAccuracy", "\(Int.random(in: 1...30, using: &random))"))
        }
        var text = ""
        let indent = minify ? "" : "\n    "
        let separator = minify ? ":" : ": "
        if Int.random(in: 0..<5, using: &random) < 2 {
            var records: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let types = ["STILL", "IN_VEHICLE", "UNKNOWN", "ON_FOOT", "WALKING", "TILTING", "ON_BICYCLE"]
                var activities: [String] = []
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let type = types[Int.random(in: 0..<types.count, using: &random)]
                    let confidence = Int.random(in: 1...100, using: &random)
                    activities.append(
                        minify
                            ? "{\"type\":\"\(type)\",\"confidence\":\(confidence)}"
                            : "{\n            \"type\": \"\(type)\",\n            \"confidence\": \(confidence)\n          }"
                    )
                }
                let stamp = Self.iso(milliseconds + Int64.random(in: -60_000...60_000, using: &random))
                records.append(
                    minify
                        ? "{\"activity\":[\(activities.joined(separator: ","))],\"timestamp\":\"\(stamp)\"}"
                        : "{\n        \"activity\": [\(activities.joined(separator: ", "))],\n"
                            + "        \"timestamp\": \"\(stamp)\"\n      }")
            }
            fields.append(("activity", "[" + records.joined(separator: minify ? "," : ", ") + "]"))
        }
        fields.append(("source", ["\"WIFI\"", "\"GPS\"", "\"CELL\""][Int.random(in: 0..<3, using: &random)]))
        fields.append(("deviceTag", "1433424142"))
        fields.append(("platformType", "\"ANDROID\""))
        let usesMilliseconds = Int.random(in: 0..<10, using: &random) == 0
        fields.append(
            usesMilliseconds ? ("timestampMs", "\"\(milliseconds)\"") : ("timestamp", "\"\(Self.iso(milliseconds))\""))
        text += first ? (minify ? "{" : "\n    {") : (minify ? ",{" : ",\n    {")
        text += fields.map { "\(indent)  \"\($0.0)\"\(separator)\($0.1)" }.joined(separator: ",")
        text += minify ? "}" : "\n    }"
        // The altitudes written are not read (see GoogleLocationParser).
        lastFix = TrackFix(
            time: Double(milliseconds) / 1000, latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7)
        return text
    }

    /// Writes a file of about `megabytes` MB at `path`; returns the number of entries.
    static func write(megabytes: Int, minify: Bool, to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? file.close() }
        var generator = GoogleRecordsGenerator(minify: minify)
        var buffer = generator.head
        var written = 0
        var entries = 0
        while written + buffer.utf8.count < megabytes * 1_000_000 {
            buffer += generator.entry(first: entries == 0)
            entries += 1
            if buffer.utf8.count > 1 << 22 {
                written += buffer.utf8.count
                try file.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        buffer += generator.tail
        try file.write(contentsOf: Data(buffer.utf8))
        return entries
    }
}

/// A sink that counts, for files too big to collect.
private struct GoogleCountingSink: TrackSink {
    var fixes = 0
    var skipped = 0
    var last: TrackFix?

    mutating func add(_ fix: TrackFix) {
        fixes += 1
        last = fix
    }

    mutating func skip(_ reason: String) { skipped += 1 }
}

@Suite struct GoogleRecordsScaleTests {
    @Test(arguments: [false, true])
    func readsGeneratedRecordsEntryForEntry(minify: Bool) throws {
        var generator = GoogleRecordsGenerator(minify: minify)
        var text = generator.head
        var expected: [TrackFix] = []
        for index in 0..<300 {
            text += generator.entry(first: index == 0)
            expected.append(generator.lastFix)
        }
        text += generator.tail
        let sink = try parseGoogle(text)
        expectFixes(sink.fixes, expected)
        #expect(sink.skipped.isEmpty)
        #expect(text.contains("\"altitude\"") && sink.fixes.allSatisfy { $0.altitude == nil })
    }

    /// The CPU time of the calling thread, in seconds: what one core spent, whatever else runs.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The throughput on a big generated Records.json: set `PHOTOTAG_GOOGLE_RECORDS_MB` (1500 for
    /// the 1.5 GB target) and run in release mode, `swift test -c release --filter
    /// GoogleRecordsScaleTests`. The file is written once to the temporary folder and kept.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["PHOTOTAG_GOOGLE_RECORDS_MB"] != nil,
            "set PHOTOTAG_GOOGLE_RECORDS_MB to measure"),
        arguments: [false, true])
    func measuresThroughput(minify: Bool) throws {
        let megabytes = Int(ProcessInfo.processInfo.environment["PHOTOTAG_GOOGLE_RECORDS_MB"] ?? "") ?? 100
        let path = NSTemporaryDirectory() + "/phototag-records-\(megabytes)MB\(minify ? "-minified" : "").json"
        var entries: Int?
        if !FileManager.default.fileExists(atPath: path) {
            entries = try GoogleRecordsGenerator.write(megabytes: megabytes, minify: minify, to: path)
        }
        let file = try #require(FileHandle(forReadingAtPath: path))
        defer { try? file.close() }
        var parser = GoogleLocationParser()
        var sink = GoogleCountingSink()
        var bytes = 0
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = Self.threadCPUSeconds()
        while let data = try file.read(upToCount: 1 << 20), !data.isEmpty {
            bytes += data.count
            let outcome: Result<Void, TrackReadError> = data.withUnsafeBytes { chunk in
                do throws(TrackReadError) {
                    try parser.feed(chunk, into: &sink)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try outcome.get()
        }
        try parser.finish(into: &sink)
        let seconds = (clock.now - start) / .seconds(1)
        let cpu = Self.threadCPUSeconds() - cpuStart
        print(
            "Records.json\(minify ? " (minified)" : ""): \(bytes) bytes, \(sink.fixes) fixes in \(seconds) s "
                + "(\(Double(bytes) / 1e6 / seconds) MB/s), \(cpu) s of CPU (\(Double(bytes) / 1e6 / cpu) MB/s)")
        if let entries { #expect(sink.fixes == entries) }
        #expect(sink.skipped == 0)
    }
}
