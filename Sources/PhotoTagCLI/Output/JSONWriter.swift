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

    /// Whether no container is open: what is written next is a value of its own, with no
    /// separator before it, so a compact writer may write any text.
    var atTop: Bool { containers == 0 }

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

    mutating func bool(_ value: Bool) {
        prepareValue()
        out.append(value ? "true" as StaticString : "false")
    }

    /// Writes a value of at most `maximum` bytes with a ``JSONCursor``: one capacity check for the
    /// whole value (an object with its keys, in the compact form), which `body` writes itself.
    @inline(__always)
    mutating func piece(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) {
        prepareValue()
        Self.write(atMost: maximum, to: out, body)
    }

    /// Runs `body` with a cursor on `maximum` bytes reserved at the end of `out`.
    @inline(__always)
    static func write(atMost maximum: Int, to out: ByteBuffer, _ body: (inout JSONCursor) -> Void) {
        out.write(atMost: maximum) { start in
            var cursor = JSONCursor(start)
            body(&cursor)
            return cursor.at
        }
    }

    /// A string given as UTF-8 bytes (borrowed from the place table), or `null`.
    mutating func string(utf8 value: UnsafeRawBufferPointer?) {
        piece(atMost: JSONCursor.room(value)) { $0.string(value) }
    }

    mutating func string(_ value: String?) {
        piece(atMost: JSONCursor.room(value)) { $0.string(value) }
    }

    mutating func number(_ value: Double?) {
        piece(atMost: JSONCursor.numberRoom) { $0.number(value) }
    }

    /// Writes `value` as `Double.description` would, for the common case of a number with at
    /// most seven decimals (coordinates of places and of most inputs), with integer arithmetic.
    /// Returns false, writing nothing, when the value needs the general algorithm.
    static func appendShortDecimal(_ value: Double, to out: ByteBuffer) -> Bool {
        var written = false
        write(atMost: JSONCursor.numberRoom, to: out) { written = $0.shortDecimal(value) }
        return written
    }

    /// A distance in kilometres to the metre, written as `Double.description` writes the rounded
    /// value (`4.0`, `4.01`, `4.009`), but with integer arithmetic: no float formatting.
    mutating func metres(_ kilometres: Double) {
        piece(atMost: JSONCursor.numberRoom) { $0.metres(kilometres) }
    }

    mutating func integer(_ value: Int?) {
        piece(atMost: JSONCursor.numberRoom) { $0.integer(value) }
    }

    /// Writes an integer's decimal digits without making a `String`.
    static func appendDigits(_ value: Int, to out: ByteBuffer) {
        write(atMost: JSONCursor.numberRoom, to: out) { $0.integer(value) }
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped,
    /// everything else as UTF-8 (Swift strings are always valid Unicode, so no byte is lost).
    static func appendQuoted(_ value: String, to out: ByteBuffer) {
        write(atMost: JSONCursor.room(value), to: out) { $0.string(value) }
    }
}

/// Where the standard library writes a `Double`'s text (`TextOutputStreamable`): it hands over
/// the digits it formatted on the stack through `_writeASCII`, so they are copied without a
/// String; ``write(_:)`` takes whatever comes as a String.
struct DigitSink: TextOutputStream {
    /// The next byte to write.
    var at: UnsafeMutablePointer<UInt8>

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let start = buffer.baseAddress else { return }
        at.update(from: start, count: buffer.count)
        at += buffer.count
    }

    mutating func write(_ string: String) {
        for byte in string.utf8 {
            at.pointee = byte
            at += 1
        }
    }
}

/// Where JSON text goes in bytes reserved beforehand (``ByteBuffer/write(atMost:_:)``): each
/// piece is stored with no capacity check of its own. Whoever makes one reserves at least the
/// sum of the room (``numberRoom``, ``room(_:)-(UnsafeRawBufferPointer?)``, the length of the
/// literals) of what it writes.
///
/// Rendering a million records writes tens of pieces each; a capacity check, a separator state
/// and a call per piece were most of the cost of the JSON.
struct JSONCursor {
    /// The next byte to write.
    var at: UnsafeMutablePointer<UInt8>

