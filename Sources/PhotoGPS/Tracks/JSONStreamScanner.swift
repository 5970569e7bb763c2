/// What ``JSONStreamScanner/next(_:_:)`` read: one token of a JSON text.
enum JSONToken: UInt8, Sendable {
    /// `{`: an object starts (``JSONStreamScanner/depth`` counts it).
    case objectStart
    /// `}`: the innermost object ends.
    case objectEnd
    /// `[`: an array starts.
    case arrayStart
    /// `]`: the innermost array ends.
    case arrayEnd
    /// The name of an object's member, its escapes decoded (read it with
    /// ``JSONStreamScanner/withText(_:_:)``); the member's value comes next.
    case key
    /// A string value, its escapes decoded.
    case string
    /// A number, as written (it follows JSON's grammar).
    case number
    /// `true`.
    case trueValue
    /// `false`.
    case falseValue
    /// `null`.
    case null
}

/// A streaming JSON tokenizer (RFC 8259): it is pushed a text's bytes in chunks of any size and
/// hands out its tokens one at a time, never holding more than one token's text.
///
/// The reader calls ``next(_:_:)`` with each chunk until it returns `nil` (the chunk is used up),
/// then calls it with the next chunk, and ``finish()`` at the end of the text. After a ``JSONToken/key``
/// it may call ``skipValue()`` to have the member's value read without tokens, and after an
/// ``JSONToken/objectStart`` or ``JSONToken/arrayStart`` to have the rest of that container read
/// without tokens: what it skips is still checked, so a broken file is refused wherever it breaks.
///
/// The grammar is JSON's, strictly: no trailing commas, no comments, no single quotes, no `NaN`,
/// no leading zeros, only JSON's escapes and no raw control characters in strings, surrogates in
/// pairs, one value with only white space around it (a UTF-8 byte order mark allowed before
/// it). Strings are not checked as UTF-8: their bytes are handed out as they are.
///
/// What it keeps between chunks is bounded: the stack of open containers (at most
/// ``maximumDepth``), and the text of the token being read when that token spans chunks or holds
/// escapes (at most ``maximumTokenLength`` bytes; a skipped string is not kept at all).
struct JSONStreamScanner {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512
    /// The longest key, string or number handed out, in bytes (1 MiB).
    static let maximumTokenLength = 1 << 20

    /// Where the scanner is in the grammar.
    private enum Phase: UInt8 {
        /// Before anything: a UTF-8 byte order mark may come.
        case byteOrderMark
        /// A value (at the start, after `:` or after `,` in an array).
        case value
        /// A value or `]` (just after `[`).
        case valueOrArrayEnd
        /// A key or `}` (just after `{`).
        case keyOrObjectEnd
        /// A key (after `,` in an object).
        case key
        /// `:` after a key.
        case colon
        /// `,` or the end of the innermost container, after a value.
        case afterValue
        /// Inside a string (a key or a value).
        case string
        /// Inside a number.
        case number
        /// Inside `true`, `false` or `null`.
        case literal
        /// After the top-level value: only white space may follow.
        case done
    }

    /// Where a number is in JSON's number grammar.
    private enum NumberState: UInt8 {
        /// A digit must come (at the start, or after `-`).
        case start
        /// After a leading `0`: no more integer digits.
        case zero
        /// In the integer digits.
        case integer
        /// After `.`: a digit must come.
        case point
        /// In the fraction's digits.
        case fraction
        /// After `e`: a sign or a digit must come.
        case exponentMark
        /// After the exponent's sign: a digit must come.
        case exponentSign
        /// In the exponent's digits.
        case exponent
    }

    /// The line (from 1) of the byte being read: counted at each line feed between tokens.
    private(set) var line = 1
    /// The bytes of the chunks used up before the current one.
    private var consumed = 0
    private var phase = Phase.byteOrderMark
    /// Bytes of the byte order mark matched so far.
    private var markMatched = 0
    /// The open containers, outermost first: `true` for an array.
    private var containers: [Bool] = []
    /// The last token handed out (what ``skipValue()`` applies to).
    private var lastToken = JSONToken.null
    /// Whether tokens are being read without being handed out, and down to which depth.
    private var skipping = false
    private var skipFloor = 0

