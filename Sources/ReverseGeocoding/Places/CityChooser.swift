import PhotoTagSupport

/// The rule that picks the city a person would name for a point: the most prominent place whose
/// area of influence covers the point, rather than the nearest neighbourhood.
///
/// The candidates are the places within ``maximumRadiusKm`` of the point, in the point's country,
/// except city sections (feature code `PPLX`). Each place has an **influence radius** that grows
/// with its population p: `r(p) = clamp(radiusAtMillionKm × (p / 1,000,000)^radiusExponent,
/// minimumRadiusKm, maximumRadiusKm)`, that is 5 km for a city of a million, 9.2 km for Paris
/// (2.1M), 10 km (the cap) for Moscow, 0.7 km for Versailles (85,000) or a village. A place
/// **covers** the point when the point is at most its radius away. The most populous covering
/// place is named; when none covers the point, the nearest candidate is. Ties go to the nearer
/// place, then the larger population, then the smaller geonameid, so the answer never depends on
/// the table's order.
///
/// Two limits keep the answer one a resident signs off, both against the *named place* (the
/// nearest place of the country, city sections included). The city is in the named place's
/// admin-1 region: a place is ruled out when GeoNames gives it another admin-1 code than the
/// named place's and, with boundaries, the two places also lie in different admin-1 polygons
/// (Dahlem, in Berlin, is not Teltow, in Brandenburg; two places GeoNames codes apart inside one
/// polygon stay together; a place without a code is never ruled out; the point's own polygon is
/// not used, as generalized borders run a kilometre or two off).
/// And the city is never smaller than the named place: a smaller one gives way to the named
/// place, or to no city when that is a section (`PPLX`).
///
/// So a point in Passy, 5.4 km from the centre of Paris, is Paris; Versailles, 17 km out, stays
/// Versailles; a suburb 12 km or more from a big city is beyond every radius and stays itself;
/// and a small town is named by its own small radius or as the nearest place, never by a bigger
/// town 20 km away. The defaults were tuned on seeded point sets built from GeoNames cities500
/// (`Benchmarks/tune_city.py`, see Benchmarks/README.md).
public struct CityRule: Hashable, Sendable {
    /// The influence radius of a place of one million people, in km.
    public var radiusAtMillionKm: Double
    /// How fast the influence radius grows with the population.
    public var radiusExponent: Double
    /// The smallest influence radius: every place covers its immediate surroundings.
    public var minimumRadiusKm: Double
    /// The largest influence radius, and how far candidates are looked for.
    public var maximumRadiusKm: Double

    /// A rule with the given radii; the defaults are the tuned rule (``standard``).
    public init(
        radiusAtMillionKm: Double = 5, radiusExponent: Double = 0.8, minimumRadiusKm: Double = 0.7,
        maximumRadiusKm: Double = 10
    ) {
        self.radiusAtMillionKm = radiusAtMillionKm
        self.radiusExponent = radiusExponent
        self.minimumRadiusKm = minimumRadiusKm
        self.maximumRadiusKm = maximumRadiusKm
    }

    /// The tuned rule.
    public static let standard = CityRule()

    /// The influence radius of a place of `population` people, in km.
    public func influenceRadiusKm(population: Int) -> Double {
        let scaled = radiusAtMillionKm * pow(Double(max(0, population)) / 1_000_000, radiusExponent)
        return min(max(scaled, minimumRadiusKm), maximumRadiusKm)
    }
}

/// The city a person would name for a point, and how far the point is from its centre.
public struct CityMatch: Hashable, Sendable {
    /// The city.
    public var place: Place
    /// Great-circle distance from the place to the point, in kilometres.
    public var distanceKm: Double

    /// The city `place`, `distanceKm` from the query point.
    public init(place: Place, distanceKm: Double) {
        self.place = place
        self.distanceKm = distanceKm
    }
}

