import CGeoNamesData
import PhotoTagSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the places nearest to a coordinate, offline, in a GeoNames-derived place table.
///
/// The table is either the one compiled into the binary (``bundled``) or a file built by
/// `phototag places import` (``init(contentsOf:)``). Either way nothing is parsed when it is
/// opened: the k-d tree over unit vectors is part of the table, and a lookup reads only the tree
/// nodes on its path and the rows it returns. What is derived from the table (the grid of
/// nearest cells, the decoded shared names) is worked out on first use, cell by cell.
///
/// A `ReverseGeocoder`'s answers never change; one instance serves any number of threads.
public final class ReverseGeocoder: Sendable {
    let table: PlaceTable
    /// Keeps the bytes under `table` alive (a mapped file or an array); `nil` for the bundled data.
    private let owner: (any Sendable)?
    /// Names that many places share, decoded once: regions by index, other strings by offset.
    /// Reached only through `withLock`, so every access holds the lock.
    private let shared = Locked(SharedNames())
    /// For each cell of a grid, the few places that can be nearest to a point in it, or where
    /// the search for them starts (see ``NearestCells``), worked out on the first point in the cell.
    let cells = NearestCells()

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

    /// Opens a table held in memory (as written by `phototag places import`), checking it as
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
        let slot = nearestSlot(coordinate, query, filter)
        guard slot >= 0 else { return nil }
        return match(slot, query, filter)
    }

    /// The slot of the place nearest to `coordinate` (whose unit vector is `query`) that passes
    /// `filter`'s population, within its distance (a hair wide, see ``bound(_:)``); -1 for none.
    ///
    /// Without a population filter the answer comes from the coordinate's cell of
    /// ``NearestCells``: the few places that can be nearest to any point of the cell, compared
    /// one by one, or, in a cell with more of them, a search that starts from the place nearest
    /// to the cell's centre, whose distance bounds the answer's from the first node on. An
    /// unbounded search of a point far out at sea (the nearest place 1,000 km away or more)
    /// wandered through much of the ocean's edge. The answer is the same either way: the
    /// candidates hold every place that can win in the cell, and they and the seed are offered
    /// to the same collector, which ranks them as the search does (ties included).
    func nearestSlot(_ coordinate: Coordinate, _ query: SIMD3<Double>, _ filter: PlaceFilter) -> Int {
        var best = PlaceTable.Best(worst: bound(filter))
        let minimumPopulation = minimumPopulation(filter)
        guard minimumPopulation == 0, table.count > 0 else {
            table.search(query, minimumPopulation: minimumPopulation, into: &best)
            return best.slot
        }
        let cell = NearestCells.cell(coordinate)
        guard let entry = cells.entry(cell) ?? fill(cell) else {
            // Another thread is working the cell out: a search of its own.
            table.search(query, minimumPopulation: 0, into: &best)
            return best.slot
        }
        if let candidates = entry.candidates {
            for slot in candidates {
                let squared = table.squaredChord(query, Int(slot))
                if squared <= best.worst { best.offer(squared, Int(slot), in: table) }
            }
            return best.slot
        }
        let squared = table.squaredChord(query, entry.seed)
        if squared <= best.worst { best.offer(squared, entry.seed, in: table) }
        table.search(query, minimumPopulation: 0, into: &best)
        return best.slot
    }

    /// Works out `cell` of ``cells`` (see ``NearestCells``) and returns it; `nil` when another
    /// thread is already at it. The table must not be empty.
    private func fill(_ cell: Int) -> NearestCells.Entry? {
        guard let candidates = cells.claim(cell) else { return cells.entry(cell) }
        let centre = NearestCells.centre(cell)
        var nearest = PlaceTable.Best(worst: .infinity)
        table.search(centre, minimumPopulation: 0, into: &nearest)
        let seed = nearest.slot
        // Every place within the seed's distance plus twice the cell's radius of the centre,
        // with a margin (a micro-radian, 6 m) far above the rounding of any of these numbers.
        let seedAngle = 2 * asin(min(1, table.squaredChord(centre, seed).squareRoot() / 2))
        let limit = seedAngle + 2 * cells.radius(cell) + 1e-6
        let chord = 2 * sin(limit / 2)
        var within = PlaceTable.Within(
            squaredChord: limit >= .pi ? .infinity : chord * chord, into: candidates,
            limit: NearestCells.maximumCandidates)
        table.search(centre, minimumPopulation: 0, into: &within)
        return cells.publish(cell, seed: seed, candidates: within.overflowed ? nil : within.count)
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
        let slot = nearestSlot(coordinate, query, filter)
        guard slot >= 0, let (distance, bearing) = measure(slot, query, filter) else { return nil }
        return PlaceView.Match(view: PlaceView(geocoder: self, slot: slot), distanceKm: distance, bearing: bearing)
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
    /// Where the place is in its geocoder's table: one place per slot, so a key for what is
    /// worked out from the place alone (`geocode` keeps its JSON by slot).
    package let slot: Int

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
            countryCode: regionString(0) ?? empty, country: regionString(1), timeZone: table.utf8(at: strings.timezone),
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
        package let timeZone: UnsafeRawBufferPointer?
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
    package var timeZone: UnsafeRawBufferPointer? { table.utf8(at: table.stringOffsets(at: slot).timezone) }
    package var countryCode: UnsafeRawBufferPointer { region(0) ?? .init(start: nil, count: 0) }
    package var country: UnsafeRawBufferPointer? { region(1) }
    package var admin1: UnsafeRawBufferPointer? { region(3) }
    package var admin2: UnsafeRawBufferPointer? { region(5) }

    /// The place with its strings made (as ``ReverseGeocoder/nearestPlace(to:filter:)`` gives it).
    package var place: Place { geocoder.place(at: slot) }
}

