import ReverseGeocoding

extension PlaceOptions {
    /// Looks up where a coordinate is under these options (see ``PlaceLocator``).
    func lookUp(_ coordinate: Coordinate, in locator: PlaceLocator?) -> PlaceResult {
        guard !skip, let locator else { return .none }
        var result = PlaceResult(location: locate(coordinate, in: locator))
        if let nearest {
            result.nearby = locator.geocoder.nearestPlaces(to: coordinate, count: nearest, filter: filter)
        }
        return result
    }

    /// The answer alone (no `nearby`), with its names in the reader's language under `--lang`.
    @inline(__always)
    func locate(_ coordinate: Coordinate, in locator: PlaceLocator) -> UnsafeLocation {
        var location = locator.locate(coordinate, filter: filter)
        names?.localize(&location)
        return location
    }

    /// Whether a point's answer leaves it unplaced, for geocode's exit status: no place passes
    /// a filter (`--max-distance`, `--min-population`), or, without one, the point has neither
    /// a place nor a country (a point in a country without places, such as Antarctica, is
    /// answered by the country).
    func unplaced(_ location: UnsafeLocation) -> Bool {
        location.nearest == nil && (filter != .none || location.country == nil)
    }
}
