import PhotoGPS

/// One output record: a file and what reading it found.
struct PhotoRecord {
    var file: String
    var reading: GPSReading

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
        json.null()
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
