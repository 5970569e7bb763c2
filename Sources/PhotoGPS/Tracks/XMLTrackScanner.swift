// The streaming XML scanner under the GPX and KML readers. It is fed a file's bytes in chunks of
// any size and hands its reader (an ``XMLTrackHandler``) the start and end of each element, the
// `lat`/`lon` attributes and the text the reader asks for. It keeps only the tag, attribute value
// or text in progress and the names of the open elements, never the document.

/// The local names (the part after any `prefix:`) of the elements and attributes the GPX and KML
/// readers look at, matched without regard to case as ExifTool matches them; every other name is
/// ``other``.
enum XMLTrackName: UInt8 {
    case other
    case trkpt, rtept, wpt, ele, time, lat, lon
    case placemark, timeStamp, timeSpan, when, begin, end, point, coordinates, track, coord, lineString
    case multiGeometry

    /// The names by the length of their local name, each with its lowercase spelling.
    private static let byLength: [[(spelling: [UInt8], name: XMLTrackName)]] = {
        let all: [(String, XMLTrackName)] = [
            ("trkpt", .trkpt), ("rtept", .rtept), ("wpt", .wpt), ("ele", .ele), ("time", .time), ("lat", .lat),
            ("lon", .lon), ("placemark", .placemark), ("timestamp", .timeStamp), ("timespan", .timeSpan),
            ("when", .when), ("begin", .begin), ("end", .end), ("point", .point), ("coordinates", .coordinates),
            ("track", .track), ("coord", .coord), ("linestring", .lineString), ("multigeometry", .multiGeometry),
        ]
        var table = [[(spelling: [UInt8], name: XMLTrackName)]](repeating: [], count: 14)
        for (spelling, name) in all { table[spelling.utf8.count].append((Array(spelling.utf8), name)) }
        return table
    }()

    /// The name of a qualified name as written (`gx:coord`, `trkpt`): its local part, compared
    /// with the known names ignoring ASCII case.
    static func of(_ qualified: UnsafeBufferPointer<UInt8>) -> XMLTrackName {
        var start = qualified.startIndex
        if let colon = qualified.lastIndex(of: 0x3A) { start = colon + 1 }
        let count = qualified.endIndex - start
        guard count < byLength.count else { return .other }
        for (spelling, name) in byLength[count] {
            var equal = true
            for k in 0..<count where qualified[start + k] | 0x20 != spelling[k] {
                equal = false
                break
            }
            if equal { return name }
        }
        return .other
    }
}

/// A reader of one XML track format, driven by ``XMLTrackScanner``: it is told of each element as
/// it opens and closes, and gets the text of the elements it asks for.
protocol XMLTrackHandler {
    /// A start tag named `element` begins; returns whether its `lat` and `lon` attributes are
    /// wanted (they are then handed to ``attribute(_:value:)`` before ``startElement(_:parent:line:sink:)``).
    mutating func beginTag(_ element: XMLTrackName) -> Bool
    /// The value of a wanted attribute of the tag being read, its entities decoded.
    mutating func attribute(_ name: XMLTrackName, value: ArraySlice<UInt8>)
    /// An element opens (`line` is where its tag starts; `parent` is the element it is in).
    /// Returns whether its text is wanted: it is then collected, up to the end of the element
    /// (the text of elements inside it left out), and handed to ``endElement(_:text:line:sink:)``.
    mutating func startElement(
        _ element: XMLTrackName, parent: XMLTrackName, line: Int, sink: inout some TrackSink
    ) throws(TrackReadError) -> Bool
    /// An element closes (`line` is where it opened); `text` is its text when it was wanted,
    /// else `nil`.
    mutating func endElement(
        _ element: XMLTrackName, text: [UInt8]?, line: Int, sink: inout some TrackSink
    ) throws(TrackReadError)
}