extension ReverseGeocoder {
    /// The city a person would name for `coordinate` by `rule` (see ``CityRule``): a place in the
    /// country `countryCode` (any country when `nil`), never a city section (`PPLX`); `nil` when no
    /// such place is within the rule's ``CityRule/maximumRadiusKm``. Only places that pass `filter`
    /// are considered (as for ``nearestPlace(to:filter:)``).
    public func city(
        near coordinate: Coordinate, countryCode: String?, filter: PlaceFilter = .none, rule: CityRule = .standard
    ) -> CityMatch? {
        var code = countryCode ?? ""
        let found = code.withUTF8 { bytes in
            citySlot(
                near: coordinate.unitVector, countryCode: countryCode == nil ? nil : UnsafeRawBufferPointer(bytes),
                filter: filter, rule: rule)
        }
        guard let found else { return nil }
        return CityMatch(place: place(at: found.slot), distanceKm: found.distanceKm)
    }

    /// ``city(near:countryCode:filter:rule:)`` without building a ``Place``, for callers that write
    /// millions of records: `countryCode` as UTF-8 bytes (such as a ``PlaceView``'s).
    package func cityView(
        near coordinate: Coordinate, countryCode: UnsafeRawBufferPointer?, filter: PlaceFilter = .none,
        rule: CityRule = .standard
    ) -> PlaceView.Match? {
        let query = coordinate.unitVector
        guard let found = citySlot(near: query, countryCode: countryCode, filter: filter, rule: rule) else {
            return nil
        }
        let p = table.unitVector(at: found.slot)
        let east = p.x * query.y - p.y * query.x
        let north = query.z * (p.x * p.x + p.y * p.y) - p.z * (p.x * query.x + p.y * query.y)
        var bearing = east == 0 && north == 0 ? 0 : atan2(east, north) * 180 / .pi
        if bearing < 0 { bearing += 360 }
        if bearing >= 360 { bearing -= 360 }
        return PlaceView.Match(
            view: PlaceView(geocoder: self, slot: found.slot), distanceKm: found.distanceKm, bearing: bearing)
    }

    /// The city (``cityView(near:countryCode:filter:rule:)``) and the nearest place of the country
    /// (``nearestPlaceView(to:inCountry:filter:)`` within `limitKm`), in one search of the tree:
    /// within the city rule's radius it sees every place, as the city needs; beyond it, only what
    /// the nearest place of the country may be (most points on land are farther than the radius
    /// from any place, and a search of the radius alone, then one for the nearest, read the tree
    /// twice).
    ///
    /// `boundaries`, when given, decide with the GeoNames codes whether two places are in one
    /// admin-1 region (see ``CityRule``).
    package func cityAndNearestView(
        near coordinate: Coordinate, countryCode: UnsafeRawBufferPointer, filter: PlaceFilter = .none,
        rule: CityRule = .standard, limitKm: Double, boundaries: BoundaryTable? = nil
    ) -> (city: PlaceView.Match?, nearest: PlaceView.Match?) {
        let query = coordinate.unitVector
        var limited = filter
        limited.maximumDistanceKm = min(filter.maximumDistanceKm ?? .infinity, limitKm)
        var both = CityAndNearest(
            chooser: CityChooser(
                rule: rule, countryCode: countryCode,
                maximumDistanceKm: min(rule.maximumRadiusKm, filter.maximumDistanceKm ?? .infinity, limitKm)),
            nearest: BestInCountry(country: countryCode, worst: squaredChordBound(limited)))
        table.search(query, minimumPopulation: UInt64(max(0, filter.minimumPopulation)), into: &both)
        var chooser = both.chooser
        var city: PlaceView.Match? = nil
        if let (slot, _) = cityInRegion(
            &chooser, query, minimumPopulation: filter.minimumPopulation, boundaries: boundaries),
            let (distance, bearing) = measure(slot, query, filter)
        {
            city = PlaceView.Match(view: PlaceView(geocoder: self, slot: slot), distanceKm: distance, bearing: bearing)
        }
        // The nearest place of the country within the radius, else beyond it (what a search of
        // its own, ``nearestPlaceView(to:inCountry:filter:)`` with `limited`, gives).
        let slot = chooser.closest >= 0 ? chooser.closest : both.nearest.slot
        guard slot >= 0, let (distance, bearing) = measure(slot, query, limited) else {
            // The closest within the radius may be a hair beyond a smaller filter's distance:
            // then the nearest of the country, if another.
            if chooser.closest >= 0, both.nearest.slot >= 0, both.nearest.slot != chooser.closest,
                let (distance, bearing) = measure(both.nearest.slot, query, limited)
            {
                let view = PlaceView(geocoder: self, slot: both.nearest.slot)
                return (city, PlaceView.Match(view: view, distanceKm: distance, bearing: bearing))
            }
            return (city, nil)
        }
        return (
            city, PlaceView.Match(view: PlaceView(geocoder: self, slot: slot), distanceKm: distance, bearing: bearing)
        )
    }

