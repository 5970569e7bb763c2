import PhotoTagSupport

/// GPS from an XMP packet: the EXIF schema's `exif:GPSLatitude`/`exif:GPSLongitude` (`DDD,MM.mmmmK`
/// or `DDD,MM,SSK`), `exif:GPSAltitude`/`exif:GPSAltitudeRef`, and DJI's `drone-dji:GpsLatitude`/
/// `GpsLongitude`/`AbsoluteAltitude` (signed decimals), as attributes or as element text.
///
/// The packet is checked by a small XML tokenizer (tags nest and close, attributes are quoted and
/// given once, comments, processing instructions and CDATA end); a packet that is not well-formed
/// gives a warning and no position. Only the resource's own top-level Descriptions are read (see
/// ``scan(_:)``). Namespace prefixes are resolved through their `xmlns` declarations,
/// so a packet that binds the EXIF schema to another prefix still reads.
enum XMP {
    static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    static let djiNamespace = "http://www.dji.com/drone-dji/1.0/"
    /// The identifier that starts an XMP APP1 segment in a JPEG.
    static let jpegIdentifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The properties this reader looks for, as namespace URI + local name.
    static let wanted: Set<String> =
        Set(
            ["GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef"]
                .map { exifNamespace + $0 }
        )
        .union(["GpsLatitude", "GpsLongitude", "GpsLongtitude", "AbsoluteAltitude"].map { djiNamespace + $0 })
        .union(XMPSidecar.dateProperties)

    /// The values found for ``wanted`` properties.
    struct Properties {
        var values: [String: String] = [:]

        func exif(_ name: String) -> String? { values[XMP.exifNamespace + name] }
        func dji(_ name: String) -> String? { values[XMP.djiNamespace + name] }
    }

    /// Decodes the GPS position of a packet under the same policy as EXIF: no guessing, no 0,0,
    /// nothing out of range.
    static func decode(_ packet: [UInt8]) -> GPSDecoding {
        guard let properties = scan(packet) else {
            return GPSDecoding(fix: nil, warnings: [.xmpNotWellFormed])
        }
        return decode(properties)
    }

    /// Decodes the GPS position of a packet's properties, found by ``scan(_:)``.
    static func decode(_ properties: Properties) -> GPSDecoding {
        var warnings: [GPSWarning] = []
        var latitude: Double?, longitude: Double?, altitude: Double?
        if let text = properties.exif("GPSLatitude") ?? properties.exif("GPSLongitude").map({ _ in "" }) {
            latitude = coordinate(
                text, reference: properties.exif("GPSLatitudeRef"), name: "exif:GPSLatitude", positive: "N",
                negative: "S", warnings: &warnings)
            if let lonText = properties.exif("GPSLongitude") {
                longitude = coordinate(
                    lonText, reference: properties.exif("GPSLongitudeRef"), name: "exif:GPSLongitude",
                    positive: "E", negative: "W", warnings: &warnings)
            } else {
                warnings.append(.missing(field: .xmp(property: "exif:GPSLongitude")))
            }
            if let text = properties.exif("GPSAltitude") {
                altitude = rational(text)
                if altitude == nil { warnings.append(.xmpBadValue(name: "exif:GPSAltitude", value: text)) }
                if properties.exif("GPSAltitudeRef") == "1", let value = altitude { altitude = -abs(value) }
            }
        } else if let text = properties.dji("GpsLatitude") {
            latitude = signedDecimal(text, name: "drone-dji:GpsLatitude", warnings: &warnings)
            if let lonText = properties.dji("GpsLongitude") ?? properties.dji("GpsLongtitude") {
                longitude = signedDecimal(lonText, name: "drone-dji:GpsLongitude", warnings: &warnings)
            } else {
                warnings.append(.missing(field: .xmp(property: "drone-dji:GpsLongitude")))
            }
            if let text = properties.dji("AbsoluteAltitude") {
                altitude = decimal(text)
                if altitude == nil { warnings.append(.xmpBadValue(name: "drone-dji:AbsoluteAltitude", value: text)) }
            }
        } else {
            return GPSDecoding(fix: nil, warnings: [])  // no GPS in this packet
        }
        guard let latitude, let longitude else { return GPSDecoding(fix: nil, warnings: warnings) }
        guard abs(latitude) <= 90 else {
            return GPSDecoding(
                fix: nil,
                warnings: warnings + [.outOfRange(field: .xmp(property: "latitude"), degrees: abs(latitude), limit: 90)]
            )
        }
        guard abs(longitude) <= 180 else {
            return GPSDecoding(
                fix: nil,
                warnings: warnings + [
                    .outOfRange(field: .xmp(property: "longitude"), degrees: abs(longitude), limit: 180)
                ])
        }
        guard latitude != 0 || longitude != 0 else {
            return GPSDecoding(fix: nil, warnings: warnings + [.noFixPlaceholder])
        }
        return GPSDecoding(
            fix: GPSFix(latitude: latitude, longitude: longitude, altitude: altitude, source: .xmp), warnings: warnings)
    }

