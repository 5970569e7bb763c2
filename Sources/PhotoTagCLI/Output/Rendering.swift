import PhotoGPS
import ReverseGeocoding

/// ANSI colours for text output: only on a terminal, and never with `NO_COLOR` set.
struct TextStyle: Sendable {
    var enabled: Bool

    func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Turns records into the bytes of one output format.
///
/// Rendering is split in two so that records can be rendered on any thread and written in
/// order: ``render(_:)`` does the work of one record and is pure; ``RecordEmitter`` adds what
/// depends on the records before (separators, the width of the file column) as they are written.
struct RecordFormatter: Sendable {
    let format: OutputFormat
    /// Whether records carry `nearby` (with `--nearest`).
    let nearby: Bool
    let style: TextStyle
    /// Whether records are photos (`file` first) or coordinates.
    let photos: Bool
    /// How places were looked up: text says `no place within N km` under `--max-distance`, and
    /// nothing after a photo's coordinates under `--no-place`; with `--lang`, it names places in
    /// the reader's language.
    var place = PlaceOptions()
    /// Whether records may carry a `track` (with `--track` or `--from-photos`).
    var tracks = false
    /// Whether records carry a `tag` (`phototag tag`).
    var tagging = false
    /// Text: each property under a `tag` record, not only the counts (`--dry-run`).
    var tagDetails = false
    /// The optional columns of the flat formats: `--lang`'s, the track's.
    var columns: ColumnGroups {
        var groups: ColumnGroups = []
        if place.names != nil { groups.insert(.local) }
        if tracks { groups.insert(.track) }
        if tagging { groups.insert(.tagging) }
        return groups
    }
    /// How text shows coordinates (`--coordinates`); the other formats are always decimal.
    var coordinates = CoordinateStyle.decimal
    /// How many nearby places CSV has columns for (`--nearest k`; 0 without).
    var nearbyColumns = 0
    /// `geocode` of a table on standard input: the names of its columns besides the
    /// coordinates, which CSV has columns for after the record's own (see ``InputTable``).
    var inputColumns: [String] = []
    /// CSV: the header starts with a UTF-8 byte order mark (`--bom`, for Excel).
    var byteOrderMark = false
    /// CSV: text cells a spreadsheet would run as formulas get a `'` (``CSVFormulaGuard``);
    /// `--no-formula-guard` turns it off.
    var guardFormulas = true
    /// exiftool-csv: `--all-positions`, also the positions read from the file itself
    /// (``PhotoTags``).
    var allPositions = false

    /// A rendered record: its bytes, and for text the file column to align.
    struct Rendered: Sendable {
        var bytes: [UInt8]
        /// A scan's JSON or NDJSON record: where it lies in its batch's bytes
        /// (``Context/ProcessedBatch``); `bytes` is then empty.
        var span: Range<Int>? = nil
        /// Text only: the first column (the file), padded when written.
        var column: String? = nil
        /// Text only: lines under the record (nearby places).
        var more: [String] = []
    }

    func render(_ record: Record) -> Rendered {
        render(record, scratch: nil)
    }

    /// ``render(_:scratch:)`` of a photo's record in a batch: JSON and NDJSON are written from
    /// the record itself (without the copy of it that a ``Record`` holds) after what `batch`
    /// holds, and the rendering says where (``Rendered/span``): a worker hands over the bytes of
    /// a batch's records as one array, not an array per record. The other formats are rendered
    /// through `scratch`.
    func render(photo record: PhotoRecord, appendingTo batch: ByteBuffer, scratch: ByteBuffer) -> Rendered {
        guard format == .json || format == .ndjson else { return render(.photo(record), scratch: scratch) }
        let start = batch.count
        var json = JSONWriter(pretty: format == .json, depth: format == .json ? 1 : 0, into: batch)
        record.write(to: &json, nearby: nearby)
        return Rendered(bytes: [], span: start..<batch.count)
    }

