/// A named place from the GeoNames table.
public struct Place: Hashable, Sendable {
    /// The GeoNames id (`https://www.geonames.org/<id>`).
    public var geonameId: Int
    /// The name in its local script, UTF-8.
    public var name: String
    /// The name in plain ASCII.
    public var asciiName: String
    /// The first-level division (state, region…), by name; `nil` when unknown.
    public var admin1: String?
    /// The second-level division (county, district…), by name; `nil` when unknown.
    public var admin2: String?
    /// The first-level division's GeoNames code, e.g. `CA` or `11`.
    public var admin1Code: String?
    /// The second-level division's GeoNames code.
    public var admin2Code: String?
    /// ISO 3166-1 alpha-2 country code.
    public var countryCode: String
    /// The country's name; `nil` when the country file lacks it.
    public var country: String?
    /// IANA time zone, e.g. `Europe/Paris`.
    public var timeZone: String?
    /// Population (0 when GeoNames has none).
    public var population: Int
    /// GeoNames feature code (`PPL`, `PPLC`…); `nil` where the dump leaves it empty.
    public var featureCode: String?
    /// The place's own latitude in degrees, as in the dump.
    public var latitude: Double
    /// The place's own longitude in degrees, as in the dump.
    public var longitude: Double

    /// A place with the given fields (see each property).
    public init(
        geonameId: Int, name: String, asciiName: String, admin1: String? = nil, admin2: String? = nil,
        admin1Code: String? = nil, admin2Code: String? = nil, countryCode: String, country: String? = nil,
        timeZone: String? = nil, population: Int = 0, featureCode: String? = nil, latitude: Double,
        longitude: Double
    ) {
        self.geonameId = geonameId
        self.name = name
        self.asciiName = asciiName
        self.admin1 = admin1
        self.admin2 = admin2
        self.admin1Code = admin1Code
        self.admin2Code = admin2Code
        self.countryCode = countryCode
        self.country = country
        self.timeZone = timeZone
        self.population = population
        self.featureCode = featureCode
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The place's position; `nil` when ``latitude`` or ``longitude`` is out of range or not
    /// finite (see ``Coordinate/init(latitude:longitude:)``).
    public var coordinate: Coordinate? { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A place found near a query point, with how far and in which direction the point lies from it.
public struct PlaceMatch: Hashable, Sendable {
    /// The place found.
    public var place: Place
    /// Great-circle distance from the place to the query point, in kilometres.
    public var distanceKm: Double
    /// Initial bearing from the place to the query point, degrees clockwise from north, `0..<360`.
    public var bearing: Double

    /// The match of `place`, `distanceKm` from the query point, which lies at `bearing` from it.
    public init(place: Place, distanceKm: Double, bearing: Double) {
        self.place = place
        self.distanceKm = distanceKm
        self.bearing = bearing
    }
}

/// Which places a search may return.
public struct PlaceFilter: Hashable, Sendable {
    /// Only places at most this far from the query point (great-circle km); `nil` for no limit.
    public var maximumDistanceKm: Double?
    /// Only places with at least this population.
    public var minimumPopulation: Int

    /// A filter keeping places within `maximumDistanceKm` (`nil`: any distance) and of at least `minimumPopulation` people.
    public init(maximumDistanceKm: Double? = nil, minimumPopulation: Int = 0) {
        self.maximumDistanceKm = maximumDistanceKm
        self.minimumPopulation = minimumPopulation
    }

    /// No restriction.
    public static let none = PlaceFilter()
}
