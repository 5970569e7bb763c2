import PhotoTagSupport

/// What the EXIF block says about the camera and the moment of capture.
public struct CameraInfo: Hashable, Sendable {
    /// IFD0 Make, trimmed.
    public var make: String?
    /// IFD0 Model, trimmed.
    public var model: String?
    /// DateTimeOriginal as ISO 8601 local time (`2019-07-01T14:34:56`), `nil` if absent or not a
    /// valid date (cameras write `0000:00:00 00:00:00` or blanks when their clock is unset).
    public var dateTimeOriginal: String?
    /// OffsetTimeOriginal (`+02:00`), `nil` if absent or malformed.
    public var offsetTimeOriginal: String?
    /// SubSecTimeOriginal: the digits of the fraction of DateTimeOriginal's second (`24` for
    /// .24 s), spaces around them removed; `nil` if absent, blank or not digits.
    public var subSecTimeOriginal: String?

    /// Creates camera information from the EXIF texts as stored; each is cleaned the way the
    /// property's documentation says, and becomes `nil` when nothing valid is left.
    public init(
        make: String? = nil, model: String? = nil, dateTimeOriginal: String? = nil,
        offsetTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil
    ) {
        self.make = Self.clean(make)
        self.model = Self.clean(model)
        self.dateTimeOriginal = dateTimeOriginal.flatMap(Self.isoDateTime)
        self.offsetTimeOriginal = offsetTimeOriginal.flatMap(Self.offset)
        self.subSecTimeOriginal = subSecTimeOriginal.flatMap(Self.digits)
    }

    /// Whether nothing at all is known.
    public var isEmpty: Bool {
        make == nil && model == nil && dateTimeOriginal == nil && offsetTimeOriginal == nil
            && subSecTimeOriginal == nil
    }

    private static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.drop(while: { $0 == " " })
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// `YYYY:MM:DD HH:MM:SS` → `YYYY-MM-DDTHH:MM:SS`, or `nil` when it is not a real moment.
    static func isoDateTime(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count >= 19, let (year, month, day) = calendarDate(b),
            b[10] == UInt8(ascii: " ") || b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
            b[16] == UInt8(ascii: ":"), let hour = decimalDigits(b, 11..<13), let minute = decimalDigits(b, 14..<16),
            let second = decimalDigits(b, 17..<19), hour < 24, minute < 60, second < 61
        else { return nil }
        return "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))"
            + "T\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2)):\(zeroPadded(second, 2))"
    }

    /// `+HH:MM` or `-HH:MM`, or `nil`.
    static func offset(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":"),
            [1, 2, 4, 5].allSatisfy({ (0x30...0x39).contains(b[$0]) })
        else { return nil }
        return text
    }

    /// One or more decimal digits with optional spaces around them, trimmed; or `nil`.
    static func digits(_ text: String) -> String? {
        let trimmed = text.utf8.drop(while: { $0 == 0x20 }).reversed().drop(while: { $0 == 0x20 }).reversed()
        guard !trimmed.isEmpty, trimmed.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return String(decoding: trimmed, as: UTF8.self)
    }
}