/// For each cell of a latitude-longitude grid (``degreesPerCell`` degrees each way), the places
/// that can be nearest to a point in the cell, when there are at most ``maximumCandidates`` of
/// them, and the place nearest to its centre (the seed): what ``ReverseGeocoder/nearestSlot(_:_:_:)``
/// reads instead of searching the whole tree.
///
/// **Why the candidates suffice.** Let c be the cell's centre, ρ the largest angle from c to a
/// point of the cell (at a corner) and S the place nearest to c. For a point q of the cell and
/// a place P farther than `angle(c, S) + 2ρ` from c: `angle(q, P) ≥ angle(c, P) − ρ >
/// angle(c, S) + ρ ≥ angle(q, S)`, so P is farther from q than S and never the answer. The
/// candidates are every place within that angle (plus a margin far above rounding) of c.
///
/// A cell is worked out by the first point in it (one search for the seed, one for the places
/// around it, cut short past ``maximumCandidates``), so a run pays only for the cells its
/// points fall in. The tables are immutable and must stay byte-identical to a fresh import, so
/// the grid is made while they are used rather than stored with them.
/// (`@unchecked`: the states are atomics, and a cell's candidates are written once, by the thread
/// that claimed it, before its state is published.)
final class NearestCells: @unchecked Sendable {
    /// Degrees of latitude and of longitude per cell.
    static let degreesPerCell = 1
    static let rows = 180 / degreesPerCell
    static let columns = 360 / degreesPerCell
    /// The most candidates a cell lists; a cell with more is searched from its seed.
    static let maximumCandidates = 32

    /// What the grid knows of a cell.
    struct Entry {
        /// The place nearest to the cell's centre.
        var seed: Int
        /// Every place that can be nearest to a point of the cell; `nil` when there are too many.
        var candidates: UnsafeBufferPointer<UInt32>?
    }

    /// Each cell's state: 0 not worked out, -1 being worked out, otherwise
    /// `(seed + 1) << 8 | n` with n candidates, or ``tooMany``.
    private let states: UnsafeMutablePointer<Atomic<Int>>
    /// ``maximumCandidates`` slots per cell, written by the thread that claimed the cell before
    /// it publishes the cell's state (release), read after loading it (acquire).
    private let candidates: UnsafeMutablePointer<UInt32>
    private static let tooMany = 0xFF
    private static let count = rows * columns

    /// Where the states are: pages of zeros mapped from the kernel (``mapped``), or, should the
    /// mapping fail, memory of our own with every state stored.
    private let mapped: Bool

