import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the place lookup found for one point: where it is (``Location``: the country, region
/// and zone that contain it, the nearest place inside that country, the city a person would
/// name) and, with `--nearest k`, the k nearest places whatever their country.
struct PlaceResult: Sendable {
    /// The answer; `nil` without a lookup (`--no-place`, or no position).
    var location: Location?
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

    /// ``withFileUTF8(_:)`` that hands `body` the record and `json` rather than letting it
    /// capture them: a closure that captured the record copied it (retaining all its strings).
    private func withFileUTF8(
        writingTo json: inout JSONWriter,
        _ body: (borrowing PhotoRecord, UnsafeRawBufferPointer, inout JSONWriter) -> Void
    ) {
        let valid = path.withUnsafeBytes { isValidUTF8($0) }
        if valid {
            path.withUnsafeBytes { body(self, $0, &json) }
        } else {
            var text = file
            text.withUTF8 { body(self, UnsafeRawBufferPointer($0), &json) }
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
        if place.location?.atSea == true { body(atSeaWarning) }
        for warning in time?.warnings ?? [] { body(warning.description) }
    }

    /// What pairing with sidecars adds: a sidecar that cannot be read, the position it filled
    /// in for, a disagreement of more than 100 m.
    var sidecarWarnings: [String] = []

    /// Works out ``time`` from the camera's clock, the GPS time and ``PlaceResult/timeZone``,
    /// with the tz rules compiled into the binary (read only when there is a zone).
    ///
    /// The GPS time goes in as the instant it stands for, not as the text of its description to
    /// be parsed back.
    mutating func resolveTime() {
        let camera = reading.camera, zone = place.timeZone
        time = CaptureTime.resolve(
            dateTimeOriginal: camera?.dateTimeOriginal, subSeconds: camera?.subSecTimeOriginal,
            offsetTimeOriginal: camera?.offsetTimeOriginal, gpsTime: reading.fix?.timestamp.map(\.instant),
            zone: zone, rules: zone == nil ? nil : BoundaryTable.bundled.rules)
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
}

/// A record of either kind.
enum Record: Sendable {
    case photo(PhotoRecord)
    case coordinate(CoordinateRecord)
}

extension PlaceOptions {
    /// Looks up where a coordinate is under these options (see ``PlaceLocator``).
    func lookUp(_ coordinate: Coordinate, in locator: PlaceLocator?) -> PlaceResult {
        guard !skip, let locator else { return .none }
        var result = PlaceResult(location: locator.locate(coordinate, filter: filter))
        if let nearest {
            result.nearby = locator.geocoder.nearestPlaces(to: coordinate, count: nearest, filter: filter)
        }
        return result
    }
}

// MARK: - JSON

extension PhotoRecord {
    /// Writes the record as one JSON object with the fixed keys, in the order README.md's
    /// "Output" section lists them (`nearby` only with `--nearest`).
    func write(to json: inout JSONWriter, nearby: Bool) {
        if !json.pretty, json.atTop { return writeCompact(to: &json, nearby: nearby) }
        json.beginObject()
        json.key("file")
        withFileUTF8 { json.string(utf8: $0) }
        json.key("sidecar")
        json.string(sidecar)
        json.key("status")
        json.string(reading.status.rawValue)
        json.key("gps")
        if let fix = reading.fix {
            json.beginObject()
            json.key("latitude")
            json.number(fix.latitude)
            json.key("longitude")
            json.number(fix.longitude)
            json.key("altitude")
            json.number(fix.altitude)
            json.key("timestamp")
            json.string(fix.timestamp?.description)
            json.key("direction")
            json.number(fix.direction)
            json.key("directionRef")
            json.string(fix.directionReference?.rawValue)
            json.key("speed")
            json.number(fix.speed)
            json.key("horizontalError")
            json.number(fix.horizontalError)
            json.key("datum")
            json.string(fix.mapDatum)
            json.key("source")
            json.string(fix.source.rawValue)
            json.endObject()
        } else {
            json.null()
        }
        json.key("place")
        writePlace(place.location, to: &json)
        if nearby {
            json.key("nearby")
            writeNearby(place.nearby, to: &json)
        }
        json.key("camera")
        if let camera = reading.camera {
            json.beginObject()
            json.key("make")
            json.string(camera.make)
            json.key("model")
            json.string(camera.model)
            json.key("dateTimeOriginal")
            json.string(camera.dateTimeOriginal)
            json.key("offsetTimeOriginal")
            json.string(camera.offsetTimeOriginal)
            json.endObject()
        } else {
            json.null()
        }
        json.key("time")
        if let time {
            json.beginObject()
            json.key("utc")
            json.string(time.utc)
            json.key("local")
            json.string(time.local)
            json.key("offsetSource")
            json.string(time.offsetSource?.rawValue)
            json.endObject()
        } else {
            json.null()
        }
        json.key("warnings")
        json.beginArray()
        for warning in warnings { json.string(warning) }
        json.endArray()
        json.key("error")
        json.string(reading.error?.description)
        json.endObject()
    }
}

extension PhotoRecord {
    /// ``write(to:nearby:)`` on one line, as a value of its own (NDJSON): the same text, its keys
    /// written as literals with their punctuation, in three pieces with one capacity check each
    /// (before the place, the place, after it). Nothing is open around it, so the pieces need no
    /// separators from the writer.
    private func writeCompact(to json: inout JSONWriter, nearby: Bool) {
        // The GPS time's text is written on the stack, not made a string.
        if let timestamp = reading.fix?.timestamp {
            timestamp.withISO8601 { writeCompactHead(timestamp: UnsafeRawBufferPointer($0), to: &json) }
        } else {
            writeCompactHead(timestamp: nil, to: &json)
        }
        writePlace(place.location, to: &json)
        if nearby {
            json.piece(atMost: 16) { $0.raw(",\"nearby\":") }
            writeNearby(place.nearby, to: &json)
        }
        writeCompactTail(to: &json)
    }

    /// The first piece of ``writeCompact(to:nearby:)``, up to the `place` key; `timestamp` is
    /// the text of the GPS time.
    private func writeCompactHead(timestamp: UnsafeRawBufferPointer?, to json: inout JSONWriter) {
        withFileUTF8(writingTo: &json) { record, file, json in
            record.writeCompactHead(file: file, timestamp: timestamp, to: &json)
        }
    }

    /// ``writeCompactHead(timestamp:to:)`` with the UTF-8 of ``file``.
    private func writeCompactHead(
        file: UnsafeRawBufferPointer, timestamp: UnsafeRawBufferPointer?, to json: inout JSONWriter
    ) {
        let fix = reading.fix
        // The keys and punctuation of the first piece take under 200 bytes.
        var room = 256 + JSONCursor.room(file) + JSONCursor.room(sidecar) + JSONCursor.room(reading.status.rawValue)
        if let fix {
            room += 6 * JSONCursor.numberRoom + JSONCursor.room(timestamp)
            room += JSONCursor.room(fix.directionReference?.rawValue) + JSONCursor.room(fix.mapDatum)
            room += JSONCursor.room(fix.source.rawValue)
        }
        json.piece(atMost: room) { out in
            out.raw("{\"file\":")
            out.string(file)
            out.raw(",\"sidecar\":")
            out.string(sidecar)
            out.raw(",\"status\":")
            out.string(reading.status.rawValue)
            out.raw(",\"gps\":")
            if let fix {
                out.raw("{\"latitude\":")
                out.number(fix.latitude)
                out.raw(",\"longitude\":")
                out.number(fix.longitude)
                out.raw(",\"altitude\":")
                out.number(fix.altitude)
                out.raw(",\"timestamp\":")
                out.string(timestamp)
                out.raw(",\"direction\":")
                out.number(fix.direction)
                out.raw(",\"directionRef\":")
                out.string(fix.directionReference?.rawValue)
                out.raw(",\"speed\":")
                out.number(fix.speed)
                out.raw(",\"horizontalError\":")
                out.number(fix.horizontalError)
                out.raw(",\"datum\":")
                out.string(fix.mapDatum)
                out.raw(",\"source\":")
                out.string(fix.source.rawValue)
                out.raw("}")
            } else {
                out.raw("null")
            }
            out.raw(",\"place\":")
        }
    }

    /// The last piece of ``writeCompact(to:nearby:)``, from the `camera` key.
    private func writeCompactTail(to json: inout JSONWriter) {
        // The capture time's texts are written on the stack, not made strings.
        guard let time else { return writeCompactTail(utc: nil, local: nil, to: &json) }
        time.withTexts { utc, local in writeCompactTail(utc: utc, local: local, to: &json) }
    }

    /// ``writeCompactTail(to:)`` with the texts of the capture time.
    private func writeCompactTail(
        utc: UnsafeRawBufferPointer?, local: UnsafeRawBufferPointer?, to json: inout JSONWriter
    ) {
        let camera = reading.camera
        // The keys and punctuation of this piece take under 200 bytes.
        var room = 256
        if let camera {
            room += JSONCursor.room(camera.make) + JSONCursor.room(camera.model)
            room += JSONCursor.room(camera.dateTimeOriginal) + JSONCursor.room(camera.offsetTimeOriginal)
        }
        if let time {
            room += JSONCursor.room(utc) + JSONCursor.room(local)
            room += JSONCursor.room(time.offsetSource?.rawValue)
        }
        json.piece(atMost: room) { out in
            out.raw(",\"camera\":")
            if let camera {
                out.raw("{\"make\":")
                out.string(camera.make)
                out.raw(",\"model\":")
                out.string(camera.model)
                out.raw(",\"dateTimeOriginal\":")
                out.string(camera.dateTimeOriginal)
                out.raw(",\"offsetTimeOriginal\":")
                out.string(camera.offsetTimeOriginal)
                out.raw("}")
            } else {
                out.raw("null")
            }
            out.raw(",\"time\":")
            if let time {
                out.raw("{\"utc\":")
                out.string(utc)
                out.raw(",\"local\":")
                out.string(local)
                out.raw(",\"offsetSource\":")
                out.string(time.offsetSource?.rawValue)
                out.raw("}")
            } else {
                out.raw("null")
            }
            out.raw(",\"warnings\":[")
        }
        // Each warning a piece of its own, as it is made: no list of them.
        var first = true
        forEachWarning { warning in
            json.piece(atMost: 1 + JSONCursor.room(warning)) { out in
                if !first { out.raw(",") }
                out.string(warning)
            }
            first = false
        }
        let error = reading.error?.description
        json.piece(atMost: 32 + JSONCursor.room(error)) { out in
            out.raw("],\"error\":")
            out.string(error)
            out.raw("}")
        }
    }
}

extension CoordinateRecord {
    /// Writes the record as `{latitude, longitude, place, [nearby], warnings, error, line}`.
    func write(to json: inout JSONWriter, nearby: Bool) {
        if !json.pretty, json.atTop { return writeCompact(to: &json, nearby: nearby) }
        json.beginObject()
        json.key("latitude")
        json.number(coordinate?.latitude)
        json.key("longitude")
        json.number(coordinate?.longitude)
        json.key("place")
        writePlace(place.location, to: &json)
        if nearby {
            json.key("nearby")
            writeNearby(place.nearby, to: &json)
        }
        json.key("warnings")
        json.beginArray()
        if place.location?.atSea == true { json.string(atSeaWarning) }
        json.endArray()
        json.key("error")
        json.string(error)
        json.key("line")
        json.integer(line)
        json.endObject()
    }
}

extension CoordinateRecord {
    /// ``write(to:nearby:)`` on one line, as a value of its own (NDJSON): the same text, its
    /// keys written as literals with their punctuation. Nothing is open around it, so the
    /// pieces need no separators from the writer.
    private func writeCompact(to json: inout JSONWriter, nearby: Bool) {
        Self.writeCompactHead(coordinate, to: &json)
        writePlace(place.location, to: &json)
        if nearby {
            json.piece(atMost: 16) { $0.raw(",\"nearby\":") }
            writeNearby(place.nearby, to: &json)
        }
        Self.writeCompactTail(atSea: place.location?.atSea == true, error: error, line: line, to: &json)
    }

    /// ``writeCompact(to:nearby:)`` of a point that was looked up, without `nearby`, from its
    /// parts: `geocode` writes each point as soon as it is looked up rather than making a record
    /// and copying it (a ``Location`` holds strings, and each copy retains them).
    ///
    /// - Parameter fragments: the cached text of the places written lately (see
    ///   ``PlaceFragments``), for the geocoder that gave `location`.
    static func writeCompact(
        coordinate: Coordinate, location: borrowing Location, line: Int?, fragments: PlaceFragments? = nil,
        to json: inout JSONWriter
    ) {
        writeCompactHead(coordinate, to: &json)
        writePlace(location, fragments: fragments, to: &json)
        writeCompactTail(atSea: location.atSea, error: nil, line: line, to: &json)
    }

    /// ``atSeaWarning`` as a JSON string, a literal: the compact tail writes it with one copy,
    /// where the `String` was retained, released and scanned for escapes in every record.
    static var atSeaWarningJSON: StaticString { "\"the position is at sea: no country contains it\"" }

    /// The start of a compact record, up to the `place` key.
    private static func writeCompactHead(_ coordinate: Coordinate?, to json: inout JSONWriter) {
        json.piece(atMost: 64 + 2 * JSONCursor.numberRoom) { out in
            out.raw("{\"latitude\":")
            out.number(coordinate?.latitude)
            out.raw(",\"longitude\":")
            out.number(coordinate?.longitude)
            out.raw(",\"place\":")
        }
    }

    /// The end of a compact record, from `warnings`.
    private static func writeCompactTail(atSea: Bool, error: String?, line: Int?, to json: inout JSONWriter) {
        let room = 64 + JSONCursor.numberRoom + JSONCursor.room(error) + Self.atSeaWarningJSON.utf8CodeUnitCount
        json.piece(atMost: room) { out in
            out.raw(",\"warnings\":[")
            if atSea { out.raw(Self.atSeaWarningJSON) }
            out.raw("],\"error\":")
            out.string(error)
            out.raw(",\"line\":")
            out.integer(line)
            out.raw("}")
        }
    }
}

/// Writes the `place` object of a record, its text copied from the tables' bytes: the named
/// place's fields, with the country, region and zone of the ``Location`` (which may differ from
/// the named place's own, across a border or at sea), then `city` and `basis`. `null` without a
/// lookup, or when neither a place nor a country was found.
func writePlace(_ location: Location?, to json: inout JSONWriter) {
    guard let location else { return json.null() }
    writePlace(location, to: &json)
}

/// ``writePlace(_:to:)-(Location?,_)`` of a lookup's answer.
///
/// - Parameter fragments: on one line, the cached text of the places written lately (see
///   ``PlaceFragments``), for the geocoder that gave `location`.
func writePlace(_ location: borrowing Location, fragments: PlaceFragments? = nil, to json: inout JSONWriter) {
    guard location.nearest != nil || location.countryCode != nil else { return json.null() }
    if !json.pretty { return writeCompactPlace(location, fragments: fragments, to: &json) }
    let named = location.nearest.map { ($0.view.fields, $0.distanceKm, $0.bearing) }
    json.beginObject()
    json.key("geonameId")
    json.integer(named?.0.geonameId)
    json.key("name")
    json.string(utf8: named?.0.name)
    json.key("asciiName")
    json.string(utf8: named?.0.asciiName)
    json.key("admin1")
    json.string(utf8: location.admin1)
    json.key("admin1Code")
    json.string(location.admin1Code)
    json.key("admin2")
    json.string(utf8: location.admin2)
    json.key("countryCode")
    json.string(location.countryCode)
    json.key("country")
    json.string(utf8: location.country)
    json.key("timezone")
    json.string(location.timeZone)
    json.key("population")
    json.integer(named?.0.population)
    json.key("featureCode")
    json.string(utf8: named?.0.featureCode)
    json.key("latitude")
    json.number(named?.0.latitude)
    json.key("longitude")
    json.number(named?.0.longitude)
    json.key("distanceKm")
    if let named { json.metres(named.1) } else { json.null() }
    json.key("bearing")
    json.integer(named.map { roundedBearing($0.2) })
    json.key("city")
    if let city = location.city {
        let fields = city.view.fields
        json.beginObject()
        json.key("geonameId")
        json.integer(fields.geonameId)
        json.key("name")
        json.string(utf8: fields.name)
        json.key("population")
        json.integer(fields.population)
        json.key("distanceKm")
        json.metres(city.distanceKm)
        json.endObject()
    } else {
        json.null()
    }
    json.key("basis")
    json.string(location.basis.rawValue)
    json.endObject()
}

/// ``writePlace(_:to:)-(Location?,_)`` on one line: the same text, written as literal keys with
/// their punctuation and the values between them, with one capacity check for the whole object.
///
/// The named place's and the city's fields are read into locals of their own first: the body
/// then reads scalars, where optional chaining into the whole ``PlaceView/Fields`` (about 200
/// bytes) copied it once for each field it wrote.
///
/// What depends on the named place alone (its ``PlaceFragments/Entry``) is copied from
/// `fragments` when the place is there, and kept there when it is not.
private func writeCompactPlace(_ location: borrowing Location, fragments: PlaceFragments?, to json: inout JSONWriter) {
    var geonameId: Int? = nil, population: Int? = nil, bearing: Int? = nil
    var name: UnsafeRawBufferPointer? = nil, asciiName: UnsafeRawBufferPointer? = nil
    var featureCode: UnsafeRawBufferPointer? = nil
    var latitude: Double? = nil, longitude: Double? = nil, distanceKm: Double? = nil
    // The named place's cached text, or its slot to cache it under (-1: none, or no cache).
    var cached: PlaceFragments.Entry? = nil, slot = -1
    if let nearest = location.nearest {
        distanceKm = nearest.distanceKm
        bearing = roundedBearing(nearest.bearing)
        if let fragments { cached = fragments.entry(nearest.view.slot) }
        if cached == nil {
            if fragments != nil { slot = nearest.view.slot }
            let own = nearest.view.ownFields
            (geonameId, name, asciiName, population) = (own.geonameId, own.name, own.asciiName, own.population)
            (featureCode, latitude, longitude) = (own.featureCode, own.latitude, own.longitude)
        }
    }
    var city: (geonameId: Int, name: UnsafeRawBufferPointer, population: Int, distanceKm: Double)? = nil
    if let match = location.city {
        let own = match.view.ownFields
        city = (own.geonameId, own.name, own.population, match.distanceKm)
    }
    let admin1 = location.admin1, admin2 = location.admin2, country = location.country, basis = location.basis
    // The keys, the punctuation and the basis take under 300 bytes (32 more to spare), and there
    // are nine numbers.
    var room = 332 + 9 * JSONCursor.numberRoom
    if let cached {
        room += cached.head.count + cached.middle.count
    } else {
        room += JSONCursor.room(name) + JSONCursor.room(asciiName) + JSONCursor.room(featureCode)
    }
    room += JSONCursor.room(admin1) + JSONCursor.room(location.admin1Code) + JSONCursor.room(admin2)
    room += JSONCursor.room(location.countryCode) + JSONCursor.room(country)
    room += JSONCursor.room(location.timeZone) + JSONCursor.room(city?.name)
    json.piece(atMost: room) { out in
        let headStart = out.at
        if let cached {
            out.copy(cached.head)
        } else {
            out.raw("{\"geonameId\":")
            out.integer(geonameId)
            out.raw(",\"name\":")
            out.string(name)
            out.raw(",\"asciiName\":")
            out.string(asciiName)
            out.raw(",\"admin1\":")
        }
        let headEnd = out.at
        out.string(admin1)
        out.raw(",\"admin1Code\":")
        out.string(location.admin1Code)
        out.raw(",\"admin2\":")
        out.string(admin2)
        out.raw(",\"countryCode\":")
        out.string(location.countryCode)
        out.raw(",\"country\":")
        out.string(country)
        out.raw(",\"timezone\":")
        out.string(location.timeZone)
        let middleStart = out.at
        if let cached {
            out.copy(cached.middle)
        } else {
            out.raw(",\"population\":")
            out.integer(population)
            out.raw(",\"featureCode\":")
            out.string(featureCode)
            out.raw(",\"latitude\":")
            out.number(latitude)
            out.raw(",\"longitude\":")
            out.number(longitude)
            out.raw(",\"distanceKm\":")
            if slot >= 0, let fragments {
                fragments.keep(
                    slot, head: UnsafeRawBufferPointer(start: headStart, count: headEnd - headStart),
                    middle: UnsafeRawBufferPointer(start: middleStart, count: out.at - middleStart))
            }
        }
        if let distanceKm { out.metres(distanceKm) } else { out.raw("null") }
        out.raw(",\"bearing\":")
        out.integer(bearing)
        if let city {
            out.raw(",\"city\":{\"geonameId\":")
            out.integer(city.geonameId)
            out.raw(",\"name\":")
            out.string(city.name)
            out.raw(",\"population\":")
            out.integer(city.population)
            out.raw(",\"distanceKm\":")
            out.metres(city.distanceKm)
            out.raw("}")
        } else {
            out.raw(",\"city\":null")
        }
        // The basis's raw value, as a literal (no `String` made).
        switch basis {
        case .boundaries: out.raw(",\"basis\":\"boundaries\"}")
        case .nearest: out.raw(",\"basis\":\"nearest\"}")
        }
    }
}

/// The text of a named place's compact `place` object that depends on the place alone, for the
/// places written lately, by slot: `geocode` writes millions of places, nearby points name the
/// same ones (at sea, the nearest places of a whole ocean are a few hundred on its shores), and
/// the place's numbers (its coordinates above all) were most of the cost of writing it.
///
/// Each place has two pieces: the head, `{"geonameId":…,"name":…,"asciiName":…,"admin1":`, and
/// the middle, `,"population":…,"featureCode":…,"latitude":…,"longitude":…,"distanceKm":`
/// (the point's own fields go between and after them). They are kept in a direct-mapped table
/// of fixed-size entries (a slot goes to entry `slot % capacity`; neighbouring places have
/// neighbouring slots), each marked with its slot, so a place is only ever read back from an
/// entry that was written for it. Places whose text does not fit an entry are not kept.
///
/// A table serves one geocoder (slots are its table's) and one thread at a time (`geocode`
/// keeps one per part of a batch, with the part's output buffer).
final class PlaceFragments {
    /// A place's two pieces, in the table's memory (valid until the entry is written again).
    struct Entry {
        let head: UnsafeRawBufferPointer
        let middle: UnsafeRawBufferPointer
    }

    /// Bytes per entry: the slot plus one (8 bytes; 0 marks an empty entry), the lengths of the
    /// two pieces (2 bytes each, then 4 unused) and the pieces themselves.
    static let entrySize = 256
    private static let textOffset = 16

    /// How many entries (a power of two).
    let capacity: Int
    private let storage: UnsafeMutableRawPointer

    /// - Parameter capacity: how many entries, a power of two. The default, 16,384 entries
    ///   (4 MiB, zeroed pages that are only backed once written), kept about 80% of the places of
    ///   the benchmark's million random points: a place written once is often written again.
    init(capacity: Int = 16384) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "a capacity of \(capacity)")
        self.capacity = capacity
        guard let storage = calloc(capacity, Self.entrySize) else {
            preconditionFailure("no memory for \(capacity) places' text")
        }
        self.storage = storage
    }

    deinit { free(storage) }

    @inline(__always)
    private func address(_ slot: Int) -> UnsafeMutableRawPointer { storage + (slot & (capacity - 1)) * Self.entrySize }

    /// The pieces of the place at `slot`, when they are kept.
    @inline(__always)
    func entry(_ slot: Int) -> Entry? {
        let entry = address(slot)
        guard entry.load(as: UInt64.self) == UInt64(truncatingIfNeeded: slot &+ 1) else { return nil }
        let head = Int(entry.load(fromByteOffset: 8, as: UInt16.self))
        let middle = Int(entry.load(fromByteOffset: 10, as: UInt16.self))
        let text = UnsafeRawPointer(entry + Self.textOffset)
        return Entry(
            head: UnsafeRawBufferPointer(start: text, count: head),
            middle: UnsafeRawBufferPointer(start: text + head, count: middle))
    }

    /// Keeps the pieces of the place at `slot` (when they fit an entry), in place of whatever
    /// place the entry held.
    func keep(_ slot: Int, head: UnsafeRawBufferPointer, middle: UnsafeRawBufferPointer) {
        guard slot >= 0, let headBytes = head.baseAddress, let middleBytes = middle.baseAddress,
            head.count + middle.count <= Self.entrySize - Self.textOffset
        else { return }
        let entry = address(slot), text = entry + Self.textOffset
        text.copyMemory(from: headBytes, byteCount: head.count)
        (text + head.count).copyMemory(from: middleBytes, byteCount: middle.count)
        entry.storeBytes(of: UInt16(head.count), toByteOffset: 8, as: UInt16.self)
        entry.storeBytes(of: UInt16(middle.count), toByteOffset: 10, as: UInt16.self)
        entry.storeBytes(of: UInt64(truncatingIfNeeded: slot &+ 1), as: UInt64.self)
    }
}

/// Writes a place of `nearby`: the nearest place's own fields, as the `place` object has them
/// (without `city` and `basis`, which belong to the point).
func writePlace(_ match: PlaceMatch, to json: inout JSONWriter) {
    writePlaceObject(match.place, distanceKm: match.distanceKm, bearing: match.bearing, to: &json)
}

/// A `nearby` place object.
private func writePlaceObject(_ place: Place, distanceKm: Double, bearing: Double, to json: inout JSONWriter) {
    json.beginObject()
    json.key("geonameId")
    json.integer(place.geonameId)
    json.key("name")
    json.string(place.name)
    json.key("asciiName")
    json.string(place.asciiName)
    json.key("admin1")
    json.string(place.admin1)
    json.key("admin1Code")
    json.string(place.admin1Code)
    json.key("admin2")
    json.string(place.admin2)
    json.key("countryCode")
    json.string(place.countryCode)
    json.key("country")
    json.string(place.country)
    json.key("timezone")
    json.string(place.timeZone)
    json.key("population")
    json.integer(place.population)
    json.key("featureCode")
    json.string(place.featureCode)
    json.key("latitude")
    json.number(place.latitude)
    json.key("longitude")
    json.number(place.longitude)
    json.key("distanceKm")
    json.metres(distanceKm)
    json.key("bearing")
    json.integer(roundedBearing(bearing))
    json.endObject()
}

private func writeNearby(_ matches: [PlaceMatch]?, to json: inout JSONWriter) {
    guard let matches else { return json.null() }
    json.beginArray()
    for match in matches { writePlace(match, to: &json) }
    json.endArray()
}

// MARK: - GeoJSON properties

extension PhotoRecord {
    /// Writes the record as flat GeoJSON `properties`, for GIS tools: the CSV columns
    /// (``CSVColumns/photo``), by the same names in the same order, with JSON types (numbers as
    /// numbers, `null` when absent, `warnings` joined by `; ` or `null`); with `--nearest`, the
    /// nearby places follow the place as `nearby_1_name`… `nearby_K_bearing`.
    func writeProperties(to json: inout JSONWriter, nearby: Bool) {
        let fix = reading.fix
        let camera = reading.camera
        var names = CSVColumns.photo.makeIterator()
        func key() { json.key(named: names.next() ?? "") }
        json.beginObject()
        key()
        withFileUTF8 { json.string(utf8: $0) }
        key()
        json.string(sidecar)
        key()
        json.string(reading.status.rawValue)
        key()
        json.number(fix?.latitude)
        key()
        json.number(fix?.longitude)
        key()
        json.number(fix?.altitude)
        key()
        json.string(fix?.timestamp?.description)
        key()
        json.number(fix?.direction)
        key()
        json.string(fix?.directionReference?.rawValue)
        key()
        json.number(fix?.speed)
        key()
        json.number(fix?.horizontalError)
        key()
        json.string(fix?.mapDatum)
        key()
        json.string(fix?.source.rawValue)
        for _ in CSVColumns.place { _ = names.next() }
        writeFlatPlace(place.location, to: &json)
        if nearby { writeFlatNearby(place.nearby, to: &json) }
        key()
        json.string(camera?.make)
        key()
        json.string(camera?.model)
        key()
        json.string(camera?.dateTimeOriginal)
        key()
        json.string(camera?.offsetTimeOriginal)
        key()
        json.string(time?.utc)
        key()
        json.string(time?.local)
        key()
        json.string(time?.offsetSource?.rawValue)
        let warnings = warnings
        key()
        json.string(warnings.isEmpty ? nil : warnings.joined(separator: "; "))
        key()
        json.string(reading.error?.description)
        json.endObject()
    }
}

extension CoordinateRecord {
    /// Writes the record as flat GeoJSON `properties`: the CSV columns
    /// (``CSVColumns/coordinate``) with JSON types, as ``PhotoRecord/writeProperties(to:nearby:)``.
    func writeProperties(to json: inout JSONWriter, nearby: Bool) {
        var names = CSVColumns.coordinate.makeIterator()
        func key() { json.key(named: names.next() ?? "") }
        json.beginObject()
        key()
        json.number(coordinate?.latitude)
        key()
        json.number(coordinate?.longitude)
        for _ in CSVColumns.place { _ = names.next() }
        writeFlatPlace(place.location, to: &json)
        if nearby { writeFlatNearby(place.nearby, to: &json) }
        key()
        json.string(place.location?.atSea == true ? atSeaWarning : nil)
        key()
        json.string(error)
        key()
        json.integer(line)
        json.endObject()
    }
}

/// Writes the place as flat properties named as ``CSVColumns/place``, all `null` without one.
private func writeFlatPlace(_ location: Location?, to json: inout JSONWriter) {
    var names = CSVColumns.place.makeIterator()
    func key() { json.key(named: names.next() ?? "") }
    guard let location, location.nearest != nil || location.countryCode != nil else {
        for _ in CSVColumns.place {
            key()
            json.null()
        }
        return
    }
    let named = location.nearest.map { ($0.view.fields, $0.distanceKm, $0.bearing) }
    let city = location.city.map { ($0.view.fields, $0.distanceKm) }
    key()
    json.integer(named?.0.geonameId)
    key()
    json.string(utf8: named?.0.name)
    key()
    json.string(utf8: named?.0.asciiName)
    key()
    json.string(utf8: location.admin1)
    key()
    json.string(location.admin1Code)
    key()
    json.string(utf8: location.admin2)
    key()
    json.string(location.countryCode)
    key()
    json.string(utf8: location.country)
    key()
    json.string(location.timeZone)
    key()
    json.integer(named?.0.population)
    key()
    json.string(utf8: named?.0.featureCode)
    key()
    json.number(named?.0.latitude)
    key()
    json.number(named?.0.longitude)
    key()
    if let named { json.metres(named.1) } else { json.null() }
    key()
    json.integer(named.map { roundedBearing($0.2) })
    key()
    json.integer(city?.0.geonameId)
    key()
    json.string(utf8: city?.0.name)
    key()
    json.integer(city?.0.population)
    key()
    if let city { json.metres(city.1) } else { json.null() }
    key()
    json.string(location.basis.rawValue)
}

/// With `--nearest K`: the places found, nearest first, as `nearby_1_geoname_id`… (the CSV's
/// ``CSVColumns/nearbyFields``).
private func writeFlatNearby(_ matches: [PlaceMatch]?, to json: inout JSONWriter) {
    for (index, match) in (matches ?? []).enumerated() {
        var names = CSVColumns.nearbyFields.makeIterator()
        func key() { json.key(named: "nearby_\(index + 1)_" + (names.next() ?? "")) }
        key()
        json.integer(match.place.geonameId)
        key()
        json.string(match.place.name)
        key()
        json.string(match.place.admin1)
        key()
        json.string(match.place.countryCode)
        key()
        json.metres(match.distanceKm)
        key()
        json.integer(roundedBearing(match.bearing))
    }
}

// MARK: - CSV

/// The CSV header: the record's fields flattened, in the order of the JSON keys.
enum CSVColumns {
    static let place = [
        "place_geoname_id", "place_name", "place_ascii_name", "place_admin1", "place_admin1_code", "place_admin2",
        "place_country_code", "place_country", "place_timezone", "place_population", "place_feature_code",
        "place_latitude", "place_longitude", "place_distance_km", "place_bearing", "place_city_geoname_id",
        "place_city_name", "place_city_population", "place_city_distance_km", "place_basis",
    ]
    /// A photo's columns before `place` (its file and GPS) and after it (camera, capture time,
    /// problems).
    private static let photoFile = [
        "file", "sidecar", "status", "latitude", "longitude", "altitude", "timestamp", "direction", "direction_ref",
        "speed",
        "horizontal_error", "datum", "source",
    ]
    private static let photoCamera = [
        "make", "model", "date_time_original", "offset_time_original", "time_utc", "time_local",
        "time_offset_source", "warnings", "error",
    ]
    static let photo = photoFile + place + photoCamera
    static let coordinate = ["latitude", "longitude"] + place + ["warnings", "error", "line"]

    /// The fields given for each nearby place: fewer than for `place`, as there are k of them.
    static let nearbyFields = ["geoname_id", "name", "admin1", "country_code", "distance_km", "bearing"]

    /// `nearby_1_geoname_id` … `nearby_k_bearing`: the k nearest places (`--nearest k`),
    /// nearest first, as the `nearby` array of JSON.
    static func nearby(_ count: Int) -> [String] {
        (0..<count).flatMap { index in nearbyFields.map { "nearby_\(index + 1)_\($0)" } }
    }

    /// A photo record's columns, with those of `nearby` places after `place`.
    static func photo(nearby count: Int) -> [String] {
        photoFile + place + nearby(count) + photoCamera
    }

    /// A coordinate record's columns, with those of `nearby` places after `place`.
    static func coordinate(nearby count: Int) -> [String] {
        ["latitude", "longitude"] + place + nearby(count) + ["warnings", "error", "line"]
    }
}

extension PhotoRecord {
    var csvFields: [String?] { csvFields(nearby: 0) }

    /// The fields of ``CSVColumns/photo(nearby:)``, for `count` nearby places.
    func csvFields(nearby count: Int) -> [String?] {
        let fix = reading.fix
        let camera = reading.camera
        return [
            file, sidecar, reading.status.rawValue, number(fix?.latitude), number(fix?.longitude),
            number(fix?.altitude),
            fix?.timestamp?.description, number(fix?.direction), fix?.directionReference?.rawValue,
            number(fix?.speed), number(fix?.horizontalError), fix?.mapDatum, fix?.source.rawValue,
        ] + placeFields(place.answer) + nearbyFields(place.nearby, count: count) + [
            camera?.make, camera?.model, camera?.dateTimeOriginal, camera?.offsetTimeOriginal, time?.utc,
            time?.local, time?.offsetSource?.rawValue, warnings.joined(separator: "; "), reading.error?.description,
        ]
    }
}

extension CoordinateRecord {
    var csvFields: [String?] { csvFields(nearby: 0) }

    /// The fields of ``CSVColumns/coordinate(nearby:)``, for `count` nearby places.
    func csvFields(nearby count: Int) -> [String?] {
        [number(coordinate?.latitude), number(coordinate?.longitude)] + placeFields(place.answer)
            + nearbyFields(place.nearby, count: count) + [
                place.location?.atSea == true ? atSeaWarning : "", error, line.map(String.init),
            ]
    }
}

private func number(_ value: Double?) -> String? { value.map(\.description) }

private func placeFields(_ answer: PlaceAnswer?) -> [String?] {
    guard let answer, answer.nearest != nil || answer.countryCode != nil else {
        return Array(repeating: nil, count: CSVColumns.place.count)
    }
    let named = answer.nearest
    let place = named?.place
    let city = answer.city
    return [
        place.map { String($0.geonameId) }, place?.name, place?.asciiName, answer.admin1, answer.admin1Code,
        answer.admin2, answer.countryCode, answer.country, answer.timeZone, place.map { String($0.population) },
        place?.featureCode, place?.latitude.description, place?.longitude.description,
        named.map { roundedDistance($0.distanceKm).description }, named.map { String(roundedBearing($0.bearing)) },
        city.map { String($0.place.geonameId) }, city?.place.name, city.map { String($0.place.population) },
        city.map { roundedDistance($0.distanceKm).description }, answer.basis.rawValue,
    ]
}

/// The fields of `count` nearby places, empty where fewer were found.
private func nearbyFields(_ matches: [PlaceMatch]?, count: Int) -> [String?] {
    (0..<count).flatMap { index -> [String?] in
        guard let matches, index < matches.count else {
            return Array(repeating: nil, count: CSVColumns.nearbyFields.count)
        }
        let match = matches[index]
        return [
            String(match.place.geonameId), match.place.name, match.place.admin1, match.place.countryCode,
            roundedDistance(match.distanceKm).description, String(roundedBearing(match.bearing)),
        ]
    }
}

/// One CSV row (RFC 4180): fields quoted when they hold a comma, quote, CR or LF, quotes
/// doubled, CRLF at the end; `nil` is an empty field.
func csvRow(_ fields: [String?]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, field) in fields.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        guard let field else { continue }
        let utf8 = field.utf8
        if utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
            bytes.append(0x22)
            for byte in utf8 {
                bytes.append(byte)
                if byte == 0x22 { bytes.append(0x22) }
            }
            bytes.append(0x22)
        } else {
            bytes += utf8
        }
    }
    bytes += [0x0D, 0x0A]
    return bytes
}

