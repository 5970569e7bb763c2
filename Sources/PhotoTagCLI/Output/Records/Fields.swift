import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

// The fields of every record kind, each listed once: a photo's, a coordinate's, and the place
// object both have. Every format is a visitor (``RecordVisitor``) that these lists are walked
// with: pretty JSON and nested JSON (JSON.swift), NDJSON (NDJSON.swift), GeoJSON properties
// (GeoJSON.swift), CSV rows and its header (CSV.swift). A field's JSON key is its name here;
// its CSV column and GeoJSON property are the key in snake case after its object's prefix
// (``FieldKey/flatName(prefix:)``). So a new field is one line in one of these lists.

/// The value of one field, as the list reads it; each format writes it its own way.
enum FieldValue {
    case integer(Int?)
    case number(Double?)
    /// A distance in kilometres, written to the metre (``roundedDistance(_:)``).
    case metres(Double?)
    case string(String?)
    /// UTF-8 bytes: borrowed from the place table, a path's own, or text written on the stack.
    case text(UnsafeRawBufferPointer?)
    /// Text known when compiling, with nothing JSON escapes (the place's basis).
    case literal(StaticString?)
    /// `true` or `false` (CSV: the words; GDAL's type `Integer(Boolean)`).
    case boolean(Bool?)
}

/// A field's name: its JSON key, from which its flat name is made.
struct FieldKey: ExpressibleByStringLiteral {
    /// The JSON key, in lower camel case (`horizontalError`).
    let name: StaticString
    /// Whether the flat formats give the field for each nearby place too (`nearby_1_name`).
    var nearbyColumn = false
    /// The name the flat name is made from, when it is not ``name`` (`nameLocal` for the `place`
    /// of `names`, the column `place_name_local`).
    var flat: StaticString? = nil

    init(stringLiteral name: StaticString) { self.name = name }

    /// A field whose flat name is made from `flat` rather than `name`.
    init(_ name: StaticString, flat: StaticString) {
        self.name = name
        self.flat = flat
    }

    /// A place field that the flat formats also give for each nearby place.
    static func alsoNearby(_ name: StaticString) -> FieldKey {
        var key = FieldKey(stringLiteral: name)
        key.nearbyColumn = true
        return key
    }

    /// The CSV column and GeoJSON property: `prefix` and the key in snake case
    /// (`place_` + `admin1Code` is `place_admin1_code`).
    func flatName(prefix: String) -> String {
        var bytes = Array(prefix.utf8)
        Self.forEachSnakeCaseByte(flat ?? name) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with each byte of `name` in snake case: an upper-case letter becomes `_`
    /// and the letter in lower case.
    @inline(__always)
    static func forEachSnakeCaseByte(_ name: StaticString, _ body: (UInt8) -> Void) {
        name.withUTF8Buffer { bytes in
            for byte in bytes {
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                    body(UInt8(ascii: "_"))
                    body(byte + 0x20)
                } else {
                    body(byte)
                }
            }
        }
    }
}

/// A warning of a record, as the list gives it.
enum RecordWarning {
    /// ``atSeaWarning``, which NDJSON writes as a literal.
    case atSea
    case text(String)

    var text: String {
        switch self {
        case .atSea: atSeaWarning
        case .text(let text): text
        }
    }
}

/// What a field list is walked with: one format.
protocol FieldVisitor {
    /// A field of the object being written.
    @inline(__always)
    mutating func field(_ key: FieldKey, _ value: FieldValue)
    /// An object field (`gps`, `camera`, `time`, `city`) whose fields `body` visits: the JSON
    /// formats write it, or `null` when it is not `present`; the flat formats give its fields
    /// under `flatPrefix`, each empty when it is not present (`body` then reads `nil`s).
    @inline(__always)
    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void)
    /// Fields of the place object that depend on the named place alone: NDJSON keeps their text
    /// by place (``PlaceFragments``), in two runs, `0` and `1`. The others visit `body`.
    @inline(__always)
    mutating func namedPlaceRun(_ run: Int, _ body: (inout Self) -> Void)
    /// The optional groups of fields written even when a record has none of them: the flat
    /// formats' columns, which every row has under `--lang` (the place's `names`) or `--track`
    /// (the `track`). The JSON formats write those objects where the record has them.
    var columns: ColumnGroups { get }
}