    /// The slot of the city and its distance: one search of the tree within the rule's maximum
    /// radius, scoring every place on the way (no allocation).
    private func citySlot(
        near query: SIMD3<Double>, countryCode: UnsafeRawBufferPointer?, filter: PlaceFilter, rule: CityRule
    ) -> (slot: Int, distanceKm: Double)? {
        var chooser = CityChooser(
            rule: rule, countryCode: countryCode,
            maximumDistanceKm: min(rule.maximumRadiusKm, filter.maximumDistanceKm ?? .infinity))
        table.search(query, minimumPopulation: UInt64(max(0, filter.minimumPopulation)), into: &chooser)
        return cityInRegion(&chooser, query, minimumPopulation: filter.minimumPopulation, boundaries: nil)
    }

    /// The city of a finished search (``CityChooser/city(in:)``), in the named place's admin-1
    /// region (see ``CityRule``): when the search's pick is in another region, the search is run
    /// again with the named place's code required (rare: a point near a border between regions).
    private func cityInRegion(
        _ chooser: inout CityChooser, _ query: SIMD3<Double>, minimumPopulation: Int, boundaries: BoundaryTable?
    ) -> (slot: Int, distanceKm: Double)? {
        let pick = chooser.city(in: table)
        guard let (slot, _) = pick, chooser.closest >= 0, slot != chooser.closest,
            let named = table.regionIndex(at: chooser.closest), let theirs = table.regionIndex(at: slot),
            named != theirs,
            let code = table.utf8(at: table.regionString(named, field: 2)), !code.isEmpty,
            let other = table.utf8(at: table.regionString(theirs, field: 2)), !other.isEmpty,
            !code.elementsEqual(other)
        else { return pick }
        if let boundaries {
            let a = table.coordinate(at: chooser.closest), b = table.coordinate(at: slot)
            let first = boundaries.features(latitude: a.latitude, longitude: a.longitude).admin1Index
            let second = boundaries.features(latitude: b.latitude, longitude: b.longitude).admin1Index
            if first >= 0, first == second { return pick }
        }
        var again = CityChooser(
            rule: chooser.rule, countryCode: chooser.countryCode, admin1Code: code,
            maximumDistanceKm: chooser.maximumDistanceKm)
        table.search(query, minimumPopulation: UInt64(max(0, minimumPopulation)), into: &again)
        return again.city(in: table)
    }
}

/// The collector of ``ReverseGeocoder/cityAndNearestView(near:countryCode:filter:rule:limitKm:)``:
/// the city rule's chooser, offered every place within its radius, and the nearest place of the
/// country, offered every place within its own shrinking bound. A place within either is offered
/// to that one, so each sees what a search of its own would (their answers do not depend on the
/// order places come in).
struct CityAndNearest: UnsafePlaceTable.Collector {
    var chooser: CityChooser
    var nearest: BestInCountry

    var worst: Double { Swift.max(chooser.worst, nearest.worst) }

    @inline(__always)
    mutating func offer(_ squaredChord: Double, _ slot: Int, in table: UnsafePlaceTable) {
        if squaredChord <= chooser.worst { chooser.offer(squaredChord, slot, in: table) }
        if squaredChord <= nearest.worst { nearest.offer(squaredChord, slot, in: table) }
    }
}

