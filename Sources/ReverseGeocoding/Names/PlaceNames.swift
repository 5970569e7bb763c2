import CGeoNamesData
import PhotoTagSupport

/// Names of places, admin-1 regions and countries in many languages, from a names table
/// (`PlaceNamesLayout.swift` gives its format) built by `phototag places import --names`:
/// GeoNames' alternate names of the larger places and of every admin-1 region, and Unicode CLDR's
/// subdivision and country names.
///
/// ``localized(_:)`` gives the names of one language (``LocalNames``), with its fallbacks worked
/// out once.
///
/// **Borrowed memory.** ``bundled`` reads the binary's static data; ``init(tableBytes:)`` keeps an
/// aligned copy for as long as the value (or a ``LocalNames`` made from it) lives. The table is
/// never written, so any number of threads may read it at once.
public struct PlaceNames: Sendable {
    // The bytes are immutable table memory: the binary's static data, or `owner`'s.
    // Guarded by ReverseGeocodingTests/PlaceNamesTests.namesAreReadTheSameOnManyThreads.
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer
    let layout: PlaceNamesLayout
    private let owner: AlignedTableBytes?
    nonisolated(unsafe) let pool: UnsafeStringPool

    /// The names table compiled into the binary (Sources/CGeoNamesData/names.table).
    public static let bundled: PlaceNames = {
        let bytes = UnsafeRawBufferPointer(start: CGeoNamesData_namesTable(), count: CGeoNamesData_namesTableSize())
        do {
            return try PlaceNames(bytes: bytes, owner: nil, name: "the bundled names table", checkingAll: false)
        } catch {
            // The build embeds a table that the test suite opens and checks in full.
            preconditionFailure("\(error)")
        }
    }()

    /// A names table from its bytes (as `phototag places import --names` writes them), checked in full: its header,
    /// its checksum, and every offset and string.
    public init(tableBytes: [UInt8]) throws(ReverseGeocodingError) {
        let owner = AlignedTableBytes(tableBytes)
        try self.init(bytes: owner.bytes, owner: owner, name: "the names table", checkingAll: true)
    }

    private init(
        bytes: UnsafeRawBufferPointer, owner: AlignedTableBytes?, name: String, checkingAll: Bool
    ) throws(ReverseGeocodingError) {
        func refuse(_ reason: String) -> ReverseGeocodingError { .notANamesTable(path: name, reason: reason) }
        let order = ByteOrder.littleEndian
        guard bytes.count >= PlaceNamesLayout.headerSize else { throw refuse("too short") }
        guard bytes.prefix(8).elementsEqual(PlaceNamesLayout.magic) else { throw refuse("wrong magic") }
        let version = order.read(UInt32.self, bytes, at: PlaceNamesHeader.version)
        guard version == PlaceNamesLayout.version else {
            throw refuse("version \(version), this phototag reads version \(PlaceNamesLayout.version)")
        }
        guard order.read(UInt32.self, bytes, at: PlaceNamesHeader.byteOrderMark) == PlaceNamesLayout.byteOrderMark
        else { throw refuse("wrong byte order") }
        func count(_ offset: Int) -> Int { Int(order.read(UInt32.self, bytes, at: offset)) }
        let layout = PlaceNamesLayout(
            languages: count(PlaceNamesHeader.languageCount), placeNames: count(PlaceNamesHeader.placeNameCount),
            regions: count(PlaceNamesHeader.regionCount), regionNames: count(PlaceNamesHeader.regionNameCount),
            countryNames: count(PlaceNamesHeader.countryNameCount), stringsSize: count(PlaceNamesHeader.stringsSize))
        guard layout.totalSize == bytes.count else {
            throw refuse("\(bytes.count) bytes where its header makes \(layout.totalSize)")
        }
        self.bytes = bytes
        self.layout = layout
        self.owner = owner
        pool = UnsafeStringPool(
            UnsafeRawBufferPointer(rebasing: bytes[layout.strings..<layout.strings + layout.stringsSize]))
        guard checkingAll else { return }
        let checksum = order.read(UInt64.self, bytes, at: PlaceNamesHeader.checksum)
        guard TableChecksum.of(bytes, header: PlaceNamesLayout.headerSize) == checksum else {
            throw refuse("its checksum does not match: the table is damaged")
        }
        if let problem = firstProblem() { throw refuse(problem) }
    }

