/// A date and time of day on a wall clock, with no time zone: proleptic Gregorian calendar,
/// whole seconds (fractions are carried separately by the callers that have them).
///
/// The conversions to and from a count of seconds treat the clock as if it were UTC; ``TimeZoneRules``
/// adds or removes a zone's offset. Years are astronomical (year 0 is 1 BC) and may be negative;
/// ``secondsSinceEpoch`` needs years within about ±290 billion, where the seconds fit in `Int64`.
public struct CivilDateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
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
        let pad = GregorianCalendar.zeroPadded
        return "\(GregorianCalendar.paddedYear(year))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }
}

/// The proleptic Gregorian calendar and the text forms of dates, for time-zone work.
enum GregorianCalendar {
    /// Whether `year` is a leap year of the proleptic Gregorian calendar.
    static func isLeapYear(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The number of days in a month of the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given day (negative before), for any proleptic Gregorian date
    /// (H. Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The day of the week of the day `days` after 1970-01-01: 0 is Sunday.
    static func weekday(fromDays days: Int64) -> Int { Int(floorModulo(days + 4, 7)) }

    /// Division rounding towards negative infinity.
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of ``floorDivide(_:_:)``, with the sign of `b`.
    static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }

    /// Zero-pads a non-negative number to `width` digits.
    static func zeroPadded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A year as ISO 8601 writes it: four digits, a sign before negative years.
    static func paddedYear(_ year: Int) -> String { year < 0 ? "-" + zeroPadded(-year, 4) : zeroPadded(year, 4) }
}