/// The search collector of the city rule: it sees every place within the rule's maximum radius
/// and keeps the most populous covering place and the nearest place, both in the country and not `PPLX`.
struct CityChooser: UnsafePlaceTable.Collector {
    let rule: CityRule
    let countryCode: UnsafeRawBufferPointer?
    /// The test of `countryCode`, when there is one.
    private var country: CountryTest?
    /// The test of the point's admin-1 code, when it is known.
    private var admin1: Admin1Test?
    /// The rule's maximum radius, or the caller's filter's when smaller.
    let maximumDistanceKm: Double
    let worst: Double
    /// The population below which a place's influence radius is the minimum radius.
    let smallPopulation: UInt64
    var covering = -1
    var coveringPopulation: UInt64 = 0
    var coveringDistance = Double.infinity
    var nearest = -1
    var nearestDistance = Double.infinity
    /// The nearest place of the country of any kind (`PPLX` too) within the radius, ranked as
    /// ``UnsafePlaceTable/Best`` ranks: what ``PlaceLocator`` names, found in the same search.
    var closest = -1
    var closestSquaredChord = Double.infinity

    init(
        rule: CityRule, countryCode: UnsafeRawBufferPointer?, admin1Code: UnsafeRawBufferPointer? = nil,
        maximumDistanceKm: Double
    ) {
        self.rule = rule
        self.countryCode = countryCode
        admin1 = admin1Code.flatMap { $0.isEmpty ? nil : Admin1Test($0) }
        // A place whose region or code cannot be read is in the empty country.
        country = countryCode.map { CountryTest($0, unreadable: $0.isEmpty) }
        self.maximumDistanceKm = maximumDistanceKm
        // The standard rule's numbers are worked out once (a `pow` and a `sin` per point on land).
        let standard = Self.standard
        smallPopulation = rule == standard.rule ? standard.smallPopulation : Self.smallPopulation(rule)
        worst = maximumDistanceKm == standard.rule.maximumRadiusKm ? standard.worst : Self.worst(maximumDistanceKm)
    }

    /// ``smallPopulation`` and ``worst`` of the standard rule at its own radius.
    private static let standard = (
        rule: CityRule.standard, smallPopulation: smallPopulation(.standard),
        worst: worst(CityRule.standard.maximumRadiusKm)
    )

    /// The population below which `rule`'s influence radius is its minimum radius.
    private static func smallPopulation(_ rule: CityRule) -> UInt64 {
        let small = 1_000_000 * pow(rule.minimumRadiusKm / rule.radiusAtMillionKm, 1 / rule.radiusExponent)
        return small.isFinite && small >= 1 ? UInt64(min(small, 1e18)) - 1 : 0
    }

    /// The largest squared chord within `maximumDistanceKm`, a hair wide.
    private static func worst(_ maximumDistanceKm: Double) -> Double {
        maximumDistanceKm < 0 ? -1 : Coordinate.squaredChord(forDistanceKm: maximumDistanceKm) * (1 + 1e-9) + 1e-18
    }

    mutating func offer(_ squaredChord: Double, _ slot: Int, in table: UnsafePlaceTable) {
        if closest < 0 || squaredChord < closestSquaredChord
            || (squaredChord == closestSquaredChord && table.ranksBefore(slot, closest)),
            inCountry(slot, in: table)
        {
            (closest, closestSquaredChord) = (slot, squaredChord)
        }
        // The arc of the chord: 2 asin(c/2) = c + c³/24 + O(c⁵), exact to 1e-16 within 64 km.
        let chord = squaredChord.squareRoot()
        let angle = chord < 0.01 ? chord + chord * squaredChord / 24 : 2 * asin(min(1, chord / 2))
        let distance = angle * Coordinate.earthRadiusKm
        guard distance <= maximumDistanceKm else { return }
        let beatsNearest = nearest < 0 || ranks(slot, distance, before: nearest, nearestDistance, in: table)
        var beatsCovering = false
        let population = table.population(at: slot)
        // Only a place larger than the minimum radius's population reaches farther (no pow for
        // the many small places).
        if covering < 0 || population >= coveringPopulation,
            distance <= rule.minimumRadiusKm
                || (population > smallPopulation
                    && distance <= rule.influenceRadiusKm(population: Int(clamping: population)))
        {
            beatsCovering =
                covering < 0 || population > coveringPopulation
                || ranks(slot, distance, before: covering, coveringDistance, in: table)
        }
        guard beatsNearest || beatsCovering, eligible(slot, in: table) else { return }
        if beatsNearest { (nearest, nearestDistance) = (slot, distance) }
        if beatsCovering { (covering, coveringPopulation, coveringDistance) = (slot, population, distance) }
    }

