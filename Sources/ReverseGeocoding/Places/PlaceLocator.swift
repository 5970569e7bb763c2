import PhotoTagSupport
import Synchronization

/// Where a point is, as a person would say it: the country, region and time zone whose
/// boundaries contain it, the nearest place inside that country, and the city a person would name.
///
/// The rules (see docs/places.md, "Where a point is"):
///
/// - **Country, admin-1 region and time zone** come from the polygons of a ``BoundaryTable`` that
///   contain the point (with its coastal fallback, see ``BoundaryTable/features(_:fallback:)``).
///   An admin-1 region of another country than the point's (a Natural Earth region that lacks an
///   enclave, such as Baarle-Hertog) is not used: `admin1` is then `nil`. In a kept overlap of two
///   zones, the zone of the nearest place when it is one of them, otherwise the smaller zone.
/// - **The named place** is the nearest place *inside that country* (ties: larger population,
///   then smaller geonameid), looked for within ``countrySearchLimitKm``; a country without any
///   place that near (Antarctica, Bouvet Island) gives no named place, never one from another
///   country. Its `admin2` is used only when its admin-1 code is the containing region's. The
///   country's name comes from its places, else from the boundary table (Antarctica has none).
/// - **At sea** (no country polygon contains the point): the country and region are `nil`, the
///   nearest place is named with its distance, the time zone is the (nautical) zone that contains
///   the point, ``PlaceAnswer/atSea`` is set and ``PlaceAnswer/basis`` is ``PlaceAnswer/Basis/nearest``.
///   ``PlaceAnswer/sea`` names the water: the smallest named sea of the ``seas`` table that
///   contains the point (the English Channel rather than the North Atlantic Ocean).
/// - **Without boundaries** (a place table of one's own, `--places`): everything comes from the
///   nearest place, as before boundaries existed; ``PlaceAnswer/basis`` is ``PlaceAnswer/Basis/nearest``.
/// - **The city** is chosen by ``CityRule`` among the places of the point's country (the nearest
///   place's country at sea or without boundaries).
///
/// **What it borrows.** Nothing of its own: it holds its ``geocoder`` and ``boundaries``, whose
/// tables it reads in place (see ``ReverseGeocoder``), and a ``PlaceAnswer`` is a value of its own.
///
/// A locator is immutable and serves any number of threads.
public final class PlaceLocator: Sendable {
    /// The place table the named place and the city come from.
    public let geocoder: ReverseGeocoder
    /// The boundaries that give the country, region and time zone; `nil` to use the nearest place alone.
    public let boundaries: BoundaryTable?
    /// The named seas that name the water of a point at sea; `nil` for none.
    public let seas: BoundaryTable?
    /// The view of ``seas``, a value read without reference counting (the table keeps its bytes
    /// alive for as long as this locator holds it).
    private let seaView: UnsafeBoundaryTable?
    /// Region indices of the place table by admin-1 feature, made on first need.
    private let regions: RegionIndex

    /// How far the nearest place of the point's own country is looked for, in km.
    public static let countrySearchLimitKm = 1500.0

    /// The bundled place table with the bundled boundaries.
    public static let bundled = PlaceLocator(geocoder: .bundled, boundaries: .bundled, seas: .bundledSeas)

    /// The zone names of the boundary table, made once (444 strings, a few microseconds).
    private let zoneNames: [String]

    /// A locator over `geocoder`'s places and `boundaries` (`nil`: every answer from the nearest
    /// place), naming the water at sea from `seas` (a table of ``BoundaryTable/seaCount`` seas).
    public init(geocoder: ReverseGeocoder, boundaries: BoundaryTable?, seas: BoundaryTable? = nil) {
        self.geocoder = geocoder
        self.boundaries = boundaries
        self.seas = seas
        seaView = seas?.view
        regions = RegionIndex()
        zoneNames = boundaries.map { table in (0..<table.timeZoneCount).map(table.timeZoneName) } ?? []
        countryCodes = boundaries.map { table in (0..<table.countryCount).map(table.countryCode) } ?? []
    }

