import PhotoGPS
import ReverseGeocoding

/// One output record: a file, what reading it found, and the nearest place.
struct PhotoRecord {
    var file: String
    var reading: GPSReading
    var place: PlaceMatch? = nil

    /// Writes the record as one JSON object with the fixed keys of DESIGN.md §5.
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("file")
        json.string(file)
        json.key("status")
        json.string(reading.status.rawValue)
        json.key("gps")
        if let fix = reading.fix {
            json.beginObject()
            json.key("latitude")
            json.number(fix.latitude)
            json.key("longitude")
            json.number(fix.longitude)
            json.key("altitude")
            json.number(fix.altitude)
            json.key("timestamp")
            json.string(fix.timestamp?.description)
            json.key("direction")
            json.number(fix.direction)
            json.key("directionRef")
            json.string(fix.directionReference?.rawValue)
            json.key("speed")
            json.number(fix.speed)
            json.key("horizontalError")
            json.number(fix.horizontalError)
            json.key("datum")
            json.string(fix.mapDatum)
            json.key("source")
            json.string(fix.source.rawValue)
            json.endObject()
        } else {
            json.null()
        }
        json.key("place")
        writePlace(place, to: &json)
        json.key("camera")
        if let camera = reading.camera {
            json.beginObject()
            json.key("make")
            json.string(camera.make)
            json.key("model")
            json.string(camera.model)
            json.key("dateTimeOriginal")
            json.string(camera.dateTimeOriginal)
            json.key("offsetTimeOriginal")
            json.string(camera.offsetTimeOriginal)
            json.endObject()
        } else {
            json.null()
        }
        json.key("warnings")
        json.beginArray()
        for warning in reading.warnings { json.string(warning.description) }
        json.endArray()
        json.key("error")
        json.string(reading.error?.description)
        json.endObject()
    }

    /// The record as one line for people: `file  latitude, longitude` or `file  status: why`.
    var textLine: String {
        switch reading.status {
        case .located:
            let fix = reading.fix!
            var line = "\(file)  \(fixed(fix.latitude, 6)), \(fixed(fix.longitude, 6))"
            if let altitude = fix.altitude { line += "  \(fixed(altitude, 1)) m" }
            if let timestamp = fix.timestamp { line += "  \(timestamp)" }
            if let place { line += "  \(placeLabel(place))" }
            return line
        case .noGPS:
            return "\(file)  no GPS"
        case .invalidGPS:
            return "\(file)  invalid GPS: " + reading.warnings.map(\.description).joined(separator: "; ")
        case .error:
            return "\(file)  error: \(reading.error?.description ?? "unknown")"
        }
    }
}

/// `value` rounded to `digits` decimals, without exponent notation: `fixed(2.2945, 6)` is
/// `2.294500`.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value.magnitude * scale).rounded()
    let whole = UInt64(scaled / scale)
    let fraction = UInt64(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fractionText = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}

/// Writes a place match as the `place` object of DESIGN.md §5, or `null`.
func writePlace(_ match: PlaceMatch?, to json: inout JSONWriter) {
    guard let match else { return json.null() }
    let place = match.place
    json.beginObject()
    json.key("geonameId")
    json.integer(place.geonameId)
    json.key("name")
    json.string(place.name)
    json.key("asciiName")
    json.string(place.asciiName)
    json.key("admin1")
    json.string(place.admin1)
    json.key("admin2")
    json.string(place.admin2)
    json.key("countryCode")
    json.string(place.countryCode)
    json.key("country")
    json.string(place.country)
    json.key("timezone")
    json.string(place.timezone)
    json.key("population")
    json.integer(place.population)
    json.key("featureCode")
    json.string(place.featureCode)
    json.key("latitude")
    json.number(place.latitude)
    json.key("longitude")
    json.number(place.longitude)
    json.key("distanceKm")
    json.number(roundedDistance(match.distanceKm))
    json.key("bearing")
    json.integer(roundedBearing(match.bearing))
    json.endObject()
}

/// Distances are given to the metre: `0.724`.
func roundedDistance(_ km: Double) -> Double { (km * 1000).rounded() / 1000 }

/// Bearings are given in whole degrees, `0...359`.
func roundedBearing(_ degrees: Double) -> Int { Int(degrees.rounded()) % 360 }

/// The eight compass points, for a bearing in degrees.
func compassPoint(_ degrees: Double) -> String {
    ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][Int((degrees / 45).rounded()) % 8]
}

/// `Paris, Île-de-France, FR — 4.0 km W`: the place, and where the photo lies from it.
func placeLabel(_ match: PlaceMatch) -> String {
    let place = match.place
    let parts = [place.name, place.admin1, place.countryCode].compactMap { $0 }.filter { !$0.isEmpty }
    return parts.joined(separator: ", ") + " — \(fixed(match.distanceKm, 1)) km \(compassPoint(match.bearing))"
}
