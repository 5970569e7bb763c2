import Foundation
import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Issue 27: the answers a person who lives there signs off, each through `phototag geocode` as a
/// user runs it (the table; each row joins when its rule lands).
@Suite struct LocalAnswerTests {
    /// The text line after the coordinates.
    static func answer(_ point: String, _ options: [String] = []) -> (status: Int32, text: String) {
        let run = GeocodeInputTests.run(["geocode"] + options, input: point + "\n")
        let line = run.output.split(separator: "\n").first.map(String.init) ?? ""
        return (run.status, String(line.dropFirst(25)))
    }

    /// Expects `geocode POINT` to succeed with the text `expected` after the coordinates.
    static func expectAnswer(
        _ point: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (status, text) = answer(point)
        #expect(status == 0, sourceLocation: sourceLocation)
        #expect(text == expected, sourceLocation: sourceLocation)
    }

    /// The regions the admin-1 rebuild of 2026-12-02 corrected.
    @Test(arguments: [
        ("50.8503,4.3517", "Brussels, Région de Bruxelles-Capitale, BE — 0.2 km E"),
        ("52.2420,-3.3786", "Llandrindod Wells, Wales, GB — 0.0 km"),
        ("-4.0435,39.6682", "Mombasa, Mombasa, KE — 1.3 km N"),
    ])
    func theRegionALocalNames(_ point: String, _ expected: String) {
        Self.expectAnswer(point, expected)
    }

    /// §2, the two limits of the city rule: never a city in another admin-1 region than the
    /// named place, never one smaller than it.
    @Test(arguments: [
        ("47.57673,18.8796", "Nagykovácsi, Pest, HU — 0.7 km SW", "Remeteszőlős"),
        ("52.454615,13.304060", "Dahlem, Berlin, Berlin, DE — 1.2 km E", "Teltow"),
        ("47.4195,8.5223", "Zürich (Kreis 11), Zürich, Zürich, CH — 0.4 km S", "Rümlang"),
        ("51.81126,5.79792", "Hatert, Nijmegen, Gelderland, NL — 2.3 km W", "Alverna"),
    ])
    func theCityIsNeverANeighbourAcrossABorderOrSmaller(_ point: String, _ expected: String, _ wrong: String) {
        Self.expectAnswer(point, expected)
        #expect(!expected.contains(wrong))
    }

    /// §2, the municipality rule where GeoNames has municipality codes (admin-2 in NL, SE, NO,
    /// DK, HR and PT; admin-3 in CH, AT, IT …; admin-4 in DE, FR, BE): a section (`PPLX`, or a
    /// place without a feature code) is named with its municipality's main place; a village
    /// keeps its own name, and a city the distance rule already names stays.
    @Test(arguments: [
        ("52.454615,13.304060", "Dahlem, Berlin, Berlin, DE — 1.2 km E"),
        ("52.4890,13.2580", "Grunewald, Berlin, Berlin, DE — 0.8 km NW"),
        ("43.2100,5.4400", "Sormiou, Marseille, Provence-Alpes-Côte-d’Azur, FR — 1.7 km E"),
        ("47.4195,8.5223", "Zürich (Kreis 11), Zürich, Zürich, CH — 0.4 km S"),
        ("51.81126,5.79792", "Hatert, Nijmegen, Gelderland, NL — 2.3 km W"),
        ("38.7045,-9.1950", "Santa Maria de Belém, Lisbon, Lisboa, PT — 0.7 km NE"),
        ("55.5700,12.6170", "Søvang, Dragør, Hovedstaden, DK — 0.1 km NE"),
        ("55.68,12.57", "Indre By, Copenhagen, Hovedstaden, DK — 0.3 km NW"),
        ("55.6230,12.1400", "Vindinge, Sjælland, DK — 0.1 km E"),
    ])
    func aSectionIsNamedByItsMunicipalitysMainPlace(_ point: String, _ expected: String) {
        Self.expectAnswer(point, expected)
    }

