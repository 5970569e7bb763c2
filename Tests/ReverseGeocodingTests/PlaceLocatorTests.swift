import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// Answers by containment with the bundled tables: the country, region and zone that contain a
/// point, the nearest place inside that country, the sea.
@Suite struct PlaceLocatorTests {
    static let locator = PlaceLocator.bundled

    static func text(_ bytes: UnsafeRawBufferPointer?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    static func locate(_ latitude: Double, _ longitude: Double) -> UnsafeLocation {
        locator.locate(Coordinate(latitude: latitude, longitude: longitude)!)
    }

    /// The point's country, and the country of the place named for it.
    static func countries(_ location: UnsafeLocation) -> (point: String?, named: String?) {
        (location.countryCode, location.nearest.map { text($0.view.countryCode) ?? "" })
    }

    /// Next to a border the nearest place is often across it; the answer names the country that
    /// contains the point and a place of that country (examples of the issue: DE→NL, PT→ES…).
    @Test(arguments: [
        (51.4408, 4.9269, "BE"),  // Baarle-Hertog, a Belgian enclave inside Baarle-Nassau (NL)
        (42.4653, 1.98, "ES"),  // Llívia, a Spanish town inside France
        (45.97, 8.97, "IT"),  // Campione d'Italia, inside Switzerland
        (51.838, 6.615, "DE"),  // Bocholt, by the German–Dutch border
        (41.87, -6.63, "PT"),  // Bragança district, near Spain
        (47.58, 16.85, "HU"),  // Sopron area, near Austria
    ])
    func theCountryIsTheOneThatContainsThePoint(latitude: Double, longitude: Double, country: String) {
        let location = Self.locate(latitude, longitude)
        #expect(location.basis == .boundaries)
        #expect(location.countryCode == country)
        #expect(Self.countries(location).named == country)
        #expect(!location.atSea)
    }

    /// On 20,000 seeded points on land, the named place is always in the country the record
    /// says (never across a border), and the zone is always one that contains the point.
    @Test func theNamedPlaceIsNeverInAnotherCountry() {
        var random = SeededGenerator(state: 2026)
        var land = 0
        for _ in 0..<40_000 {
            let z = Double.random(in: -1...1, using: &random)
            let latitude = asin(z) * 180 / .pi, longitude = Double.random(in: -180..<180, using: &random)
            let location = Self.locate(latitude, longitude)
            let hit = BoundaryTable.bundled.lookup(latitude: latitude, longitude: longitude)
            #expect(location.timeZone.map { hit.timeZones.contains($0) } ?? hit.timeZones.isEmpty)
            guard let country = location.countryCode else {
                #expect(location.atSea && location.basis == .nearest)
                continue
            }
            land += 1
            #expect(country == hit.countryCode)
            if let named = Self.countries(location).named { #expect(named == country, "\(latitude),\(longitude)") }
            if let code = location.admin1Code { #expect(hit.admin1?.code == code) }
        }
        #expect(land > 8_000)
    }

    @Test func atSeaTheNearestPlaceIsNamedWithoutACountry() throws {
        let location = Self.locate(0, -30)  // the Atlantic
        #expect(location.atSea)
        #expect(location.basis == .nearest)
        #expect(location.countryCode == nil && location.country == nil && location.admin1 == nil)
        let nearest = try #require(location.nearest)
        #expect(nearest.distanceKm > 100)
        #expect(location.timeZone == "Etc/GMT+2")
    }

    /// A country with no place in the table names none, rather than one of another country.
    @Test func aCountryWithoutPlacesNamesNone() {
        let location = Self.locate(-80, 0)
        #expect(location.countryCode == "AQ")
        #expect(location.nearest == nil)
        #expect(location.basis == .boundaries)
    }

    /// In a kept overlap of two zones, the nearest place's zone when it is one of them.
    @Test func anOverlapTakesTheNearestPlacesZone() {
        let urumqi = Self.locate(43.80, 87.60)  // Ürümqi, inside both Asia/Urumqi and Asia/Shanghai
        let hit = BoundaryTable.bundled.lookup(latitude: 43.80, longitude: 87.60)
        #expect(Set(hit.timeZones) == ["Asia/Urumqi", "Asia/Shanghai"])
        #expect(urumqi.timeZone == Self.text(urumqi.nearest?.view.timeZone))
        // The other zone is kept beside it, for a photo's offset to choose (CaptureTime).
        #expect(Set([urumqi.timeZone, urumqi.otherTimeZone]) == ["Asia/Urumqi", "Asia/Shanghai"])
        #expect(Self.locate(48.8566, 2.3522).otherTimeZone == nil)
    }

    /// The region's name comes with its code, and the region is the point's country's: the
    /// Belgian enclave of Baarle-Hertog is in Flanders, not in the Dutch province around it.
    @Test func theRegionBelongsToThePointsCountry() {
        let paris = Self.locate(48.8566, 2.3522)
        #expect(paris.admin1Code == "11")
        #expect(Self.text(paris.admin1) == "Île-de-France")
        let baarle = Self.locate(51.4408, 4.9269)
        #expect(baarle.countryCode == "BE")
        #expect(baarle.admin1Code == "VLG")
        #expect(Self.text(baarle.admin1) == "Vlaams Gewest")
    }

    /// Without boundaries (a place table of one's own), everything is the nearest place's.
    @Test func withoutBoundariesTheNearestPlaceAnswers() throws {
        let locator = PlaceLocator(geocoder: .bundled, boundaries: nil)
        let location = locator.locate(try #require(Coordinate(latitude: 0, longitude: -30)))
        #expect(location.basis == .nearest && !location.atSea)
        #expect(location.countryCode == Self.text(location.nearest?.view.countryCode))
    }

    /// The public answer holds the same names as the borrowed one, as strings of its own.
    @Test func theAnswerNamesWhatLocateNames() throws {
        let paris = try #require(Coordinate(latitude: 48.8566, longitude: 2.3522))
        let location = Self.locator.locate(paris)
        let answer = Self.locator.answer(paris)
        #expect(answer.basis == .boundaries && !answer.atSea)
        #expect(answer.nearest == location.nearest?.placeMatch)
        #expect(answer.city?.place == location.city?.placeMatch.place)
        #expect(answer.city?.place.name == "Paris")
        #expect(answer.countryCode == "FR" && answer.country == "France")
        #expect(answer.admin1Code == "11" && answer.admin1 == "Île-de-France")
        #expect(answer.admin2 == Self.text(location.admin2) && answer.admin2 != nil)
        #expect(answer.timeZone == "Europe/Paris")
    }

    /// An answer from a locator over a table of one's own stays readable after the locator and
    /// its table are gone (the borrowed `UnsafeLocation` would point into freed memory).
    @Test func theAnswerOutlivesItsLocator() throws {
        let places = [
            Place(
                geonameId: 1, name: "Ceanntar", asciiName: "Ceanntar", admin1: "Cúige", countryCode: "AA",
                country: "Tír", timeZone: "Etc/UTC", population: 20_000, featureCode: "PPLA", latitude: 10,
                longitude: 10)
        ]
        var locator: PlaceLocator? = PlaceLocator(
            geocoder: try ReverseGeocoder(
                tableBytes: PlaceTableBuilder(source: "test", date: "2026-01-01").build(places)),
            boundaries: nil)
        let point = try #require(Coordinate(latitude: 10.01, longitude: 10))
        let answer = try #require(locator?.answer(point))
        weak let table = locator?.geocoder
        locator = nil
        #expect(table == nil)
        #expect(answer.basis == .nearest && !answer.atSea)
        #expect(answer.nearest?.place.name == "Ceanntar")
        #expect(answer.countryCode == "AA" && answer.country == "Tír")
        #expect(answer.admin1 == "Cúige" && answer.timeZone == "Etc/UTC")
    }

    /// A person names the city, not its district: a photo in Steglitz is a Berlin photo, and
    /// a point with no city near enough is named by its nearest place.
    @Test func theDisplayNameIsTheCityWhenThereIsOne() throws {
        let steglitz = Self.locator.answer(try #require(Coordinate(latitude: 52.4596, longitude: 13.3238)))
        #expect(steglitz.nearest?.place.name == "Steglitz")
        #expect(steglitz.displayName == "Berlin")
        #expect(steglitz.distinctCity?.place.name == "Berlin")
        let nearestOnly = PlaceAnswer(nearest: try #require(steglitz.nearest))
        #expect(nearestOnly.city == nil && nearestOnly.displayName == "Steglitz")
    }
}
