import PhotoTagSupport

/// The GPS IFD entries the policy reads (``GPSTag``), as stored; `nil` means the tag is absent.
struct GPSTags: Hashable, Sendable {
    var latitudeRef: ExifValue?
    var latitude: ExifValue?
    var longitudeRef: ExifValue?
    var longitude: ExifValue?
    var altitudeRef: ExifValue?
    var altitude: ExifValue?
    var timeStamp: ExifValue?
    var dateStamp: ExifValue?
    var speedRef: ExifValue?
    var speed: ExifValue?
    var imgDirectionRef: ExifValue?
    var imgDirection: ExifValue?
    var mapDatum: ExifValue?
    var horizontalError: ExifValue?
}

/// The outcome of decoding a GPS block: a fix, or the reasons there is none, plus warnings.
struct GPSDecoding: Hashable, Sendable {
    /// The fix, or `nil` when the position is invalid (then `warnings` says why).
    var fix: GPSFix?
    var warnings: [GPSWarning]
}

extension GPSFix {
    /// Decodes a GPS block under the GPS policy documented in README.md, "How GPS is read".
    ///
    /// The position is valid only when both coordinates decode; everything else (altitude, time,
    /// direction, speed, error, datum) is optional: a bad value becomes `nil` plus a warning.
    /// When the position is invalid the optional fields are not decoded at all.
    static func decode(_ tags: GPSTags) -> GPSDecoding {
        var warnings: [GPSWarning] = []
        if tags.latitude == nil, tags.longitude == nil {
            return GPSDecoding(fix: nil, warnings: [.noPosition])
        }
        let latitude = decodeCoordinate(
            tags.latitude, reference: tags.latitudeRef, axis: .latitude, warnings: &warnings)
        let longitude = decodeCoordinate(
            tags.longitude, reference: tags.longitudeRef, axis: .longitude, warnings: &warnings)
        guard let latitude, let longitude else { return GPSDecoding(fix: nil, warnings: warnings) }
        if latitude == 0, longitude == 0 {
            return GPSDecoding(fix: nil, warnings: warnings + [.noFixPlaceholder])
        }
        let altitude = decodeAltitude(tags.altitude, reference: tags.altitudeRef, warnings: &warnings)
        let timestamp = decodeTimestamp(date: tags.dateStamp, time: tags.timeStamp, warnings: &warnings)
        var direction: Double? = nil
        var directionReference: North? = nil
        if let degrees = decodeScalar(tags.imgDirection, field: .direction, warnings: &warnings) {
            if (0..<360).contains(degrees) {
                direction = degrees
                switch tags.imgDirectionRef?.text {
                case "T": directionReference = .true
                case "M": directionReference = .magnetic
                case nil: break
                case let other?:
                    warnings.append(.badReference(field: .directionReference, value: other, expected: "T or M"))
                }
            } else {
                warnings.append(.valueOutOfRange(field: .direction, value: degrees))
            }
        }
        var speed: Double? = nil
        if let stored = decodeScalar(tags.speed, field: .speed, warnings: &warnings) {
            switch tags.speedRef?.text ?? "K" {
            case "K": speed = stored
            case "M": speed = stored * 1.609344
            case "N": speed = stored * 1.852
            case let other:
                warnings.append(.badReference(field: .speedReference, value: other, expected: "K, M or N"))
            }
        }
        let horizontalError = decodeScalar(tags.horizontalError, field: .horizontalError, warnings: &warnings)
        let mapDatum = tags.mapDatum?.text.flatMap { $0.isEmpty ? nil : $0 }
        if let mapDatum, let warning = Self.datumWarning(mapDatum) { warnings.append(warning) }
        // Every value was checked above against the invariants GPSFix enforces, so this is a fix.
        let fix = GPSFix(
            latitude: latitude, longitude: longitude, altitude: altitude, timestamp: timestamp, direction: direction,
            directionReference: directionReference, speed: speed, horizontalError: horizontalError, mapDatum: mapDatum)
        return GPSDecoding(fix: fix, warnings: warnings)
    }

