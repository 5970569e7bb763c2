import PhotoGPS
import PhotoTagMap
import PhotoTagSupport
import ReverseGeocoding

/// `--format svg` and `--format html`: the located records gathered for one map, written when
/// the run ends (see `PhotoTagMap`).
///
/// Only what the picture needs is kept per record (a ``MapPoint``: the position, the path, the
/// place's strings and the local time), so a scan of 100,000 photos holds a few tens of MB.
struct MapOutput: Sendable {
    /// The records seen (the title's "N files"), located or not, kept by the filters or not.
    var records = 0
    /// The located records seen, kept by the filters or not.
    var located = 0
    /// The located records the filters keep, in output order: the map's points.
    var points: [MapPoint] = []

    /// Counts a record and keeps its point, if it has one.
    mutating func add(_ point: MapPoint?) {
        records += 1
        if let point {
            located += 1
            points.append(point)
        }
    }

    /// The map's bytes: an SVG file or an HTML page. File links are made absolute against
    /// `directory` (the working directory).
    func render(_ format: OutputFormat, noun: (String, String), directory: [UInt8]) -> [UInt8] {
        let counts = MapCounts(files: records, located: located, shown: points.count, noun: noun)
        return format == .html
            ? MapRenderer.html(points: points, counts: counts, directory: directory)
            : MapRenderer.svg(points: points, counts: counts)
    }

    /// The point of a located photo record, with its path's bytes; `nil` when it has no position.
    static func point(_ record: PhotoRecord, path: [UInt8]) -> MapPoint? {
        guard let fix = record.reading.fix else { return nil }
        let answer = record.place.answer
        return MapPoint(
            latitude: fix.latitude, longitude: fix.longitude, path: path, place: answer?.displayName,
            admin1: answer?.admin1, countryCode: answer?.countryCode, country: answer?.country,
            distanceKm: answer.flatMap(distanceKm),
            time: record.time?.local.flatMap(mapTime))
    }

    /// The point of a coordinate record; `nil` when the line was not a coordinate.
    static func point(_ record: CoordinateRecord) -> MapPoint? {
        guard let coordinate = record.coordinate else { return nil }
        let answer = record.place.answer
        return MapPoint(
            latitude: coordinate.latitude, longitude: coordinate.longitude, path: [],
            place: answer?.displayName, admin1: answer?.admin1, countryCode: answer?.countryCode,
            country: answer?.country, distanceKm: answer.flatMap(distanceKm))
    }

    /// How far the point is from the place the map names for it (``PlaceAnswer/displayName``):
    /// the city when there is one, else the named place.
    static func distanceKm(_ answer: PlaceAnswer) -> Double? { answer.city?.distanceKm ?? answer.nearest?.distanceKm }

    /// The date and time of an ISO 8601 local time (`2019-07-01T14:34:56+02:00`), without its
    /// offset: the wall clock where the photo was taken.
    static func mapTime(_ text: String) -> MapTime? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        return MapTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The working directory's path, for absolute file links; empty when it cannot be read.
    static func workingDirectory() -> [UInt8] {
        currentDirectory() ?? []
    }
}
