import PhotoGPS
import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The phototag command line: arguments in, bytes out, an exit status back.
///
/// Everything the executable does happens here, so tests run it in-process with memory sinks.
public enum PhotoTag {
    /// Exit statuses, like grep's.
    public enum ExitStatus {
        /// Every file was located.
        public static let success: Int32 = 0
        /// Some file has no usable location (no GPS or invalid GPS).
        public static let notLocated: Int32 = 1
        /// Some input could not be read (the others are still reported), or writing the output
        /// failed.
        public static let unreadable: Int32 = 2
        /// The command line is wrong; nothing was done.
        public static let usage: Int32 = 64
    }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - input: where `geocode` reads coordinates without arguments (standard input).
    ///   - output: where data goes (standard output).
    ///   - errors: where diagnostics go (standard error).
    ///   - environment: the variables that matter (`NO_COLOR`, `TERM`).
    /// - Returns: the exit status; 2 when the output could not be written (reported on `errors`).
    public static func run(
        _ arguments: [String], input: InputSource = MemoryInput(""), output: OutputSink, errors: OutputSink,
        environment: Environment = Environment()
    ) -> Int32 {
        run(arguments.map(Argument.init), input: input, output: output, errors: errors, environment: environment)
    }

    /// Runs a command line given as the exact bytes of each argument (what `main` has).
    public static func run(
        rawArguments: [[UInt8]], input: InputSource, output: OutputSink, errors: OutputSink,
        environment: Environment
    ) -> Int32 {
        run(
            rawArguments.map(Argument.init(bytes:)), input: input, output: output, errors: errors,
            environment: environment)
    }

    static func run(
        _ arguments: [Argument], input: InputSource, output: OutputSink, errors: OutputSink, environment: Environment,
        progressDelay: Double = 0.5
    ) -> Int32 {
        let status = runCommand(
            arguments, input: input, output: output, errors: errors, environment: environment,
            progressDelay: progressDelay)
        output.flush()
        // A failed write (a full disk, /dev/full) loses output: say so, and never exit 0. A
        // closed pipe (EPIPE) is not an error: the reader has all it wanted.
        if let code = output.writeError ?? errors.writeError {
            errors.write("phototag: write error: \(writeErrorText(code))\n")
            errors.flush()
            return ExitStatus.unreadable
        }
        errors.flush()
        return errors.writeError == nil ? status : ExitStatus.unreadable
    }

