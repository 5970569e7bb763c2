import PhotoTagSupport

/// A POSIX TZ string as the footer of a TZif file carries it (RFC 8536 §3.3), e.g.
/// `CET-1CEST,M3.5.0,M10.5.0/3`, `<+0545>-5:45` or `<-03>3<-02>,M3.2.0,M11.1.0`: the rule for every
/// instant after the file's last transition.
///
/// Grammar: `std offset [dst [offset] [,start[/time],end[/time]]]`. A name is three or more letters,
/// or any of letters, digits, `+` and `-` between `<` and `>`. An offset is `[+|-]hh[:mm[:ss]]`,
/// positive **west** of Greenwich (the opposite of an UTC offset); the DST offset defaults to one
/// hour ahead of standard time. A date is `Jn` (1...365, February 29 never counted), `n` (0...365,
/// February 29 counted) or `Mm.w.d` (day `d` of week `w` of month `m`, `d` 0 = Sunday, week 5 =
/// the last); a time is `[+|-]hh[:mm[:ss]]` of local time in effect before the change, from -167 to
/// 167 hours (RFC 8536 §3.3.1), default `02:00:00`.
struct POSIXTimeZone: Hashable, Sendable {
    /// One end of daylight saving time: a day of the year and a time of day.
    struct Change: Hashable, Sendable {
        enum Day: Hashable, Sendable {
            /// `Jn`: 1...365, February 29 never counted.
            case julian(Int)
            /// `n`: 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        var day: Day
        /// Seconds after local midnight (of the time in effect before the change).
        var time: Int64

        /// The wall-clock seconds (since 1970-01-01 on the clock before the change) in `year`.
        func localSeconds(in year: Int) -> Int64 {
            let days: Int64
            switch day {
            case .julian(let n):
                days =
                    GregorianCalendar.daysSinceEpoch(year: year, month: 1, day: 1) + Int64(n - 1)
                    + (GregorianCalendar.isLeapYear(year) && n >= 60 ? 1 : 0)
            case .zeroBased(let n):
                days = GregorianCalendar.daysSinceEpoch(year: year, month: 1, day: 1) + Int64(n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = GregorianCalendar.daysSinceEpoch(year: year, month: month, day: 1)
                let firstWeekday = GregorianCalendar.weekday(fromDays: first)
                var day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
                let length = GregorianCalendar.daysIn(month: month, year: year)
                while day > length { day -= 7 }
                days = first + Int64(day - 1)
            }
            return days * 86_400 + time
        }
    }

    /// Daylight saving time: its UTC offset and abbreviation, and when it starts and ends.
    struct Daylight: Hashable, Sendable {
        var offset: Int
        var name: String
        var start: Change
        var end: Change
    }

    /// Standard time: UTC offset in seconds (east positive) and abbreviation.
    var standardOffset: Int
    var standardName: String
    /// Daylight saving time, when the rule has it.
    var daylight: Daylight?

    /// Parses a TZ string; `nil` if it does not follow the grammar above, or names daylight saving
    /// time without saying when it starts and ends (RFC 8536 requires the rule).
    init?(_ text: String) {
        var parser = Parser(bytes: Array(text.utf8))
        guard let standardName = parser.name(), let standard = parser.time(maximumHours: 24) else { return nil }
        self.standardName = standardName
        standardOffset = -Int(standard)
        if parser.atEnd { return }
        guard let daylightName = parser.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if let offset = parser.time(maximumHours: 24) { daylightOffset = -Int(offset) }
        guard parser.take(UInt8(ascii: ",")), let start = parser.change(), parser.take(UInt8(ascii: ",")),
            let end = parser.change(), parser.atEnd
        else { return nil }
        daylight = Daylight(offset: daylightOffset, name: daylightName, start: start, end: end)
    }

    /// The UTC offset, whether it is daylight saving time and the abbreviation at `instant`
    /// (seconds since the Unix epoch, UTC).
    func offset(at instant: Int64) -> LocalTimeType { span(containing: instant).type }

