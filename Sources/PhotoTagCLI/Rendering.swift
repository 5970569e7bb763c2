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
    /// How text shows coordinates (`--coordinates`); the other formats are always decimal.
    var coordinates = CoordinateStyle.decimal
    /// How many nearby places CSV has columns for (`--nearest k`; 0 without).
    var nearbyColumns = 0

    /// A rendered record: its bytes, and for text the file column to align.
    struct Rendered: Sendable {
        var bytes: [UInt8]
        /// Text only: the first column (the file), padded when written.
        var column: String? = nil
        /// Text only: lines under the record (nearby places).
        var more: [String] = []
    }

    func render(_ record: Record) -> Rendered {
        guard format != .text else { return renderText(record) }
        let out = ByteBuffer(capacity: 1024)
        writeBody(record, to: out)
        return Rendered(bytes: out.bytes)
    }

    /// Appends a record that has no column to align (any record but a photo in text) with its
    /// separator, given its position in the output: rendering and separating in one step, so
    /// that `geocode` can write records straight into one buffer per core.
    func append(_ record: Record, at index: Int, to out: ByteBuffer) {
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
        case .text, .ndjson, .csv: []
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
            case .photo(let photo): out.append(contentsOf: csvRow(photo.csvFields(nearby: nearbyColumns)))
            case .coordinate(let point): out.append(contentsOf: csvRow(point.csvFields(nearby: nearbyColumns)))
            }
        case .geojson:
            var json = JSONWriter(pretty: false, into: out)
            writeFeature(record, to: &json)
        }
    }

    /// A GeoJSON Feature: the position as a Point (`[longitude, latitude, altitude?]`, RFC 7946),
    /// the record as its properties.
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
        write(record, to: &json)
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
                rest = style.paint(padded(coordinateText(fix.latitude, fix.longitude, style: coordinates), 23), "32")
                if let match = photo.place.nearest { rest += "  " + placeLabel(match) }
            case .noGPS:
                rest = style.paint("no GPS", "2")
            case .invalidGPS:
                rest = style.paint("invalid GPS: ", "33") + reading.warnings.map(\.description).joined(separator: "; ")
            case .error:
                rest = style.paint("error: ", "31") + (reading.error?.description ?? "")
            }
            return Rendered(bytes: Array(rest.utf8), column: photo.file, more: nearbyLines(photo.place))
        case .coordinate(let point):
            var line: String
            if let error = point.error {
                line = style.paint("error: ", "31") + (point.line.map { "line \($0): " } ?? "") + error
            } else {
                let coordinate = point.coordinate!
                line = style.paint(
                    padded(coordinateText(coordinate.latitude, coordinate.longitude, style: coordinates), 23), "32")
                line += "  " + (point.place.nearestMatch.map(placeLabel) ?? style.paint("no place", "2"))
            }
            return Rendered(bytes: Array(line.utf8), more: nearbyLines(point.place))
        }
    }

    /// With `--nearest k`, the 2nd to kth places, one per line.
    private func nearbyLines(_ place: PlaceResult) -> [String] {
        guard let nearby = place.nearby, nearby.count > 1 else { return [] }
        return nearby.dropFirst().map { "  also " + placeLabel($0) }
    }

    /// What goes before the first record.
    func header() -> [UInt8] {
        switch format {
        case .csv:
            csvRow(photos ? CSVColumns.photo(nearby: nearbyColumns) : CSVColumns.coordinate(nearby: nearbyColumns))
        case .geojson: Array(#"{"type":"FeatureCollection","features":["#.utf8)
        case .text, .json, .ndjson: []
        }
    }

    /// What goes after the last record, given how many were written.
    func footer(count: Int) -> [UInt8] {
        switch format {
        case .json: Array((count == 0 ? "[]\n" : "\n]\n").utf8)
        case .geojson: Array((count == 0 ? "]}\n" : "\n]}\n").utf8)
        case .text, .ndjson, .csv: []
        }
    }
}

/// Writes rendered records in order, adding separators and aligning the text columns.
struct RecordEmitter {
    let formatter: RecordFormatter
    /// How many records have been written.
    private(set) var count = 0
    /// The width the text file column is padded to; it only grows.
    var columnWidth: Int

    init(formatter: RecordFormatter, columnWidth: Int = 0) {
        self.formatter = formatter
        self.columnWidth = columnWidth
    }

    mutating func emit(_ rendered: RecordFormatter.Rendered) -> [UInt8] {
        defer { count += 1 }
        var bytes: [UInt8] = []
        switch formatter.format {
        case .text:
            if let column = rendered.column {
                let width = displayWidth(column)
                columnWidth = max(columnWidth, width)
                bytes += column.utf8
                bytes += [UInt8](repeating: 0x20, count: columnWidth - width + 2)
            }
            bytes += rendered.bytes
            bytes.append(0x0A)
            for line in rendered.more {
                if rendered.column != nil { bytes += [UInt8](repeating: 0x20, count: columnWidth + 2) }
                bytes += line.utf8
                bytes.append(0x0A)
            }
        case .json, .geojson, .csv:
            bytes += formatter.separator(at: count)
            bytes += rendered.bytes
        case .ndjson:
            bytes += rendered.bytes
            bytes.append(0x0A)
        }
        return bytes
    }
}

/// `text` padded with spaces to `width` columns.
func padded(_ text: String, _ width: Int) -> String {
    let current = displayWidth(text)
    return current >= width ? text : text + String(repeating: " ", count: width - current)
}

/// The columns a string takes in a terminal: one per character, two for wide East Asian ones
/// and emoji, none for combining marks and controls.
func displayWidth(_ text: String) -> Int {
    var width = 0
    for scalar in text.unicodeScalars {
        let value = scalar.value
        switch value {
        case 0..<0x20, 0x7F..<0xA0, 0x300..<0x370, 0x200B...0x200F, 0xFE00...0xFE0F: break
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            width += 2
        default: width += 1
        }
    }
    return width
}
