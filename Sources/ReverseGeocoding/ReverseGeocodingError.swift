/// Why a place table could not be opened, built or imported.
///
/// Every case prints as one lowercase line without a final period.
public enum ReverseGeocodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file could not be opened or read; `errno`'s text is included.
    case cannotRead(path: String, reason: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)
    /// The file is not a phototag place table (wrong magic, version, byte order or size).
    case notAPlaceTable(path: String, reason: String)
    /// The file is not a phototag names table (wrong magic, version, byte order, size or checksum).
    case notANamesTable(path: String, reason: String)
    /// The file is a GeoNames dump, which must be imported before it can be used.
    case geoNamesDumpGiven(path: String)
    /// The import directory has no cities file, or more than one and none was chosen.
    case noCitiesFile(directory: String, reason: String)
    /// The table would exceed the format's 32-bit limits.
    case tableTooLarge(String)
    /// The import found no usable row.
    case noPlaces(path: String)
    /// A place given to the table builder (`phototag places import`) has a latitude or longitude out of range or not
    /// finite.
    case invalidCoordinate(geonameId: Int, latitude: Double, longitude: Double)

    /// The error as one line, e.g. `cannot read places.table: no such file or directory`.
    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .notAPlaceTable(let path, let reason): "\(path) is not a phototag place table (\(reason))"
        case .notANamesTable(let path, let reason): "\(path) is not a phototag names table (\(reason))"
        case .geoNamesDumpGiven(let path):
            "\(path) is a GeoNames dump, not a phototag place table; build one with 'phototag places import'"
        case .noCitiesFile(let directory, let reason): "no cities file in \(directory): \(reason)"
        case .tableTooLarge(let what): "the place table is too large: \(what)"
        case .noPlaces(let path): "\(path) has no usable rows"
        case .invalidCoordinate(let id, let latitude, let longitude):
            "place \(id) has an invalid coordinate (\(latitude), \(longitude))"
        }
    }
}
