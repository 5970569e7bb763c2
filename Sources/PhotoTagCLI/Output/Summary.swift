import PhotoGPS
import PhotoTagMap
import PhotoTagSupport
import ReverseGeocoding

/// Counts per status, country and place, and the trip (photos per country and place with their
/// dates), for `--summary`.
struct Summary {
    private var statuses: [GPSReading.Status: Int] = [:]
    private var countries: [String: (name: String?, count: Int)] = [:]
    /// Places by GeoNames id: two places of the same name in one region stay apart.
    private var places: [Int: (place: Place, count: Int)] = [:]
    private(set) var total = 0
    /// The records the filters keep (`--with-gps`, `--near`, GeoJSON's located-only): what the
    /// output holds. The other counts are of every file read, kept or not.
    private(set) var kept = 0
    /// Located photos that are in no country (at sea, or in no polygon): the countries' counts
    /// and this one add up to the located count.
    private var noCountry = 0
    /// Files read only because of `--all-files` that are not photos at all (no record).
    private(set) var notPhotos = 0
    /// The located photos per country and place with their first and last local dates.
    private var trip = TripSummary()
    /// `phototag tag`: the sidecars by what became of them, and their properties by status.
    var countsSidecars = false
    private var sidecars: [SidecarTagging.Action: Int] = [:]
    private var properties: [XMPPropertyStatus: Int] = [:]

    /// The statuses in the order every summary lists them.
    static let statusOrder: [GPSReading.Status] = [.located, .noGPS, .invalidGPS, .error]
    /// The sidecar actions and property statuses in the order the summary lists them.
    static let actionOrder: [SidecarTagging.Action] = [
        .created, .updated, .wouldCreate, .wouldUpdate, .unchanged, .nothing, .failed,
    ]
    static let propertyOrder: [XMPPropertyStatus] = [.written, .kept, .unchanged]

    /// Counts a record read; `kept` says whether the filters let it into the output.
    mutating func add(_ record: PhotoRecord, kept: Bool = true) {
        let answer = record.place.answer
        add(record.reading.status, answer, kept: kept)
        if let tagging = record.tagging {
            sidecars[tagging.action, default: 0] += 1
            for outcome in tagging.properties { properties[outcome.status, default: 0] += 1 }
        }
        if record.reading.status == .located {
            trip.add(
                countryCode: answer?.countryCode, admin1: answer?.admin1, place: answer?.displayName,
                time: record.time?.local.flatMap(MapOutput.mapTime))
        }
    }

    /// Counts a record of `status` whose place lookup gave `answer`.
    mutating func add(_ status: GPSReading.Status, _ answer: PlaceAnswer?, kept: Bool = true) {
        total += 1
        if kept { self.kept += 1 }
        statuses[status, default: 0] += 1
        guard status == .located else { return }
        // The country that contains the point (none at sea), and the place named there.
        guard let code = answer?.countryCode else {
            noCountry += 1
            return
        }
        countries[code, default: (answer?.country, 0)].count += 1
        guard let answer else { return }
        if let place = answer.nearest?.place { places[place.geonameId, default: (place, 0)].count += 1 }
    }

    /// `Name, Region, CC`: how the text summary names a place.
    private static func label(_ place: Place) -> String {
        escapingControls(
            [place.name, place.admin1, place.countryCode].compactMap { $0 }.filter { !$0.isEmpty }.joined(
                separator: ", "))
    }

    /// The countries, commonest first, then by code.
    private var sortedCountries: [(code: String, name: String?, count: Int)] {
        countries.map { ($0.key, $0.value.name, $0.value.count) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.code < $1.code
        }
    }

