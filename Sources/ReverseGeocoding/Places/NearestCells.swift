import PhotoTagSupport
import Synchronization

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
    // Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.freshCellsWorkedOutByManyThreadsAtOnceGiveTheTreeSearchsAnswers.
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
    /// for the grid: storing 64,800 initial states would cost every process that memory,
    /// whether or not a point ever fell at sea.
    init() {
        let bytes = Self.count * MemoryLayout<Atomic<Int>>.stride
        if let pages = mapZeroedPages(byteCount: bytes) {
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
            unmap(states, byteCount: Self.count * MemoryLayout<Atomic<Int>>.stride)
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
