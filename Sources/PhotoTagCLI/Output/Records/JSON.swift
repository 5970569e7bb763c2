import PhotoGPS
import ReverseGeocoding

// The JSON format (pretty, and any record or place written inside another value): the field
// lists of Fields.swift walked with a JSONWriter. NDJSON's own walk is in NDJSON.swift.

extension JSONWriter {
    /// Writes one field's value.
    @inline(__always)
    mutating func value(_ value: FieldValue) {
        switch value {
        case .integer(let value): integer(value)
        case .number(let value): number(value)
        case .metres(let value): if let value { metres(value) } else { null() }
        case .string(let value): string(value)
        case .text(let value): string(utf8: value)
        case .literal(let value): piece(atMost: JSONCursor.room(FieldValue.literal(value))) { $0.string(value) }
        case .boolean(let value): if let value { bool(value) } else { null() }
        }
    }
}

/// Writes records and places with a ``JSONWriter``, one key and value at a time: the `json`
/// format, and the compact text of what is not a value of its own.
struct JSONFieldWriter: RecordVisitor {
    var json: JSONWriter

    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        json.key(key.name)
        json.value(value)
    }

    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        json.key(key)
        guard present else { return json.null() }
        json.beginObject()
        body(&self)
        json.endObject()
    }

    mutating func place(_ location: UnsafeLocation) {
        json.key("place")
        writePlace(location, to: &json)
    }

    mutating func noPlace() {
        json.key("place")
        json.null()
    }

    mutating func nearby(_ matches: [PlaceMatch]?) {
        json.key("nearby")
        writeNearby(matches, to: &json)
    }

    mutating func warnings(_ key: StaticString, _ forEach: ((RecordWarning) -> Void) -> Void) {
        json.key(key)
        json.beginArray()
        forEach { json.string($0.text) }
        json.endArray()
    }

    mutating func input(_ values: InputValues) {
        json.key("input")
        writeInput(values, to: &json)
    }

    mutating func fileBytes(_ path: ArraySlice<UInt8>?) {
        guard let path else { return }
        json.key("fileBytes")
        json.string(base64(path))
    }
}

/// `bytes` in base64 (RFC 4648, the standard alphabet, padded): how records give a path that
/// is not UTF-8, byte for byte (`base64.b64decode` in Python, `base64 -d` in a shell).
func base64(_ bytes: ArraySlice<UInt8>) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = bytes.startIndex
    while index < bytes.endIndex {
        let count = min(3, bytes.endIndex - index)
        var chunk: UInt32 = 0
        for offset in 0..<3 { chunk = chunk << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
        for position in 0..<4 {
            out.append(position <= count ? alphabet[Int(chunk >> (18 - 6 * UInt32(position)) & 63)] : UInt8(ascii: "="))
        }
        index += count
    }
    return String(decoding: out, as: UTF8.self)
}

/// The `input` object of a record: the row's values by column name, `null` for one it lacks.
func writeInput(_ values: InputValues, to json: inout JSONWriter) {
    json.beginObject()
    for (name, value) in zip(values.names, values.values) {
        json.key(named: name)
        json.string(value)
    }
    json.endObject()
}

extension PhotoRecord {
    /// Writes the record as one JSON object with the fixed keys, in the order README.md's
    /// "Output" section lists them (`nearby` only with `--nearest`); on one line when nothing is
    /// open around it, as NDJSON.
    func write(to json: inout JSONWriter, nearby: Bool) {
        if !json.pretty, json.atTop { return writeCompact(to: &json, nearby: nearby) }
        var writer = JSONFieldWriter(json: json)
        withTexts(&writer) { record, texts, writer in
            writer.json.beginObject()
            record.visitFields(texts, nearby: nearby, &writer)
            writer.json.endObject()
        }
        json = writer.json
    }
}

extension CoordinateRecord {
    /// Writes the record as `{latitude, longitude, place, [nearby], warnings, error, line}`.
    func write(to json: inout JSONWriter, nearby: Bool) {
        if !json.pretty, json.atTop { return writeCompact(to: &json, nearby: nearby) }
        var writer = JSONFieldWriter(json: json)
        writer.json.beginObject()
        visitFields(nearby: nearby, &writer)
        writer.json.endObject()
        json = writer.json
    }
}

/// Writes the `place` object of a record, its text copied from the tables' bytes (see
/// ``PlaceFields``). `null` without a lookup, or when neither a place nor a country was found.
func writePlace(_ location: UnsafeLocation?, to json: inout JSONWriter) {
    guard let location else { return json.null() }
    writePlace(location, to: &json)
}

/// ``writePlace(_:to:)-(UnsafeLocation?,_)`` of a lookup's answer.
///
/// - Parameter fragments: on one line, the cached text of the places written lately (see
///   ``PlaceFragments``), for the geocoder that gave `location`.
func writePlace(_ location: borrowing UnsafeLocation, fragments: PlaceFragments? = nil, to json: inout JSONWriter) {
    guard location.nearest != nil || location.countryCode != nil else { return json.null() }
    if !json.pretty { return writeCompactPlace(location, fragments: fragments, to: &json) }
    AnsweredPlace.with(location) { writePlaceObject($0, to: &json) }
}

/// Writes a place of `nearby`: the nearest place's own fields, as the `place` object has them
/// (without `city` and `basis`, which belong to the point).
func writePlace(_ match: PlaceMatch, to json: inout JSONWriter) {
    writePlaceObject(match, to: &json)
}

/// A place object, a key and a value at a time.
private func writePlaceObject(_ source: some PlaceSource, to json: inout JSONWriter) {
    var writer = JSONFieldWriter(json: json)
    writer.json.beginObject()
    PlaceFields.visit(source, &writer)
    writer.json.endObject()
    json = writer.json
}

/// The `nearby` array: `null` when not looked up.
func writeNearby(_ matches: [PlaceMatch]?, to json: inout JSONWriter) {
    guard let matches else { return json.null() }
    json.beginArray()
    for match in matches { writePlace(match, to: &json) }
    json.endArray()
}
