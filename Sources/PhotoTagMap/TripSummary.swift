/// The text counterpart of the map: photos per country and per place with their date ranges,
/// in time order, for the text `--summary`:
///
///     FR  142 photos  2019-07-01 – 2019-07-09
///     FR  Paris  100 photos  2019-07-01 – 2019-07-04
///     FR  Lyon  42 photos  2019-07-05 – 2019-07-09
///
/// It keeps one entry per place, not per photo, so it stays small for any number of photos.
package struct TripSummary: Sendable {
    /// What one country or place gathered.
    private struct Entry: Sendable {
        var count = 0
        var first: MapTime?
        var last: MapTime?

        mutating func add(_ time: MapTime?) {
            count += 1
            guard let time else { return }
            if first.map({ time < $0 }) ?? true { first = time }
            if last.map({ time > $0 }) ?? true { last = time }
        }
    }

    /// A place: its country, region and name (two places of one name in one country stay apart).
    private struct Key: Hashable, Sendable, Comparable {
        var country: String
        var admin1: String
        var name: String

        static func < (a: Key, b: Key) -> Bool { (a.country, a.admin1, a.name) < (b.country, b.admin1, b.name) }
    }

    private var countries: [String: Entry] = [:]
    private var places: [Key: Entry] = [:]

    /// The code shown for a position in no country.
    static let noCountry = "--"
    /// The name shown for a position with no named place.
    static let noPlace = "(no place)"

    /// An empty summary.
    package init() {}

    /// Counts one located photo.
    package mutating func add(countryCode: String?, admin1: String?, place: String?, time: MapTime?) {
        let country = countryCode ?? Self.noCountry
        countries[country, default: Entry()].add(time)
        places[Key(country: country, admin1: admin1 ?? "", name: place ?? Self.noPlace), default: Entry()].add(time)
    }

    /// Counts one map point.
    package mutating func add(_ point: MapPoint) {
        add(countryCode: point.countryCode, admin1: point.admin1, place: point.place, time: point.time)
    }

    /// Whether nothing was counted.
    package var isEmpty: Bool { countries.isEmpty }

    /// The lines (without newlines): each country by its first photo, followed by its places by
    /// their first photo; photos without a time after those with one, then by name. A place
    /// whose name another place of the country shares is named with its region.
    package func lines() -> [String] {
        func before(_ a: Entry, _ b: Entry) -> Bool? {
            switch (a.first, b.first) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, .none): return true
            case (.none, .some): return false
            default: return nil
            }
        }
        // Dictionaries are only looked up, never iterated in their own order: every order here
        // is a full sort with ties broken by name.
        let countryEntries = countries.map { (code: $0.key, entry: $0.value) }.sorted {
            before($0.entry, $1.entry) ?? ($0.code < $1.code)
        }
        let placeEntries = places.map { (key: $0.key, entry: $0.value) }.sorted {
            before($0.entry, $1.entry) ?? ($0.key < $1.key)
        }
        var lines: [String] = []
        for (code, entry) in countryEntries {
            lines.append("\(code)  \(Self.describe(entry))")
            let own = placeEntries.filter { $0.key.country == code }
            for (key, place) in own {
                let shared = own.contains { $0.key.name == key.name && $0.key != key }
                let name = shared && !key.admin1.isEmpty ? "\(key.name), \(key.admin1)" : key.name
                lines.append("\(code)  \(name)  \(Self.describe(place))")
            }
        }
        return lines
    }

    /// `142 photos  2019-07-01 – 2019-07-04` (one date when both are the same day, none when
    /// unknown).
    private static func describe(_ entry: Entry) -> String {
        var text = MarkupText.count(entry.count, "photo", "photos")
        if let first = entry.first, let last = entry.last {
            text += "  " + (first.dateText == last.dateText ? first.dateText : "\(first.dateText) – \(last.dateText)")
        }
        return text
    }
}