    /// What is wrong with the table's contents, or `nil`: every string valid, the languages
    /// sorted and their names in range, each language's keys strictly ascending.
    func firstProblem() -> String? {
        guard pool.isValid else { return "a damaged string pool" }
        var previousTag: [UInt8]? = nil
        for language in 0..<layout.languageCount {
            guard let tag = pool.utf8(at: u32(layout.languages, 4 * language)) else {
                return "language \(language) has no tag"
            }
            if let previousTag, !previousTag.lexicographicallyPrecedes(tag) { return "languages out of order" }
            previousTag = Array(tag)
        }
        for kind in 1...3 {
            var previous = 0
            for language in 0...layout.languageCount {
                let start = Int(u32(layout.languages, 4 * language + kind))
                guard start >= previous else { return "names out of order" }
                previous = start
            }
            let total = [layout.placeNameCount, layout.regionNameCount, layout.countryNameCount][kind - 1]
            guard previous == total, u32(layout.languages, kind) == 0 else { return "names out of order" }
        }
        for index in 1..<max(1, layout.regionCount) where regionKey(index - 1) >= regionKey(index) {
            return "regions out of order"
        }
        for language in 0..<layout.languageCount {
            let ranges = self.ranges(language)
            for (section, range, keyOf) in [
                (layout.placeNames, ranges.places, { (at: Int) in UInt64(self.u32(at, 0)) }),
                (layout.regionNames, ranges.regions, { (at: Int) in UInt64(self.u32(at, 0)) }),
                (
                    layout.countryNames, ranges.countries,
                    { (at: Int) in UInt64(ByteOrder.littleEndian.load(UInt16.self, self.bytes, at: at)) }
                ),
            ] {
                var previous: UInt64? = nil
                for index in range {
                    let at = section + PlaceNamesLayout.nameStride * index
                    let key = keyOf(at)
                    if let previous, previous >= key { return "names of language \(language) out of order" }
                    previous = key
                    guard pool.utf8(at: u32(at, 1)) != nil else { return "a name without text" }
                }
            }
            for index in ranges.regions
            where Int(u32(layout.regionNames + PlaceNamesLayout.nameStride * index, 0)) >= layout.regionCount {
                return "a region name of no region"
            }
        }
        return nil
    }

    /// The language tags the table has names in, in BCP 47's form (`de`, `pt-BR`, `zh-Hant`).
    public var languages: [String] {
        (0..<layout.languageCount).map { pool.string(at: u32(layout.languages, 4 * $0)) ?? "" }
    }

    /// Where the names come from.
    public var source: String { pool.string(at: u32(PlaceNamesHeader.source, 0)) ?? "" }
    /// The date of the data (`2026-12-02`).
    public var date: String { pool.string(at: u32(PlaceNamesHeader.date, 0)) ?? "" }

    /// How many places have a name in some language.
    public var placeCount: Int { distinctKeys(layout.placeNames, layout.placeNameCount) { self.u32($0, 0) } }
    /// How many admin-1 regions have a name in some language.
    public var regionCount: Int { layout.regionCount }
    /// How many countries have a name in some language.
    public var countryCount: Int {
        distinctKeys(layout.countryNames, layout.countryNameCount) {
            UInt32(ByteOrder.littleEndian.load(UInt16.self, self.bytes, at: $0))
        }
    }

    private func distinctKeys(_ section: Int, _ count: Int, _ key: (Int) -> UInt32) -> Int {
        Set((0..<count).map { key(section + PlaceNamesLayout.nameStride * $0) }).count
    }

    /// The names in `language`, with its fallbacks (``NameLanguage/fallbacks``) found among the
    /// table's languages once.
    public func localized(_ language: NameLanguage) -> LocalNames {
        var order: [Int] = []
        for tag in language.fallbacks {
            let wanted = Array(tag.utf8)
            for index in 0..<layout.languageCount
            where pool.utf8(at: u32(layout.languages, 4 * index)).map({ $0.elementsEqual(wanted) }) == true {
                order.append(index)
            }
        }
        return LocalNames(names: self, language: language, languages: order)
    }

    // MARK: Reading

    @inline(__always)
    func u32(_ section: Int, _ index: Int) -> UInt32 {
        ByteOrder.littleEndian.load(UInt32.self, bytes, at: section + 4 * index)
    }

