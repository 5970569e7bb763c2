import PhotoTagSupport

/// Splits a text track file (NMEA, IGC, CSV), fed in chunks of any size, into its lines, and
/// numbers them from 1.
///
/// A line ends at LF, CR LF or a lone CR (the three conventions ExifTool accepts), and a UTF-8
/// byte order mark before the first line is dropped. A line lying whole in a chunk is handed out
/// in place; only a line cut by a chunk boundary is copied, into a carry buffer of at most
/// ``maximumLineLength`` bytes, so the memory used is bounded whatever the file's size.
///
/// With `csvQuotes`, a line end inside a double-quoted field does not end the record (RFC 4180):
/// the record is handed out whole, with the number of its first line. A quote opens a field only
/// at the start of a record or right after a `,`, `;`, tab or `|` (or, as `""`, right after the
/// quote that closed the field), so a stray inch sign in an unquoted field cannot swallow the
/// rest of the file.
struct TrackLineSplitter {
    /// The longest line (or CSV record) read: one longer is not a track file's line.
    static let maximumLineLength = 1 << 20

    /// Whether line ends inside double quotes are part of a CSV record.
    private let csvQuotes: Bool
    /// The start of a line cut by the end of the previous chunk.
    private var carry: [UInt8] = []
    /// Whether the previous chunk ended with a CR, so that an LF starting this one belongs to it.
    private var afterCR = false
    /// The number of the next line to hand out.
    private var nextLine = 1
    /// Line ends inside quotes in the record being read (CSV): lines it spans beyond its first.
    private var innerLines = 0
    /// Whether the record being read is inside a quoted field (CSV).
    private var inQuotes = false
    /// The byte before the current position, across chunks (CSV): LF at a record's start.
    private var previousByte: UInt8 = 0x0A
    /// Whether ``previousByte`` is a quote that closed a quoted field (CSV).
    private var previousClosedQuote = false
    /// Whether a line has been handed out (the byte order mark is dropped from the first only).
    private var startedFile = false
    /// Where in the current chunk the last quote that closed a field is (CSV), `-1` for none.
    private var closedQuoteAt = -1

    /// A splitter; `csvQuotes` keeps line ends inside double-quoted fields in their record.
    init(csvQuotes: Bool = false) {
        self.csvQuotes = csvQuotes
    }

