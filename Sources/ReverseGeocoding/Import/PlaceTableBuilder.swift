/// Writes places into the binary table format of `PlaceTableLayout` (PlaceTableLayout.swift), k-d tree included.
///
/// The output depends only on the places and the metadata: the tree is built with full sorts
/// under a total order (coordinate, then geonameid), so the same input always gives the same bytes.
package struct PlaceTableBuilder {
    /// Rows per leaf: small ranges are scanned in full rather than split further.
    static let leafSize = 8

    /// Where the data came from, shown by `phototag --version` (e.g. `GeoNames cities500.txt`).
    package var source: String
    /// The date of the data (`YYYY-MM-DD`).
    package var date: String

    /// A builder that stamps its tables with `source` and `date`.
    package init(source: String, date: String) {
        self.source = source
        self.date = date
    }

    /// Builds the table.
    ///
    /// - Throws: ``ReverseGeocodingError/invalidCoordinate(geonameId:latitude:longitude:)`` when
    ///   a place's latitude or longitude is out of range or not finite;
    ///   ``ReverseGeocodingError/tableTooLarge(_:)`` when a string exceeds 65,535 bytes or the
    ///   table exceeds 4 GiB.
    /// - Complexity: O(n log² n) for n places.
    package func build(_ places: [Place]) throws(ReverseGeocodingError) -> [UInt8] {
        let n = places.count
        // Node numbers reach about 4n and are searched as UInt32.
        guard n < 1 << 29 else { throw .tableTooLarge("\(n) places") }
        let vectors = try places.map { place throws(ReverseGeocodingError) in
            guard let coordinate = place.coordinate else {
                throw .invalidCoordinate(
                    geonameId: place.geonameId, latitude: place.latitude, longitude: place.longitude)
            }
            return coordinate.unitVector
        }
        let tree = Self.tree(vectors: vectors, ids: places.map(\.geonameId))
        let order = tree.order
        let mains = Self.municipalMains(places, order: order)

        var pool = StringPool(tooLarge: ReverseGeocodingError.tableTooLarge)
        let sourceOffset = try pool.add(source)
        let dateOffset = try pool.add(date)
        var regionIndex: [[String?]: UInt32] = [:]
        var regionRows: [[UInt32]] = []
        var columns = (
            names: [UInt32](), asciiNames: [UInt32](), featureCodes: [UInt32](), timezones: [UInt32](),
            regions: [UInt32](), admin3Codes: [UInt32](), admin4Codes: [UInt32]()
        )
        for row in order {
            let place = places[row]
            columns.names.append(try pool.add(place.name))
            columns.asciiNames.append(try pool.add(place.asciiName))
            columns.featureCodes.append(try pool.add(place.featureCode))
            columns.timezones.append(try pool.add(place.timeZone))
            columns.admin3Codes.append(try pool.add(place.admin3Code))
            columns.admin4Codes.append(try pool.add(place.admin4Code))
            let key: [String?] = [
                place.countryCode, place.country, place.admin1Code, place.admin1, place.admin2Code, place.admin2,
            ]
            if let index = regionIndex[key] {
                columns.regions.append(index)
            } else {
                let index = UInt32(regionRows.count)
                regionIndex[key] = index
                regionRows.append(try key.map { value throws(ReverseGeocodingError) in try pool.add(value) })
                columns.regions.append(index)
            }
        }

        let layout = PlaceTableLayout(
            count: n, regionCount: regionRows.count, stringsSize: pool.bytes.count, nodeCount: tree.nodeCount)
        guard layout.totalSize <= Int(UInt32.max) else { throw .tableTooLarge("\(layout.totalSize) bytes") }
        var out = TableByteWriter(size: layout.totalSize)
        out.put(PlaceTableLayout.magic, at: 0)
        out.put32(PlaceTableLayout.version, at: PlaceTableHeader.version)
        out.put32(UInt32(n), at: PlaceTableHeader.count)
        out.put32(UInt32(regionRows.count), at: PlaceTableHeader.regionCount)
        out.put32(UInt32(pool.bytes.count), at: PlaceTableHeader.stringsSize)
        out.put32(sourceOffset, at: PlaceTableHeader.source)
        out.put32(dateOffset, at: PlaceTableHeader.date)
        out.put32(PlaceTableLayout.byteOrderMark, at: PlaceTableHeader.byteOrderMark)
        out.put32(UInt32(Self.leafSize), at: PlaceTableHeader.leafSize)
        out.put32(UInt32(tree.nodeCount), at: PlaceTableHeader.nodeCount)
        for (slot, row) in order.enumerated() {
            let place = places[row], vector = vectors[row]
            out.putDouble(vector.x, at: layout.vectors + 24 * slot)
            out.putDouble(vector.y, at: layout.vectors + 24 * slot + 8)
            out.putDouble(vector.z, at: layout.vectors + 24 * slot + 16)
            let row = layout.rows + PlaceTableLayout.rowStride * slot
            typealias Field = PlaceTableLayout.Row
            out.putDouble(place.latitude, at: row + Field.latitude)
            out.putDouble(place.longitude, at: row + Field.longitude)
            out.put64(UInt64(max(0, place.population)), at: row + Field.population)
            out.put32(UInt32(truncatingIfNeeded: place.geonameId), at: row + Field.geonameId)
            out.put32(columns.names[slot], at: row + Field.name)
            out.put32(columns.asciiNames[slot], at: row + Field.asciiName)
            out.put32(columns.featureCodes[slot], at: row + Field.featureCode)
            out.put32(columns.timezones[slot], at: row + Field.timezone)
            out.put32(columns.regions[slot], at: row + Field.region)
            out.put32(columns.admin3Codes[slot], at: row + Field.admin3Code)
            out.put32(columns.admin4Codes[slot], at: row + Field.admin4Code)
            out.put32(mains[slot], at: row + Field.municipalMain)
        }
        for (index, bound) in tree.boxes.enumerated() {
            out.put32(bound.bitPattern, at: layout.boxes + 4 * index)
        }
        for (index, region) in regionRows.enumerated() {
            for (field, offset) in region.enumerated() {
                out.put32(offset, at: layout.regionTable + 24 * index + 4 * field)
            }
        }
        out.put(pool.bytes, at: layout.strings)
        out.sealChecksum(header: PlaceTableLayout.headerSize)
        return out.bytes
    }

    /// Writes a built table to `path` (through a temporary file renamed into place).
    package static func write(_ table: [UInt8], to path: String) throws(ReverseGeocodingError) {
        try writeWholeFile(table, to: path)
    }

    /// Each stored row's municipality main place, as a slot (``PlaceTableLayout/noMain`` for
    /// none): the most populous place of the row's municipality (its country, admin-1, admin-2
    /// and ``Place/municipalityCode``) that is not a city section (`PPLX`), ties to the smaller
    /// geonameid; none for a place without a municipality code. Worked out here, once, so that
    /// the municipality rule reads one field instead of building a map of every municipality
    /// (25 ms, the whole time of a `locate`).
    static func municipalMains(_ places: [Place], order: [Int]) -> [UInt32] {
        func key(_ place: Place) -> [String]? {
            guard let code = place.municipalityCode else { return nil }
            return [place.countryCode, place.admin1Code ?? "", place.admin2Code ?? "", code]
        }
        var best: [[String]: Int] = [:]
        for (row, place) in places.enumerated() where place.featureCode != "PPLX" {
            guard let key = key(place) else { continue }
            if let current = best[key] {
                let other = places[current]
                guard
                    place.population > other.population
                        || (place.population == other.population && place.geonameId < other.geonameId)
                else { continue }
            }
            best[key] = row
        }
        var slotOfRow = [UInt32](repeating: 0, count: places.count)
        for (slot, row) in order.enumerated() { slotOfRow[row] = UInt32(slot) }
        return order.map { row in
            key(places[row]).flatMap { best[$0] }.map { slotOfRow[$0] } ?? PlaceTableLayout.noMain
        }
    }

    /// The k-d tree: the order rows are stored in, and each node's bounding box.
    struct Tree {
        /// `order[slot]` is the input row stored at `slot`.
        var order: [Int]
        /// `PlaceTableLayout.boxStride` `Float`s per node (min x, y, z, max x, y, z, padding);
        /// node 0 is unused and holds an inverted (empty) box.
        var boxes: [Float]
        var nodeCount: Int
    }

    /// Lays the rows out as an implicit, median-partitioned k-d tree (see `PlaceTableLayout` (PlaceTableLayout.swift)).
    static func tree(vectors: [SIMD3<Double>], ids: [Int]) -> Tree {
        var order = Array(vectors.indices)
        let stride = PlaceTableLayout.boxStride
        var nodeCount = 2
        var boxes = [Float](repeating: 0, count: 2 * stride)
        for axis in 0..<3 {
            boxes[axis] = .infinity
            boxes[3 + axis] = -.infinity
        }
        var pending = [(lo: 0, hi: vectors.count, node: 1)]
        while let (lo, hi, node) = pending.popLast() {
            if node >= nodeCount {
                nodeCount = node + 1
                boxes += [Float](repeating: 0, count: stride * nodeCount - boxes.count)
            }
            var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
            for row in order[lo..<hi] {
                low = pointwiseMin(low, vectors[row])
                high = pointwiseMax(high, vectors[row])
            }
            for axis in 0..<3 {
                boxes[stride * node + axis] = Float(rounding: low[axis], down: true)
                boxes[stride * node + 3 + axis] = Float(rounding: high[axis], down: false)
            }
            guard hi - lo > leafSize else { continue }
            let spread = high - low
            let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
            order[lo..<hi].sort { a, b in
                let u = vectors[a][axis], v = vectors[b][axis]
                return u != v ? u < v : ids[a] < ids[b]
            }
            let mid = lo + (hi - lo) / 2
            pending.append((lo, mid, 2 * node))
            pending.append((mid, hi, 2 * node + 1))
        }
        return Tree(order: order, boxes: boxes, nodeCount: nodeCount)
    }
}

extension Float {
    /// The `Float` nearest to `value` on the given side, so that a box stays around its points.
    init(rounding value: Double, down: Bool) {
        var result = Float(value)
        if down, Double(result) > value { result = result.nextDown }
        if !down, Double(result) < value { result = result.nextUp }
        self = result
    }
}
