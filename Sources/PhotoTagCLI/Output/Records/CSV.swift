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

    /// A photo record's columns, with those of `count` nearby places after `place`, and with
    /// `local` (`--lang`) the place's names in the reader's language.
    static func photo(nearby count: Int, columns: ColumnGroups = []) -> [String] {
        names(nearby: count, columns: columns) {
            PhotoRecord.empty.visitFields(PhotoTexts(file: .init(start: nil, count: 0)), nearby: count > 0, &$0)
        }
    }

    /// A coordinate record's columns, with those of `count` nearby places after `place`.
    static func coordinate(nearby count: Int, columns: ColumnGroups = []) -> [String] {
        names(nearby: count, columns: columns) { CoordinateRecord().visitFields(nearby: count > 0, &$0) }
    }

    /// ``coordinate(nearby:local:)`` with the columns of an input table after them (``InputTable``).
    static func coordinate(nearby count: Int, input: [String], columns: ColumnGroups) -> [String] {
        coordinate(nearby: count, columns: columns) + input.map(flatInputName)
    }

    /// The names of the fields `walk` visits.
    private static func names(
        nearby count: Int = 0, columns: ColumnGroups = [], _ walk: (inout ColumnNames) -> Void
    )
        -> [String]
    {
        var names = ColumnNames(nearbyCount: count, columns: columns)
        walk(&names)
        return names.names
    }

    /// The types of ``photo(nearby:)``'s columns, as GDAL's `.csvt` file names them (`Integer`,
    /// `Real`, `String`), so that a column keeps its type when every value in it is empty.
    static func photoTypes(nearby count: Int, columns: ColumnGroups) -> [String] {
        var names = ColumnNames(nearbyCount: count, columns: columns)
        PhotoRecord.empty.visitFields(PhotoTexts(file: .init(start: nil, count: 0)), nearby: count > 0, &names)
        return names.types
    }

    /// The types of ``coordinate(nearby:input:)``'s columns.
    static func coordinateTypes(nearby count: Int, input: [String], columns: ColumnGroups) -> [String] {
        var names = ColumnNames(nearbyCount: count, columns: columns)
        CoordinateRecord().visitFields(nearby: count > 0, &names)
        return names.types + input.map { _ in "String" }
    }
}

/// Collects the names of the columns a record's fields are written in, and their types as GDAL's
/// `.csvt` names them.
private struct ColumnNames: RecordVisitor {
    var nearbyCount: Int
    let columns: ColumnGroups
    var names: [String] = []
    var types: [String] = []
    private var prefix = ""
    private var nearbyOnly = false

    init(nearbyCount: Int, columns: ColumnGroups) { (self.nearbyCount, self.columns) = (nearbyCount, columns) }

    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        guard !nearbyOnly || key.nearbyColumn else { return }
        names.append(key.flatName(prefix: prefix))
        switch value {
        case .integer: types.append("Integer")
        case .number, .metres: types.append("Real")
        case .string, .text, .literal: types.append("String")
        case .boolean: types.append("Integer(Boolean)")
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

/// Writes a record as one CSV row straight into a buffer: numbers as `Double.description` and
/// the JSON writer write them (``JSONCursor``), text copied with quoting only where a cell needs
/// it, and no `String` made per cell (a row of strings, joined and scanned again, cost 2.4 times
/// the NDJSON of the same records).
struct CSVRowWriter: RecordVisitor {
    private let out: ByteBuffer
    /// How many nearby places there are columns for: those not found are empty.
    let nearbyCount: Int
    /// Whether text cells that a spreadsheet would take for a formula are defused
    /// (``CSVFormulaGuard``).
    let guardFormulas: Bool
    /// Whether the row has the columns of `--lang`.
    let columns: ColumnGroups
    private var first = true
    private var nearbyOnly = false

    /// Calls `body` with a writer of one row to `out`, and ends the row (CRLF).
    @inline(__always)
    static func writing(
        to out: ByteBuffer, nearby: Int, guardFormulas: Bool, columns: ColumnGroups, _ body: (inout Self) -> Void
    ) {
        var writer = Self(out: out, nearbyCount: nearby, guardFormulas: guardFormulas, columns: columns)
        body(&writer)
        out.append(0x0D)
        out.append(0x0A)
    }

    private init(out: ByteBuffer, nearbyCount: Int, guardFormulas: Bool, columns: ColumnGroups) {
        self.out = out
        self.nearbyCount = nearbyCount
        self.guardFormulas = guardFormulas
        self.columns = columns
    }

    /// The comma before every cell but the first.
    @inline(__always)
    private mutating func nextCell() {
        if first { first = false } else { out.append(UInt8(ascii: ",")) }
    }

    /// A number's text, as JSON writes it (never `null` here: an absent value is an empty cell).
    @inline(__always)
    private func write(_ body: (inout JSONCursor) -> Void) {
        out.write(atMost: JSONCursor.numberRoom) { start in
            var cursor = JSONCursor(start)
            body(&cursor)
            return cursor.at
        }
    }

    /// A text cell: quoted when it holds a comma, quote, CR or LF (quotes doubled), with a `'`
    /// first when it would be a formula.
    private func text(_ bytes: UnsafeRawBufferPointer) {
        let defuse = guardFormulas && CSVFormulaGuard.isFormula(bytes)
        let quoted = bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        if quoted { out.append(0x22) }
        if defuse { out.append(UInt8(ascii: "'")) }
        if quoted {
            var start = 0
            for (index, byte) in bytes.enumerated() where byte == 0x22 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[start...index]))
                start = index  // the quote again, doubled
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[start...]))
            out.append(0x22)
        } else {
            out.append(contentsOf: bytes.bindMemory(to: UInt8.self))
        }
    }

    private func text(_ string: String) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { text(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var copy = string
            copy.withUTF8 { text(UnsafeRawBufferPointer($0)) }
        }
    }

    @inline(__always)
    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        guard !nearbyOnly || key.nearbyColumn else { return }
        nextCell()
        switch value {
        case .integer(let value?): write { $0.integer(value) }
        case .number(let value?) where value.isFinite: write { $0.number(value) }
        case .metres(let value?): write { $0.metres(value) }
        case .string(let value?): text(value)
        case .text(let value?): text(value)
        case .literal(let value?): out.append(value)
        case .boolean(let value?): out.append(value ? "true" : "false")
        default: break  // absent: an empty cell
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
        nextCell()
        if !texts.isEmpty { text(texts.count == 1 ? texts[0] : texts.joined(separator: "; ")) }
    }

    mutating func input(_ values: InputValues) {
        for value in values.values {
            nextCell()
            if let value { text(value) }
        }
    }

    mutating func fileBytes(_ path: ArraySlice<UInt8>?) {
        nextCell()
        if let path { out.append(base64(path)) }  // base64 needs no quotes, and is never defused
    }
}

