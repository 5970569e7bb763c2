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
    /// The third-level division's GeoNames code (a municipality in IT, ES, AT, CH, PL, CZ, GR
    /// and FI; a district in DE, FR and BE); `nil` when GeoNames gives none.
    public var admin3Code: String?
    /// The fourth-level division's GeoNames code (the municipality in DE, FR and BE); `nil` when
    /// GeoNames gives none.
    public var admin4Code: String?
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
        admin1Code: String? = nil, admin2Code: String? = nil, admin3Code: String? = nil, admin4Code: String? = nil,
        countryCode: String, country: String? = nil, timeZone: String? = nil, population: Int = 0,
        featureCode: String? = nil, latitude: Double, longitude: Double
    ) {
        self.geonameId = geonameId
        self.name = name
        self.asciiName = asciiName
        self.admin1 = admin1
        self.admin2 = admin2
        self.admin1Code = admin1Code
        self.admin2Code = admin2Code
        self.admin3Code = admin3Code
        self.admin4Code = admin4Code
        self.countryCode = countryCode
        self.country = country
        self.timeZone = timeZone
        self.population = population
        self.featureCode = featureCode
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The GeoNames admin level that is the municipality, by country, checked against GeoNames'
    /// documentation and the data (Kiel's admin-4 `01002000` is its Gemeindeschlüssel, Zürich's
    /// admin-3 `261` its BFS number, Helsinki's `091` its kunta number): admin-2 for the NL
    /// gemeente, SE kommun, NO and DK kommune, HR općina or grad and PT concelho; admin-3 for the
    /// IT comune, ES municipio, AT and CH Gemeinde, PL gmina, CZ obec, GR dimos and FI kunta;
    /// admin-4 for the DE Gemeinde, FR commune and BE commune. Japan's admin-2 is its
    /// municipality too, but cities500's codes there put towns in their neighbours' (Tomika in
    /// Yaotsu), so it is left out.
    public static let municipalityLevel: [String: Int] = [
        "NL": 2, "SE": 2, "NO": 2, "DK": 2, "HR": 2, "PT": 2,
        "IT": 3, "ES": 3, "AT": 3, "CH": 3, "PL": 3, "CZ": 3, "GR": 3, "FI": 3,
        "DE": 4, "FR": 4, "BE": 4,
    ]

    /// The code of the place's municipality at its country's ``municipalityLevel`` (`01002000`
    /// for Kiel); `nil` in other countries and where GeoNames gives none. Codes are unique only
    /// with the codes above them: compare whole chains.
    public var municipalityCode: String? {
        switch Self.municipalityLevel[countryCode] {
        case 2: admin2Code
        case 3: admin3Code
        case 4: admin4Code
        default: nil
        }
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
