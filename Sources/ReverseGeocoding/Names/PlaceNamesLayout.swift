/// The binary names-table format shared by ``PlaceNamesBuilder`` (which writes it) and
/// ``PlaceNames`` (which reads it in place): the names of places, admin-1 regions and countries
/// in many languages, keyed as the place table keys them (a geonameid, `CC.ADM1`, `CC`).
///
/// The names are grouped by language, so that the names of a language and of its fallbacks are
/// a few small sorted arrays: a lookup is a binary search in each, and choosing a language costs
/// nothing (an earlier layout grouped them by key, and reading one key's entries cost several
/// cache misses per answer).
///
/// Layout (little-endian, every section starting on a 64-byte boundary):
///
/// | bytes | content |
/// |---|---|
/// | 64 | header: magic `PTGNAMES`, version, the counts of languages, place names, regions, region names and country names, the string-pool size, the source and date strings, the byte-order mark; in its last 8 bytes the checksum of the whole table (see ``TableChecksum``) |
/// | 16 (l + 1) | languages, sorted by their tags' bytes: the string offset of the tag in BCP 47's form (`de`, `pt-BR`, `zh-Hant`), and the index of the language's first place name, region name and country name (`UInt32`s); a last row with the counts |
/// | 16 r | regions: each key as 16 bytes, the country code's two letters, then the admin-1 code's bytes (at most 14), zero-padded: two big-endian `UInt64`s, ascending (``regionKey(_:_:)``) |
/// | 8 p | place names: geonameid and the name's string offset, by language, then geonameid |
/// | 8 q | region names: region index and string offset, by language, then region index |
/// | 8 c | country names: the code's two letters as a `UInt16` (first letter in the high byte), 2 bytes of padding and the string offset, by language, then code |
/// | s | string pool (see ``StringPool``) |
struct PlaceNamesLayout: Equatable {
    static let magic: [UInt8] = Array("PTGNAMES".utf8)
    static let version: UInt32 = 1
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerSize = 64
    /// Bytes of a language's row, and of a name of each kind.
    static let languageStride = 16
    static let nameStride = 8
    /// Bytes of a region's key: two `UInt64`s.
    static let regionKeySize = 16
    /// The longest admin-1 code a key holds.
    static let longestAdmin1Code = 14

    let languageCount: Int
    let placeNameCount: Int
    let regionCount: Int
    let regionNameCount: Int
    let countryNameCount: Int
    let stringsSize: Int

    let languages: Int
    let regionKeys: Int
    let placeNames: Int
    let regionNames: Int
    let countryNames: Int
    let strings: Int
    let totalSize: Int

    init(
        languages l: Int, placeNames p: Int, regions r: Int, regionNames q: Int, countryNames c: Int, stringsSize s: Int
    ) {
        (languageCount, placeNameCount, regionCount, regionNameCount, countryNameCount) = (l, p, r, q, c)
        stringsSize = s
        var offset = Self.headerSize
        func section(_ size: Int) -> Int {
            defer { offset = (offset + size + 63) & ~63 }
            return offset
        }
        languages = section(Self.languageStride * (l + 1))
        regionKeys = section(Self.regionKeySize * r)
        placeNames = section(Self.nameStride * p)
        regionNames = section(Self.nameStride * q)
        countryNames = section(Self.nameStride * c)
        strings = section(s)
        totalSize = offset
    }

    /// The key of the region `admin1Code` of `countryCode`, as two `UInt64`s whose order is the
    /// bytes' order; `nil` for a code the key cannot hold.
    @inline(__always)
    static func regionKey(
        _ countryCode: UnsafeRawBufferPointer, _ admin1Code: UnsafeRawBufferPointer
    ) -> (
        UInt64, UInt64
    )? {
        guard countryCode.count == 2, admin1Code.count <= longestAdmin1Code else { return nil }
        var high = UInt64(countryCode[0]) << 56 | UInt64(countryCode[1]) << 48
        var low: UInt64 = 0
        for (index, byte) in admin1Code.enumerated() {
            if index < 6 {
                high |= UInt64(byte) << (40 - 8 * index)
            } else {
                low |= UInt64(byte) << (56 - 8 * (index - 6))
            }
        }
        return (high, low)
    }

    /// A country code's two letters as the table keys them; `nil` for anything else.
    @inline(__always)
    static func countryKey(_ code: UnsafeRawBufferPointer) -> UInt16? {
        guard code.count == 2 else { return nil }
        return UInt16(code[0]) << 8 | UInt16(code[1])
    }
}

/// The header fields after the magic, in file order (byte offsets from the start of the file).
enum PlaceNamesHeader {
    static let version = 8
    static let languageCount = 12
    static let placeNameCount = 16
    static let regionCount = 20
    static let regionNameCount = 24
    static let countryNameCount = 28
    static let stringsSize = 32
    static let source = 36
    static let date = 40
    static let byteOrderMark = 44
    /// The table's checksum (`UInt64`; see ``TableChecksum``), the header's last 8 bytes.
    static let checksum = 56
}
