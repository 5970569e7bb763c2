import PhotoGPS
import PhotoTagMap
import PhotoTagSupport
import ReverseGeocoding

extension Context {
    /// What a worker hands back for one file: the record, and its rendering unless filtered out.
    struct Processed: Sendable {
        var record: PhotoRecord
        var rendered: RecordFormatter.Rendered?
        /// A file read only because of `--all-files` that is not a photo at all: no record, no
        /// error, only a count in the summary.
        var notAPhoto = false
        /// With `--format svg` or `html`: the record's point on the map, `nil` when it has no
        /// position.
        var point: MapPoint? = nil
    }

    /// What a scan's worker hands back for a batch of files: their ``Processed`` and the buffer
    /// of their JSON or NDJSON renderings, one after the other (each rendering's
    /// ``RecordFormatter/Rendered/span`` says where its record is).
    ///
    /// The buffer is handed over, not copied (a copy of a batch's 30-odd KiB cost more than
    /// rendering into it): the worker that filled it makes a new one for its next batch and
    /// never touches this one again, so only the thread that delivers the batch reads it.
    struct ProcessedBatch: @unchecked Sendable {
        // Guarded by PhotoTagCLITests/ConcurrencyInvariantTests.aScanWithEightWorkersWritesWhatOneWorkerWrites.
        var items: [Processed]
        var rendered: ByteBuffer? = nil
    }

    /// Reads, geocodes and renders photos in parallel and writes them in order: the shared core of
    /// `locate` and `scan`.
    ///
    /// The workers' deliveries, the walker's notes and the progress totals meet here, from many
    /// threads: everything they change (the sinks, the records written, the counts, the bar) is
    /// private ``State`` that only ``Locked/withLock(_:)`` reaches, so the compiler, not a
    /// comment, checks that every access holds the lock.
    final class PhotoRun: Sendable {
        /// How a run ended, for the exit status.
        struct Outcome: Equatable {
            /// Some file could not be read, or the summary could not be written.
            var sawError = false
            /// Some file has no usable position.
            var sawUnlocated = false
        }

        /// What the lock guards.
        private struct State {
            let context: Context
            var emitter: RecordEmitter
            var summary = Summary()
            /// With `--format svg` or `html`: the records gathered for the map.
            var map = MapOutput()
            let progress: ProgressBar
            var outcome = Outcome()
            /// With `--warnings summary`: the warnings counted, for the end.
            var warnings = WarningTally()
        }

        private let state: Locked<State>
        private let output: OutputOptions
        /// Whether records go to the terminal that shows the progress bar and diagnostics.
        ///
        /// Then each batch of records is written with the bar erased and flushed before the bar
        /// is drawn again, so the bar's text never ends up inside a record line; and an error is
        /// not repeated on stderr when its record already shows it there.
        private let sharesTerminal: Bool

        init(context: Context, output: OutputOptions, formatter: RecordFormatter, columnWidth: Int) {
            self.output = output
            sharesTerminal = context.outputSharesTerminal
            let showProgress = output.progress ?? (context.errors.isTerminal && !output.quiet)
            let progress = ProgressBar(
                sink: context.errors, enabled: showProgress, plain: ProgressBar.isPlain(context.environment),
                delay: context.progressDelay)
            state = Locked(
                State(
                    context: context, emitter: RecordEmitter(formatter: formatter, columnWidth: columnWidth),
                    progress: progress))
            state.withLock { $0.summary.countsSidecars = formatter.tagging }
        }

        /// The part of the summary-only text mode: records are counted, not printed.
        private var summaryOnly: Bool { output.summaryReplacesRecords }

        /// Writes the format's header (and with `--csvt`, the columns' types).
        func start() {
            state.withLock { state in
                if !summaryOnly { state.context.output.write(state.emitter.formatter.header()) }
                if !state.context.writeColumnTypes(output, state.emitter.formatter) { state.outcome.sawError = true }
                if sharesTerminal { state.context.output.flush() }
            }
        }

