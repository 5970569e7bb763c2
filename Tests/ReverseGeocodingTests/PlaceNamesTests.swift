import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// Issue 27 §3: names in the reader's language: the tags people write, their fallbacks, the
/// bundled names table and its import.
@Suite struct PlaceNamesTests {
    // MARK: - Language tags

    @Test(arguments: [
        ("de", "de"), ("de-AT", "de-AT"), ("de_AT.UTF-8", "de-AT"), ("zh-Hant", "zh-Hant"), ("zh-TW", "zh-TW"),
        ("pt-BR", "pt-BR"), ("sr-Latn", "sr-Latn"), ("sr_RS@latin", "sr-Latn-RS"), ("PT_br", "pt-BR"),
        ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"), ("iw_IL.UTF-8", "he-IL"),
        ("ca-ES-valencia", "ca-ES"), ("de-DE-u-co-phonebk", "de-DE"), ("fr_FR.ISO-8859-1@euro", "fr-FR"),
    ])
    func aTagIsReadInEveryUsualForm(_ text: String, _ tag: String) {
        #expect(NameLanguage(text)?.description == tag)
    }

    @Test(arguments: [
        "", "C", "POSIX", "C.UTF-8", "d", "deutsch", "de-A", "de-Latn-Cyrl", "12", "de--AT", "de AT", "de-x",
    ])
    func whatIsNoLanguageIsRefused(_ text: String) {
        #expect(NameLanguage(text) == nil)
    }

    @Test(arguments: [
        ("de-AT", ["de-AT", "de"]),
        ("zh-TW", ["zh-Hant-TW", "zh-TW", "zh-Hant", "zh"]),
        ("zh-Hant", ["zh-Hant", "zh-TW", "zh"]),
        ("zh-CN", ["zh-Hans-CN", "zh-CN", "zh-Hans", "zh"]),
        ("sr-Latn", ["sr-Latn", "sr"]),
        ("es-MX", ["es-MX", "es-419", "es"]),
        ("nb", ["nb", "no"]),
        ("ja", ["ja"]),
    ])
    func eachTagFallsBackToItsLanguage(_ text: String, _ fallbacks: [String]) throws {
        #expect(try #require(NameLanguage(text)).fallbacks == fallbacks)
    }