    init(_ at: UnsafeMutablePointer<UInt8>) { self.at = at }

    /// The most bytes a number takes: `null`, an `Int`'s digits (at most 20) or
    /// `Double.description` of a finite value (at most 24).
    static let numberRoom = 32

    /// The most bytes a string takes: every byte escaped as `\u00XX`, the quotes, and slack for
    /// the copy by words; `null` fits too. (Wrapping arithmetic, as in every sum of rooms: no
    /// text comes near overflowing, and a check per field was a good part of a place's sum.)
    @inline(__always)
    static func room(_ text: UnsafeRawBufferPointer?) -> Int { 16 &+ 6 &* (text?.count ?? 0) }

    /// The most bytes a string takes (see ``room(_:)-(UnsafeRawBufferPointer?)``).
    @inline(__always)
    static func room(_ text: String?) -> Int { 16 &+ 6 &* (text?.utf8.count ?? 0) }

    /// Writes literal text (keys with their quotes and punctuation).
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        if text.hasPointerRepresentation {
            // In words, the last one overlapping the one before: no call of memcpy for a length
            // the compiler does not see. (The same as copy(_:), written again on purpose: through
            // copy, the literal's length no longer chose the branch at compile time, and every
            // key and punctuation mark of a record paid for the choice.)
            let source = UnsafeRawPointer(text.utf8Start), count = text.utf8CodeUnitCount
            let target = UnsafeMutableRawPointer(at)
            if count >= 8 {
                var index = 0
                while index + 8 < count {
                    target.storeBytes(
                        of: source.loadUnaligned(fromByteOffset: index, as: UInt64.self), toByteOffset: index,
                        as: UInt64.self)
                    index += 8
                }
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8,
                    as: UInt64.self)
            } else if count >= 4 {
                target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self), toByteOffset: count - 4,
                    as: UInt32.self)
            } else {
                for index in 0..<count { at[index] = text.utf8Start[index] }
            }
            at += count
        } else {
            rawScalar(text)
        }
    }

    /// ``raw(_:)`` of a literal that is one Unicode scalar (no pointer): out of line, so that
    /// each inlined `raw` stays a few blocks, which keeps its callers small enough to inline.
    @inline(never)
    private mutating func rawScalar(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            for byte in bytes { self.byte(byte) }
        }
    }

    /// `null`, in four stores (no branch, where `raw("null")` has a few before it is folded).
    @inline(__always)
    mutating func null() {
        at[0] = UInt8(ascii: "n")
        at[1] = UInt8(ascii: "u")
        at[2] = UInt8(ascii: "l")
        at[3] = UInt8(ascii: "l")
        at += 4
    }

    /// Copies `bytes` as they are (text that is JSON already, such as a place's cached
    /// fragment), eight bytes at a time, the last eight overlapping the ones before.
    @inline(__always)
    mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        let count = bytes.count, target = UnsafeMutableRawPointer(at)
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: index, as: UInt64.self), toByteOffset: index,
                    as: UInt64.self)
                index += 8
            }
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8,
                as: UInt64.self)
        } else {
            for index in 0..<count { at[index] = source.load(fromByteOffset: index, as: UInt8.self) }
        }
        at += count
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        at.pointee = value
        at += 1
    }

    /// A string given as UTF-8 bytes, quoted and escaped, or `null`.
    @inline(__always)
    mutating func string(_ value: UnsafeRawBufferPointer?) {
        guard let value else { return null() }
        byte(UInt8(ascii: "\""))
        escaping(value)
        byte(UInt8(ascii: "\""))
    }

    /// A string, quoted and escaped, or `null` (written in line: most absent fields are).
    @inline(__always)
    mutating func string(_ value: String?) {
        guard let value else { return null() }
        quoted(value)
    }

    /// ``string(_:)-(String?)`` of a string.
    private mutating func quoted(_ value: String) {
        byte(UInt8(ascii: "\""))
        // The UTF-8 in place (a native string's, or a small one's on the stack), with no copy of
        // the string to make mutable for `withUTF8`, which retained and released it.
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { escaping(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var copy = value
            copy.withUTF8 { escaping(UnsafeRawBufferPointer($0)) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// Copies `bytes` with what JSON must escape escaped (quote, backslash, control characters
    /// and DEL). Most text needs no escape: it is copied eight bytes at a time, each word
    /// checked for those bytes at once.
    @inline(__always)
    mutating func escaping(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if Self.needsEscape(word) { break }
            UnsafeMutableRawPointer(at).storeBytes(of: word, as: UInt64.self)
            at += 8
            index += 8
        }
        // The last bytes of a long text with no escape so far: its last eight again, over what is
        // already written. (After a word that needs an escape, the rest goes byte by byte.)
        if index < count, count >= 8, index + 8 > count {
            let word = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            if !Self.needsEscape(word) {
                let overlap = index - (count - 8)
                UnsafeMutableRawPointer(at - overlap).storeBytes(of: word, as: UInt64.self)
                at += count - index
                return
            }
        }
        while index < count {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                escaped(byte)
            } else {
                self.byte(byte)
            }
            index += 1
        }
    }

    /// Whether any of the eight bytes of `word` is below 0x20, a quote, a backslash or DEL.
    ///
    /// `(x - 0x01…) & ~x & 0x80…` is nonzero exactly when some byte of `x` is zero (a borrow
    /// only runs on from a byte that is zero itself), and with 0x20… it finds a byte below 0x20;
    /// bytes of 0x80 and above (UTF-8) never match.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (word &- 0x20 &* ones) & ~word & highs
        return control | hasZero(word ^ (0x22 &* ones)) | hasZero(word ^ (0x5C &* ones))
            | hasZero(word ^ (0x7F &* ones)) != 0
    }

    /// One byte that JSON escapes.
    mutating func escaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            raw("\\u00")
            let digits = hexDigits(byte)
            self.byte(digits.high)
            self.byte(digits.low)
        }
    }

    /// An integer or `null`.
    @inline(__always)
    mutating func integer(_ value: Int?) {
        guard let value else { return null() }
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    /// The decimal digits of `value`, two at a time.
    @inline(__always)
    mutating func digits(_ value: UInt) {
        var length = 1
        var limit: UInt = 10
        while length < 20, value >= limit {
            length += 1
            limit = limit &* 10
        }
        fixed(value, width: length)
    }

    /// The last `width` decimal digits of `value`, with leading zeros, written two at a time:
    /// each pair is one load from ``digitPairs`` and one store, with one division by 100.
    @inline(__always)
    mutating func fixed(_ value: UInt, width: Int) {
        var end = at + width, rest = value
        let pairs = UnsafeRawPointer(Self.digitPairs.utf8Start)
        while end - at >= 2 {
            let quotient = rest / 100
            let pair = Int(truncatingIfNeeded: rest &- quotient &* 100)
            rest = quotient
            end -= 2
            UnsafeMutableRawPointer(end).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 &* pair, as: UInt16.self), as: UInt16.self)
        }
        if end > at { at.pointee = UInt8(truncatingIfNeeded: 0x30 &+ rest % 10) }
        at += width
    }

    /// The two decimal digits of every number below 100, `00` to `99`, in order.
    static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324\
        25262728293031323334353637383940414243444546474849\
        50515253545556575859606162636465666768697071727374\
        75767778798081828384858687888990919293949596979899
        """
    }

    /// A number, as `Double.description` writes it, or `null` (also for infinities and NaN;
    /// written in line for `nil`: most absent fields are).
    @inline(__always)
    mutating func number(_ value: Double?) {
        guard let value else { return null() }
        number(value)
    }

    /// ``number(_:)-(Double?)`` of a number.
    private mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        if !shortDecimal(value) {
            // The standard library's shortest digits (what `description` prints for a finite
            // value), handed over as bytes: `description` made a String, and one of more than
            // 15 bytes (48.85822222222222) is allocated, twice for most located photos.
            var digits = DigitSink(at: at)
            value.write(to: &digits)
            at = digits.at
        }
    }

    /// Writes `value` as `Double.description` would, for the common case of a number with at
    /// most seven decimals (coordinates of places and of most inputs), with integer arithmetic.
    /// Returns false, writing nothing, when the value needs the general algorithm.
    ///
    /// The fewest decimals whose rounding reads back as exactly `value` give the shortest text
    /// that round-trips, which is what `description` prints in this range.
    ///
    /// Below 10^6 (every coordinate) one test at seven decimals decides: when some d ≤ 7 decimals
    /// read back as `value`, so do seven (u / 10^d and u·10^(7−d) / 10^7 are the same rational,
    /// rounded the same way), and `value × 10^7` is within 0.003 of that integer (`value`'s own
    /// rounding error is at most 2^−33 there, the product's 2^−10), so it rounds to it. The
    /// trailing zeros of those seven decimals then leave the fewest that read back: fewer would
    /// be the same rational again. So the loop's answer, without its six divisions.
    @inline(__always)
    mutating func shortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 1e-4, magnitude < 1e9 else { return false }
        if magnitude < 1e6 {
            let product = magnitude * 1e7
            let whole = Int(product)
            let units = product - Double(whole) >= 0.5 ? whole + 1 : whole
            guard Double(units) / 1e7 == magnitude else { return false }
            // `units` is not negative: unsigned division by a constant is a multiplication.
            let integral = UInt(units) / 10_000_000, fraction = UInt(units) &- integral &* 10_000_000
            if value < 0 { byte(UInt8(ascii: "-")) }
            digits(integral)
            byte(UInt8(ascii: "."))
            if fraction == 0 {
                byte(0x30)
            } else {
                // All seven decimals, then the trailing zeros taken back (the last decimal that
                // is not zero stops it): no division per zero.
                fixed(fraction, width: 7)
                while at[-1] == 0x30 { at -= 1 }
            }
            return true
        }
        var scale = 1.0
        var power = 1
        for decimals in 0..<8 {
            if decimals > 0 {
                scale *= 10  // exact: every power of ten up to 10^22 is a Double
                power *= 10
            }
            // round(x), half away from zero, without a call: x < 10^16, so its whole part fits and
            // x minus it is exact (Sterbenz); at 2^52 and above x is whole.
            let product = magnitude * scale
            // At most 15 significant digits: two such decimals are never the same Double, so
            // one that reads back is the only one of its length, the shortest that description
            // prints. At 16 (973736468.8358112 and ...113 are one Double) description picks
            // the one nearest the value, which this test cannot tell.
            guard product < 1e15 else { return false }
            let whole = Int(product)  // signed: one instruction each way
            let units = product - Double(whole) >= 0.5 ? whole + 1 : whole
            guard Double(units) / scale == magnitude else { continue }
            if value < 0 { byte(UInt8(ascii: "-")) }
            digits(UInt(units / power))
            byte(UInt8(ascii: "."))
            if decimals == 0 {
                byte(0x30)
            } else {
                fixed(UInt(units % power), width: decimals)
            }
            return true
        }
        return false
    }

    /// A distance in kilometres to the metre, written as `Double.description` writes the rounded
    /// value (`4.0`, `4.01`, `4.009`), with integer arithmetic.
    mutating func metres(_ kilometres: Double) {
        guard kilometres.isFinite, kilometres >= 0, kilometres < 1e12 else {
            return number(roundedDistance(kilometres))
        }
        // `rounded()` (half away from zero) without its call: the product is below 2^52, so its
        // whole part and the rest are exact.
        let product = kilometres * 1000
        let truncated = UInt(product)
        let metres = product - Double(truncated) >= 0.5 ? truncated + 1 : truncated
        guard metres < 1_000_000_000_000 else { return number(roundedDistance(kilometres)) }
        digits(metres / 1000)
        byte(UInt8(ascii: "."))
        let fraction = at
        fixed(metres % 1000, width: 3)
        // Trailing zeros dropped, one digit kept.
        while at - fraction > 1, at[-1] == 0x30 { at -= 1 }
    }
}
