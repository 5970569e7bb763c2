import PhotoTagSupport
import ReverseGeocoding

/// Why a coordinate could not be read from text.
enum CoordinateProblem: Error, Equatable, CustomStringConvertible {
    /// Not two fields separated by a comma, a tab or spaces.
    case shape(String)
    /// A field that is not a plain decimal number.
    case notANumber(String)
    case latitudeOutOfRange(String)
    case longitudeOutOfRange(String)
    /// Degrees, minutes and seconds (or hemisphere letters), or another form copied from a web
    /// page (a `geo:` URI, forms separated by ` / `…), that do not make a coordinate: the line,
    /// and why.
    case dms(String, String)
    /// Column names where a coordinate was expected: the line, and whether the longitude comes
    /// first.
    case header(String, longitudeFirst: Bool)
    /// A line longer than the limit (in bytes), not read.
    case tooLong(Int)
    /// A row of a table (``InputTable``) whose fields do not make a row: the line, and why.
    case columns(String, String)

    var description: String {
        switch self {
        case .shape(let text):
            "expected 'latitude,longitude' (or separated by a tab or spaces), got '\(Self.quote(text))'"
        case .notANumber(let text): "'\(Self.quote(text))' is not a number"
        case .latitudeOutOfRange(let text): "latitude \(Self.quote(text)) is out of range (-90 to 90)"
        case .longitudeOutOfRange(let text): "longitude \(Self.quote(text)) is out of range (-180 to 180)"
        case .dms(let text, let reason): "'\(Self.quote(text))': \(reason)"
        case .header(let text, _):
            "'\(Self.quote(text))' is a header, which is only read as one on the first line of standard input"
        case .tooLong(let limit): "the line is longer than \(grouped(limit)) bytes; not read"
        case .columns(let text, let reason): "'\(Self.quote(text))': \(reason)"
        }
    }

    /// The most characters of the input a message quotes.
    static let quotedLength = 80

    /// `text` as a message quotes it: whole up to ``quotedLength`` characters, else its start
    /// and `…`, so that a huge bad line makes a short message.
    static func quote(_ text: String) -> String {
        guard text.utf8.count > quotedLength else { return text }
        let characters = Array(text.unicodeScalars.prefix(quotedLength + 1))
        guard characters.count > quotedLength else { return text }
        var quoted = String.UnicodeScalarView()
        quoted.append(contentsOf: characters.prefix(quotedLength))
        return String(quoted) + "…"
    }
}

/// Reads a coordinate: `lat,lon`, `lat;lon`, `lat<TAB>lon` or `lat lon` in decimal degrees
/// (spaces around the separator allowed), or failing that the degrees, minutes, seconds and
/// hemisphere letters that map sites and Wikipedia print (see ``parseDMS(_:)``), or the other
/// forms copied from web pages (see ``parseCopiedCoordinate(_:)``).
///
/// Nothing is allocated for plain decimal lines unless they are rejected: `geocode` reads
/// millions of lines.
func parseCoordinate(_ bytes: ArraySlice<UInt8>) -> Result<Coordinate, CoordinateProblem> {
    let line = trimmed(bytes)
    let plain = parseDecimalCoordinate(line)
    guard case .failure(let problem) = plain else { return plain }
    switch problem {
    case .shape, .notANumber: break
    default: return plain  // two numbers, one out of range
    }
    let text = String(decoding: line, as: UTF8.self)
    if let kind = coordinateHeader(line) { return .failure(.header(text, longitudeFirst: kind == .longitudeFirst)) }
    if let copied = parseCopiedCoordinate(text) { return copied }
    return mayBeDMS(text) ? parseDMS(text) : plain
}

/// ``parseCoordinate(_:)`` of a line that gives the longitude first (`--columns lon,lat`):
/// its two fields are read in the other order. A line that is not two fields is read as is
/// (degrees, minutes and seconds with hemisphere letters say which is which).
func parseCoordinate(longitudeFirst bytes: ArraySlice<UInt8>) -> Result<Coordinate, CoordinateProblem> {
    let line = trimmed(bytes)
    guard let (first, second) = splitFields(line),
        let separator = line.first(where: { [0x2C, 0x3B, 0x09, 0x20].contains($0) })
    else { return parseCoordinate(line) }
    return parseCoordinate(ArraySlice(Array(second) + [separator] + Array(first)))
}

