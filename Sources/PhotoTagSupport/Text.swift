// Small text helpers every module needs: zero padding, hex digits, decimal numbers, calendar
// dates. One implementation each, so that the same input reads the same everywhere.

/// Zero-pads a non-negative number to `width` digits (`7`, 3 → `007`).
package func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// ISO 8601 date-times written into bytes, digit by digit, without a string for each part: the
/// GPS time (PhotoGPS) and the capture time's `utc` and `local` (ReverseGeocoding) are written
/// here, once per located photo each.
package enum ISO8601Text {
    /// The most bytes ``write(year:month:day:hour:minute:second:nanoseconds:offset:into:)``
    /// writes: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn+HH:MM:SS`.
    package static let maximumLength = 38

    /// Writes `YYYY-MM-DDTHH:MM:SS`, then `.` and the fraction of the second with its trailing
    /// zeros dropped (nothing for none), then `Z` when `offset` is `nil`, else `±HH:MM` and
    /// `:SS` when the offset has seconds; returns how many bytes. `text` holds at least
    /// ``maximumLength`` bytes (30 without an offset); the year is 0...9999, the other fields
    /// in range, `nanoseconds` below 10^9 and the offset's magnitude below 100 hours (the
    /// caller checks).
    package static func write(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int, offset: Int?,
        into text: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var index = 0
        func put(_ byte: UInt8) {
            text[index] = byte
            index += 1
        }
        /// Two digits, `0...99`, without a loop: most of the text is pairs.
        func pair(_ value: Int) {
            text[index] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
            text[index + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
            index += 2
        }
        pair(year / 100)
        pair(year % 100)
        put(UInt8(ascii: "-"))
        pair(month)
        put(UInt8(ascii: "-"))
        pair(day)
        put(UInt8(ascii: "T"))
        pair(hour)
        put(UInt8(ascii: ":"))
        pair(minute)
        put(UInt8(ascii: ":"))
        pair(second)
        if nanoseconds > 0 {
            put(UInt8(ascii: "."))
            var rest = nanoseconds, place = index + 9
            while place > index {
                place -= 1
                text[place] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            }
            index += 9
            while text[index - 1] == 0x30 { index -= 1 }
        }
        guard let offset else {
            put(UInt8(ascii: "Z"))
            return index
        }
        let magnitude = abs(offset)
        put(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        pair(magnitude / 3600)
        put(UInt8(ascii: ":"))
        pair(magnitude / 60 % 60)
        if magnitude % 60 != 0 {
            put(UInt8(ascii: ":"))
            pair(magnitude % 60)
        }
        return index
    }
}

/// The lowercase hexadecimal digits of a byte, high nibble first (`0x1f` → `1f`).
package func hexDigits(_ byte: UInt8) -> (high: UInt8, low: UInt8) {
    func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
    return (digit(byte >> 4), digit(byte & 0x0F))
}

/// Powers of ten that a `Double` holds exactly.
private let exactPowersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
}

/// Decimal numbers as phototag reads them everywhere (coordinates on the command line and in
/// geocode input, XMP values, GeoNames dumps): one grammar, correctly rounded.
package enum DecimalNumber {
    /// Whether an exponent (`1e-3`) is part of the grammar.
    package enum Exponent: Sendable {
        /// `1e-3` is a number.
        case allowed
        /// `1e-3` is not a number (XMP and GeoNames write plain decimals only).
        case rejected
    }

    /// `[+-]? digits [. digits]` (or `.digits`, `digits.`), then an exponent when `exponent` is
    /// `.allowed`; `nil` for anything else: `nan`, `inf`, hex, an empty text, spaces, stray
    /// characters.
    ///
    /// Most coordinates have at most 15 significant digits, and then one exact multiplication or
    /// division by an exact power of ten gives the correctly rounded result (Clinger's fast path);
    /// longer numbers go through the standard library's parser, which also rounds correctly.
    package static func parse(_ bytes: some Collection<UInt8>, exponent allowExponent: Exponent = .allowed) -> Double? {
        if let parsed = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0, exponent: allowExponent) }) {
            return parsed
        }
        return Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, exponent: allowExponent) }
    }

    /// ``parse(_:exponent:)`` for a field of a line, without going through the generic entry:
    /// called from another module, a generic parser is not specialized, and every byte read
    /// through the protocol witness cost an allocation (44 per geocode line).
    package static func parse(_ bytes: ArraySlice<UInt8>, exponent allowExponent: Exponent = .allowed) -> Double? {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, exponent: allowExponent) }
    }

    /// ``parse(_:exponent:)`` for a whole array.
    package static func parse(_ bytes: [UInt8], exponent allowExponent: Exponent = .allowed) -> Double? {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, exponent: allowExponent) }
    }

    /// The parser itself, over contiguous bytes (one non-generic body).
    private static func parse(buffer bytes: UnsafeBufferPointer<UInt8>, exponent allowExponent: Exponent) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var exponent = 0
        var sawDot = false
        var negative = false
        var index = bytes.startIndex
        let end = bytes.endIndex
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        while index < end {
            let byte = bytes[index]
            if (0x30...0x39).contains(byte) {
                digits += 1
                if mantissa == 0 && byte == 0x30 {
                    if sawDot { exponent -= 1 }
                } else if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(byte - 0x30)
                    significant += 1
                    if sawDot { exponent -= 1 }
                } else {
                    significant += 1
                    if !sawDot { exponent += 1 }
                }
            } else if byte == UInt8(ascii: "."), !sawDot {
                sawDot = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if allowExponent == .allowed, index < end,
            bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
        {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            var exponentDigits = 0
            while index < end, (0x30...0x39).contains(bytes[index]) {
                value = min(value * 10 + Int(bytes[index] - 0x30), 100_000)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -value : value
        }
        guard index == end else { return nil }
        if significant <= 15, abs(exponent) <= 22 {
            let base = Double(mantissa)
            let result = exponent >= 0 ? base * exactPowersOfTen[exponent] : base / exactPowersOfTen[-exponent]
            return negative ? -result : result
        }
        guard let parsed = Double(String(decoding: bytes, as: UTF8.self)), parsed.isFinite else { return nil }
        return parsed
    }
}

/// The proleptic Gregorian calendar, in days since 1970-01-01 (H. Hinnant's algorithms).
package enum GregorianCalendar {
    /// Whether `year` is a leap year.
    package static func isLeapYear(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The number of days in a month (1–12) of `year`.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given day (negative before): `days_from_civil`.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01: `civil_from_days`.
    package static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
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
    package static func weekday(fromDays days: Int64) -> Int { Int(floorModulo(days + 4, 7)) }

    /// Division rounding towards negative infinity.
    package static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of ``floorDivide(_:_:)``, with the sign of `b`.
    package static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }
}