    /// The country codes of the boundary table, made once (about 250 small strings), so that a
    /// point's is a copy, not a `String` decoded from the table.
    private let countryCodes: [String]

    /// Where `coordinate` is. Only places that pass `filter` are named (as a place or a city);
    /// the boundaries are answered whatever the filter.
    package func locate(
        _ coordinate: Coordinate, filter: PlaceFilter = .none, rule: CityRule = .standard
    ) -> UnsafeLocation {
        guard let boundaries else { return nearestOnly(coordinate, filter: filter, rule: rule) }
        let found = boundaries.features(coordinate)
        guard found.countryIndex >= 0 else {
            // At sea: the nearest place anywhere, and the zone of the water.
            var location = UnsafeLocation(basis: .nearest)
            location.atSea = true
            if let seaView,
                let (qx, qy) = UnsafeBoundaryTable.queryPoint(
                    latitude: coordinate.latitude, longitude: coordinate.longitude)
            {
                let sea = seaView.containing(qx, qy).seaIndex
                if sea >= 0 { location.sea = seaView.seaNameUTF8(Int(sea)) }
            }
            location.nearest = geocoder.nearestPlaceView(to: coordinate, filter: filter)
            // A city is within the rule's radius; far out at sea, no place is.
            if let nearest = location.nearest, nearest.distanceKm <= rule.maximumRadiusKm {
                location.city = geocoder.cityView(
                    near: coordinate, countryCode: nearest.view.countryCode, filter: filter, rule: rule)
            }
            (location.timeZone, location.otherTimeZone) = zones(
                found, nearestPlaceZone: location.nearest?.view.timeZone, in: boundaries)
            return location
        }
        let code =
            Int(found.countryIndex) < countryCodes.count
            ? countryCodes[Int(found.countryIndex)] : boundaries.countryCode(Int(found.countryIndex))
        var location = UnsafeLocation(basis: .boundaries)
        location.countryCode = code
        var countryBytes = code
        let (city, nearest) = countryBytes.withUTF8 { bytes in
            geocoder.cityAndNearestView(
                near: coordinate, countryCode: UnsafeRawBufferPointer(bytes), filter: filter, rule: rule,
                limitKm: Self.countrySearchLimitKm, boundaries: boundaries)
        }
        location.nearest = nearest
        location.city = city
        if let nearest {
            if let main = municipalCity(of: nearest, over: city, coordinate, filter: filter) {
                location.city = main
            } else if nearest.view.municipalityCode?.isEmpty ?? true,
                let owner = geocoder.sectionOwner(
                    of: nearest.view.slot, near: coordinate.unitVector, filter: filter, rule: rule)
            {
                // A section without a municipality code: the city it is a section of.
                location.city = owner
            }
        }
        location.country =
            nearest?.view.country ?? countryName(code) ?? boundaries.countryNameUTF8(Int(found.countryIndex))
        if found.admin1Index >= 0 {
            // Compared as bytes (String equality where either is not ASCII, as before).
            let admin1 = boundaries.admin1UTF8(Int(found.admin1Index))
            var sameCountry = admin1.countryCode.elementsEqual(code.utf8)
            if !sameCountry, !code.utf8.allSatisfy({ $0 < 0x80 }) || !admin1.countryCode.allSatisfy({ $0 < 0x80 }) {
                sameCountry = String(decoding: admin1.countryCode, as: UTF8.self) == code
            }
            if sameCountry {
                let admin1Code = String(decoding: admin1.code, as: UTF8.self)
                location.admin1Code = admin1Code
                if let view = nearest?.view, view.admin1Code.map({ $0.elementsEqual(admin1.code) }) == true {
                    location.admin1 = view.admin1
                    location.admin2 = view.admin2
                } else {
                    location.admin1 = admin1Name(code, admin1Code, feature: Int(found.admin1Index))
                }
            }
        }
        (location.timeZone, location.otherTimeZone) = zones(
            found, nearestPlaceZone: nearest?.view.timeZone, in: boundaries)
        return location
    }