/// A streaming, non-validating XML scanner that checks what a track reader needs to trust: that
/// the root element is the format's, that tags are well-formed and nest, that entities in the
/// text read are known, and that the file does not end in the middle. Comments, processing
/// instructions, CDATA sections and a DOCTYPE are read over; a UTF-8 byte order mark is skipped,
/// and UTF-16 (either byte order, with or without a mark) is transcoded to UTF-8 as it comes.
/// Other encodings declared as 8-bit (ISO-8859-1, Windows-1252) read as they are, since only
/// ASCII (numbers and times) is ever interpreted.
struct XMLTrackScanner {
    /// The longest tag name, attribute value or wanted text accepted: anything longer is not a
    /// track file's (and would make memory grow with the file).
    static let tokenLimit = 1 << 20
    /// The deepest nesting of elements accepted (real files nest a dozen levels).
    static let depthLimit = 4096

    /// Where the scanner is in the markup.
    private enum State {
        case text, lessThan, startName, endName, endTagSpace, tagSpace, attributeName, afterAttributeName
        case beforeValue, value, selfClose, bang, comment, cdata, declaration, processing, entity
    }

    /// The document's encoding, once its first bytes are seen.
    private enum Encoding {
        case undecided, utf8
        case utf16(bigEndian: Bool)
    }

    /// The root element's local name as it must be written (`gpx`, `kml`).
    private let rootName: [UInt8]
    /// The format's name for messages (`GPX`, `KML`).
    private let format: String

    private var encoding = Encoding.undecided
    /// The first bytes, kept until there are enough to tell the encoding.
    private var head: [UInt8] = []
    /// A UTF-16 byte waiting for its pair, and a high surrogate waiting for its low one.
    private var pendingByte: UInt8?
    private var highSurrogate: UInt32?
    /// The UTF-8 of a transcoded chunk.
    private var transcoded: [UInt8] = []

    private var state = State.text
    /// The current line (1-based), and the line where the current tag or markup starts.
    private var line = 1
    private var tagLine = 1
    /// The name of the tag being read, and what it is.
    private var name: [UInt8] = []
    private var kind = XMLTrackName.other
    private var wantsAttributes = false
    private var attributeName: [UInt8] = []
    private var wantsValue = false
    private var quote: UInt8 = 0
    private var value: [UInt8] = []
    /// The wanted text being collected, and the depth of the element it belongs to (0: none).
    private var text: [UInt8] = []
    private var captureDepth = 0
    /// The entity being read, and the state to go back to after it.
    private var entity: [UInt8] = []
    private var entityReturn = State.text
    /// The bytes after `<!`, until they tell a comment, a CDATA section or a declaration.
    private var bang: [UInt8] = []
    /// How many of the bytes that end a comment (`-`), CDATA section (`]`) or processing
    /// instruction (`?`) were just seen.
    private var run = 0
    private var declarationDepth = 0
    private var declarationQuote: UInt8 = 0
    /// The open elements: their names as written (one after the other in `openNames`, each
    /// starting at its `openStarts` index), what they are, and the lines where they opened.
    private var openNames: [UInt8] = []
    private var openStarts: [Int] = []
    private var openKinds: [XMLTrackName] = []
    private var openLines: [Int] = []
    private var rootSeen = false
    private var rootClosed = false

    /// A scanner of a document whose root element's local name must be `root`, in a `format`
    /// file (`GPX`, for messages).
    init(root: String, format: String) {
        rootName = Array(root.utf8)
        self.format = format
    }

    /// Reads the next chunk of the file, telling `handler` what it finds.
    mutating func feed<H: XMLTrackHandler, S: TrackSink>(
        _ chunk: UnsafeRawBufferPointer, _ handler: inout H, _ sink: inout S
    ) throws(TrackReadError) {
        var chunk = chunk
        if case .undecided = encoding {
            let taken = min(4 - head.count, chunk.count)
            head.append(contentsOf: chunk.prefix(taken))
            chunk = UnsafeRawBufferPointer(rebasing: chunk[taken...])
            guard head.count == 4 else { return }
            try decideEncoding(&handler, &sink)
        }
        try decode(chunk, &handler, &sink)
    }

