@testable import PhotoTagMap

/// Photo sets the map tests draw.
enum Samples {
    static func point(
        _ latitude: Double, _ longitude: Double, _ name: String, place: String? = nil, country: String? = nil,
        day: Int = 1
    ) -> MapPoint {
        MapPoint(
            latitude: latitude, longitude: longitude, path: Array("/photos/\(name).jpg".utf8), place: place ?? name,
            admin1: nil, countryCode: country, distanceKm: 0.5,
            time: MapTime(year: 2019, month: 7, day: day, hour: 12))
    }

    /// Four cities on four continents.
    static let world = [
        point(48.8566, 2.3522, "Paris", country: "FR", day: 1),
        point(40.7128, -74.006, "New York", country: "US", day: 5),
        point(-33.8688, 151.2093, "Sydney", country: "AU", day: 9),
        point(35.6762, 139.6503, "Tokyo", country: "JP", day: 12),
    ]

    /// Places all over the globe, from the Arctic to Antarctica, both sides of ±180°: the whole
    /// world drawn.
    static let globe = [
        point(71.29, -156.79, "Utqiagvik"), point(-54.8, -68.3, "Ushuaia"), point(64.73, 177.51, "Anadyr"),
        point(-77.85, 166.67, "McMurdo"), point(78.22, 15.65, "Longyearbyen"), point(-33.92, 18.42, "Cape Town"),
    ]

    /// A trip round France.
    static let france = [
        point(48.8566, 2.3522, "Paris", country: "FR", day: 1),
        point(43.2965, 5.3698, "Marseille", country: "FR", day: 3),
        point(47.2184, -1.5536, "Nantes", country: "FR", day: 6), point(45.764, 4.8357, "Lyon", country: "FR", day: 4),
    ]

    /// Round the Pacific: Japan, Alaska, California, Hawaii, New Zealand.
    static let pacific = [
        point(35.6762, 139.6503, "Tokyo"), point(61.2181, -149.9003, "Anchorage"),
        point(37.7749, -122.4194, "San Francisco"), point(21.3069, -157.8583, "Honolulu"),
        point(-36.8485, 174.7633, "Auckland"),
    ]

    /// Fiji, on both sides of the antimeridian.
    static let fiji = [
        point(-17.7765, 177.4356, "Nadi", country: "FJ"), point(-16.85, -179.95, "Taveuni", country: "FJ", day: 2),
    ]
}
