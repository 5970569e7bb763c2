import Dispatch
import PhotoGPS
import PhotoTagMap
import PhotoTagSupport
import ReverseGeocoding

/// U+FEFF in UTF-8: the byte order mark some tools (Excel, Notepad) write at the start of a file.
private let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

/// `phototag geocode`'s settings.
struct GeocodeOptions: Equatable, Sendable {
    /// `LAT,LON` arguments; empty means standard input.
    var coordinates: [Argument]
    var output = OutputOptions()
    var place = PlaceOptions()
    /// GeoJSON: also write the lines that were not coordinates, as `null`-geometry features.
    var allRecords = false
    /// `--columns lon,lat`: lines without a header give the longitude first.
    var longitudeFirst = false
}

extension GeocodeOptions {
    /// The settings of a parsed `geocode` command line.
    init(_ reader: OptionReader) throws(UsageError) {
        let output = try reader.output()
        if output.format == .exiftoolCSV {
            throw reader.error(
                "'\(Options.format.name) exiftool-csv' is for photos (locate, scan): a coordinate has no file to write to"
            )
        }
        self.init(
            coordinates: try reader.coordinateArguments(reader.parsed.positionals), output: output,
            place: try reader.place())
        allRecords = try reader.allRecords(format: output.format)
        longitudeFirst = try reader.columnOrder() == .longitudeFirst
    }
}

extension Context {
    /// `phototag geocode`: coordinates from arguments or standard input, places out.
    ///
    /// Input is read in chunks of up to 1 MiB; the complete lines of a chunk are parsed, looked up
    /// and rendered (on every core when there are many), written in order, and the output is
    /// flushed before the next read, so a consumer sees every record as soon as phototag would
    /// otherwise wait for input.
    func geocode(_ options: GeocodeOptions, input: InputSource) -> Int32 {
        guard let geocoder = openGeocoder(options.place) else { return PhotoTag.ExitStatus.unreadable }
        let formatter = formatter(options.output, options.place, photos: false)
        var run = GeocodeRun(
            context: self, options: options, formatter: formatter, geocoder: geocoder,
            workers: processorCount())
        if !options.coordinates.isEmpty {
            let joined: [UInt8] = options.coordinates.flatMap { $0.bytes + [UInt8(0x0A)] }
            var start = 0
            var lines: [Line] = []
            for argument in options.coordinates {
                lines.append(Line(number: nil, range: start..<start + argument.bytes.count))
                start += argument.bytes.count + 1
            }
            run.process(lines, in: joined)
        } else {
            var pending: [UInt8] = []
            var number = 0
            var atEnd = false
            var checkedByteOrderMark = false
            var skipping = false
            // A stop (SIGINT, SIGTERM) ends the input where it is; the lines read are written.
            while !output.isClosed, !StopRequest.isRequested {
                let chunk = input.read(upTo: 1 << 20)
                if chunk.isEmpty {
                    atEnd = !StopRequest.isRequested
                    break
                }
                pending += chunk
                // A UTF-8 byte order mark (as Windows tools write) is not part of the first line.
                if !checkedByteOrderMark {
                    if pending.count < utf8ByteOrderMark.count, utf8ByteOrderMark.starts(with: pending) { continue }
                    if pending.starts(with: utf8ByteOrderMark) { pending.removeFirst(utf8ByteOrderMark.count) }
                    checkedByteOrderMark = true
                }
                // The rest of a line too long to read: dropped as it comes, up to its end.
                if skipping {
                    guard let end = pending.firstIndex(of: 0x0A) else {
                        pending.removeAll(keepingCapacity: true)
                        continue
                    }
                    pending.removeFirst(end + 1)
                    skipping = false
                }
                if let lastNewline = pending.lastIndex(of: 0x0A) {
                    var lines: [Line] = []
                    pending.withUnsafeBufferPointer { buffer in
                        var start = 0
                        for end in 0...lastNewline where buffer[end] == 0x0A {
                            number += 1
                            let tooLong = end - start > Self.maximumLineLength
                            lines.append(
                                Line(number: number, range: tooLong ? start..<start : start..<end, tooLong: tooLong))
                            start = end + 1
                        }
                    }
                    run.process(lines, in: pending)
                    pending.removeFirst(lastNewline + 1)
                }
                // A line that is already too long without its end: an error record now, and the
                // rest of it is skipped, so that memory stays flat whatever the input.
                if pending.count > Self.maximumLineLength {
                    number += 1
                    run.process([Line(number: number, range: 0..<0, tooLong: true)], in: [])
                    pending.removeAll(keepingCapacity: true)
                    skipping = true
                }
                output.flush()
                errors.flush()  // a bad line is reported as soon as it is read, not at exit
            }
            // A last line without a newline; not when the reader left early, a read failed or a
            // stop came, when what is pending is only the start of a line never read to its end.
            if atEnd, input.failure == 0, !pending.isEmpty, !skipping {
                number += 1
                run.process([Line(number: number, range: 0..<pending.count)], in: pending)
            }
        }
        run.writeHeader()
        output.write(run.formatter.footer(count: run.written))
        if formatter.format.isMap {
            output.write(
                run.map.render(
                    formatter.format, noun: ("coordinate", "coordinates"), directory: MapOutput.workingDirectory()))
        }
        // A read error is not the end of the input: what was read is out, the rest is lost.
        if options.coordinates.isEmpty, input.failure != 0 {
            errors.write("phototag: standard input: \(PhotoGPSError.cannotRead(errno: input.failure))\n")
            return PhotoTag.ExitStatus.unreadable
        }
        // Standard input with nothing but a header or blank lines is most likely the wrong file
        // or an empty pipe: say so rather than succeed with no records.
        if run.written == 0, !output.isClosed, !StopRequest.isRequested {
            errors.write("phototag: no coordinates on standard input\n")
            return PhotoTag.ExitStatus.unreadable
        }
        if run.rejected { return PhotoTag.ExitStatus.unreadable }
        return run.placeless ? PhotoTag.ExitStatus.notLocated : PhotoTag.ExitStatus.success
    }

