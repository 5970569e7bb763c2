import CGeoNamesData
import PhotoTagSupport
import Synchronization

/// Finds the places nearest to a coordinate, offline, in a GeoNames-derived place table.
///
/// The table is either the one compiled into the binary (``bundled``) or a file built by
/// `phototag places import` (``init(contentsOf:)``). Either way nothing is parsed when it is
/// opened: the k-d tree over unit vectors is part of the table, and a lookup reads only the tree
/// nodes on its path and the rows it returns. What is derived from the table (the grid of
/// nearest cells, the decoded shared names) is worked out on first use, cell by cell.
///
/// **What it borrows.** The table is read where it lies, never copied out: ``bundled`` reads the
/// binary's static data (valid for the whole process), ``init(contentsOf:)`` maps the file for
/// as long as the geocoder lives, and ``init(tableBytes:)`` keeps an aligned copy of the array
/// for as long. Its answers (``Place``, ``PlaceMatch``) are values of their own, valid after it.
///
/// A `ReverseGeocoder`'s answers never change; one instance serves any number of threads.
public final class ReverseGeocoder: Sendable {
    let table: UnsafePlaceTable
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
        var regions: [UnsafePlaceTable.Region?] = []
        var strings: [UInt32: String] = [:]
    }

    /// The table compiled into this binary: GeoNames cities500 (see `phototag --version`).
    public static let bundled: ReverseGeocoder = {
        let bytes = UnsafeRawBufferPointer(start: CGeoNamesData_table(), count: CGeoNamesData_tableSize())
        do {
            return ReverseGeocoder(
                table: try UnsafePlaceTable(bytes: bytes, name: "the bundled place table"), owner: nil)
        } catch {
            // The build embeds a table that the test suite opens and checks; this is unreachable
            // unless the binary itself is damaged.
            preconditionFailure("\(error)")
        }
    }()

    private init(table: UnsafePlaceTable, owner: (any Sendable)?) {
        self.table = table
        self.owner = owner
    }

    /// Opens a table file written by `phototag places import`, mapping it read-only.
    ///
    /// - Throws: ``ReverseGeocodingError`` when the file cannot be read or is not a place table.
    public convenience init(contentsOf path: String) throws(ReverseGeocodingError) {
        let file = try MappedFile(path: path)
        let table = try UnsafePlaceTable(bytes: file.bytes, name: path, verifyingChecksum: true)
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
        let table = try UnsafePlaceTable(bytes: storage.bytes, name: name, verifyingChecksum: true)
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
        var best = UnsafePlaceTable.Best(worst: bound(filter))
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
        var nearest = UnsafePlaceTable.Best(worst: .infinity)
        table.search(centre, minimumPopulation: 0, into: &nearest)
        let seed = nearest.slot
        // Every place within the seed's distance plus twice the cell's radius of the centre,
        // with a margin (a micro-radian, 6 m) far above the rounding of any of these numbers.
        let seedAngle = 2 * asin(min(1, table.squaredChord(centre, seed).squareRoot() / 2))
        let limit = seedAngle + 2 * cells.radius(cell) + 1e-6
        let chord = 2 * sin(limit / 2)
        var within = UnsafePlaceTable.Within(
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
        var best = UnsafePlaceTable.BestN(limit: count, bound: bound(filter))
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
            var region = UnsafePlaceTable.Region.unknown
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