    /// The answer of the nearest place alone (no boundaries, or at sea before the sea's fields).
    private func nearestOnly(_ coordinate: Coordinate, filter: PlaceFilter, rule: CityRule) -> UnsafeLocation {
        var location = UnsafeLocation(basis: .nearest)
        guard let nearest = geocoder.nearestPlaceView(to: coordinate, filter: filter) else { return location }
        let view = nearest.view
        location.nearest = nearest
        location.countryCode = String(decoding: view.countryCode, as: UTF8.self)
        location.country = view.country
        location.admin1Code = view.admin1Code.map { String(decoding: $0, as: UTF8.self) }
        location.admin1 = view.admin1
        location.admin2 = view.admin2
        location.timeZone = view.timeZone.map { String(decoding: $0, as: UTF8.self) }
        location.city = geocoder.cityView(near: coordinate, countryCode: view.countryCode, filter: filter, rule: rule)
        return location
    }

    /// The zone of the features (the nearest place's when it is one of two, else the smaller) and,
    /// in a kept overlap, the other one.
    private func zones(
        _ found: BoundaryFeatures, nearestPlaceZone: UnsafeRawBufferPointer?, in table: BoundaryTable
    ) -> (String?, String?) {
        guard found.timeZoneIndex >= 0 else { return (nil, nil) }
        let names = zoneNames
        guard Int(found.timeZoneIndex) < names.count else { return (nil, nil) }
        let first = names[Int(found.timeZoneIndex)]
        guard found.secondTimeZoneIndex >= 0, Int(found.secondTimeZoneIndex) < names.count else { return (first, nil) }
        let second = names[Int(found.secondTimeZoneIndex)]
        let hit = BoundaryHit(
            countryCode: nil, admin1: nil, timeZones: [first, second], isOcean: false,
            countryFromFallback: false, admin1FromFallback: false, features: found)
        let chosen = table.preferredZone(
            hit, nearestPlaceZone: nearestPlaceZone.map { String(decoding: $0, as: UTF8.self) })
        return (chosen, chosen == first ? second : first)
    }

    /// How far the main place of a municipality may be from the point to be its city, in km: a
    /// village in a large rural municipality (Kiruna's is 20,000 km²) stays itself.
    static let municipalReachKm = 20.0

    /// The municipality rule where GeoNames has municipality codes (``Place/municipalityLevel``:
    /// admin-2, admin-3 or admin-4 by country): the main place of the named place's municipality
    /// (its most populous place that is not a section, of the same code chain) is the city when
    /// it is larger than the city the distance rule found and than the named place, within
    /// ``municipalReachKm`` and the filter: so a point in Hatert, a section of Nijmegen, is
    /// Nijmegen, one in Belém is Lisbon and one in Dahlem is Berlin; Copenhagen's Indre By,
    /// whose distance rule already names Copenhagen, stays so. Japan is left out: cities500's
    /// codes there put towns in their neighbours' (Tomika in Yaotsu, Tachiarai in Asakura,
    /// Hara-machida in Aihara: 26 of 28 suburbs of the CHECK split that the rule changed).
    private func municipalCity(
        of named: PlaceView.Match, over city: PlaceView.Match?, _ coordinate: Coordinate, filter: PlaceFilter
    ) -> PlaceView.Match? {
        let table = geocoder.table
        // Only a section: a city section (`PPLX`) or a place GeoNames gives no feature code
        // (its neighbourhoods and parishes, such as Santa Maria de Belém); a village keeps the
        // distance rule, as people name their village, not its municipality's main town.
        if table.isSection(at: named.view.slot) == false { return nil }
        guard let main = table.municipalMain(at: named.view.slot), main != city?.view.slot,
            main != named.view.slot
        else { return nil }
        let population = table.population(at: main)
        let cityPopulation = city.map { table.population(at: $0.view.slot) } ?? 0
        guard population > table.population(at: named.view.slot), population > cityPopulation,
            population >= UInt64(max(0, filter.minimumPopulation))
        else { return nil }
        var limited = filter
        limited.maximumDistanceKm = min(filter.maximumDistanceKm ?? .infinity, Self.municipalReachKm)
        guard let (distance, bearing) = geocoder.measure(main, coordinate.unitVector, limited) else { return nil }
        return PlaceView.Match(view: PlaceView(geocoder: geocoder, slot: main), distanceKm: distance, bearing: bearing)
    }

