import PhotoTagSupport

/// A streaming reader of KML 2.2 files, as ExifTool's `-geotag` reads them:
///
/// - a `<gx:Track>` (or KML 2.3 `<Track>`) gives one fix per `<when>`, paired in order with its
///   `<gx:coord>` (`lon lat [alt]`, separated by spaces), whether the file alternates them or
///   lists every `<when>` first;
/// - a `<Placemark>` with a `<TimeStamp><when>` and a `<Point><coordinates>lon,lat[,alt]` gives
///   one fix;
/// - a `<Placemark>` with a `<TimeSpan>` and a `<Point>` gives two fixes at the same position,
///   at `<begin>` and at `<end>` (one at `<end>` when the span has no begin, or does not
///   move forward). ExifTool always interpolates between the two fixes of one TimeSpan, however
///   far apart; ``TrackFix`` has no way to say so, so they are plain fixes here.
///
/// A `<LineString>`'s coordinates carry no times: they are a path, not a track, and each one is
/// skipped with that reason; so are Points without a time. Time primitives of anything but the
/// Placemark itself (a `<LookAt>`'s, a `<Folder>`'s) are not fixes. Element names are matched by
/// their local name (`gx:Track`, `kml:Placemark`).
struct KMLParser: TrackParser {
    private var scanner = XMLTrackScanner(root: "kml", format: "KML")
    private var reader = Reader()

    /// A reader at the start of a file.
    init() {}

