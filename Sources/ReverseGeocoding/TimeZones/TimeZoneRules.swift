import PhotoTagSupport

/// Time-zone rules read in place from the format of `TimeZoneRulesLayout` (TimeZoneRulesLayout.swift): the UTC offset of a
/// zone at any instant, and the instant of a wall-clock time in a zone.
///
/// Opening checks the whole structure (sizes, sorted names, every index and string offset, the
/// order of the transitions, every POSIX TZ string), so lookups need no further checks and
/// damaged bytes are an error, never a crash or a wrong answer from garbage.
///
/// **Borrowed memory.** The rules borrow the bytes they were opened on (a pointer, not a copy),
/// so they are opened only by their owner: a library user gets them from
/// ``BoundaryTable/rules``. Those of ``BoundaryTable/bundled`` are static data of the binary,
/// valid for the whole process; those of a table opened from a file or an array are valid only
/// while that ``BoundaryTable`` lives (a copy of the rules does not keep it alive). The bytes are
/// never written, so any number of threads use the rules at once.
public struct TimeZoneRules: @unchecked Sendable {  // read-only views of immutable memory
    // Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.sharedTimeZoneRulesAskedByManyThreadsGiveOneThreadsAnswers.
    /// A zone of the rules, found by ``zone(named:)``.
    public struct Zone: Hashable, Sendable {
        /// The zone's name as asked for (`Asia/Calcutta`, even when it shares `Asia/Kolkata`'s rules).
        public let name: String
        let ruleSet: Int
        /// The rule set's POSIX TZ string, shared with the rules rather than held by value: a zone
        /// is copied for every photo, and a rule holds two strings and two dates.
        let rule: SharedPOSIXTimeZone?

        /// The rule set's POSIX TZ string, `nil` when it has none.
        var footer: POSIXTimeZone? { rule?.value }
    }

    private let bytes: UnsafeRawBufferPointer
    private let sections: TimeZoneRulesLayout.Sections
    private let nameCount: Int
    /// The parsed POSIX TZ string of each rule set, `nil` when it has none.
    private let footers: [SharedPOSIXTimeZone?]
    /// A number no other rules opened in this process have: what ``TimeZoneMemo`` keeps its
    /// answers under (the same bytes may be opened again at the address of others).
    let identity: Int

    /// The last ``identity`` given out.
    private static let identities = Locked(0)

