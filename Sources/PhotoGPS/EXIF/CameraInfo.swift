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
    /// Where ``dateTimeOriginal`` and ``offsetTimeOriginal`` were read.
    public var timeSource: TimeSource = .exif

    /// Where a capture time was read: not every one is the camera's EXIF.
    public enum TimeSource: String, Hashable, Sendable {
        /// EXIF DateTimeOriginal and OffsetTimeOriginal.
        case exif
        /// A video's QuickTime metadata: the keys' `com.apple.quicktime.creationdate`, or
        /// `mvhd`'s creation time (UTC).
        case quicktime
        /// An XMP sidecar's `exif:DateTimeOriginal`, `photoshop:DateCreated` or `xmp:CreateDate`.
        case xmp
        /// A Google Takeout sidecar's `photoTakenTime`: UTC, as Google recorded it.
        case takeout
    }

    /// Creates camera information from the EXIF texts as stored; each is cleaned the way the
    /// property's documentation says, and becomes `nil` when nothing valid is left.
    public init(
        make: String? = nil, model: String? = nil, dateTimeOriginal: String? = nil,
        offsetTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil, timeSource: TimeSource = .exif
    ) {
        self.timeSource = timeSource
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

    /// The text without its leading spaces, or `nil` when nothing is left.
    private static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        // The common case, no leading space, keeps the string as it is (no copy).
        if text.utf8.first != 0x20 { return text.isEmpty ? nil : text }
        let trimmed = text.drop(while: { $0 == " " })
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// `YYYY:MM:DD HH:MM:SS` → `YYYY-MM-DDTHH:MM:SS`, or `nil` when it is not a real moment.
    ///
    /// Every field is checked to be digits, so the result is the first 19 bytes with the
    /// separators replaced, made in one allocation.
    static func isoDateTime(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { isoDateTime(utf8: $0) }
    }

    /// ``isoDateTime(_:)`` of a text given as its UTF-8 bytes. The same for bytes that are not
    /// valid UTF-8 as for the text decoded from them: only a first 19 bytes that are all ASCII
    /// digits and separators make a date, and decoding leaves those as they are.
    static func isoDateTime(utf8 b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.count >= 19, calendarDate(b) != nil,
            b[10] == UInt8(ascii: " ") || b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
            b[16] == UInt8(ascii: ":"), let hour = decimalDigits(b, 11..<13),
            let minute = decimalDigits(b, 14..<16), let second = decimalDigits(b, 17..<19), hour < 24,
            minute < 60, second < 61
        else { return nil }
        return String(unsafeUninitializedCapacity: 19) { buffer in
            _ = buffer.initialize(from: b[0..<19])
            buffer[4] = UInt8(ascii: "-")
            buffer[7] = UInt8(ascii: "-")
            buffer[10] = UInt8(ascii: "T")
            return 19
        }
    }

    /// `+HH:MM` or `-HH:MM`, or `nil`.
    static func offset(_ text: String) -> String? {
        var copy = text
        let valid = copy.withUTF8 { b in
            func digit(_ index: Int) -> Bool { (0x30...0x39).contains(b[index]) }
            return b.count == 6 && (b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"))
                && b[3] == UInt8(ascii: ":") && digit(1) && digit(2) && digit(4) && digit(5)
        }
        return valid ? text : nil
    }

    /// One or more decimal digits with optional spaces around them, trimmed; or `nil`.
    static func digits(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { b -> String? in
            var start = 0
            var end = b.count
            while start < end, b[start] == 0x20 { start += 1 }
            while end > start, b[end - 1] == 0x20 { end -= 1 }
            let trimmed = UnsafeBufferPointer(rebasing: b[start..<end])
            guard !trimmed.isEmpty, trimmed.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return String(decoding: trimmed, as: UTF8.self)
        }
    }
}