    /// Hands each line completed by `chunk` to `body`, with its line number and `state`; keeps
    /// the unfinished end of the chunk for the next call. Throws when a line is longer than
    /// ``maximumLineLength``, and rethrows what `body` throws.
    mutating func feed<State>(
        _ chunk: UnsafeRawBufferPointer, _ state: inout State,
        _ body: (inout State, UnsafeRawBufferPointer, Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        let count = chunk.count
        guard count > 0 else { return }
        var index = 0
        if afterCR {
            afterCR = false
            if chunk[0] == 0x0A { index = 1 }
        }
        var lineStart = index
        closedQuoteAt = -1
        if csvQuotes {
            while index < count {
                let byte = chunk[index]
                if byte > 0x22 {
                    index += 1
                    continue
                }
                if byte == 0x22 {
                    if inQuotes {
                        inQuotes = false
                        closedQuoteAt = index
                    } else {
                        let previous = index > 0 ? chunk[index - 1] : previousByte
                        let afterClosingQuote = index > 0 ? closedQuoteAt == index - 1 : previousClosedQuote
                        if afterClosingQuote || Self.opensField(after: previous) { inQuotes = true }
                    }
                } else if byte == 0x0A || byte == 0x0D {
                    if !inQuotes {
                        try deliver(chunk, lineStart, index, &state, body)
                        index = skipTerminator(chunk, index)
                        lineStart = index
                        continue
                    }
                    if byte == 0x0A { innerLines += 1 }
                }
                index += 1
            }
        } else {
            while index < count {
                let byte = chunk[index]
                if byte != 0x0A && byte != 0x0D {
                    index += 1
                    continue
                }
                try deliver(chunk, lineStart, index, &state, body)
                index = skipTerminator(chunk, index)
                lineStart = index
            }
        }
        if lineStart < count {
            try keep(chunk, lineStart, count)
            previousByte = chunk[count - 1]
            previousClosedQuote = closedQuoteAt == count - 1
        } else {
            previousByte = 0x0A
            previousClosedQuote = false
        }
    }

    /// The end of the file: hands out the last line when it has no line end.
    mutating func finish<State>(
        _ state: inout State, _ body: (inout State, UnsafeRawBufferPointer, Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        guard !carry.isEmpty else { return }
        var line: [UInt8] = []
        swap(&line, &carry)
        try handOut(line, &state, body)
    }

    /// Whether a quote after `byte` opens a quoted field: at a record's start or after a separator.
    private static func opensField(after byte: UInt8) -> Bool {
        byte == 0x0A || byte == 0x0D || byte == 0x2C || byte == 0x3B || byte == 0x09 || byte == 0x7C
    }

    /// The index after the line end at `index` (CR LF counts as one; a CR ending the chunk
    /// remembers to drop an LF starting the next).
    private mutating func skipTerminator(_ chunk: UnsafeRawBufferPointer, _ index: Int) -> Int {
        guard chunk[index] == 0x0D else { return index + 1 }
        if index + 1 < chunk.count {
            return chunk[index + 1] == 0x0A ? index + 2 : index + 1
        }
        afterCR = true
        return index + 1
    }

    /// Hands out the line `chunk[start..<end]`, joined to the carried start of it if any.
    private mutating func deliver<State>(
        _ chunk: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ state: inout State,
        _ body: (inout State, UnsafeRawBufferPointer, Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        if carry.isEmpty {
            guard end - start <= Self.maximumLineLength else { throw tooLong() }
            var line = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            if !startedFile {
                startedFile = true
                line = Self.droppingByteOrderMark(line)
            }
            let number = nextLine
            nextLine += 1 + innerLines
            innerLines = 0
            try body(&state, line, number)
        } else {
            try keep(chunk, start, end)
            var line: [UInt8] = []
            swap(&line, &carry)
            try handOut(line, &state, body)
            line.removeAll(keepingCapacity: true)
            swap(&line, &carry)
        }
    }

    /// Hands out a line that was carried between chunks.
    private mutating func handOut<State>(
        _ line: [UInt8], _ state: inout State,
        _ body: (inout State, UnsafeRawBufferPointer, Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        let number = nextLine
        nextLine += 1 + innerLines
        innerLines = 0
        let first = !startedFile
        startedFile = true
        let result: Result<Void, TrackReadError> = line.withUnsafeBytes { raw in
            do throws(TrackReadError) {
                try body(&state, first ? Self.droppingByteOrderMark(raw) : raw, number)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Adds `chunk[start..<end]` to the carried line, refusing a line that grows too long.
    private mutating func keep(_ chunk: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(TrackReadError) {
        guard carry.count + (end - start) <= Self.maximumLineLength else { throw tooLong() }
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
    }

    /// The error for a line longer than ``maximumLineLength``.
    private func tooLong() -> TrackReadError {
        TrackReadError("line \(nextLine): longer than \(Self.maximumLineLength) bytes: not a text track file")
    }

    /// `line` without a leading UTF-8 byte order mark.
    private static func droppingByteOrderMark(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeRawBufferPointer(rebasing: line[3...])
    }
}

/// Helpers the text track readers share to read a line's fields in place.
enum TrackText {
    /// Calls `body` with each line of `prefix` (the first bytes of a file, for content sniffing),
    /// without its line end and the byte order mark of the first; the last line may be cut.
    /// Stops when `body` returns `true`, and returns whether it did.
    static func anyLine(
        of prefix: UnsafeRawBufferPointer, where body: (UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        var start = 0
        if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { start = 3 }
        var index = start
        while index <= prefix.count {
            if index == prefix.count || prefix[index] == 0x0A || prefix[index] == 0x0D {
                if body(UnsafeRawBufferPointer(rebasing: prefix[start..<index])) { return true }
                start = index + 1
            }
            index += 1
        }
        return false
    }

    /// `bytes[range]` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound, end = range.upperBound
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    /// The value of the decimal digits `bytes[range]`, `nil` when the range is empty, holds
    /// anything else, or has more than 18 digits.
    static func digits(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value = 0
        for index in range {
            let digit = Int(bytes[index]) &- 0x30
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// A decimal number (`12`, `-3.25`, `.5`) in `bytes[range]`, correctly rounded, through
    /// ``DecimalNumber``; `nil` for anything else (no exponent).
    static func decimal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Double? {
        guard !range.isEmpty, let base = bytes.baseAddress else { return nil }
        let typed = UnsafeBufferPointer(
            start: base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count)
        return DecimalNumber.parse(typed, exponent: .rejected)
    }

    /// `bytes[range]` as text for a message (at most 40 bytes, invalid UTF-8 replaced).
    static func quoted(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let end = min(range.upperBound, range.lowerBound + 40)
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range.lowerBound..<end]), as: UTF8.self)
        return "'" + text + (end < range.upperBound ? "…'" : "'")
    }
}
