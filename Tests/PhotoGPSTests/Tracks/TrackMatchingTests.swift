import Testing

@testable import PhotoGPS

/// ExifTool's geotag rules on generated tracks with exact expected positions.
@Suite struct TrackMatchingTests {
    static let t0 = 1_700_000_000.0

    static func track(_ fixes: [TrackFix], file: String = "a.gpx") -> Track {
        var track = Track()
        track.add(file: file, fixes: fixes)
        return track
    }

    static func fix(_ seconds: Double, _ latitude: Double, _ longitude: Double, _ altitude: Double? = nil) -> TrackFix {
        TrackFix(time: t0 + seconds, latitude: latitude, longitude: longitude, altitude: altitude)
    }

    static func position(_ track: Track, _ seconds: Double, limits: TrackLimits = TrackLimits()) -> TrackPosition? {
        try? track.position(at: t0 + seconds, limits: limits).get()
    }

    @Test func onAFixIsThatFix() throws {
        let track = Self.track([Self.fix(0, 10, 20, 100), Self.fix(60, 11, 21, 200)])
        let p = try #require(Self.position(track, 60))
        #expect(p.latitude == 11 && p.longitude == 21 && p.altitude == 200)
        #expect(!p.interpolated && p.nearestFixSeconds == 0 && p.file == 0)
    }

    @Test func betweenTwoFixesIsInterpolatedLinearly() throws {
        let track = Self.track([Self.fix(0, 10, 20, 100), Self.fix(100, 11, 22, 300)])
        let p = try #require(Self.position(track, 25))
        #expect(abs(p.latitude - 10.25) < 1e-9 && abs(p.longitude - 20.5) < 1e-9)
        #expect(abs(try #require(p.altitude) - 150) < 1e-9)
        #expect(p.interpolated && p.gapSeconds == 100 && p.nearestFixSeconds == 25)
        // 245.3 km between the two fixes (1° north, 2° east at 10.5° N).
        #expect(abs(try #require(p.gapMeters) - 245_300) < 500)
    }

    @Test func altitudeOnlyWhenBothFixesHaveOne() throws {
        let track = Self.track([Self.fix(0, 10, 20, 100), Self.fix(100, 11, 22)])
        #expect(try #require(Self.position(track, 50)).altitude == nil)
        #expect(try #require(Self.position(track, 0)).altitude == 100)
    }

    @Test func theLimitsAreInclusive() throws {
        let track = Self.track([Self.fix(0, 10, 20), Self.fix(1800, 11, 21)])
        // 1800 s apart: interpolated.
        #expect(try #require(Self.position(track, 900)).interpolated)
        // 1801 s apart: the nearest fix, if within 1800 s.
        let wide = Self.track([Self.fix(0, 10, 20), Self.fix(1801, 11, 21)])
        let p = try #require(Self.position(wide, 100))
        #expect(!p.interpolated && p.latitude == 10 && p.gapSeconds == 1801 && p.nearestFixSeconds == 100)
        // Before and after the track: exactly 1800 s is taken, 1801 s is not.
        #expect(Self.position(track, -1800)?.latitude == 10)
        #expect(Self.position(track, 3600)?.latitude == 11)
        #expect(throws: TrackMiss.beforeTrack(seconds: 1801)) { try track.position(at: Self.t0 - 1801).get() }
        #expect(throws: TrackMiss.afterTrack(seconds: 1801)) { try track.position(at: Self.t0 + 3601).get() }
    }