/// Optional groups of fields (``FieldVisitor/columns``).
struct ColumnGroups: OptionSet, Sendable {
    let rawValue: UInt8
    /// The place's names in the reader's language (`--lang`).
    static let local = ColumnGroups(rawValue: 1)
    /// How a track placed the photo (`--track`, `--from-photos`).
    static let track = ColumnGroups(rawValue: 2)
    /// What `phototag tag` did with the photo's sidecar.
    static let tagging = ColumnGroups(rawValue: 4)
}

extension FieldVisitor {
    @inline(__always)
    mutating func namedPlaceRun(_ run: Int, _ body: (inout Self) -> Void) { body(&self) }

    var columns: ColumnGroups { [] }
}

/// A visitor of whole records: it also writes their place, nearby places and warnings.
protocol RecordVisitor: FieldVisitor {
    /// The `place` of a lookup's answer (the JSON formats write `null` for one that names no
    /// place and no country; the flat formats empty fields).
    @inline(__always)
    mutating func place(_ location: UnsafeLocation)
    /// The `place` of a record without a lookup.
    @inline(__always)
    mutating func noPlace()
    /// With `--nearest`: the `nearby` places, after the place.
    mutating func nearby(_ matches: [PlaceMatch]?)
    /// The `warnings` (an array in JSON, joined by `; ` in the flat formats); `forEach` calls
    /// its argument with each.
    @inline(__always)
    mutating func warnings(_ key: StaticString, _ forEach: ((RecordWarning) -> Void) -> Void)
    /// A photo record's path as bytes, when they are not UTF-8 (`file` then has U+FFFD in their
    /// place): `fileBytes` in JSON, only then; the `file_bytes` column of the flat formats,
    /// empty for a path that is UTF-8.
    mutating func fileBytes(_ path: ArraySlice<UInt8>?)
    /// A `geocode` record's values from its input row (``InputValues``), last: an `input`
    /// object in JSON, `input_NAME` columns in the flat formats. Only records of a table with
    /// columns besides the coordinates have it.
    mutating func input(_ values: InputValues)
}

extension RecordVisitor {
    /// ``place(_:)-(UnsafeLocation)`` or ``noPlace()``.
    @inline(__always)
    mutating func place(_ location: UnsafeLocation?) {
        if let location { place(location) } else { noPlace() }
    }
}

extension Optional {
    /// Whether there is a value: `!= nil` without `Equatable`, which copied a photo's GPS fix and
    /// camera (retaining their strings) to compare them.
    @inline(__always)
    var isPresent: Bool {
        if case .some = self { true } else { false }
    }
}

/// The texts a photo record's fields are written from that are not kept as strings: its path
/// (its own bytes when they are UTF-8) and its times, written on the stack.
struct PhotoTexts {
    var file: UnsafeRawBufferPointer
    var timestamp: UnsafeRawBufferPointer? = nil
    var utc: UnsafeRawBufferPointer? = nil
    var local: UnsafeRawBufferPointer? = nil
}

// MARK: - The photo record

