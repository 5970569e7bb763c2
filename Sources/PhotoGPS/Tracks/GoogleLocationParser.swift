import PhotoTagSupport

/// A Google location history, in any of its three shapes, told apart by the keys met at the top
/// level (never by the file's name), pretty-printed or minified alike:
///
/// - **Records.json** (Takeout, to 2024): `{"locations": [...]}`, one fix per entry at the entry's
///   own `timestamp` (ISO 8601) or `timestampMs` (milliseconds since 1970, a string or a number),
///   at `latitudeE7`/`longitudeE7` (degrees × 10⁷; values above 1,800,000,000 wrapped past 2³²,
///   as Google wrote some, are taken minus 2³²). Like ExifTool, no altitude is read from any
///   shape: Google's `altitude` is a phone's estimate, often absent. The timestamps of the nested
///   `activity[]` records are not the fix's time, and are not read.
/// - **Semantic Location History** (Takeout monthly files): `{"timelineObjects": [...]}`: the
///   points of each `simplifiedRawPath` (`latE7`, `lngE7`, `timestamp` or `timestampMs`) and each
///   `parkingEvent` (its `location` at its `timestamp`), in `activitySegment`s, `placeVisit`s and
///   their `childVisits`: the fixes ExifTool reads. Visits' and activities' spans, their start
///   and end locations and the untimed `waypointPath` are not fixes.
/// - **Timeline export** from the phone (2024 on): `{"semanticSegments": [...], "rawSignals":
///   [...], "userLocationProfile": {...}}`: the points of each segment's `timelinePath`
///   (`point` such as `48.8582°, 2.2945°` or `geo:48.8582,2.2945`, `time` in ISO 8601 with its
///   offset), as ExifTool reads them; `rawSignals`, visits and activities are not read.
///
/// The file is read as it streams (see ``JSONStreamScanner``): what is kept between chunks is the
/// path of open containers and the fields of one location entry. What it skips is still checked
/// as JSON. An entry without a time or a position, or with a field it cannot read, is skipped
/// with its path and line (`locations[11] (line 130): no timestamp`); a file that is not JSON,
/// is cut short, or whose top level is none of the three shapes is refused.
struct GoogleLocationParser: TrackParser {
    /// The three shapes of a Google location history.
    enum Shape: Sendable, Hashable, CustomStringConvertible {
        /// `Records.json`: `locations[]`.
        case records
        /// A Semantic Location History monthly file: `timelineObjects[]`.
        case semantic
        /// The on-device Timeline export: `semanticSegments[]` (with `rawSignals[]`,
        /// `userLocationProfile`).
        case timeline

        /// The shape's name, for messages.
        var description: String {
            switch self {
            case .records: "Google Records.json"
            case .semantic: "Google Semantic Location History"
            case .timeline: "Google Timeline export"
            }
        }
    }

    /// The shape of a file from its first bytes (at most 4,096 are looked at): a top-level object
    /// whose first key is `locations`, `timelineObjects`, or `semanticSegments` (also `rawSignals`
    /// or `userLocationProfile`, which a Timeline export may put first). A UTF-8 byte order mark
    /// and white space may come before it. `nil` for anything else.
    static func shape(prefix: UnsafeRawBufferPointer) -> Shape? {
        let window = UnsafeRawBufferPointer(rebasing: prefix.prefix(4096))
        var scanner = JSONStreamScanner()
        var index = 0
        do {
            guard try scanner.next(window, &index) == .objectStart, try scanner.next(window, &index) == .key
            else { return nil }
        } catch {
            return nil
        }
        return scanner.withText(window) { name -> Shape? in
            switch classify(name, in: .root) {
            case .locations: .records
            case .timelineObjects: .semantic
            case .semanticSegments, .rawSignals, .userLocationProfile: .timeline
            default: nil
            }
        }
    }

    /// Whether a file's first bytes are those of a Google location history (see
    /// ``shape(prefix:)``).
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool { shape(prefix: prefix) != nil }