    @Test func autoReadsTheLocaleAsTheCLibraryDoes() {
        let all = ["LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]
        #expect(NameLanguage.fromEnvironment(all).description == "ja-JP")
        #expect(NameLanguage.fromEnvironment(all.merging(["LC_ALL": ""]) { $1 }).description == "fr-FR")
        #expect(NameLanguage.fromEnvironment(["LANG": "de_DE.UTF-8"]).description == "de-DE")
        // No language named: English, the C locale's.
        for environment in [[:], ["LANG": "C.UTF-8"], ["LC_ALL": "POSIX", "LANG": "de_DE"]] {
            #expect(NameLanguage.fromEnvironment(environment) == .english, "\(environment)")
        }
    }

    // MARK: - The bundled table

    @Test func theBundledTableIsWholeAndChecksOut() throws {
        let names = PlaceNames.bundled
        #expect(names.firstProblem() == nil)
        let copy = try PlaceNames(tableBytes: Array(names.bytes))
        #expect(copy.placeCount == names.placeCount && names.placeCount == 24_309)
        #expect(names.regionCount >= 3_737 && names.countryCount == 246)
        #expect(names.languages.contains("pt-PT") && names.languages.contains("sr-Latn"))
        #expect(!names.languages.contains { $0.contains("_") || $0.contains("@") })
        #expect(names.bytes.count <= 12_000_000, "the issue allows 12 MB")
    }

    @Test func munichIsNamedInGermanAndJapanese() throws {
        let german = PlaceNames.bundled.localized(try #require(NameLanguage("de")))
        #expect(german.placeName(geonameId: 2_867_714) == "München")
        #expect(german.regionName(countryCode: "DE", admin1Code: "02") == "Bayern")
        #expect(german.countryName(countryCode: "DE") == "Deutschland")
        let japanese = PlaceNames.bundled.localized(try #require(NameLanguage("ja_JP.UTF-8")))
        #expect(japanese.placeName(geonameId: 2_867_714) == "ミュンヘン")
        #expect(japanese.regionName(countryCode: "DE", admin1Code: "02") == "バイエルン州")
        #expect(japanese.countryName(countryCode: "DE") == "ドイツ")
    }

    @Test func eachNameFallsBackThroughTheLocaleToTheLanguage() throws {
        // Swiss German has its own name for Brunei; for Germany it falls back to German's.
        let swiss = PlaceNames.bundled.localized(try #require(NameLanguage("de-CH")))
        #expect(swiss.countryName(countryCode: "BN") == "Brunei")
        #expect(swiss.countryName(countryCode: "DE") == "Deutschland")
        #expect(swiss.placeName(geonameId: 2_867_714) == "München")
        let german = PlaceNames.bundled.localized(try #require(NameLanguage("de")))
        #expect(german.countryName(countryCode: "BN") == "Brunei Darussalam")
        let brazilian = PlaceNames.bundled.localized(try #require(NameLanguage("pt-BR")))
        #expect(brazilian.placeName(geonameId: 2_867_714) == "Munique")
        // A language the table does not have at all: nothing, so the GeoNames name stays.
        let none = PlaceNames.bundled.localized(try #require(NameLanguage("xx")))
        #expect(none.placeName(geonameId: 2_867_714) == nil && none.countryName(countryCode: "DE") == nil)
        // A small place that no source translates (Großen Buseck, of cities500) has no name.
        #expect(german.placeName(geonameId: 2_916_650) == nil)
    }

    @Test func aRegionIsNamedByGeoNamesFirstThenByCLDR() throws {
        // GeoNames names Bavaria in Japanese バイエルン州; CLDR's バイエルン自由州 is not used.
        let japanese = PlaceNames.bundled.localized(try #require(NameLanguage("ja")))
        #expect(japanese.regionName(countryCode: "DE", admin1Code: "02") == "バイエルン州")
        // GeoNames names Mombasa County (KE.37) in English only: Japanese is CLDR's KE-28, whose
        // "モンバサ (カウンティ)" loses its bracketed disambiguation.
        #expect(japanese.regionName(countryCode: "KE", admin1Code: "37") == "モンバサ")
    }

    @Test func namesAreReadTheSameOnManyThreads() async throws {
        let german = PlaceNames.bundled.localized(try #require(NameLanguage("de")))
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { german.placeName(geonameId: 2_867_714) } }
            var all: [String?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results == Array(repeating: "München", count: 8))
    }

    // MARK: - The import

    /// A folder of name lists in the shape of ../shared/names, small.
    static func writeNameLists(to directory: String) throws {
        let files = [
            "places.tsv":
                "geonameid\tlang\tname\n100\tde\tHundert\n100\tpt_BR\tCem\n100\tsr\tСто\n100\tsr@latin\tSto\n"
                + "101\tsr\tДвеста\nx\tde\tbad\n",
            "admin1.tsv": "admin1_code\tlang\tname\nDE.02\tja\tバイエルン州\nDE.02\tde\tBayern\n",
            "subdivisions.tsv":
                "iso_3166_2\tlang\tname\nDE-BY\tde\tFreistaat Bayern\nDE-BY\tja\tバイエルン自由州\nDE-BY\tfr\tBavière (Land)\n"
                + "DE-BY\tnl\tBeieren²\nDE-BE\tde\tBerlin\n",
            "admin1-iso3166-2.tsv": "admin1_code\tiso_3166_2\nDE.02\tDE-BY\n",
            "countries.tsv": "country_code\tlang\tname\nDE\tde\tDeutschland\nDE\tde_AT\tDeutschland\nDE\tja\tドイツ\n",
        ]
        for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    }

    @Test func theImportCleansCLDRNamesAndIsReproducible() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeNameLists(to: directory)
        let builder = try PlaceNamesBuilder(directory: directory, date: "2026-12-02")
        let bytes = try builder.build()
        #expect(try PlaceNamesBuilder(directory: directory, date: "2026-12-02").build() == bytes)
        let report = builder.report
        #expect(report.placeNames == 5 && report.regionNames == 2 && report.countryNames == 3)
        #expect(report.serbianLatinNames == 1)
        #expect(report.subdivisionNames == 1 && report.sharedNamesLeftOut == 1 && report.bracketsDropped == 1)
        #expect(report.badRows == 1)
        let names = try PlaceNames(tableBytes: bytes)
        #expect(names.languages == ["de", "de-AT", "fr", "ja", "pt-BR", "sr", "sr-Latn"])
        #expect(names.date == "2026-12-02")
        func local(_ tag: String) throws -> LocalNames { names.localized(try #require(NameLanguage(tag))) }
        // GeoNames' own Latin name is kept; a Cyrillic one without it gets its Latin twin.
        #expect(try local("sr-Latn").placeName(geonameId: 100) == "Sto")
        #expect(try local("sr-Latn").placeName(geonameId: 101) == "Dvesta")
        #expect(try local("pt-BR").placeName(geonameId: 100) == "Cem")
        #expect(try local("pt").placeName(geonameId: 100) == nil)
        // GeoNames' own names first; CLDR's fill a language GeoNames lacks, without the brackets;
        // a shared name (Beieren²) is left out.
        #expect(try local("de").regionName(countryCode: "DE", admin1Code: "02") == "Bayern")
        #expect(try local("ja").regionName(countryCode: "DE", admin1Code: "02") == "バイエルン州")
        #expect(try local("fr").regionName(countryCode: "DE", admin1Code: "02") == "Bavière")
        #expect(try local("nl").regionName(countryCode: "DE", admin1Code: "02") == nil)
        // A subdivision no region is joined to is not imported.
        #expect(try local("de").regionName(countryCode: "DE", admin1Code: "16") == nil)
        #expect(try local("de-AT").countryName(countryCode: "DE") == "Deutschland")
        #expect(try local("ja").countryName(countryCode: "FR") == nil)
    }

    @Test func serbianIsWrittenInLatinLetterForLetter() {
        #expect(PlaceNamesBuilder.serbianLatin("Минхен") == "Minhen")
        #expect(PlaceNamesBuilder.serbianLatin("Љубљана") == "Ljubljana")
        #expect(PlaceNamesBuilder.serbianLatin("ЉУБЉАНА") == "LJUBLJANA")
        #expect(PlaceNamesBuilder.serbianLatin("Ђурђевац, Џеп") == "Đurđevac, Džep")
        #expect(PlaceNamesBuilder.serbianLatin("Teba") == "Teba")
        // Not Serbian: Russian's ы.
        #expect(PlaceNamesBuilder.serbianLatin("Мытищи") == nil)
        // In the bundled table, GeoNames' Serbian names of places have Latin twins.
        let latin = PlaceNames.bundled.localized(NameLanguage("sr-Latn")!)
        #expect(latin.placeName(geonameId: 2_867_714) == "Minhen")
    }

    @Test func aDamagedTableIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeNameLists(to: directory)
        var bytes = try PlaceNamesBuilder(directory: directory, date: "2026-12-02").build()
        bytes[bytes.count - 3] ^= 0x20
        #expect(throws: ReverseGeocodingError.self) { try PlaceNames(tableBytes: bytes) }
        #expect(throws: ReverseGeocodingError.self) { try PlaceNames(tableBytes: Array(bytes.prefix(100))) }
    }
}
