/// The text counterpart of the map: the trip as consecutive visits (an ``Itinerary``), each
/// country with its places, for the text and JSON `--summary`:
///
///     FR  100 photos  2019-07-01 – 2019-07-04
///     FR  Paris  100 photos  2019-07-01 – 2019-07-04
///     CH  42 photos  2019-07-05 – 2019-07-09
///     CH  Basel  12 photos  2019-07-05
///     CH  Zürich  30 photos  2019-07-06 – 2019-07-09
///     DE  1 photo  2019-07-05  (short hop)
///     DE  Weil am Rhein  1 photo  2019-07-05  (short hop)
///
/// It keeps one small entry per photo (its place's number and its time) and one per place.
package struct TripSummary: Sendable {
    /// A place: its country, region and name (two places of one name in one country stay apart).
    private struct Key: Hashable, Sendable {
        var country: String?
        var admin1: String?
        var name: String?
    }

    /// Each place seen, numbered in the order first seen.
    private var keys: [Key] = []
    private var numbers: [Key: Int32] = [:]
    /// Each photo: its place's number and its time.
    private var photos: [(key: Int32, time: MapTime?)] = []

    /// The code shown for a position in no country.
    static let noCountry = "--"
    /// The name shown for a position with no named place.
    static let noPlace = "(no place)"

    /// An empty summary.
    package init() {}

    /// Counts one located photo.
    package mutating func add(countryCode: String?, admin1: String?, place: String?, time: MapTime?) {
        let key = Key(country: countryCode, admin1: admin1, name: place)
        let number: Int32
        if let known = numbers[key] {
            number = known
        } else {
            number = Int32(keys.count)
            numbers[key] = number
            keys.append(key)
        }
        photos.append((number, time))
    }

    /// Counts one map point.
    package mutating func add(_ point: MapPoint) {
        add(countryCode: point.countryCode, admin1: point.admin1, place: point.place, time: point.time)
    }

    /// Whether nothing was counted.
    package var isEmpty: Bool { photos.isEmpty }

    /// The trip's stops.
    package var itinerary: Itinerary {
        Itinerary(
            photos.map {
                let key = keys[Int($0.key)]
                return Itinerary.Photo(countryCode: key.country, admin1: key.admin1, place: key.name, time: $0.time)
            })
    }

    /// The lines (without newlines): each country's stop followed by its places' stops. A place
    /// whose name another place of the country shares is named with its region.
    package func lines() -> [String] {
        var regions: [String: Set<String>] = [:]
        for key in keys {
            regions[(key.country ?? "") + "\u{0}" + (key.name ?? ""), default: []].insert(key.admin1 ?? "")
        }
        var lines: [String] = []
        for country in itinerary.stops {
            let code = country.countryCode ?? Self.noCountry
            lines.append("\(code)  \(Self.describe(country))")
            for place in country.places {
                let name = place.place ?? Self.noPlace
                let shared = regions[(place.countryCode ?? "") + "\u{0}" + (place.place ?? ""), default: []].count > 1
                let admin1 = place.admin1 ?? ""
                lines.append(
                    "\(code)  \(shared && !admin1.isEmpty ? "\(name), \(admin1)" : name)  \(Self.describe(place))")
            }
        }
        return lines
    }

    /// `142 photos  2019-07-01 – 2019-07-04` (one date when both are the same day, `(no time)`
    /// when unknown), with `  (short hop)` after a hop.
    private static func describe(_ stop: Itinerary.Stop) -> String {
        var text = MarkupText.count(stop.count, "photo", "photos")
        if let first = stop.first, let last = stop.last {
            text += "  " + (first.dateText == last.dateText ? first.dateText : "\(first.dateText) – \(last.dateText)")
        } else {
            text += "  (no time)"
        }
        if stop.hop { text += "  (short hop)" }
        return text
    }
}
