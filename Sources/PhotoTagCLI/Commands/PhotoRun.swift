import PhotoGPS
import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Context {
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
}

extension SelectionOptions {
    /// Whether a record is written in `format`: GeoJSON is for maps, so it holds only located
    /// photos unless `--all-records` asks for the null-geometry features too.
    func keeps(_ record: PhotoRecord, format: OutputFormat) -> Bool {
        format != .geojson || allRecords || record.reading.status == .located
    }
}
