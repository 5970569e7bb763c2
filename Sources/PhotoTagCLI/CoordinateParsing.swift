import ReverseGeocoding

/// Why a coordinate could not be read from text.
enum CoordinateProblem: Error, Equatable, CustomStringConvertible {
    /// Not two fields separated by a comma, a tab or spaces.
    case shape(String)
    /// A field that is not a plain decimal number.
    case notANumber(String)
    case latitudeOutOfRange(String)
    case longitudeOutOfRange(String)

    var description: String {
        switch self {
        case .shape(let text): "expected 'latitude,longitude' (or separated by a tab or spaces), got '\(text)'"
        case .notANumber(let text): "'\(text)' is not a number"
        case .latitudeOutOfRange(let text): "latitude \(text) is out of range (-90 to 90)"
        case .longitudeOutOfRange(let text): "longitude \(text) is out of range (-180 to 180)"
        }
    }
}

/// Reads `lat,lon`, `lat<TAB>lon` or `lat lon` (spaces around the separator allowed).
///
/// Nothing is allocated unless the line is rejected: `geocode` reads millions of lines.
func parseCoordinate(_ bytes: ArraySlice<UInt8>) -> Result<Coordinate, CoordinateProblem> {
    let line = trimmed(bytes)
    func shape() -> CoordinateProblem { .shape(String(decoding: line, as: UTF8.self)) }
    var first: ArraySlice<UInt8>, second: ArraySlice<UInt8>
    if let split = line.firstIndex(of: UInt8(ascii: ",")) ?? line.firstIndex(of: 0x09) {
        let separator = line[split]
        first = trimmed(line[..<split])
        second = trimmed(line[(split + 1)...])
        guard !second.contains(separator) else { return .failure(shape()) }
    } else if let split = line.firstIndex(of: 0x20) {
        first = line[..<split]
        second = trimmed(line[split...])
        guard !second.contains(0x20) else { return .failure(shape()) }
    } else {
        return .failure(shape())
    }
    guard !first.isEmpty, !second.isEmpty else { return .failure(shape()) }
    guard let latitude = parseDecimal(first) else {
        return .failure(.notANumber(String(decoding: first, as: UTF8.self)))
    }
    guard let longitude = parseDecimal(second) else {
        return .failure(.notANumber(String(decoding: second, as: UTF8.self)))
    }
    guard abs(latitude) <= 90 else { return .failure(.latitudeOutOfRange(String(decoding: first, as: UTF8.self))) }
    guard abs(longitude) <= 180 else {
        return .failure(.longitudeOutOfRange(String(decoding: second, as: UTF8.self)))
    }
    return .success(Coordinate(latitude: latitude, longitude: longitude)!)
}

/// `bytes` without leading and trailing spaces, tabs and carriage returns.
func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
    var slice = bytes
    while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    return slice
}

func parseDecimal(_ text: String) -> Double? { parseDecimal(ArraySlice(text.utf8)) }

/// Powers of ten that a `Double` holds exactly.
private let exactPowersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
}

/// A plain decimal number (`-12.5`, `+3`, `.5`, `1e-3`), correctly rounded; `nil` for anything
/// else (`nan`, `inf`, hex, empty, stray characters).
///
/// Most coordinates have at most 15 significant digits, and then one exact multiplication or
/// division by an exact power of ten gives the correctly rounded result (Clinger's fast path);
/// longer numbers go through the standard library's parser.
func parseDecimal(_ bytes: ArraySlice<UInt8>) -> Double? {
    var index = bytes.startIndex
    let end = bytes.endIndex
    var negative = false
    if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        negative = bytes[index] == UInt8(ascii: "-")
        index += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var significant = 0
    var exponent = 0
    var sawDot = false
    while index < end {
        let byte = bytes[index]
        if (0x30...0x39).contains(byte) {
            digits += 1
            if mantissa == 0 && byte == 0x30 {
                if sawDot { exponent -= 1 }
            } else if significant < 19 {
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                significant += 1
                if sawDot { exponent -= 1 }
            } else {
                significant += 1
                if !sawDot { exponent += 1 }
            }
        } else if byte == UInt8(ascii: "."), !sawDot {
            sawDot = true
        } else {
            break
        }
        index += 1
    }
    guard digits > 0 else { return nil }
    if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        index += 1
        var exponentNegative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            exponentNegative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var value = 0
        var exponentDigits = 0
        while index < end, (0x30...0x39).contains(bytes[index]) {
            value = min(value * 10 + Int(bytes[index] - 0x30), 100_000)
            exponentDigits += 1
            index += 1
        }
        guard exponentDigits > 0 else { return nil }
        exponent += exponentNegative ? -value : value
    }
    guard index == end else { return nil }
    let result: Double
    if significant <= 15, abs(exponent) <= 22 {
        let base = Double(mantissa)
        result = exponent >= 0 ? base * exactPowersOfTen[exponent] : base / exactPowersOfTen[-exponent]
    } else {
        guard let parsed = Double(String(decoding: bytes, as: UTF8.self)), parsed.isFinite else { return nil }
        return parsed
    }
    return negative ? -result : result
}