    /// A country's name from the place table (any of its regions), for a point whose country has
    /// no place near enough to name.
    private func countryName(_ code: String) -> UnsafeRawBufferPointer? {
        regions.lookUp(geocoder.table).country[code].flatMap { geocoder.table.utf8(at: $0) }
    }

    /// Where `coordinate` is, as values of its own: the named place, the city and the country and
    /// region names are made into strings while the locator is alive, so the answer outlives it.
    /// Only places that pass `filter` are named (as a place or a city); the boundaries are
    /// answered whatever the filter. The command line uses the borrowing `locate` (`package`) to
    /// write millions of answers without making a `String`.
    /// With `names`, the answer's ``PlaceAnswer/names`` are in their language.
    public func answer(
        _ coordinate: Coordinate, filter: PlaceFilter = .none, rule: CityRule = .standard, names: LocalNames? = nil
    ) -> PlaceAnswer {
        var location = locate(coordinate, filter: filter, rule: rule)
        names?.localize(&location)
        return PlaceAnswer(location)
    }

    /// An admin-1 region's name from the place table, when the nearest place is in another region.
    private func admin1Name(_ country: String, _ code: String, feature: Int) -> UnsafeRawBufferPointer? {
        regions.lookUp(geocoder.table).admin1[country + "." + code].flatMap { geocoder.table.utf8(at: $0) }
    }
}

/// The answer of ``PlaceLocator/locate(_:filter:rule:)``, for the command line (`package`).
///
/// Its string fields are its own. The named place, the city and the country and region names are
/// borrowed from the locator's place table: the CLI writes them without making a `String`. A
/// library user calls ``PlaceLocator/answer(_:filter:rule:names:)``, whose ``PlaceAnswer`` holds them
/// as strings of its own.
///
/// **Borrowed memory.** The ``PlaceView``s and the `UnsafeRawBufferPointer` names point into the
/// place table of the locator's ``ReverseGeocoder`` (and the views do not retain it): valid for
/// the whole process with the bundled tables, and otherwise only while that geocoder lives. The
/// CLI holds its locator for the whole run. ``names`` point into the names table and into the
/// ``LocalNames`` that made them, which the CLI holds for the whole run too.
package struct UnsafeLocation: @unchecked Sendable {  // the borrowed bytes are immutable table memory
    // Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.locationsMadeOnManyThreadsReadTheSameOnAnother.
    /// What the country, region and zone are based on.
    package typealias Basis = PlaceAnswer.Basis

    /// What the country, region and zone are based on.
    package var basis: Basis
    /// No country contains the point.
    package var atSea = false
    /// At sea, the name of the smallest named sea that contains the point, as UTF-8 borrowed
    /// from the sea table (static data of the binary, or the locator's table).
    package var sea: UnsafeRawBufferPointer?
    /// The named place: the nearest in the point's country (the nearest anywhere at sea).
    package var nearest: PlaceView.Match?
    /// The city a person would name (``CityRule``).
    package var city: PlaceView.Match?
    /// The ISO 3166-1 alpha-2 code of the point's country (`FR`); `nil` when unknown.
    package var countryCode: String?
    /// The country's name, as UTF-8 borrowed from the place table.
    package var country: UnsafeRawBufferPointer?
    /// The admin-1 code of the point's region (`11` for Île-de-France); `nil` when unknown.
    package var admin1Code: String?
    /// The admin-1 region's name, as UTF-8 borrowed from the place table.
    package var admin1: UnsafeRawBufferPointer?
    /// The admin-2 region's name (the named place's), as UTF-8 borrowed from the place table.
    package var admin2: UnsafeRawBufferPointer?
    /// The IANA time zone of the point (`Europe/Paris`); `nil` when unknown.
    package var timeZone: String?
    /// Where two zones overlap on purpose, the one that is not ``timeZone``; `nil` elsewhere.
    package var otherTimeZone: String?
    /// With a language (``LocalNames/localize(_:)``), the names in it; `nil` without one.
    package var names: Names?

    /// The names of a location in the reader's language (``LocalNames/localize(_:)``), each
    /// falling back to the GeoNames name of the field it stands for, as UTF-8 borrowed from the
    /// names table or the place table.
    package struct Names {
        /// The language asked for, as a BCP 47 tag (`de-AT`), borrowed from the ``LocalNames``.
        package var language: UnsafeRawBufferPointer
        /// The named place's name; `nil` without one.
        package var place: UnsafeRawBufferPointer?
        /// The city's name; `nil` without one.
        package var city: UnsafeRawBufferPointer?
        /// The point's admin-1 region's name; `nil` without one.
        package var admin1: UnsafeRawBufferPointer?
        /// The point's country's name; `nil` without one (at sea).
        package var country: UnsafeRawBufferPointer?
    }

    /// An answer based on `basis` with every field unknown.
    package init(basis: Basis) { self.basis = basis }
}

