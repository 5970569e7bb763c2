/// The TIFF field types (TIFF 6.0 §2 "IFD Entry", plus the IFD type of TIFF Technical Note 1),
/// named once for every reader of IFD entries.
enum TIFFType: UInt16, Hashable, Sendable {
    /// An 8-bit unsigned integer.
    case byte = 1
    /// 8-bit bytes of 7-bit ASCII text, NUL-terminated.
    case ascii = 2
    /// A 16-bit unsigned integer.
    case short = 3
    /// A 32-bit unsigned integer.
    case long = 4
    /// Two LONGs: a numerator and a denominator.
    case rational = 5
    /// An 8-bit signed integer.
    case sbyte = 6
    /// 8-bit bytes whose meaning the tag defines.
    case undefined = 7
    /// A 16-bit signed integer.
    case sshort = 8
    /// A 32-bit signed integer.
    case slong = 9
    /// Two SLONGs: a numerator and a denominator.
    case srational = 10
    /// An IEEE single-precision float.
    case float = 11
    /// An IEEE double-precision float.
    case double = 12
    /// A 32-bit offset to a sub-IFD (used like LONG by IFD pointers).
    case ifd = 13

    /// The size in bytes of one component.
    var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: 1
        case .short, .sshort: 2
        case .long, .slong, .float, .ifd: 4
        case .rational, .srational, .double: 8
        }
    }

    /// Whether an entry of this type can be an IFD pointer (one LONG or IFD).
    var isPointer: Bool { self == .long || self == .ifd }
}

/// The first four bytes of a TIFF structure: the byte-order mark, then 42 in that order.
enum TIFFHeader {
    /// Intel (little-endian) order: `II`, 42.
    static let intel: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
    /// Motorola (big-endian) order: `MM`, 42.
    static let motorola: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
}

/// The IFD0 and EXIF IFD tag numbers phototag reads (EXIF 2.32 / 3.0, TIFF 6.0).
enum ExifTag {
    /// IFD0 `Make`: the camera's maker.
    static let make: UInt16 = 0x010F
    /// IFD0 `Model`: the camera's model.
    static let model: UInt16 = 0x0110
    /// IFD0 `ExifIFDPointer`: where the EXIF IFD starts.
    static let exifIFDPointer: UInt16 = 0x8769
    /// IFD0 `GPSInfoIFDPointer`: where the GPS IFD starts.
    static let gpsIFDPointer: UInt16 = 0x8825
    /// EXIF IFD `DateTimeOriginal`: when the photo was taken, in local time.
    static let dateTimeOriginal: UInt16 = 0x9003
    /// EXIF IFD `OffsetTimeOriginal`: the UTC offset of ``dateTimeOriginal``.
    static let offsetTimeOriginal: UInt16 = 0x9011
    /// EXIF IFD `SubSecTimeOriginal`: the fraction of a second of ``dateTimeOriginal``.
    static let subSecTimeOriginal: UInt16 = 0x9291
}

/// GPS IFD tag numbers (EXIF 2.32 / 3.0, table "GPS Attribute Information").
enum GPSTag {
    /// `GPSVersionID`.
    static let versionID: UInt16 = 0x0000
    /// `GPSLatitudeRef`: `N` or `S`.
    static let latitudeRef: UInt16 = 0x0001
    /// `GPSLatitude`: degrees, minutes, seconds.
    static let latitude: UInt16 = 0x0002
    /// `GPSLongitudeRef`: `E` or `W`.
    static let longitudeRef: UInt16 = 0x0003
    /// `GPSLongitude`: degrees, minutes, seconds.
    static let longitude: UInt16 = 0x0004
    /// `GPSAltitudeRef`: 0 above sea level, 1 below.
    static let altitudeRef: UInt16 = 0x0005
    /// `GPSAltitude`: metres.
    static let altitude: UInt16 = 0x0006
    /// `GPSTimeStamp`: hours, minutes, seconds (UTC).
    static let timeStamp: UInt16 = 0x0007
    /// `GPSSpeedRef`: `K`, `M` or `N`.
    static let speedRef: UInt16 = 0x000C
    /// `GPSSpeed`.
    static let speed: UInt16 = 0x000D
    /// `GPSImgDirectionRef`: `T` or `M`.
    static let imgDirectionRef: UInt16 = 0x0010
    /// `GPSImgDirection`: degrees.
    static let imgDirection: UInt16 = 0x0011
    /// `GPSMapDatum`.
    static let mapDatum: UInt16 = 0x0012
    /// `GPSDateStamp`: `YYYY:MM:DD` (UTC).
    static let dateStamp: UInt16 = 0x001D
    /// `GPSHPositioningError`: metres.
    static let horizontalError: UInt16 = 0x001F
}