    /// The key of the region at `index`.
    @inline(__always)
    func regionKey(_ index: Int) -> (UInt64, UInt64) {
        let at = layout.regionKeys + PlaceNamesLayout.regionKeySize * index
        return (
            ByteOrder.bigEndian.load(UInt64.self, bytes, at: at),
            ByteOrder.bigEndian.load(UInt64.self, bytes, at: at + 8)
        )
    }

    /// The index of the region `admin1Code` of `countryCode`.
    @inline(__always)
    func regionIndex(_ countryCode: UnsafeRawBufferPointer, _ admin1Code: UnsafeRawBufferPointer) -> UInt32? {
        guard let key = PlaceNamesLayout.regionKey(countryCode, admin1Code) else { return nil }
        var (low, high) = (0, layout.regionCount)
        while low < high {
            let middle = (low + high) / 2
            if regionKey(middle) < key { low = middle + 1 } else { high = middle }
        }
        guard low < layout.regionCount, regionKey(low) == key else { return nil }
        return UInt32(low)
    }

    /// Where the names of the language at `index` are, of each kind.
    struct Ranges: Equatable {
        var places: Range<Int>
        var regions: Range<Int>
        var countries: Range<Int>
    }

    func ranges(_ language: Int) -> Ranges {
        func range(_ kind: Int) -> Range<Int> {
            Int(u32(layout.languages, 4 * language + kind))..<Int(u32(layout.languages, 4 * (language + 1) + kind))
        }
        return Ranges(places: range(1), regions: range(2), countries: range(3))
    }
}

/// The names of one language (``PlaceNames/localized(_:)``): each a name of the first of the
/// language's fallbacks that the table has, or `nil`, for the caller to keep the GeoNames name.
public struct LocalNames: Sendable, Equatable {
    /// The names table read.
    public let names: PlaceNames
    /// The language asked for.
    public let language: NameLanguage
    /// Where the names of each language of ``NameLanguage/fallbacks`` that the table has are,
    /// in their order.
    let ranges: [PlaceNames.Ranges]
    /// Each key's name in this language, chosen once (``Resolved``).
    private let resolved: Resolved

    init(names: PlaceNames, language: NameLanguage, languages: [Int]) {
        (self.names, self.language) = (names, language)
        ranges = languages.map(names.ranges)
        resolved = Resolved(names, ranges, tag: language.description)
    }

    /// The same language over the same table.
    public static func == (a: LocalNames, b: LocalNames) -> Bool {
        a.language == b.language && a.ranges == b.ranges && a.names.bytes.baseAddress == b.names.bytes.baseAddress
    }

    /// Each key's name in one language, the first of its fallbacks that has one, worked out when
    /// the language is chosen from the fallbacks' names alone (German's 9,400 names, well under a
    /// millisecond): so that a lookup is one search of one array, or one index, and one read of
    /// the name. A search in each fallback's names for each answer took `geocode --lang de-AT`
    /// of a million points 1.17 times the time without `--lang`.
    private final class Resolved: Sendable {
        /// Geonameids with a name, ascending, and their names' string offsets.
        let places: [UInt32]
        let placeNames: [UInt32]
        /// By region index, 0 for none.
        let regionNames: [UInt32]
        /// By the country code's letters (`26 * (first - A) + (second - A)`), 0 for none.
        let countryNames: [UInt32]
        /// The tag as UTF-8, which every answer borrows.
        let tag: AlignedTableBytes

        init(_ names: PlaceNames, _ ranges: [PlaceNames.Ranges], tag: String) {
            let layout = names.layout, stride = PlaceNamesLayout.nameStride
            var placeName: [UInt32: UInt32] = [:]
            var regionNames = [UInt32](repeating: 0, count: layout.regionCount)
            var countryNames = [UInt32](repeating: 0, count: 26 * 26)
            for range in ranges.reversed() {  // the first fallback's names last, over the others'
                for index in range.places {
                    let at = layout.placeNames + stride * index
                    placeName[names.u32(at, 0)] = names.u32(at, 1)
                }
                for index in range.regions {
                    let at = layout.regionNames + stride * index
                    regionNames[Int(names.u32(at, 0))] = names.u32(at, 1)
                }
                for index in range.countries {
                    let at = layout.countryNames + stride * index
                    let code = ByteOrder.littleEndian.load(UInt16.self, names.bytes, at: at)
                    let (first, second) = (Int(code >> 8) - 0x41, Int(code & 0xFF) - 0x41)
                    guard (0..<26).contains(first), (0..<26).contains(second) else { continue }
                    countryNames[26 * first + second] = names.u32(at, 1)
                }
            }
            places = placeName.keys.sorted()
            placeNames = places.map { placeName[$0]! }
            (self.regionNames, self.countryNames) = (regionNames, countryNames)
            self.tag = AlignedTableBytes(Array(tag.utf8))
        }
    }

