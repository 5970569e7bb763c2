import Dispatch
import ReverseGeocoding

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
        output.write(formatter.header())
        if !options.coordinates.isEmpty {
            run.process(options.coordinates.map { Line(number: nil, bytes: $0.bytes[...]) })
        } else {
            var pending: [UInt8] = []
            var number = 0
            while !output.isClosed {
                let chunk = input.read(upTo: 1 << 20)
                if chunk.isEmpty { break }
                pending += chunk
                guard let lastNewline = pending.lastIndex(of: 0x0A) else { continue }
                var lines: [Line] = []
                var start = 0
                while start <= lastNewline {
                    let end = pending[start...lastNewline].firstIndex(of: 0x0A)!
                    number += 1
                    lines.append(Line(number: number, bytes: pending[start..<end]))
                    start = end + 1
                }
                run.process(lines)
                pending.removeFirst(lastNewline + 1)
                output.flush()
            }
            if !pending.isEmpty {
                number += 1
                run.process([Line(number: number, bytes: pending[...])])
            }
        }
        output.write(formatter.footer(count: run.emitter.count))
        if run.rejected { return PhotoTag.ExitStatus.unreadable }
        return run.placeless ? PhotoTag.ExitStatus.notLocated : PhotoTag.ExitStatus.success
    }

    /// One input line (or argument) and its number on standard input.
    struct Line: Sendable {
        var number: Int?
        var bytes: ArraySlice<UInt8>
    }
}

/// The state of one `geocode` run: where the header is, what went wrong, the emitter.
struct GeocodeRun {
    let context: Context
    let options: GeocodeOptions
    let formatter: RecordFormatter
    let geocoder: ReverseGeocoder?
    let workers: Int
    var emitter: RecordEmitter
    /// Whether a line with content has been seen (the first one may be a header).
    var sawContent = false
    var rejected = false
    var placeless = false

    init(
        context: Context, options: GeocodeOptions, formatter: RecordFormatter, geocoder: ReverseGeocoder?, workers: Int
    ) {
        self.context = context
        self.options = options
        self.formatter = formatter
        self.geocoder = geocoder
        self.workers = workers
        emitter = RecordEmitter(formatter: formatter)
    }

    /// Parses, looks up, renders and writes a batch of lines, in order.
    mutating func process(_ lines: [Context.Line]) {
        // Drop blank lines and the header, serially (only the first line with content can be one).
        var kept: [Context.Line] = []
        kept.reserveCapacity(lines.count)
        for line in lines {
            let content = trimmed(line.bytes)
            if content.isEmpty { continue }
            if !sawContent, line.number != nil {
                sawContent = true
                if case .failure = parseCoordinate(content),
                    content.contains(where: { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
                {
                    continue  // a header such as "lat,lon" or "latitude<TAB>longitude"
                }
            }
            kept.append(line)
        }
        let results = render(kept)
        for (record, rendered) in results {
            if let error = record.error {
                rejected = true
                if !options.output.quiet {
                    let position = record.line.map { "line \($0): " } ?? ""
                    context.errors.write("phototag: \(position)\(error)\n")
                }
            } else if record.place.nearest == nil, !options.place.skip {
                placeless = true
            }
            context.output.write(emitter.emit(rendered))
        }
    }

    /// The records of `lines`, rendered; split across the cores when there are many lines.
    private func render(_ lines: [Context.Line]) -> [(CoordinateRecord, RecordFormatter.Rendered)] {
        let geocoder = geocoder, place = options.place, formatter = formatter
        @Sendable func one(_ line: Context.Line) -> (CoordinateRecord, RecordFormatter.Rendered) {
            var record = CoordinateRecord(line: line.number)
            switch parseCoordinate(line.bytes) {
            case .success(let coordinate):
                record.coordinate = coordinate
                record.place = place.lookUp(coordinate, in: geocoder)
            case .failure(let problem):
                record.error = problem.description
            }
            return (record, formatter.render(.coordinate(record)))
        }
        guard workers > 1, lines.count >= 2048 else { return lines.map(one) }
        let parts = workers
        let size = (lines.count + parts - 1) / parts
        let results = ResultSlots<(CoordinateRecord, RecordFormatter.Rendered)>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = min(lines.count, part * size)..<min(lines.count, (part + 1) * size)
            results.set(part, lines[range].map(one))
        }
        return results.joined()
    }
}

/// One slot per parallel part, each written by exactly one thread.
final class ResultSlots<T>: @unchecked Sendable {
    private var slots: [[T]]
    private let lock = Lock()

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ values: [T]) { lock.withLock { slots[index] = values } }

    func joined() -> [T] { lock.withLock { slots.flatMap { $0 } } }
}
