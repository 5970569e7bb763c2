import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// Rules kept alive in memory of their own (``TimeZoneRules`` reads bytes it does not own).
final class OwnedTimeZoneRules: @unchecked Sendable {
    let memory: UnsafeMutableRawBufferPointer
    let rules: TimeZoneRules

    init(_ bytes: [UInt8]) throws {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
        self.memory = memory
        do {
            rules = try TimeZoneRules(bytes: UnsafeRawBufferPointer(rebasing: memory[0..<bytes.count]))
        } catch {
            memory.deallocate()
            throw error
        }
    }

    deinit { memory.deallocate() }
}

/// The committed rules of a dozen zones (`Fixtures/tz/test.tzrules`, see `Fixtures/README.md`).
enum TimeZoneFixture {
    static let path = Fixtures.root + "/tz/test.tzrules"
    /// The zones it holds.
    static let zones = [
        "America/New_York", "America/Santiago", "Asia/Calcutta", "Asia/Kathmandu", "Asia/Kolkata",
        "Australia/Adelaide", "Australia/Lord_Howe", "Australia/Sydney", "Etc/UTC", "Europe/Berlin",
        "Europe/Dublin", "Europe/Moscow", "Pacific/Chatham",
    ]
    static let owned = try! OwnedTimeZoneRules(TestSupport.readWholeFile(path))
    static var rules: TimeZoneRules { owned.rules }
}

/// The compiled tzdata of `../shared/tzdata/zoneinfo` (or `$PHOTOTAG_SHARED/tzdata/zoneinfo`).
/// Users' clones do not have it; then the tests that need it skip.
enum SharedTimeZoneData {
    static let zoneinfo = SharedData.path("tzdata/zoneinfo")

    static var available: Bool { FileManager.default.fileExists(atPath: zoneinfo + "/tzdata.zi") }

    /// Every zone and link name of `tzdata.zi`.
    static func allZoneNames() throws -> [String] {
        let text = try String(contentsOfFile: zoneinfo + "/tzdata.zi", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            switch fields.first {
            case "Z" where fields.count > 1: return String(fields[1])
            case "L" where fields.count > 2: return String(fields[2])
            default: return nil
            }
        }.sorted()
    }
}

private func instant(_ text: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    return Int64(formatter.date(from: text)!.timeIntervalSince1970)
}

