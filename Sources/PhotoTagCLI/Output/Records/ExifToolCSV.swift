import PhotoGPS
import ReverseGeocoding

// What phototag would write into a photo's own metadata (``PhotoTags``), and the CSV that
// `exiftool -csv=FILE DIR` imports as it is (``ExifToolCSV``): `--format exiftool-csv` of locate
// and scan writes it through ``RecordFormatter``, and a command that tags photos (or says what
// it would tag, `--dry-run`) reads the same values from the same record.

/// What phototag would write into a photo: the position when it came from somewhere else than
/// the file itself (an XMP sidecar, a Google Takeout JSON, a GPS track, a photo taken nearby),
/// or from anywhere with `--all-positions`; and where the photo was taken, as IPTC Core names it
/// (city, state, country, country code, sublocation), in the reader's language under `--lang`.
/// `nil` (``init(_:allPositions:)``) when there is nothing to write: no position to write and no
/// place, or a file exiftool cannot write to (a Takeout JSON read alone).
struct PhotoTags: Equatable, Sendable {
    /// The file's path, as given or found: its bytes, which exiftool matches against the names
    /// of the files it processes.
    var path: ArraySlice<UInt8>
    /// The position to write; `nil` when the record's position is the file's own (or it has none).
    var position: Position?
    /// The city a resident would name (``PlaceAnswer/city``).
    var city: String?
    /// The admin-1 region that contains the point.
    var state: String?
    /// The country that contains the point (none at sea).
    var country: String?
    /// Its ISO 3166-1 alpha-2 code.
    var countryCode: String?
    /// The named (nearest) place when it is not the city itself: `Paris 16 Passy` in Paris; at
    /// sea, the sea.
    var sublocation: String?

    /// A position in signed decimal degrees and metres (negative below sea level).
    struct Position: Equatable, Sendable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    /// Tags of the file at `path` with nothing to write yet.
    init(path: ArraySlice<UInt8>) { self.path = path }

    /// The tags of `record`: its position only when it did not come from the file itself (see
    /// ``positionIsTheFilesOwn(_:)``), unless `allPositions`; `nil` when there is nothing to write.
    init?(_ record: PhotoRecord, allPositions: Bool) {
        // exiftool writes no JSON: a Takeout file read alone has nowhere to go.
        if Sidecar.kind(ofName: record.path) == .takeout, Self.isSidecarAlone(record) { return nil }
        path = record.path
        if let fix = record.reading.fix, allPositions || !Self.positionIsTheFilesOwn(record) {
            position = Position(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude)
        }
        if let answer = record.place.answer {
            let local = answer.names
            if let city = answer.city {
                self.city = nonEmpty(local?.city ?? city.place.name)
                if let named = answer.nearest, named.place.geonameId != city.place.geonameId {
                    sublocation = nonEmpty(local?.place ?? named.place.name)
                }
            }
            // At sea, the sea is where it was taken (`English Channel`).
            if answer.atSea { sublocation = nonEmpty(answer.sea) }
            state = nonEmpty(local?.admin1 ?? answer.admin1)
            country = nonEmpty(local?.country ?? answer.country)
            countryCode = nonEmpty(answer.countryCode)
        }
        guard
            position != nil || city != nil || state != nil || country != nil || countryCode != nil
                || sublocation != nil
        else { return nil }
    }

    /// Whether the record's position was read from the file the row is for: its EXIF, its XMP,
    /// a video's own metadata, or a sidecar read alone (the record is the sidecar's). A position
    /// from a sidecar beside a photo, a track or a photo nearby is not.
    static func positionIsTheFilesOwn(_ record: PhotoRecord) -> Bool {
        guard let source = record.reading.fix?.source else { return false }
        switch source {
        case .exif, .xmp, .quicktimeKeys, .udtaXYZ, .loci: return true
        case .xmpSidecar, .takeout: return isSidecarAlone(record)
        case .track, .nearbyPhoto: return false
        }
    }

    /// Whether the record is that of a sidecar read alone (its file is the sidecar).
    private static func isSidecarAlone(_ record: PhotoRecord) -> Bool {
        record.sidecar != nil && record.sidecar == record.file
    }
}

/// `nil` for an empty name.
private func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
}