/// The answer of ``PlaceLocator/answer(_:filter:rule:names:)``: where a point is, with names that are
/// strings of its own, valid after the locator is gone.
public struct PlaceAnswer: Hashable, Sendable {
    /// What the country, region and zone are based on.
    public enum Basis: String, Sendable {
        /// The polygons that contain the point.
        case boundaries
        /// The nearest place (a place table without boundaries, or a point at sea).
        case nearest
    }

    /// What the country, region and zone are based on.
    public var basis: Basis
    /// No country contains the point.
    public var atSea: Bool
    /// At sea, the smallest named sea that contains the point (`English Channel`); `nil` on
    /// land, and at sea outside every named sea or without a sea table.
    public var sea: String?
    /// The named place: the nearest in the point's country (the nearest anywhere at sea).
    public var nearest: PlaceMatch?
    /// The city a person would name (``CityRule``); `nil` when none is near enough.
    public var city: CityMatch?
    /// The ISO 3166-1 alpha-2 code of the point's country (`FR`); `nil` when unknown.
    public var countryCode: String?
    /// The country's name (`France`); `nil` when unknown.
    public var country: String?
    /// The admin-1 code of the point's region (`11`); `nil` when unknown.
    public var admin1Code: String?
    /// The admin-1 region's name (`Île-de-France`); `nil` when unknown.
    public var admin1: String?
    /// The admin-2 region's name (the named place's); `nil` when unknown.
    public var admin2: String?
    /// The IANA time zone of the point (`Europe/Paris`); `nil` when unknown.
    public var timeZone: String?
    /// The names in the reader's language, for a locator asked with one
    /// (``PlaceLocator/answer(_:filter:rule:names:)``); `nil` otherwise.
    public var names: Names? = nil
    /// Where two zones overlap on purpose (Asia/Urumqi and Asia/Shanghai in Xinjiang), the one that
    /// is not ``timeZone``; `nil` elsewhere. A photo's own offset can choose between them (see
    /// ``CaptureTime/resolve(dateTimeOriginal:subSeconds:offsetTimeOriginal:offsetSource:gpsTimestamp:zone:otherZone:rules:)``).
    public var otherTimeZone: String?

    /// An answer from the nearest place alone (``Basis/nearest``): its country,
    /// regions and zone, and no city.
    public init(nearest: PlaceMatch) {
        basis = .nearest
        atSea = false
        self.nearest = nearest
        countryCode = nearest.place.countryCode
        country = nearest.place.country
        admin1Code = nearest.place.admin1Code
        admin1 = nearest.place.admin1
        admin2 = nearest.place.admin2
        timeZone = nearest.place.timeZone
    }