    /// Whether `a` at `da` km ranks before `b` at `db` km: nearer, then larger population, then
    /// smaller geonameid.
    @inline(__always)
    private func ranks(_ a: Int, _ da: Double, before b: Int, _ db: Double, in table: UnsafePlaceTable) -> Bool {
        da != db ? da < db : table.ranksBefore(a, b)
    }

    /// Whether the place is in the country (any place when no country is given).
    @inline(__always)
    private mutating func inCountry(_ slot: Int, in table: UnsafePlaceTable) -> Bool {
        country?.contains(slot, in: table) ?? true
    }

    /// Whether the place may be named: in the country, in the point's region when that is known,
    /// and not a section of a city (`PPLX`).
    private mutating func eligible(_ slot: Int, in table: UnsafePlaceTable) -> Bool {
        if table.isSection(at: slot) == true { return false }
        return inCountry(slot, in: table) && (admin1?.admits(slot, in: table) ?? true)
    }

    /// The city: the most populous covering place, else the nearest one that may be named; but
    /// never a place smaller than the nearest place of the country (the named place, ``closest``):
    /// then that place when it may be named, else none.
    mutating func city(in table: UnsafePlaceTable) -> (slot: Int, distanceKm: Double)? {
        let pick = covering >= 0 ? (covering, coveringDistance) : nearest >= 0 ? (nearest, nearestDistance) : nil
        guard let (slot, _) = pick, closest >= 0, closest != slot,
            table.population(at: slot) < table.population(at: closest)
        else { return pick }
        guard eligible(closest, in: table) else { return nil }
        let chord = closestSquaredChord.squareRoot()
        return (closest, 2 * asin(min(1, chord / 2)) * Coordinate.earthRadiusKm)
    }
}

/// Whether a place is in the point's admin-1 region: its GeoNames admin-1 code is the point's, or
/// it has none (a place without a code is not known to be elsewhere). Cached by region, as
/// places in a row mostly share one.
struct Admin1Test {
    let code: UnsafeRawBufferPointer
    private var lastRegion = -1
    private var lastAnswer = true

    init(_ code: UnsafeRawBufferPointer) { self.code = code }

    @inline(__always)
    mutating func admits(_ slot: Int, in table: UnsafePlaceTable) -> Bool {
        guard let region = table.regionIndex(at: slot) else { return true }
        if region == lastRegion { return lastAnswer }
        lastRegion = region
        let theirs = table.utf8(at: table.regionString(region, field: 2))
        lastAnswer = theirs.map { $0.isEmpty || $0.elementsEqual(code) } ?? true
        return lastAnswer
    }
}

extension ReverseGeocoder {
    /// How many times a place's influence radius (``CityRule/influenceRadiusKm(population:)``) a
    /// city section may be from it and still be its section (see ``sectionOwner(of:near:filter:rule:)``).
    static let sectionStretch = 3.0