        /// Writes a batch of records, in order, with their diagnostics; called by the pipeline.
        func deliver(_ batch: [Processed]) { deliver(ProcessedBatch(items: batch)) }

        /// ``deliver(_:)-([Processed])`` of a batch whose records' bytes are in one array.
        func deliver(_ batch: ProcessedBatch) {
            state.withLock { state in
                // Through the array's buffer: each record is read where it lies, not copied out.
                batch.items.withUnsafeBufferPointer { items in
                    func deliverAll(_ bytes: UnsafeRawBufferPointer) {
                        guard let first = items.baseAddress else { return }
                        for index in items.indices { deliver(first + index, bytes: bytes, &state) }
                    }
                    if let rendered = batch.rendered {
                        rendered.withUnsafeBytes(deliverAll)
                    } else {
                        deliverAll(UnsafeRawBufferPointer(start: nil, count: 0))
                    }
                }
                // NDJSON goes out as soon as a batch is ready: one write per batch, not per line;
                // so do records on the terminal that shows the bar, before it is drawn again.
                if output.format == .ndjson || sharesTerminal, !summaryOnly { state.context.output.flush() }
                // Diagnostics go out as they happen, not at exit: a long scan shows problems
                // live, and an interrupted one has still reported them.
                state.context.errors.flush()
                state.progress.show()
            }
        }

        /// Writes one record and its diagnostics, holding the lock; `bytes` are those of its batch.
        ///
        /// The record is read through the pointer, where it lies in the batch: passed on as a
        /// value, each record was copied (retaining every string in it).
        private func deliver(_ processed: UnsafePointer<Processed>, bytes: UnsafeRawBufferPointer, _ state: inout State)
        {
            guard !processed.pointee.notAPhoto else {
                state.progress.advance()
                return state.summary.addNotAPhoto()
            }
            // The map's title counts every file read, also those a filter leaves out.
            if output.format.isMap { state.map.records += 1 }
            let status = processed.pointee.record.reading.status
            switch status {
            case .located: break
            case .noGPS, .invalidGPS: state.outcome.sawUnlocated = true
            case .error: state.outcome.sawError = true
            }
            // phototag tag: a sidecar not written is an error of the run, said on stderr.
            if let tagging = processed.pointee.record.tagging, tagging.action == .failed {
                state.outcome.sawError = true
                if !output.quiet {
                    let path = tagging.path ?? processed.pointee.record.file
                    diagnose("phototag: \(quotedForTerminal(path)): \(tagging.error ?? "not written")\n", state)
                }
            }
            let printed = processed.pointee.rendered != nil && !summaryOnly
            if !output.quiet {
                if let error = processed.pointee.record.reading.error {
                    // On a terminal that shows both streams, the error record already says it.
                    if !(printed && sharesTerminal) {
                        diagnose("phototag: \(quotedForTerminal(processed.pointee.record.file)): \(error)\n", state)
                    }
                } else if output.warnings == .summary {
                    let record = processed.pointee.record
                    state.warnings.add(record.warnings, file: quotedForTerminal(record.file))
                } else if output.format == .text || output.format == .exiftoolCSV, output.warnings == .all {
                    // Every warning of the record, as JSON and CSV have them (a sidecar that
                    // cannot be read beside a photo without GPS too), but, in text, an unusable
                    // GPS block's, which are in the record line itself. exiftool-csv has no
                    // column for them, nor a row for such a file.
                    let record = processed.pointee.record
                    let shown =
                        status == .invalidGPS && output.format == .text
                        ? record.sidecarWarnings + (record.time?.warnings.map(\.description) ?? [])
                        : record.warnings
                    for warning in shown {
                        diagnose("phototag: \(quotedForTerminal(record.file)): warning: \(warning)\n", state)
                    }
                }
            }
            // Counting takes the place's strings and a few dictionary updates per record, under
            // the lock: only when a summary will be written. Every record read is counted; a
            // filter changes only what is printed, and the summary says how many it kept.
            if output.summary {
                state.summary.add(processed.pointee.record, kept: processed.pointee.rendered != nil)
            }
            if output.format.isMap, status == .located { state.map.located += 1 }
            if let rendered = processed.pointee.rendered {
                if output.format.isMap, let point = processed.pointee.point { state.map.points.append(point) }
                if printed {
                    if sharesTerminal { state.progress.hide() }
                    state.emitter.emit(rendered, to: state.context.output, batch: bytes)
                }
            }
            state.progress.advance(located: status == .located)
        }