    /// Runs one command line; the caller does the final flush and reports write errors.
    private static func runCommand(
        _ arguments: [Argument], input: InputSource, output: OutputSink, errors: OutputSink, environment: Environment,
        progressDelay: Double
    ) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            errors.write("Error: \(error.message)\n")
            errors.write("Usage: \(Help.usage(error.command))\n")
            let topic = error.command.map { " \($0.rawValue)" } ?? ""
            errors.write("See 'phototag help\(topic)'.\n")
            return ExitStatus.usage
        }
        let context = Context(output: output, errors: errors, environment: environment, progressDelay: progressDelay)
        switch invocation {
        case .help(let command):
            output.write(Help.text(command))
            return ExitStatus.success
        case .version:
            output.write(Help.version)
            return ExitStatus.success
        case .locate(let options):
            return context.locate(options, input: input)
        case .scan(let options):
            return context.scan(options, input: input)
        case .geocode(let options):
            return context.geocode(options, input: input)
        case .placesImport(let options):
            return context.importPlaces(options)
        case .placesInfo(let path):
            guard let geocoder = context.openPlaces(path) else { return ExitStatus.unreadable }
            output.write(
                """
                source: \(geocoder.source)
                date: \(geocoder.date)
                places: \(geocoder.placeCount)
                file: \(path ?? "(bundled)")

                """)
            return ExitStatus.success
        case .boundariesImport(let options):
            return context.importBoundaries(options)
        case .boundariesInfo:
            let table = BoundaryTable.bundled
            output.write(
                """
                source: \(table.source)
                date: \(table.date)
                time zones: \(table.timeZoneCount)
                countries: \(table.countryCount)
                admin-1 regions: \(table.admin1Count)
                tz rules: \(table.rules == nil ? "none" : "\(grouped(table.timeZoneRules.count)) bytes")
                bytes: \(grouped(table.byteCount))

                """)
            return ExitStatus.success
        case .completions(let shell):
            output.write(Manual.completions(for: shell))
            return ExitStatus.success
        case .manpage:
            output.write(Manual.page())
            return ExitStatus.success
        }
    }
}

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

    func formatter(_ options: OutputOptions, _ place: PlaceOptions, photos: Bool) -> RecordFormatter {
        let colour = options.format == .text && output.isTerminal && environment.allowsColor
        return RecordFormatter(
            format: options.format, nearby: place.nearest != nil, style: TextStyle(enabled: colour), photos: photos,
            place: place, coordinates: options.coordinates, nearbyColumns: place.nearest ?? 0)
    }

    // MARK: locate and scan

    /// What a worker hands back for one file: the record, and its rendering unless filtered out.
    struct Processed: Sendable {
        var record: PhotoRecord
        var rendered: RecordFormatter.Rendered?
        /// A file read only because of `--all-files` that is not a photo at all: no record, no
        /// error, only a count in the summary.
        var notAPhoto = false
    }

    /// Reads, geocodes and renders photos in parallel and writes them in order: the shared core of
    /// `locate` and `scan`.
    final class PhotoRun: @unchecked Sendable {  // every method takes `lock`
        /// Serialises the workers' deliveries with the walker's notes and progress totals.
        private let lock = Lock()
        let context: Context
        let output: OutputOptions
        var emitter: RecordEmitter
        var summary = Summary()
        var progress: ProgressBar
        var sawError = false
        var sawUnlocated = false
        /// Whether records go to the terminal that shows the progress bar and diagnostics.
        ///
        /// Then each batch of records is written with the bar erased and flushed before the bar
        /// is drawn again, so the bar's text never ends up inside a record line; and an error is
        /// not repeated on stderr when its record already shows it there.
        let sharesTerminal: Bool

        init(context: Context, output: OutputOptions, formatter: RecordFormatter, columnWidth: Int) {
            self.context = context
            self.output = output
            emitter = RecordEmitter(formatter: formatter, columnWidth: columnWidth)
            sharesTerminal = context.outputSharesTerminal
            let showProgress = output.progress ?? (context.errors.isTerminal && !output.quiet)
            progress = ProgressBar(
                sink: context.errors, enabled: showProgress, plain: ProgressBar.isPlain(context.environment),
                delay: context.progressDelay)
        }

        /// The part of the summary-only text mode: records are counted, not printed.
        var summaryOnly: Bool { output.summaryReplacesRecords }

        func start() {
            lock.withLock {
                if !summaryOnly { context.output.write(emitter.formatter.header()) }
                if sharesTerminal { context.output.flush() }
            }
        }

        func deliver(_ batch: [Processed]) {
            lock.withLock {
                for processed in batch { deliverLocked(processed) }
                // NDJSON goes out as soon as a batch is ready: one write per batch, not per line;
                // so do records on the terminal that shows the bar, before it is drawn again.
                if (output.format == .ndjson || sharesTerminal), !summaryOnly { context.output.flush() }
                // Diagnostics go out as they happen, not at exit: a long scan shows problems
                // live, and an interrupted one has still reported them.
                context.errors.flush()
                progress.show()
            }
        }

        private func deliverLocked(_ processed: Processed) {
            guard !processed.notAPhoto else {
                progress.advance()
                return summary.addNotAPhoto()
            }
            let record = processed.record
            switch record.reading.status {
            case .located: break
            case .noGPS, .invalidGPS: sawUnlocated = true
            case .error: sawError = true
            }
            let printed = processed.rendered != nil && !summaryOnly
            if !output.quiet {
                if let error = record.reading.error {
                    // On a terminal that shows both streams, the error record already says it.
                    if !(printed && sharesTerminal) {
                        diagnose("phototag: \(quotedForTerminal(record.file)): \(error)\n")
                    }
                } else if output.format == .text {
                    // An unusable GPS block's warnings are in the record line itself.
                    let shown =
                        record.reading.status == .located
                        ? record.warnings : record.time?.warnings.map(\.description) ?? []
                    for warning in shown {
                        diagnose("phototag: \(quotedForTerminal(record.file)): warning: \(warning)\n")
                    }
                }
            }
            if let rendered = processed.rendered {
                summary.add(record)
                if printed {
                    if sharesTerminal { progress.hide() }
                    context.output.write(emitter.emit(rendered))
                }
            }
            progress.advance()
        }

        /// Writes a line to stderr, with the progress bar out of its way.
        private func diagnose(_ line: String) {
            progress.hide()
            context.errors.write(line)
        }

        func note(_ text: String) {
            lock.withLock {
                guard !output.quiet else { return }
                diagnose("phototag: \(text)\n")
                context.errors.flush()
                progress.show()
            }
        }

        /// Whether standard output's reader has gone (a closed pipe): the producer then stops.
        /// Asked under the lock, since workers set it while writing.
        var readerIsGone: Bool { lock.withLock { context.output.isClosed } }

        /// Tells the progress bar how many files the walk has found so far.
        func found(_ count: Int, final: Bool) {
            lock.withLock {
                progress.total = count
                progress.totalIsFinal = final
            }
        }

        func end() {
            lock.withLock { endLocked() }
        }

        private func endLocked() {
            progress.finish()
            if summaryOnly {
                context.output.write(summary.text())
            } else {
                context.output.write(emitter.formatter.footer(count: emitter.count))
                if output.summary {
                    // Not after a failed write: the summary would count records that were lost.
                    context.output.flush()
                    if context.output.writeError == nil, !summary.report(output, errors: context.errors) {
                        sawError = true
                    }
                }
            }
        }
    }

    /// The most read into memory from standard input, a FIFO or a character device.
    static let streamLimit = 64 << 20

    /// Opens the `--files-from` list: standard input, or the file named; `nil` after reporting
    /// why it cannot be opened. The list file, if any, is returned too, to check for read errors.
    func openList(_ selection: SelectionOptions, input: InputSource) -> (PathList, InputSource)? {
        guard let list = selection.filesFrom else { return nil }
        if selection.listIsStandardInput {
            return (PathList(source: input, separator: selection.separator), input)
        }
        do {
            let file = try FileInput(path: list.bytes)
            return (PathList(source: file, separator: selection.separator), file)
        } catch {
            errors.write("phototag: \(list.text): \(PhotoGPSError.cannotOpen(errno: error.code))\n")
            return nil
        }
    }

    /// Whether the list file was read to its end; otherwise reports the read error.
    func listWasRead(_ file: InputSource?, _ selection: SelectionOptions, note: (String) -> Void) -> Bool {
        guard let file, file.failure != 0, let list = selection.filesFrom else { return true }
        let name = selection.listIsStandardInput ? "standard input" : list.text
        note("\(name): \(PhotoGPSError.cannotRead(errno: file.failure))")
        return false
    }

    /// Reads the photo on standard input into memory (up to ``streamLimit`` bytes).
    func readStandardInput(_ input: InputSource) -> GPSReading {
        var bytes: [UInt8] = []
        while true {
            let chunk = input.read(upTo: min(1 << 16, Self.streamLimit + 1 - bytes.count))
            if chunk.isEmpty {
                // A read error is not the end of the photo.
                if input.failure != 0 { return .failure(.cannotRead(errno: input.failure)) }
                break
            }
            bytes += chunk
            if bytes.count > Self.streamLimit {
                return .failure(.tooLarge(source: "standard input", limit: Self.streamLimit))
            }
        }
        return GPSReader().read(bytes: bytes)
    }

    /// What `locate` reads: a path (with the sidecars found beside it), or the photo on standard
    /// input (`-`).
    enum LocateItem: Sendable {
        case path([UInt8], sidecars: [[UInt8]] = [])
        case standardInput(GPSReading)
    }

    func locate(_ options: LocateOptions, input: InputSource) -> Int32 {
        guard let geocoder = openGeocoder(options.place) else { return PhotoTag.ExitStatus.unreadable }
        // The arguments, then the list: the whole list is read first, for the column width.
        var items: [LocateItem] = []
        for file in options.files {
            items.append(
                file.bytes == [UInt8(ascii: "-")] ? .standardInput(readStandardInput(input)) : .path(file.bytes))
        }
        var listFile: InputSource? = nil
        if options.selection.filesFrom != nil {
            guard let (opened, file) = openList(options.selection, input: input) else {
                return PhotoTag.ExitStatus.unreadable
            }
            var list = opened
            items += list.all().map { LocateItem.path($0) }
            listFile = file
        }
        // A photo's sidecars, found by listing its folder (once for a run of paths in one folder).
        var pairing: (folder: [UInt8], pairing: SidecarPairing)? = nil
        for index in items.indices {
            guard case .path(let path, _) = items[index], Sidecar.kind(ofName: path) == nil else { continue }
            var info = stat()
            guard statPath(path, &info), info.st_mode & S_IFMT == S_IFREG else { continue }
            items[index] = .path(path, sidecars: SidecarPairing.sidecars(ofPath: path, cache: &pairing))
        }
        let names = items.map { item in
            switch item {
            case .path(let path, _): String(decoding: path, as: UTF8.self)
            case .standardInput: "-"
            }
        }
        let formatter = formatter(options.output, options.place, photos: true)
        let width = options.output.format == .text ? RecordEmitter.columnWidth(forFiles: names) : 0
        let run = PhotoRun(context: self, output: options.output, formatter: formatter, columnWidth: width)
        let listRead = listWasRead(listFile, options.selection, note: run.note)
        run.found(items.count, final: true)
        run.start()
        let place = options.place
        let selection = options.selection
        let format = options.output.format
        @Sendable func process(_ item: LocateItem) -> Processed {
            var record: PhotoRecord
            switch item {
            case .path(let path, _) where Sidecar.kind(ofName: path) != nil:
                record = SidecarMerge.record(sidecar: path, kind: Sidecar.kind(ofName: path)!)
            case .path(let path, let sidecars):
                record = SidecarMerge.record(
                    file: String(decoding: path, as: UTF8.self),
                    reading: GPSReader().read(fileAtPath: path, streamLimit: Self.streamLimit), sidecars: sidecars,
                    preferSidecar: selection.preferSidecar)
            case .standardInput(let reading):
                record = PhotoRecord(file: "-", reading: reading)
            }
            if let fix = record.reading.fix {
                record.place = place.lookUp(Coordinate(latitude: fix.latitude, longitude: fix.longitude)!, in: geocoder)
            }
            record.resolveTime()
            guard selection.keeps(record, format: format) else { return Processed(record: record, rendered: nil) }
            return Processed(record: record, rendered: formatter.render(.photo(record)))
        }
        let pipeline = OrderedPipeline<[LocateItem], [Processed]>(
            workers: items.count >= 4 ? selection.workers : 1, window: 16,
            work: { batch in batch.map(process) }, deliver: run.deliver)
        var start = 0
        while start < items.count, !run.readerIsGone {
            let end = min(items.count, start + 32)
            pipeline.submit(Array(items[start..<end]))
            start = end
        }
        pipeline.finish()
        run.end()
        if run.sawError || !listRead { return PhotoTag.ExitStatus.unreadable }
        return run.sawUnlocated ? PhotoTag.ExitStatus.notLocated : PhotoTag.ExitStatus.success
    }

    /// One thing the walk hands to the workers.
    enum ScanItem: Sendable {
        /// A file to read; `sniffed` when only `--all-files` chose it (not its name), so that one
        /// which is not a photo at all is skipped quietly.
        case file([UInt8], sniffed: Bool, sidecars: [[UInt8]] = [])
        /// A sidecar read alone: no photo beside it (`given` false), or named by a path given.
        case sidecar([UInt8], given: Bool)
        case unreadable([UInt8], errno: Int32)
    }

    func scan(_ options: ScanOptions, input: InputSource) -> Int32 {
        guard let geocoder = openGeocoder(options.place) else { return PhotoTag.ExitStatus.unreadable }
        var list: PathList? = nil
        var listFile: InputSource? = nil
        if options.selection.filesFrom != nil {
            guard let (opened, file) = openList(options.selection, input: input) else {
                return PhotoTag.ExitStatus.unreadable
            }
            list = opened
            listFile = file
        }
        let formatter = formatter(options.output, options.place, photos: true)
        let run = PhotoRun(
            context: self, output: options.output, formatter: formatter, columnWidth: RecordEmitter.maximumColumnWidth)
        run.start()
        let place = options.place
        @Sendable func process(_ item: ScanItem) -> Processed {
            var record: PhotoRecord
            switch item {
            case .file(let path, let sniffed, let sidecars):
                record = SidecarMerge.record(
                    file: String(decoding: path, as: UTF8.self), reading: GPSReader().read(fileAtPath: path),
                    sidecars: sidecars, preferSidecar: options.selection.preferSidecar)
                if sniffed, let error = record.reading.error, error.meansNotAPhoto {
                    return Processed(record: record, rendered: nil, notAPhoto: true)
                }
            case .sidecar(let path, let given):
                let kind = Sidecar.kind(ofName: path) ?? .xmp
                record = SidecarMerge.record(sidecar: path, kind: kind)
                // A .json found in a folder that is not Takeout metadata (or not JSON) is most
                // likely no sidecar at all; one named by a path given is reported.
                if !given, let error = record.reading.error, error.meansNotAPhoto || kind == .takeout {
                    return Processed(record: record, rendered: nil, notAPhoto: true)
                }
            case .unreadable(let path, let code):
                record = PhotoRecord(
                    file: String(decoding: path, as: UTF8.self), reading: .failure(.cannotOpen(errno: code)))
            }
            var coordinate: Coordinate? = nil
            if let fix = record.reading.fix {
                coordinate = Coordinate(latitude: fix.latitude, longitude: fix.longitude)!
                record.place = place.lookUp(coordinate!, in: geocoder)
            }
            record.resolveTime()
            guard options.keeps(record, at: coordinate) else { return Processed(record: record, rendered: nil) }
            return Processed(record: record, rendered: formatter.render(.photo(record)))
        }
        // Files go to the workers in batches: one hand-over (and one wake-up) per batch instead
        // of per file, which was a good part of a scan's time in the kernel.
        let pipeline = OrderedPipeline<[ScanItem], [Processed]>(
            workers: options.selection.workers, window: 16, work: { batch in batch.map(process) },
            deliver: run.deliver)
        var walker = FileWalker(
            hidden: options.hidden, allFiles: options.allFiles, exclude: options.exclude, maxDepth: options.maxDepth,
            noFollow: options.noFollow)
        // The arguments, then the list as it is read; with --sort, all of them sorted first.
        var roots = options.paths.map(\.bytes)
        if options.sort {
            if var whole = list { roots += whole.all() }
            list = nil
            roots.sort { $0.lexicographicallyPrecedes($1) }
        }
        var found = 0
        var batch: [ScanItem] = []
        func submitBatch() -> Bool {
            guard !batch.isEmpty else { return true }
            pipeline.submit(batch)
            batch.removeAll(keepingCapacity: true)
            run.found(found, final: false)
            // The reader has gone (phototag scan … | head): stop walking, end quietly.
            return !run.readerIsGone
        }
        func walk(_ root: [UInt8]) {
            walker.walk(root) { item in
                switch item {
                case .file(let path):
                    found += 1
                    batch.append(.file(path, sniffed: false))
                case .paired(let path, let sidecars):
                    found += 1
                    batch.append(.file(path, sniffed: false, sidecars: sidecars))
                case .sidecar(let path):
                    found += 1
                    batch.append(.sidecar(path, given: path == root))
                case .candidate(let path):
                    found += 1
                    batch.append(.file(path, sniffed: true))
                case .unreadable(let path, let code):
                    found += 1
                    batch.append(.unreadable(path, errno: code))
                case .skipped(let path, let reason):
                    run.note("\(quotedForTerminal(String(decoding: path, as: UTF8.self))): \(reason)")
                }
                return batch.count < 32 || submitBatch()
            }
            _ = submitBatch()
        }
        for root in roots where !run.readerIsGone { walk(root) }
        while !run.readerIsGone, let root = list?.next() { walk(root) }
        let listRead = listWasRead(listFile, options.selection, note: run.note)
        run.found(found, final: true)
        pipeline.finish()
        run.end()
        return run.sawError || !listRead ? PhotoTag.ExitStatus.unreadable : PhotoTag.ExitStatus.success
    }

    // MARK: places

    func importPlaces(_ options: ImportOptions) -> Int32 {
        do {
            let dump = try GeoNamesImport(
                directory: options.directory, citiesFile: options.citiesFile,
                minimumPopulation: options.minimumPopulation, populatedPlacesOnly: !options.allFeatures)
            for note in dump.notes { errors.write("phototag: \(note)\n") }
            errors.flush()  // before the long part: the build
            let citiesFile = String(dump.citiesPath.split(separator: "/").last ?? "")
            let date = options.date ?? modificationDate(dump.citiesPath) ?? "unknown"
            let builder = PlaceTableBuilder(source: "GeoNames \(citiesFile)", date: date)
            let table = try builder.build(dump.places)
            try PlaceTableBuilder.write(table, to: options.output)
            var report = "imported \(grouped(dump.places.count)) places from \(citiesFile)"
            if dump.filteredOut > 0 { report += " (\(grouped(dump.filteredOut)) left out by the filters)" }
            report += "\nskipped \(grouped(dump.skippedCount)) bad rows"
            if dump.skippedCount > 0 {
                let reasons = dump.skipped.sorted { $0.key < $1.key }.map { "\(grouped($0.value)) \($0.key.rawValue)" }
                report += ": " + reasons.joined(separator: ", ")
            }
            report += "\nwrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))\n"
            output.write(report)
            return PhotoTag.ExitStatus.success
        } catch {
            errors.write("phototag: \(error)\n")
            return PhotoTag.ExitStatus.unreadable
        }
    }

    // MARK: boundaries

    func importBoundaries(_ options: BoundariesImportOptions) -> Int32 {
        do {
            let names = BoundaryTableBuilder.fileNames
            let date = options.date ?? modificationDate(options.directory + "/" + names.timeZones) ?? "unknown"
            let timeZones = try GeoJSONReader.read(path: options.directory + "/" + names.timeZones)
            var rules: [UInt8] = []
            var source = "\(names.timeZones), \(names.countries), \(names.admin1)"
            if let tzdata = options.tzdata {
                let zones = timeZones.compactMap { $0.property("tzid") }
                rules = try TimeZoneRulesBuilder(zoneinfo: tzdata).build(zones: zones)
                source += ", tz rules"
            }
            let builder = BoundaryTableBuilder(source: source, date: date, timeZoneRules: rules)
            let table = try builder.build(
                timeZones: timeZones,
                countries: try GeoJSONReader.read(path: options.directory + "/" + names.countries),
                admin1: try GeoJSONReader.read(path: options.directory + "/" + names.admin1),
                names: (
                    options.directory + "/" + names.timeZones, options.directory + "/" + names.countries,
                    options.directory + "/" + names.admin1
                ))
            try BoundaryTableBuilder.write(table, to: options.output)
            let opened = try BoundaryTable(tableBytes: table)
            output.write(
                """
                imported \(grouped(opened.timeZoneCount)) time zones, \(grouped(opened.countryCount)) countries, \
                \(grouped(opened.admin1Count)) admin-1 regions\(rules.isEmpty ? "" : ", the tz rules of every zone (\(grouped(rules.count)) bytes)")
                wrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))

                """)
            return PhotoTag.ExitStatus.success
        } catch {
            errors.write("phototag: \(error)\n")
            return PhotoTag.ExitStatus.unreadable
        }
    }

    /// A file's modification date in UTC, `YYYY-MM-DD`.
    func modificationDate(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Glibc)
            var seconds = info.st_mtim.tv_sec
        #else
            var seconds = info.st_mtimespec.tv_sec
        #endif
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
    }
}

extension ScanOptions {
    /// Whether the filters let a record through: `--with-gps` keeps located photos only,
    /// `--without-gps` the others (errors too: they have no usable position), `--near`/`--within`
    /// located photos by distance; then ``SelectionOptions/keeps(_:format:)``. A record left out
    /// this way is still on stderr when it is an error, and still sets the exit status.
    func keeps(_ record: PhotoRecord, at coordinate: Coordinate?) -> Bool {
        let status = record.reading.status
        switch gpsFilter {
        case .all: break
        case .withGPS: if status != .located { return false }
        case .withoutGPS: if status == .located { return false }
        }
        if let near, let within {
            guard status == .located, let coordinate, near.distanceKm(to: coordinate) <= within else { return false }
        }
        return selection.keeps(record, format: output.format)
    }
}

extension SelectionOptions {
    /// Whether a record is written in `format`: GeoJSON is for maps, so it holds only located
    /// photos unless `--all-records` asks for the null-geometry features too.
    func keeps(_ record: PhotoRecord, format: OutputFormat) -> Bool {
        format != .geojson || allRecords || record.reading.status == .located
    }
}

/// Zero-pads a non-negative number to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
