import ReverseGeocoding

/// The colours of the map (also what the tests look for in the rendered pixels).
package enum MapColours {
    /// Around the map and outside the globe.
    package static let background = "#ffffff"
    /// The sea, the land, the borders between countries and those between regions.
    package static let sea = "#aad3df"
    package static let land = "#f2efe9"
    package static let border = "#a99c8c"
    package static let regionBorder = "#b8ab9c"
    /// The markers, and a marker whose table row is selected (HTML).
    package static let marker = "#d62728"
    package static let highlight = "#ffb000"
    /// The title, labels and scale bar.
    package static let text = "#222222"
}

/// Everything drawn on one map, computed once for the SVG and the HTML: the frame, the outlines,
/// the markers and labels, the title, the scale bar and the credits.
struct MapPicture {
    /// The height of the title band and of the footer (scale bar and credits), in pixels.
    static let header = 34.0
    static let footer = 40.0

    let frame: MapFrame
    let points: [MapPoint]
    let counts: MapCounts
    let land: [UInt8]
    let borders: [UInt8]
    /// The borders between the admin-1 regions of a country (none on a world map).
    let regionBorders: [UInt8]
    /// The markers of the map as drawn: ``levels`` at scale 1.
    let clusters: [Cluster]
    /// The name of each marker: the smallest area that holds all of its photos (``name(of:in:)``).
    let clusterNames: [String?]
    /// The markers at each zoom level of the HTML page (``Cluster/levels(_:)``), and their names.
    let levels: [[Cluster]]
    let levelNames: [[String?]]
    let labels: [Label]
    /// The photos' path in time order, one line per day (``Route``).
    let route: Route
    /// On a city-scale map, the names of the largest places around (``ContextLabel``).
    let context: [ContextLabel]
    let title: String
    let scaleBar: (pixels: Double, text: String)

    /// The credits for what is drawn: the place names come from GeoNames; the land and the
    /// borders are the boundary table's admin-1 regions (Natural Earth geometry) and its countries
    /// without admin-1 regions (Antarctica from Natural Earth; the Vatican and a few small islands
    /// cut from timezone-boundary-builder's OpenStreetMap zones, ODbL).
    static let credits = [
        "Places: GeoNames (geonames.org), CC BY 4.0",
        "Land and borders: Natural Earth (public domain); © OpenStreetMap contributors via timezone-boundary-builder, ODbL 1.0",
    ]

    /// The outlines of the bundled boundary table, read once.
    static let bundledOutlines: BoundaryOutlines = BoundaryTable.bundled.countryOutlines()

    var totalHeight: Double { Self.header + frame.height + Self.footer }

    init(
        points: [MapPoint], counts: MapCounts, outlines: BoundaryOutlines? = nil, width: Double = MapFrame.defaultWidth
    ) {
        // A position outside the globe cannot be drawn (the callers pass only valid ones).
        let located = points.filter { abs($0.latitude) <= 90 && $0.longitude.isFinite }
        self.points = located
        self.counts = counts
        let frame = MapFrame.fit(
            latitudes: located.map(\.latitude), longitudes: located.map(\.longitude), width: width)
        self.frame = frame
        let paths = OutlineDrawing.paths(outlines ?? Self.bundledOutlines, frame: frame)
        (land, borders, regionBorders) = (paths.land, paths.borders, paths.regions)
        let pixels = located.map { frame.pixel(latitude: $0.latitude, longitude: $0.longitude) }
        levels = Cluster.levels(pixels)
        levelNames = levels.map { level in level.map { Self.name(of: $0, in: located) } }
        let clusters = levels[Cluster.drawnLevel], names = levelNames[Cluster.drawnLevel]
        self.clusters = clusters
        clusterNames = names
        labels = Label.place(clusters, names: names, width: frame.width, height: frame.height)
        route = Route(points: located, pixels: pixels, width: frame.width)
        context = ContextLabel.place(frame: frame, clusters: clusters, labels: labels)
        title = Self.title(counts: counts, points: located)
        scaleBar = Self.scaleBar(frame: frame, points: located)
    }