extension PhotoRecord {
    /// The record's fields, in the order README.md's "Output" section lists them (`nearby` only
    /// when `nearby`): the one list of them.
    @inline(__always)
    func visitFields<V: RecordVisitor>(_ texts: PhotoTexts, nearby: Bool, _ v: inout V) {
        let fix = reading.fix, camera = reading.camera
        v.field("file", .text(texts.file))
        v.field("sidecar", .string(sidecar))
        v.field("status", .string(reading.status.rawValue))
        v.object("gps", flatPrefix: "", present: fix.isPresent) { v in
            v.field("latitude", .number(fix?.latitude))
            v.field("longitude", .number(fix?.longitude))
            v.field("altitude", .number(fix?.altitude))
            v.field("timestamp", .text(texts.timestamp))
            v.field("direction", .number(fix?.direction))
            v.field("directionRef", .string(fix?.directionReference?.rawValue))
            v.field("speed", .number(fix?.speed))
            v.field("horizontalError", .number(fix?.horizontalError))
            v.field("datum", .string(fix?.mapDatum))
            v.field("source", .string(fix?.source.rawValue))
        }
        let track = track
        if track.isPresent || v.columns.contains(.track) {
            v.object("track", flatPrefix: "track_", present: track.isPresent) { v in
                v.field("file", .string(track?.file))
                v.field("interpolated", .boolean(track?.interpolated))
                v.field("gapSeconds", .number(track?.gapSeconds))
                v.field("gapMeters", .number(track?.gapMeters))
                v.field("nearestPointSeconds", .number(track?.nearestPointSeconds))
            }
        }
        v.place(place.location)
        if nearby { v.nearby(place.nearby) }
        v.object("camera", flatPrefix: "", present: camera.isPresent) { v in
            v.field("make", .string(camera?.make))
            v.field("model", .string(camera?.model))
            v.field("dateTimeOriginal", .string(camera?.dateTimeOriginal))
            v.field("offsetTimeOriginal", .string(camera?.offsetTimeOriginal))
        }
        v.object("time", flatPrefix: "time_", present: time.isPresent) { v in
            v.field("utc", .text(texts.utc))
            v.field("local", .text(texts.local))
            v.field("offsetSource", .string(time?.offsetSource?.rawValue))
        }
        let tagging = tagging
        if tagging.isPresent || v.columns.contains(.tagging) {
            v.object("tag", flatPrefix: "tag_", present: tagging.isPresent) { v in
                v.field("sidecar", .string(tagging?.path))
                v.field("action", .string(tagging?.action.rawValue))
                v.field("written", .string(tagging?.listed(.written)))
                v.field("kept", .string(tagging?.listed(.kept)))
                v.field("unchanged", .string(tagging?.listed(.unchanged)))
                v.field("error", .string(tagging?.error))
            }
        }
        v.warnings("warnings") { body in forEachWarning { body(.text($0)) } }
        v.field("error", .string(reading.error?.description))
        v.fileBytes(path.withUnsafeBytes { isValidUTF8($0) } ? nil : path)
    }

    /// Calls `body` with the record, its ``PhotoTexts`` and `visitor`, which it hands over
    /// rather than letting `body` capture them: a closure that captured the record copied it
    /// (retaining all its strings).
    @inline(__always)
    func withTexts<V>(_ visitor: inout V, _ body: (borrowing PhotoRecord, PhotoTexts, inout V) -> Void) {
        withFileUTF8(visitor: &visitor) { record, file, visitor in
            guard let timestamp = record.reading.fix?.timestamp else {
                return record.withTimeTexts(PhotoTexts(file: file), &visitor, body)
            }
            timestamp.withISO8601 { text in
                record.withTimeTexts(
                    PhotoTexts(file: file, timestamp: UnsafeRawBufferPointer(text)), &visitor, body)
            }
        }
    }

    /// ``withTexts(_:_:)`` with the capture time's texts added.
    @inline(__always)
    private func withTimeTexts<V>(
        _ texts: PhotoTexts, _ visitor: inout V, _ body: (borrowing PhotoRecord, PhotoTexts, inout V) -> Void
    ) {
        guard let time else { return body(self, texts, &visitor) }
        time.withTexts { utc, local in
            var texts = texts
            (texts.utc, texts.local) = (utc, local)
            body(self, texts, &visitor)
        }
    }

    /// A record with every field empty: what the column names are read from.
    static let empty = PhotoRecord(file: "", reading: .failure(.emptyFile))
}

// MARK: - The coordinate record

extension CoordinateRecord {
    /// A coordinate record's fields, in order, from its parts: the one list of them. `place`
    /// visits the place (and `nearby`) where it goes.
    @inline(__always)
    static func visitFields<V: RecordVisitor>(
        coordinate: Coordinate?, atSea: Bool, error: String?, line: Int?, input: InputValues?, _ v: inout V,
        place: (inout V) -> Void
    ) {
        v.field("latitude", .number(coordinate?.latitude))
        v.field("longitude", .number(coordinate?.longitude))
        place(&v)
        v.warnings("warnings") { body in if atSea { body(.atSea) } }
        v.field("error", .string(error))
        v.field("line", .integer(line))
        if let input { v.input(input) }
    }

    /// ``visitFields(coordinate:atSea:error:line:input:_:place:)`` of this record.
    @inline(__always)
    func visitFields<V: RecordVisitor>(nearby: Bool, _ v: inout V) {
        Self.visitFields(
            coordinate: coordinate, atSea: place.location?.atSea == true, error: error, line: line, input: input, &v
        ) { v in
            v.place(place.location)
            if nearby { v.nearby(place.nearby) }
        }
    }
}

// MARK: - The place object