    /// Whether the string being read is a key.
    private var stringIsKey = false
    /// Whether the token being read is to be handed out (its text kept).
    private var delivering = true
    /// Escape state inside a string: 0 none, 1 after `\`, 2…5 reading a `\u`'s hexadecimal
    /// digits, 6 a high surrogate was read and `\` must follow, 7 then `u`.
    private var escape: UInt8 = 0
    private var unicodeValue: UInt32 = 0
    private var highSurrogate: UInt32 = 0
    private var numberState = NumberState.start
    /// The literal being read (`true`, `false` or `null`) and how much of it has matched.
    private var literalToken = JSONToken.null
    private var literalMatched = 0

    /// The text of the token handed out, when ``textIsBuffered``; the token being read, when it
    /// spans chunks or has escapes.
    private var text: [UInt8] = []
    private var textIsBuffered = false
    /// Where the token's text lies in the current chunk, when it is not buffered.
    private var textStart = 0
    private var textEnd = 0

    /// An empty scanner, before the first byte of a text.
    init() {}

    /// How many containers are open after the last token (0 outside the top-level value; 1 in
    /// the top-level object, or just after its `{`).
    var depth: Int { containers.count }

    /// The position of byte `index` of the current chunk, for a message: `line 3 (byte offset 57)`.
    func position(at index: Int) -> String {
        "line \(line) (byte offset \(consumed + index))"
    }

    /// Reads `chunk` from byte `index` on up to the next token, and returns it; `nil` when the
    /// chunk is used up (then `index` is its end, and the next call takes the next chunk from 0).
    /// `index` is left just after the token, for the next call.
    mutating func next(_ chunk: UnsafeRawBufferPointer, _ index: inout Int) throws(TrackReadError) -> JSONToken? {
        guard let base = chunk.baseAddress else { return nil }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let count = chunk.count
        var i = index
        defer { index = i }
        while true {
            guard let token = try step(bytes, count, &i) else {
                consumed += count
                return nil
            }
            if skipping {
                switch token {
                case .key, .objectStart, .arrayStart:
                    continue
                default:
                    if containers.count == skipFloor { skipping = false }
                    continue
                }
            }
            lastToken = token
            return token
        }
    }

    /// After a ``JSONToken/key``: reads the member's value without handing out its tokens (a
    /// skipped string's text is not kept). After ``JSONToken/objectStart`` or
    /// ``JSONToken/arrayStart``: reads the rest of that container the same way, its end included.
    mutating func skipValue() {
        switch lastToken {
        case .key:
            skipFloor = containers.count
        case .objectStart, .arrayStart:
            skipFloor = containers.count - 1
        default:
            preconditionFailure("skipValue() follows a key or the start of a container")
        }
        skipping = true
    }

    /// Calls `body` with the text of the last ``JSONToken/key``, ``JSONToken/string`` or
    /// ``JSONToken/number``: its bytes in `chunk` (the chunk the token ended in), or the scanner's
    /// own copy when it spanned chunks or had escapes. The bytes are valid only during the call.
    /// After any other token, the bytes are empty.
    func withText<Result>(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard lastToken == .key || lastToken == .string || lastToken == .number else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if textIsBuffered {
            return text.withUnsafeBytes(body)
        }
        return body(UnsafeRawBufferPointer(rebasing: chunk[textStart..<textEnd]))
    }

    /// The end of the text: throws unless one whole value was read.
    mutating func finish() throws(TrackReadError) {
        switch phase {
        case .done:
            return
        case .number where containers.isEmpty:
            guard
                numberState == .zero || numberState == .integer || numberState == .fraction
                    || numberState == .exponent
            else { throw failure("the text ends inside a number", at: 0) }
            phase = .done
        case .byteOrderMark:
            throw failure("the text holds no JSON value", at: 0)
        case .value where containers.isEmpty:
            throw failure("the text holds no JSON value", at: 0)
        case .string:
            throw failure("the text ends inside a string", at: 0)
        case .number, .literal:
            throw failure("the text ends inside a value", at: 0)
        default:
            let open = containers.last == true ? "an array" : "an object"
            throw failure("the text ends inside \(open) (\(containers.count) open)", at: 0)
        }
    }

