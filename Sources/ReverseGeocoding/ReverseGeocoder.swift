import CGeoNamesData
import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the places nearest to a coordinate, offline, in a GeoNames-derived place table.
///
/// The table is either the one compiled into the binary (``bundled``) or a file built by
/// `phototag places import` (``init(contentsOf:)``). Either way nothing is parsed or built when
/// it is opened: the k-d tree over unit vectors is part of the table, and a lookup reads only the
/// tree nodes on its path and the rows it returns.
///
/// A `ReverseGeocoder` is immutable; one instance serves any number of threads.
public final class ReverseGeocoder: Sendable {
    let table: PlaceTable
    /// Keeps the bytes under `table` alive (a mapped file or an array); `nil` for the bundled data.
    private let owner: (any Sendable)?
    /// Names that many places share, decoded once: regions by index, other strings by offset.
    /// Reached only through `withLock`, so every access holds the lock.
    private let shared = Locked(SharedNames())

    /// The cache of shared names (see ``shared``).
    private struct SharedNames {
        var regions: [PlaceTable.Region?] = []
        var strings: [UInt32: String] = [:]
    }

    /// The table compiled into this binary: GeoNames cities500 (see `phototag --version`).
    public static let bundled: ReverseGeocoder = {
        let bytes = UnsafeRawBufferPointer(start: CGeoNamesData_table(), count: CGeoNamesData_tableSize())
        do {
            return ReverseGeocoder(table: try PlaceTable(bytes: bytes, name: "the bundled place table"), owner: nil)
        } catch {
            // The build embeds a table that the test suite opens and checks; this is unreachable
            // unless the binary itself is damaged.
            preconditionFailure("\(error)")
        }
    }()

    private init(table: PlaceTable, owner: (any Sendable)?) {
        self.table = table
        self.owner = owner
    }

    /// Opens a table file written by `phototag places import`, mapping it read-only.
    ///
    /// - Throws: ``ReverseGeocodingError`` when the file cannot be read or is not a place table.
    public convenience init(contentsOf path: String) throws(ReverseGeocodingError) {
        let file = try MappedFile(path: path)
        let table = try PlaceTable(bytes: file.bytes, name: path)
        guard table.validateStrings() else {
            throw .notAPlaceTable(path: path, reason: "its names are not valid UTF-8")
        }
        self.init(table: table, owner: file)
    }

    /// Opens a table held in memory (as written by ``PlaceTableBuilder``), checking it as
    /// ``init(contentsOf:)`` checks a file.
    ///
    /// - Throws: ``ReverseGeocodingError/notAPlaceTable(path:reason:)`` when the bytes are not a
    ///   place table or its names are not valid UTF-8.
    public convenience init(tableBytes: [UInt8]) throws(ReverseGeocodingError) {
        let storage = AlignedTableBytes(tableBytes)
        let name = "the place table"
        let table = try PlaceTable(bytes: storage.bytes, name: name)
        guard table.validateStrings() else {
            throw .notAPlaceTable(path: name, reason: "its names are not valid UTF-8")
        }
        self.init(table: table, owner: storage)
    }

    /// How many places the table holds.
    public var placeCount: Int { table.count }
    /// Where the table's data came from, e.g. `GeoNames cities500.txt`.
    public var source: String { table.source }
    /// The date of the table's data (`YYYY-MM-DD`).
    public var date: String { table.date }

    /// The place nearest to `coordinate` that passes `filter`, or `nil` when none does.
    ///
    /// Places at the same distance are ranked by larger population, then smaller geonameid.
    ///
    /// - Complexity: O(log n) expected.
    public func nearestPlace(to coordinate: Coordinate, filter: PlaceFilter = .none) -> PlaceMatch? {
        let query = coordinate.unitVector
        var best = PlaceTable.Best(worst: bound(filter))
        table.search(query, minimumPopulation: minimumPopulation(filter), into: &best)
        guard best.slot >= 0 else { return nil }
        return match(best.slot, query, filter)
    }

    /// The `count` places nearest to `coordinate` that pass `filter`, nearest first.
    ///
    /// - Complexity: O(k log n) expected for k = `count`.
    public func nearestPlaces(to coordinate: Coordinate, count: Int, filter: PlaceFilter = .none) -> [PlaceMatch] {
        guard count > 0 else { return [] }
        let query = coordinate.unitVector
        var best = PlaceTable.BestN(limit: count, bound: bound(filter))
        table.search(query, minimumPopulation: minimumPopulation(filter), into: &best)
        return best.found.compactMap { match($0.slot, query, filter) }
    }