    /// ``render(_:)``, writing into `scratch` (emptied first) rather than a buffer of its own:
    /// a worker renders a batch of records through one buffer.
    func render(_ record: Record, scratch: ByteBuffer?) -> Rendered {
        guard format != .text else { return renderText(record) }
        // A map is drawn from every record at the end (``MapOutput``), not written per record.
        guard !format.isMap else { return Rendered(bytes: []) }
        let out = scratch ?? ByteBuffer(capacity: 1024)
        out.removeAll()
        writeBody(record, to: out)
        return Rendered(bytes: out.bytes)
    }

    /// Appends a record that has no column to align (any record but a photo in text) with its
    /// separator, given its position in the output: rendering and separating in one step, so
    /// that `geocode` can write records straight into one buffer per core.
    func append(_ record: Record, at index: Int, to out: ByteBuffer) {
        guard !format.isMap else { return }
        out.append(contentsOf: separator(at: index))
        if format == .text {
            let rendered = renderText(record)
            out.append(contentsOf: rendered.bytes)
            out.append(0x0A)
            for line in rendered.more {
                out.append(line)
                out.append(0x0A)
            }
        } else {
            writeBody(record, to: out)
            if format == .ndjson { out.append(0x0A) }
        }
    }

    /// What goes before the record at `index` in the output.
    func separator(at index: Int) -> [UInt8] {
        switch format {
        case .json: index == 0 ? Array("[\n  ".utf8) : Array(",\n  ".utf8)
        case .geojson: index == 0 ? [0x0A] : [0x2C, 0x0A]
        case .text, .ndjson, .csv, .exiftoolCSV, .svg, .html: []
        }
    }

    /// The record in a structured format, without separators.
    private func writeBody(_ record: Record, to out: ByteBuffer) {
        switch format {
        case .text:
            out.append(contentsOf: renderText(record).bytes)
        case .json, .ndjson:
            var json = JSONWriter(pretty: format == .json, depth: format == .json ? 1 : 0, into: out)
            write(record, to: &json)
        case .csv:
            switch record {
            case .photo(let photo):
                photo.writeCSV(to: out, nearby: nearbyColumns, guardFormulas: guardFormulas, columns: columns)
            case .coordinate(let point):
                point.writeCSV(to: out, nearby: nearbyColumns, guardFormulas: guardFormulas, columns: columns)
            }
        case .exiftoolCSV:
            // A row only for a photo with something to write; a coordinate has no file.
            guard case .photo(let photo) = record, let tags = PhotoTags(photo, allPositions: allPositions) else {
                return
            }
            ExifToolCSV.append(tags, to: out)
        case .geojson:
            var json = JSONWriter(pretty: false, into: out)
            writeFeature(record, to: &json)
        case .svg, .html:
            break
        }
    }

    /// A GeoJSON Feature: the position as a Point (`[longitude, latitude, altitude?]`, RFC 7946),
    /// the record as flat properties named as the CSV columns, which GIS tools read as typed
    /// fields (nested objects would come through as `String(JSON)`).
    private func writeFeature(_ record: Record, to json: inout JSONWriter) {
        json.beginObject()
        json.key("type")
        json.string("Feature")
        json.key("geometry")
        var position: (Double, Double, Double?)? = nil
        switch record {
        case .photo(let photo): position = photo.reading.fix.map { ($0.longitude, $0.latitude, $0.altitude) }
        case .coordinate(let point): position = point.coordinate.map { ($0.longitude, $0.latitude, nil) }
        }
        if let (longitude, latitude, altitude) = position {
            json.beginObject()
            json.key("type")
            json.string("Point")
            json.key("coordinates")
            json.beginArray()
            json.number(longitude)
            json.number(latitude)
            if let altitude { json.number(altitude) }
            json.endArray()
            json.endObject()
        } else {
            json.null()
        }
        json.key("properties")
        switch record {
        case .photo(let photo): photo.writeProperties(to: &json, nearby: nearby, columns: columns)
        case .coordinate(let point): point.writeProperties(to: &json, nearby: nearby, columns: columns)
        }
        json.endObject()
    }

