/// The decoded contents of one EXIF entry, in the shape the GPS policy needs.
///
/// This is the boundary between libexif and the pure conversion code: `ExifBlock` turns libexif's
/// raw entries into these values, and ``GPSFix`` decodes them without knowing where they came from,
/// so the policy is tested on hand-made values without any file.
enum ExifValue: Hashable, Sendable {
    /// RATIONAL (type 5) components.
    case rationals([Rational])
    /// SRATIONAL (type 10) components.
    case signedRationals([Rational])
    /// ASCII (type 2) text, without its terminating NULs.
    case ascii([UInt8])
    /// BYTE, SBYTE or UNDEFINED (types 1, 6, 7) bytes.
    case bytes([UInt8])
    /// SHORT, LONG, SSHORT or SLONG (types 3, 4, 8, 9) integers.
    case integers([Int64])
    /// Any other TIFF type, kept only so that messages can name it.
    case other(type: UInt16, count: Int)

    /// The TIFF type name used in messages, e.g. `RATIONAL`.
    var typeName: String {
        switch self {
        case .rationals: "RATIONAL"
        case .signedRationals: "SRATIONAL"
        case .ascii: "ASCII"
        case .bytes: "BYTE"
        case .integers: "integer"
        case .other(let type, _): "type \(type)"
        }
    }

    /// The entry read as text: ASCII as is, BYTE/UNDEFINED as if it were ASCII, trimmed of
    /// trailing NULs and spaces; `nil` for numeric types.
    var text: String? {
        let raw: [UInt8]
        switch self {
        case .ascii(let bytes), .bytes(let bytes): raw = bytes
        default: return nil
        }
        var end = raw.count
        if let nul = raw.firstIndex(of: 0) { end = nul }
        while end > 0, raw[end - 1] == 0x20 { end -= 1 }
        return String(decoding: raw[..<end], as: UTF8.self)
    }
}