    /// `DDD,MM.mmmmK` or `DDD,MM,SSK` (K is the hemisphere letter) to signed degrees; or a
    /// decimal (`52.5250816`, as photoprism and some other writers store it) signed by its
    /// separate `reference` (`exif:GPSLatitudeRef`: `N`/`S`, `E`/`W`) when there is one.
    static func coordinate(
        _ text: String, reference: String? = nil, name: String, positive: Character, negative: Character,
        warnings: inout [GPSWarning]
    ) -> Double? {
        let trimmed = text.trimmingSpaces
        if let last = trimmed.last, last.isASCII, last.isNumber {
            guard let value = decimal(trimmed) else {
                warnings.append(.xmpBadValue(name: name, value: text))
                return nil
            }
            guard let reference = reference?.trimmingSpaces else { return value }
            switch reference.uppercased() {
            case String(positive): return abs(value)
            case String(negative): return -abs(value)
            default:
                warnings.append(.xmpBadValue(name: name + "Ref", value: reference))
                return nil
            }
        }
        guard let letter = trimmed.last, letter == positive || letter == negative else {
            warnings.append(.xmpBadValue(name: name, value: text))
            return nil
        }
        let parts = trimmed.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
            let degrees = decimal(String(parts[0])), let minutes = decimal(String(parts[1])),
            degrees >= 0, minutes >= 0
        else {
            warnings.append(.xmpBadValue(name: name, value: text))
            return nil
        }
        var value = degrees + minutes / 60
        if parts.count == 3 {
            guard let seconds = decimal(String(parts[2])), seconds >= 0 else {
                warnings.append(.xmpBadValue(name: name, value: text))
                return nil
            }
            value += seconds / 3600
        }
        return letter == negative ? -value : value
    }

    static func signedDecimal(_ text: String, name: String, warnings: inout [GPSWarning]) -> Double? {
        guard let value = decimal(text.trimmingSpaces) else {
            warnings.append(.xmpBadValue(name: name, value: text))
            return nil
        }
        return value
    }

    /// A plain decimal number with an optional sign, spaces around it trimmed; nothing else (no
    /// `nan`, `inf`, exponent).
    static func decimal(_ text: String) -> Double? {
        DecimalNumber.parse(text.trimmingSpaces.utf8, exponent: .rejected)
    }

    /// An XMP rational (`355/10`) or a decimal.
    static func rational(_ text: String) -> Double? {
        let parts = text.trimmingSpaces.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, let numerator = decimal(String(parts[0])), let denominator = decimal(String(parts[1])) {
            return denominator == 0 ? nil : numerator / denominator
        }
        return decimal(text)
    }

    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The properties that make a position: they are read together, from one Description.
    static let positionProperties: Set<String> = wanted.subtracting(XMPSidecar.dateProperties)
    /// The properties that say a Description holds a position.
    static let coordinateProperties: Set<String> = Set(
        ["GPSLatitude", "GPSLongitude"].map { exifNamespace + $0 }
            + ["GpsLatitude", "GpsLongitude", "GpsLongtitude"].map { djiNamespace + $0 })