    @Test func inAWideGapTheNearerFixAndATieGoesToTheLaterOne() throws {
        let track = Self.track([Self.fix(0, 10, 20), Self.fix(4000, 11, 21)])
        #expect(Self.position(track, 1000)?.latitude == 10)
        #expect(Self.position(track, 3000)?.latitude == 11)
        #expect(Self.position(track, 2000) == nil)
        #expect(throws: TrackMiss.inGap(gapSeconds: 4000, nearestSeconds: 2000)) {
            try track.position(at: Self.t0 + 2000).get()
        }
        let tie = Self.track([Self.fix(0, 10, 20), Self.fix(3000, 11, 21)])
        #expect(Self.position(tie, 1500)?.latitude == 11)
    }

    @Test func acrossTheAntimeridianTheShortWay() throws {
        let track = Self.track([Self.fix(0, -17, 179.5), Self.fix(100, -17, -179.5)])
        let p = try #require(Self.position(track, 25))
        #expect(abs(p.longitude - 179.75) < 1e-9)
        let q = try #require(Self.position(track, 75))
        #expect(abs(q.longitude - -179.75) < 1e-9)
        let back = Self.track([Self.fix(0, -17, -179.5), Self.fix(100, -17, 179.5)])
        #expect(abs(try #require(Self.position(back, 25)).longitude - -179.75) < 1e-9)
    }

    @Test func unorderedAndDuplicateTimesKeepTheFixReadLast() throws {
        // Newest first, with two fixes at t = 60 (the second read wins).
        let track = Self.track([
            Self.fix(120, 12, 22), Self.fix(60, 11, 21), Self.fix(60, 11.5, 21.5), Self.fix(0, 10, 20),
        ])
        #expect(track.count == 3)
        #expect(track.fixes.map(\.latitude) == [10, 11.5, 12])
        #expect(Self.position(track, 60)?.latitude == 11.5)
        // In order, a repeated time replaces the fix before it.
        let ordered = Self.track([Self.fix(0, 10, 20), Self.fix(0, 10.5, 20.5), Self.fix(60, 11, 21)])
        #expect(ordered.fixes.map(\.latitude) == [10.5, 11])
    }

    @Test func severalFilesActAsOneSortedTrack() throws {
        var track = Track()
        track.add(file: "morning.gpx", fixes: [Self.fix(0, 10, 20), Self.fix(600, 11, 21)])
        track.add(file: "noon.gpx", fixes: [Self.fix(300, 20, 30), Self.fix(900, 21, 31)])
        // Between 300 (noon) and 600 (morning): those two fixes, the nearer one's file.
        let p = try #require(Self.position(track, 400))
        #expect(abs(p.latitude - (20 + (11 - 20.0) / 3)) < 1e-9)
        #expect(track.files[p.file] == "noon.gpx")
        let q = try #require(Self.position(track, 550))
        #expect(track.files[q.file] == "morning.gpx")
        // The same time in two files: the later file's fix.
        track.add(file: "late.gpx", fixes: [Self.fix(600, 30, 40)])
        #expect(Self.position(track, 600)?.latitude == 30)
        #expect(track.timeRange == Self.t0...Self.t0 + 900)
    }

    @Test func millisecondsAndBlocksOverLongSpans() throws {
        // Fixes 0.994 s apart stay two fixes; a track over a year crosses many blocks.
        var fixes = [Self.fix(0, 10, 20), Self.fix(0.994, 10.001, 20)]
        for day in 1...400 { fixes.append(Self.fix(Double(day) * 86_400, 10 + Double(day) / 1000, 20)) }
        for i in 0..<10_000 { fixes.append(Self.fix(401 * 86_400 + Double(i), 50, Double(i) / 1000)) }
        let track = Self.track(fixes)
        #expect(track.count == fixes.count)
        let kept = track.fixes
        func differs(_ a: TrackFix, _ b: TrackFix) -> Bool {
            abs(a.time - b.time) > 1e-4 || abs(a.latitude - b.latitude) > 1e-7 || abs(a.longitude - b.longitude) > 1e-7
        }
        let first = kept.indices.first { $0 < fixes.count && differs(kept[$0], fixes[$0]) }
        #expect(kept.count == fixes.count && first == nil, "first difference at \(String(describing: first))")
        #expect(Self.position(track, 0.994)?.latitude == 10.001)
        let p = try #require(Self.position(track, 401 * 86_400 + 5000.5))
        #expect(abs(p.longitude - 5.0005) < 1e-7)
        #expect(Self.position(track, 200 * 86_400 + 3600) == nil)
    }

    @Test func theTwoFixesOfAKMLTimeSpanAreInterpolatedHoweverFarApart() throws {
        // A stay of two hours at one place (a KML Placemark with a TimeSpan), then a walk. An
        // instant in the middle of the stay is at the place; after the stay, the usual rules.
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><TimeSpan><begin>2024-01-10T10:00:00Z</begin><end>2024-01-10T12:00:00Z</end></TimeSpan>
            <Point><coordinates>2.35,48.85</coordinates></Point></Placemark>
            <Placemark><TimeStamp><when>2024-01-10T16:00:00Z</when></TimeStamp>
            <Point><coordinates>2.40,48.90</coordinates></Point></Placemark>
            </Document></kml>
            """
        var track = Track()
        let report = try TrackReader.read(bytes: Array(kml.utf8), name: "stay.kml", into: &track)
        #expect(report.format == .kml && report.fixes == 3)
        let noon = 1_704_880_800.0  // 2024-01-10T10:00:00Z
        let middle = try track.position(at: noon + 3600).get()
        #expect(middle.latitude == 48.85 && middle.longitude == 2.35 && middle.interpolated)
        #expect(middle.gapSeconds == 7200)
        // Between the end of the stay and the next fix (4 h): neither is within 1800 s.
        #expect(throws: TrackMiss.inGap(gapSeconds: 14_400, nearestSeconds: 7200)) {
            try track.position(at: noon + 4 * 3600).get()
        }
        // The same two fixes from a GPX (no span) are not interpolated across two hours.
        var plain = Track()
        plain.add(
            file: "two.gpx",
            fixes: [
                TrackFix(time: noon, latitude: 48.85, longitude: 2.35),
                TrackFix(time: noon + 7200, latitude: 48.85, longitude: 2.35),
            ])
        #expect(throws: TrackMiss.inGap(gapSeconds: 7200, nearestSeconds: 3600)) {
            try plain.position(at: noon + 3600).get()
        }
    }

    @Test func aFixOutsideTheYears1To9999IsLeftOut() {
        // A time in milliseconds where seconds were meant (found by the TrackFuzzer in a CSV: it
        // overflowed the track's 64-bit milliseconds).
        var builder = TrackRunBuilder()
        builder.add(TrackFix(time: 1_704_880_800_000_000, latitude: 10, longitude: 20))
        builder.add(TrackFix(time: -1e300, latitude: 10, longitude: 20))
        builder.add(TrackFix(time: 1_704_880_800, latitude: 10, longitude: 20))
        #expect(builder.count == 1 && builder.skippedCount == 2)
        #expect(TrackFix(time: 253_402_300_799, latitude: 0, longitude: 0).isValid)
        #expect(!TrackFix(time: 253_402_300_800, latitude: 0, longitude: 0).isValid)
    }

    @Test func anEmptyTrackPlacesNothing() {
        #expect(throws: TrackMiss.empty) { try Track().position(at: 0).get() }
        #expect(Self.track([TrackFix(time: 0, latitude: 91, longitude: 0)]).isEmpty)
    }

    @Test func missesSayWhyInWords() {
        #expect(TrackMiss.beforeTrack(seconds: 5400).description == "1.5 h before the track starts")
        #expect(TrackMiss.afterTrack(seconds: 90).description == "90 s after the track ends")
        #expect(
            TrackMiss.inGap(gapSeconds: 7200, nearestSeconds: 3000).description
                == "in a gap of 2 h in the track, 50 min from the nearest fix")
    }
}
