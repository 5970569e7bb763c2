import PhotoTagSupport

/// What one thread last looked up in time-zone rules, so that the next photo from the same place
/// and season costs a comparison instead of a search: the zone of the last name asked for, and
/// spans of instants over which a zone's clocks keep one offset, in a few hundred slots by rule
/// set and year (a library's photos come from far fewer zones and years, in runs).
///
/// Every answer is the rules' own (``TimeZoneRules/zone(named:)``,
/// ``TimeZoneRules/span(_:containing:)``, ``TimeZoneRules/utc(fromLocal:zone:)-(_,Zone)``);
/// the memo only remembers them, under the ``TimeZoneRules/identity`` of the rules that gave
/// them. It belongs to one thread (``current``), so it needs no lock.
final class TimeZoneMemo {
    /// The identity of the rules the memo holds answers of; 0 is none (identities start at 1).
    private var rules = 0
    /// The last name asked for and its zone (`nil`: the rules lack it).
    private var lastZone: (name: String, zone: TimeZoneRules.Zone?)? = nil
    /// Spans of rule sets, each in the slot of the rule set and the instant it was asked for.
    private var spans: [(ruleSet: Int, span: LocalTimeSpan)]

    /// How many spans the memo holds (a power of two).
    static let slotCount = 256

    /// The slot of the span of `ruleSet` that holds `instant`: by the rule set and the stretch of
    /// 2^25 seconds (about a year) the instant is in, so that the spans of one zone in many years
    /// each have a slot.
    private static func slot(_ ruleSet: Int, _ instant: Int64) -> Int {
        let year = Int(truncatingIfNeeded: instant >> 25)  // 2^25 s: about 1.06 years
        return (ruleSet &* 31 &+ year) & (slotCount - 1)
    }

    init() {
        let empty = LocalTimeSpan(
            type: LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: ""), start: 0, end: 0)
        spans = Array(repeating: (-1, empty), count: Self.slotCount)
    }

    /// Forgets the answers of other rules than `rules`.
    private func use(_ rules: TimeZoneRules) {
        guard rules.identity != self.rules else { return }
        self.rules = rules.identity
        lastZone = nil
        for slot in spans.indices { spans[slot].ruleSet = -1 }
    }

    /// ``TimeZoneRules/zone(named:)``, remembered for the next call with the same name.
    func zone(named name: String, in rules: TimeZoneRules) -> TimeZoneRules.Zone? {
        use(rules)
        if let lastZone, lastZone.name == name { return lastZone.zone }
        let zone = rules.zone(named: name)
        lastZone = (name, zone)
        return zone
    }

    /// ``TimeZoneRules/span(_:containing:)``, from the rule set's last span when it holds the instant.
    func span(_ zone: TimeZoneRules.Zone, containing instant: Int64, in rules: TimeZoneRules) -> LocalTimeSpan {
        use(rules)
        let slot = Self.slot(zone.ruleSet, instant)
        if spans[slot].ruleSet == zone.ruleSet, spans[slot].span.contains(instant) { return spans[slot].span }
        let span = rules.span(zone, containing: instant)
        spans[slot] = (zone.ruleSet, span)
        return span
    }

    /// ``TimeZoneRules/offset(_:atUTC:)-(Zone,_)``, through ``span(_:containing:in:)``.
    func offset(_ zone: TimeZoneRules.Zone, atUTC instant: Int64, in rules: TimeZoneRules) -> LocalTimeType {
        span(zone, containing: instant, in: rules).type
    }

    /// ``TimeZoneRules/utc(fromLocal:zone:)-(_,Zone)``; without asking the rules when the rule
    /// set's last span holds the whole window of instants the rules would try (see
    /// ``TimeZoneRules/uniqueInstant(ofWall:in:zone:)``).
    func utc(fromLocal local: CivilDateTime, zone: TimeZoneRules.Zone, in rules: TimeZoneRules) -> LocalTimeResolution {
        use(rules)
        let wall = local.secondsSinceEpoch
        let slot = Self.slot(zone.ruleSet, wall)
        if spans[slot].ruleSet == zone.ruleSet,
            let instant = TimeZoneRules.uniqueInstant(ofWall: wall, in: spans[slot].span, zone: zone)
        {
            return .unique(instant)
        }
        return rules.utc(fromLocal: local, zone: zone)
    }

    /// The calling thread's memo, made on its first use and released when the thread ends
    /// (a new one, not kept, in the rare thread that cannot keep one).
    static var current: TimeZoneMemo { perThread.current ?? TimeZoneMemo() }

    /// Each thread's memo.
    private static let perThread = PerThread { TimeZoneMemo() }
}
