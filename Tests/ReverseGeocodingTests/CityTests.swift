import TestSupport
import Testing

@testable import ReverseGeocoding

/// The city a person would name (``CityRule``): on the bundled table for real places, and on small
/// tables built here for the rule's edges (PPLX, ties, countries, nothing in range).
@Suite struct CityTests {
    static let geocoder = ReverseGeocoder.bundled

    /// The city named for a point, in the country of its nearest place (as `geocode` asks).
    static func city(_ latitude: Double, _ longitude: Double) throws -> CityMatch? {
        let point = try #require(Coordinate(latitude: latitude, longitude: longitude))
        let nearest = try #require(geocoder.nearestPlace(to: point))
        return geocoder.city(near: point, countryCode: nearest.place.countryCode)
    }

    @Test(arguments: [
        (48.8637, 2.2769),  // at "Paris 16 Passy", the nearest place there
        (48.8566, 2.3522),  // Hôtel de Ville
        (48.8867, 2.3431),  // Montmartre
        (48.8339, 2.3324),  // Montparnasse
    ])
    func pointsInsideParisAreParis(latitude: Double, longitude: Double) throws {
        let city = try #require(try Self.city(latitude, longitude))
        #expect(city.place.geonameId == 2_988_507, "\(city.place.name)")
        #expect(city.place.name == "Paris")
    }

    @Test func versaillesStaysVersailles() throws {
        let city = try #require(try Self.city(48.8049, 2.1204))
        #expect(city.place.geonameId == 2_969_679, "\(city.place.name)")
    }

    @Test func bigCitiesAreNamedInsteadOfTheirNeighbourhoods() throws {
        // The nearest places at these points are Moscow neighbourhoods, Charlottenburg-Nord (PPLX,
        // 7.6 km from Berlin's centre) and Yotsuya (no feature code).
        #expect(try Self.city(55.7300, 37.5900)?.place.name == "Moscow")
        #expect(try Self.city(52.5305, 13.2937)?.place.name == "Berlin")
        #expect(try Self.city(35.6897, 139.7164)?.place.name == "Tokyo")
    }

    @Test func anIsolatedSmallTownIsItself() throws {
        // Tennant Creek, Northern Territory: ~3,000 people and nothing near.
        #expect(try Self.city(-19.6485, 134.1905)?.place.name == "Tennant Creek")
        // Chantilly (11,000) stays itself with Creil (32,000) 7 km away and Paris 38 km away.
        #expect(try Self.city(49.1920, 2.4680)?.place.name == "Chantilly")
    }

    @Test func suburbsAreThemselves() throws {
        // 22 km from Berlin, 19 km from Paris.
        #expect(try Self.city(52.6810, 13.5840)?.place.name == "Bernau bei Berlin")
        #expect(try Self.city(48.8990, 2.0950)?.place.name == "Saint-Germain-en-Laye")
    }

    // MARK: - The rule on small tables

    static func place(
        _ id: Int, _ name: String, _ latitude: Double, _ longitude: Double, population: Int,
        featureCode: String? = "PPL", country: String = "AA"
    ) -> Place {
        Place(
            geonameId: id, name: name, asciiName: name, countryCode: country, population: population,
            featureCode: featureCode, latitude: latitude, longitude: longitude)
    }

    static func geocoder(_ places: [Place]) throws -> ReverseGeocoder {
        try ReverseGeocoder(tableBytes: PlaceTableBuilder(source: "test", date: "2026-01-01").build(places))
    }

    @Test func aCitySectionIsNeverChosen() throws {
        // A PPLX section of ten thousand people at the point, and a town 3 km away.
        let geocoder = try Self.geocoder([
            Self.place(1, "Section", 10, 10, population: 10_000, featureCode: "PPLX"),
            Self.place(2, "Town", 10.027, 10, population: 60_000),
        ])
        let city = try #require(geocoder.city(near: Coordinate(latitude: 10, longitude: 10)!, countryCode: "AA"))
        #expect(city.place.name == "Town")
        #expect(abs(city.distanceKm - 3.0) < 0.01)
        // A village smaller than the section is not its city either (see
        // theCityIsNeverSmallerThanTheNamedPlace).
        let village = try Self.geocoder([
            Self.place(1, "Section", 10, 10, population: 10_000, featureCode: "PPLX"),
            Self.place(2, "Village", 10.027, 10, population: 600),
        ])
        #expect(village.city(near: Coordinate(latitude: 10, longitude: 10)!, countryCode: "AA") == nil)
        // With only the section, there is no city at all.
        let alone = try Self.geocoder([Self.place(1, "Section", 10, 10, population: 10_000_000, featureCode: "PPLX")])
        #expect(alone.city(near: Coordinate(latitude: 10, longitude: 10)!, countryCode: "AA") == nil)
    }

