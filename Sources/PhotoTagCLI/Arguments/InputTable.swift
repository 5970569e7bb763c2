import PhotoTagSupport
import ReverseGeocoding

/// A table of coordinates on `geocode`'s standard input, named by its header line: which
/// columns hold the latitude and the longitude, whatever their order (`lat,lon`, `lon,lat`,
/// `x,y`, `id,lat,lon,alt,…`), how fields are separated (a comma, a semicolon or a tab), and the
/// names of the other columns, whose values every record carries along (`input`, or the
/// `input_…` columns of CSV and GeoJSON) so that an answer can be joined to its row.
///
/// Fields are read as CSV reads them (RFC 4180): a field may be quoted with `"`, a quote inside
/// one doubled, and a quoted field may hold the separator. Space around a field is not part of
/// it.
struct InputTable: Equatable, Sendable {
    /// The separator: `,`, `;` or a tab.
    var separator: UInt8
    /// How many columns the header names.
    var columnCount: Int
    /// The latitude's column and the longitude's (0-based).
    var latitude: Int
    var longitude: Int
    /// The other columns, by index, and their names as the header gives them (a name given
    /// twice, or none, is made unique with its column number: `name_3`, `column_4`).
    var passed: [(index: Int, name: String)]

    static func == (a: InputTable, b: InputTable) -> Bool {
        a.separator == b.separator && a.columnCount == b.columnCount && a.latitude == b.latitude
            && a.longitude == b.longitude && a.passed.map(\.index) == b.passed.map(\.index)
            && a.passed.map(\.name) == b.passed.map(\.name)
    }

    /// The names of the columns passed through.
    var passedNames: [String] { passed.map(\.name) }

    /// Whether the longitude's column comes before the latitude's.
    var longitudeFirst: Bool { longitude < latitude }

    /// The table a header line names, or `nil` when the line is not a header: split by its
    /// separator (a tab when it has one, else a semicolon when it has one and no comma, else a
    /// comma), it has exactly one column named as a latitude (`lat`, `latitude`, `y`) and one
    /// named as a longitude (`lon`, `lng`, `long`, `longitude`, `x`), in any case and maybe
    /// quoted.
    static func header(_ line: ArraySlice<UInt8>) -> InputTable? {
        let separator: UInt8 =
            line.contains(0x09) ? 0x09 : line.contains(0x3B) && !line.contains(0x2C) ? 0x3B : 0x2C
        guard let fields = split(line, separator: separator), fields.count >= 2 else { return nil }
        let names = fields.map { String(decoding: $0, as: UTF8.self) }
        let columns = fields.map { CoordinateColumn(named: $0) }
        let latitudes = columns.indices.filter { columns[$0] == .latitude }
        let longitudes = columns.indices.filter { columns[$0] == .longitude }
        guard latitudes.count == 1, longitudes.count == 1 else { return nil }
        var passed: [(index: Int, name: String)] = []
        var taken = Set<String>()
        for index in names.indices where index != latitudes[0] && index != longitudes[0] {
            var name = names[index].isEmpty ? "column_\(index + 1)" : names[index]
            if !taken.insert(name).inserted {
                name += "_\(index + 1)"
                taken.insert(name)
            }
            passed.append((index, name))
        }
        return InputTable(
            separator: separator, columnCount: fields.count, latitude: latitudes[0], longitude: longitudes[0],
            passed: passed)
    }

    /// One row of the table: its coordinate (or why there is none) and the values of the
    /// columns passed through (`nil` for a column the row lacks).
    func row(_ line: ArraySlice<UInt8>) -> (coordinate: Result<Coordinate, CoordinateProblem>, values: [String?]) {
        let text = { String(decoding: trimmed(line), as: UTF8.self) }
        guard let fields = Self.split(line, separator: separator) else {
            return (.failure(.columns(text(), "a quoted field that is never closed")), [])
        }
        let values = passed.map { $0.index < fields.count ? String(decoding: fields[$0.index], as: UTF8.self) : nil }
        guard fields.count > max(latitude, longitude) else {
            return (
                .failure(
                    .columns(
                        text(),
                        "\(fields.count) field\(fields.count == 1 ? "" : "s"), the header names \(columnCount) columns")
                ),
                values
            )
        }
        return (Self.coordinate(latitude: fields[latitude], longitude: fields[longitude], separator: separator), values)
    }

    /// The coordinate of two fields, each a decimal number (with a decimal comma too in a table
    /// not separated by commas, as spreadsheets in many languages write it) or, failing that,
    /// what ``parseCoordinate(_:)`` reads of the two (degrees, minutes and seconds…).
    static func coordinate(
        latitude: [UInt8], longitude: [UInt8], separator: UInt8
    ) -> Result<Coordinate, CoordinateProblem> {
        func number(_ field: [UInt8]) -> Double? {
            if let value = DecimalNumber.parse(field, exponent: .allowed) { return value }
            guard separator != 0x2C, field.filter({ $0 == 0x2C }).count == 1, !field.contains(0x2E) else { return nil }
            return DecimalNumber.parse(field.map { $0 == 0x2C ? 0x2E : $0 }, exponent: .allowed)
        }
        if let lat = number(latitude), let lon = number(longitude) {
            guard abs(lat) <= 90 else {
                return .failure(.latitudeOutOfRange(String(decoding: latitude, as: UTF8.self)))
            }
            guard abs(lon) <= 180 else {
                return .failure(.longitudeOutOfRange(String(decoding: longitude, as: UTF8.self)))
            }
            return .success(Coordinate(latitude: lat, longitude: lon)!)
        }
        return parseCoordinate(ArraySlice(latitude + Array(" , ".utf8) + longitude))
    }

    /// The fields of a line split at `separator`, as CSV splits them: quoted fields unquoted,
    /// space around each trimmed; `nil` when a quote is never closed.
    static func split(_ line: ArraySlice<UInt8>, separator: UInt8) -> [[UInt8]]? {
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var index = line.startIndex
        let end = line.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 && separator != 0x09 || byte == 0x0D }
        while true {
            while index < end, isSpace(line[index]) { index += 1 }
            field.removeAll(keepingCapacity: true)
            if index < end, line[index] == 0x22 {
                index += 1
                var closed = false
                while index < end {
                    if line[index] == 0x22 {
                        if index + 1 < end, line[index + 1] == 0x22 {
                            field.append(0x22)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    field.append(line[index])
                    index += 1
                }
                guard closed else { return nil }
                // Whatever follows the closing quote up to the separator is kept (as spreadsheets do).
                while index < end, line[index] != separator {
                    if !isSpace(line[index]) { field.append(line[index]) }
                    index += 1
                }
            } else {
                while index < end, line[index] != separator {
                    field.append(line[index])
                    index += 1
                }
                while let last = field.last, isSpace(last) { field.removeLast() }
            }
            fields.append(field)
            guard index < end else { break }
            index += 1  // the separator
        }
        return fields
    }
}

/// The values a record carries along from its input row (see ``InputTable``): the columns'
/// names (shared by every record of a run) and the row's values.
struct InputValues: Sendable {
    var names: [String]
    var values: [String?]
}
