import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// The checksum of place and boundary tables (issue 26, item 14): XXH64 as its reference
/// vectors give it, and tables from outside the binary refused at open when any byte is damaged.
@Suite struct TableChecksumTests {
    static func xxh64(_ text: String, seed: UInt64 = 0) -> UInt64 {
        Array(text.utf8).withUnsafeBytes { TableChecksum.xxh64($0, seed: seed) }
    }

    /// Published XXH64 values, for every path of the algorithm: empty, under 4 bytes, 4 to 7,
    /// 8 to 31 with the tail steps, and 32 or more (the four lanes).
    @Test func xxh64GivesTheReferenceValues() {
        #expect(Self.xxh64("") == 0xEF46_DB37_51D8_E999)
        #expect(Self.xxh64("a") == 0xD24E_C4F1_A98C_6E5B)
        #expect(Self.xxh64("abc") == 0x44BC_2CF5_AD77_0999)
        #expect(Self.xxh64("foo") == 0x33BF_00A8_59C4_BA3F)
        #expect(Self.xxh64("abcd", seed: 0xABCD) == 0xE29F_70F8_B8C9_6DF7)
        #expect(Self.xxh64("xxhash") == 0x32DD_3895_2C4B_C720)
        #expect(Self.xxh64("abcdefghijklmnopqrstuvwxyz12345") == 0x4676_0590_1B01_D6F6)
        #expect(Self.xxh64("abcdefghijklmnopqrstuvwxyz12345", seed: 877_380_273) == 0x37B5_62EC_5715_E132)
        #expect(Self.xxh64("0123456789abcdefghijklmnopqrstuvwxyz") == 0x6919_6C1B_3AF0_BFF9)
    }

    /// `bytes` with its checksum written again: a crafted table, which the checks after the
    /// checksum must still keep from doing harm.
    static func resealed(_ bytes: [UInt8], header: Int) -> [UInt8] {
        var writer = TableByteWriter(size: 0)
        writer.bytes = bytes
        writer.sealChecksum(header: header)
        return writer.bytes
    }

    static let placeTable = try! PlaceTableBuilder(source: "s", date: "d").build(
        RandomPlaces.table(count: 300, seed: 11))

    static let damaged = ReverseGeocodingError.notAPlaceTable(
        path: "the place table", reason: "damaged: its checksum does not match")

    /// Issue 26's finding: 16 bytes of 0xFF in the k-d tree's boxes turned an answer 1.3 km
    /// away into one 79.5 km away, with no error. Refused now, and only by the checksum: the
    /// same bytes resealed open and answer.
    @Test func sixteenBytesOfFFInTheTreesBoxesAreRefused() throws {
        func u32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(Self.placeTable[offset + $1]) << (8 * $1) } }
        let layout = PlaceTableLayout(
            count: u32(PlaceTableHeader.count), regionCount: u32(PlaceTableHeader.regionCount),
            stringsSize: u32(PlaceTableHeader.stringsSize), nodeCount: u32(PlaceTableHeader.nodeCount))
        var bytes = Self.placeTable
        let at = layout.boxes + 32 * 2  // the root's first child
        bytes.replaceSubrange(at..<at + 16, with: repeatElement(0xFF, count: 16))
        #expect(throws: Self.damaged) { try ReverseGeocoder(tableBytes: bytes) }
        let resealed = Self.resealed(bytes, header: PlaceTableLayout.headerSize)
        #expect(throws: Never.self) { try ReverseGeocoder(tableBytes: resealed) }
        // From a file, as --places opens it: the same refusal, naming the file.
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/damaged.places"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: ReverseGeocodingError.notAPlaceTable(path: path, reason: "damaged: its checksum does not match")
        ) { try ReverseGeocoder(contentsOf: path) }
    }

    /// Damage of 1 to 16 bytes anywhere after the magic (an overwrite, flipped bits or a run of
    /// 0xFF or 0x00), in 200 seeded variants of each table: every one is refused.
    static func damagedVariants(of table: [UInt8], seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(state: seed)
        return (0..<200).map { variant in
            var bytes = table
            let count = Int.random(in: 1...16, using: &generator)
            let start = Int.random(in: 8..<(table.count - count), using: &generator)
            for index in start..<start + count {
                switch variant % 4 {
                case 0: bytes[index] = 0xFF
                case 1: bytes[index] = 0x00
                case 2: bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                default: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if bytes == table { bytes[start] ^= 0x80 }  // damage that happened to change nothing
            return bytes
        }
    }

    @Test func everyDamagedPlaceTableIsRefused() {
        let variants = Self.damagedVariants(of: Self.placeTable, seed: 26)
        let accepted = variants.filter { (try? ReverseGeocoder(tableBytes: $0)) != nil }
        #expect(accepted.isEmpty, "\(accepted.count) of \(variants.count) damaged tables accepted")
    }

    @Test func everyDamagedBoundaryTableIsRefused() {
        let variants = Self.damagedVariants(of: BoundaryTests.smallTable, seed: 14)
        let accepted = variants.filter { (try? BoundaryTable(tableBytes: $0)) != nil }
        #expect(accepted.isEmpty, "\(accepted.count) of \(variants.count) damaged tables accepted")
        var bytes = BoundaryTests.smallTable
        bytes[bytes.count / 2] ^= 1
        #expect(
            throws: BoundaryError.notABoundaryTable(
                path: "the boundary table", reason: "damaged: its checksum does not match")
        ) { try BoundaryTable(tableBytes: bytes) }
    }

    /// The bundled tables are opened without the check (they are part of the binary): their
    /// checksums are checked here.
    @Test func theBundledTablesChecksumsMatch() {
        #expect(UnsafePlaceTable.checksumMatches(ReverseGeocoder.bundled.table.bytes))
        #expect(UnsafeBoundaryTable.checksumMatches(BoundaryTable.bundled.view.bytes))
    }

    /// Building writes the checksum last: a table built twice is the same, and its checksum
    /// covers the header too (a changed count is refused as damage, before its layout is used).
    @Test func theChecksumCoversTheHeader() throws {
        var header = Self.placeTable
        header[PlaceTableHeader.leafSize] &+= 1
        #expect(throws: Self.damaged) { try ReverseGeocoder(tableBytes: header) }
        #expect(
            try PlaceTableBuilder(source: "s", date: "d").build(RandomPlaces.table(count: 300, seed: 11))
                == Self.placeTable)
    }
}