        /// Writes a line to stderr, with the progress bar out of its way; holding the lock.
        private func diagnose(_ line: String, _ state: State) {
            state.progress.hide()
            state.context.errors.write(line)
        }

        /// Reports an entry a scan skips (a link loop, a file read already) on stderr, as a
        /// warning: `--warnings` says whether it is shown, counted or dropped.
        func skipped(_ path: String, reason: String) {
            switch output.warnings {
            case .all: note("\(path): \(reason)")
            case .summary: state.withLock { $0.warnings.add([reason], file: path) }
            case .none: break
            }
        }

        /// Reports something about the run (an unreadable list) on stderr, unless `--quiet`.
        func note(_ text: String) {
            state.withLock { state in
                guard !output.quiet else { return }
                diagnose("phototag: \(text)\n", state)
                state.context.errors.flush()
                state.progress.show()
            }
        }

        /// Whether standard output's reader has gone (a closed pipe), or a signal asked for a stop
        /// (`StopRequest`): the producer then starts no more files.
        var shouldStop: Bool { StopRequest.isRequested || state.withLock { $0.context.output.isClosed } }

        /// Tells the progress bar how many files the walk has found so far.
        func found(_ count: Int, final: Bool) {
            state.withLock { state in
                state.progress.total = count
                state.progress.totalIsFinal = final
            }
        }

        /// Writes the footer or the summary, and returns how the run went.
        func end() -> Outcome {
            state.withLock { state in
                state.progress.finish()
                if !self.output.quiet { state.context.errors.write(state.warnings.lines()) }
                let output = state.context.output
                if summaryOnly {
                    // In the format's form: JSON for json and ndjson (--summary-file -), text otherwise.
                    let json = self.output.format == .json || self.output.format == .ndjson
                    output.write(json ? state.summary.json() : state.summary.text())
                } else {
                    output.write(state.emitter.formatter.footer(count: state.emitter.count))
                    if self.output.format.isMap {
                        output.write(
                            state.map.render(
                                self.output.format, noun: ("file", "files"), directory: MapOutput.workingDirectory()))
                    }
                    if self.output.summary {
                        // Not after a failed write: the summary would count records that were lost.
                        output.flush()
                        if output.writeError == nil, !state.summary.report(self.output, errors: state.context.errors) {
                            state.outcome.sawError = true
                        }
                    }
                }
                return state.outcome
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
}

extension SelectionOptions {
    /// Whether the filters let a record through: `--with-gps` keeps located photos only,
    /// `--without-gps` the others (errors too: they have no usable position), `--near`/`--within`
    /// located photos by distance from `coordinate` (the record's position); and GeoJSON, which
    /// is for maps, holds only located photos unless `--all-records` asks for the null-geometry
    /// features too; exiftool-csv holds only the files it has something to write into
    /// (``PhotoTags``). A record left out is still on stderr when it is an error, still sets the
    /// exit status, and is still counted by the summary.
    func keeps(_ record: PhotoRecord, at coordinate: Coordinate?, format: OutputFormat) -> Bool {
        let status = record.reading.status
        switch gpsFilter {
        case .all: break
        case .withGPS: if status != .located { return false }
        case .withoutGPS: if status == .located { return false }
        }
        if let near, let within {
            guard status == .located, let coordinate, near.distanceKm(to: coordinate) <= within else { return false }
        }
        if format == .exiftoolCSV { return PhotoTags(record, allPositions: allPositions) != nil }
        return format != .geojson || allRecords || status == .located
    }
}
