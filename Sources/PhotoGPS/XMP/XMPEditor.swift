import PhotoTagSupport

/// A property that phototag sets in an XMP sidecar: its namespace, the prefix it prefers, its
/// name and its value.
public struct XMPProperty: Sendable, Hashable {
    /// How a value already in the sidecar is compared with the one to write.
    public enum Comparison: Sendable, Hashable {
        /// The same text, spaces around it aside.
        case text
        /// The same position within 1e-7 degrees (about a centimetre): `DDD,MM.mmmmK`,
        /// `DDD,MM,SSK` or a decimal, as phototag reads a sidecar.
        case coordinate
        /// The same number within 0.005: a rational (`3554/10`) or a decimal.
        case rational
    }

    /// A field of a structure (``Value/bagOfStructure(_:)``), in the property's own namespace.
    public struct Field: Sendable, Hashable {
        /// The field's local name (`City`).
        public var name: String
        /// Its text.
        public var value: String

        /// The field `name` with the text `value`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A property's value: simple text, or a structure in an array.
    public enum Value: Sendable, Hashable {
        /// A simple value.
        case text(String)
        /// An unordered array (`rdf:Bag`) of one structure, whose fields are in the property's
        /// namespace: IPTC Extension's `LocationCreated`.
        case bagOfStructure([Field])
    }

    /// The namespace URI (`http://ns.adobe.com/photoshop/1.0/`).
    public var namespace: String
    /// The prefix to declare for it when the sidecar binds none to it (`photoshop`).
    public var prefix: String
    /// The property's local name (`City`).
    public var name: String
    /// What to set.
    public var value: Value
    /// How a value already there is compared with ``value``.
    public var comparison: Comparison
    /// Properties with the same group are decided together: all written, or all kept (a
    /// latitude is never written beside a longitude that is kept).
    public var group: Int?

    /// The property `prefix:name` of `namespace`, set to `value`.
    public init(
        namespace: String, prefix: String, name: String, value: Value, comparison: Comparison = .text,
        group: Int? = nil
    ) {
        self.namespace = namespace
        self.prefix = prefix
        self.name = name
        self.value = value
        self.comparison = comparison
        self.group = group
    }

    /// The name as phototag reports it, with the preferred prefix: `exif:GPSLatitude`.
    public var qualifiedName: String { prefix + ":" + name }

    /// The value as phototag reports it: the text, or a structure's fields as `Name=value`
    /// joined by ` | ` in braces (`{City=Paris | CountryCode=FR}`).
    public var displayValue: String {
        switch value {
        case .text(let text): return text
        case .bagOfStructure(let fields):
            return "{" + fields.map { $0.name + "=" + $0.value }.joined(separator: " | ") + "}"
        }
    }
}

/// What became of one property in a sidecar.
public enum XMPPropertyStatus: String, Sendable, Hashable {
    /// Set by this edit: it was not there, or `overwrite` replaced another value.
    case written
    /// Already there with another value, and kept (no `overwrite`).
    case kept
    /// Already there with the same value.
    case unchanged
}

/// One property's outcome.
public struct XMPPropertyOutcome: Sendable, Hashable {
    /// The property asked for.
    public var property: XMPProperty
    /// What became of it.
    public var status: XMPPropertyStatus
    /// The value found in the sidecar, as text, when it was there and simple.
    public var existing: String?
}

/// Why a sidecar was not edited.
public enum XMPEditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not well-formed XML (or not valid in its encoding).
    case notWellFormed
    /// Well-formed, but with no `rdf:RDF` element: not an XMP packet.
    case noRDF

    /// The reason as one line, for an error record.
    public var description: String {
        switch self {
        case .notWellFormed: return "the sidecar is not well-formed XML; it is left as it is"
        case .noRDF: return "the sidecar has no rdf:RDF element, so it is no XMP packet; it is left as it is"
        }
    }
}

/// The result of ``XMPEditor/edit(_:setting:companions:overwrite:toolkit:)``.
public struct XMPEdit: Sendable {
    /// Each property asked for, with what became of it, in the order asked.
    public var outcomes: [XMPPropertyOutcome]
    /// The new sidecar's bytes; `nil` when nothing is to be written.
    public var document: [UInt8]?
}

