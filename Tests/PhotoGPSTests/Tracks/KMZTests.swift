import CZlib
import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// ZIP archives written for the KMZ tests: stored or deflated entries, with or without a data
/// descriptor or ZIP64 sizes, and a central directory.
enum KMZArchiveWriter {
    /// One entry of an archive, and how it is written.
    struct Entry {
        var name: String
        var data: [UInt8]
        var deflated = true
        /// Sizes and CRC after the data (flag bit 3), with or without the descriptor's signature.
        var descriptor = false
        var signedDescriptor = true
        /// Sizes in a ZIP64 extra field (0xFFFFFFFF in the header).
        var zip64 = false
        var flags: UInt16 = 0
        var method: UInt16?
        var crc: UInt32?
    }

    /// Raw deflate of `bytes` (no zlib header), as ZIP writes it.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        precondition(
            deflateInit2_(
                stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK)
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))) + 64)
        let written = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress
                stream.pointee.avail_in = uInt(inBuffer.count)
                stream.pointee.next_out = outBuffer.baseAddress
                stream.pointee.avail_out = uInt(outBuffer.count)
                precondition(CZlib.deflate(stream, Z_FINISH) == Z_STREAM_END)
                return outBuffer.count - Int(stream.pointee.avail_out)
            }
        }
        deflateEnd(stream)
        return Array(output.prefix(written))
    }

    /// The CRC-32 of `bytes`.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, $0.count) })
    }

    static func le(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// An archive of `entries`, in order, with its central directory.
    static func archive(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = [], central: [UInt8] = []
        for entry in entries {
            let data = entry.deflated ? deflate(entry.data) : entry.data
            let crc = entry.crc ?? Self.crc(entry.data)
            let name = Array(entry.name.utf8)
            let method = entry.method ?? (entry.deflated ? 8 : 0)
            let flags = entry.flags | (entry.descriptor ? 0x0008 : 0)
            let extra =
                entry.zip64 ? le(1, 2) + le(16, 2) + le(UInt64(entry.data.count), 8) + le(UInt64(data.count), 8) : []
            let sizes: [UInt8] =
                entry.descriptor
                ? le(0, 12)
                : le(UInt64(crc), 4)
                    + (entry.zip64
                        ? le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4)
                        : le(UInt64(data.count), 4) + le(UInt64(entry.data.count), 4))
            let offset = out.count
            out +=
                [0x50, 0x4B, 0x03, 0x04] + le(entry.zip64 ? 45 : 20, 2) + le(UInt64(flags), 2) + le(UInt64(method), 2)
            out += le(0, 4) + sizes + le(UInt64(name.count), 2) + le(UInt64(extra.count), 2) + name + extra + data
            if entry.descriptor {
                out += (entry.signedDescriptor ? [0x50, 0x4B, 0x07, 0x08] : []) + le(UInt64(crc), 4)
                out +=
                    entry.zip64
                    ? le(UInt64(data.count), 8) + le(UInt64(entry.data.count), 8)
                    : le(UInt64(data.count), 4) + le(UInt64(entry.data.count), 4)
            }
            central += [0x50, 0x4B, 0x01, 0x02] + le(20, 2) + le(20, 2) + le(UInt64(flags), 2) + le(UInt64(method), 2)
            central += le(0, 4) + le(UInt64(crc), 4) + le(UInt64(data.count), 4) + le(UInt64(entry.data.count), 4)
            central += le(UInt64(name.count), 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4)
            central += le(UInt64(offset), 4) + name
        }
        let start = out.count
        out += central
        out += [0x50, 0x4B, 0x05, 0x06] + le(0, 4) + le(UInt64(entries.count), 2) + le(UInt64(entries.count), 2)
        out += le(UInt64(central.count), 4) + le(UInt64(start), 4) + le(0, 2)
        return out
    }
}

/// The KMZ reader: the first `.kml` of the archive, stored or deflated, with or without a data
/// descriptor, read as KML; archives it cannot read refused with the reason.
@Suite struct KMZTests {
    static let kml = KMLTests.kml(
        """
        <Placemark><name>a zipped track</name><gx:Track>
        <when>2020-01-01T00:00:00Z</when><gx:coord>1.5 2.5 3</gx:coord>
        <when>2020-01-01T00:00:10Z</when><gx:coord>1.6 2.6 4</gx:coord>
        </gx:Track></Placemark>
        <Placemark><Point><coordinates>5,6</coordinates></Point></Placemark>
        """)
    static let document = Array(kml.utf8)