/// Reads two plain decimal numbers separated by a comma, a semicolon, a tab or spaces.
private func parseDecimalCoordinate(_ line: ArraySlice<UInt8>) -> Result<Coordinate, CoordinateProblem> {
    func shape() -> CoordinateProblem { .shape(String(decoding: line, as: UTF8.self)) }
    guard let (first, second) = splitFields(line) else { return .failure(shape()) }
    guard let latitude = DecimalNumber.parse(first, exponent: .allowed) else {
        return .failure(.notANumber(String(decoding: first, as: UTF8.self)))
    }
    guard let longitude = DecimalNumber.parse(second, exponent: .allowed) else {
        return .failure(.notANumber(String(decoding: second, as: UTF8.self)))
    }
    guard abs(latitude) <= 90 else { return .failure(.latitudeOutOfRange(String(decoding: first, as: UTF8.self))) }
    guard abs(longitude) <= 180 else {
        return .failure(.longitudeOutOfRange(String(decoding: second, as: UTF8.self)))
    }
    return .success(Coordinate(latitude: latitude, longitude: longitude)!)
}

/// The two fields of a trimmed line: split at its only comma, else its only semicolon (as
/// Wikipedia and GeoHack print `48.85806; 2.29444`), else its only tab, else its only run of
/// spaces; `nil` when there are not exactly two non-empty fields. A line with both commas and
/// a semicolon (`48,85806;2,29444`, decimal commas) is split at its commas, and so refused.
///
/// One look at the bytes in place, by index: the two fields are the only slices made (each
/// slice of the line retains its array, and the trims and searches of slices were a tenth of
/// `geocode`'s parsing).
func splitFields(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>)? {
    let ranges: (Range<Int>, Range<Int>)? = line.withUnsafeBufferPointer { buffer in
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        let count = buffer.count
        /// `lo..<hi` without the spaces, tabs and carriage returns at either end.
        func trim(_ lo: Int, _ hi: Int) -> Range<Int> {
            var lo = lo, hi = hi
            while lo < hi, isSpace(buffer[lo]) { lo += 1 }
            while hi > lo, isSpace(buffer[hi - 1]) { hi -= 1 }
            return lo..<hi
        }
        func position(of byte: UInt8, from start: Int = 0) -> Int? {
            var index = start
            while index < count {
                if buffer[index] == byte { return index }
                index += 1
            }
            return nil
        }
        let first: Range<Int>, second: Range<Int>
        if let split = position(of: UInt8(ascii: ",")) ?? position(of: UInt8(ascii: ";")) ?? position(of: 0x09) {
            let separator = buffer[split]
            first = trim(0, split)
            second = trim(split + 1, count)
            guard position(of: separator, from: second.lowerBound).map({ $0 >= second.upperBound }) ?? true else {
                return nil
            }
        } else if let split = position(of: 0x20) {
            first = 0..<split
            second = trim(split, count)
            guard position(of: 0x20, from: second.lowerBound).map({ $0 >= second.upperBound }) ?? true else {
                return nil
            }
        } else {
            return nil
        }
        guard !first.isEmpty, !second.isEmpty else { return nil }
        return (first, second)
    }
    guard let (first, second) = ranges else { return nil }
    let base = line.startIndex
    return (
        line[(base + first.lowerBound)..<(base + first.upperBound)],
        line[(base + second.lowerBound)..<(base + second.upperBound)]
    )
}

// MARK: - Copied from web pages

