import PhotoTagSupport

/// Appends JSON text to a byte buffer, pretty-printed or on one line, in the order values are
/// written.
///
/// Writing straight into bytes, with no intermediate tree, keeps rendering a record cheap enough
/// for a million records a second, and the order of keys is exactly the order of the calls.
struct JSONWriter {
    /// Where the text goes.
    let out: ByteBuffer
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
    init(pretty: Bool, depth: Int = 0, into out: ByteBuffer = ByteBuffer()) {
        self.pretty = pretty
        self.depth = depth
        self.out = out
    }

    /// The text written so far (a copy).
    var bytes: [UInt8] { out.bytes }

    /// Writes the separator and newline that go before a value or key.
    @inline(__always)
    private mutating func prepareValue() {
        if afterKey {
            afterKey = false
            return
        }
        if containers > 0 {
            if !empty { out.append(UInt8(ascii: ",")) }
            if pretty { newline() }
        }
        empty = false
    }

    private mutating func newline() {
        out.append(UInt8(ascii: "\n"))
        out.append(repeating: 0x20, count: 2 * depth)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        prepareValue()
        out.append(bracket)
        depth += 1
        containers += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        containers -= 1
        if !empty, pretty { newline() }
        out.append(bracket)
        empty = false
    }

    /// Writes an object key; the next call writes its value.
    @inline(__always)
    mutating func key(_ name: StaticString) {
        prepareValue()
        out.appendKey(name, space: pretty)
        afterKey = true
    }

    /// Writes an object key made at run time (GeoJSON properties named as the CSV columns).
    mutating func key(named name: String) {
        prepareValue()
        Self.appendQuoted(name, to: out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    mutating func null() {
        prepareValue()
        out.append("null" as StaticString)
    }

    /// A string given as UTF-8 bytes (borrowed from the place table), or `null`.
    mutating func string(utf8 value: UnsafeRawBufferPointer?) {
        guard let value else { return null() }
        prepareValue()
        out.append(UInt8(ascii: "\""))
        let bytes = value.bindMemory(to: UInt8.self)
        // The table's text is valid UTF-8 (checked when it was opened), so only the bytes JSON
        // escapes need a look: most names, accented ones included, are copied in one go.
        if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            out.append(contentsOf: bytes)
        } else {
            for byte in bytes { Self.appendEscaped(byte, to: out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        prepareValue()
        Self.appendQuoted(value, to: out)
    }

    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        prepareValue()
        if !Self.appendShortDecimal(value, to: out) {
            out.append(value.description)  // at most 24 bytes: a small string, no allocation
        }
    }

    /// Writes `value` as `Double.description` would, for the common case of a number with at
    /// most seven decimals (coordinates of places and of most inputs), with integer arithmetic.
    /// Returns false, writing nothing, when the value needs the general algorithm.
    ///
    /// The fewest decimals whose rounding reads back as exactly `value` give the shortest text
    /// that round-trips, which is what `description` prints in this range.
    static func appendShortDecimal(_ value: Double, to out: ByteBuffer) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 1e-4, magnitude < 1e9 else { return false }
        var scale = 1.0
        for decimals in 0..<8 {
            if decimals > 0 { scale *= 10 }  // exact: every power of ten up to 10^22 is a Double
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            // Digits of round(|value| * 10^decimals), written backwards, with the point put in
            // `decimals` digits from the end (and ".0" for a whole number, as description does).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digits in
                var units = UInt64(scaled)
                var index = 32
                func put(_ byte: UInt8) {
                    index -= 1
                    digits[index] = byte
                }
                if decimals == 0 { put(0x30) }
                for _ in 0..<decimals {
                    put(UInt8(0x30 + units % 10))
                    units /= 10
                }
                put(UInt8(ascii: "."))
                repeat {
                    put(UInt8(0x30 + units % 10))
                    units /= 10
                } while units > 0
                if value < 0 { put(UInt8(ascii: "-")) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
            }
            return true
        }
        return false
    }

    /// A distance in kilometres to the metre, written as `Double.description` writes the rounded
    /// value (`4.0`, `4.01`, `4.009`), but with integer arithmetic: no float formatting.
    mutating func metres(_ kilometres: Double) {
        let metres = Int((kilometres * 1000).rounded())
        guard kilometres.isFinite, kilometres >= 0, metres < 1_000_000_000_000 else {
            return number(roundedDistance(kilometres))
        }
        prepareValue()
        Self.appendDigits(metres / 1000, to: out)
        out.append(UInt8(ascii: "."))
        var fraction = metres % 1000
        var digits = 3
        while digits > 1, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        if digits == 3, fraction < 100 { out.append(UInt8(ascii: "0")) }
        if digits >= 2, fraction < 10 { out.append(UInt8(ascii: "0")) }
        Self.appendDigits(fraction, to: out)
    }

    mutating func integer(_ value: Int?) {
        guard let value else { return null() }
        prepareValue()
        Self.appendDigits(value, to: out)
    }

    /// Writes an integer's decimal digits without making a `String`.
    static func appendDigits(_ value: Int, to out: ByteBuffer) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var magnitude = value.magnitude
            var index = 24
            repeat {
                index -= 1
                digits[index] = UInt8(0x30 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                digits[index] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped,
    /// everything else as UTF-8 (Swift strings are always valid Unicode, so no byte is lost).
    static func appendQuoted(_ value: String, to out: ByteBuffer) {
        var value = value
        value.withUTF8 { utf8 in
            out.append(UInt8(ascii: "\""))
            // Most text needs no escape: copy it in one go, and fall back to the loop only when
            // some byte must be escaped.
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
                out.append(contentsOf: utf8)
            } else {
                for byte in utf8 { appendEscaped(byte, to: out) }
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    static func appendEscaped(_ byte: UInt8, to out: ByteBuffer) {
        switch byte {
        case UInt8(ascii: "\""): out.append("\\\"" as StaticString)
        case UInt8(ascii: "\\"): out.append("\\\\" as StaticString)
        case UInt8(ascii: "\n"): out.append("\\n" as StaticString)
        case UInt8(ascii: "\r"): out.append("\\r" as StaticString)
        case UInt8(ascii: "\t"): out.append("\\t" as StaticString)
        case 0..<0x20, 0x7F:
            out.append("\\u00" as StaticString)
            let digits = hexDigits(byte)
            out.append(digits.high)
            out.append(digits.low)
        default: out.append(byte)
        }
    }
}
