import PhotoTagSupport

/// Points in the text form of ISO 6709 (Annex H), as videos store their location:
/// `+48.8583+002.2945+035.000/`.
///
/// A latitude, a longitude and an optional altitude, each with its sign, then an optional
/// coordinate reference system (`CRSWGS_84`, `CRSEPSG:4326`) and the terminating `/`. Latitude
/// and longitude are written in degrees (`±DD.DDDD`, `±DDD.DDDD`), degrees and minutes
/// (`±DDMM.MMM`, `±DDDMM.MMM`) or degrees, minutes and seconds (`±DDMMSS.SS`, `±DDDMMSS.SS`); the
/// number of digits before the decimal point says which, and the last unit may have a fraction.
/// The altitude is in metres. Parsing is strict: every sign is required, minutes and seconds are
/// below 60, latitude is at most 90 and longitude at most 180 degrees, and nothing but NUL padding
/// may follow the `/` (a string that simply ends after the last number is accepted). The CRS is
/// not checked: every point is read as WGS 84, as phones and cameras write it.
enum ISO6709 {
    /// A point read from the string; its position may still be the 0, 0 placeholder.
    struct Point: Hashable, Sendable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    /// Why a string is not an ISO 6709 point; prints as a lowercase clause.
    struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Parses a whole string (its trailing NUL bytes ignored).
    static func parse(_ text: some Collection<UInt8>) throws(Failure) -> Point {
        var bytes = Array(text)
        while bytes.last == 0 { bytes.removeLast() }
        var scanner = Scanner(bytes: bytes)
        let latitude = try scanner.coordinate(name: "latitude", degreeDigits: 2, limit: 90)
        let longitude = try scanner.coordinate(name: "longitude", degreeDigits: 3, limit: 180)
        var altitude: Double? = nil
        if scanner.atSign {
            let sign = scanner.sign()
            let (whole, fraction) = try scanner.number(name: "altitude")
            guard let value = DecimalNumber.parse(whole + (fraction.map { [0x2E] + $0 } ?? []), exponent: .rejected)
            else { throw Failure(description: "the altitude is out of range") }
            altitude = sign * value
        }
        if scanner.take("CRS") {
            let identifier = scanner.span { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            }
            guard !identifier.isEmpty else { throw Failure(description: "'CRS' names no reference system") }
        }
        if !scanner.atEnd {
            guard scanner.take("/"), scanner.atEnd else {
                throw Failure(description: "unexpected text after the \(altitude == nil ? "longitude" : "altitude")")
            }
        }
        return Point(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// Reads the parts of the string in order.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }
        var atSign: Bool { !atEnd && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) }

        /// Consumes `literal` when the text goes on with it.
        mutating func take(_ literal: String) -> Bool {
            let expected = Array(literal.utf8)
            guard bytes[position...].starts(with: expected) else { return false }
            position += expected.count
            return true
        }

        /// Consumes the bytes that pass `test`.
        mutating func span(_ test: (UInt8) -> Bool) -> ArraySlice<UInt8> {
            let start = position
            while position < bytes.count, test(bytes[position]) { position += 1 }
            return bytes[start..<position]
        }

        /// Consumes a sign known to be there: +1 or -1.
        mutating func sign() -> Double {
            defer { position += 1 }
            return bytes[position] == UInt8(ascii: "-") ? -1 : 1
        }

        /// Digits, then optionally a point and at least one more digit.
        mutating func number(name: String) throws(Failure) -> (whole: [UInt8], fraction: [UInt8]?) {
            let whole = Array(span { (0x30...0x39).contains($0) })
            guard !whole.isEmpty else { throw Failure(description: "the \(name) has no digits") }
            guard take(".") else { return (whole, nil) }
            let fraction = Array(span { (0x30...0x39).contains($0) })
            guard !fraction.isEmpty else { throw Failure(description: "the \(name) has no digits after its point") }
            return (whole, fraction)
        }

        /// A signed latitude or longitude in degrees, `degreeDigits` digits for its degrees.
        mutating func coordinate(name: String, degreeDigits: Int, limit: Double) throws(Failure) -> Double {
            guard atSign else {
                throw Failure(description: atEnd ? "the \(name) is missing" : "the \(name) has no sign (+ or -)")
            }
            let sign = sign()
            let (whole, fraction) = try number(name: name)
            // Degrees, then two digits for minutes and two for seconds; the fraction is of the last.
            let units = (whole.count - degreeDigits) / 2
            guard whole.count >= degreeDigits, (whole.count - degreeDigits) % 2 == 0, units <= 2 else {
                let counts = "\(degreeDigits), \(degreeDigits + 2) or \(degreeDigits + 4)"
                throw Failure(
                    description: "the \(name) has \(whole.count) digits before its point, expected \(counts)")
            }
            var parts: [Double] = []
            for index in 0...units {
                let range = index == 0 ? 0..<degreeDigits : (degreeDigits + 2 * index - 2)..<(degreeDigits + 2 * index)
                var text = whole[range]
                if index == units, let fraction { text += [0x2E] + fraction }
                parts.append(DecimalNumber.parse(text, exponent: .rejected) ?? .nan)
            }
            for (index, unit) in ["minutes", "seconds"].enumerated() where index + 1 < parts.count {
                guard parts[index + 1] < 60 else {
                    throw Failure(description: "the \(name)'s \(unit) are \(parts[index + 1]), not below 60")
                }
            }
            var degrees = parts[0]
            if parts.count > 1 { degrees += parts[1] / 60 }
            if parts.count > 2 { degrees += parts[2] / 3600 }
            guard degrees <= limit else {
                throw Failure(description: "the \(name) \(degrees) is out of range (more than \(Int(limit)) degrees)")
            }
            return sign * degrees + 0  // + 0 turns -0 into 0
        }
    }
}