    /// The city a section that GeoNames gives no municipality code belongs to: of the places that
    /// are not sections (feature code `PPLX` or none), in the section's country, in its admin-1
    /// region when both have a code, and more populous than the section, the one whose influence
    /// radius grown evenly reaches the point first (the smallest distance / radius), when it does
    /// within ``sectionStretch`` times its radius. A known section (`PPLX`) looks as far as the
    /// rule's largest radius (10 km). A place without a feature code may be a section or a
    /// village (cities500 gives no code for 44% of its places, those added since 2019 or under
    /// 1,000 people), so it is taken for a section only of a place at least five times its size
    /// within half that (5 km). So Hasseldieksdamm, 4.3 km from Kiel (radius 1.65 km, 100 times
    /// its size), is in Kiel, and Gastown, 3.9 km from Vancouver's point (3.6 km), in Vancouver,
    /// not in its neighbour section Chinatown. Chosen on the TUNING halves of two sets of
    /// sections, one by name ("Zürich (Kreis 11)") and one by municipality codes, and of the
    /// suburb set, and checked on their CHECK halves (Benchmarks/sections.py; Benchmarks/README.md).
    package func sectionOwner(
        of section: Int, near query: SIMD3<Double>, filter: PlaceFilter, rule: CityRule
    ) -> PlaceView.Match? {
        // `true`: a known section (`PPLX`); `nil`: no feature code; `false`: not a section.
        let known = table.isSection(at: section)
        guard known != false, let region = table.regionIndex(at: section),
            let country = table.utf8(at: table.regionString(region, field: 0))
        else { return nil }
        let admin1 = table.utf8(at: table.regionString(region, field: 2))
        let (reachShare, sizeFactor): (Double, UInt64) = known == true ? (1, 1) : (0.5, 5)
        let reach = min(reachShare * rule.maximumRadiusKm, filter.maximumDistanceKm ?? .infinity)
        let population = table.population(at: section)
        let (scaled, overflow) = population.multipliedReportingOverflow(by: sizeFactor)
        let smallest = overflow ? UInt64.max : max(population + 1, scaled)
        var owner = SectionOwner(
            rule: rule, country: CountryTest(country), admin1: admin1.flatMap { $0.isEmpty ? nil : Admin1Test($0) },
            reachKm: reach)
        table.search(query, minimumPopulation: max(UInt64(max(0, filter.minimumPopulation)), smallest), into: &owner)
        guard owner.slot >= 0, let (distance, bearing) = measure(owner.slot, query, filter) else { return nil }
        return PlaceView.Match(
            view: PlaceView(geocoder: self, slot: owner.slot), distanceKm: distance, bearing: bearing)
    }
}

/// The search collector of ``ReverseGeocoder/sectionOwner(of:near:filter:rule:)``: every place
/// within the reach, keeping the eligible one with the smallest distance over influence radius
/// (ties: the nearer, then the table's order).
struct SectionOwner: UnsafePlaceTable.Collector {
    let rule: CityRule
    var country: CountryTest
    var admin1: Admin1Test?
    let reachKm: Double
    let worst: Double
    var slot = -1
    var ratio = Double.infinity
    var distance = Double.infinity

    init(rule: CityRule, country: CountryTest, admin1: Admin1Test?, reachKm: Double) {
        self.rule = rule
        self.country = country
        self.admin1 = admin1
        self.reachKm = reachKm
        worst = reachKm < 0 ? -1 : Coordinate.squaredChord(forDistanceKm: reachKm) * (1 + 1e-9) + 1e-18
    }

    mutating func offer(_ squaredChord: Double, _ candidate: Int, in table: UnsafePlaceTable) {
        // The search offers only places large enough (its minimum population).
        guard table.isSection(at: candidate) == false else { return }
        let population = table.population(at: candidate)
        let angle = 2 * asin(min(1, squaredChord.squareRoot() / 2))
        let km = angle * Coordinate.earthRadiusKm
        let radius = rule.influenceRadiusKm(population: Int(clamping: population))
        guard km <= reachKm, km <= ReverseGeocoder.sectionStretch * radius else { return }
        let r = km / radius
        guard
            slot < 0 || r < ratio
                || (r == ratio && (km < distance || (km == distance && table.ranksBefore(candidate, slot))))
        else { return }
        guard country.contains(candidate, in: table), admin1?.admits(candidate, in: table) ?? true else { return }
        (slot, ratio, distance) = (candidate, r, km)
    }
}