    /// One input line (or argument): where it is in the batch's bytes, and its number on
    /// standard input.
    struct Line: Sendable {
        var number: Int?
        var range: Range<Int>
        /// Longer than ``maximumLineLength``: not read (its range is empty), an error record.
        var tooLong = false
    }

    /// The longest line of standard input that is read (64 KiB; a coordinate line is a few
    /// dozen bytes): a longer one is an error record, and is never held in memory whole.
    static let maximumLineLength = 1 << 16
}

/// The state of one `geocode` run: where the header is, what went wrong, how many records.
struct GeocodeRun {
    let context: Context
    let options: GeocodeOptions
    /// The formatter; it learns the input's columns from a header line (see ``table``).
    private(set) var formatter: RecordFormatter
    let geocoder: PlaceLocator?
    let workers: Int
    /// How many records have been written (they number the JSON separators).
    var written = 0
    /// Whether a line with content has been seen on standard input (the first one may be a
    /// header).
    var sawContent = false
    /// Standard input's table, when its first line is a header that names the coordinates'
    /// columns (``InputTable``): its lines are read as the table's rows.
    var table: InputTable? = nil
    /// A header of two columns (``coordinateHeader(_:)``): which comes first. Its lines are
    /// read as lines without a header are, in that order.
    var headerOrder: CoordinateHeader? = nil
    /// Whether what goes before the first record has been written (it waits for the header
    /// line, which names CSV's input columns).
    private var wroteHeader = false
    var rejected = false
    var placeless = false
    /// With `--format svg` or `html`: the coordinates gathered for the map.
    var map = MapOutput()

    init(
        context: Context, options: GeocodeOptions, formatter: RecordFormatter, geocoder: PlaceLocator?, workers: Int
    ) {
        self.context = context
        self.options = options
        self.formatter = formatter
        self.geocoder = geocoder
        self.workers = workers
        buffers = PartBuffers((0..<Self.parts(workers: workers)).map { _ in ByteBuffer(capacity: 1 << 16) })
    }

    /// How many parts a big batch is split into: four per core, so that a core that finishes
    /// early takes another part.
    private static func parts(workers: Int) -> Int { workers > 1 ? 4 * workers : 1 }

    /// What rendering part of a batch gave: its output bytes, its rejected lines, and whether a
    /// coordinate had no place.
    struct Part: @unchecked Sendable {  // each part is written by one thread, then read by one
        // Guarded by PhotoTagCLITests/ConcurrencyInvariantTests.geocodesPartsOnEveryCoreWriteWhatOneThreadWrites.
        var bytes: ByteBuffer
        var rejections: [(line: Int?, reason: String)] = []
        var placeless = false
        /// How many records the part wrote (fewer than its lines in located-only GeoJSON).
        var records = 0
        /// With `--format svg` or `html`: the part's coordinates, for the map.
        var points: [MapPoint] = []
    }

    /// GeoJSON and the SVG and HTML maps: only the coordinates, not the lines that were
    /// rejected (which are still reported on stderr and in the exit status), unless
    /// `--all-records` (GeoJSON only).
    var locatedOnly: Bool { (formatter.format == .geojson && !options.allRecords) || formatter.format.isMap }

    /// One output buffer per part, kept from batch to batch: a batch's records (~20 MB of NDJSON
    /// for 1 MiB of input) then reuse memory that is already mapped, instead of growing fresh
    /// buffers by doubling (copying each byte about twice more) and faulting in new pages.
    private let buffers: PartBuffers

