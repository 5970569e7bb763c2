import CExif
import PhotoTagSupport
import Testing

@testable import PhotoGPS

/// A source in memory that records every range read from it.
final class RecordingSource: ByteSource {
    let storage: [UInt8]
    private(set) var reads: [Range<Int>] = []

    init(_ storage: [UInt8]) { self.storage = storage }

    var count: Int { storage.count }

    func bytes(at offset: Int, length: Int) -> [UInt8] {
        let bytes = MemorySource(storage: storage).bytes(at: offset, length: length)
        reads.append(offset..<offset + bytes.count)
        return bytes
    }

    /// Whether any read touched `range`.
    func touched(_ range: Range<Int>) -> Bool { reads.contains { $0.overlaps(range) } }
}

/// TIFFReader and CompactTIFF (EXIF/TIFFReader.swift, CompactTIFF.swift) on TIFF structures written by hand.
@Suite struct TIFFCompactionTests {
    static let little = TIFFBytes(bigEndian: false)
    static let big = TIFFBytes(bigEndian: true)

    // MARK: TIFFReader

    @Test(
        arguments: [
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], false),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], true),
            ([0x49, 0x49, 0x52, 0x4F, 8, 0, 0, 0], false),  // Olympus ORF
            ([0x49, 0x49, 0x55, 0x00, 8, 0, 0, 0], false),  // Panasonic RW2
        ] as [([UInt8], Bool)])
    func theHeaderGivesTheByteOrderAndIFD0(header: [UInt8], bigEndian: Bool) throws {
        let reader = try TIFFReader(source: MemorySource(storage: header))
        #expect(reader.bigEndian == bigEndian)
        #expect(reader.firstIFD == 8)
    }

    @Test(
        arguments: [
            ([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0, 0, 0, 0, 0], PhotoGPSError.unsupportedFormat("BigTIFF")),
            ([0x49, 0x4D, 0x2A, 0x00, 8, 0, 0, 0], .malformedEXIF("no TIFF byte-order mark")),
            ([0x49, 0x49, 0x2C, 0x00, 8, 0, 0, 0], .malformedEXIF("TIFF magic number 44")),
            ([0x49, 0x49, 0x2A, 0x00, 8], .truncated("the file ends inside the TIFF header")),
        ] as [([UInt8], PhotoGPSError)])
    func aBadHeaderIsAnError(header: [UInt8], error: PhotoGPSError) {
        #expect(throws: error) { try TIFFReader(source: MemorySource(storage: header)) }
    }

    @Test(arguments: [false, true])
    func readIFDReadsInlineAndOutOfLineValuesInTheTIFFsOrder(bigEndian: Bool) throws {
        let tiff = TIFFBytes(bigEndian: bigEndian)
        let bytes = tiff.tiff(ifd0: [
            tiff.entry(ExifTag.make, .ascii, Array("Nikon".utf8).map(UInt32.init) + [0]),
            tiff.entry(0x0112, .short, [1]),
        ])
        let reader = try TIFFReader(source: MemorySource(storage: bytes))
        let entries = try #require(try reader.readIFD(at: reader.firstIFD))
        #expect(entries.map(\.tag) == [ExifTag.make, 0x0112])
        #expect(Array(entries[0].value) == Array("Nikon".utf8) + [0])
        #expect(entries[0].count == 6)
        #expect(Array(entries[1].value) == tiff.u16(1))
        #expect(entries[1].type == TIFFType.short.rawValue)
    }

    @Test func readIFDLeavesOutWhatItCannotOrNeedNotHold() throws {
        let tiff = Self.little
        var outside = tiff.entry(GPSTag.latitude, .rational, [1, 1, 2, 1, 3, 1])
        outside.offset = 0x7000
        let unknownType = TIFFBytes.Entry(tag: GPSTag.longitude, type: 14, count: 1, value: [0, 0, 0, 0])
        let large = TIFFBytes.Entry(
            tag: GPSTag.mapDatum, type: TIFFType.undefined.rawValue, count: 100,
            value: [UInt8](repeating: 7, count: 100))
        let kept = tiff.entry(GPSTag.altitudeRef, .byte, [1])
        let bytes = tiff.tiff(ifd0: [outside, unknownType, large, kept])
        let reader = try TIFFReader(source: MemorySource(storage: bytes))
        let entries = try #require(try reader.readIFD(at: reader.firstIFD, valueLimit: 64))
        #expect(entries.map(\.tag) == [GPSTag.altitudeRef])
        #expect(try reader.readIFD(at: 0) == nil)
        #expect(try reader.readIFD(at: 4) == nil)  // inside the header
        #expect(try reader.readIFD(at: UInt32(bytes.count)) == nil)
    }

    @Test func readIFDWithTagsNeverReadsTheValuesOfOthers() throws {
        let tiff = Self.big
        let makerNote = TIFFBytes.Entry(
            tag: 0x927C, type: TIFFType.undefined.rawValue, count: 4000, value: [UInt8](repeating: 0xAB, count: 4000))
        let bytes = tiff.tiff(ifd0: [tiff.entry(ExifTag.make, .ascii, [0x41, 0]), makerNote])
        let makerNoteStart = bytes.count - 4000
        let source = RecordingSource(bytes)
        let reader = try TIFFReader(source: source)
        let entries = try #require(try reader.readIFD(at: reader.firstIFD, keeping: [ExifTag.make]))
        #expect(entries.map(\.tag) == [ExifTag.make])
        #expect(!source.touched(makerNoteStart..<bytes.count))
        // Without a filter, the same IFD does read it.
        #expect(try reader.readIFD(at: reader.firstIFD)?.count == 2)
        #expect(source.touched(makerNoteStart..<bytes.count))
        // Compaction reads IFD0 with a filter: the maker note costs nothing.
        let compacting = RecordingSource(bytes)
        _ = try CompactTIFF.block(from: TIFFReader(source: compacting))
        #expect(!compacting.touched(makerNoteStart..<bytes.count))
    }

    @Test func lookupTellsAnAbsentTagFromAnIFDCutShort() throws {
        let tiff = Self.little
        let bytes = tiff.tiff(ifd0: [tiff.entry(ExifTag.make, .ascii, [0x41, 0])], gps: [])
        let reader = try TIFFReader(source: MemorySource(storage: bytes))
        guard case .found(let offset, let type, let count) = try reader.lookup(ExifTag.gpsIFDPointer, inIFDAt: 8) else {
            Issue.record("the GPS pointer is not found")
            return
        }
        #expect(type == TIFFType.long.rawValue && count == 1 && reader.contains(ifdAt: offset))
        #expect(try reader.lookup(ExifTag.model, inIFDAt: 8) == .absent)
        let cut = try TIFFReader(source: MemorySource(storage: Array(bytes.prefix(8 + 2 + 12))))
        #expect(try cut.lookup(ExifTag.gpsIFDPointer, inIFDAt: 8) == .cutShort)
        #expect(try cut.lookup(ExifTag.gpsIFDPointer, inIFDAt: 100) == .cutShort)
    }

    @Test func lookupReadsTheTableInChunksAcrossTheirBoundaries() throws {
        // 70 entries: the tag looked for is the 66th, past two whole chunks of 32.
        let tiff = Self.big
        let entries = (0..<70).map { index in
            tiff.entry(UInt16(0x1000 + index), .short, [UInt32(index)])
        }
        let bytes = tiff.tiff(ifd0: entries)
        let source = RecordingSource(bytes)
        let reader = try TIFFReader(source: source)
        let before = source.reads.count
        #expect(try reader.lookup(0x1000 + 65, inIFDAt: 8) == .found(65 << 16, type: TIFFType.short.rawValue, count: 1))
        // The count, then three chunks: not one read per entry.
        #expect(source.reads.count - before == 4)
        #expect(try reader.lookup(0x0FFF, inIFDAt: 8) == .absent)
        // Cut inside the third chunk: an entry before the cut is found, one after it is not there.
        let cut = try TIFFReader(source: MemorySource(storage: Array(bytes.prefix(8 + 2 + 12 * 66 + 5))))
        #expect(try cut.lookup(0x1000 + 65, inIFDAt: 8) == .found(65 << 16, type: TIFFType.short.rawValue, count: 1))
        #expect(try cut.lookup(0x1000 + 66, inIFDAt: 8) == .cutShort)
    }

    // MARK: CompactTIFF

    /// A TIFF with everything phototag reads and much that it does not.
    static func fullTIFF(_ tiff: TIFFBytes) -> [UInt8] {
        tiff.tiff(
            ifd0: [
                tiff.entry(ExifTag.make, .ascii, Array("Make".utf8).map(UInt32.init) + [0]),
                tiff.entry(ExifTag.model, .ascii, Array("Model X".utf8).map(UInt32.init) + [0]),
                tiff.entry(0x0131, .ascii, Array("Software".utf8).map(UInt32.init) + [0]),
                TIFFBytes.Entry(
                    tag: 0x927C, type: TIFFType.undefined.rawValue, count: 3000,
                    value: [UInt8](repeating: 1, count: 3000)),
            ],
            gps: [
                tiff.entry(GPSTag.versionID, .byte, [2, 3, 0, 0]),
                tiff.entry(GPSTag.latitudeRef, .ascii, [0x4E, 0]),
                tiff.entry(GPSTag.latitude, .rational, [48, 1, 51, 1, 2960, 100]),
                tiff.entry(0x001B, .undefined, [UInt32](repeating: 0x41, count: 12)),  // GPSProcessingMethod
                TIFFBytes.Entry(
                    tag: GPSTag.mapDatum, type: TIFFType.ascii.rawValue, count: 2000,
                    value: [UInt8](repeating: 0x41, count: 2000)),
            ])
    }

    @Test(arguments: [false, true])
    func theCompactBlockKeepsExactlyWhatIsReadInTheOriginalByteOrder(bigEndian: Bool) throws {
        let tiff = TIFFBytes(bigEndian: bigEndian)
        let original = Self.fullTIFF(tiff)
        let compact = try CompactTIFF.block(from: TIFFReader(source: MemorySource(storage: original)))
        #expect(compact.starts(with: GPSReader.exifIdentifier))
        #expect(compact.count < 200)
        let reader = try TIFFReader(source: MemorySource(storage: compact), base: 6)
        #expect(reader.bigEndian == bigEndian)
        let ifd0 = try #require(try reader.readIFD(at: reader.firstIFD))
        #expect(ifd0.map(\.tag) == [ExifTag.make, ExifTag.model, ExifTag.gpsIFDPointer])
        let gpsOffset = try #require(reader.pointer(ExifTag.gpsIFDPointer, in: ifd0))
        let gps = try #require(try reader.readIFD(at: gpsOffset))
        // GPSVersionID and GPSProcessingMethod are not read; a 2,000-byte GPSMapDatum is over the
        // value limit.
        #expect(gps.map(\.tag) == [GPSTag.latitudeRef, GPSTag.latitude])
        // libexif reads the same values from the compact block as from the original.
        let fromCompact = try ExifBlock(payload: compact)
        let fromOriginal = try ExifBlock(payload: GPSReader.exifIdentifier + original)
        #expect(fromCompact.gpsTags().latitude == fromOriginal.gpsTags().latitude)
        #expect(fromCompact.gpsTags().latitude != nil)
        #expect(fromCompact.camera() == fromOriginal.camera())
        #expect(fromCompact.camera().model == "Model X")
    }

    @Test func theEXIFIFDKeepsItsThreeCaptureTimeTags() throws {
        let tiff = Self.little
        let exif: [TIFFEntry] = [
            TIFFEntry(
                tag: ExifTag.dateTimeOriginal, type: TIFFType.ascii.rawValue, count: 20,
                value: EntryBytes(Array("2020:01:02 03:04:05".utf8) + [0])),
            TIFFEntry(
                tag: 0x829A, type: TIFFType.rational.rawValue, count: 1,
                value: EntryBytes(tiff.components(.long, [1, 250]))),
            TIFFEntry(
                tag: ExifTag.subSecTimeOriginal, type: TIFFType.ascii.rawValue, count: 3, value: [0x32, 0x34, 0]),
        ]
        let compact = CompactTIFF.build(bigEndian: false, ifd0: [], exif: exif, gps: .absent)
        let camera = try ExifBlock(payload: compact).camera()
        #expect(camera.dateTimeOriginal == "2020-01-02T03:04:05")
        #expect(camera.subSecTimeOriginal == "24")
        let reader = try TIFFReader(source: MemorySource(storage: compact), base: 6)
        let ifd0 = try #require(try reader.readIFD(at: reader.firstIFD))
        #expect(ifd0.map(\.tag) == [ExifTag.exifIFDPointer])
        let exifOffset = try #require(reader.pointer(ExifTag.exifIFDPointer, in: ifd0))
        let exifIFD = try #require(try reader.readIFD(at: exifOffset))
        #expect(exifIFD.map(\.tag) == [ExifTag.dateTimeOriginal, ExifTag.subSecTimeOriginal])
    }

    @Test func aBadGPSPointerIsKeptAsIsAndAnOutOfBoundsOneStaysOutside() throws {
        let bad = TIFFEntry(tag: ExifTag.gpsIFDPointer, type: TIFFType.short.rawValue, count: 2, value: [0, 1, 0, 2])
        let withBad = CompactTIFF.build(bigEndian: true, ifd0: [bad], exif: [], gps: .badPointer(bad))
        let badReader = try TIFFReader(source: MemorySource(storage: withBad), base: 6)
        #expect(
            try badReader.lookup(ExifTag.gpsIFDPointer, inIFDAt: badReader.firstIFD)
                == .found(0x0001_0002, type: TIFFType.short.rawValue, count: 2))

        let outside = CompactTIFF.build(bigEndian: true, ifd0: [], exif: [], gps: .outOfBounds)
        let reader = try TIFFReader(source: MemorySource(storage: outside), base: 6)
        guard case .found(let offset, _, _) = try reader.lookup(ExifTag.gpsIFDPointer, inIFDAt: reader.firstIFD) else {
            Issue.record("the GPS pointer is lost")
            return
        }
        #expect(!reader.contains(ifdAt: offset))
    }

    @Test func blockFromATIFFWithAGPSPointerOutsideIt() throws {
        let tiff = Self.little
        var bytes = tiff.tiff(ifd0: [tiff.entry(ExifTag.make, .ascii, [0x41, 0])], gps: [])
        // Point the GPS IFD past the end.
        let at = 8 + 2 + 12 + 8
        bytes.replaceSubrange(at..<at + 4, with: tiff.u32(0x10000))
        let compact = try CompactTIFF.block(from: TIFFReader(source: MemorySource(storage: bytes)))
        let reader = try TIFFReader(source: MemorySource(storage: compact), base: 6)
        guard case .found(let offset, _, _) = try reader.lookup(ExifTag.gpsIFDPointer, inIFDAt: reader.firstIFD) else {
            Issue.record("the GPS pointer is lost")
            return
        }
        #expect(offset == 0xFFFF_FFF0)
    }

    @Test func anIFD0OutsideTheTIFFIsAnError() {
        let header: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x00, 0x10, 0, 0]
        #expect(throws: PhotoGPSError.malformedEXIF("IFD0 offset 4096 is outside the TIFF")) {
            try CompactTIFF.block(from: TIFFReader(source: MemorySource(storage: header)))
        }
    }

    @Test func oddLengthValuesArePaddedSoTheNextOneStaysAligned() throws {
        let entries = [
            TIFFEntry(
                tag: ExifTag.make, type: TIFFType.ascii.rawValue, count: 5, value: EntryBytes(Array("Sony".utf8) + [0])),
            TIFFEntry(
                tag: ExifTag.model, type: TIFFType.ascii.rawValue, count: 7,
                value: EntryBytes(Array("ILCE-7".utf8) + [0])),
        ]
        let compact = CompactTIFF.build(bigEndian: false, ifd0: entries, exif: [], gps: .absent)
        let reader = try TIFFReader(source: MemorySource(storage: compact), base: 6)
        let table = Array(compact[(6 + 8 + 2)...])
        let makeOffset = ByteOrder.littleEndian.read(UInt32.self, table, at: 8)
        let modelOffset = ByteOrder.littleEndian.read(UInt32.self, table, at: 12 + 8)
        #expect(makeOffset % 2 == 0 && modelOffset == makeOffset + 6)
        #expect(try reader.readIFD(at: reader.firstIFD)?.map(\.value) == entries.map(\.value))
    }

    @Test func partsReadIntoReusedArraysAreThoseOfTheirOwnTIFFOnly() throws {
        let tiff = TIFFBytes(bigEndian: false)
        let make = TIFFBytes.Entry(
            tag: ExifTag.make, type: TIFFType.ascii.rawValue, count: 11, value: Array("Long Make!".utf8) + [0])
        let first = tiff.tiff(
            ifd0: [make],
            gps: [
                tiff.entry(GPSTag.latitudeRef, .ascii, [0x4E, 0]),
                tiff.entry(GPSTag.latitude, .rational, [1, 1, 2, 1, 3, 1]),
                tiff.entry(GPSTag.longitudeRef, .ascii, [0x45, 0]),
                tiff.entry(GPSTag.longitude, .rational, [4, 1, 5, 1, 6, 1]),
            ])
        let second = tiff.tiff(ifd0: [], gps: [tiff.entry(GPSTag.altitudeRef, .byte, [1])])
        let third = tiff.tiff(ifd0: [make])
        let arrays = EntryArrays()
        for bytes in [first, second, third, first, third, second] {
            let reader = try TIFFReader(source: MemorySource(storage: bytes))
            let fresh = try CompactTIFF.parts(from: reader)
            var reused = try CompactTIFF.parts(from: reader, reusing: arrays)
            #expect(reused.ifd0 == fresh.ifd0)
            #expect(reused.exif == fresh.exif)
            #expect(reused.block == fresh.block)
            reused.recycle(into: arrays)
            #expect(reused.ifd0.isEmpty && reused.exif.isEmpty)
        }
        // The arrays given back keep their room, and are empty when taken.
        let taken = arrays.take()
        #expect(taken.isEmpty && taken.capacity > 0)
    }

    @Test(arguments: [false, true])
    func entriesAreWrittenByTagAndRepeatedTagsInTheOrderRead(bigEndian: Bool) throws {
        let tiff = TIFFBytes(bigEndian: bigEndian)
        func ascii(_ tag: UInt16, _ text: String) -> TIFFEntry {
            let bytes = Array(text.utf8) + [0]
            return TIFFEntry(
                tag: tag, type: TIFFType.ascii.rawValue, count: UInt32(bytes.count), value: EntryBytes(bytes))
        }
        let ifd0 = [
            ascii(ExifTag.model, "Model 1"), ascii(0x0131, "Software"), ascii(ExifTag.make, "Make"),
            ascii(ExifTag.model, "Model 2"),
        ]
        let exif = [ascii(ExifTag.subSecTimeOriginal, "24"), ascii(ExifTag.dateTimeOriginal, "2020:01:02 03:04:05")]
        let latitude = TIFFEntry(
            tag: GPSTag.latitude, type: TIFFType.rational.rawValue, count: 3,
            value: EntryBytes(tiff.components(.long, [1, 1, 2, 1, 3, 1])))
        let tooLarge = TIFFEntry(
            tag: GPSTag.mapDatum, type: TIFFType.undefined.rawValue, count: 1025,
            value: EntryBytes([UInt8](repeating: 0x41, count: 1025)))
        let gps = [
            latitude, ascii(GPSTag.latitudeRef, "N"), tooLarge, ascii(GPSTag.latitudeRef, "S"),
            ascii(GPSTag.mapDatum, "WGS-84"),
        ]
        let compact = CompactTIFF.build(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: .entries(gps))
        let reader = try TIFFReader(source: MemorySource(storage: compact), base: 6)
        let readIFD0 = try #require(try reader.readIFD(at: reader.firstIFD))
        #expect(
            readIFD0.map(\.tag) == [
                ExifTag.make, ExifTag.model, ExifTag.model, ExifTag.exifIFDPointer, ExifTag.gpsIFDPointer,
            ])
        #expect(readIFD0[1].value == ifd0[0].value && readIFD0[2].value == ifd0[3].value)
        let exifOffset = try #require(reader.pointer(ExifTag.exifIFDPointer, in: readIFD0))
        let readExif = try #require(try reader.readIFD(at: exifOffset))
        #expect(readExif.map(\.value) == [exif[1].value, exif[0].value])
        let gpsOffset = try #require(reader.pointer(ExifTag.gpsIFDPointer, in: readIFD0))
        let readGPS = try #require(try reader.readIFD(at: gpsOffset))
        #expect(readGPS.map(\.tag) == [GPSTag.latitudeRef, GPSTag.latitudeRef, GPSTag.latitude, GPSTag.mapDatum])
        #expect(readGPS.map(\.value) == [gps[1].value, gps[3].value, gps[0].value, gps[4].value])
        // The block in temporary memory is the same as the array.
        let parts = CompactTIFF.Parts(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: .entries(gps))
        #expect(parts.withBlock { Array($0) } == compact)
    }

    // MARK: TagSet

    @Test func aTagSetHoldsLowTagsAsBitsAndOthersInOrder() {
        var tags: TagSet = [0x9291, 5, 0x0110, 63, 0, 0x8825, 64, 0x0110]
        #expect(tags.count == 7)
        for tag: UInt16 in [0, 5, 63, 64, 0x0110, 0x8825, 0x9291] { #expect(tags.contains(tag)) }
        for tag: UInt16 in [1, 62, 65, 0x010F, 0x9290, 0xFFFF] { #expect(!tags.contains(tag)) }
        var visited: [UInt16] = []
        tags.forEachAscending { visited.append($0) }
        #expect(visited == [0, 5, 63, 64, 0x0110, 0x8825, 0x9291])
        tags.insert(0x0100)
        let union = tags.union([1, 0x0100, 0xFFFF])
        visited = []
        union.forEachAscending { visited.append($0) }
        #expect(visited == [0, 1, 5, 63, 64, 0x0100, 0x0110, 0x8825, 0x9291, 0xFFFF])
        #expect(union == [0xFFFF, 0x9291, 0x8825, 0x0110, 0x0100, 64, 63, 5, 1, 0])
        #expect(union != tags)
        #expect(TagSet().isEmpty && !tags.isEmpty)
    }

    /// `contains` answers for every tag number as a Set does, for the sets the reader uses and
    /// for tags that share their low six bits (0x0110 and 0x9290 with 0x0150, 0x8825 with 0x0025).
    @Test func aTagSetContainsExactlyItsTags() {
        let sets: [[UInt16]] = [
            [ExifTag.make, ExifTag.model, ExifTag.exifIFDPointer, ExifTag.gpsIFDPointer],
            [ExifTag.dateTimeOriginal, ExifTag.offsetTimeOriginal, ExifTag.subSecTimeOriginal],
            [0x0110, 0x9290, 0x8825, 5, 0xFFFF],
            [0, 64, 0xFFC0],
        ]
        for list in sets {
            var tags = TagSet()
            for tag in list { tags.insert(tag) }
            let expected = Set(list)
            let wrong = (0...UInt16.max).filter { tags.contains($0) != expected.contains($0) }
            #expect(wrong.isEmpty, "\(list)")
        }
        let union = ([0x0110] as TagSet).union([0x0150, 0x0025])
        #expect(union.contains(0x0150) && union.contains(0x0025) && !union.contains(0x0190))
    }
}