    /// The summary as one line of JSON, for `--summary` with `--format json` or `ndjson`:
    ///
    ///     {"files":3,"kept":3,"skipped":0,"statuses":{"located":2,"no-gps":1,"invalid-gps":0,"error":0},
    ///      "countries":[{"countryCode":"FR","country":"France","count":2}],
    ///      "places":[{"geonameId":2988507,"name":"Paris","admin1":"Île-de-France",
    ///                 "countryCode":"FR","count":2}]}
    ///
    /// `files` and every count after `skipped` are of the records read; `kept` is how many of them
    /// the filters let into the output; `skipped` the files `--all-files` read that are not
    /// photos. Located photos in no country (at sea) are one last country entry with a null code,
    /// so the countries add up to the located count.
    ///
    /// `trip` is the itinerary of the text summary's `trip:` lines (see `Itinerary`): the visits
    /// in time order, `{"countryCode","count","first","last","hop","places":[{"name","admin1",
    /// "count","first","last","hop"}…]}`, with local times (`2019-07-01T14:34:56`).
    ///
    /// Keys are in this fixed order; the statuses are keyed by the records' `status` values,
    /// every one present (0 when none); countries and places are every one seen, commonest
    /// first, ties by country code, or by name, region, country code and id.
    func json() -> String {
        var json = JSONWriter(pretty: false)
        json.beginObject()
        json.key("files")
        json.integer(total)
        json.key("kept")
        json.integer(kept)
        json.key("skipped")
        json.integer(notPhotos)
        json.key("statuses")
        json.beginObject()
        for status in Self.statusOrder {
            switch status {
            case .located: json.key("located")
            case .noGPS: json.key("no-gps")
            case .invalidGPS: json.key("invalid-gps")
            case .error: json.key("error")
            }
            json.integer(statuses[status] ?? 0)
        }
        json.endObject()
        if countsSidecars {
            json.key("sidecars")
            json.beginObject()
            for action in Self.actionOrder {
                json.key(named: action.rawValue)
                json.integer(sidecars[action] ?? 0)
            }
            json.endObject()
            json.key("properties")
            json.beginObject()
            for status in Self.propertyOrder {
                json.key(named: status.rawValue)
                json.integer(properties[status] ?? 0)
            }
            json.endObject()
        }
        json.key("countries")
        json.beginArray()
        for country in sortedCountries {
            json.beginObject()
            json.key("countryCode")
            json.string(country.code)
            json.key("country")
            json.string(country.name)
            json.key("count")
            json.integer(country.count)
            json.endObject()
        }
        if noCountry > 0 {
            // Last, so that the counts add up to the located photos.
            json.beginObject()
            json.key("countryCode")
            json.null()
            json.key("country")
            json.null()
            json.key("count")
            json.integer(noCountry)
            json.endObject()
        }
        json.endArray()
        json.key("places")
        json.beginArray()
        let sortedPlaces = places.values.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            let left = (a.place.name, a.place.admin1 ?? "", a.place.countryCode)
            let right = (b.place.name, b.place.admin1 ?? "", b.place.countryCode)
            return left != right ? left < right : a.place.geonameId < b.place.geonameId
        }
        for (place, count) in sortedPlaces {
            json.beginObject()
            json.key("geonameId")
            json.integer(place.geonameId)
            json.key("name")
            json.string(place.name)
            json.key("admin1")
            json.string(place.admin1)
            json.key("countryCode")
            json.string(place.countryCode)
            json.key("count")
            json.integer(count)
            json.endObject()
        }
        json.endArray()
        json.key("trip")
        json.beginArray()
        for country in trip.itinerary.stops {
            json.beginObject()
            json.key("countryCode")
            json.string(country.countryCode)
            Self.describe(country, &json)
            json.key("places")
            json.beginArray()
            for place in country.places {
                json.beginObject()
                json.key("name")
                json.string(place.place)
                json.key("admin1")
                json.string(place.admin1)
                Self.describe(place, &json)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self) + "\n"
    }

    /// A trip stop's `count`, `first`, `last` (local times, null when unknown) and `hop`.
    private static func describe(_ stop: Itinerary.Stop, _ json: inout JSONWriter) {
        json.key("count")
        json.integer(stop.count)
        json.key("first")
        json.string(stop.first?.description)
        json.key("last")
        json.string(stop.last?.description)
        json.key("hop")
        json.bool(stop.hop)
    }