/// Reads the forms of a coordinate that web pages add around the numbers, as copied from them;
/// `nil` when `text` is none of them (then it is read as degrees, minutes and seconds):
///
/// - invisible characters (U+FEFF, which Wikipedia puts around its ` / `, U+200B, U+2060, bidi
///   marks…) are dropped, and other spaces (U+00A0, U+202F…) are spaces;
/// - `geo:48.85806,2.29444` (RFC 5870, as OpenStreetMap shares it; an altitude, `;u=` and
///   `?z=` are ignored, a `crs` other than WGS 84 is refused);
/// - `#map=17/48.85806/2.29444`, the fragment of an OpenStreetMap URL (zoom, latitude,
///   longitude), alone or in the URL;
/// - a label before a colon and a space: `Coordinates: …`;
/// - decimal commas with a semicolon between the values (`48,85806;2,29444`) are refused, and
///   the message shows them with points;
/// - forms of one point separated by ` / `, as Wikipedia prints
///   `48°51′29″N 2°17′40″E / 48.85806°N 2.29444°E / 48.85806; 2.29444`: each must be read and
///   all must agree within 0.01° (they differ only in how they are rounded); the last is taken.
///   Forms that are different points are refused rather than one of them guessed at.
func parseCopiedCoordinate(_ text: String) -> Result<Coordinate, CoordinateProblem>? {
    let visible = withoutInvisibleCharacters(text)
    if visible != text { return parseCoordinate(Array(visible.utf8)[...]) }
    func fail(_ reason: String) -> Result<Coordinate, CoordinateProblem> { .failure(.dms(text, reason)) }
    func decimal(_ latitude: Substring, _ longitude: Substring) -> Result<Coordinate, CoordinateProblem> {
        parseDecimalCoordinate(Array("\(latitude),\(longitude)".utf8)[...])
    }
    // 48,85806;2,29444 (a European spreadsheet's decimal commas) is refused, with the reading
    // meant: a comma is what separates the two values everywhere else.
    let halves = text.split(separator: ";", omittingEmptySubsequences: false)
    if halves.count == 2, text.contains(",") {
        let dotted = halves.map {
            String(decoding: trimmed(Array($0.utf8)[...]), as: UTF8.self).split(
                separator: ",", omittingEmptySubsequences: false)
        }
        if dotted.allSatisfy({ $0.count == 2 && DecimalNumber.parse("\($0[0]).\($0[1])".utf8) != nil }) {
            let meant = dotted.map { "\($0[0]).\($0[1])" }.joined(separator: "; ")
            return fail("decimal commas are not read (a comma separates the values); did you mean '\(meant)'?")
        }
    }
    let scalars = text.unicodeScalars
    if scalars.count > 4, text.utf8.prefix(4).map({ $0 | 0x20 }) == Array("geo:".utf8) {
        let uri = text.dropFirst(4)
        let path = uri.prefix { $0 != ";" && $0 != "?" }
        let parameters = uri.dropFirst(path.count).prefix { $0 != "?" }.split(separator: ";")
        for parameter in parameters where parameter.lowercased().hasPrefix("crs=") {
            guard parameter.lowercased() == "crs=wgs84" else {
                return fail("only geo: URIs in WGS 84 are read (crs=wgs84)")
            }
        }
        let fields = path.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 2 || (fields.count == 3 && DecimalNumber.parse(fields[2].utf8) != nil) else {
            return fail("a geo: URI holds a latitude, a longitude and maybe an altitude: geo:48.85806,2.29444")
        }
        return decimal(fields[0], fields[1])
    }
    if let map = text.firstRange(of: "#map=") {
        let fields = text[map.upperBound...].prefix { $0 != "&" }.split(
            separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 3, DecimalNumber.parse(fields[0].utf8) != nil else {
            return fail("a map URL holds #map=zoom/latitude/longitude: #map=17/48.85806/2.29444")
        }
        return decimal(fields[1], fields[2])
    }
    if let colon = text.firstIndex(of: ":"), text.index(after: colon) < text.endIndex,
        text[text.index(after: colon)] == " ",
        text[..<colon].unicodeScalars.filter({ $0 != " " }).count >= 2,
        text[..<colon].unicodeScalars.allSatisfy({ $0 == " " || $0.properties.isAlphabetic })
    {
        return parseCoordinate(Array(text[text.index(after: colon)...].utf8)[...])
    }
    guard text.contains(" / ") else { return nil }
    var forms: [Coordinate] = []
    for form in text.split(separator: "/", omittingEmptySubsequences: false) {
        let bytes = trimmed(Array(form.utf8)[...])
        guard !bytes.isEmpty else { return fail("a '/' with no coordinate on one side") }
        switch parseCoordinate(bytes) {
        case .success(let coordinate): forms.append(coordinate)
        case .failure(let problem): return .failure(problem)
        }
    }
    for form in forms.dropFirst()
    where abs(form.latitude - forms[0].latitude) > 0.01 || abs(form.longitude - forms[0].longitude) > 0.01 {
        return fail("the forms separated by '/' are different points; give one of them")
    }
    return .success(forms[forms.count - 1])
}

/// `text` without the characters a web page hides in it (zero-width spaces and joiners, byte
/// order marks, soft hyphens, bidi marks), and with its other spaces (no-break, narrow, thin…)
/// as plain spaces.
func withoutInvisibleCharacters(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { !$0.isASCII }) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0xFEFF, 0x200B...0x200F, 0x2060...0x2064, 0x00AD, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
            continue
        case 0x00A0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000:
            scalars.append(" ")
        default:
            scalars.append(scalar)
        }
    }
    return String(scalars)
}

