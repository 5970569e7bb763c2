import Foundation
import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Issue 27 §3: `--lang`, names in the reader's language, in every format, through the CLI as a
/// user runs it.
@Suite struct LanguageTests {
    static let munich = "48.1374,11.5755"

    static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:]
    )
        -> GeocodeInputTests.Run
    {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(
            arguments, input: MemoryInput(input), output: output, errors: errors,
            environment: Environment(environment))
        return GeocodeInputTests.Run(status: status, output: output.text, errors: errors.text)
    }

    /// The text after the coordinates of `geocode POINT` with `options`.
    static func text(_ point: String, _ options: [String], environment: [String: String] = [:]) -> String {
        let run = run(["geocode"] + options, input: point + "\n", environment: environment)
        #expect(run.status == 0 && run.errors == "", "\(run.errors)")
        return String((run.output.split(separator: "\n").first ?? "").dropFirst(25))
    }

    @Test(arguments: [
        ([], "Munich, Bayern, DE — 0.0 km"),
        (["--lang", "de"], "München, Bayern, Deutschland — 0.0 km"),
        (["--lang", "ja"], "ミュンヘン, バイエルン州, ドイツ — 0.0 km"),
        (["--lang=pt-BR"], "Munique, Baviera, Alemanha — 0.0 km"),
        (["--lang", "sr-Latn"], "Minhen, Bavarska, Nemačka — 0.0 km"),
        // The locale falls back to its language, field by field.
        (["--lang", "de_AT.UTF-8"], "München, Bayern, Deutschland — 0.0 km"),
        // A language no source has: every name is GeoNames', and the country is named.
        (["--lang", "xx"], "Munich, Bayern, Germany — 0.0 km"),
    ])
    func munichIsNamedInTheReadersLanguage(_ options: [String], _ expected: String) {
        #expect(Self.text(Self.munich, options) == expected)
    }

    @Test func aPlaceNoSourceTranslatesKeepsItsGeoNamesName() {
        // Großen Buseck has no German name of its own; its region and country do.
        #expect(Self.text("50.5826,8.7675", ["--lang", "de"]) == "Großen Buseck, Hessen, Deutschland — 2.8 km SW")
    }

    @Test func aSectionAndItsCityAreBothNamedInTheLanguage() {
        // Hatert has no Japanese name (its GeoNames name stays); its city Nijmegen has one.
        #expect(Self.text("51.81126,5.79792", ["--lang", "ja"]) == "Hatert, ナイメーヘン, ヘルダーラント州, オランダ — 2.3 km W")
    }

    @Test func atSeaTheNearestPlaceIsNamedInTheLanguage() {
        #expect(
            Self.text("50.2,-1.5", ["--lang", "de"])
                == "English Channel — nearest place Niton, England, Vereinigtes Königreich, 45.7 km S")
    }

    @Test func nearbyPlacesAreNamedInTheLanguageToo() {
        let run = Self.run(["geocode", "--lang", "de", "--nearest", "3"], input: Self.munich + "\n")
        let lines = run.output.split(separator: "\n")
        #expect(run.status == 0 && lines.count == 3, "\(run.output)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  also ") && $0.contains(", Bayern, Deutschland — ") })
    }

    @Test func autoReadsTheLocale() {
        #expect(Self.text(Self.munich, ["--lang", "auto"], environment: ["LANG": "ja_JP.UTF-8"]).hasPrefix("ミュンヘン"))
        #expect(
            Self.text(Self.munich, ["--lang", "auto"], environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP"])
                .hasPrefix("München"))
        // The C locale is English.
        #expect(Self.text(Self.munich, ["--lang", "auto"], environment: ["LANG": "C.UTF-8"]).hasPrefix("Munich"))
    }

    @Test func jsonGainsTheNamesAndKeepsGeoNamesFields() throws {
        for format in ["json", "ndjson"] {
            let run = Self.run(["geocode", "--lang", "ja", "--format", format], input: Self.munich + "\n")
            let data = Data(run.output.utf8)
            let object = try JSONSerialization.jsonObject(with: data)
            let record = try #require(((object as? [Any])?.first ?? object) as? [String: Any])
            let place = try #require(record["place"] as? [String: Any])
            #expect(place["name"] as? String == "Munich" && place["country"] as? String == "Germany")
            let names = try #require(place["names"] as? [String: String])
            #expect(
                names == ["lang": "ja", "place": "ミュンヘン", "city": "ミュンヘン", "admin1": "バイエルン州", "country": "ドイツ"])
        }
        // Without --lang, no names.
        let plain = Self.run(["geocode", "--format", "ndjson"], input: Self.munich + "\n")
        #expect(!plain.output.contains("\"names\""))
    }

    @Test func theFlatFormatsGainLocalColumns() throws {
        let csv = Self.run(["geocode", "--lang", "de", "--format", "csv"], input: Self.munich + "\n1,\n")
        let rows = try parseCSV(csv.output)
        let header = rows[0]
        let local = [
            "place_local_lang", "place_name_local", "place_city_name_local", "place_admin1_local",
            "place_country_local",
        ]
        let start = try #require(header.firstIndex(of: "place_local_lang"))
        #expect(Array(header[start..<start + 5]) == local)
        #expect(Array(rows[1][start..<start + 5]) == ["de", "München", "München", "Bayern", "Deutschland"])
        // A row without a place has the columns too, empty.
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == header.count })
        #expect(Array(rows[2][start..<start + 5]) == ["", "", "", "", ""])
        #expect(!Self.run(["geocode", "--format", "csv"], input: Self.munich + "\n").output.contains("_local"))

        let geojson = Self.run(["geocode", "--lang", "de", "--format", "geojson"], input: Self.munich + "\n")
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(geojson.output.utf8)) as? [String: Any])
        let feature = try #require((collection["features"] as? [[String: Any]])?.first)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["place_name_local"] as? String == "München")
        #expect(properties["place_country_local"] as? String == "Deutschland")
    }

    @Test func locateAndScanTakeTheLanguageToo() throws {
        let photo = Fixtures.photo("ne-little-endian.jpg")
        let located = Self.run(["locate", "--lang", "de", photo])
        #expect(
            located.status == 0
                && located.output.hasSuffix("Paris 16 Passy, Paris, Île-de-France, Frankreich — 1.4 km SE\n"))
        let scanned = Self.run(["scan", "--lang", "ja", "--format", "ndjson", photo])
        #expect(scanned.output.contains("\"country\":\"フランス\""), "\(scanned.output)")
    }

    @Test(arguments: [
        (
            ["--lang", "deutsch"],
            "option '--lang' needs a language tag such as de, de-AT, zh-Hant or auto, not 'deutsch'"
        ),
        (["--lang", "de", "--no-place"], "'--no-place' and '--lang' exclude each other"),
    ])
    func aBadLanguageIsAUsageError(_ options: [String], _ message: String) {
        let run = Self.run(["geocode"] + options, input: Self.munich + "\n")
        #expect(run.status == 64 && run.errors.contains(message), "\(run.errors)")
    }
}
