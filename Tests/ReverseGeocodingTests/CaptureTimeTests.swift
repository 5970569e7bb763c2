import TestSupport
import Testing

@testable import ReverseGeocoding

/// The capture-time rule on the committed time-zone fixture (`Fixtures/tz/test.tzrules`).
@Suite struct CaptureTimeTests {
    let rules = TimeZoneFixture.rules

    func resolve(
        _ dateTimeOriginal: String?, subSeconds: String? = nil, offset: String? = nil, gps: String? = nil,
        zone: String? = "Europe/Berlin"
    ) -> CaptureTime? {
        CaptureTime.resolve(
            dateTimeOriginal: dateTimeOriginal, subSeconds: subSeconds, offsetTimeOriginal: offset,
            gpsTimestamp: gps, zone: zone, rules: rules)
    }

    @Test func theEXIFOffsetComesFirst() throws {
        let time = try #require(resolve("2019-07-01T14:34:56", offset: "+02:00", gps: "2019-07-01T12:34:56.24Z"))
        #expect(time.utc == "2019-07-01T12:34:56Z")
        #expect(time.utcSeconds == 1_561_984_496)
        #expect(time.local == "2019-07-01T14:34:56+02:00")
        #expect(time.offsetSource == .exif)
        #expect(time.warnings == [])
    }

    @Test func localIsTheWallClockOfThePlaceNotOfTheCamera() throws {
        // A camera still on New York time, with its offset recorded, in Berlin.
        let time = try #require(resolve("2019-07-01T08:34:56", offset: "-04:00"))
        #expect(time.utc == "2019-07-01T12:34:56Z")
        #expect(time.local == "2019-07-01T14:34:56+02:00")
        #expect(time.offsetSource == .exif)
    }

    @Test func theGPSTimeGivesTheOffsetRoundedToAQuarterHour() throws {
        // Camera on New York time without an offset; the GPS fix two seconds later.
        let time = try #require(resolve("2019-07-01T08:34:56", gps: "2019-07-01T12:34:58Z"))
        #expect(time.utc == "2019-07-01T12:34:56Z")
        #expect(time.local == "2019-07-01T14:34:56+02:00")
        #expect(time.offsetSource == .gps)
        #expect(time.warnings == [])
        // Kathmandu's +05:45, 30 seconds off.
        let nepal = try #require(resolve("2020-01-01T05:45:30", gps: "2020-01-01T00:00:00Z", zone: "Asia/Kathmandu"))
        #expect(nepal.utc == "2020-01-01T00:00:30Z")
        #expect(nepal.local == "2020-01-01T05:45:30+05:45")
        #expect(nepal.offsetSource == .gps)
    }

    @Test(arguments: [
        // (DateTimeOriginal, GPS time, used?)
        ("2019-07-02T02:45:00", "2019-07-01T12:45:00Z", true),  // +14:00 exactly (Kiribati)
        ("2019-07-01T00:45:00", "2019-07-01T12:45:00Z", true),  // -12:00
        ("2019-07-02T02:45:01", "2019-07-01T12:45:00Z", false),  // beyond +14 h
        ("2019-06-30T22:44:59", "2019-07-01T12:45:00Z", false),  // beyond -14 h
        ("2019-07-01T14:47:00", "2019-07-01T12:45:00Z", true),  // 2 minutes off +02:00
        ("2019-07-01T14:47:01", "2019-07-01T12:45:00Z", false),  // more than 2 minutes off
        ("2019-07-01T14:37:30", "2019-07-01T12:45:00Z", false),  // half way between quarters
    ])
    func theGPSOffsetIsUsedOnlyWithin14HoursAnd2MinutesOfAQuarter(dto: String, gps: String, used: Bool) throws {
        let time = try #require(resolve(dto, gps: gps, zone: nil))
        #expect((time.offsetSource == .gps) == used)
        #expect((time.utc != nil) == used)
        #expect(time.warnings.count == (used ? 0 : 1))
    }