    /// Opens the rules in `bytes`, which must stay valid and unchanged while the rules are used
    /// (`package`: the rules keep the pointer, so only the owner of the bytes opens them).
    ///
    /// - Throws: ``TimeZoneRulesError/notTimeZoneRules(_:)`` when anything does not add up.
    package init(bytes: UnsafeRawBufferPointer) throws(TimeZoneRulesError) {
        func fail(_ reason: String) -> TimeZoneRulesError { .notTimeZoneRules(reason) }
        guard bytes.count >= TimeZoneRulesLayout.headerSize else { throw fail("\(bytes.count) bytes is too short") }
        guard bytes.prefix(8).elementsEqual(TimeZoneRulesLayout.magic) else { throw fail("unknown format") }
        func u32(_ offset: Int) -> Int {
            Int(ByteOrder.littleEndian.load(UInt32.self, bytes, at: offset))
        }
        let version = u32(8)
        guard version == TimeZoneRulesLayout.version else {
            throw fail("version \(version), expected \(TimeZoneRulesLayout.version)")
        }
        let (names, ruleSets, transitions, types) = (u32(12), u32(16), u32(20), u32(24))
        let sections = TimeZoneRulesLayout.Sections(
            names: names, ruleSets: ruleSets, transitions: transitions, types: types, stringsSize: u32(28))
        guard sections.totalSize == bytes.count else {
            throw fail("\(bytes.count) bytes, the header says \(sections.totalSize)")
        }
        // Every string offset, index and range, and the order of names and transitions.
        let stringsSize = bytes.count - sections.strings
        func isString(_ offset: Int) -> Bool {
            offset < stringsSize && offset + 1 + Int(bytes[sections.strings + offset]) <= stringsSize
        }
        func string(at offset: Int) -> UnsafeRawBufferPointer { Self.string(in: bytes, sections, at: offset) }
        var previousName: UnsafeRawBufferPointer?
        for index in 0..<names {
            let entry = sections.names + TimeZoneRulesLayout.nameStride * index
            guard isString(u32(entry)), u32(entry + 4) < ruleSets else { throw fail("zone name \(index)") }
            let name = string(at: u32(entry))
            guard previousName.map({ $0.lexicographicallyPrecedes(name) }) ?? true else {
                throw fail("zone names out of order at \(index)")
            }
            previousName = name
        }
        for index in 0..<types {
            let entry = sections.types + TimeZoneRulesLayout.typeStride * index
            let abbreviation = Int(ByteOrder.littleEndian.load(UInt16.self, bytes, at: entry + 4))
            guard isString(abbreviation), bytes[entry + 6] <= 1 else { throw fail("local time type \(index)") }
        }
        var footers: [SharedPOSIXTimeZone?] = []
        for index in 0..<ruleSets {
            let entry = sections.ruleSets + TimeZoneRulesLayout.ruleSetStride * index
            let (first, count, firstType, typeCount, footer) =
                (u32(entry), u32(entry + 4), u32(entry + 8), u32(entry + 12), u32(entry + 16))
            guard first + count <= transitions, typeCount >= 1, firstType + typeCount <= types, isString(footer)
            else { throw fail("rule set \(index)") }
            var previous = Int64.min
            for transition in first..<first + count {
                let at = ByteOrder.littleEndian.load(Int64.self, bytes, at: sections.transitionTimes + 8 * transition)
                guard transition == first || at > previous,
                    Int(bytes[sections.transitionTypes + transition]) < typeCount
                else { throw fail("transition \(transition)") }
                previous = at
            }
            let text = String(decoding: string(at: footer), as: UTF8.self)
            if text.isEmpty {
                footers.append(nil)
            } else {
                guard let rule = POSIXTimeZone(text) else { throw fail("TZ string '\(text)'") }
                footers.append(SharedPOSIXTimeZone(rule))
            }
        }
        self.bytes = bytes
        self.sections = sections
        nameCount = names
        self.footers = footers
        identity = Self.identities.withLock { last in
            last += 1
            return last
        }
    }

    /// The UTF-8 bytes of the pool string at `offset` (already checked).
    private func string(at offset: Int) -> UnsafeRawBufferPointer { Self.string(in: bytes, sections, at: offset) }

    /// The UTF-8 bytes of the string at `offset` of the pool of `bytes`: a byte count, then the
    /// bytes (the tz rules' own pool of short strings, where offset 0 is the empty string).
    private static func string(
        in bytes: UnsafeRawBufferPointer, _ sections: TimeZoneRulesLayout.Sections, at offset: Int
    ) -> UnsafeRawBufferPointer {
        let start = sections.strings + offset
        return UnsafeRawBufferPointer(rebasing: bytes[start + 1..<start + 1 + Int(bytes[start])])
    }

    private func u32(_ offset: Int) -> Int {
        Int(ByteOrder.littleEndian.load(UInt32.self, bytes, at: offset))
    }

    /// Every zone name, sorted.
    public var zoneNames: [String] {
        (0..<nameCount).map {
            String(decoding: string(at: u32(sections.names + TimeZoneRulesLayout.nameStride * $0)), as: UTF8.self)
        }
    }