    /// Issue 27, §2: a point in Dahlem (a section of Berlin) was "Teltow", a town of Brandenburg
    /// 1.5 km away. The city is in the named place's admin-1 region (by GeoNames' codes, without
    /// boundaries); a place without a code is not ruled out.
    @Test func theCityIsInTheNamedPlacesRegion() throws {
        func place(
            _ id: Int, _ name: String, _ longitude: Double, _ population: Int, _ code: String?, _ feature: String
        )
            -> Place
        {
            Place(
                geonameId: id, name: name, asciiName: name, admin1Code: code, countryCode: "DE",
                population: population, featureCode: feature, latitude: 52.45, longitude: longitude)
        }
        let dahlem = place(1, "Dahlem", 13.30, 16_000, "16", "PPLX")
        let teltow = place(2, "Teltow", 13.322, 26_000, "11", "PPL")  // 1.5 km east
        let lichterfelde = place(3, "Lichterfelde", 13.256, 80_000, "16", "PPL")  // 3 km west
        let point = Coordinate(latitude: 52.45, longitude: 13.30)!
        let geocoder = try Self.geocoder([dahlem, teltow, lichterfelde])
        #expect(geocoder.city(near: point, countryCode: "DE")?.place.name == "Lichterfelde")
        // Without codes, the nearest place that may be named, as before.
        var uncoded = teltow
        uncoded.admin1Code = nil
        #expect(
            try Self.geocoder([dahlem, uncoded, lichterfelde]).city(near: point, countryCode: "DE")?.place.name
                == "Teltow")
    }

    /// Issue 27, §2: a section GeoNames gives no municipality code (Hasseldieksdamm in Kiel,
    /// Gastown in Vancouver) belongs to the place, not a section, more populous and in its region,
    /// whose influence radius grown evenly reaches the point first, up to three times the radius
    /// (``ReverseGeocoder/sectionOwner(of:near:filter:rule:)``).
    @Test func aSectionWithoutCodesBelongsToThePlaceWhoseRadiusReachesItFirst() throws {
        let point = try #require(Coordinate(latitude: 10, longitude: 10))
        let kmNorth = 1 / 111.2
        func owner(_ places: [Place]) throws -> String? {
            let geocoder = try Self.geocoder(places)
            let section = try #require(geocoder.nearestPlaceView(to: point))
            #expect(section.view.place.name == "Section")
            return geocoder.sectionOwner(of: section.view.slot, near: point.unitVector, filter: .none, rule: .standard)?
                .view.place.name
        }
        let section = Self.place(1, "Section", 10, 10, population: 2_000, featureCode: nil)
        // A city of 250,000 (radius 1.65 km) 4.3 km away: 2.6 radii. A town of 12,000 (0.7 km)
        // 2 km away: 2.9 radii. A larger neighbouring section 0.5 km away is never the city.
        let city = Self.place(2, "City", 10 + 4.3 * kmNorth, 10, population: 250_000)
        let town = Self.place(3, "Town", 10 - 2.0 * kmNorth, 10, population: 12_000)
        let neighbour = Self.place(4, "Neighbour", 10 + 0.5 * kmNorth, 10, population: 24_000, featureCode: "PPLX")
        #expect(try owner([section, city, town, neighbour]) == "City")
        // The city 5.5 km away is 3.3 radii: beyond reach, so the town.
        var far = city
        far.latitude = 10 + 5.5 * kmNorth
        #expect(try owner([section, far, town, neighbour]) == "Town")
        // The town 2.2 km away too (3.1 radii): none.
        var farTown = town
        farTown.latitude = 10 - 2.2 * kmNorth
        #expect(try owner([section, far, farTown, neighbour]) == nil)
        // Never a place smaller than the section, nor one of another admin-1 region when both
        // have a code.
        var small = city
        small.population = 1_500
        #expect(try owner([section, small, neighbour]) == nil)
        var coded = section, across = city
        coded.admin1Code = "01"
        across.admin1Code = "02"
        #expect(try owner([coded, across, town]) == "Town")
        across.admin1Code = nil
        #expect(try owner([coded, across, town]) == "City")
        // A known section (PPLX) looks as far as 10 km and takes any larger place; a place without
        // a feature code, which may be a village, only a place five times its size within 5 km.
        let pplx = Self.place(1, "Section", 10, 10, population: 2_000, featureCode: "PPLX")
        let distant = Self.place(5, "Distant", 10 + 7 * kmNorth, 10, population: 400_000)  // 2.9 radii
        #expect(try owner([pplx, distant]) == "Distant")
        #expect(try owner([section, distant]) == nil)
        let village = Self.place(6, "Village", 10 + 1 * kmNorth, 10, population: 6_000)  // 3 times
        #expect(try owner([pplx, village]) == "Village")
        #expect(try owner([section, village]) == nil)
    }

    /// Issue 27, §2: "Nagykovácsi, Remeteszőlős": the city was a hamlet of 612 people beside the
    /// named place of 8,757 (a `PPLX` in GeoNames). The city is never smaller than the named
    /// place: a smaller one gives way to the named place, or to no city when that is a section.
    @Test func theCityIsNeverSmallerThanTheNamedPlace() throws {
        let point = Coordinate(latitude: 47.5, longitude: 18.9)!
        let hamlet = Self.place(2, "Hamlet", 47.5, 18.9 + 0.047, population: 612)  // 3.5 km east
        for (code, expected) in [("PPLX", nil as String?), ("PPL", "Village")] {
            let village = Self.place(1, "Village", 47.5, 18.9 + 0.008, population: 8757, featureCode: code)
            let geocoder = try Self.geocoder([village, hamlet])
            #expect(geocoder.city(near: point, countryCode: "AA")?.place.name == expected, "\(code)")
        }
        // A bigger city is still named beside a smaller named place.
        let town = Self.place(3, "Town", 47.5, 18.9 + 0.02, population: 60_000)
        let geocoder = try Self.geocoder([
            Self.place(1, "Village", 47.5, 18.9 + 0.008, population: 8757, featureCode: "PPLX"), town,
        ])
        #expect(geocoder.city(near: point, countryCode: "AA")?.place.name == "Town")
    }

    @Test func onlyPlacesInTheGivenCountryAreChosen() throws {
        let geocoder = try Self.geocoder([
            Self.place(1, "Across", 10, 10.01, population: 5_000_000, country: "BB"),
            Self.place(2, "Home", 10, 9.95, population: 2000),
        ])
        let point = Coordinate(latitude: 10, longitude: 10)!
        #expect(geocoder.city(near: point, countryCode: "AA")?.place.name == "Home")
        #expect(geocoder.city(near: point, countryCode: "BB")?.place.name == "Across")
        #expect(geocoder.city(near: point, countryCode: nil)?.place.name == "Across")
        #expect(geocoder.city(near: point, countryCode: "CC") == nil)
    }

    @Test func aBigCityCoversItsAreaButNotBeyondItsRadius() throws {
        let big = Self.place(1, "Metropolis", 0, 0, population: 5_000_000)
        let suburb = Self.place(2, "Suburb", 0, 0.13, population: 3000)  // 14.5 km east
        let quarter = Self.place(3, "Quarter", 0, 0.04, population: 80_000)  // 4.4 km east
        let geocoder = try Self.geocoder([big, suburb, quarter])
        // Next to the quarter, inside the city's radius: the city.
        #expect(
            geocoder.city(near: Coordinate(latitude: 0, longitude: 0.042)!, countryCode: "AA")?.place.name
                == "Metropolis")
        // Next to the suburb, beyond the radius (10 km at most): the suburb.
        #expect(
            geocoder.city(near: Coordinate(latitude: 0, longitude: 0.133)!, countryCode: "AA")?.place.name == "Suburb")
        #expect(CityRule.standard.influenceRadiusKm(population: 5_000_000) == 10)
        #expect(CityRule.standard.influenceRadiusKm(population: 0) == 0.7)
        #expect(abs(CityRule.standard.influenceRadiusKm(population: 1_000_000) - 5) < 1e-12)
    }

    @Test func nothingWithinTheMaximumRadiusIsNoCity() throws {
        let geocoder = try Self.geocoder([Self.place(1, "Far", 0, 0.2, population: 9_000_000)])  // 22 km
        #expect(geocoder.city(near: Coordinate(latitude: 0, longitude: 0)!, countryCode: "AA") == nil)
    }

    @Test func theCallersFilterApplies() throws {
        let geocoder = try Self.geocoder([
            Self.place(1, "Big", 0, 0.05, population: 2_000_000),  // 5.6 km
            Self.place(2, "Small", 0, 0.01, population: 900),  // 1.1 km
        ])
        let point = Coordinate(latitude: 0, longitude: 0)!
        #expect(geocoder.city(near: point, countryCode: "AA")?.place.name == "Big")
        #expect(
            geocoder.city(near: point, countryCode: "AA", filter: .init(maximumDistanceKm: 3))?.place.name == "Small")
        #expect(
            geocoder.city(near: point, countryCode: "AA", filter: .init(minimumPopulation: 1000))?.place.name == "Big")
        #expect(geocoder.city(near: point, countryCode: "AA", filter: .init(maximumDistanceKm: 1)) == nil)
    }

    @Test func tiesGoToTheSmallerGeonameIdWhateverTheTableOrder() throws {
        // Two towns of the same size at the same distance, on either side of the point.
        let west = Self.place(20, "West", 0, -0.01, population: 5000)
        let east = Self.place(10, "East", 0, 0.01, population: 5000)
        for places in [[west, east], [east, west]] {
            let geocoder = try Self.geocoder(places)
            let point = Coordinate(latitude: 0, longitude: 0)!
            #expect(geocoder.city(near: point, countryCode: "AA")?.place.geonameId == 10)
            #expect(geocoder.cityView(near: point, countryCode: nil)?.view.geonameId == 10)
        }
    }

    /// The city and the nearest place of the country found in one search are what the two
    /// searches of their own give (the city's, then the country's nearest within the limit): on
    /// the bundled table and on a table of tied and stacked places in two countries, with and
    /// without filters, for the point's country and for others.
    @Test func oneSearchForTheCityAndTheNearestGivesWhatTwoSearchesGive() throws {
        var random = SeededGenerator(state: 41)
        var places = RandomPlaces.table(count: 3000, seed: 5)
        for index in places.indices where index % 3 == 0 { places[index].countryCode = "YY" }
        for index in places.indices where index % 7 == 0 { places[index].featureCode = "PPLX" }
        let small = try Self.geocoder(places)
        let filters = [
            PlaceFilter.none, PlaceFilter(maximumDistanceKm: 5), PlaceFilter(maximumDistanceKm: 300),
            PlaceFilter(minimumPopulation: 1000), PlaceFilter(maximumDistanceKm: -1),
        ]
        func key(_ match: PlaceView.Match?) -> [Double]? {
            match.map { [Double($0.view.slot), $0.distanceKm, $0.bearing] }
        }
        var compared = 0, beyondTheRadius = 0
        for (geocoder, codes) in [
            (ReverseGeocoder.bundled, ["FR", "US", "RU", "AQ", ""]), (small, ["ZZ", "YY", "XX"]),
        ] {
            for _ in 0..<4000 {
                let point = RandomPlaces.coordinate(&random)
                let filter = filters[Int.random(in: 0..<filters.count, using: &random)]
                let limit = [1500.0, 50][Int.random(in: 0..<2, using: &random)]
                var country = codes[Int.random(in: 0..<codes.count, using: &random)]
                if Bool.random(using: &random), let nearest = geocoder.nearestPlace(to: point) {
                    country = nearest.place.countryCode  // most often, the point's own country
                }
                let (city, nearest) = country.utf8.withContiguousStorageIfAvailable { bytes in
                    geocoder.cityAndNearestView(
                        near: point, countryCode: UnsafeRawBufferPointer(bytes), filter: filter, limitKm: limit)
                }!
                var limited = filter
                limited.maximumDistanceKm = min(filter.maximumDistanceKm ?? .infinity, limit)
                let (cityAlone, nearestAlone) = country.utf8.withContiguousStorageIfAvailable { bytes in
                    var cityFilter = filter
                    cityFilter.maximumDistanceKm = min(filter.maximumDistanceKm ?? .infinity, limit)
                    return (
                        geocoder.cityView(near: point, countryCode: UnsafeRawBufferPointer(bytes), filter: cityFilter),
                        geocoder.nearestPlaceView(to: point, inCountry: UnsafeRawBufferPointer(bytes), filter: limited)
                    )
                }!
                // (The city's distance alone is the chooser's chord series, not ``measure``'s.)
                #expect(city?.view.slot == cityAlone?.view.slot, "\(point) \(country) \(filter)")
                #expect(key(nearest) == key(nearestAlone), "\(point) \(country) \(filter)")
                compared += 1
                if let nearest, nearest.distanceKm > CityRule.standard.maximumRadiusKm { beyondTheRadius += 1 }
            }
        }
        // Both kinds of point were seen: a nearest place within the city radius and beyond it.
        #expect(compared == 8000)
        #expect(beyondTheRadius > 1000)
    }
}
