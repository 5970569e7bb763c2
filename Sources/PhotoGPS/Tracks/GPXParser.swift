import PhotoTagSupport

/// A streaming reader of GPX 1.0 and 1.1 files, as ExifTool's `-geotag` reads them: every
/// `<trkpt>`, `<rtept>` and `<wpt>` with a `<time>` is a fix, at its `lat`/`lon` attributes and
/// with its `<ele>` as altitude. Track, segment and route boundaries mean nothing. Points without
/// a time (routes and waypoints usually have none) are skipped and counted, as are points whose
/// position or time cannot be read; an `<ele>` that is empty or not a number is left out (the fix
/// is kept without altitude, as ExifTool keeps it). Element names are matched by their local name
/// (`gpx:trkpt` reads as `trkpt`).
struct GPXParser: TrackParser {
    private var scanner = XMLTrackScanner(root: "gpx", format: "GPX")
    private var reader = Reader()

    /// A reader at the start of a file.
    init() {}

    /// Whether a file starting with `prefix` is GPX: its root element is `gpx` (with any
    /// namespace prefix), after an optional byte order mark, the XML declaration and comments.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        XMLTrackScanner.rootLocalName(ofPrefix: prefix) == Array("gpx".utf8)
    }

    /// Reads the next chunk of the file through the XML scanner.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        try scanner.feed(chunk, &reader, &sink)
    }

    /// The end of the file: throws when it is cut short or not GPX.
    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        try scanner.finish(&reader, &sink)
    }

    /// What the reader keeps of the point being read.
    private struct Reader: XMLTrackHandler {
        /// The point element being read (`.other` between points), and the line it opened on.
        var point = XMLTrackName.other
        var line = 0
        /// Its attributes, read before it opens: each a number, or the text that is not one.
        var latitude: Double?
        var longitude: Double?
        var attributeProblem: String?
        /// Its first `<time>` (a number, or the problem with it) and its first `<ele>`.
        var time: Double?
        var timeProblem: String?
        var sawTime = false
        var altitude: Double?
        var sawAltitude = false

        /// A point's attributes are wanted: its `lat` and `lon`, read afresh.
        mutating func beginTag(_ element: XMLTrackName) -> Bool {
            guard element == .trkpt || element == .rtept || element == .wpt else { return false }
            latitude = nil
            longitude = nil
            attributeProblem = nil
            return true
        }

        /// Reads a point's `lat` or `lon`, noting the first that is not a number.
        mutating func attribute(_ name: XMLTrackName, value: ArraySlice<UInt8>) {
            let number = DecimalNumber.parse(XMLTrackText.trimmed(value))
            if number == nil, attributeProblem == nil {
                attributeProblem = "\(name == .lat ? "lat" : "lon")=\"\(XMLTrackText.shown(value))\", not a number"
            }
            if name == .lat { latitude = number } else { longitude = number }
        }

        /// A point starts afresh; its own first `<time>` and `<ele>` are wanted.
        mutating func startElement(
            _ element: XMLTrackName, parent: XMLTrackName, line: Int, sink: inout some TrackSink
        ) throws(TrackReadError) -> Bool {
            switch element {
            case .trkpt, .rtept, .wpt:
                point = element
                self.line = line
                time = nil
                timeProblem = nil
                sawTime = false
                altitude = nil
                sawAltitude = false
                return false
            case .time:
                return point != .other && parent == point && !sawTime
            case .ele:
                return point != .other && parent == point && !sawAltitude
            default:
                return false
            }
        }

        /// Reads a point's time or altitude; at the end of a point, hands over its fix.
        mutating func endElement(
            _ element: XMLTrackName, text: [UInt8]?, line: Int, sink: inout some TrackSink
        ) throws(TrackReadError) {
            switch element {
            case .time:
                guard let text else { return }
                sawTime = true
                time = XMLTrackText.time(text)
                if time == nil {
                    timeProblem = "<time>\(XMLTrackText.shown(text[...]))</time>, not an ISO 8601 date and time"
                }
            case .ele:
                guard let text else { return }
                sawAltitude = true
                altitude = DecimalNumber.parse(XMLTrackText.trimmed(text[...]))
            case .trkpt, .rtept, .wpt:
                guard element == point else { return }
                point = .other
                finishPoint(element, sink: &sink)
            default:
                break
            }
        }

        /// A point has closed: hands its fix to `sink`, or skips it with the reason.
        private func finishPoint(_ element: XMLTrackName, sink: inout some TrackSink) {
            let tag = element == .trkpt ? "<trkpt>" : element == .rtept ? "<rtept>" : "<wpt>"
            if let attributeProblem {
                sink.skip("line \(line): \(tag) with \(attributeProblem)")
            } else if latitude == nil || longitude == nil {
                let missing =
                    latitude == nil && longitude == nil
                    ? "lat and lon attributes" : latitude == nil ? "a lat attribute" : "a lon attribute"
                sink.skip("line \(line): \(tag) without \(missing)")
            } else if !sawTime {
                sink.skip("line \(line): \(tag) without <time>")
            } else if let timeProblem {
                sink.skip("line \(line): \(tag) with \(timeProblem)")
            } else if let time, let latitude, let longitude {
                let fix = TrackFix(time: time, latitude: latitude, longitude: longitude, altitude: altitude)
                if fix.isValid {
                    sink.add(fix)
                } else {
                    sink.skip("line \(line): \(tag) with \(XMLTrackText.outOfRange(latitude, longitude))")
                }
            }
        }
    }
}

/// Small text helpers shared by the XML track readers.
enum XMLTrackText {
    /// `text` without leading and trailing XML white space.
    static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = text.startIndex, end = text.endIndex
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return text[start..<end]
    }

    /// Whether a byte is XML white space.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// An element's text read as an ISO 8601 date and time, by ``TrackTime``.
    static func time(_ text: [UInt8]) -> Double? {
        text.withUnsafeBytes { TrackTime.iso8601($0) }
    }

    /// The reason for a position out of range, for a skipped point.
    static func outOfRange(_ latitude: Double, _ longitude: Double) -> String {
        "latitude \(latitude), longitude \(longitude): out of range (-90...90, -180...180)"
    }

    /// A value for a message: trimmed, at most 40 bytes (then `…`), invalid UTF-8 replaced.
    static func shown(_ text: ArraySlice<UInt8>) -> String {
        let value = trimmed(text)
        guard value.count > 40 else { return String(decoding: value, as: UTF8.self) }
        return String(decoding: value.prefix(40), as: UTF8.self) + "…"
    }
}
