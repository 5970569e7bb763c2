import PhotoGPS
import ReverseGeocoding

/// Counts per status, country and place, for `--summary`.
struct Summary {
    private var statuses: [GPSReading.Status: Int] = [:]
    private var countries: [String: (name: String?, count: Int)] = [:]
    private var places: [String: Int] = [:]
    private(set) var total = 0
    /// Files read only because of `--all-files` that are not photos at all (no record).
    private(set) var notPhotos = 0

    mutating func add(_ record: PhotoRecord) {
        total += 1
        statuses[record.reading.status, default: 0] += 1
        guard let place = record.place.nearest?.place else { return }
        countries[place.countryCode, default: (place.country, 0)].count += 1
        let label = [place.name, place.admin1, place.countryCode].compactMap { $0 }.filter { !$0.isEmpty }
        places[label.joined(separator: ", "), default: 0] += 1
    }

    /// Counts a file skipped because it is not a photo at all.
    mutating func addNotAPhoto() { notPhotos += 1 }

    /// The summary as text: totals by status, then countries and the 20 commonest places.
    func text(placeLimit: Int = 20) -> String {
        var lines = ["\(grouped(total)) \(total == 1 ? "file" : "files")"]
        let names: [(GPSReading.Status, String)] = [
            (.located, "located"), (.noGPS, "no GPS"), (.invalidGPS, "invalid GPS"), (.error, "error"),
        ]
        let width = grouped(max(statuses.values.max() ?? 0, notPhotos)).count
        for (status, name) in names {
            let count = grouped(statuses[status] ?? 0)
            lines.append("  \(String(repeating: " ", count: width - count.count))\(count)  \(name)")
        }
        if notPhotos > 0 {
            let count = grouped(notPhotos)
            lines.append("  \(String(repeating: " ", count: width - count.count))\(count)  skipped, not photos")
        }
        if !countries.isEmpty {
            lines.append("countries:")
            let sorted = countries.sorted {
                $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
            }
            let countWidth = grouped(sorted[0].value.count).count
            for (code, entry) in sorted {
                let count = grouped(entry.count)
                lines.append(
                    "  \(String(repeating: " ", count: countWidth - count.count))\(count)  \(code)"
                        + (entry.name.map { "  \($0)" } ?? ""))
            }
        }
        if !places.isEmpty {
            let sorted = places.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            lines.append(
                sorted.count > placeLimit ? "places (the \(placeLimit) commonest of \(sorted.count)):" : "places:")
            let countWidth = grouped(sorted[0].value).count
            for (label, count) in sorted.prefix(placeLimit) {
                let shown = grouped(count)
                lines.append("  \(String(repeating: " ", count: countWidth - shown.count))\(shown)  \(label)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