    /// Checks that the packet is well-formed and collects the values of the properties phototag
    /// reads; `nil` when it is not well-formed.
    ///
    /// Only the top-level `rdf:Description`s (children of `rdf:RDF`) about the resource itself
    /// are read: `rdf:about=""` or none, or the one URI of the first top-level Description when
    /// it names one. Their attributes and their own child elements count; what is nested deeper
    /// is about other resources (Photoshop's `xmpMM:Pantry` keeps the XMP of placed images,
    /// `xmpMM:History` and `xmpMM:DerivedFrom` others still) and is never read. The position
    /// (both coordinates, their references and the altitude) comes from the first of them that
    /// has a coordinate, never half from one and half from another; the capture time from any.
    static func scan(_ packet: [UInt8]) -> Properties? {
        // UTF-16 and UTF-32 packets (with or without a BOM) are read as their UTF-8.
        guard let packet = XMLEncoding.utf8(packet) else { return nil }
        var tokenizer = XMLTokenizer(packet)
        var namespaces: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
        // The open elements: their qualified names as written and as resolved.
        var open: [(name: String, resolved: String?)] = []
        var capturing: (key: String, depth: Int)? = nil
        var text: [UInt8] = []
        // The Description being read (its depth), and the properties of each one read.
        var description: (depth: Int, index: Int)? = nil
        var descriptions: [[String: String]] = []
        var resourceURI: String? = nil
        var sawDescription = false
        var sawRoot = false
        func resolve(_ qualified: String) -> String? {
            guard let colon = qualified.firstIndex(of: ":") else { return nil }
            let prefix = String(qualified[..<colon])
            for scope in namespaces.reversed() {
                if let uri = scope[prefix] { return uri + qualified[qualified.index(after: colon)...] }
            }
            return nil
        }
        while true {
            guard let token = tokenizer.next() else { return nil }  // malformed
            switch token {
            case .end:
                guard open.isEmpty, sawRoot else { return nil }
                return merge(descriptions)
            case .text(let bytes):
                if capturing != nil { text += bytes }
            case .startTag(let name, let attributes, let selfClosing):
                sawRoot = true
                // Real packets nest a dozen levels; thousands would make namespace lookups slow.
                guard open.count < 256 else { return nil }
                var scope: [String: String] = [:]
                for (key, value) in attributes where key.hasPrefix("xmlns:") {
                    scope[String(key.dropFirst(6))] = value
                }
                namespaces.append(scope)
                let resolved = resolve(name)
                var opensDescription = false
                if description == nil, resolved == rdfNamespace + "Description",
                    open.last?.resolved == rdfNamespace + "RDF"
                {
                    let about = attributes.first { resolve($0.0) == rdfNamespace + "about" }?.1 ?? ""
                    if !sawDescription, !about.isEmpty { resourceURI = about }
                    sawDescription = true
                    if about.isEmpty || about == resourceURI {
                        opensDescription = true
                        descriptions.append([:])
                        for (key, value) in attributes where !key.hasPrefix("xmlns") {
                            if let resolved = resolve(key), wanted.contains(resolved),
                                descriptions[descriptions.count - 1][resolved] == nil
                            {
                                descriptions[descriptions.count - 1][resolved] = value
                            }
                        }
                    }
                }
                if selfClosing {
                    namespaces.removeLast()
                } else {
                    open.append((name, resolved))
                    if opensDescription {
                        description = (open.count, descriptions.count - 1)
                    } else if capturing == nil, let current = description, open.count == current.depth + 1,
                        let resolved, wanted.contains(resolved), descriptions[current.index][resolved] == nil
                    {
                        capturing = (resolved, open.count)
                        text = []
                    }
                }
            case .endTag(let name):
                guard open.last?.name == name else { return nil }
                if let current = capturing, current.depth == open.count, let index = description?.index {
                    let value = String(decoding: text, as: UTF8.self).trimmingSpaces
                    if !value.isEmpty { descriptions[index][current.key] = value }
                    capturing = nil
                }
                if description?.depth == open.count { description = nil }
                open.removeLast()
                namespaces.removeLast()
            }
        }
    }

    /// The properties of the resource's own Descriptions: the position's from the first that
    /// has a coordinate, each date from the first that has it.
    private static func merge(_ descriptions: [[String: String]]) -> Properties {
        var properties = Properties()
        if let located = descriptions.first(where: { !$0.keys.filter(coordinateProperties.contains).isEmpty }) {
            for (key, value) in located where positionProperties.contains(key) { properties.values[key] = value }
        }
        for one in descriptions {
            for (key, value) in one where !positionProperties.contains(key) && properties.values[key] == nil {
                properties.values[key] = value
            }
        }
        return properties
    }
}

/// The few XML tokens the XMP reader needs.
enum XMLToken {
    case startTag(String, [(String, String)], selfClosing: Bool)
    case endTag(String)
    case text([UInt8])
    case end
}

/// A tolerant-of-nothing XML tokenizer: returns `nil` at the first thing that is not well-formed.
struct XMLTokenizer {
    private let bytes: [UInt8]
    private var index = 0
    /// Whether ``attributeSpans`` is kept (the sidecar editor's need, not the reader's).
    private let recordsSpans: Bool
    /// With `recordsSpans`: where each attribute of the last start tag is, from its name to its
    /// closing quote, in the order of its attributes.
    private(set) var attributeSpans: [Range<Int>] = []

