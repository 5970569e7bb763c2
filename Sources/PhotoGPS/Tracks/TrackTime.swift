import PhotoTagSupport

/// Times as track files write them, read into seconds since 1970-01-01T00:00:00Z (UTC).
enum TrackTime {
    /// An ISO 8601 date-time, `YYYY-MM-DDTHH:MM:SS` (a space for the `T` too), then an optional
    /// fraction of the second (`.994`, any number of digits), then an optional zone: `Z`, `±HH:MM`,
    /// `±HHMM` or `±HH`. A time without a zone is UTC, as GPX and KML say and ExifTool reads
    /// them. Leading and trailing ASCII spaces are ignored; anything else is `nil`, as is a field
    /// out of range (month 13, 25 o'clock, 30 February, a leap second `:60`).
    static func iso8601(_ text: UnsafeRawBufferPointer) -> Double? {
        var start = 0, end = text.count
        while start < end, text[start] == 0x20 || text[start] == 0x09 || text[start] == 0x0A || text[start] == 0x0D {
            start += 1
        }
        while end > start,
            text[end - 1] == 0x20 || text[end - 1] == 0x09 || text[end - 1] == 0x0A || text[end - 1] == 0x0D
        {
            end -= 1
        }
        var i = start
        func digits(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var value = 0
            for k in 0..<count {
                let d = Int(text[i + k]) - 0x30
                guard d >= 0, d <= 9 else { return nil }
                value = value * 10 + d
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < end, text[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
            i < end, text[i] == 0x54 || text[i] == 0x20 || text[i] == 0x74
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= GregorianCalendar.daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var fraction = 0.0
        if i < end, text[i] == 0x2E || text[i] == 0x2C {
            i += 1
            var scale = 0.1
            let first = i
            while i < end, text[i] >= 0x30, text[i] <= 0x39 {
                fraction += Double(text[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        var offset = 0
        if i < end {
            switch text[i] {
            case 0x5A, 0x7A:  // Z
                i += 1
            case 0x2B, 0x2D:  // + -
                let sign = text[i] == 0x2D ? -1 : 1
                i += 1
                guard let hours = digits(2), hours <= 23 else { return nil }
                var minutes = 0
                if i < end {
                    _ = expect(0x3A)
                    guard let m = digits(2), m <= 59 else { return nil }
                    minutes = m
                }
                offset = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard i == end else { return nil }
        let days = GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Double(seconds) + fraction
    }

    /// ``iso8601(_:)`` of a string (tests, command-line values).
    static func iso8601(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { iso8601(UnsafeRawBufferPointer($0)) }
    }
}