private func civil(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> CivilDateTime {
    CivilDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
}

/// Offsets and local-time resolution on the committed fixture, cases checked against Python's
/// zoneinfo over the same tzdata.
@Suite struct TimeZoneRulesTests {
    let rules = TimeZoneFixture.rules

    @Test func theFixtureHoldsItsZonesSortedAndLinksShareRules() throws {
        #expect(rules.zoneNames == TimeZoneFixture.zones)
        let calcutta = try #require(rules.zone(named: "Asia/Calcutta"))
        let kolkata = try #require(rules.zone(named: "Asia/Kolkata"))
        #expect(calcutta.name == "Asia/Calcutta")
        #expect(calcutta.ruleSet == kolkata.ruleSet)
        #expect(rules.zone(named: "Europe/Paris") == nil)
        #expect(rules.zone(named: "europe/berlin") == nil)
        #expect(rules.zone(named: "") == nil)
        #expect(rules.offset("Mars/Olympus_Mons", atUTC: 0) == nil)
    }

    @Test(arguments: [
        // 30 and 45 minute offsets.
        ("Asia/Kathmandu", "2020-01-01T00:00:00Z", 20700, false, "+0545"),
        ("Pacific/Chatham", "2021-01-15T00:00:00Z", 49500, true, "+1345"),
        ("Pacific/Chatham", "2021-07-15T00:00:00Z", 45900, false, "+1245"),
        ("Asia/Kolkata", "2021-07-01T00:00:00Z", 19800, false, "IST"),
        ("Asia/Calcutta", "2021-07-01T00:00:00Z", 19800, false, "IST"),
        ("Australia/Adelaide", "2021-01-01T00:00:00Z", 37800, true, "ACDT"),
        ("Australia/Adelaide", "2021-07-01T00:00:00Z", 34200, false, "ACST"),
        // Moscow's rules changed: permanent +4 from March 2011, back to +3 in October 2014.
        ("Europe/Moscow", "2010-01-15T00:00:00Z", 10800, false, "MSK"),
        ("Europe/Moscow", "2011-07-15T00:00:00Z", 14400, false, "MSK"),
        ("Europe/Moscow", "2012-01-15T00:00:00Z", 14400, false, "MSK"),
        ("Europe/Moscow", "2015-01-15T00:00:00Z", 10800, false, "MSK"),
        // Far future, from the POSIX TZ strings (both hemispheres, Santiago's 24:00 changes).
        ("Europe/Berlin", "2100-07-01T00:00:00Z", 7200, true, "CEST"),
        ("Europe/Berlin", "2100-01-01T00:00:00Z", 3600, false, "CET"),
        ("America/New_York", "2100-07-04T00:00:00Z", -14400, true, "EDT"),
        ("Australia/Sydney", "2100-01-01T00:00:00Z", 39600, true, "AEDT"),
        ("America/Santiago", "2100-01-01T00:00:00Z", -10800, true, "-03"),
        ("Europe/Dublin", "2100-01-01T00:00:00Z", 0, true, "GMT"),  // negative DST: winter is the DST
        ("Europe/Dublin", "2100-07-01T00:00:00Z", 3600, false, "IST"),
        // Far past: local mean time before the first transition.
        ("Europe/Berlin", "1800-01-01T00:00:00Z", 3208, false, "LMT"),
        ("America/New_York", "1800-01-01T00:00:00Z", -17762, false, "LMT"),
        ("Asia/Kathmandu", "1900-01-01T00:00:00Z", 20476, false, "LMT"),
        ("Etc/UTC", "1600-01-01T00:00:00Z", 0, false, "UTC"),
    ])
    func offsetAt(zone: String, at: String, offset: Int, isDST: Bool, abbreviation: String) throws {
        let type = try #require(rules.offset(zone, atUTC: instant(at)))
        #expect(type == LocalTimeType(utcOffset: offset, isDaylightSaving: isDST, abbreviation: abbreviation))
    }

    @Test func offsetsChangeExactlyAtTheTransition() throws {
        let berlin = try #require(rules.zone(named: "Europe/Berlin"))
        let change = instant("2021-03-28T01:00:00Z")
        #expect(rules.offset(berlin, atUTC: change - 1).utcOffset == 3600)
        #expect(rules.offset(berlin, atUTC: change).utcOffset == 7200)
        // The same in the POSIX TZ string's years.
        let later = instant("2099-03-29T01:00:00Z")
        #expect(rules.offset(berlin, atUTC: later - 1).utcOffset == 3600)
        #expect(rules.offset(berlin, atUTC: later).utcOffset == 7200)
    }

    @Test func theFarthestInstantsNeitherOverflowNorLoseTheRule() throws {
        let berlin = try #require(rules.zone(named: "Europe/Berlin"))
        #expect(rules.offset(berlin, atUTC: .min).abbreviation == "LMT")
        #expect(["CET", "CEST"].contains(rules.offset(berlin, atUTC: .max).abbreviation))
        #expect(["CET", "CEST"].contains(rules.offset(berlin, atUTC: .max - 3600).abbreviation))
    }

    @Test(arguments: [
        // Spring forward (gaps): the offset before the change, so the clock reads an hour later.
        ("Europe/Berlin", civil(2021, 3, 28, 2, 30), LocalTimeResolution.nonexistent(1_616_895_000, gap: 3600)),
        ("America/New_York", civil(2021, 3, 14, 2, 30), .nonexistent(1_615_707_000, gap: 3600)),
        ("Australia/Sydney", civil(2021, 10, 3, 2, 30), .nonexistent(1_633_192_200, gap: 3600)),
        ("America/Santiago", civil(2023, 9, 3, 0, 30), .nonexistent(1_693_715_400, gap: 3600)),
        // Fall back (overlaps): the first occurrence, summer time still in effect.
        ("Europe/Berlin", civil(2021, 10, 31, 2, 30), .ambiguous(earlier: 1_635_640_200, later: 1_635_643_800)),
        ("America/New_York", civil(2021, 11, 7, 1, 30), .ambiguous(earlier: 1_636_263_000, later: 1_636_266_600)),
        ("Australia/Sydney", civil(2021, 4, 4, 2, 30), .ambiguous(earlier: 1_617_463_800, later: 1_617_467_400)),
        ("America/Santiago", civil(2022, 4, 2, 23, 30), .ambiguous(earlier: 1_648_953_000, later: 1_648_956_600)),
        ("Australia/Lord_Howe", civil(2021, 4, 4, 1, 45), .ambiguous(earlier: 1_617_461_100, later: 1_617_462_900)),
        ("Europe/Dublin", civil(2021, 10, 31, 1, 30), .ambiguous(earlier: 1_635_640_200, later: 1_635_643_800)),
        // Ordinary times.
        ("Europe/Berlin", civil(2021, 10, 31, 3, 0), .unique(1_635_645_600)),
        ("Europe/Berlin", civil(2021, 3, 28, 3, 0), .unique(1_616_893_200)),
        ("Asia/Kathmandu", civil(2020, 1, 1, 5, 45), .unique(1_577_836_800)),
        ("Europe/Berlin", civil(2100, 7, 1, 2, 0), .unique(4_118_083_200)),
    ])
    func localTimeResolvesByTheRule(zone: String, local: CivilDateTime, expected: LocalTimeResolution) throws {
        #expect(rules.utc(fromLocal: local, zone: zone) == expected)
    }

    @Test func aGapsInstantShowsTheTimeShiftedForward() throws {
        let resolution = try #require(rules.utc(fromLocal: civil(2021, 3, 28, 2, 30), zone: "Europe/Berlin"))
        let shown =
            resolution.instant + Int64(try #require(rules.offset("Europe/Berlin", atUTC: resolution.instant)).utcOffset)
        #expect(CivilDateTime(secondsSinceEpoch: shown) == civil(2021, 3, 28, 3, 30))
    }

    @Test func civilTimesConvertBothWays() {
        #expect(civil(1970, 1, 1).secondsSinceEpoch == 0)
        #expect(civil(2000, 3, 1).secondsSinceEpoch == 951_868_800)
        #expect(civil(1600, 2, 29, 12).secondsSinceEpoch == -11_670_955_200)
        #expect(civil(1969, 12, 31, 23, 59, 59).secondsSinceEpoch == -1)
        var generator = SeededGenerator(state: 11)
        for _ in 0..<10_000 {
            let seconds = Int64.random(in: -70_000_000_000...70_000_000_000, using: &generator)
            let time = CivilDateTime(secondsSinceEpoch: seconds)
            #expect(time.isValid)
            #expect(time.secondsSinceEpoch == seconds)
        }
        #expect(CivilDateTime(secondsSinceEpoch: -62_167_219_200 - 1).description == "-0001-12-31T23:59:59")
        #expect(!civil(2021, 2, 29).isValid)
        #expect(civil(2020, 2, 29).isValid)
    }

    @Test(
        arguments: [
            (civil(0, 1, 2, 3, 4, 5), "0000-01-02T03:04:05"), (civil(812, 3, 4, 5, 6, 7), "0812-03-04T05:06:07"),
            (civil(9999, 12, 31, 23, 59, 59), "9999-12-31T23:59:59"), (civil(10000, 1, 1), "10000-01-01T00:00:00"),
            (civil(-1, 12, 31, 23, 59, 60), "-0001-12-31T23:59:60"), (civil(2020, 123, 1), "2020-123-01T00:00:00"),
            (civil(2020, 1, 1, 0, 0, -1), "2020-01-01T00:00:-1"),
        ])
    func civilTimesPrintEveryFieldZeroPadded(time: CivilDateTime, text: String) {
        #expect(time.description == text)
    }

    @Test(arguments: [
        ("CET-1CEST,M3.5.0,M10.5.0/3", true),
        ("<+0545>-5:45", true),
        ("<-03>3<-02>,M3.2.0,M11.1.0", true),
        ("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", true),
        ("EST5EDT,0/0,J365/25", true),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", true),
        ("IST-2IDT,M3.4.4/26,M10.5.0", true),
        ("XX3", false),  // a name needs three letters
        ("<+05", false),
        ("EST5EDT", false),  // daylight time without its rule
        ("EST5EDT,M3.2.0", false),
        ("EST5EDT,M13.2.0,M11.1.0", false),
        ("EST5EDT,M3.2.0/168,M11.1.0", false),
        ("EST25", false),
        ("EST5 ", false),
    ])
    func posixTZStringsParse(text: String, valid: Bool) {
        #expect((POSIXTimeZone(text) != nil) == valid)
    }

    @Test func posixRulesCoverTheWholeYearAndNegativeOrLateTimes() throws {
        // RFC 8536 §3.3.1: daylight time all year.
        let always = try #require(POSIXTimeZone("EST5EDT,0/0,J365/25"))
        for day in stride(from: 0, to: 366 * 3, by: 7) {
            let at = instant("2030-01-01T05:00:00Z") + Int64(day) * 86_400
            #expect(always.offset(at: at).utcOffset == -14_400)
        }
        // Israel's 26:00 (Thursday 26:00 is Friday 02:00) and a change at -1:00.
        let israel = try #require(POSIXTimeZone("IST-2IDT,M3.4.4/26,M10.5.0"))
        #expect(israel.offset(at: instant("2030-03-29T00:00:00Z") - 1).utcOffset == 7200)
        #expect(israel.offset(at: instant("2030-03-29T00:00:00Z")).utcOffset == 10800)
        let godthab = try #require(POSIXTimeZone("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        // Last Sunday of March 2030 is the 31st; -1:00 that day is 30 March 23:00 local (-02), 01:00Z.
        #expect(godthab.offset(at: instant("2030-03-31T01:00:00Z") - 1).utcOffset == -7200)
        #expect(godthab.offset(at: instant("2030-03-31T01:00:00Z")).utcOffset == -3600)
    }

    /// The rule of a POSIX TZ string as ``POSIXTimeZone/offset(at:)`` computed it before it had
    /// spans: the last of the changes of three years at or before the instant.
    static func referenceOffset(_ rule: POSIXTimeZone, at instant: Int64) -> Int {
        guard let daylight = rule.daylight else { return rule.standardOffset }
        let instant = min(max(instant, -1 << 50), 1 << 50)
        let year = CivilDateTime(secondsSinceEpoch: instant + Int64(rule.standardOffset)).year
        var latest = (at: Int64.min, offset: rule.standardOffset)
        for candidate in year - 1...year + 1 {
            let changes = [
                (daylight.start.localSeconds(in: candidate) - Int64(rule.standardOffset), daylight.offset),
                (daylight.end.localSeconds(in: candidate) - Int64(daylight.offset), rule.standardOffset),
            ]
            for (at, offset) in changes where at <= instant && at >= latest.at { latest = (at, offset) }
        }
        return latest.offset
    }

    @Test func everyInstantOfASpanHasItsOffsetAndItsEndsAreChanges() throws {
        var generator = SeededGenerator(state: 14)
        let from = instant("1700-01-01T00:00:00Z"), to = instant("2300-01-01T00:00:00Z")
        for name in TimeZoneFixture.zones {
            let zone = try #require(rules.zone(named: name))
            var instants = (0..<300).map { _ in Int64.random(in: from...to, using: &generator) }
            instants += rules.transitionInstants(zone).flatMap { [$0 - 1, $0, $0 + 1] }
            instants += [.min, .min + 1, -(1 << 50) - 1, -(1 << 50), 1 << 50, (1 << 50) + 1, .max - 1, .max]
            for instant in instants {
                let span = rules.span(zone, containing: instant)
                #expect(span.contains(instant) || instant == .max, "\(name) at \(instant): \(span)")
                // Every instant inside has the span's type, asked for on its own.
                var inside = [span.start, span.end &- 1]
                if span.end > span.start { inside.append(Int64.random(in: span.start..<span.end, using: &generator)) }
                for other in inside where span.contains(other) {
                    #expect(rules.offset(zone, atUTC: other) == span.type, "\(name): \(other) in \(span)")
                }
                // A span's ends are where the offset, the flag or the name changes, or where the
                // rule's year does (in its POSIX TZ string's years).
                if span.end > span.start, span.end != .max, span.end < 1 << 50 {
                    let after = rules.offset(zone, atUTC: span.end)
                    let newYear =
                        zone.footer.map { footer in
                            let local = span.end + Int64(footer.standardOffset)
                            return CivilDateTime(secondsSinceEpoch: local).year
                                != CivilDateTime(secondsSinceEpoch: local - 1).year
                        } ?? false
                    let transition = rules.transitionInstants(zone).contains(span.end)
                    #expect(after != span.type || newYear || transition, "\(name): \(span) ends at no change")
                }
                if let footer = zone.footer, instant >= rules.transitionInstants(zone).last ?? .min {
                    #expect(span.type.utcOffset == Self.referenceOffset(footer, at: instant), "\(name) at \(instant)")
                }
            }
        }
    }

    @Test func theMemoAnswersAsTheRulesWhateverTheOrderOfQuestions() throws {
        let memo = TimeZoneMemo()
        var generator = SeededGenerator(state: 2014)
        let from = instant("1850-01-01T00:00:00Z"), to = instant("2150-01-01T00:00:00Z")
        // Runs of one zone and season, changes of zone, and the hours around transitions.
        var questions: [(String, Int64)] = []
        for _ in 0..<400 {
            let name = TimeZoneFixture.zones.randomElement(using: &generator)!
            let zone = try #require(rules.zone(named: name))
            let near = rules.transitionInstants(zone).filter { $0 > from && $0 < to }
            var base = Int64.random(in: from...to, using: &generator)
            if Bool.random(using: &generator), let change = near.randomElement(using: &generator) { base = change }
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                questions.append((name, base + Int64.random(in: -200_000...200_000, using: &generator)))
            }
        }
        for (name, seconds) in questions {
            let zone = try #require(memo.zone(named: name, in: rules))
            #expect(zone == rules.zone(named: name))
            let local = CivilDateTime(secondsSinceEpoch: seconds)
            #expect(memo.utc(fromLocal: local, zone: zone, in: rules) == rules.utc(fromLocal: local, zone: zone))
            #expect(memo.offset(zone, atUTC: seconds, in: rules) == rules.offset(zone, atUTC: seconds))
        }
        #expect(memo.zone(named: "Europe/Paris", in: rules) == nil)
        #expect(memo.zone(named: "Europe/Paris", in: rules) == nil)
    }

    @Test func zonesOfOneRuleSetShareItsPOSIXRuleByReference() throws {
        let calcutta = try #require(rules.zone(named: "Asia/Calcutta"))
        let kolkata = try #require(rules.zone(named: "Asia/Kolkata"))
        let berlin = try #require(rules.zone(named: "Europe/Berlin"))
        #expect(calcutta.rule != nil && calcutta.rule === kolkata.rule)
        #expect(berlin.rule === rules.zone(named: "Europe/Berlin")?.rule)
        #expect(berlin.footer == POSIXTimeZone("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(calcutta != kolkata && calcutta == rules.zone(named: "Asia/Calcutta"))
    }

    @Test func theMemoForgetsTheAnswersOfOtherRules() throws {
        // The fixture with Europe/Berlin renamed Europe/Berlio (still in order): other rules,
        // which lack Europe/Berlin.
        var bytes = try TestSupport.readWholeFile(TimeZoneFixture.path)
        let name = Array("Europe/Berlin".utf8)
        let at = try #require(
            (0...bytes.count - name.count).first { bytes[$0..<$0 + name.count].elementsEqual(name) })
        bytes[at + name.count - 1] = UInt8(ascii: "o")
        let other = try OwnedTimeZoneRules(bytes)
        #expect(other.rules.zone(named: "Europe/Berlin") == nil)
        #expect(other.rules.zone(named: "Europe/Berlio") != nil)
        let memo = TimeZoneMemo()
        let berlin = try #require(memo.zone(named: "Europe/Berlin", in: rules))
        _ = memo.offset(berlin, atUTC: instant("2021-07-01T00:00:00Z"), in: rules)
        #expect(memo.zone(named: "Europe/Berlin", in: other.rules) == nil)
        #expect(memo.zone(named: "Europe/Berlin", in: rules) == berlin)
    }

    @Test func damagedBytesAreAnErrorNotACrash() throws {
        let good = try TestSupport.readWholeFile(TimeZoneFixture.path)
        func open(_ bytes: [UInt8]) -> TimeZoneRulesError? {
            do {
                _ = try OwnedTimeZoneRules(bytes)
                return nil
            } catch {
                return error as? TimeZoneRulesError
            }
        }
        #expect(open(good) == nil)
        #expect(open([]) == .notTimeZoneRules("0 bytes is too short"))
        #expect(
            open(Array(good.dropLast())) == .notTimeZoneRules("\(good.count - 1) bytes, the header says \(good.count)"))
        var version = good
        version[8] = 9
        #expect(open(version) == .notTimeZoneRules("version 9, expected 1"))
        // Every single-byte change either opens or fails cleanly; none crashes.
        var generator = SeededGenerator(state: 3)
        for _ in 0..<2000 {
            var damaged = good
            damaged[Int.random(in: 0..<good.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            if let owned = try? OwnedTimeZoneRules(damaged) {
                for name in owned.rules.zoneNames {
                    if let zone = owned.rules.zone(named: name) {
                        _ = owned.rules.offset(zone, atUTC: 1_600_000_000)
                        _ = owned.rules.utc(fromLocal: civil(2021, 3, 28, 2, 30), zone: zone)
                    }
                }
            }
        }
    }
}

/// Building from the shared compiled tzdata: reproducible, links, errors, size, and the fixture.
@Suite(.enabled(if: SharedTimeZoneData.available, "the shared tzdata (../shared/tzdata/zoneinfo) is not present"))
struct TimeZoneRulesBuilderTests {
    let builder = TimeZoneRulesBuilder(zoneinfo: SharedTimeZoneData.zoneinfo)

    @Test func theCommittedFixtureIsWhatTheBuilderMakes() throws {
        let built = try builder.build(zones: TimeZoneFixture.zones)
        if ProcessInfo.processInfo.environment["PHOTOTAG_UPDATE_GOLDEN"] != nil {
            try Data(built).write(to: URL(fileURLWithPath: TimeZoneFixture.path))
        }
        #expect(built == (try TestSupport.readWholeFile(TimeZoneFixture.path)))
    }

    @Test func everyZoneBuildsReproduciblyAndSmall() throws {
        let names = try SharedTimeZoneData.allZoneNames()
        #expect(names.count > 500)
        let bytes = try builder.build(zones: names)
        #expect(try builder.build(zones: names.reversed() + ["Europe/Berlin"]) == bytes)
        // The 598 zones and links of tzdata 2026f take 189,506 bytes (the 444 zones of the
        // time-zone polygons 182,991).
        #expect(bytes.count < 250_000)
        print("time-zone rules of \(names.count) zones: \(bytes.count) bytes")
        let owned = try OwnedTimeZoneRules(bytes)
        #expect(owned.rules.zoneNames == names)
    }

    @Test func aNameWithoutItsOwnFileIsFollowedThroughTzdataZiLinks() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/Asia", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: SharedTimeZoneData.zoneinfo + "/Asia/Kolkata", toPath: directory + "/Asia/Kolkata")
        try "# a comment\nL Asia/Kolkata Asia/Calcutta\nL Asia/Calcutta Asia/Old_Calcutta\n".write(
            toFile: directory + "/tzdata.zi", atomically: true, encoding: .utf8)
        let linked = TimeZoneRulesBuilder(zoneinfo: directory)
        let bytes = try linked.build(zones: ["Asia/Old_Calcutta", "Asia/Kolkata"])
        let owned = try OwnedTimeZoneRules(bytes)
        #expect(owned.rules.zoneNames == ["Asia/Kolkata", "Asia/Old_Calcutta"])
        #expect(owned.rules.offset("Asia/Old_Calcutta", atUTC: 1_600_000_000)?.utcOffset == 19_800)
        #expect(throws: TimeZoneRulesError.unknownZone("Asia/Bombay")) { try linked.build(zones: ["Asia/Bombay"]) }
    }

    @Test func unknownOrUnsafeNamesAndNonTZifFilesAreErrors() throws {
        #expect(throws: TimeZoneRulesError.unknownZone("Europe/Atlantis")) {
            try builder.build(zones: ["Europe/Berlin", "Europe/Atlantis"])
        }
        for name in ["../tzdata/zoneinfo/UTC", "/etc/passwd", "Europe//Berlin", "", "Europe/Berlin "] {
            #expect(throws: TimeZoneRulesError.unknownZone(name)) { try builder.build(zones: [name]) }
        }
        #expect(
            throws: TimeZoneRulesError.notTZif(
                path: SharedTimeZoneData.zoneinfo + "/zone.tab", reason: "no TZif header")
        ) {
            try builder.build(zones: ["zone.tab"])
        }
    }
}

