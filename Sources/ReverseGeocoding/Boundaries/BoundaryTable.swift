import CBoundaryData

/// Time-zone, country and admin-1 boundaries, and the exact point lookup over them.
///
/// The table is either the one compiled into the binary (``bundled``) or a file built by
/// `phototag boundaries import` (``init(contentsOf:)``). Opening it checks the header; nothing is
/// parsed (see `BoundaryTableLayout` (BoundaryTableLayout.swift) for the format, the index and the tie rule for points on
/// a border). A lookup reads one quadtree path and a few dozen edges.
///
/// **Containment** is exact for the stored geometry: a point (rounded to 1.7 cm) is in a
/// feature when it is inside its polygons, and a point on a border shared by two features is in
/// exactly one of them, the one to its east (or, on an east-west border, to its north).
///
/// **Fallback.** The admin-1 layer follows the coastline and has no territorial water. A point
/// in no admin-1 region takes the admin-1 region whose boundary is nearest, within
/// ``fallbackDegrees`` (0.05 degree, about 5.5 km), preferring a region of the point's country
/// (nearest of that country when any is within reach, else the nearest of any country). Likewise
/// a point in a land time zone but in no country takes the nearest country within the same
/// distance (the open ocean, inside only `Etc/*` zones, keeps no country). Distances are in
/// degrees of latitude, with longitude differences scaled by the cosine of the latitude; the
/// fallback does not look across the antimeridian.
///
/// **Kept overlaps.** Some time zones overlap on purpose (Urumqi/Shanghai, Hebron/Jerusalem …):
/// there the lookup returns both, and ``preferredZone(_:nearestPlaceZone:)`` chooses.
///
/// **What it borrows.** The table is read where it lies, never copied out: ``bundled`` reads the
/// binary's static data (valid for the whole process), ``init(contentsOf:)`` maps the file for
/// as long as the table lives, and ``init(tableBytes:)`` keeps an aligned copy of the array for
/// as long. Its ``rules`` borrow the same bytes (valid while the table lives); its answers are
/// values of their own.
///
/// A `BoundaryTable` is immutable; one instance serves any number of threads.
public final class BoundaryTable: Sendable {
    /// How far the nearest-polygon fallback looks, in degrees.
    public static let fallbackDegrees = 0.05

    let view: UnsafeBoundaryTable
    /// Keeps the bytes under `view` alive (a mapped file or an array); `nil` for the bundled data.
    private let owner: (any Sendable)?

    /// The table compiled into this binary.
    public static let bundled = embedded(
        CBoundaryData_table(), CBoundaryData_tableSize(), name: "the bundled boundary table")

    /// The sea table compiled into this binary: Natural Earth's named seas and oceans (see
    /// ``seaName(_:)``), in a table of their own so that a lookup on land never reads their edges.
    public static let bundledSeas = embedded(
        CBoundaryData_seaTable(), CBoundaryData_seaTableSize(), name: "the bundled sea table")

    /// A table compiled into this binary, read where it lies (static data, never freed).
    private static func embedded(_ start: UnsafePointer<UInt8>, _ count: Int, name: String) -> BoundaryTable {
        do {
            let bytes = UnsafeRawBufferPointer(start: start, count: count)
            return try BoundaryTable(view: try UnsafeBoundaryTable(bytes: bytes, name: name), owner: nil)
        } catch {
            // The build embeds tables that the test suite opens and checks.
            preconditionFailure("\(error)")
        }
    }

    /// The time-zone rules stored with the polygons (`boundaries import --tzdata`); `nil` when the
    /// table has none.
    public let rules: TimeZoneRules?

    private init(view: UnsafeBoundaryTable, owner: (any Sendable)?) throws(BoundaryError) {
        self.view = view
        self.owner = owner
        if view.timeZoneRules.isEmpty {
            rules = nil
        } else {
            do {
                rules = try TimeZoneRules(bytes: view.timeZoneRules)
            } catch {
                throw .notABoundaryTable(path: "the boundary table", reason: "its tz rules: \(error)")
            }
        }
    }

    /// Opens a table file written by `phototag boundaries import`, mapping it read-only.
    public convenience init(contentsOf path: String) throws(BoundaryError) {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        try self.init(
            view: try UnsafeBoundaryTable(bytes: file.bytes, name: path, validating: true), owner: file)
    }

