import PhotoGPS
import ReverseGeocoding

// NDJSON: a record on one line, as a value of its own. The field lists of Fields.swift walked
// with writers that put each key with its punctuation and its value in memory reserved
// beforehand (``JSONCursor``): one capacity check per field of a record, one for the whole place
// object, and no separator state in the writer.

extension JSONCursor {
    /// The most bytes `value` takes.
    @inline(__always)
    static func room(_ value: FieldValue) -> Int {
        switch value {
        case .integer, .number, .metres: numberRoom
        case .string(let text): room(text)
        case .text(let text): room(text)
        case .literal(let text): 16 &+ (text?.utf8CodeUnitCount ?? 0)
        case .boolean: 8
        }
    }

    /// Writes one field's value.
    @inline(__always)
    mutating func value(_ value: FieldValue) {
        switch value {
        case .integer(let value): integer(value)
        case .number(let value): number(value)
        case .metres(let value): if let value { metres(value) } else { null() }
        case .string(let value): string(value)
        case .text(let value): string(value)
        case .literal(let value): string(value)
        case .boolean(let value):
            if let value { raw(value ? "true" : "false") } else { null() }
        }
    }

    /// A literal string (with nothing to escape), quoted, or `null`.
    @inline(__always)
    mutating func string(_ value: StaticString?) {
        guard let value else { return null() }
        byte(UInt8(ascii: "\""))
        raw(value)
        byte(UInt8(ascii: "\""))
    }

    /// The most bytes ``key(_:opening:closing:)`` takes, beyond the name.
    static let keyRoom = 8

    /// A key with its punctuation: the `}` of `closing` objects (and the `]` of an array when
    /// `closingArray`) that end before it, then `{` when it is the first of its object, else
    /// `,`.
    @inline(__always)
    mutating func key(_ name: StaticString, opening: Bool, closing: Int = 0, closingArray: Bool = false) {
        if closingArray { byte(UInt8(ascii: "]")) }
        var closing = closing
        while closing > 0 {
            byte(UInt8(ascii: "}"))
            closing -= 1
        }
        // The punctuation a byte at a time: only the name is a literal to copy.
        byte(opening ? UInt8(ascii: "{") : UInt8(ascii: ","))
        byte(UInt8(ascii: "\""))
        raw(name)
        byte(UInt8(ascii: "\""))
        byte(UInt8(ascii: ":"))
    }
}

/// Writes a record on one line (NDJSON), with nothing open around it.
///
/// Each field is a piece with one capacity check; an object's closing brace, and the closing
/// bracket of `warnings`, go with the next key (or the record's end, ``finish()``).
struct CompactRecordWriter: RecordVisitor {
    /// The caller's writer, through a pointer (a copy of it retained and released its buffer),
    /// for the place and the nearby places.
    private let json: UnsafeMutablePointer<JSONWriter>
    /// The writer's buffer, where the other fields go, unretained (the writer holds it): a
    /// reference of its own was retained and released for each record, and one read through
    /// `json` for each field of the walks that are not inlined.
    private let out: Unmanaged<ByteBuffer>
    /// Whether the next key is the first of its object (the record's, first of all).
    private var opening = true
    /// How many objects end before the next key.
    private var closing = 0
    /// Whether `warnings` ends before the next key.
    private var closingArray = false

    /// Calls `body` with a writer of one record to `json`, and ends the record.
    @inline(__always)
    static func writing(to json: inout JSONWriter, _ body: (inout Self) -> Void) {
        let out = Unmanaged.passUnretained(json.out)
        withUnsafeMutablePointer(to: &json) { json in
            var writer = Self(json: json, out: out)
            body(&writer)
            writer.finish()
        }
    }

    private init(json: UnsafeMutablePointer<JSONWriter>, out: Unmanaged<ByteBuffer>) {
        (self.json, self.out) = (json, out)
    }

    /// ``JSONWriter/write(atMost:to:_:)`` to the buffer.
    @inline(__always)
    private func write(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) {
        out._withUnsafeGuaranteedRef { JSONWriter.write(atMost: maximum, to: $0, body) }
    }

    /// Writes a key (and what ends before it) and what `body` writes after it, in `room` bytes
    /// beyond the key's.
    @inline(__always)
    private mutating func keyed(_ name: StaticString, room: Int, _ body: (inout JSONCursor) -> Void) {
        let (opening, closing, closingArray) = (self.opening, self.closing, self.closingArray)
        (self.opening, self.closing, self.closingArray) = (false, 0, false)
        write(atMost: JSONCursor.keyRoom &+ closing &+ name.utf8CodeUnitCount &+ room) { out in
            out.key(name, opening: opening, closing: closing, closingArray: closingArray)
            body(&out)
        }
    }

