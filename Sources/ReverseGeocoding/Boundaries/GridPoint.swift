/// A point of the boundary data on its 5-decimal grid: longitude and latitude in units of
/// 1e-5 degree, exact for coordinates written with at most five decimals.
///
/// What the importer reads a GeoJSON position into (``GeoJSONReader``), and what a boundary
/// table gives back as a vertex of an outline (``BoundaryOutlines``): the table stores its
/// vertices on the same grid, so an outline's points are the imported ones, exactly.
package struct GridPoint: Hashable, Sendable {
    /// Longitude in 1e-5 degree, -18,000,000 ... 18,000,000.
    package var x: Int32
    /// Latitude in 1e-5 degree, -9,000,000 ... 9,000,000.
    package var y: Int32

    /// The grid point `x` (longitude) and `y` (latitude), in 1e-5 degree.
    package init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    /// The longitude in degrees.
    package var longitude: Double { Double(x) / 1e5 }
    /// The latitude in degrees.
    package var latitude: Double { Double(y) / 1e5 }
}
