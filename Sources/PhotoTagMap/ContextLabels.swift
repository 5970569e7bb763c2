import ReverseGeocoding

/// The names of the largest places on a city-scale map, for orientation: a map of photos taken
/// within 30 km of Berlin is otherwise a beige box with a few dots. They come from the place
/// table built into the binary, drawn small and grey with a dot, where no marker or marker label
/// is; only when the frame spans at most ``largestSpanKm`` (a country's map has its borders and
/// coasts to go by).
struct ContextLabel: Sendable {
    var name: String
    /// The place's pixel, and where its name goes (left edge, baseline).
    var x: Double
    var y: Double
    var textX: Double
    var box: PlaneRect

    /// The widest frame, corner to corner, that gets context labels.
    static let largestSpanKm = 400.0
    /// How many at most, and their font size in pixels.
    static let most = 12
    static let fontSize = 11.0

    /// The labels for `frame`, around the markers of `clusters` and the `labels` already placed;
    /// none for a wider frame, or without places.
    static func place(
        frame: MapFrame, clusters: [Cluster], labels: [Label], geocoder: ReverseGeocoder? = .bundled
    ) -> [ContextLabel] {
        guard let geocoder, !frame.isWorld else { return [] }
        // The window's longitudes are relative to the projection's central meridian.
        let window = frame.window, central = frame.projection.centralLongitude
        guard
            let south = Coordinate(latitude: window.south, longitude: wrapLongitude(central + window.west)),
            let north = Coordinate(latitude: window.north, longitude: wrapLongitude(central + window.east)),
            south.distanceKm(to: north) <= largestSpanKm,
            let centre = Coordinate(
                latitude: (window.south + window.north) / 2,
                longitude: wrapLongitude(central + (window.west + window.east) / 2))
        else { return [] }
        // The places round the centre, largest first (ties by name, then id: a fixed order).
        let candidates = geocoder.nearestPlaces(to: centre, count: 600).map(\.place).filter { $0.population > 0 }
            .sorted {
                $0.population != $1.population
                    ? $0.population > $1.population : ($0.name, $0.geonameId) < ($1.name, $1.geonameId)
            }
        var taken =
            clusters.map {
                PlaneRect(
                    minX: $0.x - $0.radius - 2, minY: $0.y - $0.radius - 2, maxX: $0.x + $0.radius + 2,
                    maxY: $0.y + $0.radius + 2)
            } + labels.map(\.box)
        var placed: [ContextLabel] = []
        for place in candidates where placed.count < most {
            let pixel = frame.pixel(latitude: place.latitude, longitude: place.longitude)
            let width = Label.width(place.name) * fontSize / Label.fontSize
            let box = PlaneRect(
                minX: pixel.x - 3, minY: pixel.y - fontSize, maxX: pixel.x + 5 + width, maxY: pixel.y + 4)
            guard box.minX >= 0, box.maxX <= frame.width, box.minY >= 0, box.maxY <= frame.height,
                !taken.contains(where: { $0.meets(box) })
            else { continue }
            taken.append(box)
            placed.append(
                ContextLabel(name: place.name, x: pixel.x, y: pixel.y, textX: pixel.x + 5, box: box))
        }
        return placed
    }
}