    /// What a marker is called: the smallest area that holds all of its photos, so that the name
    /// never claims photos taken elsewhere. The place when they were all taken in one (named by
    /// its country, region and name); else their region when they share one; else their country
    /// (its name, or its code); else the countries' codes, commonest first, three at most
    /// (`IT, FR, CH +4`). `nil` when no photo has a place or a country.
    static func name(of cluster: Cluster, in points: [MapPoint]) -> String? {
        let members = cluster.members.map { points[$0] }
        guard let first = members.first else { return nil }
        func same<Value: Equatable>(_ value: (MapPoint) -> Value) -> Bool {
            members.allSatisfy { value($0) == value(first) }
        }
        let sameCountry = same(\.countryCode), sameRegion = sameCountry && same(\.admin1)
        if sameRegion, same(\.place), let place = first.place { return place }
        if sameRegion, let region = first.admin1 { return region }
        if sameCountry, let code = first.countryCode { return first.country ?? code }
        var counts: [String: Int] = [:]
        for member in members { if let code = member.countryCode { counts[code, default: 0] += 1 } }
        let codes = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        guard !codes.isEmpty else { return nil }
        return codes.prefix(3).joined(separator: ", ") + (codes.count > 3 ? " +\(codes.count - 3)" : "")
    }

    /// `12 files, 9 located, 2019-07-01 – 2019-07-04` (the dates only when known), with
    /// `, 4 shown` after `located` when a filter kept fewer.
    static func title(counts: MapCounts, points: [MapPoint]) -> String {
        var text = MarkupText.count(counts.files, counts.noun.0, counts.noun.1)
        text += ", \(MarkupText.grouped(counts.located)) located"
        if counts.shown != counts.located { text += ", \(MarkupText.grouped(counts.shown)) shown" }
        let times = points.compactMap(\.time)
        if let first = times.min(), let last = times.max() {
            text += ", " + (first.dateText == last.dateText ? first.dateText : "\(first.dateText) – \(last.dateText)")
        }
        return text
    }

    /// A scale bar of a round length (1, 2 or 5 × 10ⁿ km or m) at most 120 pixels long, true at
    /// the positions' mean latitude (the frame's standard parallel for a regional view).
    static func scaleBar(frame: MapFrame, points: [MapPoint]) -> (pixels: Double, text: String) {
        let latitude: Double
        switch frame.projection.kind {
        case .equirectangular(let standard): latitude = standard
        case .equalEarth:
            latitude = points.isEmpty ? 0 : points.reduce(0) { $0 + $1.latitude } / Double(points.count)
        }
        let kilometresPerPixel = frame.projection.kilometresPerUnit(atLatitude: latitude) / frame.scale
        guard kilometresPerPixel > 0, kilometresPerPixel.isFinite else { return (0, "") }
        let longest = 120 * kilometresPerPixel
        var unit = 1e-3
        while unit * 10 <= longest { unit *= 10 }
        let length = [5.0, 2, 1].map { $0 * unit }.first { $0 <= longest } ?? unit
        var text = length >= 1 ? "\(Int(length.rounded())) km" : "\(Int((length * 1000).rounded())) m"
        if frame.isWorld {
            let rounded = Int(abs(latitude).rounded())
            text += " (at \(rounded)° \(latitude < 0 ? "S" : "N"))"
        }
        return (length / kilometresPerPixel, text)
    }

    /// The tooltip of marker `index`: its place and count, and the dates.
    func summary(of index: Int) -> String {
        let cluster = clusters[index]
        let name = clusterNames[index] ?? "no place"
        var text = "\(name): " + MarkupText.count(cluster.members.count, "photo", "photos")
        let times = cluster.members.compactMap { points[$0].time }
        if let first = times.min(), let last = times.max() {
            text += ", " + (first.dateText == last.dateText ? first.dateText : "\(first.dateText) – \(last.dateText)")
        }
        return text
    }
}