    @inline(__always)
    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        keyed(key.name, room: JSONCursor.room(value)) { $0.value(value) }
    }

    @inline(__always)
    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        keyed(key, room: 4) { if !present { $0.null() } }
        guard present else { return }
        opening = true
        body(&self)
        closing += 1
    }

    @inline(__always)
    mutating func place(_ location: UnsafeLocation) { place(location, fragments: nil) }

    /// ``place(_:)`` with the cached text of the places written lately (``PlaceFragments``),
    /// for the geocoder that gave `location`. (A parameter, not the writer's: a reference the
    /// writer held was retained and released for each record.)
    @inline(__always)
    mutating func place(_ location: borrowing UnsafeLocation, fragments: PlaceFragments?) {
        keyed("place", room: 0) { _ in }
        writePlace(location, fragments: fragments, to: &json.pointee)
    }

    @inline(__always)
    mutating func noPlace() { keyed("place", room: 4) { $0.null() } }

    mutating func nearby(_ matches: [PlaceMatch]?) {
        keyed("nearby", room: 0) { _ in }
        writeNearby(matches, to: &json.pointee)
    }

    @inline(__always)
    mutating func warnings(_ key: StaticString, _ forEach: ((RecordWarning) -> Void) -> Void) {
        keyed(key, room: 1) { $0.byte(UInt8(ascii: "[")) }
        // Each warning a piece of its own, as it is made: no list of them.
        var first = true
        forEach { warning in
            let comma = !first
            first = false
            switch warning {
            case .atSea:
                write(atMost: 1 + CoordinateRecord.atSeaWarningJSON.utf8CodeUnitCount) { out in
                    if comma { out.byte(UInt8(ascii: ",")) }
                    out.raw(CoordinateRecord.atSeaWarningJSON)
                }
            case .text(let text):
                write(atMost: 1 + JSONCursor.room(text)) { out in
                    if comma { out.byte(UInt8(ascii: ",")) }
                    out.string(text)
                }
            }
        }
        closingArray = true
    }

    mutating func input(_ values: InputValues) {
        keyed("input", room: 0) { _ in }
        writeInput(values, to: &json.pointee)
    }

    mutating func fileBytes(_ path: ArraySlice<UInt8>?) {
        guard let path else { return }
        let text = base64(path)
        keyed("fileBytes", room: JSONCursor.room(text)) { $0.string(text) }
    }

    /// Ends the record: what is still open, then its own brace.
    @inline(__always)
    private mutating func finish() {
        let (closing, closingArray) = (self.closing, self.closingArray)
        write(atMost: 2 + closing) { out in
            if closingArray { out.byte(UInt8(ascii: "]")) }
            for _ in 0..<closing { out.byte(UInt8(ascii: "}")) }
            out.byte(UInt8(ascii: "}"))
        }
    }
}

extension PhotoRecord {
    /// ``write(to:nearby:)`` on one line, as a value of its own (NDJSON). The GPS time and the
    /// capture time are written from their text on the stack, not made strings.
    func writeCompact(to json: inout JSONWriter, nearby: Bool) {
        CompactRecordWriter.writing(to: &json) { writer in
            withTexts(&writer) { record, texts, writer in record.visitFields(texts, nearby: nearby, &writer) }
        }
    }
}

extension CoordinateRecord {
    /// ``write(to:nearby:)`` on one line, as a value of its own (NDJSON).
    func writeCompact(to json: inout JSONWriter, nearby: Bool) {
        CompactRecordWriter.writing(to: &json) { writer in visitFields(nearby: nearby, &writer) }
    }

    /// ``writeCompact(to:nearby:)`` of a point that was looked up, without `nearby`, from its
    /// parts: `geocode` writes each point as soon as it is looked up rather than making a record
    /// and copying it (a ``UnsafeLocation`` holds strings, and each copy retains them).
    ///
    /// - Parameter fragments: the cached text of the places written lately (see
    ///   ``PlaceFragments``), for the geocoder that gave `location`.
    static func writeCompact(
        coordinate: Coordinate, location: borrowing UnsafeLocation, line: Int?, input: InputValues? = nil,
        fragments: PlaceFragments? = nil, to json: inout JSONWriter
    ) {
        // Through a pointer: a closure that captured `location` copied it (retaining its strings).
        withUnsafePointer(to: location) { location in
            CompactRecordWriter.writing(to: &json) { writer in
                visitFields(
                    coordinate: coordinate, atSea: location.pointee.atSea, error: nil, line: line, input: input,
                    &writer
                ) {
                    writer in writer.place(location.pointee, fragments: fragments)
                }
            }
        }
    }

