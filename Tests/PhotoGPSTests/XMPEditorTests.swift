import Testing

@testable import PhotoGPS

/// The sidecar editor: what it writes, what it keeps, and that it keeps every other byte.
@Suite struct XMPEditorTests {
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let ext = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"

    static func latitude(_ text: String) -> XMPProperty {
        XMPProperty(
            namespace: exif, prefix: "exif", name: "GPSLatitude", value: .text(text), comparison: .coordinate, group: 1)
    }
    static func longitude(_ text: String) -> XMPProperty {
        XMPProperty(
            namespace: exif, prefix: "exif", name: "GPSLongitude", value: .text(text), comparison: .coordinate,
            group: 1)
    }
    static func city(_ text: String) -> XMPProperty {
        XMPProperty(namespace: photoshop, prefix: "photoshop", name: "City", value: .text(text))
    }
    static func location(_ city: String, _ code: String) -> XMPProperty {
        XMPProperty(
            namespace: ext, prefix: "Iptc4xmpExt", name: "LocationCreated",
            value: .bagOfStructure([.init("City", city), .init("CountryCode", code)]))
    }

    static func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    /// Whether `part`'s bytes appear in `whole` in their order (each byte kept, others between).
    static func isSubsequence(_ part: [UInt8], of whole: [UInt8]) -> Bool {
        var iterator = whole.makeIterator()
        return part.allSatisfy { byte in
            while let next = iterator.next() { if next == byte { return true } }
            return false
        }
    }

    static let packet = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Someone's toolkit">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <!-- a comment someone wrote -->
          <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:my="http://example.com/unknown/1.0/" my:attr="a &amp; b" photoshop:City="Lyon"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/">
           <dc:subject><rdf:Bag><rdf:li>holiday</rdf:li><rdf:li>caf&#xE9;</rdf:li></rdf:Bag></dc:subject>
           <my:Thing rdf:parseType="Resource"><my:Inner>x</my:Inner></my:Thing>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test func newSidecarHoldsEveryPropertyAndReadsBack() throws {
        let edit = try XMPEditor.edit(
            nil,
            setting: [
                Self.latitude("48,51.46620000N"), Self.longitude("2,17.40000000E"), Self.city("Paris"),
                Self.location("Paris", "FR"),
            ])
        #expect(edit.outcomes.map(\.status) == [.written, .written, .written, .written])
        let document = try #require(edit.document)
        let fix = try #require(XMP.decode(document).fix)
        #expect(abs(fix.latitude - (48 + 51.4662 / 60)) < 1e-9)
        #expect(abs(fix.longitude - 2.29) < 1e-9)
        let tree = try XMPTree(document)
        let descriptions = tree.resourceDescriptions
        let found = tree.occurrences(of: Self.location("Paris", "FR"), in: descriptions)
        #expect(found.count == 1)
        #expect(tree.matches(found[0], Self.location("Paris", "FR")))
        #expect(Self.text(document).contains("<photoshop:City>Paris</photoshop:City>"))
    }

    @Test func everyByteOfTheOldPacketIsKept() throws {
        let original = Array(Self.packet.utf8)
        let edit = try XMPEditor.edit(original, setting: [Self.latitude("1,30N"), Self.longitude("2,0W")])
        let document = try #require(edit.document)
        #expect(Self.isSubsequence(original, of: document))
        let text = Self.text(document)
        #expect(text.contains("xmlns:exif=\"http://ns.adobe.com/exif/1.0/\""))
        #expect(text.contains("<exif:GPSLatitude>1,30N</exif:GPSLatitude>"))
        #expect(XMP.decode(document).fix?.longitude == -2)
        // The new properties end the resource's Description, before its end tag.
        let added = try #require(text.range(of: "<exif:GPSLongitude>"))
        let end = try #require(text.range(of: "</rdf:Description>"))
        #expect(added.lowerBound < end.lowerBound)
    }

