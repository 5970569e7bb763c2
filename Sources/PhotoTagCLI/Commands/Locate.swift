import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

/// `phototag locate`'s settings.
struct LocateOptions: Equatable, Sendable {
    /// The files given as arguments; `-` is standard input.
    var files: [Argument]
    var output = OutputOptions()
    var place = PlaceOptions()
    var selection = SelectionOptions()
    var tracks = TrackOptions()
}

extension LocateOptions {
    /// The settings of a parsed `locate` command line.
    init(_ reader: OptionReader) throws(UsageError) {
        let output = try reader.output()
        let selection = try reader.selection(format: output.format)
        let files = reader.parsed.positionals
        let standardInput = files.filter { $0.bytes == [UInt8(ascii: "-")] }.count
        if standardInput > 1 { throw reader.error("'-' (standard input) can be given only once") }
        if standardInput == 1, selection.listIsStandardInput {
            throw reader.error("'-' and '\(Options.filesFrom.name) -' both read standard input; give one of them")
        }
        let place = try reader.place()
        try reader.checkExifToolCSV(output, place, selection, standardInput: standardInput > 0)
        try reader.requirePaths(selection)
        self.init(files: files, output: output, place: place, selection: selection, tracks: try reader.tracks())
    }
}

extension Context {
    /// What `locate` reads: a path (with the sidecars found beside it), or the photo on standard
    /// input (`-`).
    enum LocateItem: Sendable {
        case path([UInt8], sidecars: SidecarMatch = SidecarMatch())
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
        // The folders given as arguments: an error each, and a hint to scan them.
        var folders: [[UInt8]] = []
        for index in items.indices {
            guard case .path(let path, _) = items[index], Sidecar.kind(ofName: path) == nil else { continue }
            guard let info = try? fileStatus(path) else { continue }
            if info.isDirectory, index < options.files.count { folders.append(path) }
            guard info.isRegular else { continue }
            items[index] = .path(path, sidecars: SidecarPairing.sidecars(ofPath: path, cache: &pairing))
        }
        let names = items.map { item in
            switch item {
            case .path(let path, _): String(decoding: path, as: UTF8.self)
            case .standardInput: "-"
            }
        }
        // With --track: the tracks, read before any photo; with --from-photos, the located photos.
        var nearby: Track? = nil
        if options.tracks.fromPhotos {
            nearby = nearbyPhotos(
                items.compactMap { item in
                    guard case .path(let path, let sidecars) = item else { return nil }
                    return (path, sidecars)
                }, preferSidecar: options.selection.preferSidecar)
        }
        let tracking =
            options.tracks.isActive
            ? trackPlacer(options.tracks, nearby: nearby, quiet: options.output.quiet) : (placer: nil, sawError: false)
        if options.tracks.isActive, tracking.placer == nil { return PhotoTag.ExitStatus.unreadable }
        let placer = tracking.placer, trackError = tracking.sawError
        let formatter = formatter(
            options.output, options.place, photos: true, tracks: options.tracks.isActive,
            allPositions: options.selection.allPositions)
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
                    path: path[...], reading: GPSReader().read(path: path, streamLimit: Self.streamLimit),
                    sidecars: sidecars,
                    preferSidecar: selection.preferSidecar)
            case .standardInput(let reading):
                record = PhotoRecord(file: "-", reading: reading)
            }
            placer?.place(&record)
            var coordinate: Coordinate? = nil
            if let fix = record.reading.fix {
                coordinate = Coordinate(latitude: fix.latitude, longitude: fix.longitude)!
                record.place = place.lookUp(coordinate!, in: geocoder)
            }
            record.resolveTime()
            guard selection.keeps(record, at: coordinate, format: format) else {
                return Processed(record: record, rendered: nil)
            }
            var processed = Processed(record: record, rendered: formatter.render(.photo(record)))
            if format.isMap {
                switch item {
                case .path(let path, _): processed.point = MapOutput.point(record, path: path)
                case .standardInput: processed.point = MapOutput.point(record, path: [])
                }
            }
            return processed
        }
        let pipeline = OrderedPipeline<[LocateItem], [Processed]>(
            workers: items.count >= 4 ? selection.workers : 1, window: 16,
            work: { batch in batch.map(process) }, deliver: run.deliver)
        var start = 0
        while start < items.count, !run.shouldStop {
            let end = min(items.count, start + 32)
            pipeline.submit(Array(items[start..<end]))
            start = end
        }
        pipeline.finish()
        let outcome = run.end()
        if !folders.isEmpty, !options.output.quiet {
            let paths = folders.map { shellWord(String(decoding: $0, as: UTF8.self)) }.joined(separator: " ")
            errors.write(
                "phototag: hint: locate reads files; to read the photos in a folder, run: phototag scan \(paths)\n")
        }
        if outcome.sawError || !listRead || trackError { return PhotoTag.ExitStatus.unreadable }
        return outcome.sawUnlocated ? PhotoTag.ExitStatus.notLocated : PhotoTag.ExitStatus.success
    }
}