    /// The name of the place `geonameId`, as UTF-8 borrowed from the table.
    @inline(__always)
    package func placeUTF8(_ geonameId: Int) -> UnsafeRawBufferPointer? {
        guard let key = UInt32(exactly: geonameId) else { return nil }
        let places = resolved.places
        var (low, high) = (0, places.count)
        while low < high {
            let middle = (low + high) / 2
            if places[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < places.count, places[low] == key else { return nil }
        return names.pool.utf8(at: resolved.placeNames[low])
    }

    /// The name of the admin-1 region `admin1Code` of `countryCode`, borrowed.
    @inline(__always)
    package func regionUTF8(
        _ countryCode: UnsafeRawBufferPointer, _ admin1Code: UnsafeRawBufferPointer
    )
        -> UnsafeRawBufferPointer?
    {
        guard !ranges.isEmpty, let index = names.regionIndex(countryCode, admin1Code) else { return nil }
        return names.pool.utf8(at: resolved.regionNames[Int(index)])
    }

    /// The name of the country `countryCode`, borrowed.
    @inline(__always)
    package func countryUTF8(_ countryCode: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard countryCode.count == 2 else { return nil }
        let (first, second) = (Int(countryCode[0]) - 0x41, Int(countryCode[1]) - 0x41)
        guard (0..<26).contains(first), (0..<26).contains(second) else { return nil }
        return names.pool.utf8(at: resolved.countryNames[26 * first + second])
    }

    /// The name of the place `geonameId` in this language (`München` in German for 2867714).
    public func placeName(geonameId: Int) -> String? { placeUTF8(geonameId).map(Self.string) }

    /// The name of an admin-1 region in this language (`Bayern` for `DE`, `02`).
    public func regionName(countryCode: String, admin1Code: String) -> String? {
        var (country, code) = (countryCode, admin1Code)
        return country.withUTF8 { country in
            code.withUTF8 { code in
                regionUTF8(UnsafeRawBufferPointer(country), UnsafeRawBufferPointer(code)).map(Self.string)
            }
        }
    }

    /// The name of a country in this language (`Deutschland` for `DE`).
    public func countryName(countryCode: String) -> String? {
        var code = countryCode
        return code.withUTF8 { countryUTF8(UnsafeRawBufferPointer($0)).map(Self.string) }
    }

    private static func string(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Gives `location` its ``UnsafeLocation/names`` in this language: the named place's, the
    /// city's, the point's region's and country's, each its GeoNames name where this language
    /// has none.
    @inline(__always)
    package func localize(_ location: inout UnsafeLocation) {
        var names = UnsafeLocation.Names(language: resolved.tag.bytes)
        if let nearest = location.nearest { names.place = placeUTF8(nearest.view.geonameId) ?? nearest.view.name }
        if let city = location.city {
            // Most often the named place itself.
            names.city =
                city.view.slot == location.nearest?.view.slot
                ? names.place : (placeUTF8(city.view.geonameId) ?? city.view.name)
        }
        names.admin1 = location.admin1
        names.country = location.country
        if var countryCode = location.countryCode {
            countryCode.withUTF8 { country in
                let country = UnsafeRawBufferPointer(country)
                names.country = countryUTF8(country) ?? location.country
                guard var admin1Code = location.admin1Code else { return }
                admin1Code.withUTF8 {
                    names.admin1 = regionUTF8(country, UnsafeRawBufferPointer($0)) ?? location.admin1
                }
            }
        }
        location.names = names
    }

    /// The names of a place's own region and country (the named place of a point at sea, whose
    /// answer has neither): each `nil` where this language has none.
    package func placeRegionAndCountry(
        _ view: PlaceView
    ) -> (admin1: UnsafeRawBufferPointer?, country: UnsafeRawBufferPointer?) {
        let country = view.countryCode
        return (view.admin1Code.flatMap { regionUTF8(country, $0) }, countryUTF8(country))
    }
}