    @Test func aPropertyThatIsThereIsKeptOrUnchangedOrOverwritten() throws {
        let original = Array(Self.packet.utf8)
        let same = try XMPEditor.edit(original, setting: [Self.city("Lyon")])
        #expect(same.outcomes.map(\.status) == [.unchanged])
        #expect(same.document == nil)
        let other = try XMPEditor.edit(original, setting: [Self.city("Paris")])
        #expect(other.outcomes.map(\.status) == [.kept])
        #expect(other.outcomes[0].existing == "Lyon")
        #expect(other.document == nil)
        let overwritten = try XMPEditor.edit(original, setting: [Self.city("Paris")], overwrite: true)
        #expect(overwritten.outcomes.map(\.status) == [.written])
        let text = Self.text(overwritten.document)
        #expect(!text.contains("Lyon"))
        #expect(text.contains("<photoshop:City>Paris</photoshop:City>"))
        #expect(text.contains("my:attr=\"a &amp; b\""))
    }

    @Test func aSecondEditWritesNothing() throws {
        let properties = [
            Self.latitude("48,51.46620000N"), Self.longitude("2,17.40000000E"), Self.city("Paris"),
            Self.location("Paris", "FR"),
        ]
        let first = try #require(try XMPEditor.edit(Array(Self.packet.utf8), setting: properties).document)
        let second = try XMPEditor.edit(first, setting: properties)
        #expect(second.document == nil)
        #expect(second.outcomes.map(\.status) == [.unchanged, .unchanged, .kept, .unchanged])
        // The same position written another way is the same position.
        let decimal = try XMPEditor.edit(first, setting: [Self.latitude("48,51,27.972N"), Self.longitude("2,17,24E")])
        #expect(decimal.outcomes.map(\.status) == [.unchanged, .unchanged])
    }

    @Test func companionsGoOnlyWithAnotherProperty() throws {
        let source = XMPProperty(
            namespace: "urn:phototag:xmp:1.0#", prefix: "phototag", name: "Source", value: .text("track"))
        let first = try XMPEditor.edit(nil, setting: [Self.city("Paris")], companions: [source])
        let document = try #require(first.document)
        #expect(Self.text(document).contains("<phototag:Source>track</phototag:Source>"))
        let again = try XMPEditor.edit(document, setting: [Self.city("Paris")], companions: [source])
        #expect(again.document == nil)
        #expect(again.outcomes.count == 1)
    }

    @Test func aGroupIsDecidedTogether() throws {
        let half = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="10,0N"/>
            </rdf:RDF></x:xmpmeta>
            """
        let edit = try XMPEditor.edit(Array(half.utf8), setting: [Self.latitude("20,0N"), Self.longitude("3,0E")])
        #expect(edit.outcomes.map(\.status) == [.kept, .kept])
        #expect(edit.document == nil)
        let forced = try XMPEditor.edit(
            Array(half.utf8), setting: [Self.latitude("20,0N"), Self.longitude("3,0E")], overwrite: true)
        let document = try #require(forced.document)
        #expect(XMP.decode(document).fix?.latitude == 20)
        #expect(!Self.text(document).contains("10,0N"))
    }

    @Test func aSelfClosingDescriptionAndABareRDFRootAreWrittenInto() throws {
        let bare = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
            xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Make="Canon"/></rdf:RDF>
            """
        let edit = try XMPEditor.edit(Array(bare.utf8), setting: [Self.city("Paris")])
        let document = try #require(edit.document)
        let tree = try XMPTree(document)
        let descriptions = tree.resourceDescriptions
        #expect(descriptions.count == 1)
        #expect(tree.occurrences(of: Self.city("Paris"), in: descriptions).count == 1)
        #expect(Self.text(document).contains("tiff:Make=\"Canon\""))
        // No Description at all: a new one.
        let empty =
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(XMP.rdfNamespace)"></rdf:RDF></x:xmpmeta>"#
        let added = try #require(try XMPEditor.edit(Array(empty.utf8), setting: [Self.city("Paris")]).document)
        #expect(Self.text(added).contains("<rdf:Description rdf:about=\"\"\n"))
        #expect(Self.text(added).contains("xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\""))
        #expect(try XMPEditor.edit(added, setting: [Self.city("Paris")]).document == nil)
    }