    @Test func aStaleGPSTimeFallsBackToTheTimeZoneWithAWarning() throws {
        // The receiver kept the time of a fix from the day before.
        let time = try #require(resolve("2019-07-01T14:34:56", gps: "2019-06-30T09:13:02Z"))
        #expect(time.utc == "2019-07-01T12:34:56Z")
        #expect(time.local == "2019-07-01T14:34:56+02:00")
        #expect(time.offsetSource == .timeZone)
        #expect(time.warnings == [.gpsTimeNotAnOffset(seconds: 105_714)])
        #expect(
            time.warnings.map(\.description) == [
                "the GPS time is 1 d 5 h 21 min 54 s behind DateTimeOriginal, not a time-zone offset; not used"
            ])
    }

    @Test func theTimeZoneGivesTheOffsetWithItsHistory() throws {
        let newYork = try #require(resolve("2019-07-01T08:34:56", zone: "America/New_York"))
        #expect(newYork.utc == "2019-07-01T12:34:56Z")
        #expect(newYork.local == "2019-07-01T08:34:56-04:00")
        #expect(newYork.offsetSource == .timeZone)
        #expect(resolve("2010-01-15T12:00:00", zone: "Europe/Moscow")?.utc == "2010-01-15T09:00:00Z")
        #expect(resolve("2012-01-15T12:00:00", zone: "Europe/Moscow")?.utc == "2012-01-15T08:00:00Z")
        #expect(resolve("2015-01-15T12:00:00", zone: "Europe/Moscow")?.utc == "2015-01-15T09:00:00Z")
        #expect(resolve("2021-01-15T12:00:00", zone: "Pacific/Chatham")?.local == "2021-01-15T12:00:00+13:45")
        #expect(resolve("2021:07:15 12:00:00", zone: "Asia/Calcutta")?.local == "2021-07-15T12:00:00+05:30")
    }

    @Test func aSkippedTimeIsReadWithTheOffsetBeforeTheChange() throws {
        let time = try #require(resolve("2021-03-28T02:30:00"))
        #expect(time.utc == "2021-03-28T01:30:00Z")
        #expect(time.local == "2021-03-28T03:30:00+02:00")
        #expect(time.offsetSource == .timeZone)
        #expect(
            time.warnings.map(\.description) == [
                "2021-03-28T02:30:00 did not exist in Europe/Berlin (the clocks skipped 1 h); read with the offset before "
                    + "the change, +01:00"
            ])
        let sydney = try #require(resolve("2021-10-03T02:30:00", zone: "Australia/Sydney"))
        #expect(sydney.utc == "2021-10-02T16:30:00Z")
        #expect(sydney.local == "2021-10-03T03:30:00+11:00")
    }

    @Test func aTimeShownTwiceIsTheFirstOccurrence() throws {
        let time = try #require(resolve("2021-10-31T02:30:00"))
        #expect(time.utc == "2021-10-31T00:30:00Z")
        #expect(time.local == "2021-10-31T02:30:00+02:00")
        #expect(
            time.warnings.map(\.description) == [
                "2021-10-31T02:30:00 happened twice in Europe/Berlin (at +02:00, then at +01:00); the first is used"
            ])
        let santiago = try #require(resolve("2022-04-02T23:30:00", zone: "America/Santiago"))
        #expect(santiago.utc == "2022-04-03T02:30:00Z")
        #expect(santiago.local == "2022-04-02T23:30:00-03:00")
        #expect(santiago.warnings.count == 1)
    }

    @Test func fractionsOfASecondAreKept() throws {
        let time = try #require(resolve("2019-07-01T14:34:56", subSeconds: "24", offset: "+02:00"))
        #expect(time.utc == "2019-07-01T12:34:56.24Z")
        #expect(time.local == "2019-07-01T14:34:56.24+02:00")
        #expect(time.nanoseconds == 240_000_000)
        #expect(
            resolve("2019-07-01T14:34:56", subSeconds: "240000 ", offset: "+02:00")?.utc == "2019-07-01T12:34:56.24Z")
        #expect(resolve("2019-07-01T14:34:56", subSeconds: "007", offset: "+02:00")?.utc == "2019-07-01T12:34:56.007Z")
        #expect(resolve("2019-07-01T14:34:56", subSeconds: "000", offset: "+02:00")?.utc == "2019-07-01T12:34:56Z")
        let bad = try #require(resolve("2019-07-01T14:34:56", subSeconds: "1/2", offset: "+02:00"))
        #expect(bad.utc == "2019-07-01T12:34:56Z")
        #expect(bad.warnings == [.badSubSeconds("1/2")])
        // The GPS offset compares fractions too: .9 s against .1 s is 0.8 s apart.
        let gps = try #require(resolve("2019-07-01T08:34:56", subSeconds: "9", gps: "2019-07-01T12:34:56.1Z"))
        #expect(gps.utc == "2019-07-01T12:34:56.9Z")
        #expect(gps.offsetSource == .gps)
    }

    @Test func withoutDateTimeOriginalTheGPSTimeIsTheInstant() throws {
        let time = try #require(resolve(nil, gps: "2019-07-01T12:34:56.24Z"))
        #expect(time.utc == "2019-07-01T12:34:56.24Z")
        #expect(time.local == "2019-07-01T14:34:56.24+02:00")
        #expect(time.offsetSource == .gps)
        let noZone = try #require(resolve(nil, gps: "2019-07-01T12:34:56.24Z", zone: nil))
        #expect(noZone.utc == "2019-07-01T12:34:56.24Z")
        #expect(noZone.local == nil)
        // Local mean time shows its seconds.
        #expect(resolve(nil, gps: "1880-01-01T00:00:00Z")?.local == "1880-01-01T00:53:28+00:53:28")
        #expect(resolve(nil, gps: "2019-07-01T12:34:56Z", zone: "Etc/UTC")?.local == "2019-07-01T12:34:56+00:00")
    }

    @Test func withoutAZoneLocalIsDateTimeOriginalWithItsEXIFOffsetOrNothing() throws {
        let exif = try #require(resolve("2019-07-01T14:34:56", subSeconds: "5", offset: "+02:00", zone: nil))
        #expect(exif.local == "2019-07-01T14:34:56.5+02:00")
        let gps = try #require(resolve("2019-07-01T14:34:56", gps: "2019-07-01T12:34:56Z", zone: nil))
        #expect(gps.utc == "2019-07-01T12:34:56Z")
        #expect(gps.local == nil)
        let nothing = try #require(resolve("2019-07-01T14:34:56", zone: nil))
        #expect(nothing.utc == nil)
        #expect(nothing.local == nil)
        #expect(nothing.offsetSource == nil)
        #expect(nothing.warnings == [])
        let unknown = try #require(resolve("2019-07-01T14:34:56", offset: "+02:00", zone: "Europe/Paris"))
        #expect(unknown.local == "2019-07-01T14:34:56+02:00")
        #expect(unknown.warnings == [.unknownZone("Europe/Paris")])
    }

    @Test func theGPSTimeAsAnInstantGivesWhatItsTextGives() throws {
        let cases: [(String, String, String?, String?)] = [
            ("2019-07-01T14:34:56", "2019-07-01T12:34:56.24Z", nil, "Europe/Berlin"),
            ("2019-07-01T14:34:56", "2019-07-01T12:34:56.000000001Z", "5", "Asia/Kathmandu"),
            ("2019-07-01T14:34:56", "2019-06-01T12:34:56Z", nil, "America/New_York"),
            ("2019-07-01T14:34:56", "2019-07-01T12:34:56.5Z", nil, nil),
        ]
        for (wall, gps, subSeconds, zone) in cases {
            let parsed = try #require(CaptureTime.parseGPSTime(gps))
            let byText = resolve(wall, subSeconds: subSeconds, gps: gps, zone: zone)
            let byInstant = CaptureTime.resolve(
                dateTimeOriginal: wall, subSeconds: subSeconds, gpsTime: parsed, zone: zone, rules: rules)
            #expect(byText == byInstant)
            #expect(byText?.utc != nil)
        }
    }

    @Test func isoTextIsTheTimeItsFractionAndItsOffsetJoined() {
        var generator = SeededGenerator(state: 1407)
        var times = [
            CivilDateTime(year: 0, month: 1, day: 1), CivilDateTime(year: 9999, month: 12, day: 31, hour: 23),
            CivilDateTime(year: -1, month: 1, day: 1), CivilDateTime(year: 10000, month: 1, day: 1),
        ]
        for _ in 0..<200 {
            times.append(
                CivilDateTime(secondsSinceEpoch: Int64.random(in: -70_000_000_000...300_000_000_000, using: &generator))
            )
        }
        let fractions = [0, 1, 10, 240_000_000, 495_109_000, 999_999_999, 5]
        let offsets: [Int?] = [nil, 0, 7200, -12_600, 3208, -17_762, 20_700, 99 * 3600 + 59, 100 * 3600, -50_400]
        for time in times {
            for nanoseconds in fractions {
                for offset in offsets {
                    let joined =
                        time.description + CaptureTime.fractionText(nanoseconds)
                        + (offset.map(CaptureTime.offsetText) ?? "Z")
                    #expect(CaptureTime.isoText(time, nanoseconds: nanoseconds, offset: offset) == joined)
                }
            }
        }
    }

    @Test func thePartsOfTheTextsParseFromTheirBytes() {
        #expect(CaptureTime.parseFraction(" 24 \u{0}") == 240_000_000)
        #expect(CaptureTime.parseFraction("1234567891") == 123_456_789)
        #expect(CaptureTime.parseFraction("") == nil)
        #expect(CaptureTime.parseFraction("2a") == nil)
        #expect(CaptureTime.parseOffset("-03:30") == -12_600)
        #expect(CaptureTime.parseOffset("+14:59") == 53_940)
        #expect(CaptureTime.parseOffset("+15:00") == nil)
        #expect(CaptureTime.parseOffset("+0a:00") == nil)
        #expect(CaptureTime.parseOffset("+02:00 ") == nil)
        #expect(CaptureTime.parseGPSTime("2019-07-01T12:34:56Z")! == (1_561_984_496, 0))
        #expect(CaptureTime.parseGPSTime("2019-07-01T12:34:56.05Z")! == (1_561_984_496, 50_000_000))
        #expect(CaptureTime.parseGPSTime("2019-07-01T12:34:56.Z") == nil)
        #expect(CaptureTime.parseGPSTime("2019-07-01T12:34:56,5Z") == nil)
        #expect(
            CaptureTime.parseDateTime("2019:07:01 14:34:56")
                == CivilDateTime(year: 2019, month: 7, day: 1, hour: 14, minute: 34, second: 56))
        #expect(CaptureTime.parseDateTime("2019:07-01 14:34:56") == nil)
    }

    @Test(
        arguments: [
            (0, "0 s"), (59, "59 s"), (60, "1 min"), (3600, "1 h"), (86_400, "1 d"), (90_061, "1 d 1 h 1 min 1 s"),
            (11_232, "3 h 7 min 12 s"), (1_000_000_000, "11574 d 1 h 46 min 40 s"), (3_600_000, "41 d 16 h"),
        ] as [(Int64, String)])
    func durationsNameTheirNonZeroUnits(seconds: Int64, text: String) {
        #expect(CaptureTimeWarning.duration(seconds) == text)
    }

    @Test func withNeitherTimeThereIsNone() {
        #expect(resolve(nil) == nil)
        #expect(resolve("0000:00:00 00:00:00", gps: "garbage") == nil)
        #expect(resolve("2019-02-29T12:00:00") == nil)
        let badOffset = resolve("2019-07-01T14:34:56", offset: "+25:00")
        #expect(badOffset?.offsetSource == .timeZone)
        #expect(badOffset?.warnings == [.badOffsetTimeOriginal("+25:00")])
    }

    /// Xinjiang, where the boundary data keeps Asia/Urumqi (UTC+6) and Asia/Shanghai (UTC+8) on
    /// purpose, with the bundled rules: the photo's own offset picks the zone whose clocks agree.
    @Test(
        arguments: [
            // OffsetTimeOriginal +08:00: Beijing time, as most phones in Ürümqi keep it.
            (
                "+08:00", nil, "Asia/Shanghai", "2024-07-01T06:00:00Z", "2024-07-01T14:00:00+08:00",
                CaptureTime.OffsetSource.exif
            ),
            // +06:00: Xinjiang time, the first zone, kept.
            ("+06:00", nil, "Asia/Urumqi", "2024-07-01T08:00:00Z", "2024-07-01T14:00:00+06:00", .exif),
            // No offset tag, a GPS time 8 hours behind the clock: Beijing time again.
            (nil, "2024-07-01T06:00:03Z", "Asia/Shanghai", "2024-07-01T06:00:00Z", "2024-07-01T14:00:00+08:00", .gps),
            // An offset that neither zone has: the first zone stays, its clocks give local.
            ("+03:00", nil, "Asia/Urumqi", "2024-07-01T11:00:00Z", "2024-07-01T17:00:00+06:00", .exif),
            // No offset of the photo's own: the zone's offset, the first zone.
            (nil, nil, "Asia/Urumqi", "2024-07-01T08:00:00Z", "2024-07-01T14:00:00+06:00", .timeZone),
        ] as [(String?, String?, String, String, String, CaptureTime.OffsetSource)])
    func theOffsetOfThePhotoPicksTheZoneOfAnOverlap(
        offset: String?, gps: String?, zone: String, utc: String, local: String, source: CaptureTime.OffsetSource
    ) throws {
        let rules = try #require(BoundaryTable.bundled.rules)
        let time = try #require(
            CaptureTime.resolve(
                dateTimeOriginal: "2024-07-01T14:00:00", offsetTimeOriginal: offset, gpsTimestamp: gps,
                zone: "Asia/Urumqi", otherZone: "Asia/Shanghai", rules: rules))
        #expect(time.timeZone == zone)
        #expect(time.utc == utc)
        #expect(time.local == local)
        #expect(time.offsetSource == source)
    }

    @Test func withoutAnOtherZoneTheZoneIsThePlacesWhateverTheOffset() throws {
        let time = try #require(resolve("2019-07-01T14:34:56", offset: "+09:00"))
        #expect(time.timeZone == "Europe/Berlin")
        #expect(time.local == "2019-07-01T07:34:56+02:00")
        #expect(resolve("2019-07-01T14:34:56", zone: nil)?.timeZone == nil)
    }
}
