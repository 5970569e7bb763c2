/// A field of a GPS position that a ``GPSWarning`` names: an EXIF GPS tag, an XMP property or a
/// Google Takeout JSON value.
///
/// It prints as warnings name it: the EXIF tag's own name (`GPSLatitude`), `XMP` and the
/// property (`XMP exif:GPSLongitude`), `Takeout` and the value's path (`Takeout geoData.latitude`).
public enum GPSField: Hashable, Sendable, CustomStringConvertible {
    /// EXIF `GPSLatitude`.
    case latitude
    /// EXIF `GPSLatitudeRef`.
    case latitudeReference
    /// EXIF `GPSLongitude`.
    case longitude
    /// EXIF `GPSLongitudeRef`.
    case longitudeReference
    /// EXIF `GPSAltitude`.
    case altitude
    /// EXIF `GPSDateStamp`.
    case dateStamp
    /// EXIF `GPSTimeStamp`.
    case timeStamp
    /// EXIF `GPSImgDirection`.
    case direction
    /// EXIF `GPSImgDirectionRef`.
    case directionReference
    /// EXIF `GPSSpeed`.
    case speed
    /// EXIF `GPSSpeedRef`.
    case speedReference
    /// EXIF `GPSHPositioningError`.
    case horizontalError
    /// An XMP property by its qualified name (`exif:GPSLongitude`, `drone-dji:GpsLongitude`), or
    /// `latitude` or `longitude` for the position decoded from either namespace.
    case xmp(property: String)
    /// A Google Takeout JSON value by its path (`geoData.latitude`, `geoDataExif.longitude`).
    case takeout(path: String)

    /// The field as warnings name it, e.g. `GPSLatitude` or `XMP exif:GPSLongitude`.
    public var description: String {
        switch self {
        case .latitude: "GPSLatitude"
        case .latitudeReference: "GPSLatitudeRef"
        case .longitude: "GPSLongitude"
        case .longitudeReference: "GPSLongitudeRef"
        case .altitude: "GPSAltitude"
        case .dateStamp: "GPSDateStamp"
        case .timeStamp: "GPSTimeStamp"
        case .direction: "GPSImgDirection"
        case .directionReference: "GPSImgDirectionRef"
        case .speed: "GPSSpeed"
        case .speedReference: "GPSSpeedRef"
        case .horizontalError: "GPSHPositioningError"
        case .xmp(let property): "XMP \(property)"
        case .takeout(let path): "Takeout \(path)"
        }
    }
}

/// Why a GPS block is unusable, or what was odd about a usable one.
///
/// Every case prints as one lowercase line without a final period (EXIF tag names keep their
/// spelling). These lines are part of the output contract: scripts match on them.
public enum GPSWarning: Hashable, Sendable, CustomStringConvertible {
    /// The GPS block has neither a latitude nor a longitude.
    case noPosition
    /// A field the position needs is absent, e.g. `GPSLatitude` or `GPSLongitudeRef`.
    case missing(field: GPSField)
    /// A tag has a TIFF type the policy does not accept.
    case unexpectedType(field: GPSField, found: String, expected: String)
    /// A tag has the wrong number of components.
    case componentCount(field: GPSField, found: Int, expected: String)
    /// A component (`degrees`, `minutes`, `seconds`, `hours`…) has a zero denominator;
    /// `component` is `nil` for single-valued tags.
    case zeroDenominator(field: GPSField, component: String?)
    /// A reference tag holds something other than the letters it may hold.
    case badReference(field: GPSField, value: String, expected: String)
    /// A coordinate's magnitude exceeds 90 (latitude) or 180 (longitude) degrees.
    case outOfRange(field: GPSField, degrees: Double, limit: Int)
    /// Both coordinates are exactly 0: the placeholder receivers write when they have no fix.
    case noFixPlaceholder
    /// An SRATIONAL coordinate is negative but its reference says the opposite hemisphere.
    case signDisagreesWithReference(field: GPSField, reference: String)
    /// An unsigned GPSAltitude numerator of 2^31 or more: a negative number stored as unsigned.
    case wrappedAltitude(stored: Rational, metres: Double)
    /// GPSAltitudeRef is neither 0 nor 1.
    case badAltitudeReference(Int64)
    /// A GPS time of day without a date, so no timestamp can be given.
    case timeWithoutDate
    /// A GPS date without a time of day, so no timestamp can be given.
    case dateWithoutTime
    /// GPSDateStamp is not a valid `YYYY:MM:DD` (or `YYYY-MM-DD`) date.
    case badDate(String)
    /// GPSTimeStamp is not a valid time of day.
    case badTime(String)
    /// A value outside the range its tag allows, e.g. a direction of 400°.
    case valueOutOfRange(field: GPSField, value: Double)
    /// IFD0 points to a GPS IFD outside the EXIF block.
    case gpsIFDOutOfBounds(offset: UInt32)
    /// The XMP packet is not well-formed XML, so its values are not used.
    case xmpNotWellFormed
    /// An XMP GPS property whose text is not what the XMP specification says.
    case xmpBadValue(name: String, value: String)
    /// A Google Takeout JSON value that is not of the kind the format uses.
    case takeoutBadValue(name: String, value: String)
    /// IFD0's GPSInfo entry is not one LONG, so it points nowhere; the GPS block is ignored.
    case badGPSPointer(type: UInt16, count: UInt32)
    /// IFD0 runs past the end of the EXIF block, so a GPS pointer may have been lost.
    case ifd0CutShort
    /// The file ends inside its EXIF block; what was read is used.
    case truncatedExif(read: Int, declared: Int)
    /// A video's location is not a valid ISO 6709 point; `box` names where it is (`udta ©xyz`).
    case badISO6709(box: String, value: String, reason: String)
    /// A video's 3GPP `loci` box holds a position out of range, or cannot be read.
    case badLoci(reason: String)
    /// A PNG chunk's CRC does not match its bytes, so the chunk (`eXIf`, or the XMP `iTXt`) is
    /// damaged and not used.
    case badChunkCRC(chunk: String)
    /// GPSMapDatum names a datum that is not WGS 84 nor within a few metres of it (TOKYO,
    /// NAD27, WGS-72…, or one phototag does not know): the position is given as stored, not
    /// converted. `offset` is how far off such positions typically are, when known.
    case datumNotWGS84(datum: String, offset: String?)
    /// A JPEG XL file's EXIF or XMP (`box`) is Brotli-compressed (a `brob` box), which phototag
    /// does not decompress: its position, if any, is not read.
    case compressedMetadata(box: String)

