import PhotoGPS
import ReverseGeocoding

// GeoJSON `properties`: a record flat, for GIS tools, which read nested objects as
// `String(JSON)`. The field lists of Fields.swift walked with their CSV names (CSV.swift) and
// JSON types: numbers as numbers, `null` when absent, `warnings` joined by `; ` (empty, never
// `null`, when there are none: a list, even an empty one, is known); with
// `--nearest`, the nearby places follow the place as `nearby_1_geoname_id`… `nearby_K_bearing`.

/// Writes a record as flat properties named as its CSV columns (``CSVColumns``), in their order.
struct FlatFieldWriter: RecordVisitor {
    var json: JSONWriter
    /// The names of the record's columns, with those of the nearby places it has.
    var names: IndexingIterator<[String]>
    /// Whether a nearby place is being written: only its ``FieldKey/nearbyColumn`` fields.
    private var nearbyOnly = false
    /// Whether the record has the properties of `--lang`.
    let columns: ColumnGroups

    init(json: JSONWriter, names: [String], columns: ColumnGroups) {
        self.json = json
        self.names = names.makeIterator()
        self.columns = columns
    }

    private mutating func key() { json.key(named: names.next() ?? "") }

    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        guard !nearbyOnly || key.nearbyColumn else { return }
        self.key()
        json.value(value)
    }

    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        body(&self)
    }

    mutating func place(_ location: UnsafeLocation) {
        guard location.nearest != nil || location.countryCode != nil else { return noPlace() }
        AnsweredPlace.with(location) { PlaceFields.visit($0, &self) }
    }

    mutating func noPlace() { PlaceFields.visit(AnsweredPlace.none, &self) }

    mutating func nearby(_ matches: [PlaceMatch]?) {
        nearbyOnly = true
        for match in matches ?? [] { PlaceFields.visit(match, &self) }
        nearbyOnly = false
    }

    mutating func warnings(_ key: StaticString, _ forEach: ((RecordWarning) -> Void) -> Void) {
        var texts: [String] = []
        forEach { texts.append($0.text) }
        self.key()
        json.string(texts.joined(separator: "; "))
    }

    mutating func fileBytes(_ path: ArraySlice<UInt8>?) {
        json.key(named: "file_bytes")
        json.string(path.map(base64))
    }

    mutating func input(_ values: InputValues) {
        for (name, value) in zip(values.names, values.values) {
            json.key(named: flatInputName(name))
            json.string(value)
        }
    }
}

extension PhotoRecord {
    /// Writes the record as flat GeoJSON `properties` (``CSVColumns/photo``; with `local`, `--lang`'s too).
    func writeProperties(to json: inout JSONWriter, nearby: Bool, columns: ColumnGroups) {
        let names =
            nearby || !columns.isEmpty
            ? CSVColumns.photo(nearby: place.nearby?.count ?? 0, columns: columns) : CSVColumns.photo
        var writer = FlatFieldWriter(json: json, names: names, columns: columns)
        withTexts(&writer) { record, texts, writer in
            writer.json.beginObject()
            record.visitFields(texts, nearby: nearby, &writer)
            writer.json.endObject()
        }
        json = writer.json
    }
}

extension CoordinateRecord {
    /// Writes the record as flat GeoJSON `properties` (``CSVColumns/coordinate``), as
    /// ``PhotoRecord/writeProperties(to:nearby:local:)``.
    func writeProperties(to json: inout JSONWriter, nearby: Bool, columns: ColumnGroups) {
        let names =
            nearby || !columns.isEmpty
            ? CSVColumns.coordinate(nearby: place.nearby?.count ?? 0, columns: columns) : CSVColumns.coordinate
        // The input's columns are named as written.
        var writer = FlatFieldWriter(json: json, names: names, columns: columns)
        writer.json.beginObject()
        visitFields(nearby: nearby, &writer)
        writer.json.endObject()
        json = writer.json
    }
}
