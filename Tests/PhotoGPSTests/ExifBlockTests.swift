import CExif
import Testing

@testable import PhotoGPS

/// Small TIFF structures written by hand, entry by entry, in either byte order: what the container
/// parser tests feed to the code under test without any file.
struct TIFFBytes {
    /// One IFD entry: its value is written inline when it fits in 4 bytes, else after the IFDs,
    /// unless `offset` places it somewhere on purpose.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
        var offset: UInt32? = nil
    }

    let bigEndian: Bool

    func u16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let little = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        return bigEndian ? little.reversed() : little
    }

    /// Components of a numeric type, each written in the structure's byte order.
    func components(_ type: TIFFType, _ values: [UInt32]) -> [UInt8] {
        values.flatMap { value -> [UInt8] in
            switch type.size {
            case 1: [UInt8(truncatingIfNeeded: value)]
            case 2: u16(UInt16(truncatingIfNeeded: value))
            default: u32(value)
            }
        }
    }

    /// An entry of `type` from 1-, 2- or 4-byte numbers as the type's size says (a RATIONAL is
    /// two 4-byte numbers, a DOUBLE two 4-byte halves); the count follows from the bytes.
    func entry(_ tag: UInt16, _ type: TIFFType, _ values: [UInt32]) -> Entry {
        let value = components(type, values)
        return Entry(tag: tag, type: type.rawValue, count: UInt32(value.count / type.size), value: value)
    }

    /// A TIFF (header at 0) with IFD0 and, when given, a GPS IFD that IFD0 points to.
    func tiff(ifd0: [Entry], gps: [Entry]? = nil) -> [UInt8] {
        var ifd0 = ifd0
        if gps != nil {
            ifd0.append(Entry(tag: ExifTag.gpsIFDPointer, type: TIFFType.long.rawValue, count: 1, value: u32(0)))
        }
        var bytes = (bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]) + u32(8)
        let ifd0Start = bytes.count
        bytes += ifd(ifd0, at: ifd0Start)
        if let gps {
            let gpsStart = bytes.count
            bytes += ifd(gps, at: gpsStart)
            // Patch the GPS pointer, the last entry of IFD0.
            let at = ifd0Start + 2 + 12 * (ifd0.count - 1) + 8
            bytes.replaceSubrange(at..<at + 4, with: u32(UInt32(gpsStart)))
        }
        return bytes
    }

    /// `Exif\0\0` and a TIFF: an EXIF APP1 payload.
    func app1(ifd0: [Entry], gps: [Entry]? = nil) -> [UInt8] {
        Array("Exif".utf8) + [0, 0] + tiff(ifd0: ifd0, gps: gps)
    }

    /// One IFD starting at `start`, its out-of-line values right after it.
    private func ifd(_ entries: [Entry], at start: Int) -> [UInt8] {
        var table = u16(UInt16(entries.count))
        var data: [UInt8] = []
        let dataStart = start + 2 + 12 * entries.count + 4
        for entry in entries {
            table += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if let offset = entry.offset {
                table += u32(offset)
            } else if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += u32(UInt32(dataStart + data.count))
                data += entry.value
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return table + u32(0) + data
    }
}

/// The entries libexif decodes for the GPS policy (ExifBlock.swift): every TIFF type, both byte
/// orders, inline and out-of-line values, and entries libexif cannot hold.
@Suite struct ExifBlockTests {
    /// The GPS entry `GPSLatitude` of a block whose GPS IFD holds only `entry`.
    static func decode(_ entry: (TIFFBytes) -> TIFFBytes.Entry, bigEndian: Bool) throws -> ExifValue? {
        let tiff = TIFFBytes(bigEndian: bigEndian)
        let block = try ExifBlock(payload: tiff.app1(ifd0: [], gps: [entry(tiff)]))
        return block.value(GPSTag.latitude, in: EXIF_IFD_GPS)
    }

    static let cases: [(String, TIFFType, [UInt32], ExifValue)] = [
        ("BYTE", .byte, [1, 2, 255], .bytes([1, 2, 255])),
        ("SBYTE", .sbyte, [0xFF], .bytes([0xFF])),
        ("UNDEFINED, out of line", .undefined, [1, 2, 3, 4, 5], .bytes([1, 2, 3, 4, 5])),
        ("ASCII", .ascii, [0x4E, 0], .ascii([0x4E, 0])),
        ("SHORT, two inline", .short, [1, 65535], .integers([1, 65535])),
        ("SHORT, three out of line", .short, [7, 8, 9], .integers([7, 8, 9])),
        ("SSHORT", .sshort, [0xFFFF, 2], .integers([-1, 2])),
        ("LONG", .long, [4_294_967_295], .integers([4_294_967_295])),
        ("SLONG", .slong, [0xFFFF_FFFE, 3], .integers([-2, 3])),
        (
            "RATIONAL", .rational, [48, 1, 51, 1, 4_294_967_295, 100],
            .rationals([Rational(48, 1), Rational(51, 1), Rational(4_294_967_295, 100)])
        ),
        (
            "SRATIONAL", .srational, [0xFFFF_FFFF, 2, 3, 0xFFFF_FFFC],
            .signedRationals([Rational(-1, 2), Rational(3, -4)])
        ),
        ("FLOAT", .float, [0x3F80_0000], .other(type: 11, count: 1)),
        ("DOUBLE", .double, [0, 0x3FF0_0000], .other(type: 12, count: 1)),
    ]