    /// What the KML reader reads from the document itself.
    static func expected() throws -> CollectingSink { try parseTrack(KMLParser(), document) }

    @Test func readsAStoredOrDeflatedKMLWithOrWithoutADataDescriptor() throws {
        let expected = try Self.expected()
        #expect(expected.fixes.count == 2 && expected.skipped.count == 1)
        let layouts: [KMZArchiveWriter.Entry] = [
            .init(name: "doc.kml", data: Self.document, deflated: false),
            .init(name: "doc.kml", data: Self.document),
            .init(name: "doc.kml", data: Self.document, descriptor: true),
            .init(name: "doc.kml", data: Self.document, descriptor: true, signedDescriptor: false),
            .init(name: "doc.kml", data: Self.document, zip64: true),
            .init(name: "doc.kml", data: Self.document, deflated: false, zip64: true),
            .init(name: "doc.kml", data: Self.document, descriptor: true, zip64: true),
        ]
        for entry in layouts {
            let read = try parseTrackInEveryChunking(KMZParser(), KMZArchiveWriter.archive([entry]))
            #expect(read.fixes == expected.fixes && read.skipped == expected.skipped, "\(entry)")
        }
    }

    @Test func skipsTheEntriesBeforeTheFirstKMLAndReadsNothingAfterIt() throws {
        let expected = try Self.expected()
        let picture = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let archive = KMZArchiveWriter.archive([
            .init(name: "files/", data: [], deflated: false),
            .init(name: "files/icon.png", data: picture, deflated: false),
            .init(name: "files/notes.txt", data: Array(String(repeating: "notes ", count: 900).utf8), descriptor: true),
            .init(name: "files/big.bin", data: picture, zip64: true),
            .init(name: "empty.txt", data: [], deflated: false),
            .init(name: "Tracks/Day One.KML", data: Self.document, descriptor: true),
            .init(name: "later.kml", data: Array("not even XML".utf8)),
        ])
        let read = try parseTrackInEveryChunking(KMZParser(), archive)
        #expect(read.fixes == expected.fixes && read.skipped == expected.skipped)
    }