    /// The end of the file: throws when it ends inside markup or an element, or has no root.
    mutating func finish<H: XMLTrackHandler, S: TrackSink>(_ handler: inout H, _ sink: inout S) throws(TrackReadError) {
        if case .undecided = encoding {
            guard !head.isEmpty else { throw TrackReadError("not a \(format) file: the file is empty") }
            try decideEncoding(&handler, &sink)
        }
        if pendingByte != nil || highSurrogate != nil {
            throw TrackReadError("line \(line): the file ends in the middle of a UTF-16 character: it is cut short")
        }
        switch state {
        case .text:
            break
        case .comment:
            throw TrackReadError("line \(line): the file ends inside the comment of line \(tagLine): it is cut short")
        case .cdata:
            throw TrackReadError(
                "line \(line): the file ends inside the CDATA section of line \(tagLine): it is cut short")
        case .entity:
            throw TrackReadError("line \(line): the file ends inside an entity (&…;): it is cut short")
        default:
            throw TrackReadError("line \(line): the file ends inside the tag of line \(tagLine): it is cut short")
        }
        guard rootSeen else {
            throw TrackReadError("not a \(format) file: it has no XML element")
        }
        if let open = openKinds.indices.last {
            throw TrackReadError(
                "line \(line): the file ends before </\(openName(open))> (opened on line \(openLines[open])): "
                    + "it is cut short")
        }
    }

    // MARK: - Encoding

    /// Tells the encoding from the first bytes (a byte order mark, or the code units of `<`),
    /// then reads them.
    private mutating func decideEncoding<H: XMLTrackHandler, S: TrackSink>(
        _ handler: inout H, _ sink: inout S
    ) throws(TrackReadError) {
        let first = head
        head = []
        var skip = 0
        let b = first + [UInt8](repeating: 1, count: 4 - first.count)
        switch (b[0], b[1], b[2], b[3]) {
        case (0x00, 0x00, 0xFE, 0xFF), (0xFF, 0xFE, 0x00, 0x00), (0x00, 0x00, 0x00, 0x3C), (0x3C, 0x00, 0x00, 0x00):
            throw TrackReadError("not a \(format) file this reader can read: it is UTF-32; save it as UTF-8")
        case (0xEF, 0xBB, 0xBF, _):
            encoding = .utf8
            skip = 3
        case (0xFE, 0xFF, _, _):
            encoding = .utf16(bigEndian: true)
            skip = 2
        case (0xFF, 0xFE, _, _):
            encoding = .utf16(bigEndian: false)
            skip = 2
        case (0x00, 0x3C, _, _):
            encoding = .utf16(bigEndian: true)
        case (0x3C, 0x00, _, _):
            encoding = .utf16(bigEndian: false)
        default:
            encoding = .utf8
        }
        guard first.count > skip else { return }
        try Self.withBytes(Array(first[skip...])) { (bytes) throws(TrackReadError) in
            try decode(bytes, &handler, &sink)
        }
    }

    /// Reads bytes in the document's encoding: as they are when UTF-8, transcoded when UTF-16.
    private mutating func decode<H: XMLTrackHandler, S: TrackSink>(
        _ chunk: UnsafeRawBufferPointer, _ handler: inout H, _ sink: inout S
    ) throws(TrackReadError) {
        guard case .utf16(let bigEndian) = encoding else {
            try scan(chunk, &handler, &sink)
            return
        }
        var out = transcoded
        transcoded = []
        out.removeAll(keepingCapacity: true)
        var index = 0
        while index < chunk.count {
            let unit: UInt32
            if let first = pendingByte {
                unit = bigEndian ? UInt32(first) << 8 | UInt32(chunk[index]) : UInt32(chunk[index]) << 8 | UInt32(first)
                pendingByte = nil
                index += 1
            } else if index + 1 < chunk.count {
                let a = UInt32(chunk[index]), b = UInt32(chunk[index + 1])
                unit = bigEndian ? a << 8 | b : b << 8 | a
                index += 2
            } else {
                pendingByte = chunk[index]
                break
            }
            var scalar = unit
            var invalid: String? = nil
            if let high = highSurrogate {
                if (0xDC00...0xDFFF).contains(unit) {
                    scalar = 0x10000 + (high - 0xD800) << 10 + (unit - 0xDC00)
                    highSurrogate = nil
                } else {
                    invalid = "a high surrogate without its low one"
                }
            } else if (0xD800...0xDBFF).contains(unit) {
                highSurrogate = unit
                continue
            } else if (0xDC00...0xDFFF).contains(unit) {
                invalid = "a low surrogate without its high one"
            }
            if let invalid {
                // What came before is read first, so that the first fault in the document is the
                // one reported, however the file was cut into chunks.
                try Self.withBytes(out) { (bytes) throws(TrackReadError) in try scan(bytes, &handler, &sink) }
                throw TrackReadError("line \(line): invalid UTF-16 (\(invalid))")
            }
            Self.appendUTF8(scalar, to: &out)
        }
        defer { transcoded = out }
        try Self.withBytes(out) { (bytes) throws(TrackReadError) in try scan(bytes, &handler, &sink) }
    }