    @Test func aPrefixBoundToAnotherNamespaceIsNotReused() throws {
        let clash = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:photoshop="http://example.com/not/">
            <rdf:Description rdf:about=""><photoshop:City>Elsewhere</photoshop:City></rdf:Description></rdf:RDF>
            """
        let edit = try XMPEditor.edit(Array(clash.utf8), setting: [Self.city("Paris")])
        #expect(edit.outcomes.map(\.status) == [.written])
        let text = Self.text(edit.document)
        #expect(text.contains("xmlns:photoshop2=\"http://ns.adobe.com/photoshop/1.0/\""))
        #expect(text.contains("<photoshop2:City>Paris</photoshop2:City>"))
        #expect(text.contains("<photoshop:City>Elsewhere</photoshop:City>"))
    }

    /// Neither ExifTool 12.57 nor exiv2 reads a UTF-16 sidecar (corpus/video-dev has one from
    /// Lightroom); both read the same characters as UTF-8, so that is how it is written back.
    @Test func utf16AndUTF32PacketsAreWrittenBackAsTheirCharactersInUTF8() throws {
        let declared = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\r\n" + Self.packet.replacingLineEnds()
        for (bom, bigEndian, width) in [
            ([0xFF, 0xFE] as [UInt8], false, 2), ([0xFE, 0xFF], true, 2), ([], false, 2),
            ([0, 0, 0xFE, 0xFF], true, 4),
        ] {
            var bytes = bom
            for scalar in declared.unicodeScalars {
                var units: [UInt32] = []
                if width == 2 { units = String(scalar).utf16.map(UInt32.init) } else { units = [scalar.value] }
                for unit in units {
                    let be: [UInt8] = (0..<width).reversed().map { UInt8(unit >> (8 * UInt32($0)) & 0xFF) }
                    bytes += bigEndian ? be : be.reversed()
                }
            }
            let edit = try XMPEditor.edit(bytes, setting: [Self.city("Zürich")], overwrite: true)
            let document = try #require(edit.document)
            let text = Self.text(document)
            #expect(XMLEncoding.detect(document).encoding == .utf8 && XMLEncoding.detect(document).bomLength == 0)
            #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"))
            // The new lines end as the old ones do.
            #expect(text.contains("\r\n   <photoshop:City>Zürich</photoshop:City>\r\n"))
            #expect(text.contains("caf&#xE9;"))
            #expect(try XMPEditor.edit(document, setting: [Self.city("Zürich")]).document == nil)
        }
    }

    @Test func bytesAfterANulAreKept() throws {
        let original = Array(Self.packet.utf8) + [0, 0, 0x41, 0xFF]
        let document = try #require(
            try XMPEditor.edit(original, setting: [Self.latitude("1,0N"), Self.longitude("1,0E")]).document)
        #expect(Self.isSubsequence(original, of: document))
        #expect(Array(document.suffix(4)) == [0, 0, 0x41, 0xFF])
    }

    /// What xmllint refuses, the editor refuses: text that is not UTF-8, a control character XML
    /// does not allow (ExifTool's XMP2.xmp test file has U+001A in its xpacket), a prefix that
    /// nothing declares.
    @Test(arguments: [
        ("holiday", [0xE9] as [UInt8]), ("begin=\"", [0x1A]), ("<dc:subject>", Array("<dc:subject><zz:x/>".utf8)),
    ])
    func textThatIsNotXMLIsRefused(_ after: String, _ inserted: [UInt8]) throws {
        var original = Array(Self.packet.utf8)
        let marker = Array(after.utf8)
        let at = try #require(
            original.indices.first { Array(original[$0..<min($0 + marker.count, original.count)]) == marker })
        original.replaceSubrange(at..<(at + marker.count), with: inserted.count > 1 ? inserted : marker + inserted)
        #expect(throws: XMPEditError.notWellFormed) { try XMPEditor.edit(original, setting: [Self.city("P")]) }
    }

    @Test func aStructureIsComparedInEachOfItsForms() throws {
        let forms = [
            """
            <Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:City>Paris\
            </Iptc4xmpExt:City><Iptc4xmpExt:CountryCode>FR</Iptc4xmpExt:CountryCode></rdf:li></rdf:Bag>\
            </Iptc4xmpExt:LocationCreated>
            """,
            """
            <Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li><rdf:Description Iptc4xmpExt:City="Paris" \
            Iptc4xmpExt:CountryCode="FR"/></rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>
            """,
        ]
        for form in forms {
            let packet = """
                <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
                xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/">\(form)</rdf:Description></rdf:RDF>
                """
            let same = try XMPEditor.edit(Array(packet.utf8), setting: [Self.location("Paris", "FR")])
            #expect(same.outcomes.map(\.status) == [.unchanged])
            let other = try XMPEditor.edit(Array(packet.utf8), setting: [Self.location("Lyon", "FR")])
            #expect(other.outcomes.map(\.status) == [.kept])
            let replaced = try #require(
                try XMPEditor.edit(Array(packet.utf8), setting: [Self.location("Lyon", "FR")], overwrite: true)
                    .document)
            #expect(!Self.text(replaced).contains("Paris"))
            #expect(try XMPEditor.edit(replaced, setting: [Self.location("Lyon", "FR")]).document == nil)
        }
    }

    @Test(arguments: [
        "<rdf:RDF><rdf:Description>", "<a></b>", "",
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><a x='1' x='2'/></x:xmpmeta>",
    ])
    func aMalformedPacketIsRefused(_ text: String) {
        #expect(throws: XMPEditError.notWellFormed) { try XMPEditor.edit(Array(text.utf8), setting: [Self.city("P")]) }
    }

    /// Found by XMPEditorFuzzer: xmllint refuses these as not well-formed with namespaces, and
    /// the editor did not (it reused `photoshoexif:GPSLatitudeRefp` as a prefix, and wrote a
    /// packet it then refused itself).
    @Test(arguments: [
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photo:shop="http://ns.adobe.com/photoshop/1.0/"/></rdf:RDF></x:xmpmeta>"#,
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"tk="1"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>"#,
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:1a="urn:x"/></rdf:RDF></x:xmpmeta>"#,
    ])
    func whatIsNotWellFormedWithNamespacesIsRefused(_ text: String) {
        #expect(throws: XMPEditError.notWellFormed) { try XMPEditor.edit(Array(text.utf8), setting: [Self.city("P")]) }
    }

    /// Found by XMPEditorFuzzer: the resource's Descriptions are the ones phototag's reader reads,
    /// those of an `rdf:RDF` nested in another too, so that a position the editor finds there is
    /// kept, not written beside it in a Description the reader never gets to.
    @Test func theDescriptionsAreTheOnesTheReaderReads() throws {
        let nested = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <x:xmpmeta><rdf:RDF><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
             exif:GPSLatitude="41,53,24.72N" exif:GPSLongitude="12,29,bad"/></rdf:RDF></x:xmpmeta>
            <rdf:Description rdf:about=""/></rdf:RDF></x:xmpmeta>
            """
        let edit = try XMPEditor.edit(Array(nested.utf8), setting: [Self.latitude("1,0N"), Self.longitude("1,0E")])
        #expect(edit.outcomes.map(\.status) == [.kept, .kept])
        // Written where the reader reads it, the position is the one read.
        let clean = nested.replacingOccurrences(
            of: #" exif:GPSLatitude="41,53,24.72N" exif:GPSLongitude="12,29,bad""#, with: "")
        let document = try #require(
            try XMPEditor.edit(Array(clean.utf8), setting: [Self.latitude("1,0N"), Self.longitude("1,0E")]).document)
        #expect(XMP.decode(document).fix?.latitude == 1)
    }

    @Test func aPacketWithoutRDFIsRefused() {
        #expect(throws: XMPEditError.noRDF) {
            try XMPEditor.edit(Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8), setting: [Self.city("P")])
        }
    }
}

extension String {
    /// The text with each line ending in CR LF.
    fileprivate func replacingLineEnds() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }
}
