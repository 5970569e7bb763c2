/// A capture time as the camera's clock showed it: the local civil time where the photo was
/// taken, without a zone.
package struct MapTime: Sendable, Hashable, Comparable {
    /// The year (four digits), month (1–12) and day (1–31).
    package var year: Int
    package var month: Int
    package var day: Int
    /// The hour (0–23), minute and second.
    package var hour: Int
    package var minute: Int
    package var second: Int

    /// A date and time of day (midnight when the time is left out).
    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The fields as one sortable number.
    var key: Int64 {
        ((((Int64(year) * 13 + Int64(month)) * 32 + Int64(day)) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60
            + Int64(second)
    }

    /// Whether `lhs` is earlier.
    package static func < (lhs: MapTime, rhs: MapTime) -> Bool { lhs.key < rhs.key }

    /// `YYYY-MM-DD`.
    package var dateText: String { "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))" }

    /// `YYYY-MM-DD HH:MM:SS`.
    package var text: String { "\(dateText) \(digits(hour, 2)):\(digits(minute, 2)):\(digits(second, 2))" }
}

/// `value` in decimal with at least `width` digits (a minus sign before the zeros).
func digits(_ value: Int, _ width: Int) -> String {
    let magnitude = String(value.magnitude)
    let padded = String(repeating: "0", count: max(0, width - magnitude.count)) + magnitude
    return value < 0 ? "-" + padded : padded
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
    /// The distance from the position to the named place, in kilometres.
    package var distanceKm: Double?
    /// The local capture time, when known.
    package var time: MapTime?

    /// A point; everything but the position and the path is optional.
    package init(
        latitude: Double, longitude: Double, path: [UInt8], place: String? = nil, admin1: String? = nil,
        countryCode: String? = nil, distanceKm: Double? = nil, time: MapTime? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.path = path
        self.place = place
        self.admin1 = admin1
        self.countryCode = countryCode
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
    /// What a record is, singular and plural, for the title (`12 files, 10 located`).
    package var noun: (String, String)

    /// The counts of a run of `noun`s (singular, plural).
    package init(files: Int, located: Int, noun: (String, String) = ("file", "files")) {
        self.files = files
        self.located = located
        self.noun = noun
    }

    /// Whether two runs counted the same.
    package static func == (a: MapCounts, b: MapCounts) -> Bool {
        a.files == b.files && a.located == b.located && a.noun == b.noun
    }
}
