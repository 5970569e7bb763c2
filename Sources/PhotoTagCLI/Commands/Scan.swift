import PhotoGPS
import PhotoTagMap
import PhotoTagSupport
import ReverseGeocoding

/// `phototag scan`'s settings.
struct ScanOptions: Equatable, Sendable {
    var paths: [Argument]
    var output = OutputOptions()
    var place = PlaceOptions()
    var selection = SelectionOptions()
    /// `--exclude` patterns (fnmatch(3)), matched against entry names and paths relative to the root.
    var exclude: [String] = []
    /// `--max-depth`: how deep to walk (a root's entries are at depth 1); `nil` is no limit.
    var maxDepth: Int? = nil
    /// `--no-follow`: skip symbolic links found inside folders.
    var noFollow = false
    /// Sniff every file's first bytes instead of going by extension.
    var allFiles = false
    /// Enter hidden folders and read hidden files.
    var hidden = false
    /// Order the whole output by path, across the paths given too.
    var sort = false
    /// `--shard K/N`: only the files of share K (see ``Shard``); `nil` is every file.
    var shard: Shard? = nil
    var tracks = TrackOptions()
    /// `phototag tag`: write each photo's XMP sidecar too; `nil` for `scan`.
    var tag: TagOptions? = nil
}

extension ScanOptions {
    /// The settings of a parsed `scan` command line.
    init(_ reader: OptionReader) throws(UsageError) {
        let output = try reader.output()
        self.init(
            paths: reader.parsed.positionals, output: output, place: try reader.place(),
            selection: try reader.selection(format: output.format))
        exclude = reader.parsed.all(Options.exclude) ?? []
        maxDepth = try reader.count(Options.maxDepth, minimum: 0)
        noFollow = reader.has(Options.noFollow)
        allFiles = reader.has(Options.allFiles)
        hidden = reader.has(Options.hidden)
        sort = reader.has(Options.sort)
        tracks = try reader.tracks()
        if let text = reader.value(Options.shard) {
            do throws(Shard.ParseError) {
                shard = try Shard.parse(text)
            } catch {
                switch error {
                case .notAFraction:
                    throw reader.error(
                        "option '\(Options.shard.name)' needs K/N, two whole numbers such as 2/8, not '\(text)'")
                case .outOfRange: throw reader.error("option '\(Options.shard.name)' needs 1 ≤ K ≤ N, not '\(text)'")
                }
            }
        }
        try reader.checkExifToolCSV(output, place, selection, standardInput: false)
        try reader.requirePaths(selection)
    }
}

extension Context {
    /// One thing the walk hands to the workers; its path is where in its ``ScanBatch/paths``.
    enum ScanItem: Sendable {
        /// A file to read; `sniffed` when only `--all-files` chose it (not its name), so that one
        /// which is not a photo at all is skipped quietly; `regular` when the folder's listing
        /// shows it to be a regular file (see ``HeadPrefetch/openHead(_:regular:)``).
        case file(Range<Int>, sniffed: Bool, sidecars: SidecarMatch = SidecarMatch(), regular: Bool = false)
        /// A sidecar read alone: no photo beside it (`given` false), or named by a path given.
        case sidecar(Range<Int>, given: Bool)
        case unreadable(Range<Int>, errno: Int32)

        /// Where the item's path is in its batch's ``ScanBatch/paths``.
        var path: Range<Int> {
            switch self {
            case .file(let path, _, _, _), .sidecar(let path, _), .unreadable(let path, _): return path
            }
        }
    }

    /// Files the walk hands to the workers at once, and their paths' bytes one after the other in
    /// one array: no array per file (each record's path is a slice of it).
    struct ScanBatch: Sendable {
        var items: [ScanItem] = []
        var paths: [UInt8] = []

