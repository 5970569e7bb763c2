/// Why a GPS block is unusable, or what was odd about a usable one.
///
/// Every case prints as one lowercase line without a final period (EXIF tag names keep their
/// spelling). These lines are part of the output contract: scripts match on them.
public enum GPSWarning: Hashable, Sendable, CustomStringConvertible {
    /// The GPS block has neither a latitude nor a longitude.
    case noPosition
    /// A tag the position needs is absent, e.g. `GPSLatitude` or `GPSLongitudeRef`.
    case missing(tag: String)
    /// A tag has a TIFF type the policy does not accept.
    case unexpectedType(tag: String, found: String, expected: String)
    /// A tag has the wrong number of components.
    case componentCount(tag: String, found: Int, expected: String)
    /// A component (`degrees`, `minutes`, `seconds`, `hours`…) has a zero denominator;
    /// `component` is `nil` for single-valued tags.
    case zeroDenominator(tag: String, component: String?)
    /// A reference tag holds something other than the letters it may hold.
    case badReference(tag: String, value: String, expected: String)
    /// A coordinate's magnitude exceeds 90 (latitude) or 180 (longitude) degrees.
    case outOfRange(tag: String, degrees: Double, limit: Int)
    /// Both coordinates are exactly 0: the placeholder receivers write when they have no fix.
    case noFixPlaceholder
    /// An SRATIONAL coordinate is negative but its reference says the opposite hemisphere.
    case signDisagreesWithReference(tag: String, reference: String)
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
    case valueOutOfRange(tag: String, value: Double)
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

    /// The warning as one lowercase line without a final period, as records print it.
    public var description: String {
        switch self {
        case .noPosition:
            "the GPS block records no position"
        case .missing(let tag):
            "\(tag) is missing"
        case .unexpectedType(let tag, let found, let expected):
            "\(tag) has type \(found), expected \(expected)"
        case .componentCount(let tag, let found, let expected):
            "\(tag) has \(found) components, expected \(expected)"
        case .zeroDenominator(let tag, let component?):
            "\(tag) \(component) has a zero denominator"
        case .zeroDenominator(let tag, nil):
            "\(tag) has a zero denominator"
        case .badReference(let tag, let value, let expected):
            "\(tag) is '\(value)', expected \(expected)"
        case .outOfRange(let tag, let degrees, let limit):
            "\(tag) \(degrees) is out of range (more than \(limit) degrees)"
        case .noFixPlaceholder:
            "position 0, 0 is the no-fix placeholder"
        case .signDisagreesWithReference(let tag, let reference):
            "\(tag) is negative but \(tag)Ref is \(reference); the ref decides the sign"
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
        case .valueOutOfRange(let tag, let value):
            "\(tag) \(value) is out of range"
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
        }
    }
}
