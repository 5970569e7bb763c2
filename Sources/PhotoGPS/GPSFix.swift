/// A usable GPS position read from a photo, with whatever else its GPS block recorded.
///
/// A `GPSFix` only exists for a valid position: latitude in -90...90, longitude in -180...180,
/// not the 0, 0 placeholder, every component with a non-zero denominator and a valid reference.
/// Photos whose GPS block fails any of these are reported as invalid instead (see ``GPSReading``).
public struct GPSFix: Hashable, Sendable {
    /// Where the position was read from.
    public enum Source: String, Hashable, Sendable {
        /// The EXIF GPS IFD.
        case exif
        /// An XMP packet (used when EXIF has no usable position); in a video, a `uuid` box or
        /// `moov/udta/XMP_`.
        case xmp
        /// An XMP sidecar file beside the photo (`NAME.xmp`, `NAME.EXT.xmp`), or a Google Takeout JSON file.
        case xmpSidecar = "xmp-sidecar", takeout
        /// A video's QuickTime metadata: `moov/meta` keys `com.apple.quicktime.location.ISO6709`.
        case quicktimeKeys = "quicktime-keys"
        /// A video's `moov/udta/©xyz` (an ISO 6709 string).
        case udtaXYZ = "udta-xyz"
        /// A video's 3GPP location box, `moov/udta/loci`.
        case loci = "3gpp-loci"
    }

    /// Whether a direction is relative to true or magnetic north.
    public enum North: String, Hashable, Sendable {
        case `true`
        case magnetic
    }

    /// Signed decimal degrees, north positive.
    public var latitude: Double
    /// Signed decimal degrees, east positive.
    public var longitude: Double
    /// Metres above sea level (negative below), when recorded and readable.
    public var altitude: Double?
    /// When the receiver took the fix (UTC), when both date and time are recorded and valid.
    public var timestamp: GPSTimestamp?
    /// The direction the camera pointed, in degrees clockwise from north.
    public var direction: Double?
    /// The north ``direction`` is measured from.
    public var directionReference: North?
    /// The receiver's speed in kilometres per hour (converted from mph or knots).
    public var speed: Double?
    /// The horizontal positioning error in metres (GPSHPositioningError).
    public var horizontalError: Double?
    /// The geodetic datum, as written (e.g. `WGS-84`).
    public var mapDatum: String?
    /// Where the position was read from.
    public var source: Source

    /// Creates a fix from already validated values.
    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        timestamp: GPSTimestamp? = nil, direction: Double? = nil, directionReference: North? = nil,
        speed: Double? = nil, horizontalError: Double? = nil, mapDatum: String? = nil,
        source: Source = .exif
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestamp = timestamp
        self.direction = direction
        self.directionReference = directionReference
        self.speed = speed
        self.horizontalError = horizontalError
        self.mapDatum = mapDatum
        self.source = source
    }
}

/// A UTC date and time of day from GPSDateStamp and GPSTimeStamp, to the nanosecond.
public struct GPSTimestamp: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Nanoseconds since midnight UTC.
    public var nanosecondOfDay: Int64

    public init(year: Int, month: Int, day: Int, nanosecondOfDay: Int64) {
        self.year = year
        self.month = month
        self.day = day
        self.nanosecondOfDay = nanosecondOfDay
    }

    /// ISO 8601 in UTC, fractional seconds kept and trailing zeros dropped:
    /// `2019-07-01T12:34:56.24Z`.
    public var description: String {
        let seconds = nanosecondOfDay / 1_000_000_000
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(Int(seconds / 3600), 2)):\(pad(Int(seconds / 60 % 60), 2)):\(pad(Int(seconds % 60), 2))"
        var fraction = nanosecondOfDay % 1_000_000_000
        if fraction != 0 {
            var digits = 9
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            text += "." + pad(Int(fraction), digits)
        }
        return text + "Z"
    }
}

/// Zero-pads a non-negative number to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