/// The CSV that `exiftool -csv=FILE DIR_OR_FILES` imports: a header of exiftool tag names, then
/// one row per file (``PhotoTags``), matched by its `SourceFile` column.
///
/// What exiftool 12.57 does with it decided the columns:
/// - The position goes in as signed decimal degrees with the `N`/`S` and `E`/`W` references
///   beside them. Into EXIF (JPEG, HEIC, PNG, WebP, TIFF, raw), exiftool stores the magnitude and
///   the reference; into XMP (a video, an `.xmp` file), which has no reference tag, the sign
///   alone tells the hemisphere: a magnitude there would put Sydney in the northern hemisphere.
///   The altitude is the magnitude and `Above Sea Level` or `Below Sea Level`, which both take.
/// - The place columns name their XMP tags (IPTC Core: `photoshop:City`, `photoshop:State`,
///   `photoshop:Country`, `Iptc4xmpCore:CountryCode`, `Iptc4xmpCore:Location`, the sublocation).
///   Bare `City` and `Sub-location` go into IPTC IIM, which exiftool writes as Latin-1 and cuts
///   at 32 bytes: `İstanbul` and `Łódź` come out as `?stanbul` and `?ód?`, and names in other
///   scripts as question marks.
/// - Empty cells are skipped on import (without `-f`), so a row writes only what it has.
///   exiftool strips the spaces at either end of a cell that is not quoted: such a cell is
///   quoted, as one with a comma, quote, CR or LF is (RFC 4180, quotes doubled). No cell is
///   defused as ``CSVFormulaGuard`` does (the value is written into the photo as it is).
/// - `SourceFile` is the path as given or found, relative paths staying relative (exiftool
///   matches them, or their absolute paths, against the files it is given); its bytes as they
///   are, so that a name that is not UTF-8 still names its file. A file named `*`, which
///   exiftool takes for "every file", is written `./*`.
enum ExifToolCSV {
    /// The header's tag names, in order.
    static let columns = [
        "SourceFile", "GPSLatitude", "GPSLatitudeRef", "GPSLongitude", "GPSLongitudeRef", "GPSAltitude",
        "GPSAltitudeRef", "XMP-photoshop:City", "XMP-photoshop:State", "XMP-photoshop:Country",
        "XMP-iptcCore:CountryCode", "XMP-iptcCore:Location",
    ]

    /// The header line (CRLF at the end, as every row).
    static var header: [UInt8] { csvRow(columns) }

    /// The row of `record`, or `nil` when it has nothing to write (see ``PhotoTags``).
    static func row(_ record: PhotoRecord, allPositions: Bool) -> [UInt8]? {
        guard let tags = PhotoTags(record, allPositions: allPositions) else { return nil }
        let out = ByteBuffer(capacity: 256)
        append(tags, to: out)
        return out.bytes
    }

    /// Appends the row of `tags`, CRLF at the end.
    static func append(_ tags: PhotoTags, to out: ByteBuffer) {
        if tags.path.elementsEqual("*".utf8) {
            cell(Array("./*".utf8)[...], to: out)
        } else {
            cell(tags.path, to: out)
        }
        let position = tags.position
        out.append(UInt8(ascii: ","))
        if let latitude = position?.latitude {
            out.append(fixed(latitude, 8) + "," + (latitude < 0 ? "S" : "N"))
        } else {
            out.append(",")
        }
        out.append(UInt8(ascii: ","))
        if let longitude = position?.longitude {
            out.append(fixed(longitude, 8) + "," + (longitude < 0 ? "W" : "E"))
        } else {
            out.append(",")
        }
        out.append(UInt8(ascii: ","))
        if let altitude = position?.altitude, altitude.isFinite {
            out.append(metres(altitude.magnitude) + "," + (altitude < 0 ? "Below Sea Level" : "Above Sea Level"))
        } else {
            out.append(",")
        }
        for name in [tags.city, tags.state, tags.country, tags.countryCode, tags.sublocation] {
            out.append(UInt8(ascii: ","))
            if let name { cell(ArraySlice(name.utf8), to: out) }
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// `value` to the millimetre, without trailing zeros: `35.5`, `12`, `0.125`.
    static func metres(_ value: Double) -> String {
        var text = fixed(value, 3)
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return text
    }

    /// A text cell: quoted (quotes doubled) when it holds a comma, quote, CR or LF, or starts or
    /// ends with a space, which exiftool would strip.
    private static func cell(_ bytes: ArraySlice<UInt8>, to out: ByteBuffer) {
        let space = UInt8(ascii: " ")
        let quoted =
            bytes.first == space || bytes.last == space
            || bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard quoted else { return bytes.withUnsafeBufferPointer { out.append(contentsOf: $0) } }
        out.append(0x22)
        for byte in bytes {
            out.append(byte)
            if byte == 0x22 { out.append(0x22) }
        }
        out.append(0x22)
    }
}