/// `python3`, when the machine has one with `zoneinfo` (3.9 or later).
enum Python {
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return directories.map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `script` with `arguments`; its standard output.
    static func run(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Every zone and link of the shared tzdata against Python's `zoneinfo` reading the same files
/// (TZPATH set to the shared folder, so neither side sees the machine's own tz files).
@Suite(
    .enabled(if: SharedTimeZoneData.available, "the shared tzdata (../shared/tzdata/zoneinfo) is not present"),
    .enabled(if: Python.path != nil, "python3 is not installed"))
struct TimeZoneRulesPythonTests {
    /// Reads queries, one a line: `U zone instant` (the offset, abbreviation and DST flag at a UTC
    /// instant) or `L zone wall-seconds` (the instants of a wall-clock time with fold 0 and 1, and
    /// whether each shows that wall-clock time again).
    static let script = """
        import sys, zoneinfo, datetime as dt
        zoneinfo.reset_tzpath([sys.argv[1]])
        epoch = dt.datetime(1970, 1, 1)
        out = []
        for line in open(sys.argv[2]):
            kind, name, value = line.split()
            zone = zoneinfo.ZoneInfo(name)
            value = int(value)
            if kind == "U":
                t = dt.datetime.fromtimestamp(value, zone)
                out.append("%d %s %d" % (t.utcoffset().total_seconds(), t.tzname(), t.dst() != dt.timedelta(0)))
            else:
                wall = epoch + dt.timedelta(seconds=value)
                answers = []
                for fold in (0, 1):
                    t = wall.replace(tzinfo=zone, fold=fold)
                    back = dt.datetime.fromtimestamp(t.timestamp(), zone).replace(tzinfo=None)
                    answers.append("%d %d" % (t.timestamp(), back == wall))
                out.append(" ".join(answers))
        print("\\n".join(out))
        """

    @Test func offsetsAndLocalTimesAgreeWithPythonForEveryZone() throws {
        let names = try SharedTimeZoneData.allZoneNames()
        let owned = try OwnedTimeZoneRules(
            TimeZoneRulesBuilder(zoneinfo: SharedTimeZoneData.zoneinfo).build(zones: names))
        let rules = owned.rules
        var generator = SeededGenerator(state: 2026)
        var queries: [(kind: Character, zone: TimeZoneRules.Zone, value: Int64)] = []
        let from1900 = instant("1900-01-01T00:00:00Z"), to2040 = instant("2040-01-01T00:00:00Z")
        let from1700 = instant("1700-01-01T00:00:00Z"), to2200 = instant("2200-01-01T00:00:00Z")
        var ruleSetsSeen: Set<Int> = []
        for name in names {
            let zone = try #require(rules.zone(named: name))
            // A name sharing the rules of one already checked (a link) gets a few instants only.
            let isNew = ruleSetsSeen.insert(zone.ruleSet).inserted
            for index in 0..<(isNew ? 1000 : 20) {
                let range = index % 4 == 0 ? from1700...to2200 : from1900...to2040
                queries.append(("U", zone, Int64.random(in: range, using: &generator)))
            }
            guard isNew else { continue }
            for index in 0..<150 {
                let range = index % 4 == 0 ? from1700...to2200 : from1900...to2040
                queries.append(("L", zone, Int64.random(in: range, using: &generator)))
            }
            // Around every change since 1900: the tables' and those of the POSIX TZ string in a
            // few years.
            var changes = rules.transitionInstants(zone).filter { $0 >= from1900 }
            if let daylight = zone.footer?.daylight, let standard = zone.footer?.standardOffset {
                for year in [2037, 2038, 2050, 2099, 2100] {
                    changes.append(daylight.start.localSeconds(in: year) - Int64(standard))
                    changes.append(daylight.end.localSeconds(in: year) - Int64(daylight.offset))
                }
            }
            for change in changes {
                let before = Int64(rules.offset(zone, atUTC: change - 1).utcOffset)
                let after = Int64(rules.offset(zone, atUTC: change).utcOffset)
                queries += [("U", zone, change - 1), ("U", zone, change)]
                for wall in [
                    change + before - 1, change + before, change + (before + after) / 2, change + after - 1,
                    change + after, change + max(before, after) + 1,
                ] {
                    queries.append(("L", zone, wall))
                }
            }
        }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/queries.txt"
        try queries.map { "\($0.kind) \($0.zone.name) \($0.value)\n" }.joined().write(
            toFile: file, atomically: false, encoding: .utf8)
        let answers = try Python.run(Self.script, [SharedTimeZoneData.zoneinfo, file]).split(separator: "\n")
        try #require(answers.count == queries.count)
        var mismatches: [String] = []
        var pythonInconsistent = 0
        for (query, answer) in zip(queries, answers) {
            let fields = answer.split(separator: " ").map(String.init)
            if query.kind == "U" {
                let type = rules.offset(query.zone, atUTC: query.value)
                let expected = "\(type.utcOffset) \(type.abbreviation) \(type.isDaylightSaving ? 1 : 0)"
                if answer != expected {
                    mismatches.append("\(query.zone.name) at \(query.value): \(expected), python \(answer)")
                }
            } else {
                let (first, second) = (Int64(fields[0])!, Int64(fields[2])!)
                let (firstShows, secondShows) = (fields[1] == "1", fields[3] == "1")
                let got = rules.utc(fromLocal: CivilDateTime(secondsSinceEpoch: query.value), zone: query.zone)
                if first < second, !(firstShows && secondShows) {
                    // Python contradicts itself (a "gap" of negative size, where its fold-0 answer
                    // does not show the time again): it happens at a change of DST flag without a
                    // change of offset (Nuuk, October 2023). The time exists once; check that
                    // ours shows it.
                    pythonInconsistent += 1
                    let shown = got.instant + Int64(rules.offset(query.zone, atUTC: got.instant).utcOffset)
                    if case .unique = got, shown == query.value { continue }
                    mismatches.append("\(query.zone.name) wall \(query.value): \(got) does not show it")
                    continue
                }
                let expected: LocalTimeResolution =
                    first == second
                    ? .unique(first)
                    : firstShows && secondShows
                        ? .ambiguous(earlier: first, later: second) : .nonexistent(first, gap: Int(first - second))
                if got != expected {
                    mismatches.append("\(query.zone.name) wall \(query.value): \(got), python \(expected)")
                }
            }
        }
        print(
            "compared \(queries.count) answers with Python's zoneinfo (\(pythonInconsistent) where Python contradicts itself)"
        )
        #expect(pythonInconsistent < 10)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(20).joined(separator: "\n"))")
    }
}