    /// Whether a file starting with `prefix` is KML: its root element is `kml` (with any
    /// namespace prefix), after an optional byte order mark, the XML declaration and comments.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        XMLTrackScanner.rootLocalName(ofPrefix: prefix) == Array("kml".utf8)
    }

    /// Reads the next chunk of the file through the XML scanner.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        try scanner.feed(chunk, &reader, &sink)
    }

    /// The end of the file: throws when it is cut short or not KML.
    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        try scanner.finish(&reader, &sink)
    }

    /// The most `<when>` (or `<gx:coord>`) of one `<gx:Track>` kept waiting for their partners
    /// (a file listing every `<when>` first): 2^21, 16 MB of times.
    static let pendingLimit = 1 << 21

    /// A position read from KML coordinates (a NaN latitude marks a `<gx:coord>` that could not be
    /// read, waiting for its `<when>`).
    struct Position {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    /// What the text of the element being read is for.
    private enum Purpose {
        case none, stamp, begin, end, point, trackWhen, trackCoord
    }

    /// What the reader keeps: the Placemark being read, and the `<gx:Track>` being read.
    private struct Reader: XMLTrackHandler {
        var purpose = Purpose.none

        // The Placemark: where it opened, and whether the time primitive being read is its own.
        var inPlacemark = false
        var placemarkLine = 0
        var ownTimePrimitive = false
        /// Its `<TimeStamp><when>`, `<TimeSpan>` `<begin>` and `<end>`: a time, or the problem.
        var stamp: Result<Double, Problem>?
        var begin: Result<Double, Problem>?
        var end: Result<Double, Problem>?
        var sawSpan = false
        /// The time spans read so far (each Placemark with a `<TimeSpan>` that moves forward).
        var spans = 0
        /// Its first `<Point>` (where it opened, and its position or the problem with it).
        var inPoint = false
        var pointLine = 0
        var position: Result<Position, Problem>?

        // The gx:Track: where it opened, and the times or positions waiting for their partners
        // (NaN: one that could not be read, already reported).
        var inTrack = false
        var trackLine = 0
        // Only one of the two lists is waiting at a time, and `pendingHead` is its first entry.
        var pendingTimes: [Double] = []
        var pendingPositions: [Position] = []
        var pendingHead = 0

        /// KML keeps its data in elements: no attribute is wanted.
        mutating func beginTag(_ element: XMLTrackName) -> Bool { false }

        /// Never called (no attribute is wanted).
        mutating func attribute(_ name: XMLTrackName, value: ArraySlice<UInt8>) {}

        /// Follows Placemarks, their time primitives and Points, and tracks; says which texts
        /// are wanted (a Placemark's own times and Point coordinates, a track's whens and
        /// coords) and skips paths.
        mutating func startElement(
            _ element: XMLTrackName, parent: XMLTrackName, line: Int, sink: inout some TrackSink
        ) throws(TrackReadError) -> Bool {
            // Text is collected for one element at a time: nothing inside it is wanted.
            let collecting = purpose != .none
            switch element {
            case .placemark:
                inPlacemark = true
                placemarkLine = line
                stamp = nil
                begin = nil
                end = nil
                sawSpan = false
                position = nil
                inPoint = false
            case .timeStamp:
                ownTimePrimitive = inPlacemark && parent == .placemark
            case .timeSpan:
                ownTimePrimitive = inPlacemark && parent == .placemark
                if ownTimePrimitive { sawSpan = true }
            case .when:
                if collecting {
                    break
                } else if inTrack && parent == .track {
                    purpose = .trackWhen
                } else if ownTimePrimitive && parent == .timeStamp && stamp == nil {
                    purpose = .stamp
                }
            case .begin:
                if !collecting && ownTimePrimitive && parent == .timeSpan && begin == nil { purpose = .begin }
            case .end:
                if !collecting && ownTimePrimitive && parent == .timeSpan && end == nil { purpose = .end }
            case .point:
                guard inPlacemark, parent == .placemark || parent == .multiGeometry else { break }
                if position == nil {
                    inPoint = true
                    pointLine = line
                } else {
                    sink.skip("line \(line): a second <Point> in the <Placemark> of line \(placemarkLine): not read")
                }
            case .coordinates:
                if !collecting && inPoint && parent == .point && position == nil { purpose = .point }
            case .lineString:
                sink.skip("line \(line): <LineString> has no times: it is a path, not a track")
            case .track:
                inTrack = true
                trackLine = line
                pendingTimes.removeAll()
                pendingPositions.removeAll()
                pendingHead = 0
            case .coord:
                if !collecting && inTrack && parent == .track { purpose = .trackCoord }
            default:
                break
            }
            return !collecting && purpose != .none
        }

        /// Reads a wanted text; at the end of a track or a Placemark, hands over its fixes.
        mutating func endElement(
            _ element: XMLTrackName, text: [UInt8]?, line: Int, sink: inout some TrackSink
        ) throws(TrackReadError) {
            if let text {
                switch purpose {
                case .stamp: stamp = Self.time(text, line: line)
                case .begin: begin = Self.time(text, line: line)
                case .end: end = Self.time(text, line: line)
                case .point:
                    position = Self.position(text, line: line, tag: "<coordinates>")
                    if position == nil {
                        position = .failure(Problem("line \(line): <Point> <coordinates> are empty"))
                    }
                case .trackWhen: try trackTime(Self.time(text, line: line), line: line, sink: &sink)
                case .trackCoord:
                    let read =
                        Self.position(text, line: line, tag: "<gx:coord>")
                        ?? .failure(Problem("line \(line): <gx:coord> is empty"))
                    try trackPosition(read, line: line, sink: &sink)
                case .none: break
                }
                purpose = .none
                return
            }
            switch element {
            case .timeStamp, .timeSpan:
                ownTimePrimitive = false
            case .point:
                if inPoint && position == nil {
                    position = .failure(Problem("line \(line): <Point> without <coordinates>"))
                }
                inPoint = false
            case .track:
                finishTrack(sink: &sink)
            case .placemark:
                inPlacemark = false
                finishPlacemark(sink: &sink)
            default:
                break
            }
        }

        /// A `<when>` of the track is read: pairs it with the first waiting position, or keeps it
        /// waiting for its own.
        private mutating func trackTime(
            _ time: Result<Double, Problem>, line: Int, sink: inout some TrackSink
        ) throws(TrackReadError) {
            if pendingHead < pendingPositions.count {
                let position = pendingPositions[pendingHead]
                pendingHead += 1
                if pendingHead == pendingPositions.count {
                    pendingPositions.removeAll(keepingCapacity: true)
                    pendingHead = 0
                }
                switch time {
                case .success(let time) where !position.latitude.isNaN: add(time, position, line: line, sink: &sink)
                case .failure(let problem) where !position.latitude.isNaN: sink.skip(problem.message)
                default: break  // the position's problem is already reported
                }
                return
            }
            guard pendingTimes.count < KMLParser.pendingLimit else { throw tooMany() }
            switch time {
            case .success(let time):
                pendingTimes.append(time)
            case .failure(let problem):
                sink.skip(problem.message)
                pendingTimes.append(.nan)
            }
        }

        /// A `<gx:coord>` of the track is read: pairs it with the first waiting time, or keeps it
        /// waiting for its own.
        private mutating func trackPosition(
            _ position: Result<Position, Problem>, line: Int, sink: inout some TrackSink
        ) throws(TrackReadError) {
            if pendingHead < pendingTimes.count {
                let time = pendingTimes[pendingHead]
                pendingHead += 1
                if pendingHead == pendingTimes.count {
                    pendingTimes.removeAll(keepingCapacity: true)
                    pendingHead = 0
                }
                switch position {
                case .success(let position) where !time.isNaN: add(time, position, line: line, sink: &sink)
                case .failure(let problem) where !time.isNaN: sink.skip(problem.message)
                default: break  // the time's problem is already reported
                }
                return
            }
            guard pendingPositions.count < KMLParser.pendingLimit else { throw tooMany() }
            switch position {
            case .success(let position):
                pendingPositions.append(position)
            case .failure(let problem):
                sink.skip(problem.message)
                pendingPositions.append(Position(latitude: .nan, longitude: .nan))
            }
        }

        /// The error for a track with too many unpaired `<when>` or `<gx:coord>`.
        private func tooMany() -> TrackReadError {
            TrackReadError(
                "line \(trackLine): <gx:Track> has more than \(KMLParser.pendingLimit) <when> or <gx:coord> "
                    + "in a row without their partners")
        }

        /// The track closes: what is still waiting has no partner.
        private mutating func finishTrack(sink: inout some TrackSink) {
            // Only one of the two lists waits at a time; `pendingHead` is its first.
            let times = pendingTimes.dropFirst(pendingHead).filter { !$0.isNaN }.count
            let positions = pendingPositions.dropFirst(pendingHead).filter { !$0.latitude.isNaN }.count
            for _ in 0..<times {
                sink.skip("line \(trackLine): <gx:Track> has a <when> without its <gx:coord>")
            }
            for _ in 0..<positions {
                sink.skip("line \(trackLine): <gx:Track> has a <gx:coord> without its <when>")
            }
            pendingTimes = []
            pendingPositions = []
            pendingHead = 0
            inTrack = false
        }

        /// The Placemark closes: its Point (if any) with its time gives its fix or fixes.
        private mutating func finishPlacemark(sink: inout some TrackSink) {
            guard let position else { return }
            let place: Position
            switch position {
            case .success(let read): place = read
            case .failure(let problem):
                sink.skip(problem.message)
                return
            }
            if let stamp {
                switch stamp {
                case .success(let time): add(time, place, line: pointLine, sink: &sink)
                case .failure(let problem): sink.skip(problem.message)
                }
            } else if sawSpan {
                switch (begin, end) {
                case (_, .failure(let problem)?):
                    sink.skip(problem.message)
                case (.success(let from)?, .success(let to)?) where from < to:
                    spans += 1
                    add(from, place, line: pointLine, span: spans, sink: &sink)
                    add(to, place, line: pointLine, span: spans, sink: &sink)
                case (_, .success(let to)?):
                    add(to, place, line: pointLine, sink: &sink)
                case (_, nil):
                    sink.skip("line \(placemarkLine): <Placemark> with a <TimeSpan> without <end>: not a fix")
                }
            } else {
                sink.skip("line \(pointLine): <Point> without <TimeStamp> or <TimeSpan> in its <Placemark>")
            }
        }

        /// Hands a fix to `sink` (of time span `span`, 0 for none), or skips it when its position
        /// is out of range.
        private func add(
            _ time: Double, _ position: Position, line: Int, span: Int = 0, sink: inout some TrackSink
        ) {
            let fix = TrackFix(
                time: time, latitude: position.latitude, longitude: position.longitude, altitude: position.altitude)
            if fix.isValid {
                sink.add(fix, span: span)
            } else {
                sink.skip("line \(line): \(XMLTrackText.outOfRange(position.latitude, position.longitude))")
            }
        }

        /// The text of a `<when>`, `<begin>` or `<end>` as a time.
        private static func time(_ text: [UInt8], line: Int) -> Result<Double, Problem> {
            guard let time = XMLTrackText.time(text) else {
                return .failure(
                    Problem("line \(line): \"\(XMLTrackText.shown(text[...]))\" is not an ISO 8601 date and time"))
            }
            return .success(time)
        }

        /// The text of `<coordinates>` (`lon,lat[,alt]`) or `<gx:coord>` (`lon lat [alt]`) as a
        /// position: two or three numbers, separated by commas or white space (either is
        /// accepted in both). `nil` when the text is empty.
        private static func position(_ text: [UInt8], line: Int, tag: String) -> Result<Position, Problem>? {
            var numbers: [Double] = []
            var start = 0
            var index = 0
            var bad = false
            while index <= text.count {
                let byte: UInt8 = index < text.count ? text[index] : 0x20
                if byte == 0x2C || XMLTrackText.isSpace(byte) {
                    if index > start {
                        if numbers.count < 3, let number = DecimalNumber.parse(text[start..<index]) {
                            numbers.append(number)
                        } else {
                            bad = true
                        }
                    }
                    start = index + 1
                }
                index += 1
            }
            if numbers.isEmpty && !bad { return nil }
            guard !bad, numbers.count >= 2 else {
                return .failure(
                    Problem(
                        "line \(line): \(tag) \"\(XMLTrackText.shown(text[...]))\" is not one position "
                            + "(longitude, latitude and an optional altitude)"))
            }
            return .success(
                Position(latitude: numbers[1], longitude: numbers[0], altitude: numbers.count > 2 ? numbers[2] : nil))
        }
    }

    /// Why a time or position could not be read: the reason a skipped point is given.
    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
