import PhotoTagSupport

/// A usable GPS position read from a photo, with whatever else its GPS block recorded.
///
/// A `GPSFix` only exists for a valid position: latitude in -90...90, longitude in -180...180,
/// and not the 0, 0 placeholder. Photos whose GPS block has no such position (or a component
/// with a zero denominator, or an invalid reference) are reported as invalid instead (see
/// ``GPSReading``). The optional values keep their own ranges: a ``direction`` in 0..<360 (and a
/// ``directionReference`` only with a direction), a finite, non-negative ``speed`` and
/// ``horizontalError``, a non-empty ``mapDatum``, an ``altitude`` that is a number (it is
/// infinite only when a file stores one beyond the range of `Double`). ``init(latitude:longitude:altitude:timestamp:direction:directionReference:speed:horizontalError:mapDatum:source:)``
/// checks all of them, and the properties cannot be set from outside, so no `GPSFix` breaks them.
public struct GPSFix: Hashable, Sendable {
    /// Where the position was read from.
    public enum Source: String, Hashable, Sendable {
        /// The EXIF GPS IFD.
        case exif
        /// An XMP packet (used when EXIF has no usable position); in a video, a `uuid` box or
        /// `moov/udta/XMP_`.
        case xmp
        /// An XMP sidecar file beside the photo (`NAME.xmp`, `NAME.EXT.xmp`).
        case xmpSidecar = "xmp-sidecar"
        /// A Google Takeout JSON file beside the photo.
        case takeout
        /// A video's QuickTime metadata: `moov/meta` keys `com.apple.quicktime.location.ISO6709`.
        case quicktimeKeys = "quicktime-keys"
        /// A video's `moov/udta/©xyz` (an ISO 6709 string).
        case udtaXYZ = "udta-xyz"
        /// A video's 3GPP location box, `moov/udta/loci`.
        case loci = "3gpp-loci"
        /// A GPS track or location history, at the photo's capture time (`--track`).
        case track
        /// Another photo of the same run, taken about the same time (`--from-photos`).
        case nearbyPhoto = "nearby-photo"
    }

    /// Whether a direction is relative to true or magnetic north.
    public enum North: String, Hashable, Sendable {
        /// True (geographic) north: GPSImgDirectionRef `T`.
        case `true`
        /// Magnetic north: GPSImgDirectionRef `M`.
        case magnetic
    }

    /// Signed decimal degrees, north positive, in -90...90.
    public private(set) var latitude: Double
    /// Signed decimal degrees, east positive, in -180...180.
    public private(set) var longitude: Double
    /// Metres above sea level (negative below), when recorded and readable.
    public private(set) var altitude: Double?
    /// When the receiver took the fix (UTC), when both date and time are recorded and valid.
    public private(set) var timestamp: GPSTimestamp?
    /// The direction the camera pointed, in degrees clockwise from north, in 0..<360.
    public private(set) var direction: Double?
    /// The north ``direction`` is measured from; only set with a direction.
    public private(set) var directionReference: North?
    /// The receiver's speed in kilometres per hour (converted from mph or knots), never negative.
    public private(set) var speed: Double?
    /// The horizontal positioning error in metres (GPSHPositioningError), never negative.
    public private(set) var horizontalError: Double?
    /// The geodetic datum, as written (e.g. `WGS-84`); never empty.
    public private(set) var mapDatum: String?
    /// Where the position was read from.
    public private(set) var source: Source

    /// Creates a fix, or returns `nil` when a value breaks the invariants of the type: a latitude
    /// outside -90...90 or a longitude outside -180...180 (or either not a number), the 0, 0
    /// placeholder, a direction outside 0..<360, a direction reference without a direction, a
    /// negative or infinite speed or horizontal error, an empty map datum, an altitude that is
    /// not a number.
    public init?(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        timestamp: GPSTimestamp? = nil, direction: Double? = nil, directionReference: North? = nil,
        speed: Double? = nil, horizontalError: Double? = nil, mapDatum: String? = nil,
        source: Source = .exif
    ) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), latitude != 0 || longitude != 0,
            altitude?.isNaN != true,
            direction.map({ (0..<360).contains($0) }) ?? (directionReference == nil),
            speed.map({ $0 >= 0 && $0.isFinite }) ?? true,
            horizontalError.map({ $0 >= 0 && $0.isFinite }) ?? true,
            mapDatum?.isEmpty != true
        else { return nil }
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

    /// The same fix, read from `source` instead (an XMP packet that came from a sidecar file).
    func from(_ source: Source) -> GPSFix {
        var fix = self
        fix.source = source
        return fix
    }
}

/// A UTC date and time of day from GPSDateStamp and GPSTimeStamp, to the nanosecond.
///
/// Always a real day of the proleptic Gregorian calendar in the years 1 to 9999, and a time of
/// day before midnight: ``init(year:month:day:nanosecondOfDay:)`` checks it.
public struct GPSTimestamp: Hashable, Sendable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public private(set) var year: Int
    /// The month, 1 to 12.
    public private(set) var month: Int
    /// The day of the month, 1 to its last day.
    public private(set) var day: Int
    /// Nanoseconds since midnight UTC, less than 86,400 seconds' worth.
    public private(set) var nanosecondOfDay: Int64

    /// Creates a timestamp, or returns `nil` when the day does not exist (or its year is outside
    /// 1...9999) or the time is not within the day.
    public init?(year: Int, month: Int, day: Int, nanosecondOfDay: Int64) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...GregorianCalendar.daysIn(month: month, year: year)).contains(day),
            (0..<86_400_000_000_000).contains(nanosecondOfDay)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.nanosecondOfDay = nanosecondOfDay
    }

    /// ISO 8601 in UTC, fractional seconds kept and trailing zeros dropped:
    /// `2019-07-01T12:34:56.24Z`.
    ///
    /// Written digit by digit into the string's own storage: every located record asks for it
    /// twice (its capture time and its JSON), and interpolating padded numbers took a dozen
    /// strings each time. The string is 20 to 30 bytes, so it is allocated; the command line,
    /// which only writes the text out, uses `withISO8601(_:)` (`package`), which allocates nothing.
    public var description: String {
        String(unsafeUninitializedCapacity: Self.longestText) { write(into: $0) }
    }

    /// The most bytes ``description`` has: 20, a point and nine digits of fraction.
    static let longestText = 30

    /// Calls `body` with the UTF-8 bytes of ``description``, written into temporary memory (on
    /// the stack) rather than a string.
    ///
    /// `package`: the bytes are valid only inside `body`, a borrowed-memory view the command line
    /// needs for its output and a library user does not.
    package func withISO8601<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &storage) { (raw) throws(Failure) -> Result in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = write(into: bytes)
            return try body(UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
    }

    /// Writes ``description``'s bytes at the start of `text` (at least ``longestText`` bytes) and
    /// returns how many.
    private func write(into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let seconds = Int(nanosecondOfDay / 1_000_000_000)
        return ISO8601Text.write(
            year: year, month: month, day: day, hour: seconds / 3600, minute: seconds / 60 % 60,
            second: seconds % 60, nanoseconds: Int(nanosecondOfDay % 1_000_000_000), offset: nil, into: text)
    }
}
