import TestSupport
import Testing

@testable import ReverseGeocoding

/// The table compiled into the binary. This is the only suite that reads it (it is large, and
/// debug builds are slow); everything else uses small tables built in the test.
@Suite struct BundledTableTests {
    static let geocoder = ReverseGeocoder.bundled

    /// The nearest distance by looking at every row, for points where no reference answer exists.
    static func bruteForceNearestKm(_ query: Coordinate) -> Double {
        var best = Double.infinity
        for slot in 0..<geocoder.table.count {
            let (latitude, longitude) = geocoder.table.coordinate(at: slot)
            best = min(best, Coordinate(latitude: latitude, longitude: longitude)!.distanceKm(to: query))
        }
        return best
    }

    @Test func theBundledTableIsGeoNamesCities500() {
        #expect(Self.geocoder.placeCount == 234_908)
        #expect(Self.geocoder.source == "GeoNames cities500.txt")
        #expect(Self.geocoder.date == "2026-07-28")
    }

    /// Opening the bundled tables skips the string checks that a table from outside gets: they
    /// are made here instead.
    @Test func theBundledTablesNamesAreValidUTF8() {
        #expect(Self.geocoder.table.validateStrings())
        #expect(BoundaryTable.bundled.view.validateStrings())
    }

    @Test func downtownSanFranciscoIsInSanFrancisco() throws {
        let match = try #require(Self.geocoder.nearestPlace(to: Coordinate(latitude: 37.7879, longitude: -122.4075)!))
        #expect(match.place.countryCode == "US")
        #expect(match.place.admin1 == "California")
        #expect(match.place.name == "San Francisco" || match.place.admin2 == "City and County of San Francisco")
        #expect(match.distanceKm < 3)
    }

    @Test func parisNamesAPlaceInParis() throws {
        let match = try #require(Self.geocoder.nearestPlace(to: Coordinate(latitude: 48.8566, longitude: 2.3522)!))
        #expect(match.place.admin2 == "Paris")
        #expect(match.place.country == "France")
        #expect(match.place.timeZone == "Europe/Paris")
    }

    @Test func suvaIsFoundFromBothSidesOfTheAntimeridian() throws {
        let suva = try #require(Self.geocoder.nearestPlace(to: Coordinate(latitude: -18.1416, longitude: 178.4419)!))
        #expect(suva.place.countryCode == "FJ")
        #expect(suva.distanceKm < 5)
        for longitude in [179.9999, -179.9999] {
            let query = Coordinate(latitude: -16.8, longitude: longitude)!
            let match = try #require(Self.geocoder.nearestPlace(to: query))
            #expect(match.place.countryCode == "FJ")
            #expect(abs(match.distanceKm - Self.bruteForceNearestKm(query)) < 1e-9)
        }
    }

    @Test(arguments: [(-89.99, 0.0), (-90, 0), (89.9, 0), (89.95, 180), (0, 0), (-45, -180)])
    func remotePointsGetTheTrulyNearestPlace(latitude: Double, longitude: Double) throws {
        let query = Coordinate(latitude: latitude, longitude: longitude)!
        let match = try #require(Self.geocoder.nearestPlace(to: query))
        #expect(abs(match.distanceKm - Self.bruteForceNearestKm(query)) < 1e-9)
    }

    @Test func theTablesPlacesAreComplete() throws {
        let reykjavik = try #require(
            Self.geocoder.nearestPlace(to: Coordinate(latitude: 64.13548, longitude: -21.89541)!))
        #expect(
            reykjavik.place
                == Place(
                    geonameId: 3413829, name: "Reykjavík", asciiName: "Reykjavik", admin1: "Höfuðborgarsvæði",
                    admin2: "Reykjavíkurborg", admin1Code: "39", admin2Code: "0000", countryCode: "IS",
                    country: "Iceland",
                    timeZone: "Atlantic/Reykjavik", population: 118_918, featureCode: "PPLC", latitude: 64.13548,
                    longitude: -21.89541))
        #expect(reykjavik.distanceKm == 0)
    }
}