    /// Calls `body` with the bytes of `array` (the standard library's `withUnsafeBytes` does not
    /// pass a typed error through).
    private static func withBytes(
        _ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        let result: Result<Void, TrackReadError> = array.withUnsafeBytes { bytes in
            do throws(TrackReadError) {
                try body(bytes)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Appends the UTF-8 of a Unicode scalar value (below 0x110000).
    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: - Bytes

    /// Whether a byte is XML white space.
    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether a byte may start a name (ASCII letters, `_`, `:`, and any byte of a non-ASCII
    /// character).
    @inline(__always) private static func isNameStart(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    /// Whether a byte may continue a name (a start byte, digits, `-`, `.`).
    @inline(__always) private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    /// A byte for a message: itself when printable ASCII, else what it is.
    private static func shown(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return isSpace(byte) ? (byte == 0x20 ? "a space" : "a line break or tab") : "byte 0x\(String(byte, radix: 16))"
    }

    /// The name of open element `index`, as written.
    private func openName(_ index: Int) -> String {
        let end = index + 1 < openStarts.count ? openStarts[index + 1] : openNames.count
        return String(decoding: openNames[openStarts[index]..<end], as: UTF8.self)
    }

    /// Appends `count` bytes at `start` to `buffer`; `false` (and nothing appended) when that
    /// would make it longer than ``tokenLimit``.
    @inline(__always) private static func append(
        _ start: UnsafePointer<UInt8>, _ count: Int, to buffer: inout [UInt8]
    ) -> Bool {
        guard count > 0 else { return true }
        guard buffer.count + count <= tokenLimit else { return false }
        buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        return true
    }

    /// The error for a token longer than ``tokenLimit``.
    private func tooLong(_ what: String) -> TrackReadError {
        TrackReadError("line \(line): \(what) is longer than \(Self.tokenLimit >> 20) MB")
    }

    // MARK: - Markup

    /// Reads a chunk of UTF-8: the state machine. Each state reads as many bytes as it can in a
    /// tight loop of its own.
    private mutating func scan<H: XMLTrackHandler, S: TrackSink>(
        _ chunk: UnsafeRawBufferPointer, _ handler: inout H, _ sink: inout S
    ) throws(TrackReadError) {
        guard let base = chunk.baseAddress else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = chunk.count
        var i = 0
        while i < n {
            switch state {
            case .text:
                let depth = openKinds.count
                if captureDepth == depth, depth > 0 {
                    let start = i
                    while i < n {
                        let byte = p[i]
                        if byte == 0x3C || byte == 0x26 { break }
                        if byte == 0x0A { line += 1 }
                        i += 1
                    }
                    guard Self.append(p + start, i - start, to: &text) else {
                        throw tooLong("the text of <\(openName(depth - 1))>")
                    }
                    guard i < n else { break }
                    if p[i] == 0x26 {
                        state = .entity
                        entityReturn = .text
                        entity.removeAll(keepingCapacity: true)
                    } else {
                        state = .lessThan
                        tagLine = line
                    }
                    i += 1
                } else if depth == 0 {
                    while i < n {
                        let byte = p[i]
                        if byte == 0x3C { break }
                        if byte == 0x0A {
                            line += 1
                        } else if !Self.isSpace(byte) && !(rootClosed && byte == 0) {
                            throw outsideRoot(byte)
                        }
                        i += 1
                    }
                    guard i < n else { break }
                    state = .lessThan
                    tagLine = line
                    i += 1
                } else {
                    while i < n {
                        let byte = p[i]
                        if byte == 0x3C { break }
                        if byte == 0x0A { line += 1 }
                        i += 1
                    }
                    guard i < n else { break }
                    state = .lessThan
                    tagLine = line
                    i += 1
                }

            case .lessThan:
                let byte = p[i]
                if byte == 0x2F {  // </
                    state = .endName
                    name.removeAll(keepingCapacity: true)
                    i += 1
                } else if byte == 0x3F {  // <?
                    state = .processing
                    run = 0
                    i += 1
                } else if byte == 0x21 {  // <!
                    state = .bang
                    bang.removeAll(keepingCapacity: true)
                    i += 1
                } else if Self.isNameStart(byte) {
                    state = .startName
                    name.removeAll(keepingCapacity: true)
                } else {
                    throw TrackReadError("line \(line): '<' followed by \(Self.shown(byte)), not by a tag name")
                }

            case .startName, .endName:
                let start = i
                while i < n, Self.isNameByte(p[i]) { i += 1 }
                guard Self.append(p + start, i - start, to: &name) else { throw tooLong("a tag name") }
                guard i < n else { break }
                if state == .startName {
                    try startTagNamed(&handler)
                    state = .tagSpace
                } else {
                    guard !name.isEmpty else {
                        throw TrackReadError("line \(line): '</' followed by \(Self.shown(p[i])), not by a tag name")
                    }
                    state = .endTagSpace
                }

            case .endTagSpace:
                let byte = p[i]
                i += 1
                if byte == 0x3E {
                    state = .text
                    try closeElement(&handler, &sink)
                } else if byte == 0x0A {
                    line += 1
                } else if !Self.isSpace(byte) {
                    throw TrackReadError(
                        "line \(line): \(Self.shown(byte)) in the end tag </\(String(decoding: name, as: UTF8.self))>")
                }

            case .tagSpace:
                let byte = p[i]
                if byte == 0x3E {
                    i += 1
                    state = .text
                    try openElement(selfClosing: false, &handler, &sink)
                } else if Self.isSpace(byte) {
                    if byte == 0x0A { line += 1 }
                    i += 1
                } else if byte == 0x2F {
                    state = .selfClose
                    i += 1
                } else if Self.isNameStart(byte) {
                    state = .attributeName
                    attributeName.removeAll(keepingCapacity: true)
                } else {
                    throw TrackReadError(
                        "line \(line): \(Self.shown(byte)) in the tag <\(String(decoding: name, as: UTF8.self))>")
                }

            case .attributeName:
                let start = i
                while i < n, Self.isNameByte(p[i]) { i += 1 }
                guard Self.append(p + start, i - start, to: &attributeName) else {
                    throw tooLong("an attribute name")
                }
                if i < n { state = .afterAttributeName }

            case .afterAttributeName, .beforeValue:
                let byte = p[i]
                i += 1
                if Self.isSpace(byte) {
                    if byte == 0x0A { line += 1 }
                } else if state == .afterAttributeName, byte == 0x3D {
                    state = .beforeValue
                } else if state == .beforeValue, byte == 0x22 || byte == 0x27 {
                    state = .value
                    quote = byte
                    value.removeAll(keepingCapacity: true)
                    wantsValue = false
                    if wantsAttributes {
                        let attribute = attributeName.withUnsafeBufferPointer { XMLTrackName.of($0) }
                        wantsValue = attribute == .lat || attribute == .lon
                    }
                } else {
                    throw TrackReadError(
                        "line \(line): the attribute \(String(decoding: attributeName, as: UTF8.self)) of "
                            + "<\(String(decoding: name, as: UTF8.self))> has no quoted value")
                }

            case .value:
                let start = i
                let close = quote
                if wantsValue {
                    while i < n {
                        let byte = p[i]
                        if byte == close || byte == 0x26 || byte == 0x3C { break }
                        if byte == 0x0A { line += 1 }
                        i += 1
                    }
                    guard Self.append(p + start, i - start, to: &value) else { throw tooLong("an attribute value") }
                } else {
                    while i < n {
                        let byte = p[i]
                        if byte == close || byte == 0x3C { break }
                        if byte == 0x0A { line += 1 }
                        i += 1
                    }
                }
                guard i < n else { break }
                let byte = p[i]
                i += 1
                if byte == close {
                    state = .tagSpace
                    if wantsValue {
                        let attribute = attributeName.withUnsafeBufferPointer { XMLTrackName.of($0) }
                        handler.attribute(attribute, value: value[...])
                    }
                } else if byte == 0x26 {
                    state = .entity
                    entityReturn = .value
                    entity.removeAll(keepingCapacity: true)
                } else {
                    throw TrackReadError(
                        "line \(line): '<' in the value of the attribute "
                            + "\(String(decoding: attributeName, as: UTF8.self)): a tag is not closed")
                }

            case .selfClose:
                guard p[i] == 0x3E else {
                    throw TrackReadError(
                        "line \(line): '/' not followed by '>' in the tag <\(String(decoding: name, as: UTF8.self))>")
                }
                i += 1
                state = .text
                try openElement(selfClosing: true, &handler, &sink)

            case .bang:
                let byte = p[i]
                i += 1
                bang.append(byte)
                let cdata: [UInt8] = [0x5B, 0x43, 0x44, 0x41, 0x54, 0x41, 0x5B]  // [CDATA[
                if bang == [0x2D, 0x2D] {
                    state = .comment
                    run = 0
                } else if bang == [0x2D] {
                    continue
                } else if bang.count <= cdata.count, cdata.starts(with: bang) {
                    if bang.count == cdata.count {
                        guard !openKinds.isEmpty else {
                            throw TrackReadError("line \(line): a CDATA section outside the root element")
                        }
                        state = .cdata
                        run = 0
                    }
                } else if bang.count == 1, Self.isNameStart(byte) {
                    state = .declaration
                    declarationDepth = 0
                    declarationQuote = 0
                } else {
                    throw TrackReadError("line \(line): '<!' followed by \(Self.shown(byte)): not XML markup")
                }

            case .comment:
                while i < n {
                    let byte = p[i]
                    i += 1
                    if byte == 0x2D {
                        run += 1
                    } else if byte == 0x3E && run >= 2 {
                        state = .text
                        break
                    } else {
                        run = 0
                        if byte == 0x0A { line += 1 }
                    }
                }

            case .processing:
                while i < n {
                    let byte = p[i]
                    i += 1
                    if byte == 0x3F {
                        run = 1
                    } else if byte == 0x3E && run == 1 {
                        state = .text
                        break
                    } else {
                        run = 0
                        if byte == 0x0A { line += 1 }
                    }
                }

            case .cdata:
                let capturing = captureDepth == openKinds.count
                while i < n {
                    let byte = p[i]
                    i += 1
                    if byte == 0x5D {
                        run += 1
                    } else if byte == 0x3E && run >= 2 {
                        state = .text
                        if capturing { text.removeLast(2) }
                        break
                    } else {
                        run = 0
                        if byte == 0x0A { line += 1 }
                    }
                    if capturing {
                        guard text.count < Self.tokenLimit else {
                            throw tooLong("the text of <\(openName(openKinds.count - 1))>")
                        }
                        text.append(byte)
                    }
                }

            case .declaration:
                while i < n {
                    let byte = p[i]
                    i += 1
                    if byte == 0x0A { line += 1 }
                    if declarationQuote != 0 {
                        if byte == declarationQuote { declarationQuote = 0 }
                    } else if byte == 0x22 || byte == 0x27 {
                        declarationQuote = byte
                    } else if byte == 0x5B {
                        declarationDepth += 1
                    } else if byte == 0x5D {
                        declarationDepth -= 1
                    } else if byte == 0x3E && declarationDepth <= 0 {
                        state = .text
                        break
                    }
                }

            case .entity:
                while i < n {
                    let byte = p[i]
                    i += 1
                    if byte == 0x3B {
                        state = entityReturn
                        let decoded =
                            entityReturn == .value
                            ? Self.decodeEntity(entity, into: &value) : Self.decodeEntity(entity, into: &text)
                        guard let decoded else {
                            throw TrackReadError(
                                "line \(line): unknown entity &\(String(decoding: entity, as: UTF8.self));")
                        }
                        guard decoded else { throw tooLong("a text or attribute value") }
                        break
                    }
                    guard entity.count < 10, Self.isNameByte(byte) || byte == 0x23 else {
                        throw TrackReadError(
                            "line \(line): '&' that does not start an entity (write &amp; for a lone '&')")
                    }
                    entity.append(byte)
                }
            }
        }
    }

    /// The error for a byte that is not white space outside the root element.
    private func outsideRoot(_ byte: UInt8) -> TrackReadError {
        guard rootClosed else {
            return TrackReadError(
                "not a \(format) file: line \(line) has text (\(Self.shown(byte))) before any XML element")
        }
        let root = String(decoding: rootName, as: UTF8.self)
        return TrackReadError("line \(line): text after the end of the root element </\(root)>")
    }

    /// The name of a start tag is read: checks the root, and asks the handler whether it wants
    /// the tag's attributes.
    private mutating func startTagNamed<H: XMLTrackHandler>(_ handler: inout H) throws(TrackReadError) {
        kind = name.withUnsafeBufferPointer { XMLTrackName.of($0) }
        if openKinds.isEmpty {
            let written = String(decoding: name, as: UTF8.self)
            guard !rootClosed else {
                throw TrackReadError(
                    "line \(tagLine): a second root element <\(written)> after the end of the first: "
                        + "is this several files joined together?")
            }
            let local = name.lastIndex(of: 0x3A).map { name[($0 + 1)...] } ?? name[...]
            guard local.elementsEqual(rootName) else {
                throw TrackReadError("not a \(format) file: the root element is <\(written)>")
            }
            rootSeen = true
        } else if openKinds.count >= Self.depthLimit {
            throw TrackReadError("line \(tagLine): elements nested more than \(Self.depthLimit) deep")
        }
        wantsAttributes = handler.beginTag(kind)
    }

    /// A start tag is read: tells the handler, and opens the element (or opens and closes it, for
    /// `<name/>`).
    private mutating func openElement<H: XMLTrackHandler, S: TrackSink>(
        selfClosing: Bool, _ handler: inout H, _ sink: inout S
    ) throws(TrackReadError) {
        let capture = try handler.startElement(kind, parent: openKinds.last ?? .other, line: tagLine, sink: &sink)
        if selfClosing {
            try handler.endElement(kind, text: capture ? [] : nil, line: tagLine, sink: &sink)
            if openKinds.isEmpty { rootClosed = true }
            return
        }
        openStarts.append(openNames.count)
        openNames.append(contentsOf: name)
        openKinds.append(kind)
        openLines.append(tagLine)
        if capture, captureDepth == 0 {
            captureDepth = openKinds.count
            text.removeAll(keepingCapacity: true)
        }
    }

    /// An end tag is read: checks that it closes the innermost open element, and tells the
    /// handler (with the element's text when it was wanted).
    private mutating func closeElement<H: XMLTrackHandler, S: TrackSink>(
        _ handler: inout H, _ sink: inout S
    ) throws(TrackReadError) {
        guard let top = openKinds.indices.last else {
            throw TrackReadError(
                "line \(tagLine): the end tag </\(String(decoding: name, as: UTF8.self))> closes no element")
        }
        let start = openStarts[top]
        let matches =
            openNames.count - start == name.count
            && openNames.withUnsafeBufferPointer { open in
                name.withUnsafeBufferPointer { closing in
                    var k = 0
                    while k < closing.count, open[start + k] == closing[k] { k += 1 }
                    return k == closing.count
                }
            }
        guard matches else {
            throw TrackReadError(
                "line \(tagLine): the end tag </\(String(decoding: name, as: UTF8.self))> does not match "
                    + "<\(openName(top))> of line \(openLines[top])")
        }
        let element = openKinds[top], opened = openLines[top]
        openNames.removeLast(openNames.count - start)
        openStarts.removeLast()
        openKinds.removeLast()
        openLines.removeLast()
        if captureDepth == top + 1 {
            captureDepth = 0
            try handler.endElement(element, text: text, line: opened, sink: &sink)
        } else {
            try handler.endElement(element, text: nil, line: opened, sink: &sink)
        }
        if openKinds.isEmpty { rootClosed = true }
    }

    /// Appends the character of `entity` (the name between `&` and `;`: `amp`, `lt`, `gt`,
    /// `quot`, `apos`, `#65`, `#x41`) to `buffer`. `nil` for any other (a DTD's own entities are
    /// not read), `false` when the buffer is full (``tokenLimit``).
    private static func decodeEntity(_ entity: [UInt8], into buffer: inout [UInt8]) -> Bool? {
        let written = String(decoding: entity, as: UTF8.self)
        var scalar: UInt32?
        switch written {
        case "amp": scalar = 0x26
        case "lt": scalar = 0x3C
        case "gt": scalar = 0x3E
        case "quot": scalar = 0x22
        case "apos": scalar = 0x27
        default:
            if written.hasPrefix("#x") {
                scalar = UInt32(written.dropFirst(2), radix: 16)
            } else if written.hasPrefix("#") {
                scalar = UInt32(written.dropFirst(), radix: 10)
            }
        }
        guard let scalar, scalar > 0, scalar < 0x11_0000, !(0xD800...0xDFFF).contains(scalar) else { return nil }
        guard buffer.count + 4 <= tokenLimit else { return false }
        appendUTF8(scalar, to: &buffer)
        return true
    }

    // MARK: - Sniffing

    /// The local name of the root element of a document starting with `prefix` (`gpx` for
    /// `<gpx:gpx …>`), read over a UTF-8 byte order mark, white space, the XML declaration,
    /// comments, processing instructions and a DOCTYPE; UTF-16 is read too. `nil` when the
    /// prefix shows no start tag, or ends before the name does.
    static func rootLocalName(ofPrefix prefix: UnsafeRawBufferPointer) -> [UInt8]? {
        var bytes = Array(prefix)
        // UTF-16: keep the low byte of each ASCII code unit (anything else becomes 0x80).
        var utf16: Bool?
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C]) {
            utf16 = true
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00]) {
            utf16 = false
        }
        if let bigEndian = utf16 {
            bytes = stride(from: 0, to: bytes.count - 1, by: 2).map { index in
                let high = bigEndian ? bytes[index] : bytes[index + 1]
                let low = bigEndian ? bytes[index + 1] : bytes[index]
                return high == 0 && low < 0x80 ? low : 0x80
            }
            if bytes.first == 0x80 { bytes.removeFirst() }  // the byte order mark
        } else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
        }
        var i = 0
        /// The index just past the first `terminator` from `i`.
        func after(_ terminator: [UInt8]) -> Int? {
            var at = i
            while at + terminator.count <= bytes.count {
                if bytes[at..<(at + terminator.count)].elementsEqual(terminator) { return at + terminator.count }
                at += 1
            }
            return nil
        }
        while i < bytes.count {
            if isSpace(bytes[i]) {
                i += 1
                continue
            }
            guard bytes[i] == 0x3C, i + 1 < bytes.count else { return nil }
            let next = bytes[i + 1]
            if next == 0x3F {
                guard let end = after([0x3F, 0x3E]) else { return nil }
                i = end
            } else if bytes[i...].starts(with: [0x3C, 0x21, 0x2D, 0x2D]) {
                guard let end = after([0x2D, 0x2D, 0x3E]) else { return nil }
                i = end
            } else if next == 0x21 {
                var depth = 0
                var at = i + 2
                while at < bytes.count, !(bytes[at] == 0x3E && depth <= 0) {
                    if bytes[at] == 0x5B { depth += 1 } else if bytes[at] == 0x5D { depth -= 1 }
                    at += 1
                }
                guard at < bytes.count else { return nil }
                i = at + 1
            } else if isNameStart(next) {
                var end = i + 1
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                guard end < bytes.count, isSpace(bytes[end]) || bytes[end] == 0x3E || bytes[end] == 0x2F else {
                    return nil
                }
                let qualified = bytes[(i + 1)..<end]
                let local = qualified.lastIndex(of: 0x3A).map { qualified[($0 + 1)...] } ?? qualified
                return Array(local)
            } else {
                return nil
            }
        }
        return nil
    }
}