    /// Parses, looks up, renders and writes a batch of lines, in order.
    mutating func process(_ lines: [Context.Line], in bytes: [UInt8]) {
        // Drop blank lines and the header of standard input, serially (only the first line with
        // content can be one). A blank argument is an error record, as any bad argument is.
        var kept: [Context.Line] = []
        kept.reserveCapacity(lines.count)
        for line in lines {
            guard line.number != nil, !line.tooLong else {  // an argument, or a line not read
                if line.tooLong { sawContent = true }
                kept.append(line)
                continue
            }
            // Blank: nothing but what `trimmed` trims (tested in place, with no slice made).
            let blank = bytes.withUnsafeBufferPointer { buffer in
                buffer[line.range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            }
            if blank { continue }
            if !sawContent {
                sawContent = true
                // "id;x;y;alt" and the like name the columns of a table; "lat,lon", "x y",
                // "Longitude<TAB>Latitude" the order of two.
                if let table = InputTable.header(bytes[line.range]), table.columnCount > 2 {
                    self.table = table
                    formatter.inputColumns = table.passedNames
                    continue
                }
                if let order = coordinateHeader(trimmed(bytes[line.range])) {
                    headerOrder = order
                    continue
                }
            }
            kept.append(line)
        }
        writeHeader()
        for part in render(kept, in: bytes, startingAt: written) {
            for (line, reason) in part.rejections {
                rejected = true
                // On a terminal that shows both streams, the error record already says it (when
                // there is one).
                if !options.output.quiet, !context.outputSharesTerminal || locatedOnly {
                    context.errors.write(
                        "phototag: \(line.map { "line \($0): " } ?? "")\(escapingControls(reason))\n")
                }
            }
            placeless = placeless || part.placeless
            for point in part.points { map.add(point) }
            part.bytes.withUnsafeBytes { bytes in
                // Located-only GeoJSON: every record was written after a comma; the first of the
                // whole output has none.
                let skip = formatter.format == .geojson && locatedOnly && written == 0 && part.records > 0 ? 1 : 0
                context.output.write(UnsafeRawBufferPointer(rebasing: bytes[skip...]))
            }
            written += part.records
        }
    }

    /// Writes what goes before the first record, once.
    mutating func writeHeader() {
        guard !wroteHeader else { return }
        wroteHeader = true
        context.output.write(formatter.header())
        // The columns are known now (a table's own come from its header line).
        if !context.writeColumnTypes(options.output, formatter) { rejected = true }
    }

    /// Renders `lines` straight into one buffer per part, split across the cores when there are
    /// many (records are numbered from `first`, for the separators).
    private func render(_ lines: [Context.Line], in bytes: [UInt8], startingAt first: Int) -> [Part] {
        let geocoder = geocoder, place = options.place, formatter = formatter
        let table = table
        let longitudeFirst = headerOrder.map { $0 == .longitudeFirst } ?? options.longitudeFirst
        let inputNames = table.map(\.passedNames) ?? []
        let buffers = buffers
        let locatedOnly = locatedOnly
        let ndjson = formatter.format == .ndjson
        @Sendable func part(_ number: Int, _ range: Range<Int>) -> Part {
            buffers.all[number].removeAll()
            var result = Part(bytes: buffers.all[number])
            // NDJSON from the lookup keeps the text of the places it writes (see `PartBuffers`).
            let fragments = ndjson ? buffers.takeFragments() : nil
            defer { if let fragments { buffers.giveBack(fragments) } }
            if ndjson {
                // Room for the part's records at once (most take under 512 bytes), reserved
                // while the buffer is empty: growing it later copied what was written so far.
                result.bytes.write(atMost: 512 * range.count) { $0 }
            }
            // One writer for the part's NDJSON records: each is a value of its own at the top, and
            // leaves the writer at the top again (a writer per record retained the buffer).
            var json = JSONWriter(pretty: false, into: result.bytes)
            for index in range {
                let line = lines[index]
                let parsed: Result<Coordinate, CoordinateProblem>
                // A table's other columns, for every one of its records (CSV's columns line up).
                var input: InputValues? = nil
                if line.tooLong {
                    parsed = .failure(.tooLong(Context.maximumLineLength))
                    if !inputNames.isEmpty {
                        input = InputValues(names: inputNames, values: Array(repeating: nil, count: inputNames.count))
                    }
                } else if let table, line.number != nil {
                    let row = table.row(bytes[line.range])
                    parsed = row.coordinate
                    if !inputNames.isEmpty {
                        input = InputValues(
                            names: inputNames,
                            values: row.values.count == inputNames.count
                                ? row.values : Array(repeating: nil, count: inputNames.count))
                    }
                } else if longitudeFirst {
                    parsed = parseCoordinate(longitudeFirst: bytes[line.range])
                } else {
                    parsed = parseCoordinate(bytes[line.range])
                }
                // Text the same way, for the plain line of a point that names a place.
                if formatter.format == .text, formatter.coordinates == .decimal, !formatter.style.enabled,
                    case .success(let coordinate) = parsed, let geocoder, !place.skip, place.nearest == nil,
                    !formatter.nearby
                {
                    let location = place.locate(coordinate, in: geocoder)
                    if TextLine.appendPlaced(coordinate, location, names: place.names, to: result.bytes) {
                        result.bytes.append(0x0A)
                        result.records += 1
                        continue
                    }
                }
                // CSV the same way, from the lookup (without nearby places, which need the record).
                if formatter.format == .csv, case .success(let coordinate) = parsed, let geocoder, !place.skip,
                    place.nearest == nil, !formatter.nearby
                {
                    let location = place.locate(coordinate, in: geocoder)
                    if place.unplaced(location) { result.placeless = true }
                    CoordinateRecord.writeCSV(
                        coordinate: coordinate, location: location, line: line.number, input: input,
                        guardFormulas: formatter.guardFormulas, columns: formatter.columns, to: result.bytes)
                    result.records += 1
                    continue
                }
                if ndjson, case .success(let coordinate) = parsed {
                    // What `formatter.append` writes for NDJSON (no separator), straight from the
                    // lookup: no ``Record`` made, wrapped and copied down the format's switch.
                    if let geocoder, !place.skip, place.nearest == nil, !formatter.nearby {
                        // ``PlaceOptions/lookUp(_:in:)`` without `nearby`: the answer alone.
                        let location = place.locate(coordinate, in: geocoder)
                        if place.unplaced(location) { result.placeless = true }
                        CoordinateRecord.writeCompact(
                            coordinate: coordinate, location: location, line: line.number, input: input,
                            fragments: fragments, to: &json)
                    } else {
                        var record = CoordinateRecord(line: line.number, input: input)
                        record.coordinate = coordinate
                        record.place = place.lookUp(coordinate, in: geocoder)
                        if !place.skip, record.place.location.map(place.unplaced) ?? true { result.placeless = true }
                        record.write(to: &json, nearby: formatter.nearby)
                    }
                    result.bytes.append(0x0A)
                    result.records += 1
                    continue
                }
                var record = CoordinateRecord(line: line.number, input: input)
                switch parsed {
                case .success(let coordinate):
                    record.coordinate = coordinate
                    record.place = place.lookUp(coordinate, in: geocoder)
                    if !place.skip, record.place.location.map(place.unplaced) ?? true { result.placeless = true }
                case .failure(let problem):
                    record.error = problem.description
                    result.rejections.append((line.number, problem.description))
                    if locatedOnly { continue }
                }
                if formatter.format.isMap, let point = MapOutput.point(record) { result.points.append(point) }
                // Located-only GeoJSON cannot number its records before the parts are joined:
                // each gets the separator of a record after the first (see `process`).
                formatter.append(.coordinate(record), at: locatedOnly ? 1 : first + index, to: result.bytes)
                result.records += 1
            }
            return result
        }
        guard workers > 1, lines.count >= 2048 else { return [part(0, 0..<lines.count)] }
        let parts = buffers.all.count
        let size = (lines.count + parts - 1) / parts
        // One slot per part, each written by exactly one thread.
        let results = Locked([Part?](repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { index in
            let rendered = part(index, min(lines.count, index * size)..<min(lines.count, (index + 1) * size))
            results.withLock { $0[index] = rendered }
        }
        return results.withLock { $0.compactMap { $0 } }
    }
}

/// The output buffers of a batch's parts: part `i` is rendered into `all[i]` by exactly one thread,
/// then written out by the caller before the next batch starts.
///
/// And the tables of the text of the places written lately (``PlaceFragments``), from batch to
/// batch: a part takes one while it renders and gives it back, so there are only as many as
/// parts were ever rendered at once (about one per thread), and each serves one part at a time.
final class PartBuffers: @unchecked Sendable {
    // Guarded by PhotoTagCLITests/ConcurrencyInvariantTests.geocodesPartsOnEveryCoreWriteWhatOneThreadWrites.
    let all: [ByteBuffer]
    /// The tables that no part is using.
    private let idleFragments = Locked<[PlaceFragments]>([])

    init(_ all: [ByteBuffer]) { self.all = all }

    /// A table for a part to use until it gives it back: one that another part used before, or
    /// a new one.
    func takeFragments() -> PlaceFragments { idleFragments.withLock { $0.popLast() } ?? PlaceFragments() }

    /// Gives back a table of ``takeFragments()``.
    func giveBack(_ fragments: PlaceFragments) { idleFragments.withLock { $0.append(fragments) } }
}
