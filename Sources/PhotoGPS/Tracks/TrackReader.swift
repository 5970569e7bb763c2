import PhotoTagSupport

/// The formats of track files phototag reads, told by their content (``TrackReader/format(of:)-([UInt8])``).
public enum TrackFormat: String, CaseIterable, Hashable, Sendable {
    /// GPX 1.0 and 1.1: track, route and waypoints with a time.
    case gpx
    /// KML 2.2: `gx:Track`, and Placemarks with a `TimeStamp` or `TimeSpan`.
    case kml
    /// KML zipped (`doc.kml` inside).
    case kmz
    /// NMEA 0183 sentences (RMC, GGA, GLL, ZDA) of any talker.
    case nmea
    /// IGC flight recorder files (`B` records).
    case igc
    /// Garmin FIT activity files (`record` messages).
    case fit
    /// Google location history's `Records.json`.
    case googleRecords = "google-records"
    /// Google location history's Semantic Location History monthly files.
    case googleSemantic = "google-semantic"
    /// Google Maps Timeline exported on the phone (2024 and later).
    case googleTimeline = "google-timeline"
    /// CSV with a header naming time (or date and time), latitude and longitude columns.
    case csv
}

/// What reading one track file found.
public struct TrackFileReport: Hashable, Sendable {
    /// The file's format.
    public var format: TrackFormat
    /// The fixes read (before those at the same time were merged).
    public var fixes: Int
    /// Points skipped (no time, a position out of range, a field that cannot be read).
    public var skipped: Int
    /// Why the first skipped point was skipped, such as `line 12: <trkpt> without <time>`.
    public var firstSkipReason: String?
}

/// Reads track files into a ``Track``: the format is told by the content, and the file is read
/// in blocks of 256 KiB, never whole.
public enum TrackReader {
    /// How many bytes of a file's start are enough to tell its format.
    public static let sniffLength = 4096

    /// The format of a file starting with `prefix` (its first ``sniffLength`` bytes or all of a
    /// shorter file); `nil` for none phototag reads. CSV, whose header is the only sign, is tried
    /// last.
    public static func format(of prefix: UnsafeRawBufferPointer) -> TrackFormat? {
        if FITParser.matches(prefix: prefix) { return .fit }
        if KMZParser.matches(prefix: prefix) { return .kmz }
        if GPXParser.matches(prefix: prefix) { return .gpx }
        if KMLParser.matches(prefix: prefix) { return .kml }
        switch GoogleLocationParser.shape(prefix: prefix) {
        case .records: return .googleRecords
        case .semantic: return .googleSemantic
        case .timeline: return .googleTimeline
        case nil: break
        }
        if IGCParser.matches(prefix: prefix) { return .igc }
        if NMEAParser.matches(prefix: prefix) { return .nmea }
        if CSVTrackParser.matches(prefix: prefix) { return .csv }
        return nil
    }

    /// ``format(of:)-(UnsafeRawBufferPointer)`` of bytes in an array.
    public static func format(of prefix: [UInt8]) -> TrackFormat? {
        prefix.withUnsafeBytes { format(of: $0) }
    }