// MARK: - Headers

/// The column names a header may use, in lower case (any case is accepted): the latitude's
/// and the longitude's.
let latitudeColumnNames: Set<String> = ["lat", "latitude", "y"]
let longitudeColumnNames: Set<String> = ["lon", "lng", "long", "longitude", "x"]

/// Which column a header names first.
enum CoordinateHeader: Equatable {
    case latitudeFirst, longitudeFirst
}

/// Whether a line is a header: exactly two fields, split as a coordinate's are, each a latitude
/// or longitude column name (in any case, maybe in double or single quotes), one of each.
func coordinateHeader(_ bytes: ArraySlice<UInt8>) -> CoordinateHeader? {
    guard let (first, second) = splitFields(trimmed(bytes)) else { return nil }
    switch (CoordinateColumn(named: first), CoordinateColumn(named: second)) {
    case (.latitude?, .longitude?): return .latitudeFirst
    case (.longitude?, .latitude?): return .longitudeFirst
    default: return nil
    }
}

/// What a header's column name says its column holds: ``latitudeColumnNames`` or
/// ``longitudeColumnNames``, in any case, maybe in double or single quotes.
enum CoordinateColumn {
    case latitude, longitude

    init?(named field: some Collection<UInt8>) {
        var field = ArraySlice(field)
        if field.count >= 2, let quote = field.first, quote == 0x22 || quote == 0x27, field.last == quote {
            field = field.dropFirst().dropLast()
        }
        let name = String(decoding: field.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        if latitudeColumnNames.contains(name) {
            self = .latitude
        } else if longitudeColumnNames.contains(name) {
            self = .longitude
        } else {
            return nil
        }
    }
}

// MARK: - Degrees, minutes and seconds

/// The marks that follow a number in degrees-minutes-seconds notation.
private enum DMSUnit: Int {
    case degrees = 0, minutes, seconds

    var name: String { ["degrees", "minutes", "seconds"][rawValue] }
}

/// Whether the DMS parser should read a line the decimal parser rejected: it has a non-ASCII
/// character (`°`, `′`, `″`, `−`…), a `'` or `"`, or a hemisphere letter standing apart from
/// other letters (`48.8N`, `N 48.8`, but not the `n` of `nan`).
private func mayBeDMS(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    for (index, scalar) in scalars.enumerated() {
        if !scalar.isASCII || scalar == "'" || scalar == "\"" { return true }
        guard "NSEWnsew".unicodeScalars.contains(scalar) else { continue }
        let before = index > 0 ? scalars[index - 1].properties.isAlphabetic : false
        let after = index + 1 < scalars.count ? scalars[index + 1].properties.isAlphabetic : false
        if !before, !after { return true }
    }
    return false
}

/// One of the two values of a DMS coordinate as read: its hemisphere letter, sign and parts.
private struct DMSValue {
    /// `N`, `S`, `E` or `W`, before or after the numbers.
    var letter: Unicode.Scalar? = nil
    var negative = false
    /// The numbers with the unit each stands for, and whether a mark said so.
    var parts: [(value: Double, unit: DMSUnit, marked: Bool)] = []
    /// Where the value is in the line, for messages.
    var start: Int
    var end: Int