/// Sets properties in an XMP packet by editing its text: every byte that is not a property it
/// sets stays as it was, in its place. Elements, attributes, namespaces, comments, processing
/// instructions, the `<?xpacket?>` wrapper, its padding and the bytes after a NUL are kept. A
/// UTF-16 or UTF-32 packet (with or without its byte order mark) is written back as UTF-8, the
/// same characters: neither ExifTool 12 nor exiv2 reads a UTF-16 sidecar, and both read it as
/// UTF-8.
///
/// Properties are looked for in the resource's own top-level Descriptions, as phototag reads them
/// (as attributes or as elements). A property that is there is kept unless `overwrite`, and one
/// with the same value is unchanged; new ones go into the first such Description (its namespaces
/// declared on it when they are not in scope), or a new one when the packet has none. With
/// `overwrite`, a property set elsewhere in those Descriptions is removed from where it was.
public enum XMPEditor {
    /// The packet of a new sidecar, before any property: an `x:xmpmeta` in an `<?xpacket?>`
    /// wrapper with an empty Description.
    public static func emptyPacket(toolkit: String) -> [UInt8] {
        let text = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="\(escaped(toolkit, quote: true))">
             <rdf:RDF xmlns:rdf="\(XMP.rdfNamespace)">
              <rdf:Description rdf:about=""/>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
        return Array(text.utf8)
    }

    /// The parsed ``emptyPacket(toolkit:)`` of the last toolkit asked for.
    private static let emptyTrees = EmptyTreeCache()

    private static func emptyTree(toolkit: String, _ utf8: [UInt8]) throws(XMPEditError) -> XMPTree {
        if let tree = emptyTrees.tree(toolkit) { return tree }
        let tree = try XMPTree(utf8)
        emptyTrees.store(tree, toolkit)
        return tree
    }