    /// The warning as one lowercase line without a final period, as records print it.
    public var description: String {
        switch self {
        case .noPosition:
            "the GPS block records no position"
        case .missing(let field):
            "\(field) is missing"
        case .unexpectedType(let field, let found, let expected):
            "\(field) has type \(found), expected \(expected)"
        case .componentCount(let field, let found, let expected):
            "\(field) has \(found) components, expected \(expected)"
        case .zeroDenominator(let field, let component?):
            "\(field) \(component) has a zero denominator"
        case .zeroDenominator(let field, nil):
            "\(field) has a zero denominator"
        case .badReference(let field, let value, let expected):
            "\(field) is '\(value)', expected \(expected)"
        case .outOfRange(let field, let degrees, let limit):
            "\(field) \(degrees) is out of range (more than \(limit) degrees)"
        case .noFixPlaceholder:
            "position 0, 0 is the no-fix placeholder"
        case .signDisagreesWithReference(let field, let reference):
            "\(field) is negative but \(field)Ref is \(reference); the ref decides the sign"
        case .wrappedAltitude(let stored, let metres):
            "GPSAltitude \(stored) is a wrapped negative number, read as \(metres) m"
        case .badAltitudeReference(let value):
            "GPSAltitudeRef is \(value), expected 0 or 1; read as above sea level"
        case .timeWithoutDate:
            "GPSTimeStamp has no GPSDateStamp, so the GPS time is unknown"
        case .dateWithoutTime:
            "GPSDateStamp has no GPSTimeStamp, so the GPS time is unknown"
        case .badDate(let text):
            "GPSDateStamp '\(text)' is not a valid date"
        case .badTime(let text):
            "GPSTimeStamp \(text) is not a valid time of day"
        case .valueOutOfRange(let field, let value):
            "\(field) \(value) is out of range"
        case .gpsIFDOutOfBounds(let offset):
            "the GPS IFD offset \(offset) is outside the EXIF block"
        case .xmpNotWellFormed:
            "the XMP packet is not well-formed XML; its GPS values are not used"
        case .xmpBadValue(let name, let value):
            "XMP \(name) '\(value)' is not a valid value"
        case .takeoutBadValue(let name, let value):
            "Takeout JSON \(name) \(value) is not a valid value"
        case .badGPSPointer(let type, let count):
            "the GPSInfo pointer has type \(type) and \(count) components, not one LONG; ignored"
        case .ifd0CutShort:
            "IFD0 runs past the end of the EXIF block"
        case .truncatedExif(let read, let declared):
            "the file ends inside the EXIF block (\(read) of \(declared) bytes)"
        case .badISO6709(let box, let value, let reason):
            "the \(box) location '\(value)' is not ISO 6709: \(reason)"
        case .badLoci(let reason):
            "the 3GPP 'loci' box is not valid: \(reason)"
        case .badChunkCRC(let chunk):
            "the CRC of PNG chunk '\(chunk)' does not match its bytes; the chunk is not used"
        case .datumNotWGS84(let datum, let offset?):
            "the position's datum is \(datum), not WGS 84 (\(offset)); it is given as stored, not converted"
        case .compressedMetadata(let box):
            "the JPEG XL '\(box)' box is Brotli-compressed ('brob'), which phototag does not read"
        case .datumNotWGS84(let datum, nil):
            "the position's datum is \(datum), not known to be WGS 84; it is given as stored, not converted"
        }
    }
}