    /// What a container being walked is.
    private enum Kind: UInt8 {
        case root
        case locations, record
        case timelineObjects, timelineObject, semanticPart, childVisits, rawPath, rawPoints, rawPoint, parking,
            parkingLocation
        case semanticSegments, segment, timelinePath, pathPoint

        /// Whether it is an array.
        var isArray: Bool {
            switch self {
            case .locations, .timelineObjects, .childVisits, .rawPoints, .semanticSegments, .timelinePath: true
            default: false
            }
        }

        /// Whether it is one fix's object, whose fields are gathered until it ends.
        var isFix: Bool { self == .record || self == .rawPoint || self == .parking || self == .pathPoint }

        /// What an object element of this array is; `nil` when not an array.
        var element: Kind? {
            switch self {
            case .locations: .record
            case .timelineObjects: .timelineObject
            case .childVisits: .semanticPart
            case .rawPoints: .rawPoint
            case .semanticSegments: .segment
            case .timelinePath: .pathPoint
            default: nil
            }
        }
    }

    /// The keys read; every other key's value is skipped.
    private enum Key: UInt8 {
        case other
        case locations, timelineObjects, semanticSegments, rawSignals, userLocationProfile
        case latitudeE7, longitudeE7, latE7, lngE7, timestamp, timestampMs
        case activitySegment, placeVisit, childVisits, simplifiedRawPath, points, parkingEvent, location
        case timelinePath, point, time

        /// The key as the file writes it.
        var name: String { "\(self)" }
    }

    /// One open container being walked (skipped ones have none).
    private struct Frame {
        var kind: Kind
        /// The key whose value it is (`.other` for an array's element).
        var name: Key
        /// For an array: how many elements have started.
        var count = 0
    }

    /// The fields of the fix being read.
    private struct Fields {
        var latitude: Double?
        var longitude: Double?
        /// From an ISO 8601 `timestamp` or `time`.
        var time: Double?
        /// From `timestampMs`.
        var milliseconds: Double?
        /// The first field that could not be read: the entry is skipped with this reason.
        var problem: String?
        /// The keys met (a bit per ``Key``), to refuse a repeated one.
        var seen: UInt32 = 0
        /// The line of the entry's `{`.
        var line = 0
    }

    private var scanner = JSONStreamScanner()
    private var frames: [Frame] = []
    /// The key of the member whose value comes next.
    private var key = Key.other
    private var fields = Fields()
    /// Whether the top-level object has started.
    private var sawRoot = false
    /// Whether a key of one of the three shapes was met at the top level.
    private var sawShape = false

    /// A parser at the start of a file.
    init() {}