// MARK: - Numbers and labels shared by the formats

/// Distances are given to the metre: `0.724`.
func roundedDistance(_ km: Double) -> Double { (km * 1000).rounded() / 1000 }

/// Bearings are given in whole degrees, `0...359`.
func roundedBearing(_ degrees: Double) -> Int { Int(degrees.rounded()) % 360 }

/// The eight compass points, for a bearing in degrees.
func compassPoint(_ degrees: Double) -> String {
    ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][Int((degrees / 45).rounded()) % 8]
}

/// `Paris, Île-de-France, FR — 4.0 km W`: the place, and where the point lies from it; under
/// ``closeByKm`` (`0.0 km`), no compass point, since the bearing of a few metres says nothing.
func placeLabel(_ match: PlaceMatch) -> String {
    let place = match.place
    let parts = [place.name, place.admin1, place.countryCode].compactMap { $0 }.filter { !$0.isEmpty }
    let direction = match.distanceKm < closeByKm ? "" : " " + compassPoint(match.bearing)
    return parts.joined(separator: ", ") + " — \(fixed(match.distanceKm, 1)) km" + direction
}

/// How text names where a point is: `Passy, Paris, Île-de-France, FR — 1.4 km SE`, the named
/// place, the city when it is another place, the region and country that contain the point, and
/// where the point lies from the named place; at sea, the nearest place with its own region and
/// country, then `(at sea)`. `nil` when no place is named.
func placeLabel(_ answer: PlaceAnswer) -> String? {
    guard let named = answer.nearest else { return nil }
    var parts = [named.place.name]
    if let city = answer.distinctCity { parts.append(city.place.name) }
    if answer.atSea {
        parts += [named.place.admin1, named.place.countryCode].compactMap { $0 }
    } else {
        parts += [answer.admin1, answer.countryCode].compactMap { $0 }
    }
    let direction = named.distanceKm < closeByKm ? "" : " " + compassPoint(named.bearing)
    return parts.filter { !$0.isEmpty }.joined(separator: ", ") + " — \(fixed(named.distanceKm, 1)) km" + direction
        + (answer.atSea ? " (at sea)" : "")
}