    /// The value in degrees, without its sign.
    var magnitude: Double {
        parts.reduce(0) { sum, part in
            sum + part.value / [1, 60, 3600][part.unit.rawValue]
        }
    }
}

/// Reads a coordinate in degrees, minutes and seconds or decimal degrees with marks and
/// hemisphere letters, as map sites and Wikipedia print them:
///
/// - `48°51'29.6"N 2°17'40.2"E`, with `′` and `″` too (and `º`, `˚`, `’`, `”`, `''`);
/// - `48 51 29.6 N, 2 17 40.2 E`, `48°51.4938'N 2°17.67'E`;
/// - `N48.8582 E2.2945`, `48.8582N 2.2945E`, `48.8582° N, 2.2945° E`, `-33.8688°, 151.2093°`.
///
/// The two values are separated by a comma, spaces, or hemisphere letters. Minutes and seconds
/// are under 60, and only the last part of a value may have a fraction. With letters, both
/// values have one, the latitude's `N` or `S` and the longitude's `E` or `W` (in either order);
/// a minus sign and a letter together are refused rather than guessed at. Numbers with neither
/// marks nor letters (`48 51 29.6, 2 17 40.2`) are refused as ambiguous.
func parseDMS(_ text: String) -> Result<Coordinate, CoordinateProblem> {
    let scalars = Array(text.unicodeScalars)
    func fail(_ reason: String) -> Result<Coordinate, CoordinateProblem> { .failure(.dms(text, reason)) }
    func excerpt(_ value: DMSValue) -> String {
        String(String.UnicodeScalarView(scalars[value.start..<value.end])).trimmingSpaces
    }
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        [" ", "\t", "\r", "\u{A0}", "\u{2009}", "\u{202F}"].contains(scalar)
    }
    var values: [DMSValue] = []
    var current: DMSValue? = nil
    var afterComma = false
    var index = 0
    while index < scalars.count {
        let scalar = scalars[index]
        if isSpace(scalar) {
            index += 1
        } else if scalar == "," || scalar == ";" {
            if let value = current {
                guard !value.parts.isEmpty else { return fail("'\(excerpt(value))' has no number") }
                values.append(value)
                current = nil
            } else if values.isEmpty || afterComma {
                return fail("a comma with no number before it")
            }
            afterComma = true
            index += 1
        } else if "NSEWnsew".unicodeScalars.contains(scalar) {
            let letter = Unicode.Scalar(UInt8(scalar.value) & ~0x20)  // upper case
            if var value = current {
                guard !value.parts.isEmpty else { return fail("two hemisphere letters in a row") }
                if value.letter == nil {  // after the numbers: it ends the value
                    value.letter = letter
                    value.end = index + 1
                    values.append(value)
                    current = nil
                } else {  // the next value's, before its numbers
                    values.append(value)
                    current = DMSValue(letter: letter, start: index, end: index + 1)
                }
            } else {
                current = DMSValue(letter: letter, start: index, end: index + 1)
            }
            afterComma = false
            index += 1
        } else if isDigit(scalar) || scalar == "." || scalar == "-" || scalar == "+" || scalar == "\u{2212}" {
            let start = index
            let signed = !isDigit(scalar) && scalar != "."
            let negative = scalar == "-" || scalar == "\u{2212}"
            if signed { index += 1 }
            let digitsStart = index
            while index < scalars.count, isDigit(scalars[index]) || scalars[index] == "." { index += 1 }
            let digits = String(String.UnicodeScalarView(scalars[digitsStart..<index]))
            guard let number = DecimalNumber.parse(digits.utf8, exponent: .allowed) else {
                let shown = String(String.UnicodeScalarView(scalars[start..<index]))
                return fail("'\(shown)' is not a number")
            }
            var next = index
            while next < scalars.count, scalars[next] == " " { next += 1 }
            var unit: DMSUnit? = nil
            if next < scalars.count {
                switch scalars[next] {
                case "°", "º", "˚": unit = .degrees
                case "′", "’": unit = .minutes
                case "'":
                    unit = next + 1 < scalars.count && scalars[next + 1] == "'" ? .seconds : .minutes
                    if unit == .seconds { next += 1 }
                case "″", "”", "\"": unit = .seconds
                default: break
                }
            }
            if unit != nil { index = next + 1 }
            // Does the number go on with the current value, or start the next one?
            if var value = current, let last = value.parts.last {
                let follows = unit.map { $0.rawValue > last.unit.rawValue } ?? (!last.marked && last.unit != .seconds)
                if follows, !signed {
                    let position = unit ?? DMSUnit(rawValue: last.unit.rawValue + 1)!
                    guard position.rawValue == last.unit.rawValue + 1 else {
                        return fail("\(position.name) without \(DMSUnit(rawValue: position.rawValue - 1)!.name)")
                    }
                    value.parts.append((number, position, unit != nil))
                    value.end = index
                    current = value
                    afterComma = false
                    continue
                }
                if unit == nil, !last.marked, !signed {
                    return fail(
                        "cannot tell where the latitude ends; put a comma or hemisphere letters between the values")
                }
                values.append(value)
                current = nil
            }
            var value = current ?? DMSValue(start: start, end: index)
            value.negative = negative
            value.parts.append((number, unit ?? .degrees, unit != nil))
            value.end = index
            current = value
            afterComma = false
        } else {
            return fail("unexpected '\(scalar)'")
        }
    }
    if let value = current { values.append(value) }
    if afterComma { return fail("a comma with no number after it") }

