/// One timed position of a GPS track: a fix of a GPX or KML track, an NMEA or IGC record, a FIT
/// `record` message, a row of a CSV file, a point of a Google location history.
public struct TrackFix: Hashable, Sendable {
    /// The UTC instant, in seconds since 1970-01-01T00:00:00Z, with its fraction.
    public var time: Double
    /// Signed decimal degrees, north positive.
    public var latitude: Double
    /// Signed decimal degrees, east positive, in -180...180.
    public var longitude: Double
    /// Metres, as the file gives it (above the geoid or the ellipsoid); `nil` when it has none.
    public var altitude: Double?

    /// A fix at `time` (seconds since the Unix epoch, UTC).
    public init(time: Double, latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether the fix can be used: a time in the years 1 to 9999, a latitude in -90...90 and a
    /// longitude in -180...180, an altitude finite when given. Readers skip (and count) the others.
    public var isValid: Bool {
        Self.times.contains(time) && latitude.isFinite && longitude.isFinite && abs(latitude) <= 90
            && abs(longitude) <= 180 && (altitude?.isFinite ?? true)
    }

    /// The instants a fix may have: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (a time read as
    /// milliseconds where seconds were meant, or the reverse, falls outside).
    static let times = -62_135_596_800.0...253_402_300_799.0
}

/// What a track reader hands its fixes to, as it reads.
protocol TrackSink {
    /// A fix read (``TrackFix/isValid``: the reader checks).
    mutating func add(_ fix: TrackFix)
    /// A fix of a time span, numbered from 1 within its file (a KML `<TimeSpan>`'s begin and
    /// end): two fixes of one span are interpolated between however far apart they are, as
    /// ExifTool reads them.
    mutating func add(_ fix: TrackFix, span: Int)
    /// A point the reader skipped (no time, a position out of range, a field it cannot read),
    /// with the reason, such as `line 12: no time`. Skipped points are counted and the first
    /// reason is reported; the file is still read.
    mutating func skip(_ reason: String)
}

extension TrackSink {
    /// A sink that keeps no spans keeps the fix alone.
    mutating func add(_ fix: TrackFix, span: Int) { add(fix) }
}

/// A streaming reader of one track format. It is fed the file's bytes in order, in chunks of any
/// size (from one byte to megabytes), and never holds the whole file: what it keeps between
/// chunks is bounded (a partial line, token or record), whatever the file's size.
protocol TrackParser {
    /// Reads the next chunk. The chunk's memory is valid only during the call.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError)
    /// The end of the file: flushes what is pending, and throws when the file was cut short or
    /// was not of the format at all.
    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError)
}

/// Why a track file cannot be read: the whole file is refused (a file with some bad points is
/// read, and its bad points counted in its ``TrackFileReport``).
public struct TrackReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for a person, without the file's name: `not a GPX file: the root element is
    /// <html>`, `line 3: unterminated string`, `the FIT header's CRC is wrong`.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The ``message``.
    public var description: String { message }
}