    /// §2, a section that GeoNames gives no municipality code (no admin-2, -3 or -4 code, or a
    /// country without municipality codes) is named with the place its radius reaches first:
    /// Hasseldieksdamm is in Kiel, Gastown in Vancouver (not in its neighbour section
    /// Chinatown); a section of Paris stays in Paris.
    @Test(arguments: [
        ("54.31589,10.06926", "Hasseldieksdamm, Kiel, Schleswig-Holstein, DE — 0.9 km W", "Hasseldieksdamm, Schleswig"),
        ("49.2837,-123.1066", "Gastown, Vancouver, British Columbia, CA — 0.4 km SE", "Chinatown"),
        ("48.858222,2.2945", "Paris 16 Passy, Paris, Île-de-France, FR — 1.4 km SE", "Boulogne"),
    ])
    func aSectionWithoutCodesIsNamedByItsCity(_ point: String, _ expected: String, _ wrong: String) {
        Self.expectAnswer(point, expected)
        #expect(!expected.contains(wrong))
    }

    /// §4: a country without any place (Antarctica) is named, in every format, and is not a
    /// failure; a filter that leaves no place still is.
    @Test func aCountryWithoutPlacesIsNamedAndIsNotAFailure() throws {
        let (status, text) = Self.answer("-77.85,166.67")
        #expect(status == 0)
        #expect(text == "Antarctica, AQ")
        let json = GeocodeInputTests.run(["geocode", "--format", "ndjson"], input: "-77.85,166.67\n")
        #expect(json.status == 0)
        let record = try #require(try GeocodeInputTests.records(json).first)
        let place = try #require(record["place"] as? [String: Any])
        #expect(place["country"] as? String == "Antarctica" && place["countryCode"] as? String == "AQ")
        #expect(place["name"] is NSNull)
        let csv = GeocodeInputTests.run(["geocode", "--format", "csv"], input: "-77.85,166.67\n")
        #expect(csv.status == 0 && csv.output.contains(",AQ,Antarctica,Antarctica/McMurdo,"))
        let filtered = Self.answer("-77.85,166.67", ["--max-distance", "5"])
        #expect(filtered.status == 1)
        #expect(filtered.text == "no place within 5 km, AQ")
    }

    /// §4: a position at sea is named by its sea (the smallest of Natural Earth's marine
    /// polygons that contains it), then the nearest place, in every format; a filter that
    /// leaves no place keeps the sea and fails.
    @Test func aPositionAtSeaIsNamedByItsSea() throws {
        Self.expectAnswer("50.2,-1.5", "English Channel — nearest place Niton, England, GB, 45.7 km S")
        Self.expectAnswer(
            "-23.35,152.65", "Great Barrier Reef — nearest place Agnes Water, Queensland, AU, 122.3 km NE")
        let ndjson = GeocodeInputTests.run(["geocode", "--format", "ndjson"], input: "50.2,-1.5\n48.8534,2.3488\n")
        #expect(ndjson.status == 0)
        let records = try GeocodeInputTests.records(ndjson)
        let places = try records.map { try #require($0["place"] as? [String: Any]) }
        #expect(places[0]["sea"] as? String == "English Channel" && places[0]["countryCode"] is NSNull)
        #expect(places[1]["sea"] is NSNull && places[1]["countryCode"] as? String == "FR")
        let json = GeocodeInputTests.run(["geocode", "--format", "json"], input: "50.2,-1.5\n")
        #expect(json.output.contains("\"sea\": \"English Channel\""))
        let csv = GeocodeInputTests.run(["geocode", "--format", "csv"], input: "50.2,-1.5\n")
        let lines = csv.output.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        try #require(lines.count == 2)
        let column = try #require(lines[0].firstIndex(of: "place_sea"))
        #expect(lines[1][column] == "English Channel")
        let geojson = GeocodeInputTests.run(["geocode", "--format", "geojson"], input: "50.2,-1.5\n")
        #expect(geojson.output.contains("\"place_sea\":\"English Channel\""), "\(geojson.output)")
        let filtered = Self.answer("50.2,-1.5", ["--max-distance", "5"])
        #expect(filtered.status == 1)
        #expect(filtered.text == "English Channel — no place within 5 km")
    }

    /// Every country of the boundary table has its name, whether or not it has places.
    @Test func everyCountryOfTheBoundaryTableHasAName() {
        let table = BoundaryTable.bundled
        let unnamed = (0..<table.countryCount).filter { table.countryName($0) == nil }.map(table.countryCode)
        #expect(unnamed == [])
    }
}