    /// Sets `properties` in `document` (a new sidecar's when `nil`). `companions` (phototag's
    /// own provenance) are written, over any value, exactly when another property is.
    public static func edit(
        _ document: [UInt8]?, setting properties: [XMPProperty], companions: [XMPProperty] = [],
        overwrite: Bool = false, toolkit: String = "phototag"
    ) throws(XMPEditError) -> XMPEdit {
        let original = document ?? emptyPacket(toolkit: toolkit)
        let (encoding, bomLength) = XMLEncoding.detect(original)
        guard let utf8 = XMLEncoding.utf8(original) else { throw .notWellFormed }
        // A new sidecar's packet is parsed once per toolkit, not once per photo.
        let tree = try document == nil ? Self.emptyTree(toolkit: toolkit, utf8) : XMPTree(utf8)
        guard let rdf = tree.rdf else { throw .noRDF }
        let descriptions = tree.resourceDescriptions

        // Decide each property (each group together).
        var found: [[XMPTree.Occurrence]] = properties.map { tree.occurrences(of: $0, in: descriptions) }
        var statuses: [XMPPropertyStatus] = properties.indices.map { index in
            let occurrences = found[index]
            if occurrences.isEmpty { return .written }
            if occurrences.count == 1, tree.matches(occurrences[0], properties[index]) { return .unchanged }
            return overwrite ? .written : .kept
        }
        var groups: [Int: [Int]] = [:]
        for (index, property) in properties.enumerated() {
            if let group = property.group { groups[group, default: []].append(index) }
        }
        for members in groups.values {
            let decided: XMPPropertyStatus
            if members.allSatisfy({ statuses[$0] == .unchanged }) {
                decided = .unchanged
            } else if members.allSatisfy({ found[$0].isEmpty }) || overwrite {
                decided = .written
            } else {
                decided = .kept
            }
            for member in members { statuses[member] = decided }
        }
        let outcomes = properties.indices.map { index in
            XMPPropertyOutcome(
                property: properties[index], status: statuses[index],
                existing: found[index].first.flatMap { tree.simpleValue($0) })
        }
        guard statuses.contains(.written) else { return XMPEdit(outcomes: outcomes, document: nil) }

        var writing = properties.indices.filter { statuses[$0] == .written }.map { properties[$0] }
        writing += companions
        found = writing.map { tree.occurrences(of: $0, in: descriptions) }
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        for occurrences in found {
            for occurrence in occurrences { edits.append((tree.removalRange(occurrence), [])) }
        }
        // Lines end as the packet's do (Windows tools write CR LF).
        let crlf = utf8.firstIndex(of: 0x0A).map { $0 > 0 && utf8[$0 - 1] == 0x0D } ?? false
        for edit in tree.insertion(of: writing, into: descriptions.first, under: rdf) {
            edits.append((edit.range, crlf ? Self.crlf(edit.bytes) : edit.bytes))
        }
        // A UTF-16 or UTF-32 packet is written back as UTF-8 (its declaration saying so): the
        // same characters, in the one encoding ExifTool and exiv2 read in a sidecar.
        if encoding != .utf8, let declaration = tree.declaredEncoding {
            edits.append((declaration, Array("UTF-8".utf8)))
        }
        var edited = utf8
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            edited.replaceSubrange(edit.range, with: edit.bytes)
        }
        let bytes = encoding == .utf8 ? Array(original.prefix(bomLength)) + edited : edited
        return XMPEdit(outcomes: outcomes + companions.map { .init(property: $0, status: .written) }, document: bytes)
    }

    /// `bytes` with each LF made CR LF.
    private static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0x0A { result.append(0x0D) }
            result.append(byte)
        }
        return result
    }

    /// `text` with `&`, `<`, `>` (and `"` in an attribute) escaped.
    static func escaped(_ text: String, quote: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quote: result += "&quot;"
            case "\r": result += "&#xD;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// An XMP packet's elements with where each is in its bytes: what ``XMPEditor`` needs to find
/// properties and edit around them.
struct XMPTree {
    struct Attribute {
        var name: String
        var resolved: String?
        var value: String
        var span: Range<Int>
    }

    struct Element {
        var name: String
        var resolved: String?
        var parent: Int?
        /// From `<` to after `>` (or `/>`).
        var startTag: Range<Int>
        /// Where its end tag starts (``startTag``'s end when it closes itself).
        var endTagStart: Int
        /// After its end tag.
        var end: Int
        var selfClosing: Bool
        var attributes: [Attribute]
        var children: [Int] = []
        /// Its own text, child elements' left out.
        var text: [UInt8] = []
        /// The namespaces in scope inside it, by prefix.
        var scope: [String: String]
    }

    enum Occurrence {
        case attribute(element: Int, index: Int)
        case element(Int)
    }

    let bytes: [UInt8]
    private(set) var elements: [Element] = []

    init(_ bytes: [UInt8]) throws(XMPEditError) {
        self.bytes = bytes
        // Stricter than the reader, as xmllint is: text that is not UTF-8, or that holds a
        // control character XML does not allow (other than tab, line feed and carriage return),
        // is no XML to edit. (The bytes after a NUL, padding, are not the document's.)
        let document = bytes.prefix { $0 != 0 }
        guard document.allSatisfy({ $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }),
            document.withUnsafeBytes({ isValidUTF8($0) })
        else { throw .notWellFormed }
        var tokenizer = XMLTokenizer(bytes, recordsSpans: true)
        var open: [Int] = []
        var sawRoot = false
        var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
        while true {
            let start = tokenizer.position
            guard let token = tokenizer.next() else { throw .notWellFormed }
            switch token {
            case .end:
                guard open.isEmpty, sawRoot else { throw .notWellFormed }
                return
            case .text(let text):
                if let current = open.last { elements[current].text += text }
            case .startTag(let name, let pairs, let selfClosing):
                guard open.count < 256 else { throw .notWellFormed }
                sawRoot = true
                var scope = scopes[scopes.count - 1]
                for (key, value) in pairs where key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
                func resolve(_ qualified: String) -> String? {
                    let utf8 = qualified.utf8
                    guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
                    return scope[String(Substring(utf8[..<colon]))].map {
                        $0 + Substring(utf8[utf8.index(after: colon)...])
                    }
                }
                let resolvedName = resolve(name)
                let attributes = zip(pairs, tokenizer.attributeSpans).map { pair, span in
                    Attribute(
                        name: pair.0, resolved: pair.0.utf8.starts(with: "xmlns".utf8) ? nil : resolve(pair.0),
                        value: pair.1, span: span)
                }
                // Not well-formed with namespaces (as xmllint says): a name that is no QName (two
                // colons, a part that is empty or starts with a digit, `-` or `.`), a prefix that no
                // xmlns declares. Attributes are separated from the name and each other by spaces
                // (`a="1"b="2"` is not XML, though the tokenizer reads it).
                func valid(_ name: String, resolved: String?) -> Bool {
                    var colons = 0
                    var partStarts = true
                    for byte in name.utf8 {
                        if byte == UInt8(ascii: ":") {
                            guard !partStarts else { return false }
                            colons += 1
                            partStarts = true
                        } else if partStarts {
                            guard !(0x30...0x39).contains(byte), byte != UInt8(ascii: "-"), byte != UInt8(ascii: ".")
                            else { return false }
                            partStarts = false
                        }
                    }
                    guard !partStarts, colons <= 1 else { return false }
                    return resolved != nil || colons == 0 || name.utf8.starts(with: "xmlns:".utf8)
                }
                guard valid(name, resolved: resolvedName),
                    attributes.allSatisfy({
                        Self.isSpace(bytes[$0.span.lowerBound - 1])
                            && valid(
                                $0.name, resolved: $0.resolved ?? ($0.name.utf8.starts(with: "xmlns".utf8) ? "" : nil))
                    })
                else { throw .notWellFormed }
                let end = tokenizer.position
                let element = Element(
                    name: name, resolved: resolvedName, parent: open.last, startTag: start..<end,
                    endTagStart: end, end: end, selfClosing: selfClosing, attributes: attributes, scope: scope)
                elements.append(element)
                let index = elements.count - 1
                if let parent = open.last { elements[parent].children.append(index) }
                if !selfClosing {
                    open.append(index)
                    scopes.append(scope)
                }
            case .endTag(let name):
                guard let current = open.last, elements[current].name == name else { throw .notWellFormed }
                elements[current].endTagStart = start
                elements[current].end = tokenizer.position
                open.removeLast()
                scopes.removeLast()
            }
        }
    }

    private static let rdf = XMP.rdfNamespace

    /// Where the value of the XML declaration's `encoding` is (`<?xml version="1.0"
    /// encoding="UTF-16"?>`), when the packet starts with one that has it.
    var declaredEncoding: Range<Int>? {
        let start = Array("<?xml".utf8), key = Array("encoding".utf8)
        guard bytes.starts(with: start), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        var at = start.count
        while at + key.count < end {
            if Array(bytes[at..<(at + key.count)]) == key {
                var index = at + key.count
                while index < end, bytes[index] == 0x20 || bytes[index] == UInt8(ascii: "=") { index += 1 }
                guard index < end, bytes[index] == 0x22 || bytes[index] == 0x27 else { return nil }
                let quote = bytes[index]
                guard let close = bytes[(index + 1)..<end].firstIndex(of: quote) else { return nil }
                return (index + 1)..<close
            }
            at += 1
        }
        return nil
    }

    /// The first `rdf:RDF` element.
    var rdf: Int? { elements.indices.first { elements[$0].resolved == Self.rdf + "RDF" } }

    /// The top-level Descriptions about the resource, exactly as ``XMP/scan(_:)`` reads them:
    /// in document order, each child of an `rdf:RDF` that is inside none of them, whose
    /// `rdf:about` is empty or the first one's.
    var resourceDescriptions: [Int] {
        var uri: String? = nil
        var result: [Int] = []
        var taken: Set<Int> = []
        for (index, element) in elements.enumerated() where element.resolved == Self.rdf + "Description" {
            guard let parent = element.parent, elements[parent].resolved == Self.rdf + "RDF" else { continue }
            // Inside one of the resource's Descriptions (a Pantry's), it is about another resource.
            var ancestor = elements[parent].parent
            var nested = false
            while let above = ancestor, !nested {
                nested = taken.contains(above)
                ancestor = elements[above].parent
            }
            guard !nested else { continue }
            let about = element.attributes.first { $0.resolved == Self.rdf + "about" }?.value ?? ""
            if uri == nil { uri = about }
            if about.isEmpty || about == uri {
                result.append(index)
                taken.insert(index)
            }
        }
        return result
    }

    /// Where `property` is set in `descriptions`.
    func occurrences(of property: XMPProperty, in descriptions: [Int]) -> [Occurrence] {
        let uri = property.namespace + property.name
        var result: [Occurrence] = []
        for description in descriptions {
            for (index, attribute) in elements[description].attributes.enumerated() where attribute.resolved == uri {
                result.append(.attribute(element: description, index: index))
            }
            for child in elements[description].children where elements[child].resolved == uri {
                result.append(.element(child))
            }
        }
        return result
    }

    /// The value of an occurrence that is simple (an attribute, or an element with text only).
    func simpleValue(_ occurrence: Occurrence) -> String? {
        switch occurrence {
        case .attribute(let element, let index): return elements[element].attributes[index].value
        case .element(let index):
            let element = elements[index]
            guard element.children.isEmpty,
                !element.attributes.contains(where: { $0.resolved == Self.rdf + "resource" })
            else { return nil }
            return String(decoding: element.text, as: UTF8.self).trimmingSpaces
        }
    }

    /// Whether the value at `occurrence` is `property`'s.
    func matches(_ occurrence: Occurrence, _ property: XMPProperty) -> Bool {
        switch property.value {
        case .text(let wanted):
            guard let existing = simpleValue(occurrence) else { return false }
            switch property.comparison {
            case .text: return existing == wanted.trimmingSpaces
            case .coordinate:
                var ignored: [GPSWarning] = []
                func degrees(_ text: String) -> Double? {
                    let letter = text.trimmingSpaces.last
                    let (positive, negative): (Character, Character) =
                        letter == "E" || letter == "W" ? ("E", "W") : ("N", "S")
                    return XMP.coordinate(
                        text, name: property.qualifiedName, positive: positive, negative: negative,
                        warnings: &ignored)
                }
                guard let a = degrees(existing), let b = degrees(wanted) else { return false }
                return abs(a - b) < 1e-7
            case .rational:
                guard let a = XMP.rational(existing), let b = XMP.rational(wanted) else { return false }
                return abs(a - b) <= 0.005
            }
        case .bagOfStructure(let fields):
            guard case .element(let index) = occurrence, let existing = structureFields(index) else { return false }
            return fields.allSatisfy { existing[$0.name] == $0.value.trimmingSpaces }
                && existing.count == fields.count
        }
    }

    /// The fields of the one structure in a property's array (or of the structure itself), by
    /// local name; `nil` when it holds more than one or is no structure.
    func structureFields(_ index: Int) -> [String: String]? {
        let element = elements[index]
        var node = index
        // An array: its one item.
        if let array = element.children.first,
            [Self.rdf + "Bag", Self.rdf + "Seq", Self.rdf + "Alt"].contains(elements[array].resolved ?? "")
        {
            guard element.children.count == 1, elements[array].children.count == 1 else { return nil }
            node = elements[array].children[0]
            guard elements[node].resolved == Self.rdf + "li" else { return nil }
        }
        // A structure written as a Description inside.
        if elements[node].children.count == 1, elements[elements[node].children[0]].resolved == Self.rdf + "Description"
        {
            node = elements[node].children[0]
        }
        var fields: [String: String] = [:]
        for attribute in elements[node].attributes {
            guard let resolved = attribute.resolved, !resolved.hasPrefix(Self.rdf), !attribute.name.hasPrefix("xmlns"),
                attribute.name != "xml:lang"
            else { continue }
            fields[Self.localName(attribute.name)] = attribute.value.trimmingSpaces
        }
        for child in elements[node].children {
            guard let value = simpleValue(.element(child)) else { return nil }
            fields[Self.localName(elements[child].name)] = value
        }
        return fields
    }

    private static func localName(_ qualified: String) -> String {
        qualified.firstIndex(of: ":").map { String(qualified[qualified.index(after: $0)...]) } ?? qualified
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The bytes to delete to remove an occurrence: it and the spaces before it.
    func removalRange(_ occurrence: Occurrence) -> Range<Int> {
        let span: Range<Int>
        switch occurrence {
        case .attribute(let element, let index): span = elements[element].attributes[index].span
        case .element(let index): span = elements[index].startTag.lowerBound..<elements[index].end
        }
        var start = span.lowerBound
        while start > 0, Self.isSpace(bytes[start - 1]) { start -= 1 }
        return start..<span.upperBound
    }

    /// The indentation of the line an element starts on, when only spaces precede it there.
    private func indentation(of index: Int) -> String {
        var start = elements[index].startTag.lowerBound
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return "" }
        return String(decoding: bytes[start..<elements[index].startTag.lowerBound], as: UTF8.self)
    }

    /// The edits that add `properties` as elements of `description` (or of a new Description in
    /// `rdf` when there is none), with the namespaces they need declared where they are not in
    /// scope.
    func insertion(
        of properties: [XMPProperty], into description: Int?, under rdf: Int
    ) -> [(
        range: Range<Int>, bytes: [UInt8]
    )] {
        let host = description ?? rdf
        var scope = elements[host].scope
        // The prefix of each namespace: one bound to it in scope, or a new declaration.
        var declarations: [(prefix: String, uri: String)] = []
        func prefix(_ uri: String, preferred: String) -> String {
            if scope[preferred] == uri { return preferred }
            if let bound = scope.filter({ $0.value == uri }).keys.sorted().first { return bound }
            var candidate = preferred
            var suffix = 2
            while scope[candidate] != nil {
                candidate = preferred + String(suffix)
                suffix += 1
            }
            scope[candidate] = uri
            declarations.append((candidate, uri))
            return candidate
        }
        let rdfPrefix = prefix(Self.rdf, preferred: "rdf")
        let indent = indentation(of: host)
        let child = description == nil ? indent + "  " : indent + " "
        let inner = description == nil ? child + " " : child
        var body = ""
        for property in properties {
            let name = prefix(property.namespace, preferred: property.prefix) + ":" + property.name
            switch property.value {
            case .text(let text):
                body += "\n\(inner)<\(name)>\(XMPEditor.escaped(text, quote: false))</\(name)>"
            case .bagOfStructure(let fields):
                body += "\n\(inner)<\(name)>\n\(inner) <\(rdfPrefix):Bag>\n"
                body += "\(inner)  <\(rdfPrefix):li \(rdfPrefix):parseType=\"Resource\">"
                let fieldPrefix = String(name.prefix { $0 != ":" })
                for field in fields {
                    let fieldName = fieldPrefix + ":" + field.name
                    body += "\n\(inner)   <\(fieldName)>\(XMPEditor.escaped(field.value, quote: false))</\(fieldName)>"
                }
                body += "\n\(inner)  </\(rdfPrefix):li>\n\(inner) </\(rdfPrefix):Bag>\n\(inner)</\(name)>"
            }
        }
        // Each declaration on a line of its own, as ExifTool and Adobe's toolkit write them.
        let declarationIndent = (description == nil ? child : indent) + "    "
        let declared = declarations.filter { $0.uri != Self.rdf || description == nil }
            .map { "\n\(declarationIndent)xmlns:\($0.prefix)=\"\(XMPEditor.escaped($0.uri, quote: true))\"" }.joined()
        if description == nil {
            // A new Description, last in rdf:RDF.
            let text =
                "\n\(child)<\(rdfPrefix):Description \(rdfPrefix):about=\"\"\(declared)>\(body)\n\(child)</\(rdfPrefix):Description>"
            return insertingContent(text, into: rdf, indent: indent)
        }
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        let element = elements[host]
        if element.selfClosing {
            let close = element.startTag.upperBound - 2
            let text = "\(declared)>\(body)\n\(indent)</\(element.name)>"
            edits.append((close..<element.startTag.upperBound, Array(text.utf8)))
        } else {
            let close = element.startTag.upperBound - 1
            if !declared.isEmpty { edits.append((close..<close, Array(declared.utf8))) }
            edits += insertingContent(body, into: host, indent: indent)
        }
        return edits
    }

    /// The edit that adds `text` at the end of a (not self-closing) element's content, before
    /// the spaces that end it, and a line break before the end tag when there is none.
    private func insertingContent(
        _ text: String, into index: Int, indent: String
    ) -> [(
        range: Range<Int>, bytes: [UInt8]
    )] {
        let element = elements[index]
        if element.selfClosing {
            let close = element.startTag.upperBound - 2
            return [(close..<element.startTag.upperBound, Array(">\(text)\n\(indent)</\(element.name)>".utf8))]
        }
        var at = element.endTagStart
        while at > element.startTag.upperBound, Self.isSpace(bytes[at - 1]) { at -= 1 }
        let trailing = bytes[at..<element.endTagStart]
        let text = trailing.contains(0x0A) ? text : text + "\n" + indent
        return [(at..<at, Array(text.utf8))]
    }
}

/// The parsed empty packet of one toolkit, shared by the threads that tag photos.
private final class EmptyTreeCache: Sendable {
    private let state = Locked<(toolkit: String, tree: XMPTree)?>(nil)

    func tree(_ toolkit: String) -> XMPTree? { state.withLock { $0?.toolkit == toolkit ? $0?.tree : nil } }

    func store(_ tree: XMPTree, _ toolkit: String) { state.withLock { $0 = (toolkit, tree) } }
}