    var degrees: [Double] = []
    for value in values {
        guard let first = value.parts.first else { return fail("'\(excerpt(value))' has no number") }
        guard first.unit == .degrees else { return fail("'\(excerpt(value))' has \(first.unit.name) but no degrees") }
        for (part, next) in zip(value.parts, value.parts.dropFirst()) where part.value != part.value.rounded() {
            return fail("\(part.unit.name) must be whole when \(next.unit.name) follow")
        }
        for part in value.parts where part.unit != .degrees && part.value >= 60 {
            return fail("\(part.unit.name) must be under 60")
        }
        if value.negative, let letter = value.letter {
            return fail("a minus sign and the letter \(Character(letter)) together; use one or the other")
        }
        if value.parts.count > 1, value.letter == nil, !value.parts.contains(where: \.marked) {
            return fail(
                "'\(excerpt(value))' is ambiguous; mark degrees, minutes and seconds (48°51'29.6\") or add N/S and E/W")
        }
        degrees.append(
            value.negative || value.letter == "S" || value.letter == "W" ? -value.magnitude : value.magnitude)
    }
    guard values.count == 2 else {
        return fail("expected a latitude and a longitude, found \(values.count) value\(values.count == 1 ? "" : "s")")
    }
    var (latitude, longitude) = (degrees[0], degrees[1])
    var (latitudeText, longitudeText) = (excerpt(values[0]), excerpt(values[1]))
    switch (values[0].letter, values[1].letter) {
    case (nil, nil):
        break
    case (let a?, let b?):
        let north = { (letter: Unicode.Scalar) in letter == "N" || letter == "S" }
        switch (north(a), north(b)) {
        case (true, false): break
        case (false, true):
            swap(&latitude, &longitude)
            swap(&latitudeText, &longitudeText)
        case (true, true): return fail("both values are latitudes (N or S); the longitude needs E or W")
        case (false, false): return fail("both values are longitudes (E or W); the latitude needs N or S")
        }
    default:
        return fail("give both values a hemisphere letter (N or S, E or W), or neither")
    }
    guard abs(latitude) <= 90 else { return .failure(.latitudeOutOfRange(latitudeText)) }
    guard abs(longitude) <= 180 else { return .failure(.longitudeOutOfRange(longitudeText)) }
    return .success(Coordinate(latitude: latitude, longitude: longitude)!)
}

extension String {
    /// The string without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

/// `bytes` without leading and trailing spaces, tabs and carriage returns.
func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
    var slice = bytes
    while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    return slice
}
