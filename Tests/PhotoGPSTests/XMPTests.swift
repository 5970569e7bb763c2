import TestSupport
import Testing

@testable import PhotoGPS

/// GPS from XMP packets, on hand-written packets.
@Suite struct XMPTests {
    static func packet(_ body: String, namespaces: String = #"xmlns:exif="http://ns.adobe.com/exif/1.0/""#) -> [UInt8] {
        Array(
            """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" \(namespaces) \(body)
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }

    static let coordinateCases: [(String, Double, Double)] = [
        (#"exif:GPSLatitude="48,51.4933N" exif:GPSLongitude="2,17.67E"/>"#, 48.0 + 51.4933 / 60, 2.0 + 17.67 / 60),
        (
            #"exif:GPSLatitude="52,31,12N" exif:GPSLongitude="13,24,36W"/>"#, 52.0 + 31.0 / 60 + 12.0 / 3600,
            -(13.0 + 24.0 / 60 + 36.0 / 3600)
        ),
        (#"exif:GPSLatitude=" 33,52.2S " exif:GPSLongitude='151,12.6E'/>"#, -(33.0 + 52.2 / 60), 151.0 + 12.6 / 60),
        (
            ">\n<exif:GPSLatitude>0,4.216009S</exif:GPSLatitude><exif:GPSLongitude>34,22.91611E</exif:GPSLongitude></rdf:Description>",
            -(4.216009 / 60), 34.0 + 22.91611 / 60
        ),
    ]

    @Test(arguments: coordinateCases)
    func exifSchemaCoordinatesInBothForms(body: String, latitude: Double, longitude: Double) throws {
        let decoded = XMP.decode(Self.packet(body))
        let fix = try #require(decoded.fix)
        #expect(fix.latitude == latitude)
        #expect(fix.longitude == longitude)
        #expect(fix.source == .xmp)
        #expect(decoded.warnings.isEmpty)
    }

    @Test func altitudeIsARationalWithItsReference() throws {
        let above = XMP.decode(
            Self.packet(
                #"exif:GPSLatitude="1,0N" exif:GPSLongitude="1,0E" exif:GPSAltitude="355/10" exif:GPSAltitudeRef="0"/>"#
            ))
        #expect(above.fix?.altitude == 35.5)
        let below = XMP.decode(
            Self.packet(
                #"exif:GPSLatitude="1,0N" exif:GPSLongitude="1,0E" exif:GPSAltitude="12" exif:GPSAltitudeRef="1"/>"#))
        #expect(below.fix?.altitude == -12)
    }

    @Test func djiDecimalsWithOtherPrefixes() throws {
        let dji = #"xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/""#
        let decoded = XMP.decode(
            Self.packet(
                #"drone-dji:GpsLatitude="+22.5311" drone-dji:GpsLongitude="-114.0214" drone-dji:AbsoluteAltitude="+120.5"/>"#,
                namespaces: dji))
        #expect(decoded.fix == GPSFix(latitude: 22.5311, longitude: -114.0214, altitude: 120.5, source: .xmp))
        // DJI's misspelt GpsLongtitude, and a prefix other than the usual one.
        let other = #"xmlns:d="http://www.dji.com/drone-dji/1.0/""#
        let misspelt = XMP.decode(Self.packet(#"d:GpsLatitude="10.5" d:GpsLongtitude="20.25"/>"#, namespaces: other))
        #expect(misspelt.fix?.longitude == 20.25)
        let renamed = XMP.decode(
            Self.packet(
                #"e:GPSLatitude="10,30N" e:GPSLongitude="20,15E"/>"#,
                namespaces: #"xmlns:e="http://ns.adobe.com/exif/1.0/""#))
        #expect(renamed.fix?.latitude == 10.5)
    }

    @Test(
        arguments: [
            (
                #"exif:GPSLatitude="48,51.49X" exif:GPSLongitude="2,17.67E"/>"#,
                ["XMP exif:GPSLatitude '48,51.49X' is not a valid value"]
            ),
            (
                #"exif:GPSLatitude="48.5N" exif:GPSLongitude="2,17.67E"/>"#,
                ["XMP exif:GPSLatitude '48.5N' is not a valid value"]
            ),
            (
                #"exif:GPSLatitude="95,0N" exif:GPSLongitude="2,17.67E"/>"#,
                ["XMP latitude 95.0 is out of range (more than 90 degrees)"]
            ),
            (#"exif:GPSLatitude="0,0N" exif:GPSLongitude="0,0E"/>"#, ["position 0, 0 is the no-fix placeholder"]),
            (#"exif:GPSLatitude="10,0N"/>"#, ["XMP exif:GPSLongitude is missing"]),
            (#"exif:GPSLongitude="10,0E"/>"#, ["XMP exif:GPSLatitude '' is not a valid value"]),
        ] as [(String, [String])])
    func unusableValuesAreReasonsNotGuesses(body: String, warnings: [String]) {
        let decoded = XMP.decode(Self.packet(body))
        #expect(decoded.fix == nil)
        #expect(decoded.warnings.map(\.description) == warnings)
    }

    @Test(arguments: [
        #"<x:xmpmeta><rdf:Description exif:GPSLatitude="48,51.49N"#,
        #"<a><b></a></b>"#,
        #"<a attr="unterminated></a>"#,
        #"<a>&bogus;</a>"#,
        #"<a><!-- never closed </a>"#,
        "",
        "just text",
        #"<a b="1" b2=unquoted></a>"#,
    ])
    func malformedPacketsGiveAWarningAndNoPosition(text: String) {
        let decoded = XMP.decode(Array(text.utf8))
        #expect(decoded.fix == nil)
        #expect(decoded.warnings == [.xmpNotWellFormed])
    }

    @Test(
        arguments: [
            (" +.5 ", 0.5), ("-12.", -12.0), ("52.5250816", 52.5250816), ("007", 7.0),
            ("1e3", nil), ("1.2.3", nil), ("-", nil), (".", nil), ("nan", nil), ("inf", nil), ("0x10", nil),
            ("1 2", nil), ("", nil),
        ] as [(String, Double?)])
    func decimalsArePlainSignedNumbersTrimmedOfSpaces(text: String, expected: Double?) {
        #expect(XMP.decimal(text) == expected)
    }

    @Test func aDecimalTooLargeForADoubleIsNotANumber() {
        #expect(XMP.decimal(String(repeating: "9", count: 400)) == nil)
    }

    @Test func aPacketWithoutGPSIsSilent() {
        let decoded = XMP.decode(
            Self.packet(#"xmp:Rating="5"/>"#, namespaces: #"xmlns:xmp="http://ns.adobe.com/xap/1.0/""#))
        #expect(decoded == GPSDecoding(fix: nil, warnings: []))
    }

    @Test func entitiesAndCDATAAreDecoded() {
        var tokenizer = XMLTokenizer(Array(#"<a v="&lt;&#65;&#x42;&amp;"><![CDATA[<raw>]]></a>"#.utf8))
        guard case .startTag("a", let attributes, false)? = tokenizer.next() else {
            Issue.record("no start tag")
            return
        }
        #expect(attributes.first?.1 == "<AB&")
        guard case .text(let text)? = tokenizer.next() else {
            Issue.record("no text after the start tag")
            return
        }
        #expect(text == Array("<raw>".utf8))
    }

    /// A packet with Photoshop's Pantry (the XMP of a placed image), a History entry and a
    /// Description about another resource, each with GPS of its own.
    static func layered(
        own: String, elsewhere: String = #"exif:GPSLatitude="10,0S" exif:GPSLongitude="20,0W""#
    )
        -> [UInt8]
    {
        Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
              xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#">
             <xmpMM:Pantry><rdf:Bag><rdf:li><rdf:Description \(elsewhere) xmpMM:InstanceID="xmp.iid:1"/></rdf:li></rdf:Bag></xmpMM:Pantry>
             <xmpMM:History><rdf:Seq><rdf:li rdf:parseType="Resource"><exif:GPSLatitude>30,0S</exif:GPSLatitude></rdf:li></rdf:Seq></xmpMM:History>
            </rdf:Description>
            <rdf:Description rdf:about="uuid:other" xmlns:exif="http://ns.adobe.com/exif/1.0/" \(elsewhere)/>
            <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" \(own)/>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    @Test func onlyTheResourcesOwnDescriptionsGiveThePosition() throws {
        // The photo's own GPS wins over the Pantry's, the History's and another resource's.
        let own = XMP.decode(Self.layered(own: #"exif:GPSLatitude="48,51.6N" exif:GPSLongitude="2,17.4E""#))
        #expect(own.fix?.latitude == 48.86)
        #expect(own.fix?.longitude == 2.29)
        // Without GPS of its own, the packet has none: nothing is taken from the others.
        let none = XMP.decode(Self.layered(own: #"exif:DateTimeOriginal="2019-07-01T12:00:00""#))
        #expect(none == GPSDecoding(fix: nil, warnings: []))
        // The sidecar reader (which reads dates too) follows the same rule.
        let sidecar = XMPSidecar.read(Self.layered(own: #"exif:GPSLatitude="48,51.6N" exif:GPSLongitude="2,17.4E""#))
        #expect(sidecar.fix?.latitude == 48.86)
    }

    @Test func bothCoordinatesComeFromOneDescription() throws {
        // The latitude in one Description and the longitude in another are no position: the
        // first with a coordinate is the position's, and it lacks the longitude.
        let split = XMP.decode(
            Self.layered(
                own: #"xmlns:e2="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.6N"/>"#
                    + #"<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLongitude="151,12E""#
            ))
        #expect(split.fix == nil)
        #expect(split.warnings.map(\.description) == ["XMP exif:GPSLongitude is missing"])
        // Two own Descriptions, the position in the second and a date in the first: both read.
        let two = XMPSidecar.read(
            Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2019-07-01T12:00:00"/>
                <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"><exif:GPSLatitude>1,30N</exif:GPSLatitude>
                <exif:GPSLongitude>2,0E</exif:GPSLongitude></rdf:Description>
                </rdf:RDF></x:xmpmeta>
                """.utf8))
        #expect(two.fix?.latitude == 1.5)
        #expect(two.camera?.dateTimeOriginal == "2019-07-01T12:00:00")
    }

    @Test func aDescriptionAboutTheFilesOwnURIIsRead() throws {
        let packet = Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="uuid:faf5bdd5-ba3d-11da-ad31-d33d75182f1b" xmlns:exif="http://ns.adobe.com/exif/1.0/"
              exif:GPSLatitude="12,0N" exif:GPSLongitude="13,0E"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
        #expect(XMP.decode(packet).fix?.latitude == 12)
    }

    @Test func aRepeatedAttributeIsNotWellFormed() {
        let decoded = XMP.decode(
            Self.packet(#"exif:GPSLatitude="48,51.6N" exif:GPSLatitude="10,0S" exif:GPSLongitude="2,17.4E"/>"#))
        #expect(decoded.fix == nil)
        #expect(decoded.warnings == [.xmpNotWellFormed])
    }
}
