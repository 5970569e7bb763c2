import PhotoGPS
import ReverseGeocoding

// CSV: the field lists of Fields.swift walked flat, for the header (the fields' names) and for
// each row (their values as text).

/// The CSV header: the record's fields flattened, in the order of the JSON keys; each the key in
/// snake case after its object's prefix (``FieldKey/flatName(prefix:)``).
enum CSVColumns {
    /// The place's columns, `place_geoname_id` … `place_basis`.
    static let place = names { PlaceFields.visit(AnsweredPlace.none, &$0) }.map { "place_" + $0 }
    /// The fields given for each nearby place: fewer than for `place`, as there are k of them.
    static let nearbyFields = names(nearby: 1) { $0.nearby(nil) }.map { String($0.dropFirst("nearby_1_".count)) }
    static let photo = photo(nearby: 0)
    static let coordinate = coordinate(nearby: 0)

    /// A photo record's columns, with those of `count` nearby places after `place`.
    static func photo(nearby count: Int) -> [String] {
        names(nearby: count) {
            PhotoRecord.empty.visitFields(PhotoTexts(file: .init(start: nil, count: 0)), nearby: count > 0, &$0)
        }
    }

    /// A coordinate record's columns, with those of `count` nearby places after `place`.
    static func coordinate(nearby count: Int) -> [String] {
        names(nearby: count) { CoordinateRecord().visitFields(nearby: count > 0, &$0) }
    }

    /// ``coordinate(nearby:)`` with the columns of an input table after them (``InputTable``).
    static func coordinate(nearby count: Int, input: [String]) -> [String] {
        coordinate(nearby: count) + input.map(flatInputName)
    }

    /// The names of the fields `walk` visits.
    private static func names(nearby count: Int = 0, _ walk: (inout ColumnNames) -> Void) -> [String] {
        var names = ColumnNames(nearbyCount: count)
        walk(&names)
        return names.names
    }

    /// The types of ``photo(nearby:)``'s columns, as GDAL's `.csvt` file names them (`Integer`,
    /// `Real`, `String`), so that a column keeps its type when every value in it is empty.
    static func photoTypes(nearby count: Int) -> [String] {
        var names = ColumnNames(nearbyCount: count)
        PhotoRecord.empty.visitFields(PhotoTexts(file: .init(start: nil, count: 0)), nearby: count > 0, &names)
        return names.types
    }

    /// The types of ``coordinate(nearby:input:)``'s columns.
    static func coordinateTypes(nearby count: Int, input: [String]) -> [String] {
        var names = ColumnNames(nearbyCount: count)
        CoordinateRecord().visitFields(nearby: count > 0, &names)
        return names.types + input.map { _ in "String" }
    }
}

/// Collects the names of the columns a record's fields are written in, and their types as GDAL's
/// `.csvt` names them.
private struct ColumnNames: RecordVisitor {
    var nearbyCount: Int
    var names: [String] = []
    var types: [String] = []
    private var prefix = ""
    private var nearbyOnly = false

    init(nearbyCount: Int) { self.nearbyCount = nearbyCount }

    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        guard !nearbyOnly || key.nearbyColumn else { return }
        names.append(key.flatName(prefix: prefix))
        switch value {
        case .integer: types.append("Integer")
        case .number, .metres: types.append("Real")
        case .string, .text, .literal: types.append("String")
        }
    }

    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        let outer = prefix
        prefix += flatPrefix.description
        body(&self)
        prefix = outer
    }

    mutating func place(_ location: UnsafeLocation) { noPlace() }

    mutating func noPlace() {
        prefix = "place_"
        PlaceFields.visit(AnsweredPlace.none, &self)
        prefix = ""
    }

    mutating func nearby(_ matches: [PlaceMatch]?) {
        nearbyOnly = true
        for index in 0..<nearbyCount {
            prefix = "nearby_\(index + 1)_"
            PlaceFields.visit(AnsweredPlace.none, &self)
        }
        (prefix, nearbyOnly) = ("", false)
    }

    mutating func warnings(_ key: StaticString, _ forEach: ((RecordWarning) -> Void) -> Void) {
        names.append(FieldKey(stringLiteral: key).flatName(prefix: ""))
        types.append("String")
    }

    mutating func input(_ values: InputValues) {
        names += values.names.map(flatInputName)
        types += values.names.map { _ in "String" }
    }

    mutating func fileBytes(_ path: ArraySlice<UInt8>?) {
        names.append("file_bytes")
        types.append("String")
    }
}