    /// The warning for a GPSMapDatum that is not WGS 84, or `nil` for WGS 84 and the datums
    /// within a few metres of it (ITRF and its regional realizations: ETRS89, RGF93, NAD83,
    /// GDA94, GDA2020, JGD2000, JGD2011, CGCS2000…; EPSG codes 4326 and 9777 too). Names are
    /// compared in upper case, without spaces, dashes and underscores.
    static func datumWarning(_ datum: String) -> GPSWarning? {
        let key = String(datum.uppercased().unicodeScalars.filter { !" -_\0".unicodeScalars.contains($0) })
        guard !key.isEmpty else { return nil }
        let near = [
            "WGS84", "WGS1984", "EPSG4326", "EPSG:4326", "ITRF", "ETRS89", "ETRF", "RGF93", "EPSG:9777",
            "NAD83", "GDA94", "GDA2020", "JGD2000", "JGD2011", "CGCS2000", "SIRGAS", "WGS84(G",
        ]
        if near.contains(where: { key.hasPrefix($0) }) { return nil }
        let known: [(prefix: String, offset: String)] = [
            ("TOKYO", "Tokyo datum positions are about 400 to 500 m off in Japan"),
            ("NAD27", "NAD27 positions are up to about 100 m off in North America"),
            ("WGS72", "WGS 72 positions are about 10 m off"),
            ("ED50", "ED50 positions are about 100 to 200 m off in Europe"),
            ("OSGB36", "OSGB36 positions are up to about 120 m off in Great Britain"),
        ]
        let offset = known.first { key.hasPrefix($0.prefix) }?.offset
        return .datumNotWGS84(datum: datum, offset: offset)
    }

    /// Which coordinate is being decoded: its tag names, letters and limit.
    enum Axis {
        case latitude, longitude

        var field: GPSField { self == .latitude ? .latitude : .longitude }
        var referenceField: GPSField { self == .latitude ? .latitudeReference : .longitudeReference }
        var positive: String { self == .latitude ? "N" : "E" }
        var negative: String { self == .latitude ? "S" : "W" }
        var limit: Int { self == .latitude ? 90 : 180 }
    }

    /// Decodes one coordinate from 1–3 (S)RATIONAL components (degrees, minutes, seconds) and
    /// its N/S or E/W reference, to signed decimal degrees.
    ///
    /// - Returns: the degrees, or `nil` after appending the reason to `warnings`.
    static func decodeCoordinate(
        _ value: ExifValue?, reference: ExifValue?, axis: Axis, warnings: inout [GPSWarning]
    ) -> Double? {
        guard let value else {
            warnings.append(.missing(field: axis.field))
            return nil
        }
        let components: EntryComponents<Rational>
        switch value {
        case .rationals(let parts), .signedRationals(let parts): components = parts
        default:
            warnings.append(.unexpectedType(field: axis.field, found: value.typeName, expected: "RATIONAL"))
            return nil
        }
        guard (1...3).contains(components.count) else {
            warnings.append(.componentCount(field: axis.field, found: components.count, expected: "1 to 3"))
            return nil
        }
        var magnitude = 0.0
        var storedNegative = false
        for (index, part) in components.enumerated() {
            guard part.denominator != 0 else {
                warnings.append(.zeroDenominator(field: axis.field, component: componentName(index)))
                return nil
            }
            if (part.numerator < 0) != (part.denominator < 0), part.numerator != 0 { storedNegative = true }
            let unit = index == 0 ? 1.0 : index == 1 ? 60.0 : 3600.0
            magnitude += (Double(part.numerator.magnitude) / Double(part.denominator.magnitude)) / unit
        }
        let refTag = axis.referenceField
        guard let reference else {
            warnings.append(.missing(field: refTag))
            return nil
        }
        guard let letter = reference.text else {
            warnings.append(.unexpectedType(field: refTag, found: reference.typeName, expected: "ASCII"))
            return nil
        }
        guard letter == axis.positive || letter == axis.negative else {
            warnings.append(
                .badReference(field: refTag, value: letter, expected: "\(axis.positive) or \(axis.negative)"))
            return nil
        }
        guard magnitude <= Double(axis.limit) else {
            warnings.append(.outOfRange(field: axis.field, degrees: magnitude, limit: axis.limit))
            return nil
        }
        if storedNegative, letter == axis.positive {
            warnings.append(.signDisagreesWithReference(field: axis.field, reference: letter))
        }
        return letter == axis.negative ? -magnitude : magnitude
    }

