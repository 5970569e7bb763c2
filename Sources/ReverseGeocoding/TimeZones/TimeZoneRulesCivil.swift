import PhotoTagSupport

/// A date and time of day on a wall clock, with no time zone: proleptic Gregorian calendar,
/// whole seconds (fractions are carried separately by the callers that have them).
///
/// The conversions to and from a count of seconds treat the clock as if it were UTC; ``TimeZoneRules``
/// adds or removes a zone's offset. Years are astronomical (year 0 is 1 BC) and may be negative;
/// ``secondsSinceEpoch`` needs years within about ±290 billion, where the seconds fit in `Int64`.
public struct CivilDateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The astronomical year (0 is 1 BC; negative before).
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31.
    public var day: Int
    /// 0...23.
    public var hour: Int
    /// 0...59.
    public var minute: Int
    /// 0...59 (a leap second 60 counts as the first second of the next minute).
    public var second: Int

    /// The given date and time of day; not checked (see ``isValid``).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall-clock time `seconds` after 1970-01-01T00:00:00 on the same clock.
    public init(secondsSinceEpoch seconds: Int64) {
        let days = GregorianCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        (year, month, day) = GregorianCalendar.civilDate(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    /// Seconds since 1970-01-01T00:00:00 on the same clock.
    public var secondsSinceEpoch: Int64 {
        GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Whether every field is in range and the day exists in its month.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= GregorianCalendar.daysIn(month: month, year: year)
            && (0...23).contains(hour)
            && (0...59).contains(minute) && (0...60).contains(second)
    }

    /// ISO 8601 without an offset: `2019-07-01T14:34:56`.
    public var description: String {
        let twoDigits = 0...99
        guard (0...9999).contains(year), twoDigits.contains(month), twoDigits.contains(day),
            twoDigits.contains(hour), twoDigits.contains(minute), twoDigits.contains(second)
        else {
            let pad = zeroPadded
            return "\(GregorianCalendar.paddedYear(year))-\(pad(month, 2))-\(pad(day, 2))T"
                + "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        }
        // The same text written digit by digit into the string's storage: a photo's capture
        // time prints two of these, and the interpolation of padded numbers made a dozen strings.
        return String(unsafeUninitializedCapacity: 19) { text in
            func put(_ value: Int, at index: Int) {
                text[index] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
                text[index + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
            }
            put(year / 100, at: 0)
            put(year % 100, at: 2)
            text[4] = UInt8(ascii: "-")
            put(month, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, at: 8)
            text[10] = UInt8(ascii: "T")
            put(hour, at: 11)
            text[13] = UInt8(ascii: ":")
            put(minute, at: 14)
            text[16] = UInt8(ascii: ":")
            put(second, at: 17)
            return 19
        }
    }

    /// Whether `lhs` is earlier on the clock than `rhs`.
    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }
}

extension GregorianCalendar {
    /// A year as ISO 8601 writes it: four digits, a sign before negative years.
    static func paddedYear(_ year: Int) -> String { year < 0 ? "-" + zeroPadded(-year, 4) : zeroPadded(year, 4) }
}