    /// Makes the grid with every cell not worked out. The states come as zero pages from the
    /// kernel, so making a geocoder (every `locate` does) stores nothing and faults in no page
    /// for the grid: 64,800 stores took every process about half a megabyte and as many
    /// instructions, whether or not a point ever fell at sea.
    init() {
        let bytes = Self.count * MemoryLayout<Atomic<Int>>.stride
        if let pages = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            pages != MAP_FAILED
        {
            // A state of 0 is all zero bytes, and an Atomic<Int> is its integer's bytes.
            states = pages.bindMemory(to: Atomic<Int>.self, capacity: Self.count)
            mapped = true
        } else {
            states = .allocate(capacity: Self.count)
            for index in 0..<Self.count { (states + index).initialize(to: Atomic(0)) }
            mapped = false
        }
        // Left uninitialised: only what a cell's state covers is read, and only touched pages
        // take memory.
        candidates = .allocate(capacity: Self.count * Self.maximumCandidates)
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(states), Self.count * MemoryLayout<Atomic<Int>>.stride)
        } else {
            states.deinitialize(count: Self.count)
            states.deallocate()
        }
        candidates.deallocate()
    }

    /// The cell of a coordinate (the last row and column also hold 90° and 180°).
    static func cell(_ coordinate: Coordinate) -> Int {
        let scale = 1 / Double(degreesPerCell)
        let row = min(rows - 1, max(0, Int((coordinate.latitude + 90) * scale)))
        let column = min(columns - 1, max(0, Int((coordinate.longitude + 180) * scale)))
        return row * columns + column
    }

    /// The corners of `cell` as latitude and longitude, and its centre's.
    private static func bounds(_ cell: Int) -> (south: Double, west: Double, north: Double, east: Double) {
        let size = Double(degreesPerCell)
        let south = Double(cell / columns) * size - 90, west = Double(cell % columns) * size - 180
        return (south, west, south + size, west + size)
    }

    /// The unit vector of a latitude and longitude in range (as the grid makes them).
    private static func vector(_ latitude: Double, _ longitude: Double) -> SIMD3<Double> {
        Coordinate(latitude: latitude, longitude: longitude)?.unitVector ?? SIMD3(0, 0, 1)
    }

    /// The unit vector of the centre of `cell`.
    static func centre(_ cell: Int) -> SIMD3<Double> {
        let box = bounds(cell)
        return vector((box.south + box.north) / 2, (box.west + box.east) / 2)
    }

    /// ``radius(_:)`` by row (the cells of a row are the same shape, turned about the axis).
    private let radii = (0..<NearestCells.rows).map { NearestCells.radius(ofCell: $0 * NearestCells.columns) }

    /// The largest angle from the centre of `cell` to a point of it, in radians, widened a little.
    func radius(_ cell: Int) -> Double { radii[cell / Self.columns] }

    /// ``radius(_:)``, worked out: the distance from the centre along an edge has one minimum
    /// and no other extremum, so the largest is at a corner.
    private static func radius(ofCell cell: Int) -> Double {
        let box = bounds(cell), centre = centre(cell)
        var largest = 0.0
        for (latitude, longitude) in [
            (box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east),
        ] {
            let corner = vector(latitude, longitude)
            let cross = SIMD3(
                corner.y * centre.z - corner.z * centre.y, corner.z * centre.x - corner.x * centre.z,
                corner.x * centre.y - corner.y * centre.x)
            largest = max(largest, atan2((cross * cross).sum().squareRoot(), (corner * centre).sum()))
        }
        return largest * (1 + 1e-9)
    }

    /// What is known of `cell`, or `nil` when it is not worked out yet (or is being worked out).
    @inline(__always)
    func entry(_ cell: Int) -> Entry? {
        let state = states[cell].load(ordering: .acquiring)
        guard state > 0 else { return nil }
        return entry(cell, state)
    }

    private func entry(_ cell: Int, _ state: Int) -> Entry {
        let count = state & 0xFF
        return Entry(
            seed: (state >> 8) - 1,
            candidates: count == Self.tooMany
                ? nil
                : UnsafeBufferPointer(start: candidates + cell * Self.maximumCandidates, count: count))
    }

    /// Claims `cell` for working out: its candidates' storage, or `nil` when another thread has
    /// it already.
    func claim(_ cell: Int) -> UnsafeMutablePointer<UInt32>? {
        guard states[cell].compareExchange(expected: 0, desired: -1, ordering: .relaxed).exchanged else {
            return nil
        }
        return candidates + cell * Self.maximumCandidates
    }

    /// Publishes a claimed cell: its seed and its candidates' count (`nil`: too many).
    func publish(_ cell: Int, seed: Int, candidates count: Int?) -> Entry {
        let state = (seed + 1) << 8 | (count ?? Self.tooMany)
        states[cell].store(state, ordering: .releasing)
        return entry(cell, state)
    }
}
