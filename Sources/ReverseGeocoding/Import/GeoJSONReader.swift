/// One feature of a boundary GeoJSON file: its string properties and its polygons.
package struct BoundaryFeature: Sendable {
    /// The feature's properties in file order; `nil` for a JSON `null`.
    package var properties: [(key: String, value: String?)]
    /// The polygons (one for a `Polygon`), each a list of rings: the exterior, then its holes.
    /// Rings are as written, closing position included.
    package var polygons: [[[GridPoint]]]
    /// The line the feature starts on (1-based), for messages.
    package var line: Int

    /// A feature with the given properties and polygons, read from line `line`.
    package init(properties: [(key: String, value: String?)], polygons: [[[GridPoint]]], line: Int) {
        self.properties = properties
        self.polygons = polygons
        self.line = line
    }

    /// The value of property `key`; `nil` when it is absent or `null`.
    package func property(_ key: String) -> String? {
        properties.first { $0.key == key }?.value ?? nil
    }
}

// Why this is not the same reader as PhotoGPS's `JSONValue` (Google Takeout sidecars), although
// both read strict JSON: the two cannot be one without a loss on one side.
// - Numbers: a coordinate must be an exact 1e-5 fixed-point value, and one with a sixth decimal
//   must be an error. `JSONValue` keeps numbers as `Double`, which cannot tell `0.12345` from
//   `0.1234500000000000001` (the same `Double`), so the check and the exactness would go; a
//   reader that kept the digits instead would make every sidecar number a string to convert.
// - Shape: this reader is driven by the GeoJSON schema and builds ``GridPoint`` rings as it reads
//   (8 bytes a position); `JSONValue` builds a tree of enums first (an array and two cases for
//   every position, several times the memory for the 20 MB of boundaries) that the import would
//   then walk again.
// - Messages: boundary errors name the line (`timezones.geojson, line 123: …`), for files edited by
//   hand; sidecar errors name the byte offset. Each reader's errors are part of its output.
// - Hostile input: `JSONValue` limits nesting (64 levels) because a sidecar can be anything; here
//   the schema bounds the nesting (four levels of arrays at most), so no limit is needed.
// What they do share is small (skipping white space, a string with escapes) and differs in its
// details (`JSONValue` takes every JSON escape and surrogate pairs; the boundary files use only
// the escapes this reader takes), so sharing it would change one reader's grammar for no gain.
/// A strict reader for the boundary files: an RFC 7946 `FeatureCollection` of `Feature`s whose
/// geometry is a `Polygon` or `MultiPolygon` and whose properties are strings or `null`.
///
/// Anything else (other geometry types, numbers with an exponent or more than five decimals,
/// coordinates out of range, unclosed rings, rings of fewer than four positions, rings that cross
/// themselves (see ``RingCheck``), unknown members, trailing bytes) is an error that names the
/// file, the line and what was wrong.
/// Coordinates become exact integers (``GridPoint``), never `Double`s.
///
/// **Rounding.** With `rounding`, a coordinate of more decimals is rounded to five (half away
/// from zero, from its digits: exact), for sources published at a finer precision than the grid
/// (Natural Earth's marine polygons, 6 decimals). A vertex that rounding makes equal to the one
/// before it is dropped, and a ring that is left with fewer than four positions (a sliver
/// narrower than the grid) is dropped with it; a ring that rounding makes cross itself is still
/// an error.
package struct GeoJSONReader {
    private let bytes: [UInt8]
    private let name: String
    private let rounding: Bool
    private var position = 0
    private var line = 1

    /// Reads and parses the file at `path` (see the type's documentation for `rounding`).
    package static func read(path: String, rounding: Bool = false) throws(BoundaryError) -> [BoundaryFeature] {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path)
        } catch {
            guard case .cannotRead(_, let reason) = error else { throw .cannotRead(path: path, reason: "\(error)") }
            throw .cannotRead(path: path, reason: reason)
        }
        return try parse(bytes, name: path, rounding: rounding)
    }

    /// Parses GeoJSON text; `name` is how errors refer to it (see the type's documentation for
    /// `rounding`).
    package static func parse(
        _ bytes: [UInt8], name: String, rounding: Bool = false
    ) throws(BoundaryError)
        -> [BoundaryFeature]
    {
        var reader = GeoJSONReader(bytes: bytes, name: name, rounding: rounding)
        return try reader.featureCollection()
    }

    private init(bytes: [UInt8], name: String, rounding: Bool) {
        self.bytes = bytes
        self.name = name
        self.rounding = rounding
    }

    private func fail(_ what: String) -> BoundaryError { .badGeoJSON(path: name, line: line, reason: what) }

    // MARK: structure

    private mutating func featureCollection() throws(BoundaryError) -> [BoundaryFeature] {
        var features: [BoundaryFeature] = []
        var sawType = false, sawFeatures = false
        try object { (reader: inout GeoJSONReader, key: String) throws(BoundaryError) in
            switch key {
            case "type":
                guard try reader.string() == "FeatureCollection" else { throw reader.fail("not a FeatureCollection") }
                sawType = true
            case "features":
                try reader.array { (reader: inout GeoJSONReader) throws(BoundaryError) in
                    features.append(try reader.feature())
                }
                sawFeatures = true
            default: throw reader.fail("unexpected member \"\(key)\" in the FeatureCollection")
            }
        }
        skipSpace()
        guard position == bytes.count else { throw fail("text after the FeatureCollection") }
        guard sawType, sawFeatures else { throw fail("the FeatureCollection lacks \"type\" or \"features\"") }
        return features
    }

    private mutating func feature() throws(BoundaryError) -> BoundaryFeature {
        skipSpace()
        let startLine = line
        var properties: [(key: String, value: String?)]? = nil
        var polygons: [[[GridPoint]]]? = nil
        var sawType = false
        try object { (reader: inout GeoJSONReader, key: String) throws(BoundaryError) in
            switch key {
            case "type":
                guard try reader.string() == "Feature" else { throw reader.fail("not a Feature") }
                sawType = true
            case "properties":
                var pairs: [(key: String, value: String?)] = []
                try reader.object { (reader: inout GeoJSONReader, key: String) throws(BoundaryError) in
                    pairs.append((key, try reader.stringOrNull()))
                }
                properties = pairs
            case "geometry": polygons = try reader.geometry()
            default: throw reader.fail("unexpected member \"\(key)\" in a Feature")
            }
        }
        guard sawType, let properties, let polygons else {
            throw fail("a Feature lacks \"type\", \"properties\" or \"geometry\"")
        }
        for (polygonIndex, polygon) in polygons.enumerated() {
            for (ringIndex, ring) in polygon.enumerated() {
                guard let fault = RingCheck.firstFault(ring) else { continue }
                let named = properties.prefix(2).map { "\($0.key) \($0.value.map { "\"\($0)\"" } ?? "null")" }
                let which = ringIndex == 0 ? "the exterior ring" : "hole \(ringIndex)"
                throw .badGeoJSON(
                    path: name, line: startLine,
                    reason:
                        "the feature with \(named.joined(separator: ", ")): \(which) of polygon \(polygonIndex + 1) "
                        + "crosses itself at latitude \(Self.degrees(fault.latitude)), longitude "
                        + "\(Self.degrees(fault.longitude)) (edges \(fault.edges.0) and \(fault.edges.1))")
            }
        }
        return BoundaryFeature(properties: properties, polygons: polygons, line: startLine)
    }

    /// Degrees to 5 decimals, the grid's precision (a crossing lies between grid points).
    private static func degrees(_ value: Double) -> String {
        let scaled = (value * 1e5).rounded()
        let sign = scaled < 0 ? "-" : ""
        let units = Int(abs(scaled))
        let fraction = String(units % 100_000)
        return sign + String(units / 100_000) + "." + String(repeating: "0", count: 5 - fraction.count) + fraction
    }

    private mutating func geometry() throws(BoundaryError) -> [[[GridPoint]]] {
        var type: String? = nil
        var coordinates: [[GridPoint]]? = nil
        var multi: [[[GridPoint]]]? = nil
        try object { (reader: inout GeoJSONReader, key: String) throws(BoundaryError) in
            switch key {
            case "type": type = try reader.string()
            case "coordinates":
                // The type may come after the coordinates: tell them apart by nesting depth.
                let depth = reader.nestingDepth()
                if depth == 3 {
                    coordinates = try reader.polygon()
                } else if depth == 4 {
                    var polygons: [[[GridPoint]]] = []
                    try reader.array { (reader: inout GeoJSONReader) throws(BoundaryError) in
                        polygons.append(try reader.polygon())
                    }
                    multi = polygons
                } else {
                    throw reader.fail("coordinates are not those of a Polygon or MultiPolygon")
                }
            default: throw reader.fail("unexpected member \"\(key)\" in a geometry")
            }
        }
        switch type {
        case "Polygon":
            guard let coordinates else { throw fail("a Polygon without polygon coordinates") }
            return coordinates.isEmpty ? [] : [coordinates]
        case "MultiPolygon":
            guard let multi else { throw fail("a MultiPolygon without multipolygon coordinates") }
            return multi.filter { !$0.isEmpty }
        case nil: throw fail("a geometry without \"type\"")
        case let other?: throw fail("geometry type \(other), expected Polygon or MultiPolygon")
        }
    }

    /// How many `[` open the value at the current position (without consuming anything).
    private mutating func nestingDepth() -> Int {
        skipSpace()
        var index = position, depth = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: "[") || isSpace(bytes[index]) {
            if bytes[index] == UInt8(ascii: "[") { depth += 1 }
            index += 1
        }
        return depth
    }

    private mutating func polygon() throws(BoundaryError) -> [[GridPoint]] {
        var rings: [[GridPoint]] = []
        var exteriorDropped = false, ringIndex = 0
        try array { (reader: inout GeoJSONReader) throws(BoundaryError) in
            defer { ringIndex += 1 }
            var ring: [GridPoint] = []
            var written = 0
            try reader.array { (reader: inout GeoJSONReader) throws(BoundaryError) in
                let point = try reader.coordinatePair()
                written += 1
                if reader.rounding, point == ring.last { return }
                ring.append(point)
            }
            guard written >= 4 else { throw reader.fail("a ring of \(written) positions (at least 4)") }
            guard ring.first == ring.last else { throw reader.fail("a ring that is not closed") }
            if reader.rounding, ring.count < 4 {
                // A sliver; the holes of a sliver exterior go with it.
                if ringIndex == 0 { exteriorDropped = true }
                return
            }
            if !exteriorDropped { rings.append(ring) }
        }
        // Rounding may leave a polygon with no ring: it had no area at the grid's precision.
        guard !rings.isEmpty || exteriorDropped else { throw fail("a polygon without rings") }
        return rings
    }

    private mutating func coordinatePair() throws(BoundaryError) -> GridPoint {
        var values: [Int32] = []
        try array { (reader: inout GeoJSONReader) throws(BoundaryError) in
            values.append(try reader.fixedPoint())
        }
        guard values.count == 2 else { throw fail("a position of \(values.count) numbers (expected 2)") }
        guard abs(values[0]) <= 18_000_000 else { throw fail("longitude out of range") }
        guard abs(values[1]) <= 9_000_000 else { throw fail("latitude out of range") }
        return GridPoint(x: values[0], y: values[1])
    }

    // MARK: JSON tokens

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private mutating func skipSpace() {
        while position < bytes.count, isSpace(bytes[position]) {
            if bytes[position] == 0x0A { line += 1 }
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(BoundaryError) {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else {
            throw fail(position < bytes.count ? "expected \(what)" : "unexpected end of file, expected \(what)")
        }
        position += 1
    }

    /// Whether the next token is `byte` (consumed if so).
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Parses an object, calling `member` for each key with the reader at its value.
    private mutating func object(
        _ member: (inout GeoJSONReader, String) throws(BoundaryError) -> Void
    ) throws(BoundaryError) {
        try expect(UInt8(ascii: "{"), "an object")
        var keys: Set<String> = []
        if take(UInt8(ascii: "}")) { return }
        repeat {
            let key = try string()
            guard keys.insert(key).inserted else { throw fail("duplicate member \"\(key)\"") }
            try expect(UInt8(ascii: ":"), "':'")
            try member(&self, key)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "',' or '}'")
    }

    /// Parses an array, calling `element` with the reader at each element.
    private mutating func array(_ element: (inout GeoJSONReader) throws(BoundaryError) -> Void) throws(BoundaryError) {
        try expect(UInt8(ascii: "["), "an array")
        if take(UInt8(ascii: "]")) { return }
        repeat { try element(&self) } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"), "',' or ']'")
    }

    private mutating func stringOrNull() throws(BoundaryError) -> String? {
        skipSpace()
        if bytes[position...].starts(with: "null".utf8) {
            position += 4
            return nil
        }
        return try string()
    }

    /// A JSON string; escapes other than `\"`, `\\`, `\/` and `\uXXXX` (BMP) are errors.
    private mutating func string() throws(BoundaryError) -> String {
        try expect(UInt8(ascii: "\""), "a string")
        var utf8: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw fail("a string that is not UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "u"):
                    guard position + 4 <= bytes.count,
                        let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(value)
                    else { throw fail("a bad \\u escape") }
                    position += 4
                    utf8 += Array(String(Character(scalar)).utf8)
                default: throw fail("an unsupported escape in a string")
                }
            case 0..<0x20: throw fail("a control character in a string")
            default: utf8.append(byte)
            }
        }
        throw fail("unexpected end of file in a string")
    }

    /// A number with at most five decimals and no exponent, in units of 1e-5.
    private mutating func fixedPoint() throws(BoundaryError) -> Int32 {
        skipSpace()
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value: Int64 = 0, digits = 0, decimals = 0, inFraction = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 12 else { throw fail("a number with too many digits") }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if inFraction { decimals += 1 }
            } else if byte == UInt8(ascii: "."), !inFraction, digits > 0 {
                inFraction = true
            } else {
                break
            }
            position += 1
        }
        guard digits > 0, !(inFraction && decimals == 0) else { throw fail("expected a number") }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            throw fail("a number with an exponent")
        }
        if decimals > 5 {
            guard rounding else { throw fail("a coordinate with more than 5 decimals") }
            var divisor: Int64 = 1
            for _ in 5..<decimals { divisor *= 10 }
            value = (value + divisor / 2) / divisor
            decimals = 5
        }
        for _ in decimals..<5 { value *= 10 }
        guard value <= Int64(Int32.max) else { throw fail("a number out of range") }
        return Int32(negative ? -value : value)
    }
}