    /// Reads the next chunk: walks the tokens on a shape's path to its fixes, skips the others,
    /// and hands each fix to `sink` when its object ends.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        var index = 0
        while true {
            let next: JSONToken?
            do {
                next = try scanner.next(chunk, &index)
            } catch {
                throw sawRoot ? error : TrackReadError("not JSON: \(error.message)")
            }
            guard let token = next else { return }
            switch token {
            case .key:
                let kind = frames.last?.kind ?? .root
                key = scanner.withText(chunk) { Self.classify($0, in: kind) }
                if key == .other {
                    scanner.skipValue()
                } else if key == .rawSignals || key == .userLocationProfile {
                    sawShape = true
                    scanner.skipValue()
                }
            case .objectStart, .arrayStart:
                try enter(array: token == .arrayStart, into: &sink)
            case .objectEnd, .arrayEnd:
                leave(into: &sink)
            case .string, .number, .trueValue, .falseValue, .null:
                try value(token, chunk, into: &sink)
            }
        }
    }

    /// The end of the file: throws when it was cut short, or held no top-level object with a
    /// shape's key.
    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        do {
            try scanner.finish()
        } catch {
            throw sawRoot ? error : TrackReadError("not JSON: \(error.message)")
        }
        guard sawRoot else { throw Self.notGoogle("the top level is not an object") }
        guard sawShape else {
            throw Self.notGoogle(
                "the top-level object has none of the keys locations (Records.json), timelineObjects "
                    + "(Semantic Location History) and semanticSegments (Timeline export)")
        }
    }

    /// The error for a JSON file that is not a location history.
    private static func notGoogle(_ reason: String) -> TrackReadError {
        TrackReadError("not a Google location history: \(reason)")
    }

    /// A container starts: walks it when it is part of a shape's path to its fixes, else skips it.
    private mutating func enter(array: Bool, into sink: inout some TrackSink) throws(TrackReadError) {
        guard let parent = frames.last else {
            guard !array else { throw Self.notGoogle("the top level is an array, not an object") }
            sawRoot = true
            frames.append(Frame(kind: .root, name: .other))
            return
        }
        var child: Kind?
        var name = Key.other
        if parent.kind.isArray {
            frames[frames.count - 1].count += 1
            if !array { child = parent.kind.element }
            if child == nil { notAnObject(array ? "an array" : "an object", into: &sink) }
        } else {
            name = key
            child = Self.member(key, of: parent.kind, array: array)
            if child == nil {
                if parent.kind == .root {
                    throw Self.notGoogle("\(key.name) is \(array ? "an array" : "an object"), not an array")
                }
                if parent.kind.isFix || parent.kind == .parkingLocation {
                    problem("\(key.name) is \(array ? "an array" : "an object")")
                }
            }
        }
        guard let child else {
            scanner.skipValue()
            return
        }
        if child.isFix { fields = Fields(line: scanner.line) }
        if parent.kind == .root { sawShape = true }
        frames.append(Frame(kind: child, name: name))
    }

    /// The container being walked ends: a fix's object hands out its fix.
    private mutating func leave(into sink: inout some TrackSink) {
        guard let frame = frames.last else { return }
        if frame.kind.isFix { emit(frame.kind, into: &sink) }
        frames.removeLast()
    }

    /// A scalar value: a fix's field, or an array element that should have been an object.
    private mutating func value(
        _ token: JSONToken, _ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink
    ) throws(TrackReadError) {
        guard let parent = frames.last else {
            throw Self.notGoogle("the top level is \(Self.describe(token)), not an object")
        }
        if parent.kind.isArray {
            frames[frames.count - 1].count += 1
            notAnObject(Self.describe(token), into: &sink)
            return
        }
        if parent.kind == .root {
            throw Self.notGoogle("\(key.name) is \(Self.describe(token)), not an array")
        }
        guard parent.kind.isFix || parent.kind == .parkingLocation else { return }
        let bit: UInt32 = 1 << key.rawValue
        if fields.seen & bit != 0 { problem("\(key.name) is repeated") }
        fields.seen |= bit
        if token == .null { return }
        let key = key
        switch key {
        case .latitudeE7, .latE7, .longitudeE7, .lngE7:
            let degrees =
                token == .number || token == .string ? scanner.withText(chunk) { Self.degreesE7($0) } : nil
            guard let degrees else { return problem(unreadable(token, chunk)) }
            if key == .latitudeE7 || key == .latE7 { fields.latitude = degrees } else { fields.longitude = degrees }
        case .timestamp, .time:
            let time = token == .string ? scanner.withText(chunk) { TrackTime.iso8601($0) } : nil
            guard let time else { return problem(unreadable(token, chunk)) }
            fields.time = time
        case .timestampMs:
            let time =
                token == .number || token == .string ? scanner.withText(chunk) { Self.milliseconds($0) } : nil
            guard let time else { return problem(unreadable(token, chunk)) }
            fields.milliseconds = time
        case .point:
            let position = token == .string ? scanner.withText(chunk) { Self.point($0) } : nil
            guard let position else { return problem(unreadable(token, chunk)) }
            fields.latitude = position.latitude
            fields.longitude = position.longitude
        case .location:
            problem("location is \(Self.describe(token))")
        default:
            break
        }
    }

    /// Hands out the fix just read, or skips it with the reason.
    private mutating func emit(_ kind: Kind, into sink: inout some TrackSink) {
        if let problem = fields.problem { return skip(problem, into: &sink) }
        guard let time = fields.time ?? fields.milliseconds else {
            return skip(kind == .pathPoint ? "no time" : "no timestamp", into: &sink)
        }
        guard let latitude = fields.latitude, let longitude = fields.longitude else {
            return skip("no position", into: &sink)
        }
        let fix = TrackFix(time: time, latitude: latitude, longitude: longitude)
        guard fix.isValid else {
            return skip("a position out of range (\(latitude), \(longitude))", into: &sink)
        }
        sink.add(fix)
    }

    /// Skips the fix being read, with where it is.
    private func skip(_ reason: String, into sink: inout some TrackSink) {
        sink.skip("\(path(element: false)) (line \(fields.line)): \(reason)")
    }

    /// Skips an element of an array of fixes that is not an object.
    private func notAnObject(_ what: String, into sink: inout some TrackSink) {
        guard let parent = frames.last,
            parent.kind == .locations || parent.kind == .rawPoints || parent.kind == .timelinePath
        else { return }
        sink.skip("\(path(element: true)) (line \(scanner.line)): \(what), not an object")
    }

    /// Notes the first problem of the fix being read.
    private mutating func problem(_ text: String) {
        if fields.problem == nil { fields.problem = text }
    }

    /// `timestamp "abc" cannot be read`, for the current key and value.
    private func unreadable(_ token: JSONToken, _ chunk: UnsafeRawBufferPointer) -> String {
        switch token {
        case .string:
            let text = scanner.withText(chunk) { String(decoding: $0.prefix(60), as: UTF8.self) }
            return "\(key.name) \"\(text)\" cannot be read"
        case .number:
            let text = scanner.withText(chunk) { String(decoding: $0.prefix(60), as: UTF8.self) }
            return "\(key.name) \(text) cannot be read"
        default:
            return "\(key.name) is \(Self.describe(token))"
        }
    }

    /// The path of the container being walked, such as `timelineObjects[3].activitySegment.
    /// simplifiedRawPath.points[1]`; with the index of the element being read when `element`.
    private func path(element: Bool) -> String {
        var text = ""
        for (index, frame) in frames.enumerated() where index > 0 {
            if frame.name != .other { text += (text.isEmpty ? "" : ".") + frame.name.name }
            if frame.kind.isArray, element || index + 1 < frames.count { text += "[\(frame.count - 1)]" }
        }
        return text
    }

    /// A scalar token, for a message.
    private static func describe(_ token: JSONToken) -> String {
        switch token {
        case .string: "a string"
        case .number: "a number"
        case .trueValue, .falseValue: "a boolean"
        default: "null"
        }
    }

    /// What a member `key` of a container `parent` is, when it is walked; `nil` to skip it.
    private static func member(_ key: Key, of parent: Kind, array: Bool) -> Kind? {
        switch (parent, key, array) {
        case (.root, .locations, true): .locations
        case (.root, .timelineObjects, true): .timelineObjects
        case (.root, .semanticSegments, true): .semanticSegments
        case (.timelineObject, .activitySegment, false), (.timelineObject, .placeVisit, false): .semanticPart
        case (.semanticPart, .simplifiedRawPath, false): .rawPath
        case (.semanticPart, .parkingEvent, false): .parking
        case (.semanticPart, .childVisits, true): .childVisits
        case (.rawPath, .points, true): .rawPoints
        case (.parking, .location, false): .parkingLocation
        case (.segment, .timelinePath, true): .timelinePath
        default: nil
        }
    }

    /// The key `name` in a container of kind `kind`: one read there, or `.other`.
    private static func classify(_ name: UnsafeRawBufferPointer, in kind: Kind) -> Key {
        switch kind {
        case .root:
            if equal(name, "locations") { return .locations }
            if equal(name, "timelineObjects") { return .timelineObjects }
            if equal(name, "semanticSegments") { return .semanticSegments }
            if equal(name, "rawSignals") { return .rawSignals }
            if equal(name, "userLocationProfile") { return .userLocationProfile }
        case .record, .rawPoint, .parking, .parkingLocation:
            switch name.count {
            case 5:
                if equal(name, "latE7") { return .latE7 }
                if equal(name, "lngE7") { return .lngE7 }
            case 8:
                if kind == .parking, equal(name, "location") { return .location }
            case 9:
                if kind != .parkingLocation, equal(name, "timestamp") { return .timestamp }
            case 10:
                if equal(name, "latitudeE7") { return .latitudeE7 }
            case 11:
                if equal(name, "longitudeE7") { return .longitudeE7 }
                if kind != .parkingLocation, equal(name, "timestampMs") { return .timestampMs }
            default:
                break
            }
        case .timelineObject:
            if equal(name, "activitySegment") { return .activitySegment }
            if equal(name, "placeVisit") { return .placeVisit }
        case .semanticPart:
            if equal(name, "simplifiedRawPath") { return .simplifiedRawPath }
            if equal(name, "parkingEvent") { return .parkingEvent }
            if equal(name, "childVisits") { return .childVisits }
        case .rawPath:
            if equal(name, "points") { return .points }
        case .segment:
            if equal(name, "timelinePath") { return .timelinePath }
        case .pathPoint:
            if equal(name, "point") { return .point }
            if equal(name, "time") { return .time }
        default:
            break
        }
        return .other
    }

    /// Whether `bytes` are the text `name`.
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        let expected = name.utf8Start
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return true
    }

    /// An integer of at most 18 digits, with an optional `-`; `nil` for anything else.
    private static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard bytes.count > index, bytes.count - index <= 18 else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// Degrees from degrees × 10⁷ (a JSON integer, or a string of one). Values above
    /// 1,800,000,000 (and below 2³²) are ones Google wrote as unsigned 32-bit integers: they are
    /// taken minus 2³².
    private static func degreesE7(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var value: Double
        if let integer = integer(bytes) {
            value = Double(integer)
        } else if let number = DecimalNumber.parse(bytes) {
            value = number
        } else {
            return nil
        }
        if value > 1_800_000_000, value < 4_294_967_296 { value -= 4_294_967_296 }
        return value / 10_000_000
    }

    /// Seconds since 1970 from milliseconds (a JSON number, or a string of one).
    private static func milliseconds(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if let integer = integer(bytes) { return Double(integer) / 1000 }
        return DecimalNumber.parse(bytes).map { $0 / 1000 }
    }

    /// A Timeline point: `48.8582°, 2.2945°`, `48.8582, 2.2945` or `geo:48.8582,2.2945` (the
    /// degree sign optional after each number, spaces allowed around them).
    private static func point(_ bytes: UnsafeRawBufferPointer) -> (latitude: Double, longitude: Double)? {
        var start = 0
        if bytes.count >= 4, bytes[0] == UInt8(ascii: "g"), bytes[1] == UInt8(ascii: "e"),
            bytes[2] == UInt8(ascii: "o"), bytes[3] == UInt8(ascii: ":")
        {
            start = 4
        }
        guard let comma = bytes[start...].firstIndex(of: UInt8(ascii: ",")),
            let latitude = degrees(UnsafeRawBufferPointer(rebasing: bytes[start..<comma])),
            let longitude = degrees(UnsafeRawBufferPointer(rebasing: bytes[(comma + 1)...]))
        else { return nil }
        return (latitude, longitude)
    }

    /// A decimal number of degrees, between optional spaces, with an optional degree sign (`°`,
    /// UTF-8 C2 B0) after it.
    private static func degrees(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        if end - start >= 2, bytes[end - 2] == 0xC2, bytes[end - 1] == 0xB0 { end -= 2 }
        return DecimalNumber.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), exponent: .rejected)
    }
}
