import ReverseGeocoding

/// A capture time as the camera's clock showed it: the local civil time where the photo was
/// taken, without a zone (ReverseGeocoding's wall-clock date and time).
package typealias MapTime = CivilDateTime

extension CivilDateTime {
    /// `YYYY-MM-DD`.
    package var dateText: String { String(description.prefix { $0 != "T" }) }

    /// `YYYY-MM-DD HH:MM:SS`.
    package var text: String {
        var text = description
        if let separator = text.firstIndex(of: "T") { text.replaceSubrange(separator...separator, with: " ") }
        return text
    }
}

/// One located photo for the map: where, which file, the named place and when.
///
/// Kept small (a map of 100,000 photos holds 100,000 of these): the strings of one place are
/// usually the same instances for every photo taken there.
package struct MapPoint: Sendable {
    /// The position in degrees (WGS 84).
    package var latitude: Double
    package var longitude: Double
    /// The file's path as given, bytes (not necessarily UTF-8); empty for a position that is not
    /// a file's (a coordinate of `geocode`).
    package var path: [UInt8]
    /// The named place (e.g. `Paris`); `nil` when no place was named.
    package var place: String?
    /// The admin-1 region's name (e.g. `Île-de-France`).
    package var admin1: String?
    /// ISO 3166-1 alpha-2 (e.g. `FR`).
    package var countryCode: String?
    /// The country's name (e.g. `France`), for a marker whose photos are all in that country.
    package var country: String?
    /// The distance from the position to the named place, in kilometres.
    package var distanceKm: Double?
    /// The local capture time, when known.
    package var time: MapTime?

    /// A point; everything but the position and the path is optional.
    package init(
        latitude: Double, longitude: Double, path: [UInt8], place: String? = nil, admin1: String? = nil,
        countryCode: String? = nil, country: String? = nil, distanceKm: Double? = nil, time: MapTime? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.path = path
        self.place = place
        self.admin1 = admin1
        self.countryCode = countryCode
        self.country = country
        self.distanceKm = distanceKm
        self.time = time
    }
}

/// What a run saw, for the title line: the files (or coordinates) looked at and how many had a
/// position.
package struct MapCounts: Sendable, Equatable {
    /// The records looked at, located or not.
    package var files: Int
    /// How many of them have a position.
    package var located: Int
    /// How many of those the filters keep (`--near`, `--within`): the points drawn.
    package var shown: Int
    /// What a record is, singular and plural, for the title (`12 files, 10 located`).
    package var noun: (String, String)

    /// The counts of a run of `noun`s (singular, plural); `shown` is `located` unless given.
    package init(files: Int, located: Int, shown: Int? = nil, noun: (String, String) = ("file", "files")) {
        self.files = files
        self.located = located
        self.shown = shown ?? located
        self.noun = noun
    }

    /// Whether two runs counted the same.
    package static func == (a: MapCounts, b: MapCounts) -> Bool {
        a.files == b.files && a.located == b.located && a.shown == b.shown && a.noun == b.noun
    }
}