    /// ``atSeaWarning`` as a JSON string, a literal: the compact writer copies it, where the
    /// `String` was retained, released and scanned for escapes in every record.
    static var atSeaWarningJSON: StaticString { "\"the position is at sea: no country contains it\"" }
}

/// ``writePlace(_:to:)-(UnsafeLocation?,_)`` on one line: the keys with their punctuation and the
/// values between them, in one piece (one capacity check for the whole object): the place's
/// fields are walked twice, for the room they take, then to write them.
///
/// What depends on the named place alone (``FieldVisitor/namedPlaceRun(_:_:)``, a
/// ``PlaceFragments/Entry``) is copied from `fragments` when the place is there, with no read
/// of its row, and kept there when it is not.
func writeCompactPlace(_ location: borrowing UnsafeLocation, fragments: PlaceFragments?, to json: inout JSONWriter) {
    // The named place's cached text, or its slot to cache it under (-1: none, or no cache).
    var cached: PlaceFragments.Entry? = nil, slot = -1
    if let fragments, let nearest = location.nearest {
        cached = fragments.entry(nearest.view.slot)
        if cached == nil { slot = nearest.view.slot }
    }
    AnsweredPlace.with(location, readingNamed: cached == nil) { answer in
        var room = CompactPlaceRoom(cached: cached)
        PlaceFields.visit(answer, &room)
        json.piece(atMost: room.total) { out in
            var writer = CompactPlaceWriter(out: out, cached: cached)
            PlaceFields.visit(answer, &writer)
            writer.finish()
            if slot >= 0, let fragments { fragments.keep(slot, head: writer.runs.0, middle: writer.runs.1) }
            out = writer.out
        }
    }
}

/// The most bytes ``CompactPlaceWriter`` writes of a place.
private struct CompactPlaceRoom: FieldVisitor {
    let cached: PlaceFragments.Entry?
    /// The braces that end the object and its `city`.
    var total = 2

    @inline(__always)
    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        total &+= JSONCursor.keyRoom &+ key.name.utf8CodeUnitCount &+ JSONCursor.room(value)
    }

    @inline(__always)
    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        total &+= JSONCursor.keyRoom &+ key.utf8CodeUnitCount &+ 4
        if present { body(&self) }
    }

    @inline(__always)
    mutating func namedPlaceRun(_ run: Int, _ body: (inout Self) -> Void) {
        guard let cached else { return body(&self) }
        total &+= run == 0 ? cached.head.count : cached.middle.count
    }
}

/// Writes a place object (and its `city`) at a cursor; copies the runs of the named place's
/// fields from ``cached`` when they are there, and says where it wrote them (``runs``).
private struct CompactPlaceWriter: FieldVisitor {
    var out: JSONCursor
    let cached: PlaceFragments.Entry?
    /// Where the two runs of the named place's fields were written, to keep.
    var runs = (UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(start: nil, count: 0))
    private var opening = true
    private var closing = 0

    init(out: JSONCursor, cached: PlaceFragments.Entry?) {
        self.out = out
        self.cached = cached
    }

    @inline(__always)
    private mutating func key(_ name: StaticString) {
        out.key(name, opening: opening, closing: closing)
        (opening, closing) = (false, 0)
    }

    @inline(__always)
    mutating func field(_ key: FieldKey, _ value: FieldValue) {
        self.key(key.name)
        out.value(value)
    }

    @inline(__always)
    mutating func object(_ key: StaticString, flatPrefix: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        self.key(key)
        guard present else { return out.null() }
        opening = true
        body(&self)
        closing += 1
    }

    @inline(__always)
    mutating func namedPlaceRun(_ run: Int, _ body: (inout Self) -> Void) {
        if let cached {
            out.copy(run == 0 ? cached.head : cached.middle)
            opening = false
            return
        }
        let start = out.at
        body(&self)
        let text = UnsafeRawBufferPointer(start: start, count: out.at - start)
        if run == 0 { runs.0 = text } else { runs.1 = text }
    }

    /// Ends the object (and its `city`).
    @inline(__always)
    mutating func finish() {
        for _ in 0..<closing { out.byte(UInt8(ascii: "}")) }
        out.byte(UInt8(ascii: "}"))
    }
}