/// What a place object is written from: a lookup's answer (``AnsweredPlace``) or a nearby place
/// (``PlaceMatch``), which has the named place's own fields and no `city` or `basis`.
protocol PlaceSource {
    /// `answer` of an answer, `nearby` of a nearby place.
    func pick<T>(_ answer: (AnsweredPlace) -> T, _ nearby: (PlaceMatch) -> T) -> T
}

extension PlaceMatch: PlaceSource {
    @inline(__always)
    func pick<T>(_ answer: (AnsweredPlace) -> T, _ nearby: (PlaceMatch) -> T) -> T {
        nearby(self)
    }
}

/// The fields of a place borrowed from the table that are its own (not its region's), from one
/// read of its row.
struct OwnPlaceFields {
    var geonameId: Int
    var name: UnsafeRawBufferPointer
    var asciiName: UnsafeRawBufferPointer
    var population: Int
    var featureCode: UnsafeRawBufferPointer?
    var municipalityCode: UnsafeRawBufferPointer?
    var latitude: Double
    var longitude: Double

    @inline(__always)
    init(_ view: PlaceView) {
        let own = view.ownFields
        (geonameId, name, asciiName, population) = (own.geonameId, own.name, own.asciiName, own.population)
        (featureCode, latitude, longitude) = (own.featureCode, own.latitude, own.longitude)
        municipalityCode = view.municipalityCode
    }
}

/// A lookup's answer as the place object reads it: where the point is (the ``UnsafeLocation``'s
/// fields, its strings as their UTF-8), with the named place's and the city's own fields read
/// once. It holds no string of its own, so the two walks of NDJSON copy and retain nothing.
struct AnsweredPlace: PlaceSource {
    /// The named place's own fields; `nil` without one, or when NDJSON has their text kept.
    var named: OwnPlaceFields? = nil
    /// The named place and where the point lies from it.
    var nearest: PlaceView.Match? = nil
    var city: (fields: OwnPlaceFields, distanceKm: Double)? = nil
    var admin1: UnsafeRawBufferPointer? = nil
    var admin1Code: UnsafeRawBufferPointer? = nil
    var admin2: UnsafeRawBufferPointer? = nil
    var countryCode: UnsafeRawBufferPointer? = nil
    var country: UnsafeRawBufferPointer? = nil
    var timeZone: UnsafeRawBufferPointer? = nil
    /// At sea, the named sea that contains the point.
    var sea: UnsafeRawBufferPointer? = nil
    /// With `--lang`, the names in the reader's language.
    var names: UnsafeLocation.Names? = nil
    /// `nil` for the empty place of the flat formats.
    var basis: UnsafeLocation.Basis? = nil

    /// No place: every field empty.
    static var none: AnsweredPlace { AnsweredPlace() }

    /// Calls `body` with `location` as a place object reads it (the named place's own fields
    /// read unless `readingNamed` is false), valid only inside `body`.
    @inline(__always)
    static func with(_ location: borrowing UnsafeLocation, readingNamed: Bool = true, _ body: (AnsweredPlace) -> Void) {
        var answer = AnsweredPlace()
        if let nearest = location.nearest {
            answer.nearest = nearest
            if readingNamed { answer.named = OwnPlaceFields(nearest.view) }
        }
        if let match = location.city { answer.city = (OwnPlaceFields(match.view), match.distanceKm) }
        (answer.admin1, answer.admin2, answer.country) = (location.admin1, location.admin2, location.country)
        answer.basis = location.basis
        answer.sea = location.sea
        answer.names = location.names
        withUTF8(location.admin1Code) { admin1Code in
            withUTF8(location.countryCode) { countryCode in
                withUTF8(location.timeZone) { timeZone in
                    (answer.admin1Code, answer.countryCode, answer.timeZone) = (admin1Code, countryCode, timeZone)
                    body(answer)
                }
            }
        }
    }

    @inline(__always)
    func pick<T>(_ answer: (AnsweredPlace) -> T, _ nearby: (PlaceMatch) -> T) -> T { answer(self) }
}

/// Calls `body` with the UTF-8 of `text` in place (a native string's, or a small one's on the
/// stack), `nil` for `nil`.
@inline(__always)
private func withUTF8(_ text: String?, _ body: (UnsafeRawBufferPointer?) -> Void) {
    // A copy to call the mutating `withUTF8` on, which is a retain: a switch over a `borrowing`
    // string, or `utf8.withContiguousStorageIfAvailable`, copied it through its generic value
    // witness, several times the cost.
    guard var text else { return body(nil) }
    text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}