    /// `location` with its borrowed names made into strings; only while the locator that gave
    /// it lives.
    package init(_ location: UnsafeLocation) {
        func text(_ bytes: UnsafeRawBufferPointer?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
        basis = location.basis
        atSea = location.atSea
        sea = text(location.sea)
        nearest = location.nearest?.placeMatch
        city = location.city.map { CityMatch(place: $0.view.place, distanceKm: $0.distanceKm) }
        countryCode = location.countryCode
        country = text(location.country)
        admin1Code = location.admin1Code
        admin1 = text(location.admin1)
        admin2 = text(location.admin2)
        timeZone = location.timeZone
        otherTimeZone = location.otherTimeZone
        names = location.names.map {
            Names(
                language: String(decoding: $0.language, as: UTF8.self), place: text($0.place), city: text($0.city),
                admin1: text($0.admin1),
                country: text($0.country))
        }
    }

    /// The names of an answer in the reader's language (``LocalNames``): each field falls back,
    /// through the language's fallbacks, to the GeoNames name of the field it stands for.
    public struct Names: Hashable, Sendable {
        /// The language asked for, as a BCP 47 tag (`de-AT`).
        public var language: String
        /// The named place's name (`München`); `nil` without a named place.
        public var place: String?
        /// The city's name; `nil` without a city.
        public var city: String?
        /// The point's admin-1 region's name (`Bayern`); `nil` when unknown.
        public var admin1: String?
        /// The point's country's name (`Deutschland`); `nil` when unknown (at sea).
        public var country: String?

        /// Names of an answer, as ``PlaceLocator/answer(_:filter:rule:names:)`` gives them.
        public init(language: String, place: String?, city: String?, admin1: String?, country: String?) {
            (self.language, self.place, self.city, self.admin1, self.country) = (language, place, city, admin1, country)
        }
    }

    /// The city when it is not the named place itself.
    public var distinctCity: CityMatch? {
        guard let city, city.place.geonameId != nearest?.place.geonameId else { return nil }
        return city
    }

    /// The name a person would give the place: the city when there is one, else the named
    /// place (`Berlin` rather than its district `Steglitz`).
    public var displayName: String? { city?.place.name ?? nearest?.place.name }
}

extension PlaceView {
    /// The admin-1 code of the place's region (`11` for Île-de-France), as UTF-8.
    package var admin1Code: UnsafeRawBufferPointer? { region(2) }
}

/// The place table's region names by country code and by `country.admin1` code: made once, on the first point that needs them (a region the
/// nearest place cannot name is rare), so that opening phototag costs nothing, then read by every
/// thread without a lock.
private final class RegionIndex: Sendable {
    final class Maps: Sendable {
        /// String offsets of country names by code, and of admin-1 names by `country.code`.
        let country: [String: UInt32]
        let admin1: [String: UInt32]

        init(_ table: UnsafePlaceTable) {
            var country: [String: UInt32] = [:], admin1: [String: UInt32] = [:]
            for index in 0..<table.regionCount {
                guard let code = table.string(at: table.regionString(index, field: 0)) else { continue }
                let countryName = table.regionString(index, field: 1)
                if countryName != 0, country[code] == nil { country[code] = countryName }
                let admin1Name = table.regionString(index, field: 3)
                if admin1Name != 0, let admin1Code = table.string(at: table.regionString(index, field: 2)) {
                    let key = code + "." + admin1Code
                    if admin1[key] == nil { admin1[key] = admin1Name }
                }
            }
            self.country = country
            self.admin1 = admin1
        }
    }

    /// The maps once built, read without a lock.
    private let maps = AtomicLazyReference<Maps>()
    /// The same maps, built under this lock, so that they are built once: geocode's first batch
    /// asks on every core at once, and each build reads every region. (Not a `Locked(())`: see
    /// ``Locked``.)
    private let building = Locked<Maps?>(nil)