    /// The name of a coordinate's component `index` (0, 1 or 2) in messages.
    private static func componentName(_ index: Int) -> String {
        index == 0 ? "degrees" : index == 1 ? "minutes" : "seconds"
    }

    /// Decodes GPSAltitude and GPSAltitudeRef to metres, negative below sea level.
    static func decodeAltitude(
        _ value: ExifValue?, reference: ExifValue?, warnings: inout [GPSWarning]
    ) -> Double? {
        guard let value else { return nil }
        let stored: Rational
        var wrapped = false
        switch value {
        case .rationals(let parts) where parts.count == 1:
            stored = parts[0]
            wrapped = stored.numerator >= 1 << 31
        case .signedRationals(let parts) where parts.count == 1:
            stored = parts[0]
        case .rationals(let parts), .signedRationals(let parts):
            warnings.append(.componentCount(field: .altitude, found: parts.count, expected: "1"))
            return nil
        default:
            warnings.append(.unexpectedType(field: .altitude, found: value.typeName, expected: "RATIONAL"))
            return nil
        }
        guard stored.denominator != 0 else {
            warnings.append(.zeroDenominator(field: .altitude, component: nil))
            return nil
        }
        let numerator = wrapped ? Int64(Int32(truncatingIfNeeded: stored.numerator)) : stored.numerator
        var metres = Double(numerator) / Double(stored.denominator)
        if wrapped {
            warnings.append(.wrappedAltitude(stored: stored, metres: metres))
            return metres
        }
        let below: Int64
        switch reference {
        case .bytes(let bytes)? where bytes.count >= 1: below = Int64(bytes[0])
        case .integers(let values)? where values.count >= 1: below = values[0]
        default: below = 0
        }
        if below == 1 {
            metres = -metres.magnitude
        } else if below != 0 {
            warnings.append(.badAltitudeReference(below))
        }
        return metres
    }

    /// Decodes a single non-negative (S)RATIONAL such as GPSSpeed.
    static func decodeScalar(_ value: ExifValue?, field: GPSField, warnings: inout [GPSWarning]) -> Double? {
        guard let value else { return nil }
        switch value {
        case .rationals(let parts), .signedRationals(let parts):
            guard parts.count == 1 else {
                warnings.append(.componentCount(field: field, found: parts.count, expected: "1"))
                return nil
            }
            guard let number = parts[0].doubleValue else {
                warnings.append(.zeroDenominator(field: field, component: nil))
                return nil
            }
            guard number >= 0 else {
                warnings.append(.valueOutOfRange(field: field, value: number))
                return nil
            }
            return number
        default:
            warnings.append(.unexpectedType(field: field, found: value.typeName, expected: "RATIONAL"))
            return nil
        }
    }

    /// Joins GPSDateStamp and GPSTimeStamp into a UTC timestamp; `nil` plus a warning when
    /// either is missing or invalid (never a guessed date).
    static func decodeTimestamp(
        date: ExifValue?, time: ExifValue?, warnings: inout [GPSWarning]
    ) -> GPSTimestamp? {
        switch (date, time) {
        case (nil, nil): return nil
        case (nil, _?):
            warnings.append(.timeWithoutDate)
            return nil
        case (_?, nil):
            warnings.append(.dateWithoutTime)
            return nil
        case (let date?, let time?):
            guard let day = decodeDate(date, warnings: &warnings),
                let nanoseconds = decodeTimeOfDay(time, warnings: &warnings)
            else { return nil }
            return GPSTimestamp(year: day.year, month: day.month, day: day.day, nanosecondOfDay: nanoseconds)
        }
    }

