import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

// The records phototag writes: a photo's and a coordinate's. Their fields are listed in
// Fields.swift, and each format walks that list.

/// What the place lookup found for one point: where it is (``UnsafeLocation``: the country, region
/// and zone that contain it, the nearest place inside that country, the city a person would
/// name) and, with `--nearest k`, the k nearest places whatever their country.
struct PlaceResult: Sendable {
    /// The answer; `nil` without a lookup (`--no-place`, or no position).
    var location: UnsafeLocation?
    /// The k nearest (with `--nearest k`), nearest first; `nil` when not asked for.
    var nearby: [PlaceMatch]?

    static let none = PlaceResult()

    /// Whether a place was named.
    var found: Bool { location?.nearest != nil }

    /// The named place with its strings made.
    var nearest: PlaceMatch? { location?.nearest?.placeMatch }

    /// The time zone of the point: the zone that contains it (or the nearest place's, without
    /// boundaries).
    var timeZone: String? { location?.timeZone }

    /// The answer with its strings made, for text, CSV and the summary.
    var answer: PlaceAnswer? { location.map(PlaceAnswer.init) }
}

/// The warning of a position in no country.
let atSeaWarning = "the position is at sea: no country contains it"

/// One photo's record.
struct PhotoRecord: Sendable {
    /// The path as given or found, as bytes: in a scan, part of its batch's one array of paths
    /// (no array or string per file).
    var path: ArraySlice<UInt8>
    /// The sidecar file read with the photo (its position used, or compared), or the sidecar
    /// itself for a record of a sidecar alone; `nil` when there is none.
    var sidecar: String? = nil
    var reading: GPSReading
    var place = PlaceResult.none
    /// When the photo was taken (``CaptureTime``); `nil` when it has neither a DateTimeOriginal
    /// nor a GPS date and time.
    var time: CaptureTime? = nil
    /// How a track (or a photo nearby) placed the photo: set exactly when the position is theirs.
    var track: TrackMatch? = nil
    /// The capture time as the track was matched at it, when that was worked out from the
    /// camera's clock with a zone or a correction the photo does not carry (``TrackPlacer``):
    /// ``resolveTime()`` then uses it rather than the photo's own fields.
    var matchedTime: MatchedTime? = nil
    /// What `phototag tag` did with the photo's XMP sidecar; `nil` in other commands.
    var tagging: SidecarTagging? = nil

    /// The record of the file at `path` (bytes).
    init(path: ArraySlice<UInt8>, reading: GPSReading) {
        self.path = path
        self.reading = reading
    }

    /// The record of the file named `file`.
    init(file: String, reading: GPSReading) {
        self.init(path: ArraySlice(file.utf8), reading: reading)
    }

    /// The path shown, with U+FFFD where it is not valid UTF-8.
    var file: String { String(decoding: path, as: UTF8.self) }

    /// Calls `body` with the UTF-8 of ``file``: the path's own bytes when they are valid UTF-8
    /// (nearly always), with no string made; otherwise the text with U+FFFD's.
    func withFileUTF8<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        if let result = path.withUnsafeBytes({ bytes -> T? in isValidUTF8(bytes) ? body(bytes) : nil }) {
            return result
        }
        var text = file
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// ``withFileUTF8(_:)`` that hands `body` the record and `visitor` rather than letting it
    /// capture them: a closure that captured the record copied it (retaining all its strings).
    @inline(__always)
    func withFileUTF8<V>(
        visitor: inout V, _ body: (borrowing PhotoRecord, UnsafeRawBufferPointer, inout V) -> Void
    ) {
        let valid = path.withUnsafeBytes { isValidUTF8($0) }
        if valid {
            path.withUnsafeBytes { body(self, $0, &visitor) }
        } else {
            var text = file
            text.withUTF8 { body(self, UnsafeRawBufferPointer($0), &visitor) }
        }
    }

    /// The record's warnings as written: the GPS reading's, the place's (at sea), then the
    /// capture time's.
    var warnings: [String] {
        var warnings: [String] = []
        forEachWarning { warnings.append($0) }
        return warnings
    }

    /// Calls `body` with each of ``warnings``, in their order, without making the list.
    func forEachWarning(_ body: (String) -> Void) {
        for warning in reading.warnings { body(warning.description) }
        for warning in sidecarWarnings { body(warning) }
        for warning in trackWarnings { body(warning) }
        if place.location?.atSea == true { body(atSeaWarning) }
        for warning in time?.warnings ?? [] { body(warning.description) }
    }

    /// What pairing with sidecars adds: a sidecar that cannot be read, the position it filled
    /// in for, a disagreement of more than 100 m.
    var sidecarWarnings: [String] = []

    /// What matching with a track adds: why no position was found, a disagreement of more than
    /// 100 m with the photo's own position, a clock that fits the track twice.
    var trackWarnings: [String] = []

    /// Works out ``time`` from the camera's clock, the GPS time and ``PlaceResult/timeZone``,
    /// with the tz rules compiled into the binary (read only when there is a zone).
    ///
    /// The GPS time goes in as the instant it stands for, not as the text of its description to
    /// be parsed back.
    ///
    /// Where two zones overlap on purpose, the zone whose clocks agree with the photo's own offset
    /// becomes the place's (``CaptureTime/timeZone``): its name and local time are the answer.
    mutating func resolveTime() {
        let camera = reading.camera, zone = place.timeZone, otherZone = place.location?.otherTimeZone
        time = CaptureTime.resolve(
            dateTimeOriginal: matchedTime?.dateTimeOriginal ?? camera?.dateTimeOriginal,
            subSeconds: camera?.subSecTimeOriginal,
            offsetTimeOriginal: matchedTime?.offset ?? camera?.offsetTimeOriginal,
            offsetSource: matchedTime?.source ?? CaptureTime.OffsetSource(camera?.timeSource ?? .exif),
            gpsTime: reading.fix?.timestamp.map(\.instant),
            zone: zone, otherZone: otherZone, rules: zone == nil ? nil : BoundaryTable.bundled.rules)
        if let chosen = time?.timeZone, chosen == otherZone {
            place.location?.otherTimeZone = zone
            place.location?.timeZone = chosen
        }
    }
}

extension GPSTimestamp {
    /// The instant, as seconds since 1970-01-01T00:00:00Z and the nanoseconds of its second:
    /// what ``CaptureTime`` reads from the ``description`` (`2019-07-01T12:34:56.24Z`).
    var instant: (seconds: Int64, nanoseconds: Int) {
        let midnight = CivilDateTime(year: year, month: month, day: day).secondsSinceEpoch
        return (midnight + nanosecondOfDay / 1_000_000_000, Int(nanosecondOfDay % 1_000_000_000))
    }
}

/// One coordinate's record (`phototag geocode`).
struct CoordinateRecord: Sendable {
    var coordinate: Coordinate?
    var place = PlaceResult.none
    /// Why the input was rejected.
    var error: String? = nil
    /// The input line (standard input only).
    var line: Int? = nil
    /// The other columns of the line's row, when standard input is a table (``InputTable``).
    var input: InputValues? = nil
}

/// A record of either kind.
enum Record: Sendable {
    case photo(PhotoRecord)
    case coordinate(CoordinateRecord)
}

extension CaptureTime.OffsetSource {
    /// Where the camera time the offset came with was read.
    init(_ source: CameraInfo.TimeSource) {
        switch source {
        case .exif: self = .exif
        case .quicktime: self = .quicktime
        case .xmp: self = .xmp
        case .takeout: self = .takeout
        }
    }
}