    func lookUp(_ table: UnsafePlaceTable) -> Maps {
        if let maps = maps.load() { return maps }
        return building.withLock { built in
            if let built { return built }
            let made = maps.storeIfNil(Maps(table))
            built = made
            return made
        }
    }
}

extension ReverseGeocoder {
    /// ``nearestPlaceView(to:filter:)`` among the places of one country (`countryCode` as UTF-8,
    /// e.g. a ``PlaceView``'s), `nil` when none passes the filter. The view is valid only while
    /// this geocoder lives (see ``PlaceView``).
    package func nearestPlaceView(
        to coordinate: Coordinate, inCountry countryCode: UnsafeRawBufferPointer, filter: PlaceFilter = .none
    ) -> PlaceView.Match? {
        let query = coordinate.unitVector
        var best = BestInCountry(country: countryCode, worst: squaredChordBound(filter))
        table.search(query, minimumPopulation: UInt64(max(0, filter.minimumPopulation)), into: &best)
        guard best.slot >= 0 else { return nil }
        guard let (distance, bearing) = measure(best.slot, query, filter) else { return nil }
        return PlaceView.Match(view: PlaceView(geocoder: self, slot: best.slot), distanceKm: distance, bearing: bearing)
    }
}

extension ReverseGeocoder {
    /// The largest squared chord a place within `filter`'s distance may have (infinite without
    /// one), a hair wide so that a place exactly at that distance is found.
    func squaredChordBound(_ filter: PlaceFilter) -> Double {
        guard let limit = filter.maximumDistanceKm else { return .infinity }
        // The country search's limit, on every point on land, is worked out once.
        if limit == PlaceLocator.countrySearchLimitKm { return Self.countrySearchBound }
        return limit < 0 ? -1 : Coordinate.squaredChord(forDistanceKm: limit) * (1 + 1e-9) + 1e-18
    }

    /// ``squaredChordBound(_:)`` of ``PlaceLocator/countrySearchLimitKm``.
    private static let countrySearchBound =
        Coordinate.squaredChord(forDistanceKm: PlaceLocator.countrySearchLimitKm) * (1 + 1e-9) + 1e-18
}

/// The single best place of one country (the search collector of
/// ``ReverseGeocoder/nearestPlaceView(to:inCountry:filter:)``).
struct BestInCountry: UnsafePlaceTable.Collector {
    var country: CountryTest
    var worst: Double
    var slot = -1

    init(country: UnsafeRawBufferPointer, worst: Double) {
        self.country = CountryTest(country)
        self.worst = worst
    }

    @inline(__always)
    mutating func offer(_ squaredChord: Double, _ candidate: Int, in table: UnsafePlaceTable) {
        // squaredChord <= worst here, so an equal distance wins only on the tie-break.
        guard squaredChord < worst || slot < 0 || table.ranksBefore(candidate, slot) else { return }
        guard country.contains(candidate, in: table) else { return }
        worst = squaredChord
        slot = candidate
    }
}

/// Whether places are in one country (its code as UTF-8), remembering the answer for the last
/// country-code string seen: the places a search offers come in runs of one country, whose
/// regions share the code's string, so most tests compare one offset instead of the bytes.
struct CountryTest {
    let code: UnsafeRawBufferPointer
    /// The answer for a place whose region is out of range or has no country code.
    let unreadable: Bool
    /// The pool offset of the last country code compared, and the answer for it (offset 0 has
    /// no string: the answer for an unreadable code).
    private var lastOffset: UInt32 = 0
    private var lastAnswer: Bool

    init(_ code: UnsafeRawBufferPointer, unreadable: Bool = false) {
        self.code = code
        self.unreadable = unreadable
        lastAnswer = unreadable
    }

    /// Whether the place at `slot` is in the country.
    @inline(__always)
    mutating func contains(_ slot: Int, in table: UnsafePlaceTable) -> Bool {
        guard let region = table.regionIndex(at: slot) else { return unreadable }
        let offset = table.regionString(region, field: 0)
        if offset == lastOffset { return lastAnswer }
        lastOffset = offset
        lastAnswer = table.utf8(at: offset).map { $0.elementsEqual(code) } ?? unreadable
        return lastAnswer
    }
}