    /// Opens a table held in memory (as written by `phototag boundaries import`), checking it as
    /// ``init(contentsOf:)`` checks a file.
    ///
    /// - Throws: ``BoundaryError/notABoundaryTable(path:reason:)`` when the bytes are not a
    ///   boundary table or its names are not valid UTF-8.
    public convenience init(tableBytes: [UInt8]) throws(BoundaryError) {
        let storage = AlignedTableBytes(tableBytes)
        let view = try UnsafeBoundaryTable(bytes: storage.bytes, name: "the boundary table", validating: true)
        try self.init(view: view, owner: storage)
    }

    /// Where the table's data came from.
    public var source: String { view.string(at: view.sourceOffset) ?? "" }
    /// The date of the table's data (`YYYY-MM-DD`).
    public var date: String { view.string(at: view.dateOffset) ?? "" }
    /// How many time zones the table holds.
    public var timeZoneCount: Int { view.timeZoneCount }
    /// How many countries the table holds.
    public var countryCount: Int { view.countryCount }
    /// How many admin-1 regions the table holds.
    public var admin1Count: Int { view.admin1Count }
    /// How many seas the table holds.
    public var seaCount: Int { view.seaCount }
    /// The table's size in bytes.
    public var byteCount: Int { view.bytes.count }
    /// How many distinct edges, vertices and quadtree leaves the table holds.
    public var statistics: (vertices: Int, leaves: Int, runs: Int) {
        (view.layout.vertexCount, view.layout.leafCount, view.layout.runCount)
    }

    /// The time-zone rules stored with the boundaries (an opaque blob, possibly empty), borrowed
    /// from the table: valid while the table lives.
    package var timeZoneRules: UnsafeRawBufferPointer { view.timeZoneRules }

    /// The tzid of time zone `index`.
    public func timeZoneName(_ index: Int) -> String { view.string(at: view.featureField(index, 0)) ?? "" }
    /// The `zone.tab` country of time zone `index` (`nil` for the ocean zones).
    public func timeZoneCountry(_ index: Int) -> String? { view.string(at: view.featureField(index, 1)) }
    /// The country and admin-1 code of admin-1 region `index` as UTF-8 borrowed from the table
    /// (empty when missing, as ``admin1(_:)`` gives them): no `String` made.
    package func admin1UTF8(_ index: Int) -> (countryCode: UnsafeRawBufferPointer, code: UnsafeRawBufferPointer) {
        let feature = view.timeZoneCount + view.countryCount + index
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return (
            view.utf8(at: view.featureField(feature, 0)) ?? empty, view.utf8(at: view.featureField(feature, 1)) ?? empty
        )
    }