    private func write(_ record: Record, to json: inout JSONWriter) {
        switch record {
        case .photo(let photo): photo.write(to: &json, nearby: nearby)
        case .coordinate(let point): point.write(to: &json, nearby: nearby)
        }
    }

    private func renderText(_ record: Record) -> Rendered {
        switch record {
        case .photo(let photo):
            let reading = photo.reading
            var rest: String
            switch reading.status {
            case .located:
                let fix = reading.fix!
                let shown = coordinateText(fix.latitude, fix.longitude, style: coordinates)
                // Names from a table imported by the user may hold control bytes: escaped, as file
                // names are, so that they neither break the line nor reach the terminal.
                if let label = photo.place.answer.flatMap({ placeLabel($0, names: place.names) }) {
                    rest = style.paint(padded(shown, 23), "32") + "  " + escapingControls(label)
                } else if place.skip {
                    rest = style.paint(shown, "32")
                } else {
                    rest = style.paint(padded(shown, 23), "32") + "  " + unplacedText(photo.place.answer)
                }
            case .noGPS:
                rest = style.paint("no GPS", "2")
            case .invalidGPS:
                rest =
                    style.paint("invalid GPS: ", "33")
                    + escapingControls(reading.warnings.map(\.description).joined(separator: "; "))
            case .error:
                rest = style.paint("error: ", "31") + escapingControls(reading.error?.description ?? "")
            }
            return Rendered(
                bytes: Array(rest.utf8), column: quotedForTerminal(photo.file),
                more: nearbyLines(photo.place) + (photo.tagging.map(taggingLines) ?? []))
        case .coordinate(let point):
            var line: String
            if let error = point.error {
                line =
                    style.paint("error: ", "31") + (point.line.map { "line \($0): " } ?? "") + escapingControls(error)
            } else {
                let coordinate = point.coordinate!
                line = style.paint(
                    padded(coordinateText(coordinate.latitude, coordinate.longitude, style: coordinates), 23), "32")
                if let label = point.place.answer.flatMap({ placeLabel($0, names: place.names) }) {
                    line += "  " + escapingControls(label)
                } else {
                    line += "  " + unplacedText(point.place.answer)
                }
            }
            return Rendered(bytes: Array(line.utf8), more: nearbyLines(point.place))
        }
    }

    /// What text says of a point no place is named for: without a filter, its country by name
    /// and code (`Antarctica, AQ`: a country without any place); else `no place` (or `no place
    /// within 1 km` under `--max-distance 1`), then the region and country that contain it, or
    /// after the sea at sea (`English Channel — no place within 1 km`).
    private func unplacedText(_ answer: PlaceAnswer?) -> String {
        if let sea = answer?.sea, !sea.isEmpty {
            return escapingControls(sea) + " — " + style.paint(noPlaceText, "2")
        }
        if place.filter == .none, let answer, let country = answer.country, !country.isEmpty {
            let local = answer.names
            let parts = [local?.admin1 ?? answer.admin1, local?.country ?? country, answer.countryCode].compactMap {
                $0
            }.filter { !$0.isEmpty }
            return escapingControls(parts.joined(separator: ", "))
        }
        var text = style.paint(noPlaceText, "2")
        if let region = answer.flatMap(regionLabel) { text += ", " + escapingControls(region) }
        return text
    }

    /// What text says when no place passes the filters: `no place`, or `no place within 1 km`
    /// under `--max-distance 1`.
    private var noPlaceText: String {
        guard let limit = place.filter.maximumDistanceKm, !place.skip else { return "no place" }
        let whole = limit.rounded() == limit && limit < 1e15
        return "no place within \(whole ? String(Int(limit)) : String(limit)) km"
    }

    /// With `--nearest k`, the 2nd to kth places, one per line.
    private func nearbyLines(_ place: PlaceResult) -> [String] {
        guard let nearby = place.nearby, nearby.count > 1 else { return [] }
        return nearby.dropFirst().map { "  also " + escapingControls(placeLabel($0, names: self.place.names)) }
    }