    init(_ bytes: [UInt8], recordsSpans: Bool = false) {
        // Stop at a NUL: some writers pad the packet with zeros.
        self.bytes = Array(bytes.prefix(while: { $0 != 0 }))
        self.recordsSpans = recordsSpans
    }

    /// Where the next token starts (where the last one ended), as an offset in the bytes.
    var position: Int { index }

    /// How many bytes are read: those before the first NUL.
    var count: Int { bytes.count }

    /// Whether `text` is at `position`; compared in place (making arrays of both, as this once
    /// did, was most of the time a sidecar took to read).
    private func starts(_ text: StaticString, at position: Int) -> Bool {
        text.withUTF8Buffer { pattern in
            guard position + pattern.count <= bytes.count else { return false }
            for offset in 0..<pattern.count where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
    }

    private func find(_ text: StaticString, from position: Int) -> Int? {
        var at = position
        while at < bytes.count {
            if starts(text, at: at) { return at }
            at += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private mutating func skipSpaces() { while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 } }

    private mutating func name() -> String? {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    mutating func next() -> XMLToken? {
        guard index < bytes.count else { return .end }
        if bytes[index] != UInt8(ascii: "<") {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            guard let decoded = Self.unescape(bytes[start..<index]) else { return nil }
            return .text(decoded)
        }
        if starts("<?", at: index) {
            guard let end = find("?>", from: index + 2) else { return nil }
            index = end + 2
            return .text([])
        }
        if starts("<!--", at: index) {
            guard let end = find("-->", from: index + 4) else { return nil }
            index = end + 3
            return .text([])
        }
        if starts("<![CDATA[", at: index) {
            guard let end = find("]]>", from: index + 9) else { return nil }
            defer { index = end + 3 }
            return .text(Array(bytes[(index + 9)..<end]))
        }
        if starts("<!", at: index) {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            index = end + 1
            return .text([])
        }
        if starts("</", at: index) {
            index += 2
            guard let tag = name() else { return nil }
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { return nil }
            index += 1
            return .endTag(tag)
        }
        index += 1
        guard let tag = name() else { return nil }
        var attributes: [(String, String)] = []
        if recordsSpans { attributeSpans.removeAll(keepingCapacity: true) }
        while true {
            skipSpaces()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return .startTag(tag, attributes, selfClosing: false)
            }
            if starts("/>", at: index) {
                index += 2
                return .startTag(tag, attributes, selfClosing: true)
            }
            let keyStart = index
            guard let key = name() else { return nil }
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                return nil
            }
            let quote = bytes[index]
            guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
            let raw = bytes[(index + 1)..<close]
            guard !raw.contains(UInt8(ascii: "<")), let value = Self.unescape(raw) else { return nil }
            // An attribute given twice in one tag is not well-formed XML (which one would count?).
            guard !attributes.contains(where: { $0.0 == key }) else { return nil }
            attributes.append((key, String(decoding: value, as: UTF8.self)))
            if recordsSpans { attributeSpans.append(keyStart..<(close + 1)) }
            index = close + 1
        }
    }

    /// Replaces the five predefined entities and numeric character references; `nil` for an
    /// unterminated or unknown one.
    static func unescape(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
        var result: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            guard raw[index] == UInt8(ascii: "&") else {
                result.append(raw[index])
                index += 1
                continue
            }
            guard let semicolon = raw[index...].firstIndex(of: UInt8(ascii: ";")), semicolon - index <= 10 else {
                return nil
            }
            let entity = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
            switch entity {
            case "amp": result.append(UInt8(ascii: "&"))
            case "lt": result.append(UInt8(ascii: "<"))
            case "gt": result.append(UInt8(ascii: ">"))
            case "quot": result.append(UInt8(ascii: "\""))
            case "apos": result.append(UInt8(ascii: "'"))
            default:
                let digits = entity.dropFirst()
                let value =
                    entity.hasPrefix("#x")
                    ? UInt32(digits.dropFirst(), radix: 16) : (entity.hasPrefix("#") ? UInt32(digits) : nil)
                guard let value, let scalar = Unicode.Scalar(value) else { return nil }
                result += Array(String(Character(scalar)).utf8)
            }
            index = semicolon + 1
        }
        return result
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[first...last])
    }
}