    @Test(arguments: cases, [false, true])
    func everyTypeDecodesInBothByteOrders(
        _ kind: (name: String, type: TIFFType, values: [UInt32], expected: ExifValue), bigEndian: Bool
    ) throws {
        let value = try Self.decode({ $0.entry(GPSTag.latitude, kind.type, kind.values) }, bigEndian: bigEndian)
        #expect(value == kind.expected, "\(kind.name)")
    }

    /// `text(_:in:)` reads the entry's data in place exactly as `value(_:in:)?.text` reads the value.
    @Test(arguments: cases, [false, true])
    func textReadsAsTheValuesText(
        _ kind: (name: String, type: TIFFType, values: [UInt32], expected: ExifValue), bigEndian: Bool
    ) throws {
        let tiff = TIFFBytes(bigEndian: bigEndian)
        let block = try ExifBlock(
            payload: tiff.app1(ifd0: [], gps: [tiff.entry(GPSTag.latitude, kind.type, kind.values)]))
        #expect(
            block.text(GPSTag.latitude, in: EXIF_IFD_GPS) == block.value(GPSTag.latitude, in: EXIF_IFD_GPS)?.text,
            "\(kind.name)")
        #expect(block.text(GPSTag.longitude, in: EXIF_IFD_GPS) == nil)
    }

    @Test(arguments: [false, true])
    func theByteOrderIsTheBlocksOwn(bigEndian: Bool) throws {
        let tiff = TIFFBytes(bigEndian: bigEndian)
        // The same bytes, 01 02, read as a SHORT: 0x0102 in Motorola order, 0x0201 in Intel order.
        let entry = TIFFBytes.Entry(tag: GPSTag.altitudeRef, type: TIFFType.short.rawValue, count: 1, value: [1, 2])
        let block = try ExifBlock(payload: tiff.app1(ifd0: [], gps: [entry]))
        #expect(block.value(GPSTag.altitudeRef, in: EXIF_IFD_GPS) == .integers([bigEndian ? 0x0102 : 0x0201]))
    }

    @Test func anEntryWhoseValueLiesOutsideTheBlockIsAbsentAndTheOthersRemain() throws {
        let tiff = TIFFBytes(bigEndian: false)
        var outside = tiff.entry(GPSTag.latitude, .rational, [48, 1, 51, 1, 0, 1])
        outside.offset = 0xFFF0
        let reference = tiff.entry(GPSTag.latitudeRef, .ascii, [0x4E, 0])
        let block = try ExifBlock(payload: tiff.app1(ifd0: [], gps: [reference, outside]))
        #expect(block.value(GPSTag.latitude, in: EXIF_IFD_GPS) == nil)
        #expect(block.value(GPSTag.latitudeRef, in: EXIF_IFD_GPS) == .ascii([0x4E, 0]))
    }

    @Test func aCountLargerThanTheBlockIsAbsent() throws {
        let tiff = TIFFBytes(bigEndian: true)
        var entry = tiff.entry(GPSTag.longitude, .rational, [2, 1, 17, 1, 40, 1])
        entry.count = 1_000_000
        let block = try ExifBlock(payload: tiff.app1(ifd0: [], gps: [entry]))
        #expect(block.value(GPSTag.longitude, in: EXIF_IFD_GPS) == nil)
    }

    @Test func anEmptyCountIsNoEntry() throws {
        let value = try Self.decode({ $0.entry(GPSTag.latitude, .rational, []) }, bigEndian: false)
        #expect(value == nil)
    }

    @Test func gpsTagsAndCameraReadTheirIFDs() throws {
        let tiff = TIFFBytes(bigEndian: true)
        let block = try ExifBlock(
            payload: tiff.app1(
                ifd0: [
                    TIFFBytes.Entry(
                        tag: ExifTag.make, type: TIFFType.ascii.rawValue, count: 8, value: Array("Canon  ".utf8) + [0]
                    )
                ],
                gps: [
                    tiff.entry(GPSTag.latitudeRef, .ascii, [0x53, 0]),
                    tiff.entry(GPSTag.latitude, .rational, [33, 1, 51, 1, 54, 1]),
                ]))
        let tags = block.gpsTags()
        #expect(tags.latitudeRef?.text == "S")
        #expect(tags.latitude == .rationals([Rational(33, 1), Rational(51, 1), Rational(54, 1)]))
        #expect(tags.longitude == nil)
        #expect(block.camera().make == "Canon")
        #expect(block.camera().model == nil)
    }

    @Test(
        arguments: [
            (Array("2019:07:01 14:34:56".utf8) + [0], "2019-07-01T14:34:56"),
            (Array("2019:07:01 14:34:56   ".utf8) + [0, 0x41], "2019-07-01T14:34:56"),
            (Array("2019:07:01T14:34:56+02:00".utf8), "2019-07-01T14:34:56"),
            (Array("2019:07:01 14:34:5".utf8) + [0xFF, 0], nil),
            ([0xC3] + Array("019:07:01 14:34:56".utf8) + [0], nil),
            (Array("2019:07:01 14:34:56".utf8) + [0xFF, 0xFE], "2019-07-01T14:34:56"),
            (Array("2019:02:30 14:34:56".utf8) + [0], nil),
            (Array("0000:00:00 00:00:00".utf8) + [0], nil),
            (Array("    :  :     :  :  ".utf8) + [0], nil),
            (Array("2019:07:01 14:34".utf8) + [0, 0x35, 0x36, 0x37], nil),
        ] as [([UInt8], String?)])
    func dateTimeOriginalIsTheISOFormOfTheTextTheEntryHolds(bytes: [UInt8], expected: String?) throws {
        let date = TIFFEntry(
            tag: ExifTag.dateTimeOriginal, type: TIFFType.ascii.rawValue, count: UInt32(bytes.count),
            value: EntryBytes(bytes))
        let block = try ExifBlock(payload: CompactTIFF.build(bigEndian: false, ifd0: [], exif: [date], gps: .absent))
        let stored = block.text(ExifTag.dateTimeOriginal, in: EXIF_IFD_EXIF)
        let text = try #require(stored)
        #expect(block.camera().dateTimeOriginal == expected)
        #expect(CameraInfo(dateTimeOriginal: text).dateTimeOriginal == expected)
    }

    /// A block with a Make and a GPS latitude of `degrees`, and a value of `padding` bytes that
    /// makes libexif allocate that much more.
    static func arenaBlock(degrees: UInt32, padding: Int = 0) -> [UInt8] {
        let tiff = TIFFBytes(bigEndian: false)
        var gps = [tiff.entry(GPSTag.latitude, .rational, [degrees, 1, 30, 1, 0, 1])]
        if padding > 0 {
            gps.append(
                TIFFBytes.Entry(
                    tag: GPSTag.mapDatum, type: TIFFType.ascii.rawValue, count: UInt32(padding),
                    value: [UInt8](repeating: 0x57, count: padding - 1) + [0]))
        }
        return tiff.app1(
            ifd0: [
                TIFFBytes.Entry(
                    tag: ExifTag.make, type: TIFFType.ascii.rawValue, count: 4, value: Array("Abc".utf8) + [0])
            ],
            gps: gps)
    }

    @Test func libexifAllocatesFromTheThreadsArenaWhichStopsGrowing() throws {
        // No suspension point: every block is loaded on this one thread, from its arena.
        var capacities: [Int] = []
        for round in 0..<50 {
            let block = try ExifBlock(payload: Self.arenaBlock(degrees: UInt32(round), padding: 3000))
            #expect(
                block.value(GPSTag.latitude, in: EXIF_IFD_GPS)
                    == .rationals([Rational(Int64(round), 1), Rational(30, 1), Rational(0, 1)]))
            #expect(block.gpsTags().mapDatum?.text?.count == 2999)
            capacities.append(ExifBlock.threadArenaCapacity)
        }
        // The arena exists, holds a whole block, and never grows again (the first block of a
        // thread may come from malloc and size it).
        #expect(capacities[1] >= 3000)
        #expect(Set(capacities.dropFirst()).count == 1, "the arena grew in the steady state: \(capacities)")
    }

    @Test func aBlockStaysWholeWhileAnotherIsLoadedAndReleasedOnTheSameThread() throws {
        let outer = try ExifBlock(payload: Self.arenaBlock(degrees: 10))
        for round in 0..<3 {
            // Blocks nearly as large as libexif takes (64 KiB): released while `outer` lives, they
            // must not empty the arena under it.
            let inner = try ExifBlock(payload: Self.arenaBlock(degrees: 20 + UInt32(round), padding: 60_000))
            #expect(inner.gpsTags().mapDatum?.text?.count == 59_999)
        }
        #expect(
            outer.value(GPSTag.latitude, in: EXIF_IFD_GPS)
                == .rationals([Rational(10, 1), Rational(30, 1), Rational(0, 1)]))
        #expect(outer.camera().make == "Abc")
    }

    @Test func blocksOnManyThreadsAtOnceReadTheirOwnValues() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<40 {
                        let degrees = UInt32(worker * 10 + round % 10)
                        let block = try ExifBlock(payload: Self.arenaBlock(degrees: degrees, padding: round * 50))
                        guard
                            block.value(GPSTag.latitude, in: EXIF_IFD_GPS)
                                == .rationals([Rational(Int64(degrees), 1), Rational(30, 1), Rational(0, 1)])
                        else { return false }
                    }
                    return true
                }
            }
            for try await good in group { #expect(good) }
        }
    }

    @Test func aBlockThatIsNotTIFFHasNoEntries() throws {
        let block = try ExifBlock(payload: Array("Exif".utf8) + [0, 0] + Array("not a TIFF at all".utf8))
        #expect(block.gpsTags() == GPSTags())
        #expect(block.camera().isEmpty)
    }
}
