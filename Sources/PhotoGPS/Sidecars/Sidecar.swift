import PhotoTagSupport

/// The files that hold a photo's metadata beside it: an XMP sidecar (`NAME.xmp`,
/// `NAME.EXT.xmp`) or a Google Takeout JSON file (`NAME.EXT.json`,
/// `NAME.EXT.supplemental-metadata.json`). Reading one gives a ``GPSReading`` like a photo's,
/// with ``GPSFix/Source/xmpSidecar`` or ``GPSFix/Source/takeout`` as the fix's source.
public enum Sidecar {
    /// The kinds of sidecar, told by the file name's extension.
    public enum Kind: Sendable {
        /// An XMP packet in a file of its own (`.xmp`).
        case xmp
        /// A Google Takeout (Google Photos export) JSON file (`.json`).
        case takeout
    }

    /// The most read of a sidecar: real ones are a few kilobytes.
    public static let sizeLimit = 4 << 20

    /// The kind of sidecar a file name (bytes) names by its extension, ignoring case; `nil` for
    /// any other file.
    ///
    /// Inlinable, so that a caller in another module (a scan asks for every file of a folder)
    /// gets it specialized for its collection, and no array is made of the name's end.
    @inlinable
    public static func kind(ofName name: some Collection<UInt8>) -> Kind? {
        // The last five bytes, ASCII letters lowercased, one byte each in an integer.
        var packed: UInt64 = 0
        var count = 0
        for byte in name.suffix(5) {
            packed = packed << 8 | UInt64((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            count += 1
        }
        if count >= 4, packed & 0xFFFF_FFFF == 0x2E78_6D70 { return .xmp }  // .xmp
        if count == 5, packed == 0x2E_6A73_6F6E { return .takeout }  // .json
        return nil
    }

    /// The kind of sidecar a file's first bytes (up to 4 KiB) show, for a file whose name says
    /// nothing (standard input, `locate notes.dat`): XMP is markup that names the XMP or RDF
    /// namespace (`adobe:ns:meta/`, `rdf:RDF`), in UTF-8, UTF-16 or UTF-32; a Takeout file is a
    /// JSON object with one of Takeout's keys (`photoTakenTime`, `geoData`, `geoDataExif`).
    /// `nil` for anything else.
    public static func kind(ofContent head: [UInt8]) -> Kind? {
        let text = XMLEncoding.leadingText(Array(head.prefix(4096)))
        let start = text.drop { $0.isWhitespace }
        if start.hasPrefix("<"),
            ["adobe:ns:meta/", "<rdf:RDF", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"].contains(where: text.contains)
        {
            return .xmp
        }
        if start.hasPrefix("{"),
            ["\"photoTakenTime\"", "\"geoData\"", "\"geoDataExif\""].contains(where: text.contains)
        {
            return .takeout
        }
        return nil
    }

    /// Reads the sidecar at a path given as bytes.
    public static func read(path: [UInt8], kind: Kind) -> GPSReading {
        guard !path.contains(0) else { return .failure(.cannotOpen(errno: SystemError.invalidArgument.code)) }
        let bytes: [UInt8]
        do throws(PhotoGPSError) {
            let source = try withCPath(path) { cPath throws(PhotoGPSError) in try FileSource(cPath: cPath) }
            guard source.count > 0 else { throw .emptyFile }
            guard source.count <= sizeLimit else { throw .tooLarge(source: "the sidecar", limit: sizeLimit) }
            bytes = try source.bytes(at: 0, length: source.count)
        } catch {
            return .failure(error)
        }
        return read(bytes: bytes, kind: kind)
    }

    /// Reads a sidecar already in memory.
    public static func read(bytes: [UInt8], kind: Kind) -> GPSReading {
        switch kind {
        case .xmp: XMPSidecar.read(bytes)
        case .takeout: TakeoutSidecar.read(bytes)
        }
    }
}

/// An XMP sidecar: the GPS properties of ``XMP`` (either coordinate form; a decimal one signed by
/// `exif:GPSLatitudeRef`/`GPSLongitudeRef`) and the capture time from `exif:DateTimeOriginal`,
/// else `xmp:CreateDate`, else `photoshop:DateCreated`.
enum XMPSidecar {
    static let xmpNamespace = "http://ns.adobe.com/xap/1.0/"
    static let photoshopNamespace = "http://ns.adobe.com/photoshop/1.0/"
    /// The capture-time properties, in the order they are tried.
    static let dateOrder = [
        XMP.exifNamespace + "DateTimeOriginal", xmpNamespace + "CreateDate", photoshopNamespace + "DateCreated",
    ]
    static let dateProperties = Set(dateOrder)

    static func read(_ bytes: [UInt8]) -> GPSReading {
        guard let properties = XMP.scan(bytes) else {
            return .failure(.malformedContainer("the XMP sidecar is not well-formed XML"))
        }
        let decoded = XMP.decode(properties)
        let date = dateOrder.lazy.compactMap { properties.values[$0] }.first
        let camera = date.flatMap(captureTime)
        var reading = GPSReading(status: .noGPS, camera: camera, warnings: decoded.warnings)
        if let fix = decoded.fix {
            reading.status = .located
            reading.fix = fix.from(.xmpSidecar)
        } else if !decoded.warnings.isEmpty {
            reading.status = .invalidGPS
        }
        return reading
    }

    /// An XMP date (`2021-03-24T13:07:29+01:00`, `…Z`, `…29.5`, or no offset) as a capture time;
    /// `nil` when it holds no time of day or is not a real date.
    static func captureTime(_ text: String) -> CameraInfo? {
        let bytes = Array(text.trimmingSpaces.utf8)
        guard bytes.count >= 19 else { return nil }
        var rest = bytes[19...]
        var subSeconds: String? = nil
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix(while: { (0x30...0x39).contains($0) })
            subSeconds = String(decoding: digits, as: UTF8.self)
            rest = rest.dropFirst(1 + digits.count)
        }
        var offset: String? = nil
        if rest.elementsEqual("Z".utf8) {
            offset = "+00:00"
        } else if !rest.isEmpty {
            offset = String(decoding: rest, as: UTF8.self)
            guard CameraInfo.offset(offset!) != nil else { return nil }
        }
        let camera = CameraInfo(
            dateTimeOriginal: String(decoding: bytes[..<19], as: UTF8.self), offsetTimeOriginal: offset,
            subSecTimeOriginal: subSeconds, timeSource: .xmp)
        return camera.dateTimeOriginal == nil ? nil : camera
    }
}

/// A Google Takeout sidecar: `geoData` {latitude, longitude, altitude}, else `geoDataExif` (the
/// position Google read from the photo), and `photoTakenTime.timestamp` (seconds since 1970,
/// UTC; a string in real exports). A position of exactly 0.0, 0.0 is how Takeout says "none".
enum TakeoutSidecar {
    static func read(_ bytes: [UInt8]) -> GPSReading {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            return .failure(.malformedContainer("the JSON sidecar is not JSON: \(error)"))
        }
        guard case .object = root else {
            return .failure(.malformedContainer("the JSON sidecar is not an object"))
        }
        guard root["geoData"] != nil || root["geoDataExif"] != nil || root["photoTakenTime"] != nil else {
            return .failure(.unsupportedFormat("JSON without Google Takeout metadata"))
        }
        var warnings: [GPSWarning] = []
        let camera = captureTime(root["photoTakenTime"], warnings: &warnings)
        var reading = GPSReading(status: .noGPS, camera: camera)
        for key in ["geoData", "geoDataExif"] {
            guard let geo = root[key] else { continue }
            let decoded = position(geo, key: key)
            warnings += decoded.warnings
            if let fix = decoded.fix {
                reading.status = .located
                reading.fix = fix
                break
            }
        }
        if reading.status != .located, warnings.contains(where: { $0.isPositionWarning }) {
            reading.status = .invalidGPS
        }
        reading.warnings = warnings
        return reading
    }

    /// One `geoData`/`geoDataExif` object: a fix, nothing (0.0/0.0), or warnings.
    static func position(_ geo: JSONValue, key: String) -> GPSDecoding {
        guard case .object = geo else {
            return GPSDecoding(fix: nil, warnings: [.takeoutBadValue(name: key, value: geo.kindName)])
        }
        var warnings: [GPSWarning] = []
        func number(_ name: String) -> Double?? {
            switch geo[name] {
            case nil, .null?: return .some(nil)
            case .number(let value)?: return value
            case let other?:
                warnings.append(.takeoutBadValue(name: "\(key).\(name)", value: other.kindName))
                return nil
            }
        }
        guard let latitudeValue = number("latitude"), let longitudeValue = number("longitude") else {
            return GPSDecoding(fix: nil, warnings: warnings)
        }
        guard let latitude = latitudeValue, let longitude = longitudeValue else {
            if latitudeValue == nil, longitudeValue == nil { return GPSDecoding(fix: nil, warnings: []) }
            return GPSDecoding(
                fix: nil,
                warnings: [.missing(field: .takeout(path: "\(key).\(latitudeValue == nil ? "latitude" : "longitude")"))]
            )
        }
        if latitude == 0, longitude == 0 { return GPSDecoding(fix: nil, warnings: []) }  // Takeout's "none"
        guard abs(latitude) <= 90 else {
            return GPSDecoding(
                fix: nil,
                warnings: [.outOfRange(field: .takeout(path: "\(key).latitude"), degrees: abs(latitude), limit: 90)])
        }
        guard abs(longitude) <= 180 else {
            return GPSDecoding(
                fix: nil,
                warnings: [.outOfRange(field: .takeout(path: "\(key).longitude"), degrees: abs(longitude), limit: 180)])
        }
        let altitude = number("altitude") ?? nil
        return GPSDecoding(
            fix: GPSFix(latitude: latitude, longitude: longitude, altitude: altitude, source: .takeout),
            warnings: warnings)
    }

    /// `photoTakenTime.timestamp` (a string of digits, or a number) as a UTC capture time.
    static func captureTime(_ value: JSONValue?, warnings: inout [GPSWarning]) -> CameraInfo? {
        guard let value else { return nil }
        let seconds: Int64?
        switch value["timestamp"] {
        case .string(let text)?:
            seconds = text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) && text.utf8.count <= 12 ? Int64(text) : nil
        case .number(let number)?:
            seconds = number >= 0 && number < 1e12 && number.rounded() == number ? Int64(number) : nil
        default:
            seconds = nil
        }
        guard let seconds else {
            warnings.append(
                .takeoutBadValue(name: "photoTakenTime.timestamp", value: value["timestamp"]?.kindName ?? "missing"))
            return nil
        }
        return CameraInfo(dateTimeOriginal: utcDateTime(seconds), offsetTimeOriginal: "+00:00", timeSource: .takeout)
    }

    /// Seconds since 1970 as `YYYY-MM-DD HH:MM:SS` in UTC (the proleptic Gregorian calendar).
    static func utcDateTime(_ seconds: Int64) -> String {
        let time = Int(seconds % 86_400)
        let (year, month, day) = GregorianCalendar.civilDate(fromDays: seconds / 86_400)
        return "\(zeroPadded(year, 4)):\(zeroPadded(month, 2)):\(zeroPadded(day, 2)) "
            + "\(zeroPadded(time / 3600, 2)):\(zeroPadded(time / 60 % 60, 2)):\(zeroPadded(time % 60, 2))"
    }
}

extension JSONValue {
    /// What kind of value this is, for warnings (`a string`, `an object`…).
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "\"\(text.prefix(40))\""
        case .number(let value): value.description
        case .bool(let value): value.description
        case .null: "null"
        }
    }
}

extension GPSWarning {
    /// Whether the warning says the position itself is unusable (not only a companion value).
    var isPositionWarning: Bool {
        switch self {
        case .takeoutBadValue(let name, _): !name.hasPrefix("photoTakenTime")
        case .missing, .outOfRange: true
        default: false
        }
    }
}
