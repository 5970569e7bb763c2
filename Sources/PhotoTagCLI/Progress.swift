#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A one-line progress bar on standard error: files done of total, rate and time left.
///
/// It appears only once a run has lasted half a second (short runs stay silent), redraws at most
/// ten times a second, and erases itself at the end, so it never mixes with the output.
final class ProgressBar {
    private let sink: OutputSink
    private let enabled: Bool
    /// How long a run must last before the bar appears, in seconds.
    private let delay: Double
    private let start = monotonicSeconds()
    private var lastDraw = 0.0
    private var shown = false
    private(set) var done = 0
    /// The number of files to do, once known (the walk may still be finding them).
    var total = 0
    var totalIsFinal = false

    init(sink: OutputSink, enabled: Bool, delay: Double = 0.5) {
        self.sink = sink
        self.enabled = enabled
        self.delay = delay
    }

    func advance() {
        done += 1
        guard enabled else { return }
        let now = monotonicSeconds()
        guard now - start >= delay, now - lastDraw >= 0.1 || !shown else { return }
        lastDraw = now
        draw(now)
    }

    private func draw(_ now: Double) {
        let elapsed = now - start
        let rate = Double(done) / max(elapsed, 1e-9)
        var line = "\r\u{1B}[K\(grouped(done)) of \(grouped(max(total, done)))\(totalIsFinal ? "" : "+") files"
        if totalIsFinal, total > 0 {
            let width = 24
            let filled = min(width, width * done / total)
            line =
                "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                + "] \(grouped(done))/\(grouped(total)) files"
        }
        line += "  \(grouped(Int(rate)))/s"
        if totalIsFinal, rate > 0, total > done {
            let remaining = Int((Double(total - done) / rate).rounded(.up))
            line += "  ETA \(remaining / 60):\(pad(remaining % 60, 2))"
        }
        sink.write(line)
        sink.flush()
        shown = true
    }

    /// Erases the bar.
    func finish() {
        guard shown else { return }
        sink.write("\r\u{1B}[K")
        sink.flush()
        shown = false
    }
}