/// `Île-de-France, FR`: the region and country that contain a point no place is named for.
func regionLabel(_ answer: PlaceAnswer) -> String? {
    let parts = [answer.admin1, answer.countryCode].compactMap { $0 }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
}

/// Under this distance (50 m, which text rounds to `0.0 km`), text gives no direction.
let closeByKm = 0.05

/// `value` rounded to `digits` decimals, without exponent notation: `fixed(2.2945, 6)` is
/// `2.294500`.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value.magnitude * scale).rounded()
    let whole = UInt64(scaled / scale)
    let fraction = UInt64(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fractionText = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}

/// How text output shows a coordinate (`--coordinates`).
enum CoordinateStyle: String, CaseIterable, Sendable {
    /// `48.858222, 2.294500`: decimal degrees to 6 places (about 0.1 m).
    case decimal
    /// `48°51'29.60"N   2°17'40.20"E`: degrees, minutes and seconds to 0.01" (about 0.3 m).
    case dms
}

/// `48.858222, 2.294500`, or with `.dms` `48°51'29.60"N   2°17'40.20"E` (always 28 columns:
/// the degrees right-aligned, minutes and seconds with two digits, so that lines line up; read
/// back by `geocode` as it is).
func coordinateText(_ latitude: Double, _ longitude: Double, style: CoordinateStyle = .decimal) -> String {
    switch style {
    case .decimal: "\(fixed(latitude, 6)), \(fixed(longitude, 6))"
    case .dms: "\(dmsText(latitude, width: 2, "N", "S")) \(dmsText(longitude, width: 3, "E", "W"))"
    }
}

/// One value in degrees, minutes and seconds to 0.01", with its hemisphere letter: `2°17'40.20"E`,
/// the degrees padded with spaces to `width` digits.
private func dmsText(_ degrees: Double, width: Int, _ positive: String, _ negative: String) -> String {
    let hundredths = Int((degrees.magnitude * 360_000).rounded())  // of a second of arc
    let whole = String(hundredths / 360_000)
    let minutes = hundredths / 6000 % 60
    let seconds = hundredths % 6000
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    return String(repeating: " ", count: max(0, width - whole.count)) + whole + "°" + twoDigits(minutes) + "'"
        + twoDigits(seconds / 100) + "." + twoDigits(seconds % 100) + "\""
        + (degrees < 0 && hundredths != 0 ? negative : positive)
}