    /// The largest squared chord the filter allows, a hair wide so that a place exactly at the
    /// maximum distance is found; ``match(_:_:_:)`` then applies the exact great-circle test.
    private func bound(_ filter: PlaceFilter) -> Double {
        guard let limit = filter.maximumDistanceKm else { return .infinity }
        guard limit >= 0 else { return -1 }
        return Coordinate.squaredChord(forDistanceKm: limit) * (1 + 1e-9) + 1e-18
    }

    private func minimumPopulation(_ filter: PlaceFilter) -> UInt64 { UInt64(max(0, filter.minimumPopulation)) }

    /// The result for the place at `slot`, or `nil` when it is beyond the filter's distance.
    ///
    /// The distance and bearing come from the unit vectors the search already has: the angle
    /// between them as `atan2(|p × q|, p · q)` (accurate at every distance, unlike the arc-cosine)
    /// times R = 6371.0088 km, and the bearing as the direction of `q` in the local east/north
    /// plane at `p`. Both agree with ``Coordinate/distanceKm(to:)`` and
    /// ``Coordinate/bearing(to:)`` to rounding, for a fraction of their trigonometry.
    private func match(_ slot: Int, _ query: SIMD3<Double>, _ filter: PlaceFilter) -> PlaceMatch? {
        guard let (distance, bearing) = measure(slot, query, filter) else { return nil }
        return PlaceMatch(place: place(at: slot), distanceKm: distance, bearing: bearing)
    }

    /// The distance and bearing from the place at `slot` to `query` (a unit vector); `nil` beyond
    /// the filter's maximum distance.
    func measure(_ slot: Int, _ q: SIMD3<Double>, _ filter: PlaceFilter) -> (Double, Double)? {
        let p = table.unitVector(at: slot)
        let cross = SIMD3(p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x)
        let angle = atan2((cross * cross).sum().squareRoot(), (p * q).sum())
        let distance = angle * Coordinate.earthRadiusKm
        if let limit = filter.maximumDistanceKm, distance > limit { return nil }
        let east = p.x * q.y - p.y * q.x
        let north = q.z * (p.x * p.x + p.y * p.y) - p.z * (p.x * q.x + p.y * q.y)
        var bearing = east == 0 && north == 0 ? 0 : atan2(east, north) * 180 / .pi
        if bearing < 0 { bearing += 360 }
        if bearing >= 360 { bearing -= 360 }
        return (distance, bearing)
    }

    /// ``nearestPlace(to:filter:)`` without building a ``Place``: the result borrows its text from
    /// the table, for callers that write millions of places (such as `phototag geocode`).
    /// The view is valid only while this geocoder lives (see ``PlaceView``).
    package func nearestPlaceView(to coordinate: Coordinate, filter: PlaceFilter = .none) -> PlaceView.Match? {
        let query = coordinate.unitVector
        var best = PlaceTable.Best(worst: bound(filter))
        table.search(query, minimumPopulation: minimumPopulation(filter), into: &best)
        guard best.slot >= 0, let (distance, bearing) = measure(best.slot, query, filter) else { return nil }
        return PlaceView.Match(view: PlaceView(geocoder: self, slot: best.slot), distanceKm: distance, bearing: bearing)
    }

    /// The place at `slot`, its shared names taken from (or added to) the cache.
    func place(at slot: Int) -> Place {
        let regionIndex = table.regionIndex(at: slot)
        let (timezoneOffset, featureOffset) = table.sharedStringOffsets(at: slot)
        let (region, timezone, featureCode) = shared.withLock { (names: inout SharedNames) in
            var region = PlaceTable.Region.unknown
            if let regionIndex {
                if names.regions.isEmpty { names.regions = Array(repeating: nil, count: table.regionCount) }
                if let cached = names.regions[regionIndex] {
                    region = cached
                } else {
                    region = table.region(regionIndex)
                    names.regions[regionIndex] = region
                }
            }
            func cached(_ offset: UInt32) -> String? {
                guard offset != 0 else { return nil }
                if let string = names.strings[offset] { return string }
                let string = table.string(at: offset)
                names.strings[offset] = string
                return string
            }
            return (region, cached(timezoneOffset), cached(featureOffset))
        }
        return table.place(at: slot, region: region, timezone: timezone, featureCode: featureCode)
    }
}