/// OWASP's advice against CSV injection: a text cell that starts with `=`, `+`, `-`, `@`, a tab or
/// a carriage return is a formula to Excel, LibreOffice and Google Sheets, which a file or
/// place name, or a column passed through from the input, could use to run something. Such a
/// cell gets a `'` in front, which spreadsheets show as text and do not keep in the value.
/// A cell of nothing but digits, signs, points and colons is left alone: `-33.8` and the offset
/// `+02:00` can call no function. Nor is `file_bytes` touched, whose base64 needs its bytes
/// exact.
enum CSVFormulaGuard {
    /// Whether a cell's bytes would be a formula.
    @inline(__always)
    static func isFormula(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first,
            first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40
                || first == 0x09 || first == 0x0D
        else { return false }
        return !bytes.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x3A }
    }

    /// `value` as the guard writes it.
    static func defused(_ value: String) -> String {
        var copy = value
        let formula = copy.withUTF8 { isFormula(UnsafeRawBufferPointer($0)) }
        return formula ? "'" + value : value
    }
}

extension PhotoRecord {
    /// Appends the record's CSV row (``CSVColumns/photo(nearby:local:)``, for `count` nearby
    /// places, with the columns of `--lang` when `local`).
    func writeCSV(to out: ByteBuffer, nearby count: Int, guardFormulas: Bool, columns: ColumnGroups) {
        CSVRowWriter.writing(to: out, nearby: count, guardFormulas: guardFormulas, columns: columns) { writer in
            withTexts(&writer) { record, texts, writer in record.visitFields(texts, nearby: count > 0, &writer) }
        }
    }
}

extension CoordinateRecord {
    /// Appends the record's CSV row (``CSVColumns/coordinate(nearby:local:)``, for `count` nearby
    /// places, with the columns of `--lang` when `local`).
    func writeCSV(to out: ByteBuffer, nearby count: Int, guardFormulas: Bool, columns: ColumnGroups) {
        CSVRowWriter.writing(to: out, nearby: count, guardFormulas: guardFormulas, columns: columns) { writer in
            visitFields(nearby: count > 0, &writer)
        }
    }

    /// ``writeCSV(to:nearby:guardFormulas:)`` of a point that was looked up, without nearby
    /// places, from its parts (as ``writeCompact(coordinate:location:line:input:fragments:to:)``
    /// writes NDJSON): no record made and copied.
    static func writeCSV(
        coordinate: Coordinate, location: borrowing UnsafeLocation, line: Int?, input: InputValues?,
        guardFormulas: Bool, columns: ColumnGroups, to out: ByteBuffer
    ) {
        withUnsafePointer(to: location) { location in
            CSVRowWriter.writing(to: out, nearby: 0, guardFormulas: guardFormulas, columns: columns) { writer in
                visitFields(
                    coordinate: coordinate, atSea: location.pointee.atSea, error: nil, line: line, input: input,
                    &writer
                ) { writer in writer.place(location.pointee) }
            }
        }
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