    /// Writes the summary where `options` say, in the form its format calls for: JSON for
    /// `json` and `ndjson`, text otherwise; to `--summary-file`, or else to `errors`.
    ///
    /// - Returns: false after reporting on `errors` that the summary file could not be written.
    func report(_ options: OutputOptions, errors: OutputSink) -> Bool {
        let text = options.format == .json || options.format == .ndjson ? json() : self.text()
        guard let path = options.summaryFile else {
            errors.write(text)
            return true
        }
        if let failure = writeFile(Array(text.utf8), to: path) {
            errors.write("phototag: summary file '\(path)': \(failure)\n")
            return false
        }
        return true
    }

    /// Counts a file skipped because it is not a photo at all.
    mutating func addNotAPhoto() { notPhotos += 1 }

    /// The summary as text: totals by status, then countries, the 20 commonest places, and the trip
    /// (each country and place with its first and last date, in time order).
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
        if kept != total {
            // A filter changes what is printed, not what was read: both are said.
            lines.append("\(grouped(kept)) of them kept by the filters")
        }
        if countsSidecars {
            // Every action of a real run, or of a dry run, and the others only when they happened.
            let dryRun = sidecars[.wouldCreate] != nil || sidecars[.wouldUpdate] != nil
            let always: Set<SidecarTagging.Action> =
                dryRun ? [.wouldCreate, .wouldUpdate, .unchanged, .failed] : [.created, .updated, .unchanged, .failed]
            let shown = Self.actionOrder.filter { always.contains($0) || sidecars[$0] != nil }
            let width = grouped(max(sidecars.values.max() ?? 0, properties.values.max() ?? 0)).count
            func line(_ count: Int, _ name: String) {
                let count = grouped(count)
                lines.append("  \(String(repeating: " ", count: width - count.count))\(count)  \(name)")
            }
            lines.append("sidecars:")
            for action in shown { line(sidecars[action] ?? 0, action.rawValue) }
            lines.append("properties:")
            for status in Self.propertyOrder { line(properties[status] ?? 0, status.rawValue) }
        }
        if !countries.isEmpty || noCountry > 0 {
            lines.append("countries:")
            let sorted = sortedCountries
            let countWidth = grouped(max(sorted.first?.count ?? 0, noCountry)).count
            func line(_ count: Int, _ text: String) {
                let count = grouped(count)
                lines.append("  \(String(repeating: " ", count: countWidth - count.count))\(count)  \(text)")
            }
            for country in sorted {
                line(country.count, country.code + (country.name.map { "  " + escapingControls($0) } ?? ""))
            }
            if noCountry > 0 { line(noCountry, "--  in no country (at sea)") }
        }
        if !places.isEmpty {
            var byLabel: [String: Int] = [:]
            for (place, count) in places.values { byLabel[Self.label(place), default: 0] += count }
            let sorted = byLabel.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            lines.append(
                sorted.count > placeLimit ? "places (the \(placeLimit) commonest of \(sorted.count)):" : "places:")
            let countWidth = grouped(sorted[0].value).count
            for (label, count) in sorted.prefix(placeLimit) {
                let shown = grouped(count)
                lines.append("  \(String(repeating: " ", count: countWidth - shown.count))\(shown)  \(label)")
            }
        }
        if !trip.isEmpty {
            // The text counterpart of the map: where the photos were taken, in time order.
            lines.append("trip:")
            for line in trip.lines() { lines.append("  " + line) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Writes `bytes` to the file at `path`, created or emptied first (a FIFO or `/dev/stderr` works
/// too). Returns why it failed, or `nil`.
func writeFile(_ bytes: [UInt8], to path: String) -> String? {
    let descriptor: Int32
    do { descriptor = try openForWriting(path, permissions: 0o666) } catch { return error.text }
    var failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    let closed = closeFile(descriptor)
    if failure == 0 { failure = closed }
    return failure == 0 ? nil : errnoText(failure)
}