    /// Reads the track file at `path` into `track` as one run named `name` (the path when
    /// `nil`). Throws when the file cannot be opened or read, is of no format phototag reads, is
    /// broken, or has no timed position at all; `track` is then unchanged.
    public static func read(
        path: String, name: String? = nil, into track: inout Track
    ) throws(TrackReadError)
        -> TrackFileReport
    {
        let descriptor: Int32
        do {
            descriptor = try openForReading(Array(path.utf8))
        } catch {
            throw TrackReadError("cannot open it: \(error.text)")
        }
        defer { _ = closeFile(descriptor) }
        if let status = try? fileStatus(descriptor: descriptor), status.isDirectory {
            throw TrackReadError("it is a folder")
        }
        let size = 256 << 10
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        // Enough of the start to tell the format, then the rest block by block.
        var filled = 0
        while filled < sniffLength {
            let count: Int
            do {
                count = try readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            } catch {
                throw TrackReadError("cannot read it: \(error.text)")
            }
            if count == 0 { break }
            filled += count
        }
        var reading = try Reading(prefix: UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
        try reading.feed(UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
        while true {
            let count: Int
            do {
                count = try readSome(descriptor, into: buffer)
            } catch {
                throw TrackReadError("cannot read it: \(error.text)")
            }
            if count == 0 { break }
            try reading.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return try reading.finish(name: name ?? path, into: &track)
    }

    /// Reads a whole track file held in memory (tests, the fuzzer) into `track`, as
    /// ``read(path:name:into:)`` reads a file: told by its content, or read as `format` whatever
    /// its content; fed to the reader whole, or in chunks of `chunkSize` bytes.
    public static func read(
        bytes: [UInt8], format: TrackFormat? = nil, name: String, chunkSize: Int? = nil, into track: inout Track
    ) throws(TrackReadError) -> TrackFileReport {
        var result: Result<TrackFileReport, TrackReadError> = .failure(TrackReadError("not read"))
        bytes.withUnsafeBytes { all in
            do throws(TrackReadError) {
                var reading: Reading
                if let format {
                    reading = Reading(format: format)
                } else {
                    reading = try Reading(prefix: UnsafeRawBufferPointer(rebasing: all.prefix(sniffLength)))
                }
                let size = max(1, chunkSize ?? all.count)
                var start = 0
                while start < all.count {
                    let end = min(all.count, start + size)
                    try reading.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                    start = end
                }
                result = .success(try reading.finish(name: name, into: &track))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// One file being read: its format's parser and the run it fills.
    private struct Reading {
        let format: TrackFormat
        var parser: any TrackParser
        var builder = TrackRunBuilder()

        init(prefix: UnsafeRawBufferPointer) throws(TrackReadError) {
            guard let format = TrackReader.format(of: prefix) else {
                throw TrackReadError(
                    prefix.isEmpty
                        ? "the file is empty"
                        : "not a track file phototag reads (GPX, KML, KMZ, NMEA, IGC, FIT, CSV, Google location history)"
                )
            }
            self.init(format: format)
        }

        /// A reading of `format`, whatever the content.
        init(format: TrackFormat) {
            self.format = format
            parser =
                switch format {
                case .gpx: GPXParser()
                case .kml: KMLParser()
                case .kmz: KMZParser()
                case .nmea: NMEAParser()
                case .igc: IGCParser()
                case .fit: FITParser()
                case .csv: CSVTrackParser()
                case .googleRecords, .googleSemantic, .googleTimeline: GoogleLocationParser()
                }
        }

        /// The parser and the builder are both the reading's: the builder is moved out while
        /// the parser fills it (a move of its arrays' references, not a copy).
        mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(TrackReadError) {
            var sink = TrackRunBuilder()
            swap(&sink, &builder)
            defer { swap(&sink, &builder) }
            try parser.feed(chunk, into: &sink)
        }

        consuming func finish(name: String, into track: inout Track) throws(TrackReadError) -> TrackFileReport {
            var builder = TrackRunBuilder()
            swap(&builder, &self.builder)
            try parser.finish(into: &builder)
            guard builder.count > 0 else {
                let reason = builder.firstSkipReason.map { " (\(builder.skippedCount) skipped; first: \($0))" } ?? ""
                throw TrackReadError("no position with a time in it\(reason)")
            }
            let report = TrackFileReport(
                format: format, fixes: builder.count, skipped: builder.skippedCount,
                firstSkipReason: builder.firstSkipReason)
            // KML's coordinates are clamped to the ground unless told otherwise: their altitude is
            // a fix's own, never interpolated (ExifTool's reading).
            track.add(file: name, builder, interpolatingAltitude: format != .kml && format != .kmz)
            return report
        }
    }
}