    /// The zone called `name` (exact spelling), by binary search; `nil` when the rules lack it.
    public func zone(named name: String) -> Zone? {
        var text = name
        let ruleSet = text.withUTF8 { query -> Int? in
            let query = UnsafeRawBufferPointer(query)
            var low = 0, high = nameCount
            while low < high {
                let middle = (low + high) / 2
                let entry = sections.names + TimeZoneRulesLayout.nameStride * middle
                let order = Self.compare(string(at: u32(entry)), query)
                if order == 0 { return u32(entry + 4) }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
        return ruleSet.map { Zone(name: name, ruleSet: $0, rule: footers[$0]) }
    }

    /// The order of two byte strings (negative, zero or positive), as
    /// `lexicographicallyPrecedes` has it: byte by byte, a prefix first.
    private static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let order = compareBytes(left, right, count: common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// The local time type of `zone` at `instant` (seconds since 1970-01-01T00:00:00Z); `nil` when
    /// the rules lack the zone.
    public func offset(_ zone: String, atUTC instant: Int64) -> LocalTimeType? {
        self.zone(named: zone).map { offset($0, atUTC: instant) }
    }

    /// The local time type of `zone` at `instant` (seconds since 1970-01-01T00:00:00Z): from the
    /// transitions, type 0 before the first one, and the POSIX TZ string from the last one on.
    public func offset(_ zone: Zone, atUTC instant: Int64) -> LocalTimeType {
        span(zone, containing: instant).type
    }

    /// The local time type of `zone` at `instant`, as ``offset(_:atUTC:)-(Zone,_)``, and the
    /// instants around it that have the same: from the transition at or before it to the next
    /// one, or what ``POSIXTimeZone/span(containing:)`` says after the last.
    func span(_ zone: Zone, containing instant: Int64) -> LocalTimeSpan {
        let entry = sections.ruleSets + TimeZoneRulesLayout.ruleSetStride * zone.ruleSet
        let first = u32(entry), count = u32(entry + 4), firstType = u32(entry + 8)
        func time(_ index: Int) -> Int64 {
            ByteOrder.littleEndian.load(Int64.self, bytes, at: sections.transitionTimes + 8 * index)
        }
        if let rule = zone.rule, count == 0 || instant >= time(first + count - 1) {
            var span = rule.value.span(containing: instant)
            if count > 0 { span.start = max(span.start, time(first + count - 1)) }
            return span
        }
        var typeIndex = 0
        var start = Int64.min, end = Int64.max
        if count > 0, instant >= time(first) {
            // The last transition at or before the instant.
            var low = first, high = first + count
            while high - low > 1 {
                let middle = (low + high) / 2
                if time(middle) <= instant { low = middle } else { high = middle }
            }
            typeIndex = Int(bytes[sections.transitionTypes + low])
            start = time(low)
            // After the last one its type holds on (with a POSIX TZ string, that took over above).
            if low + 1 < first + count { end = time(low + 1) }
        } else if count > 0 {
            end = time(first)
        }
        let type = sections.types + TimeZoneRulesLayout.typeStride * (firstType + typeIndex)
        let abbreviation = Int(ByteOrder.littleEndian.load(UInt16.self, bytes, at: type + 4))
        return LocalTimeSpan(
            type: LocalTimeType(
                utcOffset: Int(ByteOrder.littleEndian.load(Int32.self, bytes, at: type)),
                isDaylightSaving: bytes[type + 6] == 1,
                abbreviation: String(decoding: string(at: abbreviation), as: UTF8.self)),
            start: start, end: end)
    }

    /// The instants of the zone's transitions (not those its POSIX TZ string implies after them).
    func transitionInstants(_ zone: Zone) -> [Int64] {
        let entry = sections.ruleSets + TimeZoneRulesLayout.ruleSetStride * zone.ruleSet
        return (u32(entry)..<u32(entry) + u32(entry + 4)).map {
            ByteOrder.littleEndian.load(Int64.self, bytes, at: sections.transitionTimes + 8 * $0)
        }
    }

    /// The instant (or instants) at which the clocks of `zone` read `local`; `nil` when the rules
    /// lack the zone.
    public func utc(fromLocal local: CivilDateTime, zone: String) -> LocalTimeResolution? {
        self.zone(named: zone).map { utc(fromLocal: local, zone: $0) }
    }

    /// The instant (or instants) at which the clocks of `zone` read `local`.
    ///
    /// Every offset the zone uses within 26 hours of the wall-clock time (more than any UTC
    /// offset) is tried: an offset `o` fits when the zone's offset at `local - o` is `o`. One fit is
    /// ``LocalTimeResolution/unique(_:)``; two are ``LocalTimeResolution/ambiguous(earlier:later:)``
    /// (the clocks were set back and showed this time twice); none is
    /// ``LocalTimeResolution/nonexistent(_:gap:)`` (the clocks skipped it), resolved with the offset
    /// in effect before the change.
    public func utc(fromLocal local: CivilDateTime, zone: Zone) -> LocalTimeResolution {
        let wall = local.secondsSinceEpoch
        let window = Self.localTimeWindow
        var offsets: Set<Int> = [offset(zone, atUTC: wall - window).utcOffset]
        let entry = sections.ruleSets + TimeZoneRulesLayout.ruleSetStride * zone.ruleSet
        let first = u32(entry), count = u32(entry + 4)
        for index in first..<first + count {
            let at = ByteOrder.littleEndian.load(Int64.self, bytes, at: sections.transitionTimes + 8 * index)
            if at > wall + window { break }
            if at > wall - window { offsets.insert(offset(zone, atUTC: at).utcOffset) }
        }
        if let footer = zone.footer {
            offsets.insert(footer.standardOffset)
            if let daylight = footer.daylight { offsets.insert(daylight.offset) }
        }
        let fits = offsets.filter { offset(zone, atUTC: wall - Int64($0)).utcOffset == $0 }.sorted()
        if let largest = fits.last, let smallest = fits.first {
            return largest == smallest
                ? .unique(wall - Int64(largest))
                : .ambiguous(earlier: wall - Int64(largest), later: wall - Int64(smallest))
        }
        // In a gap: the offset before the change is the one in effect a whole largest offset earlier.
        let before = offset(zone, atUTC: wall - Int64(offsets.max() ?? 0)).utcOffset
        let instant = wall - Int64(before)
        return .nonexistent(instant, gap: offset(zone, atUTC: instant).utcOffset - before)
    }

    /// How far either side of a wall-clock time ``utc(fromLocal:zone:)-(_,Zone)`` looks for the
    /// offsets that could show it: more than any UTC offset.
    static let localTimeWindow: Int64 = 26 * 3600

    /// The answer of ``utc(fromLocal:zone:)-(_,Zone)`` for the wall-clock time `wall` (seconds
    /// since 1970-01-01T00:00:00 on the zone's clocks), `.unique(wall - offset)`, when a span of
    /// the zone settles it: one that holds every instant within ``localTimeWindow`` of `wall`,
    /// and `wall` less the span's offset. `nil` otherwise (ask the rules).
    ///
    /// Then every offset that `utc` tries is the span's own or lies within the window (those of
    /// the POSIX TZ string, checked here; the zone has no transition inside the span), so the
    /// only one that fits is the span's.
    static func uniqueInstant(ofWall wall: Int64, in span: LocalTimeSpan, zone: Zone) -> Int64? {
        let window = localTimeWindow
        guard wall > Int64.min / 2, wall < Int64.max / 2, span.start <= wall - window, wall + window < span.end
        else { return nil }
        if let rule = zone.rule {
            guard abs(rule.value.standardOffset) < window, abs(rule.value.daylight?.offset ?? 0) < window else {
                return nil
            }
        }
        let instant = wall - Int64(span.type.utcOffset)
        return span.contains(instant) ? instant : nil
    }
}

/// A ``POSIXTimeZone`` held by reference: one per rule set, shared by every ``TimeZoneRules/Zone``
/// of it. Equal when the rules are.
final class SharedPOSIXTimeZone: Hashable, Sendable {
    let value: POSIXTimeZone

    init(_ value: POSIXTimeZone) { self.value = value }

    static func == (a: SharedPOSIXTimeZone, b: SharedPOSIXTimeZone) -> Bool { a.value == b.value }

    func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
}

/// A stretch of instants, `start` up to but not including `end`, over which a zone's clocks
/// show one local time type.
struct LocalTimeSpan: Hashable, Sendable {
    var type: LocalTimeType
    var start: Int64
    var end: Int64

    /// Whether `instant` is in the span.
    func contains(_ instant: Int64) -> Bool { start <= instant && instant < end }
}

/// Which instants a wall-clock time stands for in a zone.
public enum LocalTimeResolution: Hashable, Sendable {
    /// Exactly one.
    case unique(Int64)
    /// Two: the clocks were set back (a fall-back overlap) and showed the time twice, first
    /// before the change (`earlier`, e.g. still on summer time) and again after it.
    case ambiguous(earlier: Int64, later: Int64)
    /// None: the clocks skipped the time (a spring-forward gap of `gap` seconds). The instant is
    /// read with the offset in effect before the change, so it lies `gap` seconds after the
    /// moment the wall clock would have shown that time; shown in the zone, it reads `gap`
    /// seconds later than asked (02:30 in a one-hour gap at 02:00 becomes 03:30).
    case nonexistent(Int64, gap: Int)

    /// The instant phototag uses: the only one, the earlier of two (the first occurrence), or the
    /// one read with the offset before a gap.
    public var instant: Int64 {
        switch self {
        case .unique(let instant), .ambiguous(let instant, _), .nonexistent(let instant, _): instant
        }
    }
}