    /// What goes before the first record.
    func header() -> [UInt8] {
        switch format {
        case .csv:
            (byteOrderMark ? [0xEF, 0xBB, 0xBF] : [])
                + csvRow(
                    photos
                        ? CSVColumns.photo(nearby: nearbyColumns, columns: columns)
                        : CSVColumns.coordinate(nearby: nearbyColumns, input: inputColumns, columns: columns))
        case .exiftoolCSV: ExifToolCSV.header
        case .geojson: Array(#"{"type":"FeatureCollection","features":["#.utf8)
        case .text, .json, .ndjson, .svg, .html: []
        }
    }

    /// CSV: the columns' types, one line as GDAL reads a `.csvt` file beside a `.csv`
    /// (`Real,Real,Integer,String…`), for `--csvt FILE`.
    func columnTypes() -> [UInt8] {
        let types =
            photos
            ? CSVColumns.photoTypes(nearby: nearbyColumns, columns: columns)
            : CSVColumns.coordinateTypes(nearby: nearbyColumns, input: inputColumns, columns: columns)
        return csvRow(types)
    }

    /// What goes after the last record, given how many were written.
    func footer(count: Int) -> [UInt8] {
        switch format {
        case .json: Array((count == 0 ? "[]\n" : "\n]\n").utf8)
        case .geojson: Array((count == 0 ? "]}\n" : "\n]}\n").utf8)
        case .text, .ndjson, .csv, .exiftoolCSV, .svg, .html: []
        }
    }
}

/// Writes rendered records in order, adding separators and aligning the text columns.
struct RecordEmitter {
    let formatter: RecordFormatter
    /// How many records have been written.
    private(set) var count = 0
    /// The width, in terminal cells, the text file column is padded to. It is fixed for the run,
    /// so that every line's coordinates start in the same cell from the first line on; a longer
    /// name pushes only its own line.
    let columnWidth: Int

    /// The widest the file column gets: longer names push their line instead of every line.
    static let maximumColumnWidth = 48

    /// - Parameter columnWidth: the width of the file column, at most ``maximumColumnWidth``:
    ///   that of the longest name when every name is known before the first record (`locate`,
    ///   see ``columnWidth(forFiles:)``), the maximum otherwise (`scan`).
    init(formatter: RecordFormatter, columnWidth: Int = RecordEmitter.maximumColumnWidth) {
        self.formatter = formatter
        self.columnWidth = min(max(columnWidth, 0), Self.maximumColumnWidth)
    }

    /// The file column's width for these names, as text shows them, capped.
    static func columnWidth(forFiles names: [String]) -> Int {
        min(names.map { displayWidth(quotedForTerminal($0)) }.max() ?? 0, maximumColumnWidth)
    }

    /// Writes a rendered record to `sink`: the bytes ``emit(_:)`` returns, but for the formats
    /// that only add a separator or a newline, written from the rendered bytes as they are
    /// rather than copied into one array first. `batch` holds the bytes of a rendering that
    /// has a ``RecordFormatter/Rendered/span``.
    mutating func emit(
        _ rendered: RecordFormatter.Rendered, to sink: OutputSink,
        batch: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    ) {
        func body() {
            if let span = rendered.span {
                sink.write(UnsafeRawBufferPointer(rebasing: batch[span]))
            } else {
                sink.write(rendered.bytes)
            }
        }
        switch formatter.format {
        case .ndjson:
            body()
            withUnsafeBytes(of: UInt8(0x0A)) { sink.write($0) }
            count += 1
        case .json, .geojson, .csv, .exiftoolCSV:
            sink.write(formatter.separator(at: count))
            body()
            count += 1
        case .text, .svg, .html:
            sink.write(emit(rendered))
        }
    }