/// The column of an input row's value in the flat formats: `input_` and the header's name.
func flatInputName(_ name: String) -> String { "input_" + name }

/// Collects the fields of a CSV row, as text (`nil` for an empty field).
private struct CSVFieldCollector: RecordVisitor {
    /// How many nearby places there are columns for: those not found are empty.
    let nearbyCount: Int
    /// Whether text cells that a spreadsheet would take for a formula are defused
    /// (``CSVFormulaGuard``).
    let guardFormulas: Bool
    var fields: [String?] = []
    private var nearbyOnly = false

    init(nearbyCount: Int, guardFormulas: Bool) {
        self.nearbyCount = nearbyCount
        self.guardFormulas = guardFormulas
    }

    /// A text cell, defused when asked.
    private mutating func text(_ value: String?) {
        fields.append(guardFormulas ? value.map(CSVFormulaGuard.defused) : value)
    }

    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        guard !nearbyOnly || key.nearbyColumn else { return }
        switch value {
        case .integer(let value): fields.append(value.map { String($0) })
        case .number(let value): fields.append(value.map(\.description))
        case .metres(let value): fields.append(value.map { roundedDistance($0).description })
        case .string(let value): text(value)
        case .text(let value): text(value.map { String(decoding: $0, as: UTF8.self) })
        case .literal(let value): fields.append(value?.description)
        }
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
        for index in 0..<nearbyCount {
            if let matches, index < matches.count {
                PlaceFields.visit(matches[index], &self)
            } else {
                PlaceFields.visit(AnsweredPlace.none, &self)
            }
        }
        nearbyOnly = false
    }

    mutating func warnings(_ key: StaticString, _ forEach: ((RecordWarning) -> Void) -> Void) {
        var texts: [String] = []
        forEach { texts.append($0.text) }
        text(texts.joined(separator: "; "))
    }

    mutating func input(_ values: InputValues) { for value in values.values { text(value) } }

    mutating func fileBytes(_ path: ArraySlice<UInt8>?) { fields.append(path.map(base64)) }
}

/// OWASP's advice against CSV injection: a text cell that starts with `=`, `+`, `-`, `@`, a tab or
/// a carriage return is a formula to Excel, LibreOffice and Google Sheets, which a file or
/// place name, or a column passed through from the input, could use to run something. Such a
/// cell gets a `'` in front, which spreadsheets show as text and do not keep in the value.
/// A cell of nothing but digits, signs, points and colons is left alone: `-33.8` and the offset
/// `+02:00` can call no function. Nor is `file_bytes` touched, whose base64 needs its bytes
/// exact.
enum CSVFormulaGuard {
    static func defused(_ value: String) -> String {
        guard let first = value.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first),
            !value.utf8.allSatisfy({ (0x30...0x39).contains($0) || [0x2B, 0x2D, 0x2E, 0x3A].contains($0) })
        else { return value }
        return "'" + value
    }
}

extension PhotoRecord {
    var csvFields: [String?] { csvFields(nearby: 0) }

    /// The fields of ``CSVColumns/photo(nearby:)``, for `count` nearby places; text cells are
    /// defused as ``CSVFormulaGuard`` says unless `guardFormulas` is false.
    func csvFields(nearby count: Int, guardFormulas: Bool = true) -> [String?] {
        var collector = CSVFieldCollector(nearbyCount: count, guardFormulas: guardFormulas)
        withTexts(&collector) { record, texts, collector in record.visitFields(texts, nearby: count > 0, &collector) }
        return collector.fields
    }
}

extension CoordinateRecord {
    var csvFields: [String?] { csvFields(nearby: 0) }

    /// The fields of ``CSVColumns/coordinate(nearby:)``, for `count` nearby places.
    func csvFields(nearby count: Int, guardFormulas: Bool = true) -> [String?] {
        var collector = CSVFieldCollector(nearbyCount: count, guardFormulas: guardFormulas)
        visitFields(nearby: count > 0, &collector)
        return collector.fields
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