    @Test func aCopyTakenWhileInflatingReadsOnByItself() throws {
        let expected = try Self.expected()
        let archive = KMZArchiveWriter.archive([.init(name: "doc.kml", data: Self.document)])
        /// Feeds `bytes` to `parser` in one chunk.
        func feed(_ parser: inout KMZParser, _ bytes: ArraySlice<UInt8>, _ sink: inout CollectingSink) throws {
            let result: Result<Void, TrackReadError> = bytes.withUnsafeBytes { chunk in
                do throws(TrackReadError) {
                    try parser.feed(chunk, into: &sink)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }
        var first = KMZParser()
        var sink = CollectingSink()
        try feed(&first, archive.prefix(100), &sink)
        // The copy shares the zlib stream until one of them inflates again.
        var second = first
        var secondSink = sink
        try feed(&first, archive.dropFirst(100), &sink)
        try first.finish(into: &sink)
        try feed(&second, archive.dropFirst(100), &secondSink)
        try second.finish(into: &secondSink)
        #expect(sink.fixes == expected.fixes && secondSink.fixes == expected.fixes)
    }

    @Test func refusesArchivesItCannotReadAndSaysWhy() throws {
        let document = Self.document
        var corrupt = KMZArchiveWriter.archive([.init(name: "doc.kml", data: document)])
        corrupt[60] ^= 0xFF
        corrupt[61] ^= 0xFF
        corrupt[62] ^= 0xFF
        let whole = KMZArchiveWriter.archive([.init(name: "doc.kml", data: document)])
        let cases: [([UInt8], String)] = [
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: document, flags: 1)]),
                "the KMZ's doc.kml is encrypted: it cannot be read"
            ),
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: document, method: 12)]),
                "the KMZ's doc.kml is compressed with ZIP method 12, not stored or deflated: it cannot be read"
            ),
            (
                KMZArchiveWriter.archive([
                    .init(name: "a.png", data: [1, 2, 3], deflated: false, descriptor: true),
                    .init(name: "doc.kml", data: document),
                ]),
                "the KMZ's a.png has its size after its data and is not deflated: "
                    + "the archive cannot be read as a stream"
            ),
            (KMZArchiveWriter.archive([.init(name: "doc.txt", data: document)]), "the KMZ archive has no .kml file"),
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: [], deflated: false)]),
                "the KMZ's doc.kml: not a KML file: the file is empty"
            ),
            (KMZArchiveWriter.archive([]), "the KMZ archive has no .kml file"),
            (
                KMZArchiveWriter.archive([.init(name: "a.txt", data: [1, 2], deflated: false)]).prefix(37) + [
                    0, 0, 0, 0,
                ],
                "the KMZ archive is corrupt: no ZIP local file header at byte 37"
            ),
            (Array(whole.prefix(37 + KMZArchiveWriter.deflate(document).count / 2)), "the KMZ's doc.kml is cut short"),
            (Array(whole.prefix(20)), "the KMZ archive is cut short (at byte 20)"),
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: document, crc: 1234)]),
                "the KMZ's doc.kml is corrupt: its CRC-32 does not match"
            ),
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: document, descriptor: true, crc: 1234)]),
                "the KMZ's doc.kml is corrupt: its CRC-32 does not match"
            ),
            (Array("<kml></kml>".utf8), "not a KMZ file: it does not start with a ZIP local file header"),
            ([], "not a KMZ file: the file is empty"),
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: Array("<gpx></gpx>".utf8))]),
                "the KMZ's doc.kml: not a KML file: the root element is <gpx>"
            ),
            (
                KMZArchiveWriter.archive([.init(name: "doc.kml", data: Array(Self.kml.prefix(300).utf8))]),
                "the KMZ's doc.kml: line 6: the file ends before </gx:coord> (opened on line 6): it is cut short"
            ),
        ]
        for (bytes, message) in cases {
            #expect(xmlTrackErrorInEveryChunking(KMZParser(), bytes) == TrackReadError(message), "\(message)")
        }
        let error = xmlTrackErrorInEveryChunking(KMZParser(), corrupt)
        #expect(error?.message.hasPrefix("the KMZ's doc.kml is corrupt: ") == true, "\(String(describing: error))")
        #expect(
            xmlTrackErrorInEveryChunking(KMZParser(inflatedLimit: 100), whole)
                == TrackReadError("the KMZ's doc.kml inflates to more than 100 bytes: too big to be a track"))
    }

    @Test func tellsAKMZByItsZIPHeader() {
        let archive = KMZArchiveWriter.archive([.init(name: "doc.kml", data: Self.document)])
        #expect(archive.withUnsafeBytes { KMZParser.matches(prefix: $0) })
        for bytes in [Array("<kml>".utf8), Array("<gpx>".utf8), [0x50, 0x4B, 0x05, 0x06], [0x50, 0x4B], []] {
            #expect(!bytes.withUnsafeBytes { KMZParser.matches(prefix: $0) })
        }
        #expect(!archive.withUnsafeBytes { GPXParser.matches(prefix: $0) || KMLParser.matches(prefix: $0) })
    }

    @Test(
        .enabled(if: XMLTrackCorpus.available, "the shared track corpus (../shared/corpus/tracks-dev) is not present"))
    func readsTheCorpusKMZ() throws {
        let file = "kmz__tika__testKMZ.kmz"
        let bytes = try XMLTrackCorpus.bytes(file)
        #expect(bytes.withUnsafeBytes { KMZParser.matches(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) })
        let read = try parseTrackInEveryChunking(KMZParser(), bytes)
        try XMLTrackCorpus.check(read.fixes, file: file)
        // Google's KML samples: 4 untimed Points and 6 LineStrings, no times.
        #expect(read.fixes.isEmpty && read.skipped.count == 10)
        #expect(read.skipped.first == "line 123: <Point> without <TimeStamp> or <TimeSpan> in its <Placemark>")
    }
}