        /// Adds `path`'s bytes to ``paths``, and the item that `item` makes of where they are.
        mutating func append(_ path: [UInt8], _ item: (Range<Int>) -> ScanItem) {
            let start = paths.count
            paths.append(contentsOf: path)
            items.append(item(start..<paths.count))
        }
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
        // With --track: the tracks, read before any photo; with --from-photos, the located photos
        // of the whole walk (every share of it), read in a walk of their own first.
        var nearby: Track? = nil
        // The paths of --files-from, when they had to be read before the walk.
        var preWalked: [[UInt8]] = []
        if options.tracks.fromPhotos {
            if var whole = list { preWalked += whole.all() }
            list = nil
            var items: [(path: [UInt8], sidecars: SidecarMatch)] = []
            var walker = FileWalker(
                hidden: options.hidden, allFiles: options.allFiles, exclude: options.exclude,
                maxDepth: options.maxDepth, noFollow: options.noFollow)
            for root in options.paths.map(\.bytes) + preWalked {
                walker.walk(root) { item in
                    switch item {
                    case .file(let path), .regular(let path), .candidate(let path): items.append((path, SidecarMatch()))
                    case .paired(let path, let sidecars): items.append((path, sidecars))
                    default: break
                    }
                    return true
                }
            }
            nearby = nearbyPhotos(items, preferSidecar: options.selection.preferSidecar)
        }
        let tracking =
            options.tracks.isActive
            ? trackPlacer(options.tracks, nearby: nearby, quiet: options.output.quiet) : (placer: nil, sawError: false)
        if options.tracks.isActive, tracking.placer == nil { return PhotoTag.ExitStatus.unreadable }
        let placer = tracking.placer, trackError = tracking.sawError
        var chosenFormatter = formatter(
            options.output, options.place, photos: true, tracks: options.tracks.isActive, tagging: options.tag != nil,
            allPositions: options.selection.allPositions)
        chosenFormatter.tagDetails = options.tag?.dryRun == true
        let formatter = chosenFormatter
        let tagger = options.tag.map { SidecarTagger($0, allPositions: options.selection.allPositions) }
        let run = PhotoRun(
            context: self, output: options.output, formatter: formatter, columnWidth: RecordEmitter.maximumColumnWidth)
        run.start()
        let place = options.place
        // More readers than cores (the default): each opens the files of a group and asks the
        // storage for their heads, then takes a CPU slot and parses, looks up and renders the
        // group; so many reads are in flight on slow storage while the CPU work runs on one
        // thread per core, and a warm cache costs one slot hand-over per group, not per file.
        // The readers beyond one per core start only once opening files takes storage time
        // (a warm page cache never needs them).
        let readers = options.selection.readers
        let readsAhead = readers > processorCount()
        let cpu = CPUSlots(count: processorCount(), threads: readers)
        let gate = WorkerGate(reserved: readers - processorCount())
        let rendersJSON = formatter.format == .json || formatter.format == .ndjson
        @Sendable func process(_ batch: ScanBatch) -> ProcessedBatch {
            // The batch's JSON records are rendered one after the other into one buffer, handed
            // over with the batch; the other formats through a buffer of their own.
            let rendered = ByteBuffer(capacity: rendersJSON ? 64 << 10 : 16)
            let scratch = ByteBuffer(capacity: rendersJSON ? 16 : 1024)
            func scanned(_ items: [Processed]) -> ProcessedBatch {
                ProcessedBatch(items: items, rendered: rendersJSON ? rendered : nil)
            }
            // A file not opened ahead is read by its path, copied into this one array.
            var pathBuffer: [UInt8] = []
            guard readsAhead else {
                return scanned(
                    batch.items.map {
                        compute(
                            $0, paths: batch.paths, reading: nil, pathBuffer: &pathBuffer, rendered: rendered,
                            scratch: scratch)
                    })
            }
            var processed: [Processed] = []
            processed.reserveCapacity(batch.items.count)
            var start = 0
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: HeadPrefetch.group) { opened in
                while start < batch.items.count {
                    let group = batch.items[start..<min(start + HeadPrefetch.group, batch.items.count)]
                    var slow = 0
                    for (slot, item) in zip(opened.indices, group) {
                        opened[slot] = -1
                        guard case .file(let path, _, _, let regular) = item else { continue }
                        let began = HeadPrefetch.now()
                        opened[slot] = HeadPrefetch.openHead(batch.paths[path], regular: regular) ?? -1
                        if HeadPrefetch.now() - began > HeadPrefetch.slowOpen { slow += 1 }
                    }
                    // Half the group or more: the storage, not a thread that lost its core.
                    if slow > 0, 2 * slow >= group.count, !gate.isOpen { gate.open() }
                    cpu.run {
                        for (slot, item) in zip(opened.indices, group) {
                            let reading = opened[slot] >= 0 ? GPSReader().read(openedFile: opened[slot]) : nil
                            processed.append(
                                compute(
                                    item, paths: batch.paths, reading: reading, pathBuffer: &pathBuffer,
                                    rendered: rendered, scratch: scratch))
                        }
                    }
                    for slot in 0..<group.count where opened[slot] >= 0 { closeFile(opened[slot]) }
                    start += group.count
                }
            }
            return scanned(processed)
        }
        /// The record of `item`, whose path is in `paths`; `reading` is its file's when already
        /// read, otherwise it is read by its path copied into `pathBuffer`. A JSON record is
        /// rendered after those in `rendered`, any other in `scratch`.
        @Sendable func compute(
            _ item: ScanItem, paths: [UInt8], reading: GPSReading?, pathBuffer: inout [UInt8], rendered: ByteBuffer,
            scratch: ByteBuffer
        )
            -> Processed
        {
            var record: PhotoRecord
            let path = paths[item.path]
            var pairedSidecars: SidecarMatch? = nil
            switch item {
            case .file(_, let sniffed, let sidecars, _):
                pairedSidecars = sidecars
                let embedded: GPSReading
                if let reading {
                    embedded = reading
                } else {
                    pathBuffer.removeAll(keepingCapacity: true)
                    pathBuffer.append(contentsOf: path)
                    embedded = GPSReader().read(path: pathBuffer)
                }
                // Without sidecars the reading is the record's as it is (moved in, not copied).
                record =
                    sidecars.isEmpty
                    ? PhotoRecord(path: path, reading: embedded)
                    : SidecarMerge.record(
                        path: path, reading: embedded, sidecars: sidecars,
                        preferSidecar: options.selection.preferSidecar)
                if sniffed, let error = record.reading.error, error.meansNotAPhoto {
                    return Processed(record: record, rendered: nil, notAPhoto: true)
                }
            case .sidecar(_, let given):
                let kind = Sidecar.kind(ofName: path) ?? .xmp
                record = SidecarMerge.record(sidecar: Array(path), kind: kind)
                // A sidecar found in a folder that is well-formed but no sidecar (JSON without
                // Takeout metadata: a `package.json`) or empty is skipped as a file that is not
                // a photo is; one that cannot be read, is too large or is broken is reported, as
                // is any named by a path given.
                if !given, let error = record.reading.error, error.meansNotAPhoto {
                    return Processed(record: record, rendered: nil, notAPhoto: true)
                }
            case .unreadable(_, let code):
                record = PhotoRecord(path: path, reading: .failure(.cannotOpen(errno: code)))
            }
            placer?.place(&record)
            var coordinate: Coordinate? = nil
            if let fix = record.reading.fix {
                coordinate = Coordinate(latitude: fix.latitude, longitude: fix.longitude)!
                record.place = place.lookUp(coordinate!, in: geocoder)
            }
            record.resolveTime()
            guard options.selection.keeps(record, at: coordinate, format: options.output.format) else {
                return Processed(record: record, rendered: nil)
            }
            // phototag tag: a photo's sidecar (a sidecar alone, or a file that cannot be read, has none).
            if let tagger, let sidecars = pairedSidecars, record.reading.error == nil {
                record.tagging = tagger.tag(record, sidecars: sidecars)
            }
            // Rendered from the local record, which then moves into what is handed back (no
            // copy of it: rendering into the Processed's own record copied it, to assign beside it).
            let rendering = formatter.render(photo: record, appendingTo: rendered, scratch: scratch)
            var point: MapPoint? = nil
            if formatter.format.isMap { point = MapOutput.point(record, path: Array(path)) }
            return Processed(record: record, rendered: rendering, point: point)
        }
        // Files go to the workers in batches: one hand-over (and one wake-up) per batch instead
        // of per file, which was a good part of a scan's time in the kernel. (Each batch's
        // records and diagnostics are written together: the batches' size sets how the two
        // streams interleave on one terminal, so it stays 32 whatever the number of readers.)
        let pipeline = OrderedPipeline<ScanBatch, ProcessedBatch>(
            workers: readers, window: max(16, 2 * readers), gate: gate, work: process,
            deliver: run.deliver)
        var walker = FileWalker(
            hidden: options.hidden, allFiles: options.allFiles, exclude: options.exclude, maxDepth: options.maxDepth,
            noFollow: options.noFollow)
        // The arguments, then the list as it is read; with --sort, all of them sorted first.
        var roots = options.paths.map(\.bytes) + preWalked
        if options.sort {
            if var whole = list { roots += whole.all() }
            list = nil
            roots.sort { $0.lexicographicallyPrecedes($1) }
        }
        var found = 0
        var batch = ScanBatch()
        func submitBatch() -> Bool {
            guard !batch.items.isEmpty else { return true }
            pipeline.submit(batch)
            batch.items.removeAll(keepingCapacity: true)
            batch.paths.removeAll(keepingCapacity: true)
            run.found(found, final: false)
            // The reader has gone (phototag scan … | head): stop walking, end quietly.
            return !run.shouldStop
        }
        func walk(_ root: [UInt8]) {
            walker.walk(root) { item in
                // Another run's share: not read, not counted, not noted (that run does it).
                if let shard = options.shard, !shard.takes(item.path, under: root) { return true }
                switch item {
                // The path's bytes are copied into the batch: the walker's array is free for the next.
                case .file(let path):
                    found += 1
                    batch.append(path) { .file($0, sniffed: false) }
                case .regular(let path):
                    found += 1
                    batch.append(path) { .file($0, sniffed: false, regular: true) }
                case .paired(let path, let sidecars):
                    found += 1
                    batch.append(path) { .file($0, sniffed: false, sidecars: sidecars) }
                case .sidecar(let path):
                    found += 1
                    batch.append(path) { .sidecar($0, given: path == root) }
                case .candidate(let path):
                    found += 1
                    batch.append(path) { .file($0, sniffed: true) }
                case .unreadable(let path, let code):
                    found += 1
                    batch.append(path) { .unreadable($0, errno: code) }
                case .skipped(let path, let reason):
                    run.skipped(quotedForTerminal(String(decoding: path, as: UTF8.self)), reason: reason)
                }
                return batch.items.count < 32 || submitBatch()
            }
            _ = submitBatch()
        }
        for root in roots where !run.shouldStop { walk(root) }
        while !run.shouldStop, let root = list?.next() { walk(root) }
        let listRead = listWasRead(listFile, options.selection, note: run.note)
        run.found(found, final: true)
        pipeline.finish()
        let outcome = run.end()
        return outcome.sawError || !listRead || trackError
            ? PhotoTag.ExitStatus.unreadable : PhotoTag.ExitStatus.success
    }
}