/// A place of the table seen in place: numbers read directly and text fields as UTF-8 bytes
/// borrowed from the table (valid UTF-8, checked when the table was opened), with no `String`
/// made. The bytes stay valid for as long as the ``ReverseGeocoder`` it came from.
///
/// `package`, not `public`: nothing but the caller's care keeps the geocoder alive while its views
/// and their bytes are used, which is fine inside this package (the CLI holds its geocoder for the
/// whole run) but not a promise a public API can make. The public API gives ``Place``s, whose
/// strings are their own.
package struct PlaceView: Sendable {
    /// A view and where the query point lies from it.
    package struct Match: Sendable {
        package let view: PlaceView
        package let distanceKm: Double
        package let bearing: Double

        /// The same result as a ``PlaceMatch``, with its strings made.
        package var placeMatch: PlaceMatch {
            PlaceMatch(place: view.place, distanceKm: distanceKm, bearing: bearing)
        }
    }

    /// Not retained: a view is only valid while its geocoder lives (its text is the geocoder's
    /// bytes), and geocode makes millions of views, whose reference counting was a tenth of its
    /// time.
    private unowned(unsafe) let geocoder: ReverseGeocoder
    let slot: Int

    init(geocoder: ReverseGeocoder, slot: Int) {
        self.geocoder = geocoder
        self.slot = slot
    }

    private var table: PlaceTable { geocoder.table }
    func region(_ field: Int) -> UnsafeRawBufferPointer? {
        table.regionIndex(at: slot).flatMap { table.utf8(at: table.regionString($0, field: field)) }
    }

    /// Every field at once: one call and one read of the row, for callers that write them all
    /// (each property below is a call of its own).
    package var fields: Fields {
        let table = table, slot = slot
        let strings = table.stringOffsets(at: slot), (latitude, longitude) = table.coordinate(at: slot)
        let region = table.regionIndex(at: slot)
        func regionString(_ field: Int) -> UnsafeRawBufferPointer? {
            region.flatMap { table.utf8(at: table.regionString($0, field: field)) }
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return Fields(
            geonameId: Int(table.geonameId(at: slot)), name: table.utf8(at: strings.name) ?? empty,
            asciiName: table.utf8(at: strings.asciiName) ?? empty, admin1: regionString(3), admin2: regionString(5),
            countryCode: regionString(0) ?? empty, country: regionString(1), timezone: table.utf8(at: strings.timezone),
            population: Int(clamping: table.population(at: slot)), featureCode: table.utf8(at: strings.featureCode),
            latitude: latitude, longitude: longitude)
    }

    /// The fields that are the place's own rather than its region's, from one read of the row:
    /// what `geocode` writes of the named place and the city (the region's names are the point's).
    package var ownFields:
        (
            geonameId: Int, name: UnsafeRawBufferPointer, asciiName: UnsafeRawBufferPointer, population: Int,
            featureCode: UnsafeRawBufferPointer?, latitude: Double, longitude: Double
        )
    {
        let table = table, slot = slot
        let strings = table.stringOffsets(at: slot), (latitude, longitude) = table.coordinate(at: slot)
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return (
            Int(table.geonameId(at: slot)), table.utf8(at: strings.name) ?? empty,
            table.utf8(at: strings.asciiName) ?? empty, Int(clamping: table.population(at: slot)),
            table.utf8(at: strings.featureCode), latitude, longitude
        )
    }

    /// A place's fields, its text borrowed from the table (see ``PlaceView``).
    package struct Fields {
        package let geonameId: Int
        package let name: UnsafeRawBufferPointer
        package let asciiName: UnsafeRawBufferPointer
        package let admin1: UnsafeRawBufferPointer?
        package let admin2: UnsafeRawBufferPointer?
        package let countryCode: UnsafeRawBufferPointer
        package let country: UnsafeRawBufferPointer?
        package let timezone: UnsafeRawBufferPointer?
        package let population: Int
        package let featureCode: UnsafeRawBufferPointer?
        package let latitude: Double
        package let longitude: Double
    }

    package var geonameId: Int { Int(table.geonameId(at: slot)) }
    package var population: Int { Int(clamping: table.population(at: slot)) }
    package var latitude: Double { table.coordinate(at: slot).latitude }
    package var longitude: Double { table.coordinate(at: slot).longitude }
    package var name: UnsafeRawBufferPointer {
        table.utf8(at: table.stringOffsets(at: slot).name) ?? .init(start: nil, count: 0)
    }
    package var asciiName: UnsafeRawBufferPointer {
        table.utf8(at: table.stringOffsets(at: slot).asciiName) ?? .init(start: nil, count: 0)
    }
    package var featureCode: UnsafeRawBufferPointer? { table.utf8(at: table.stringOffsets(at: slot).featureCode) }
    package var timezone: UnsafeRawBufferPointer? { table.utf8(at: table.stringOffsets(at: slot).timezone) }
    package var countryCode: UnsafeRawBufferPointer { region(0) ?? .init(start: nil, count: 0) }
    package var country: UnsafeRawBufferPointer? { region(1) }
    package var admin1: UnsafeRawBufferPointer? { region(3) }
    package var admin2: UnsafeRawBufferPointer? { region(5) }

    /// The place with its strings made (as ``ReverseGeocoder/nearestPlace(to:filter:)`` gives it).
    package var place: Place { geocoder.place(at: slot) }
}