    /// A ``TrackReadError`` at byte `index` of the current chunk.
    private func failure(_ message: String, at index: Int) -> TrackReadError {
        TrackReadError("\(position(at: index)): \(message)")
    }

    /// The phase after a complete value.
    private var phaseAfterValue: Phase { containers.isEmpty ? .done : .afterValue }

    /// Reads up to the end of the next token (handed out or skipped); `nil` at the chunk's end.
    private mutating func step(
        _ bytes: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int
    ) throws(TrackReadError) -> JSONToken? {
        while true {
            switch phase {
            case .string:
                if let token = try string(bytes, count, &i) { return token }
                if i == count { return nil }
                continue
            case .number:
                if let token = try number(bytes, count, &i) { return token }
                return nil
            case .literal:
                let word: StaticString =
                    switch literalToken {
                    case .trueValue: "true"
                    case .falseValue: "false"
                    default: "null"
                    }
                let length = word.utf8CodeUnitCount
                while i < count, literalMatched < length {
                    guard bytes[i] == word.utf8Start[literalMatched] else {
                        throw failure("expected a value", at: i)
                    }
                    i += 1
                    literalMatched += 1
                }
                guard literalMatched == length else { return nil }
                phase = phaseAfterValue
                return literalToken
            case .byteOrderMark:
                while i < count, markMatched < 3 {
                    if bytes[i] == (markMatched == 0 ? 0xEF : markMatched == 1 ? 0xBB : 0xBF) {
                        markMatched += 1
                        i += 1
                    } else if markMatched == 0 {
                        break
                    } else {
                        throw failure("a broken byte order mark", at: i)
                    }
                }
                if i == count, markMatched > 0, markMatched < 3 { return nil }
                phase = .value
                continue
            default:
                break
            }
            // Between tokens: white space, then the next token's first byte.
            while i < count {
                let byte = bytes[i]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
                if byte == 0x0A { line += 1 }
                i += 1
            }
            guard i < count else { return nil }
            let byte = bytes[i]
            switch phase {
            case .value, .valueOrArrayEnd:
                switch byte {
                case UInt8(ascii: "{"):
                    try push(array: false, at: i)
                    i += 1
                    phase = .keyOrObjectEnd
                    return .objectStart
                case UInt8(ascii: "["):
                    try push(array: true, at: i)
                    i += 1
                    phase = .valueOrArrayEnd
                    return .arrayStart
                case UInt8(ascii: "\""):
                    i += 1
                    startString(key: false, at: i)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    startText(at: i)
                    numberState = .start
                    if byte == UInt8(ascii: "-") { i += 1 }
                    phase = .number
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    literalToken =
                        byte == UInt8(ascii: "t") ? .trueValue : byte == UInt8(ascii: "f") ? .falseValue : .null
                    literalMatched = 1
                    i += 1
                    phase = .literal
                case UInt8(ascii: "]") where phase == .valueOrArrayEnd:
                    i += 1
                    containers.removeLast()
                    phase = phaseAfterValue
                    return .arrayEnd
                default:
                    throw failure("expected a value, found \(describe(byte))", at: i)
                }
            case .keyOrObjectEnd, .key:
                if byte == UInt8(ascii: "\"") {
                    i += 1
                    startString(key: true, at: i)
                } else if byte == UInt8(ascii: "}"), phase == .keyOrObjectEnd {
                    i += 1
                    containers.removeLast()
                    phase = phaseAfterValue
                    return .objectEnd
                } else {
                    throw failure("expected a key, found \(describe(byte))", at: i)
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else {
                    throw failure("expected ':' after a key, found \(describe(byte))", at: i)
                }
                i += 1
                phase = .value
            case .afterValue:
                let inArray = containers.last == true
                if byte == UInt8(ascii: ",") {
                    i += 1
                    phase = inArray ? .value : .key
                } else if byte == (inArray ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                    i += 1
                    containers.removeLast()
                    phase = phaseAfterValue
                    return inArray ? .arrayEnd : .objectEnd
                } else {
                    let expected = inArray ? "',' or ']'" : "',' or '}'"
                    throw failure("expected \(expected), found \(describe(byte))", at: i)
                }
            default:  // .done
                throw failure("text after the JSON value: \(describe(byte))", at: i)
            }
        }
    }

    /// Opens a container.
    private mutating func push(array: Bool, at i: Int) throws(TrackReadError) {
        guard containers.count < Self.maximumDepth else {
            throw failure("nested deeper than \(Self.maximumDepth) levels", at: i)
        }
        containers.append(array)
    }

    /// Starts a token's text at byte `i` of the chunk.
    private mutating func startText(at i: Int) {
        delivering = !skipping
        textIsBuffered = false
        textStart = i
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
    }

    /// Starts a string whose first byte (after the quote) is byte `i` of the chunk.
    private mutating func startString(key: Bool, at i: Int) {
        startText(at: i)
        stringIsKey = key
        escape = 0
        highSurrogate = 0
        phase = .string
    }

    /// Appends bytes `from..<to` of the chunk to the buffered text.
    private mutating func buffer(_ bytes: UnsafePointer<UInt8>, _ from: Int, _ to: Int) throws(TrackReadError) {
        guard to > from else { return }
        guard text.count + (to - from) <= Self.maximumTokenLength else {
            throw failure("a token longer than \(Self.maximumTokenLength) bytes", at: to)
        }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes + from, count: to - from))
    }

    /// Moves a token read so far from the chunk into the buffer, from where it started to `i`.
    private mutating func startBuffering(_ bytes: UnsafePointer<UInt8>, upTo i: Int) throws(TrackReadError) {
        guard delivering, !textIsBuffered else { return }
        textIsBuffered = true
        try buffer(bytes, textStart, i)
    }

    /// Reads a string's bytes; the token at its closing quote, `nil` when the chunk ends first.
    private mutating func string(
        _ bytes: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int
    ) throws(TrackReadError) -> JSONToken? {
        while i < count {
            if escape != 0 {
                try escaped(bytes[i], at: i)
                i += 1
                continue
            }
            let run = i
            while i < count {
                let byte = bytes[i]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                i += 1
            }
            if delivering, textIsBuffered { try buffer(bytes, run, i) }
            guard i < count else {
                try startBuffering(bytes, upTo: i)
                return nil
            }
            let byte = bytes[i]
            if byte == 0x22 {
                if delivering, !textIsBuffered {
                    textEnd = i
                    guard textEnd - textStart <= Self.maximumTokenLength else {
                        throw failure("a token longer than \(Self.maximumTokenLength) bytes", at: i)
                    }
                }
                i += 1
                if stringIsKey {
                    phase = .colon
                    return .key
                }
                phase = phaseAfterValue
                return .string
            } else if byte == 0x5C {
                try startBuffering(bytes, upTo: i)
                escape = 1
                i += 1
            } else {
                throw failure("a control character (\(describe(byte))) in a string", at: i)
            }
        }
        try startBuffering(bytes, upTo: count)
        return nil
    }

    /// Reads one byte of an escape sequence.
    private mutating func escaped(_ byte: UInt8, at i: Int) throws(TrackReadError) {
        switch escape {
        case 1:
            let decoded: UInt8
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = byte
            case UInt8(ascii: "b"): decoded = 0x08
            case UInt8(ascii: "f"): decoded = 0x0C
            case UInt8(ascii: "n"): decoded = 0x0A
            case UInt8(ascii: "r"): decoded = 0x0D
            case UInt8(ascii: "t"): decoded = 0x09
            case UInt8(ascii: "u"):
                escape = 2
                unicodeValue = 0
                return
            default:
                throw failure("an unknown escape \\\(describe(byte)) in a string", at: i)
            }
            escape = 0
            if delivering { try append(decoded, at: i) }
        case 2...5:
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("a bad \\u escape: \(describe(byte)) is not a hexadecimal digit", at: i)
            }
            unicodeValue = unicodeValue << 4 | UInt32(digit)
            escape += 1
            guard escape == 6 else { return }
            escape = 0
            var code = unicodeValue
            if highSurrogate != 0 {
                guard (0xDC00...0xDFFF).contains(code) else {
                    throw failure("a lone surrogate in a \\u escape", at: i)
                }
                code = 0x10000 + ((highSurrogate - 0xD800) << 10) + (code - 0xDC00)
                highSurrogate = 0
            } else if (0xD800...0xDBFF).contains(code) {
                highSurrogate = code
                escape = 6
                return
            } else if (0xDC00...0xDFFF).contains(code) {
                throw failure("a lone surrogate in a \\u escape", at: i)
            }
            if delivering { try appendScalar(code, at: i) }
        case 6:
            guard byte == UInt8(ascii: "\\") else { throw failure("a lone surrogate in a \\u escape", at: i) }
            escape = 7
        default:  // 7
            guard byte == UInt8(ascii: "u") else { throw failure("a lone surrogate in a \\u escape", at: i) }
            escape = 2
            unicodeValue = 0
        }
    }

    /// Appends one decoded byte to the buffered text.
    private mutating func append(_ byte: UInt8, at i: Int) throws(TrackReadError) {
        guard text.count < Self.maximumTokenLength else {
            throw failure("a token longer than \(Self.maximumTokenLength) bytes", at: i)
        }
        text.append(byte)
    }

    /// Appends the UTF-8 encoding of the scalar `code` (a valid scalar value) to the buffered text.
    private mutating func appendScalar(_ code: UInt32, at i: Int) throws(TrackReadError) {
        switch code {
        case 0..<0x80:
            try append(UInt8(code), at: i)
        case 0x80..<0x800:
            try append(UInt8(0xC0 | code >> 6), at: i)
            try append(UInt8(0x80 | code & 0x3F), at: i)
        case 0x800..<0x10000:
            try append(UInt8(0xE0 | code >> 12), at: i)
            try append(UInt8(0x80 | code >> 6 & 0x3F), at: i)
            try append(UInt8(0x80 | code & 0x3F), at: i)
        default:
            try append(UInt8(0xF0 | code >> 18), at: i)
            try append(UInt8(0x80 | code >> 12 & 0x3F), at: i)
            try append(UInt8(0x80 | code >> 6 & 0x3F), at: i)
            try append(UInt8(0x80 | code & 0x3F), at: i)
        }
    }

    /// Reads a number's bytes; the token at the first byte after it, `nil` when the chunk ends
    /// first (the number may go on in the next chunk).
    private mutating func number(
        _ bytes: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int
    ) throws(TrackReadError) -> JSONToken? {
        var state = numberState
        defer { numberState = state }
        while i < count {
            let byte = bytes[i]
            if byte &- 0x30 < 10 {
                switch state {
                case .start: state = byte == 0x30 ? .zero : .integer
                case .zero: throw failure("a number with a leading zero", at: i)
                case .point: state = .fraction
                case .exponentMark, .exponentSign: state = .exponent
                case .integer, .fraction, .exponent: break
                }
                i += 1
                if state != .zero {
                    while i < count, bytes[i] &- 0x30 < 10 { i += 1 }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "."):
                guard state == .zero || state == .integer else { throw failure("a misplaced '.' in a number", at: i) }
                state = .point
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard state == .zero || state == .integer || state == .fraction else {
                    throw failure("a misplaced exponent in a number", at: i)
                }
                state = .exponentMark
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard state == .exponentMark else { throw failure("a misplaced sign in a number", at: i) }
                state = .exponentSign
            default:
                guard state == .zero || state == .integer || state == .fraction || state == .exponent else {
                    throw failure("expected a digit, found \(describe(byte))", at: i)
                }
                if delivering {
                    if textIsBuffered {
                        try buffer(bytes, 0, i)
                    } else {
                        textEnd = i
                    }
                }
                phase = phaseAfterValue
                return .number
            }
            i += 1
        }
        if delivering {
            if textIsBuffered {
                try buffer(bytes, 0, count)
            } else {
                try startBuffering(bytes, upTo: count)
            }
        }
        return nil
    }

    /// A byte, for a message: the character itself when printable ASCII, else its hexadecimal.
    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