/// The place object's fields, in order: the one list of them. The named place's fields, with
/// the country, region and zone of the point (which may differ from the named place's own,
/// across a border or at sea), then `city`, `basis` and `sea`; a nearby place stops before `city`.
enum PlaceFields {
    /// Visits the fields of the place `source` with `v`. Each line names the field and reads it
    /// from either source: `$0` is an ``AnsweredPlace``, then a ``PlaceMatch``.
    @inline(__always)
    static func visit<S: PlaceSource, V: FieldVisitor>(_ s: S, _ v: inout V) {
        v.namedPlaceRun(0) { v in
            v.field(
                .alsoNearby("geonameId"), s.pick({ .integer($0.named?.geonameId) }, { .integer($0.place.geonameId) }))
            v.field(.alsoNearby("name"), s.pick({ .text($0.named?.name) }, { .string($0.place.name) }))
            v.field("asciiName", s.pick({ .text($0.named?.asciiName) }, { .string($0.place.asciiName) }))
        }
        v.field(.alsoNearby("admin1"), s.pick({ .text($0.admin1) }, { .string($0.place.admin1) }))
        v.field("admin1Code", s.pick({ .text($0.admin1Code) }, { .string($0.place.admin1Code) }))
        v.field("admin2", s.pick({ .text($0.admin2) }, { .string($0.place.admin2) }))
        v.field(
            .alsoNearby("countryCode"), s.pick({ .text($0.countryCode) }, { .string($0.place.countryCode) }))
        v.field("country", s.pick({ .text($0.country) }, { .string($0.place.country) }))
        v.field("timezone", s.pick({ .text($0.timeZone) }, { .string($0.place.timeZone) }))
        v.namedPlaceRun(1) { v in
            v.field("population", s.pick({ .integer($0.named?.population) }, { .integer($0.place.population) }))
            v.field("featureCode", s.pick({ .text($0.named?.featureCode) }, { .string($0.place.featureCode) }))
            v.field(
                "municipalityCode",
                s.pick({ .text($0.named?.municipalityCode) }, { .string($0.place.municipalityCode) }))
            v.field("latitude", s.pick({ .number($0.named?.latitude) }, { .number($0.place.latitude) }))
            v.field("longitude", s.pick({ .number($0.named?.longitude) }, { .number($0.place.longitude) }))
        }
        v.field(.alsoNearby("distanceKm"), s.pick({ .metres($0.nearest?.distanceKm) }, { .metres($0.distanceKm) }))
        v.field(
            .alsoNearby("bearing"),
            s.pick(
                { .integer($0.nearest.map { roundedBearing($0.bearing) }) }, { .integer(roundedBearing($0.bearing)) }))
        guard s.pick({ _ in true }, { _ in false }) else { return }
        let city = s.pick({ $0.city }, { _ in nil })
        v.object("city", flatPrefix: "city_", present: city.isPresent) { v in
            v.field("geonameId", .integer(city?.fields.geonameId))
            v.field("name", .text(city?.fields.name))
            v.field("population", .integer(city?.fields.population))
            v.field("distanceKm", .metres(city?.distanceKm))
        }
        v.field(
            "basis",
            s.pick({ .literal($0.basis.map { $0 == .boundaries ? "boundaries" : "nearest" }) }, { _ in .literal(nil) }))
        v.field("sea", s.pick({ .text($0.sea) }, { _ in .text(nil) }))
        // With `--lang`: the names in the reader's language (`names` in JSON; in the flat
        // formats `place_local_lang`, `place_name_local`, `place_city_name_local`…).
        let names = s.pick({ $0.names }, { _ in nil })
        guard names != nil || v.columns.contains(.local) else { return }
        v.object("names", flatPrefix: "", present: names != nil) { v in
            v.field(FieldKey("lang", flat: "localLang"), .text(names?.language))
            v.field(FieldKey("place", flat: "nameLocal"), .text(names?.place))
            v.field(FieldKey("city", flat: "cityNameLocal"), .text(names?.city))
            v.field(FieldKey("admin1", flat: "admin1Local"), .text(names?.admin1))
            v.field(FieldKey("country", flat: "countryLocal"), .text(names?.country))
        }
    }
}
