import ReverseGeocoding

extension PlaceOptions {
    /// Looks up where a coordinate is under these options (see ``PlaceLocator``).
    func lookUp(_ coordinate: Coordinate, in locator: PlaceLocator?) -> PlaceResult {
        guard !skip, let locator else { return .none }
        var result = PlaceResult(location: locator.locate(coordinate, filter: filter))
        if let nearest {
            result.nearby = locator.geocoder.nearestPlaces(to: coordinate, count: nearest, filter: filter)
        }
        return result
    }
}
