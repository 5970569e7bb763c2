import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

/// What every command works with: the sinks and the environment.
struct Context {
    let output: OutputSink
    let errors: OutputSink
    let environment: Environment
    /// How long a run lasts before its progress bar appears, in seconds (tests make it 0).
    var progressDelay = 0.5

    /// Whether standard output and standard error are the same terminal: records and
    /// diagnostics then share its lines, and an error record already shows the error.
    var outputSharesTerminal: Bool { output.isSameTerminal(as: errors) }

    /// The bundled place table, or the one at `path`; `nil` after reporting why it cannot be used.
    func openPlaces(_ path: String?) -> ReverseGeocoder? {
        guard let path else { return ReverseGeocoder.bundled }
        do {
            return try ReverseGeocoder(contentsOf: path)
        } catch ReverseGeocodingError.cannotRead(_, let reason) {
            errors.write("phototag: place table '\(path)': \(reason)\n")
            return nil
        } catch {
            errors.write("phototag: \(error)\n")
            return nil
        }
    }

    /// The locator the place options ask for: `.some(nil)` with `--no-place`, `nil` when the
    /// table cannot be opened (already reported). The bundled places come with the bundled
    /// boundaries; a place table of one's own (`--places`) answers by its nearest place.
    func openGeocoder(_ options: PlaceOptions) -> PlaceLocator?? {
        guard !options.skip else { return .some(nil) }
        guard options.places != nil else { return PlaceLocator.bundled }
        guard let geocoder = openPlaces(options.places) else { return nil }
        return PlaceLocator(geocoder: geocoder, boundaries: nil)
    }

    func formatter(
        _ options: OutputOptions, _ place: PlaceOptions, photos: Bool, tracks: Bool = false, tagging: Bool = false,
        allPositions: Bool = false
    )
        -> RecordFormatter
    {
        let colour = options.format == .text && output.isTerminal && environment.allowsColor
        var formatter = RecordFormatter(
            format: options.format, nearby: place.nearest != nil, style: TextStyle(enabled: colour), photos: photos,
            place: place, coordinates: options.coordinates, nearbyColumns: place.nearest ?? 0,
            byteOrderMark: options.csvByteOrderMark, guardFormulas: options.csvFormulaGuard)
        formatter.tracks = tracks
        formatter.tagging = tagging
        formatter.allPositions = allPositions
        return formatter
    }

    /// With `--csvt FILE`: writes the CSV columns' types to FILE; false after reporting that it
    /// could not be written.
    func writeColumnTypes(_ options: OutputOptions, _ formatter: RecordFormatter) -> Bool {
        guard let path = options.csvTypesFile else { return true }
        guard let failure = writeFile(formatter.columnTypes(), to: path) else { return true }
        errors.write("phototag: column types file '\(path)': \(failure)\n")
        return false
    }

    /// A file's modification date in UTC, `YYYY-MM-DD`.
    func modificationDate(_ path: String) -> String? {
        guard let info = try? fileStatus(path), let date = utcCalendarDate(secondsSince1970: info.modified) else {
            return nil
        }
        return "\(zeroPadded(date.year, 4))-\(zeroPadded(date.month, 2))-\(zeroPadded(date.day, 2))"
    }
}