    /// Parses `YYYY:MM:DD` or `YYYY-MM-DD` and checks that the day exists.
    static func decodeDate(_ value: ExifValue, warnings: inout [GPSWarning]) -> (year: Int, month: Int, day: Int)? {
        guard let text = value.text else {
            warnings.append(.unexpectedType(field: .dateStamp, found: value.typeName, expected: "ASCII"))
            return nil
        }
        var copy = text
        guard let date = copy.withUTF8({ bytes in bytes.count == 10 ? calendarDate(bytes) : nil }) else {
            warnings.append(.badDate(text))
            return nil
        }
        return date
    }

    /// Converts GPSTimeStamp (hours, minutes, seconds as RATIONALs, any of them fractional) to
    /// nanoseconds since midnight, rounded to the nearest nanosecond.
    static func decodeTimeOfDay(_ value: ExifValue, warnings: inout [GPSWarning]) -> Int64? {
        guard case .rationals(let parts) = value else {
            warnings.append(.unexpectedType(field: .timeStamp, found: value.typeName, expected: "RATIONAL"))
            return nil
        }
        guard parts.count == 3 else {
            warnings.append(.componentCount(field: .timeStamp, found: parts.count, expected: "3"))
            return nil
        }
        var total: Int64 = 0
        for index in 0..<3 {
            let part = parts[index]
            guard part.denominator != 0 else {
                let name = index == 0 ? "hours" : index == 1 ? "minutes" : "seconds"
                warnings.append(.zeroDenominator(field: .timeStamp, component: name))
                return nil
            }
            // Bound the quotient first (no valid component reaches 10^6), so that it fits in 64 bits.
            guard part.numerator / part.denominator < 1_000_000 else {
                warnings.append(.badTime(describe(parts)))
                return nil
            }
            let unit: Int64 = index == 0 ? 3_600_000_000_000 : index == 1 ? 60_000_000_000 : 1_000_000_000
            let product = unit.multipliedFullWidth(by: part.numerator)
            let (quotient, remainder) = part.denominator.dividingFullWidth(product)
            total += quotient + (remainder * 2 >= part.denominator ? 1 : 0)
        }
        guard total < 86_400_000_000_000 else {
            warnings.append(.badTime(describe(parts)))
            return nil
        }
        return total
    }

    /// Shows time components as stored: `25:0:0`, or `61/2:0:0` for a fraction.
    private static func describe(_ parts: EntryComponents<Rational>) -> String {
        parts.map { $0.denominator == 1 ? "\($0.numerator)" : $0.description }.joined(separator: ":")
    }
}

/// The value of the decimal digits `bytes[range]`, or `nil` if any byte is not a digit.
func decimalDigits<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Int>) -> Int?
where Bytes.Index == Int {
    guard range.upperBound <= bytes.count else { return nil }
    var result = 0
    for byte in bytes[range] {
        guard (0x30...0x39).contains(byte) else { return nil }
        result = result * 10 + Int(byte - 0x30)
    }
    return result
}

/// A real day from `YYYY:MM:DD` or `YYYY-MM-DD` at the start of `bytes` (EXIF writes colons,
/// some writers dashes), or `nil` for anything else, including days that do not exist.
func calendarDate<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> (year: Int, month: Int, day: Int)?
where Bytes.Index == Int {
    guard bytes.count >= 10, bytes[4] == bytes[7], bytes[4] == UInt8(ascii: ":") || bytes[4] == UInt8(ascii: "-"),
        let year = decimalDigits(bytes, 0..<4), let month = decimalDigits(bytes, 5..<7),
        let day = decimalDigits(bytes, 8..<10), year >= 1, (1...12).contains(month), day >= 1,
        day <= GregorianCalendar.daysIn(month: month, year: year)
    else { return nil }
    return (year, month, day)
}
