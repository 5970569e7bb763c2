import PhotoTagSupport

/// A JSON value, as read by ``JSONValue/parse(_:)``: the small strict reader behind Google
/// Takeout sidecars.
///
/// Objects keep their members in file order (a repeated key is an error, since which one would
/// win is not defined). Numbers are kept as `Double`.
enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The member named `key` of an object; `nil` for a missing key or another kind of value.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// Why a text is not JSON: what was expected, and at which byte (counted from 0).
    struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        var message: String
        var offset: Int

        var description: String { "\(message) at byte \(offset)" }
    }

    /// The deepest nesting of arrays and objects read; real Takeout files nest three levels.
    static let maximumDepth = 64

    /// Parses one JSON text (RFC 8259): one value, with only white space around it. A UTF-8 byte
    /// order mark at the start is allowed; strings must be valid UTF-8 and use only the escapes
    /// JSON defines; numbers follow JSON's grammar (no `NaN`, no leading `+` or zero).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipSpaces()
        let value = try parser.value(depth: 0)
        parser.skipSpaces()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }
}

/// The recursive-descent reader behind ``JSONValue/parse(_:)``.
private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    func error(_ message: String) -> JSONValue.SyntaxError {
        JSONValue.SyntaxError(message: message, offset: index)
    }

    mutating func skipSpaces() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("the text ends where a value should start") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth)") }
            return try object(depth: depth + 1)
        case UInt8(ascii: "["):
            guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth)") }
            return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), 0x30...0x39: return .number(try number())
        default: throw error("expected a value")
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValue.SyntaxError) -> JSONValue {
        let pattern = Array(word.utf8)
        guard index + pattern.count <= bytes.count, bytes[index..<index + pattern.count].elementsEqual(pattern)
        else { throw error("expected a value") }
        index += pattern.count
        return value
    }

    mutating func object(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        index += 1  // {
        var members: [(String, JSONValue)] = []
        var keys = Set<String>()
        skipSpaces()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let keyStart = index
            let key = try string()
            guard keys.insert(key).inserted else {
                index = keyStart
                throw error("repeated key \"\(key)\"")
            }
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipSpaces()
            members.append((key, try value(depth: depth)))
            skipSpaces()
            guard index < bytes.count else { throw error("the text ends inside an object") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            index += 1
        }
    }

    mutating func array(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        index += 1  // [
        var values: [JSONValue] = []
        skipSpaces()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipSpaces()
            values.append(try value(depth: depth))
            skipSpaces()
            guard index < bytes.count else { throw error("the text ends inside an array") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            index += 1
        }
    }

    /// Four hexadecimal digits at `index`.
    mutating func hex4() throws(JSONValue.SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("the text ends inside a \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    mutating func string() throws(JSONValue.SyntaxError) -> String {
        index += 1  // "
        var result: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("the text ends inside a string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // The bytes between escapes are checked as UTF-8 here, once.
                var decoded = ""
                var iterator = result.makeIterator()
                var codec = UTF8()
                decoding: while true {
                    switch codec.decode(&iterator) {
                    case .scalarValue(let scalar): decoded.unicodeScalars.append(scalar)
                    case .emptyInput: break decoding
                    case .error: throw error("a string is not valid UTF-8")
                    }
                }
                return decoded
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("the text ends inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escape)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("a lone surrogate in a \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate in a \\u escape") }
                    result += Array(String(Character(scalar)).utf8)
                default:
                    index -= 1
                    throw error("unknown escape")
                }
            case 0x00..<0x20:
                throw error("a control character in a string")
            default:
                result.append(byte)
                index += 1
            }
        }
    }

    mutating func number() throws(JSONValue.SyntaxError) -> Double {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("expected a digit") }
        guard integerDigits == 1 || bytes[integerStart] != 0x30 else {
            index = integerStart
            throw error("a number with a leading zero")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        guard let value = DecimalNumber.parse(bytes[start..<index]) else {
            index = start
            throw error("a number out of range")
        }
        return value
    }
}