    mutating func emit(_ rendered: RecordFormatter.Rendered) -> [UInt8] {
        defer { count += 1 }
        var bytes: [UInt8] = []
        switch formatter.format {
        case .text:
            if let column = rendered.column {
                bytes += column.utf8
                bytes += [UInt8](repeating: 0x20, count: max(columnWidth - displayWidth(column), 0) + 2)
            }
            bytes += rendered.bytes
            bytes.append(0x0A)
            for line in rendered.more {
                if rendered.column != nil { bytes += [UInt8](repeating: 0x20, count: columnWidth + 2) }
                bytes += line.utf8
                bytes.append(0x0A)
            }
        case .json, .geojson, .csv, .exiftoolCSV:
            bytes += formatter.separator(at: count)
            bytes += rendered.bytes
        case .ndjson:
            bytes += rendered.bytes
            bytes.append(0x0A)
        case .svg, .html:
            break
        }
        return bytes
    }
}

/// `text` padded with spaces to `width` terminal cells.
func padded(_ text: String, _ width: Int) -> String {
    let current = displayWidth(text)
    return current >= width ? text : text + String(repeating: " ", count: width - current)
}

/// The cells a string takes in a terminal, as `wcwidth(3)` counts them: two for wide East Asian
/// characters and emoji, none for combining marks, joiners, variation selectors and controls,
/// one for the rest. Text is measured by Unicode scalars, not by characters: a base letter and
/// its combining accent are one character but take one cell, as are the scalars of a decomposed
/// (NFD) Hangul syllable.
func displayWidth(_ text: String) -> Int {
    var width = 0
    for scalar in text.unicodeScalars { width += cells(scalar) }
    return width
}

/// The cells one Unicode scalar takes in a terminal; see ``displayWidth(_:)``.
private func cells(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case 0x20..<0x7F: return 1  // ASCII, the common case
    case 0..<0x20, 0x7F..<0xA0: return 0  // controls (text output escapes them)
    case 0x300...0x36F, 0x1160...0x11FF, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x2060...0x2064,
        0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF, 0xE0000...0xE0FFF:
        return 0  // combining marks, Hangul vowels and finals, zero-width spaces and joiners, selectors
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
        return 2  // CJK, Hangul syllables, fullwidth forms, emoji
    default:
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0  // the other scripts' combining marks
        default: return 1
        }
    }
}

// MARK: - Names and messages in text output

/// A file name as text output shows it: as it is, unless it holds a control character (a
/// newline, a tab, an escape…), which would break the line or reach the terminal as a command.
/// Such a name is shown quoted the way bash's `$'…'` reads it, as GNU `ls` does: `$'a\nb.jpg'`,
/// so that a record stays one line and the name can be pasted into a shell.
func quotedForTerminal(_ name: String) -> String {
    guard name.unicodeScalars.contains(where: isControl) else { return name }
    var quoted = "$'"
    for scalar in name.unicodeScalars {
        switch scalar {
        case "\\": quoted += "\\\\"
        case "'": quoted += "\\'"
        default: quoted += escaped(scalar)
        }
    }
    return quoted + "'"
}

/// An argument as a hint shows it in a command line to type: as it is when a shell reads it
/// back unchanged, else in single quotes (or as ``quotedForTerminal(_:)`` does, when it holds
/// a control character).
func shellWord(_ text: String) -> String {
    func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar)
    }
    if text.unicodeScalars.contains(where: isControl) { return quotedForTerminal(text) }
    if !text.isEmpty, text.unicodeScalars.allSatisfy(isPlain) { return text }
    return "'" + text.replacingAll("'", with: #"'\''"#) + "'"
}

/// A message (an error that quotes the input, say) with its control characters escaped as in
/// ``quotedForTerminal(_:)``, so that it stays one line and sends no command to the terminal.
func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    for scalar in text.unicodeScalars { result += escaped(scalar) }
    return result
}

/// Whether a scalar is a C0 or C1 control character, or DEL.
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
}

/// A scalar as bash's `$'…'` writes it: `\n`, `\t`, `\r`, `\x1b`, `\u0085` for controls, the
/// scalar itself otherwise.
private func escaped(_ scalar: Unicode.Scalar) -> String {
    guard isControl(scalar) else { return String(scalar) }
    switch scalar {
    case "\n": return "\\n"
    case "\t": return "\\t"
    case "\r": return "\\r"
    default:
        let hex = String(scalar.value, radix: 16)
        return scalar.value < 0x80
            ? "\\x" + (hex.count < 2 ? "0" : "") + hex
            : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
