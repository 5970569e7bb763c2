import PhotoTagSupport

/// Builds a names table (``PlaceNamesLayout``) from the folder of name lists that
/// `phototag places import --names` reads (see docs/places.md, "Names in the reader's language"):
///
/// - `places.tsv`: `geonameid`, `lang`, `name`: GeoNames' alternate names of places;
/// - `admin1.tsv`: `admin1_code` (`CC.ADM1`), `lang`, `name`: GeoNames' names of admin-1 regions;
/// - `subdivisions.tsv`: `iso_3166_2`, `lang`, `name`: Unicode CLDR's subdivision names;
/// - `admin1-iso3166-2.tsv`: `admin1_code`, `iso_3166_2`: which CLDR subdivision a region is;
/// - `countries.tsv`: `country_code`, `lang`, `name`: CLDR's country names.
///
/// Each file is UTF-8, tab-separated, with one header line. Language tags are stored in BCP 47's
/// form (``NameLanguage/normalizedTag(_:)``: `pt_BR` is `pt-BR`, `sr@latin` is `sr-Latn`).
///
/// **Regions.** A region's name in a language is GeoNames' (keyed by the region's own code, so it
/// cannot be the wrong region's), else CLDR's subdivision name through the join. CLDR's names are
/// cleaned of what is not a name: a name that CLDR marks as shared with another subdivision
/// (`Valencia²`, `Дамаск²` for Quneitra) is left out, and a disambiguation in brackets at the
/// end is dropped (`Bungoma (カウンティ)` is `Bungoma`).
///
/// **Serbian in Latin.** Serbian is written in both scripts, letter for letter (Vuk's Cyrillic
/// and Gaj's Latin alphabets map one to one). Where a key has a Serbian name (`sr`, Cyrillic)
/// and no Latin one (`sr-Latn`), the Latin one is made from it (``serbianLatin(_:)``): GeoNames
/// has 6,840 Serbian place names and no Latin ones, so `--lang sr-Latn` would otherwise give
/// Cyrillic names of places next to Latin names of their countries.
///
/// The same folder gives the same bytes: every list is sorted before it is written.
package struct PlaceNamesBuilder {
    /// What the import read and left out.
    package struct Report: Sendable {
        package var placeNames = 0
        package var regionNames = 0
        package var subdivisionNames = 0
        package var countryNames = 0
        /// CLDR names left out as shared with another subdivision.
        package var sharedNamesLeftOut = 0
        /// CLDR names whose bracketed disambiguation was dropped.
        package var bracketsDropped = 0
        /// Rows that are not three tab-separated fields with a valid key.
        package var badRows = 0
        /// Rows repeating a key and language already read (the first is kept).
        package var repeatedRows = 0
        /// Serbian names written in Latin from their Cyrillic (``serbianLatin(_:)``).
        package var serbianLatinNames = 0
    }

    private var places: [UInt32: [String: String]] = [:]
    private var regions: [String: [String: String]] = [:]
    private var countries: [String: [String: String]] = [:]
    package private(set) var report = Report()
    let source: String
    let date: String

    /// Reads the name lists of `directory`.
    package init(directory: String, date: String) throws(ReverseGeocodingError) {
        self.date = date
        source = "GeoNames alternate names; Unicode CLDR subdivisions and territories"
        func rows(_ file: String, columns: Int = 3) throws(ReverseGeocodingError) -> [[Substring]] {
            let path = directory + "/" + file
            let bytes = try readWholeFile(path)
            guard bytes.withUnsafeBytes({ isValidUTF8($0) }) else { throw .cannotRead(path: path, reason: "not UTF-8") }
            let text = String(decoding: bytes, as: UTF8.self)
            var rows: [[Substring]] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: true).dropFirst() {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count == columns, fields.allSatisfy({ !$0.isEmpty }) {
                    rows.append(fields)
                } else {
                    report.badRows += 1
                }
            }
            return rows
        }
        func add(_ name: Substring, _ tag: Substring, to names: inout [String: String]) -> Bool {
            let tag = NameLanguage.normalizedTag(String(tag))
            guard names[tag] == nil else {
                report.repeatedRows += 1
                return false
            }
            names[tag] = String(name)
            return true
        }
        for row in try rows("places.tsv") {
            guard let id = UInt32(row[0]) else {
                report.badRows += 1
                continue
            }
            if add(row[2], row[1], to: &places[id, default: [:]]) { report.placeNames += 1 }
        }
        for row in try rows("admin1.tsv") {
            guard Self.isRegionKey(row[0]) else {
                report.badRows += 1
                continue
            }
            if add(row[2], row[1], to: &regions[String(row[0]), default: [:]]) { report.regionNames += 1 }
        }
        var subdivisionOf: [String: [String]] = [:]
        for row in try rows("admin1-iso3166-2.tsv", columns: 2) where Self.isRegionKey(row[0]) {
            subdivisionOf[String(row[1]), default: []].append(String(row[0]))
        }
        for row in try rows("subdivisions.tsv") {
            guard let codes = subdivisionOf[String(row[0])] else { continue }
            guard let name = cleanedSubdivisionName(row[2]) else { continue }
            for code in codes {
                // GeoNames' own name of the region comes first: a CLDR name only fills a language it lacks.
                let tag = NameLanguage.normalizedTag(String(row[1]))
                guard regions[code, default: [:]][tag] == nil else { continue }
                regions[code, default: [:]][tag] = name
                report.subdivisionNames += 1
            }
        }
        for row in try rows("countries.tsv") {
            guard row[0].count == 2, row[0].utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                report.badRows += 1
                continue
            }
            if add(row[2], row[1], to: &countries[String(row[0]), default: [:]]) { report.countryNames += 1 }
        }
        func addSerbianLatin<Key>(_ names: inout [Key: [String: String]]) {
            for key in Array(names.keys) {
                guard let cyrillic = names[key]!["sr"], names[key]!["sr-Latn"] == nil,
                    let latin = Self.serbianLatin(cyrillic)
                else { continue }
                names[key]!["sr-Latn"] = latin
                report.serbianLatinNames += 1
            }
        }
        addSerbianLatin(&places)
        addSerbianLatin(&regions)
        addSerbianLatin(&countries)
    }

    /// A Serbian name in Gaj's Latin alphabet from Vuk's Cyrillic, letter for letter (`Минхен`
    /// is `Minhen`, `Љубљана` is `Ljubljana`, `ЉУБЉАНА` is `LJUBLJANA`); `nil` for a name with a
    /// Cyrillic letter that is not Serbian's (a Russian `ы`), which is not Serbian.
    static func serbianLatin(_ name: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        var latin = ""
        for (index, scalar) in scalars.enumerated() {
            guard (0x0400...0x04FF).contains(scalar.value) else {
                latin.unicodeScalars.append(scalar)
                continue
            }
            guard let letters = serbianLetters[scalar] else { return nil }
            // A capital digraph (Љ, Њ, Џ) is all capitals before another capital.
            let nextIsCapital =
                index + 1 < scalars.count && serbianLetters[scalars[index + 1]].map { $0 != $0.lowercased() } == true
            latin += letters.count == 2 && nextIsCapital ? letters.uppercased() : letters
        }
        return latin
    }

    private static let serbianLetters: [Unicode.Scalar: String] = {
        let pairs = [
            ("А", "A"), ("Б", "B"), ("В", "V"), ("Г", "G"), ("Д", "D"), ("Ђ", "Đ"), ("Е", "E"), ("Ж", "Ž"), ("З", "Z"),
            ("И", "I"), ("Ј", "J"), ("К", "K"), ("Л", "L"), ("Љ", "Lj"), ("М", "M"), ("Н", "N"), ("Њ", "Nj"),
            ("О", "O"), ("П", "P"), ("Р", "R"), ("С", "S"), ("Т", "T"), ("Ћ", "Ć"), ("У", "U"), ("Ф", "F"),
            ("Х", "H"), ("Ц", "C"), ("Ч", "Č"), ("Џ", "Dž"), ("Ш", "Š"),
        ]
        var letters: [Unicode.Scalar: String] = [:]
        for (cyrillic, latin) in pairs {
            letters[cyrillic.unicodeScalars.first!] = latin
            letters[cyrillic.lowercased().unicodeScalars.first!] = latin.lowercased()
        }
        return letters
    }()

    /// `CC.ADM1`: a two-letter country code, a dot and a code.
    private static func isRegionKey(_ key: Substring) -> Bool {
        let bytes = Array(key.utf8)
        return bytes.count > 3 && bytes[2] == UInt8(ascii: ".")
            && bytes[0..<2].allSatisfy { (0x41...0x5A).contains($0) }
    }

    /// A CLDR subdivision name as a name: `nil` for one marked as shared (a superscript digit at
    /// the end), without a bracketed disambiguation at the end.
    private mutating func cleanedSubdivisionName(_ name: Substring) -> String? {
        if let last = name.unicodeScalars.last, "¹²³⁴⁵⁶⁷⁸⁹⁰".unicodeScalars.contains(last) {
            report.sharedNamesLeftOut += 1
            return nil
        }
        if name.hasSuffix(")"), let open = name.lastIndex(of: "("), open > name.startIndex,
            name[name.index(before: open)] == " "
        {
            report.bracketsDropped += 1
            return String(name[..<name.index(before: open)])
        }
        return String(name)
    }

    /// The table's bytes.
    package func build() throws(ReverseGeocodingError) -> [UInt8] {
        // By language: each language's names of each kind, by key.
        var placeNames: [String: [(UInt32, String)]] = [:]
        for (id, names) in places { for (tag, name) in names { placeNames[tag, default: []].append((id, name)) } }
        var keyed: [((UInt64, UInt64), String)] = []
        for code in regions.keys {
            let parts = code.split(separator: ".", maxSplits: 1).map { Array($0.utf8) }
            let key = parts[0].withUnsafeBytes { country in
                parts[1].withUnsafeBytes { PlaceNamesLayout.regionKey(country, $0) }
            }
            guard let key else { throw .tableTooLarge("the admin-1 code \(code), longer than 14 bytes") }
            keyed.append((key, code))
        }
        keyed.sort { $0.0 < $1.0 }
        var regionNames: [String: [(UInt32, String)]] = [:]
        for (index, (_, code)) in keyed.enumerated() {
            for (tag, name) in regions[code]! { regionNames[tag, default: []].append((UInt32(index), name)) }
        }
        var countryNames: [String: [(UInt32, String)]] = [:]
        for (code, names) in countries {
            let letters = Array(code.utf8)
            for (tag, name) in names {
                countryNames[tag, default: []].append((UInt32(letters[0]) << 8 | UInt32(letters[1]), name))
            }
        }
        let tags = Set(placeNames.keys).union(regionNames.keys).union(countryNames.keys).sorted {
            Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
        }

        var pool = StringPool<ReverseGeocodingError>(tooLarge: { .tableTooLarge($0) })
        let sourceOffset = try pool.add(source)
        let dateOffset = try pool.add(date)
        // The tags first, side by side, so that choosing a language reads a few pages, not one
        // page per language across the names.
        var tagOffsets: [UInt32] = []
        for tag in tags { tagOffsets.append(try pool.add(tag)) }
        var rows: [[UInt32]] = []
        var lists: [[(UInt32, UInt32)]] = [[], [], []]
        for (tag, offset) in zip(tags, tagOffsets) {
            rows.append([offset, UInt32(lists[0].count), UInt32(lists[1].count), UInt32(lists[2].count)])
            for (kind, names) in [placeNames[tag], regionNames[tag], countryNames[tag]].enumerated() {
                for (key, name) in (names ?? []).sorted(by: { $0.0 < $1.0 }) {
                    lists[kind].append((key, try pool.add(name)))
                }
            }
        }
        rows.append([0, UInt32(lists[0].count), UInt32(lists[1].count), UInt32(lists[2].count)])

        let layout = PlaceNamesLayout(
            languages: tags.count, placeNames: lists[0].count, regions: keyed.count, regionNames: lists[1].count,
            countryNames: lists[2].count, stringsSize: pool.bytes.count)
        var out = TableByteWriter(size: layout.totalSize)
        out.put(PlaceNamesLayout.magic, at: 0)
        out.put32(PlaceNamesLayout.version, at: PlaceNamesHeader.version)
        out.put32(UInt32(tags.count), at: PlaceNamesHeader.languageCount)
        out.put32(UInt32(lists[0].count), at: PlaceNamesHeader.placeNameCount)
        out.put32(UInt32(keyed.count), at: PlaceNamesHeader.regionCount)
        out.put32(UInt32(lists[1].count), at: PlaceNamesHeader.regionNameCount)
        out.put32(UInt32(lists[2].count), at: PlaceNamesHeader.countryNameCount)
        out.put32(UInt32(pool.bytes.count), at: PlaceNamesHeader.stringsSize)
        out.put32(sourceOffset, at: PlaceNamesHeader.source)
        out.put32(dateOffset, at: PlaceNamesHeader.date)
        out.put32(PlaceNamesLayout.byteOrderMark, at: PlaceNamesHeader.byteOrderMark)
        for (index, row) in rows.enumerated() {
            for (field, value) in row.enumerated() {
                out.put32(value, at: layout.languages + PlaceNamesLayout.languageStride * index + 4 * field)
            }
        }
        for (index, (key, _)) in keyed.enumerated() {
            let at = layout.regionKeys + PlaceNamesLayout.regionKeySize * index
            out.put64(key.0.byteSwapped, at: at)  // big-endian, so that the bytes sort as the key
            out.put64(key.1.byteSwapped, at: at + 8)
        }
        for (section, kind) in [(layout.placeNames, 0), (layout.regionNames, 1), (layout.countryNames, 2)] {
            for (index, (key, name)) in lists[kind].enumerated() {
                let at = section + PlaceNamesLayout.nameStride * index
                if kind == 2 { out.put16(UInt16(key), at: at) } else { out.put32(key, at: at) }
                out.put32(name, at: at + 4)
            }
        }
        out.put(pool.bytes, at: layout.strings)
        out.sealChecksum(header: PlaceNamesLayout.headerSize)
        return out.bytes
    }
}
