import TestSupport
import Testing

@testable import ReverseGeocoding

/// Every place of the bundled table, located by the bundled locator: does the admin-1 region
/// that contains it (with the coastal fallback) have the code GeoNames gives the place?
///
/// GeoNames is not absolute truth (disputed areas, borders that moved), so the bar is per
/// country: at least ``countryFloor`` of the places of every country with at least
/// ``minimumPlaces``, except the countries in ``exceptions``, each with the agreement measured
/// when it was listed and the reason its misses have; and ``overallFloor`` of all places.
/// `make bench-accuracy` prints the same table for the release binary.
@Suite struct Admin1AgreementTests {
    static let countryFloor = 0.95
    static let overallFloor = 0.985
    static let minimumPlaces = 30

    /// Countries below ``countryFloor``, with the floor they must keep (the agreement measured with
    /// the boundary table of 2026-12-02, rounded down to a tenth of a percent) and why. The reasons
    /// are counted by ``agreement()``: "at sea" is a place beyond the 0.05° coastal fallback of
    /// every region polygon (small islands, atolls), "no code" a place GeoNames gives no admin-1
    /// code or `00`, "neighbour" a place a few kilometres across a generalized border.
    static let exceptions: [String: (floor: Double, reason: String)] = [
        "AE": (0.943, "neighbour 5, no code 1"),
        "AG": (0.926, "neighbour 3"),
        "BA": (0.945, "neighbour 12, no code 4, at sea 1"),
        "BN": (0.825, "no code 9, neighbour 2"),
        "BT": (0.941, "no code 1, other country 1"),
        "BW": (0.920, "no code 9, neighbour 2"),
        "FM": (0.393, "at sea 37"),
        "GW": (0.942, "no code 3"),
        "HK": (0.923, "neighbour 21, no code 4"),
        "KI": (0.810, "at sea 7"),
        "KY": (0.930, "neighbour 3, no code 2"),
        "LS": (0.829, "no code 7, neighbour 1"),
        "LY": (0.949, "neighbour 6"),
        "MA": (0.939, "neighbour 24, other country 4, no code 1"),
        "MK": (0.940, "neighbour 13, no code 5"),
        "MU": (0.905, "neighbour 6, no code 3, at sea 2"),
        "MV": (0.882, "at sea 4"),
        "OM": (0.945, "neighbour 1, other country 1"),
        "PF": (0.933, "at sea 2, neighbour 1"),
        "SG": (0.719, "no code 32, neighbour 2"),
        "TM": (0.896, "no code 9, neighbour 2"),
        "UY": (0.948, "neighbour 8"),
        "WS": (0.756, "no code 15, neighbour 3"),
        "YT": (0.939, "neighbour 4"),
    ]

    struct Tally {
        var places = 0
        var agreeing = 0
        var atSea = 0
        var noCode = 0
        var neighbour = 0
        var otherCountry = 0
        var share: Double { places == 0 ? 1 : Double(agreeing) / Double(places) }
    }

    /// The tally per country code of GeoNames, over every place of the bundled table.
    static func agreement() -> [String: Tally] {
        let locator = PlaceLocator.bundled
        let geocoder = locator.geocoder
        var tallies: [String: Tally] = [:]
        for slot in 0..<geocoder.table.count {
            let view = PlaceView(geocoder: geocoder, slot: slot)
            let country = String(decoding: view.countryCode, as: UTF8.self)
            let code = view.admin1Code.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let (latitude, longitude) = geocoder.table.coordinate(at: slot)
            let location = locator.locate(Coordinate(latitude: latitude, longitude: longitude)!)
            var tally = tallies[country, default: Tally()]
            tally.places += 1
            if location.countryCode == country, location.admin1Code == code, !code.isEmpty {
                tally.agreeing += 1
            } else if code.isEmpty || code == "00" {
                tally.noCode += 1
            } else if location.countryCode != country {
                tally.otherCountry += 1
            } else if location.admin1Code == nil {
                tally.atSea += 1
            } else {
                tally.neighbour += 1
            }
            tallies[country] = tally
        }
        return tallies
    }

    static let measured = agreement()

    @Test func everyCountryAgreesWithGeoNamesOrHasAMeasuredReason() {
        for (country, tally) in Self.measured.sorted(by: { $0.key < $1.key }) where tally.places >= Self.minimumPlaces {
            let floor = Self.exceptions[country]?.floor ?? Self.countryFloor
            #expect(
                tally.share >= floor,
                "\(country): \(tally.agreeing) of \(tally.places) agree; misses: at sea \(tally.atSea), no code \(tally.noCode), neighbour \(tally.neighbour), other country \(tally.otherCountry)"
            )
        }
    }

    /// An exception that no longer needs to be one is taken off the list, so the list stays the
    /// measured truth.
    @Test func everyExceptionIsStillBelowTheFloor() {
        for country in Self.exceptions.keys.sorted() {
            let tally = Self.measured[country, default: Tally()]
            #expect(tally.places >= Self.minimumPlaces, "\(country) has \(tally.places) places")
            #expect(tally.share < Self.countryFloor, "\(country) now agrees \(tally.share): take it off the list")
        }
    }

    @Test func allPlacesTogetherAgreeWithGeoNames() {
        let places = Self.measured.values.reduce(0) { $0 + $1.places }
        let agreeing = Self.measured.values.reduce(0) { $0 + $1.agreeing }
        #expect(places == 234_908)
        #expect(Double(agreeing) / Double(places) >= Self.overallFloor, "\(agreeing) of \(places)")
    }

    /// The regions the boundary rebuild of 2026-12-02 corrected, each by a place a local knows.
    @Test(arguments: [
        (50.8503, 4.3517, "BE", "BRU"),  // Grand-Place: Brussels-Capital, not Flanders
        (52.2420, -3.3786, "GB", "WLS"),  // Llandrindod Wells: Wales, not England
        (-4.0435, 39.6682, "KE", "37"),  // Mombasa: Mombasa county, not Kwale
    ])
    func aRegionALocalNames(latitude: Double, longitude: Double, country: String, admin1: String) throws {
        let location = PlaceLocator.bundled.locate(try #require(Coordinate(latitude: latitude, longitude: longitude)))
        #expect(location.countryCode == country)
        #expect(location.admin1Code == admin1)
    }
}