    /// The local time type at `instant` (as ``offset(at:)``) and the instants around it that the
    /// rule gives the same answer for.
    ///
    /// The changes of the year around the instant and of the years before and after are laid
    /// out in UTC and the last one at or before the instant decides, so that change times
    /// beyond 24 hours or below zero, and rules where daylight time spans the new year (southern
    /// hemisphere) or the whole year, need no special case. The span ends at the first of those
    /// changes after the instant, and stays within the instant's year (of standard time), whose
    /// instants all look at the same changes; it is one instant long where the instant is beyond
    /// the ±2^50 s that the rule is computed for.
    func span(containing instant: Int64) -> LocalTimeSpan {
        let standard = LocalTimeType(utcOffset: standardOffset, isDaylightSaving: false, abbreviation: standardName)
        guard let rule = daylight else { return LocalTimeSpan(type: standard, start: .min, end: .max) }
        // The rule repeats every year: instants millions of years away need no exact calendar,
        // and keeping them within ±2^50 s keeps the arithmetic far from overflow.
        let limit: Int64 = 1 << 50
        let clamped = min(max(instant, -limit), limit)
        let year = CivilDateTime(secondsSinceEpoch: clamped + Int64(standardOffset)).year
        // The last change at or before the instant (a later one in this order wins a tie: the
        // start, then the end of each year) and the first one after it.
        var latest = Int64.min, latestIsDaylight = false, next = Int64.max
        for candidate in year - 1...year + 1 {
            let start = rule.start.localSeconds(in: candidate) - Int64(standardOffset)
            let end = rule.end.localSeconds(in: candidate) - Int64(rule.offset)
            if start > clamped {
                next = min(next, start)
            } else if start >= latest {
                (latest, latestIsDaylight) = (start, true)
            }
            if end > clamped {
                next = min(next, end)
            } else if end >= latest {
                (latest, latestIsDaylight) = (end, false)
            }
        }
        let type =
            latestIsDaylight
            ? LocalTimeType(utcOffset: rule.offset, isDaylightSaving: true, abbreviation: rule.name) : standard
        guard clamped == instant else {
            return LocalTimeSpan(type: type, start: instant, end: instant == .max ? instant : instant + 1)
        }
        let yearStart = GregorianCalendar.daysSinceEpoch(year: year, month: 1, day: 1) * 86_400 - Int64(standardOffset)
        let yearEnd =
            GregorianCalendar.daysSinceEpoch(year: year + 1, month: 1, day: 1) * 86_400 - Int64(standardOffset)
        return LocalTimeSpan(
            type: type, start: max(latest, yearStart, -limit), end: min(next, yearEnd, limit + 1))
    }

    /// Reads the TZ string grammar byte by byte.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<...>` quoted.
        mutating func name() -> String? {
            let start = index
            if take(UInt8(ascii: "<")) {
                while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
                    let byte = bytes[index]
                    guard Self.isLetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2D else {
                        return nil
                    }
                    index += 1
                }
                guard index - start - 1 >= 3, take(UInt8(ascii: ">")) else { return nil }
                return String(decoding: bytes[start + 1..<index - 1], as: UTF8.self)
            }
            while index < bytes.count, Self.isLetter(bytes[index]) { index += 1 }
            guard index - start >= 3 else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

        /// Up to `maximumDigits` decimal digits (at least one).
        mutating func number(maximumDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while digits < maximumDigits, index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            return digits == 0 ? nil : value
        }

        /// `[+|-]hh[:mm[:ss]]` in seconds, hours at most `maximumHours`; `nil` (nothing consumed
        /// but a sign) when no number follows.
        mutating func time(maximumHours: Int) -> Int64? {
            let negative = take(UInt8(ascii: "-"))
            if !negative { _ = take(UInt8(ascii: "+")) }
            guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
            var seconds = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let secs = number(maximumDigits: 2), secs < 60 else { return nil }
                    seconds += secs
                }
            }
            return Int64(negative ? -seconds : seconds)
        }

        /// `date[/time]`.
        mutating func change() -> Change? {
            let day: Change.Day
            if take(UInt8(ascii: "J")) {
                guard let n = number(maximumDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if take(UInt8(ascii: "M")) {
                guard let month = number(maximumDigits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
                    let week = number(maximumDigits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
                    let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let n = number(maximumDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time: Int64 = 7200
            if take(UInt8(ascii: "/")) {
                guard let given = self.time(maximumHours: 167) else { return nil }
                time = given
            }
            return Change(day: day, time: time)
        }
    }
}

/// What a zone's clocks read at some instant: the offset from UTC, whether it is daylight saving
/// time, and the abbreviation (`CEST`, `+0545`, `LMT`).
public struct LocalTimeType: Hashable, Sendable {
    /// Seconds east of UTC: local time = UTC + offset.
    public var utcOffset: Int
    /// Whether the zone counts this as daylight saving (summer) time.
    public var isDaylightSaving: Bool
    /// The zone's abbreviation for this time, as tzdata spells it.
    public var abbreviation: String

    /// A local time type with the given offset, daylight-saving flag and abbreviation.
    public init(utcOffset: Int, isDaylightSaving: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDaylightSaving = isDaylightSaving
        self.abbreviation = abbreviation
    }
}
