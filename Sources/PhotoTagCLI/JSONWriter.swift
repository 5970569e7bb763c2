/// Appends JSON text to a byte buffer, pretty-printed or on one line, in the order values are
/// written.
///
/// Writing straight into bytes, with no intermediate tree, keeps rendering a record cheap enough
/// for a million records a second, and the order of keys is exactly the order of the calls.
struct JSONWriter {
    var bytes: [UInt8] = []
    /// Two-space indentation and one key per line (the `json` format); otherwise one line.
    let pretty: Bool
    /// The indentation level of the current container.
    private var depth = 0
    /// How many containers are open.
    private var containers = 0
    /// Whether the current container has no member yet.
    private var empty = true
    /// Whether the next value follows a key on the same line.
    private var afterKey = false

    /// - Parameter depth: the indentation level the value starts at (an element of an array
    ///   that is written separately starts at 1).
    init(pretty: Bool, depth: Int = 0) {
        self.pretty = pretty
        self.depth = depth
        bytes.reserveCapacity(1024)
    }

    /// Writes the separator and newline that go before a value or key.
    private mutating func prepareValue() {
        if afterKey {
            afterKey = false
            return
        }
        if containers > 0 {
            if !empty { bytes.append(UInt8(ascii: ",")) }
            if pretty { newline() }
        }
        empty = false
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { bytes.append(contentsOf: [0x20, 0x20]) }
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        prepareValue()
        bytes.append(bracket)
        depth += 1
        containers += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        containers -= 1
        if !empty, pretty { newline() }
        bytes.append(bracket)
        empty = false
    }

    /// Writes an object key; the next call writes its value.
    mutating func key(_ name: StaticString) {
        prepareValue()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: pretty ? [0x22, 0x3A, 0x20] : [0x22, 0x3A])
        afterKey = true
    }

    mutating func null() {
        prepareValue()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        prepareValue()
        Self.appendQuoted(value, to: &bytes)
    }

    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        prepareValue()
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func integer(_ value: Int?) {
        guard let value else { return null() }
        prepareValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped,
    /// everything else as UTF-8 (Swift strings are always valid Unicode, so no byte is lost).
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [0x5C, 0x6E])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [0x5C, 0x72])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(contentsOf: Array(hexDigits(byte).utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