    /// The code of country `index`.
    public func countryCode(_ index: Int) -> String {
        view.string(at: view.featureField(view.timeZoneCount + index, 0)) ?? ""
    }
    /// The name of country `index` (`boundaries import --country-names`); `nil` when the table
    /// has none.
    package func countryName(_ index: Int) -> String? {
        countryNameUTF8(index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// ``countryName(_:)`` as UTF-8 borrowed from the table.
    package func countryNameUTF8(_ index: Int) -> UnsafeRawBufferPointer? {
        guard index >= 0, index < view.countryCount else { return nil }
        return view.utf8(at: view.featureField(view.timeZoneCount + index, 1)).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The name of sea `index` (`English Channel`).
    public func seaName(_ index: Int) -> String {
        seaNameUTF8(index).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// ``seaName(_:)`` as UTF-8 borrowed from the table; `nil` for an index out of range.
    package func seaNameUTF8(_ index: Int) -> UnsafeRawBufferPointer? { view.seaNameUTF8(index) }

    /// The smallest sea that contains `coordinate` (the most specific name: a gulf rather than
    /// its ocean), an index for ``seaName(_:)``; `nil` when none does. Natural Earth's sea
    /// polygons are label areas that overlap the land at the coasts: ask only for a point that
    /// no country contains.
    public func sea(_ coordinate: Coordinate) -> Int? {
        guard
            let (qx, qy) = UnsafeBoundaryTable.queryPoint(
                latitude: coordinate.latitude, longitude: coordinate.longitude)
        else { return nil }
        return view.containing(qx, qy).sea
    }

    /// The country and admin-1 code of admin-1 region `index`.
    public func admin1(_ index: Int) -> BoundaryHit.Admin1 {
        let feature = view.timeZoneCount + view.countryCount + index
        return BoundaryHit.Admin1(
            countryCode: view.string(at: view.featureField(feature, 0)) ?? "",
            code: view.string(at: view.featureField(feature, 1)) ?? "")
    }

    /// The features containing `coordinate`, as indices (no allocation), with the nearest-polygon
    /// fallback unless `fallback` is `false`.
    public func features(_ coordinate: Coordinate, fallback: Bool = true) -> BoundaryFeatures {
        features(latitude: coordinate.latitude, longitude: coordinate.longitude, fallback: fallback)
    }

    /// ``features(_:fallback:)`` of a point given as two numbers, unchecked (`package`: for the
    /// benchmarks' and the tests' raw values). A non-finite coordinate gives no features.
    package func features(latitude: Double, longitude: Double, fallback: Bool = true) -> BoundaryFeatures {
        guard let (qx, qy) = UnsafeBoundaryTable.queryPoint(latitude: latitude, longitude: longitude) else {
            return BoundaryFeatures()
        }
        var found = view.containing(qx, qy)
        guard fallback else { return found }
        if found.countryIndex < 0, found.timeZoneIndex >= 0, !isOcean(found) {
            if let country = view.nearest(layer: 1, qx, qy, sameCountryAs: nil) {
                found.countryIndex = Int32(country)
                found.countryFromFallback = true
            }
        }
        if found.admin1Index < 0, found.countryIndex >= 0 {
            let countryOffset = view.featureField(view.timeZoneCount + Int(found.countryIndex), 0)
            if let region = view.nearest(layer: 2, qx, qy, sameCountryAs: countryOffset) {
                found.admin1Index = Int32(region)
                found.admin1FromFallback = true
            }
        }
        return found
    }

    /// Whether the zones found are all ocean zones (`Etc/*`).
    private func isOcean(_ found: BoundaryFeatures) -> Bool {
        guard found.timeZoneIndex >= 0 else { return false }
        return view.isOceanZone(Int(found.timeZoneIndex))
            && (found.secondTimeZoneIndex < 0 || view.isOceanZone(Int(found.secondTimeZoneIndex)))
    }

    /// What the boundaries say about `coordinate` (see the type's documentation for the rules).
    public func lookup(_ coordinate: Coordinate) -> BoundaryHit {
        lookup(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// ``lookup(_:)`` of a point given as two numbers, unchecked (`package`: for the tests' raw
    /// values, such as a longitude past 180° or a NaN). A non-finite coordinate gives no features.
    package func lookup(latitude: Double, longitude: Double) -> BoundaryHit {
        let found = features(latitude: latitude, longitude: longitude)
        var zones: [String] = []
        if found.timeZoneIndex >= 0 { zones.append(timeZoneName(Int(found.timeZoneIndex))) }
        if found.secondTimeZoneIndex >= 0 { zones.append(timeZoneName(Int(found.secondTimeZoneIndex))) }
        return BoundaryHit(
            countryCode: found.countryIndex >= 0 ? countryCode(Int(found.countryIndex)) : nil,
            admin1: found.admin1Index >= 0 ? admin1(Int(found.admin1Index)) : nil, timeZones: zones,
            isOcean: isOcean(found),
            countryFromFallback: found.countryFromFallback, admin1FromFallback: found.admin1FromFallback,
            features: found)
    }

    /// The one time zone to use for a hit: with two zones (a kept overlap), the zone of the nearest
    /// GeoNames place when it is one of them, otherwise the smaller zone (by area; equal areas by
    /// tzid). With one zone, that zone; with none, `nil`.
    public func preferredZone(_ hit: BoundaryHit, nearestPlaceZone: String?) -> String? {
        let first = hit.features.timeZoneIndex, second = hit.features.secondTimeZoneIndex
        guard first >= 0 else { return nil }
        guard second >= 0 else { return timeZoneName(Int(first)) }
        let names = (timeZoneName(Int(first)), timeZoneName(Int(second)))
        if let nearestPlaceZone, nearestPlaceZone == names.0 || nearestPlaceZone == names.1 { return nearestPlaceZone }
        let areas = (view.area(Int(first)), view.area(Int(second)))
        if areas.0 != areas.1 { return areas.0 < areas.1 ? names.0 : names.1 }
        return min(names.0, names.1)
    }
}
