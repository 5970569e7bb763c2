import PhotoTagSupport
import Synchronization

/// A one-line progress bar on standard error: files done of total, how many were located, the
/// rate, the time elapsed and the time left:
///
///     [#########...........] 4,512/10,000 files  3,900 located  1,504/s  0:03  ETA 0:04
///
/// While a scan's walk is still finding files, the total is not final and the bar is a count
/// (`4,512 of 6,000+ files …`, no ETA). The line is kept within 80 columns, the least a terminal
/// has: when the numbers grow, the rate goes first, then the time elapsed.
///
/// It appears only once a run has lasted half a second (short runs stay silent), redraws at most
/// ten times a second, and erases itself at the end, so it never mixes with the output. Whoever
/// writes to the same terminal while the bar is up (a diagnostic, or a record when standard
/// output is that terminal too) calls ``hide()`` first and ``show()`` after, so the bar's text
/// never ends up inside a line. A bar on a file descriptor is also erased when the run is
/// interrupted (`SIGINT`, `SIGTERM`).
///
/// On a terminal that knows `ESC [ K` (erase to the end of the line), the bar is redrawn after
/// `\r` and that; on a `dumb` one (``plain``), it is padded with spaces over the previous one and
/// erased with spaces.
final class ProgressBar {
    private let sink: OutputSink
    private let enabled: Bool
    /// Whether the terminal is `dumb`: no escape sequences, spaces instead.
    private let plain: Bool
    /// How long a run must last before the bar appears, in seconds.
    private let delay: Double
    /// The clock, in seconds (tests give their own).
    private let clock: () -> Double
    private let start: Double
    private var lastDraw = 0.0
    /// How many columns the bar on screen takes; 0 while none is shown.
    private var shownWidth = 0
    /// Whether a caller is writing to the terminal (between ``hide()`` and ``show()``).
    private var held = false
    private(set) var done = 0
    /// How many of the files done were located.
    private(set) var located = 0
    /// The number of files to do, once known (the walk may still be finding them).
    var total = 0
    var totalIsFinal = false

    init(
        sink: OutputSink, enabled: Bool, plain: Bool = false, delay: Double = 0.5,
        clock: @escaping () -> Double = monotonicSeconds
    ) {
        self.sink = sink
        self.enabled = enabled
        self.plain = plain
        self.delay = delay
        self.clock = clock
        start = clock()
    }

    /// The widest line drawn: a terminal has at least 80 columns, and a line that wraps cannot
    /// be erased with `\r`.
    static let maximumWidth = 79

    /// Whether a terminal with this environment takes plain progress: `TERM=dumb` knows no escapes.
    static func isPlain(_ environment: Environment) -> Bool { environment.variables["TERM"] == "dumb" }

    private var shown: Bool { shownWidth > 0 }

    /// Counts one file done (`located` when it has a position); redraws when it is time to and
    /// nobody is writing to the terminal.
    func advance(located: Bool = false) {
        done += 1
        if located { self.located += 1 }
        guard !held else { return }
        drawIfDue()
    }

    private func drawIfDue() {
        guard enabled else { return }
        let now = clock()
        guard now - start >= delay, now - lastDraw >= 0.1 else { return }
        lastDraw = now
        draw(now)
    }

    private func draw(_ now: Double) {
        let text = Self.line(
            done: done, total: total, totalIsFinal: totalIsFinal, located: located, elapsed: now - start)
        let width = text.count
        var line = "\r"
        if plain {
            // Spaces over what is left of a longer bar before.
            line += text + String(repeating: " ", count: max(0, shownWidth - width))
        } else {
            line += "\u{1B}[K" + text
        }
        // The interrupt handler may run on another thread; once it has erased the bar, no thread
        // draws it again (the gate), and while a bar is being written it waits for the write.
        let onDescriptor = sink is FileSink
        if onDescriptor, !InterruptEraser.gate.beginDrawing() { return }
        defer { if onDescriptor { InterruptEraser.gate.endDrawing() } }
        shownWidth = max(width, 1)
        // Armed before the bar is written: a signal in between only erases a line already clear,
        // while one just after the write finds the eraser ready.
        armEraser()
        sink.write(line)
        sink.flush()
    }

    /// The bar's text (see ``ProgressBar``).
    static func line(done: Int, total: Int, totalIsFinal: Bool, located: Int, elapsed: Double) -> String {
        let rate = Double(done) / max(elapsed, 1e-9)
        var counts: String
        if totalIsFinal, total > 0 {
            let width = 20
            let filled = min(width, width * done / total)
            counts =
                "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                + "] \(grouped(done))/\(grouped(total)) files"
        } else {
            counts = "\(grouped(done)) of \(grouped(max(total, done)))\(totalIsFinal ? "" : "+") files"
        }
        counts += "  \(grouped(located)) located"
        var eta = ""
        if totalIsFinal, rate > 0, total > done {
            eta = "  ETA " + clockText(Int((Double(total - done) / rate).rounded(.up)))
        }
        let rateText = "  \(grouped(Int(rate.rounded())))/s", elapsedText = "  " + clockText(Int(elapsed))
        for candidate in [counts + rateText + elapsedText + eta, counts + elapsedText + eta, counts + eta] {
            if candidate.count <= maximumWidth { return candidate }
        }
        return counts
    }

    /// `0:07`, `12:34`, `1:02:03`: a time in seconds as a clock shows it.
    static func clockText(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        return hours > 0
            ? "\(hours):\(zeroPadded(minutes, 2)):\(zeroPadded(rest, 2))" : "\(minutes):\(zeroPadded(rest, 2))"
    }

    /// The bytes that erase the bar on screen.
    private var eraser: String {
        plain ? "\r" + String(repeating: " ", count: shownWidth) + "\r" : "\r\u{1B}[K"
    }

    /// Erases the bar, if it is shown, and keeps it off until ``show()``: the caller is about to
    /// write a line to the same terminal.
    func hide() {
        held = true
        erase()
    }

    /// Lets the bar be drawn again, and draws it now if it is time to.
    func show() {
        held = false
        drawIfDue()
    }

    /// Erases the bar for good.
    func finish() {
        held = true
        erase()
    }

    private func erase() {
        guard shown else { return }
        // Disarmed after the erasing bytes are out: a signal in between erases twice, harmlessly.
        sink.write(eraser)
        sink.flush()
        disarmEraser()
        shownWidth = 0
    }

    /// Hands the signal handler the bytes that erase the bar on screen, when it is on a file
    /// descriptor (not in memory, in tests).
    private func armEraser() {
        guard let descriptor = (sink as? FileSink)?.descriptor else { return }
        InterruptEraser.arm(descriptor: descriptor, bytes: Array(eraser.utf8))
    }

    private func disarmEraser() {
        guard sink is FileSink else { return }
        InterruptEraser.disarm()
    }
}

/// Erases a progress bar that is on screen when a second `SIGINT` or `SIGTERM` ends the run at
/// once (the first asks for an orderly stop, which erases the bar as any end does: see
/// `StopRequest`), before the signal ends the process as it would have (exit status 128 + the
/// signal's number in a shell).
///
/// The handler may only call async-signal-safe functions (`write(2)`, `signal(2)`, `raise(3)`)
/// and read memory: the bar leaves the descriptor and the erasing bytes in fixed memory, in two
/// slots, and one control word (an aligned 8-byte store, which a signal cannot split) saying which
/// slot holds the bytes and how many there are, 0 while no bar is shown. Arming writes the slot
/// not in use, then switches the word, so a signal at any moment finds a whole eraser.
enum InterruptEraser {
    // Written only while the bar is drawn or erased, under the photo run's lock; read by the
    // handler. Guarded by PhotoTagCLITests/ConcurrencyInvariantTests.aProgressBarDrawnByEightWorkersKeepsItsEraserConsistent.
    /// The descriptor (an `Int32`), the control word at 8 (the count, and the slot in bit 32),
    /// then two slots of ``capacity`` bytes.
    private nonisolated(unsafe) static let state: UnsafeMutableRawPointer = {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16 + 2 * capacity, alignment: 8)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 16 + 2 * capacity)
        return memory
    }()
    private static let capacity = 120
    /// Keeps the bar's drawing and the handler's erasing in order across threads.
    static let gate = DrawGate()

    /// Makes the handler write `bytes` to `descriptor` (on a signal) from now on.
    static func arm(descriptor: Int32, bytes: [UInt8]) {
        let memory = state
        let control = memory.load(fromByteOffset: 8, as: Int.self)
        let slot = control & 0xFFFF_FFFF == 0 ? 0 : 1 - (control >> 32) & 1
        let count = min(bytes.count, capacity)
        bytes.withUnsafeBytes {
            (memory + 16 + slot * capacity).copyMemory(from: $0.baseAddress!, byteCount: count)
        }
        memory.storeBytes(of: descriptor, as: Int32.self)
        memory.storeBytes(of: count | slot << 32, toByteOffset: 8, as: Int.self)
    }

    /// Has a second `SIGINT` or `SIGTERM` erase the bar before it ends the process, and the first
    /// ask for an orderly stop (`StopRequest`); the executable calls it once, first.
    static func install() {
        _ = (state, gate)  // made now, not first in the handler
        StopRequest.install(beforeEnding: eraseOnSignal)
    }

    /// No bar is shown: the handler writes nothing.
    static func disarm() {
        state.storeBytes(of: 0, toByteOffset: 8, as: Int.self)
    }

    /// From the signal handler, before it ends the process: erase the bar on screen.
    fileprivate static func erase() {
        // No bar is drawn after this one is erased; a bar being written now is waited for (a
        // tenth of a second at most: a write blocked on a stalled terminal does not hold up the
        // end), so the erasing bytes come after it.
        gate.close(waitingUpTo: 100)
        let memory = state
        let control = memory.load(fromByteOffset: 8, as: Int.self)
        let count = control & 0xFFFF_FFFF, slot = (control >> 32) & 1
        guard count > 0 else { return }
        let descriptor = memory.load(as: Int32.self)
        writeOnce(descriptor, UnsafeRawBufferPointer(start: memory + 16 + slot * capacity, count: count))
    }
}

/// What the stop handler calls before a second signal ends the process.
private func eraseOnSignal() {
    InterruptEraser.erase()
}

/// Orders the progress bar's drawing, on whichever thread delivers records, against the interrupt
/// handler's erasing, on whichever thread the signal lands: without it a thread could draw the bar
/// again between the handler's erasing and the end of the process, leaving it on screen.
///
/// A drawing thread announces itself, then looks whether the gate is closed; the handler closes
/// the gate, then looks whether a thread is drawing. Both are sequentially consistent atomics, so
/// at least one of them sees the other: either the bar is not drawn, or the handler waits until
/// it is out and erases it after. Only atomic loads and stores and `nanosleep(2)`: safe in a
/// signal handler. The handler does not wait for its own thread (interrupted mid-draw, it ends
/// the process before the bar is written, or erases it if it was).
final class DrawGate: Sendable {
    private let closed = Atomic<Bool>(false)
    /// The thread drawing the bar, 0 when none is.
    private let drawing = Atomic<UInt>(0)

    /// Marks this thread as drawing; false when the gate is closed (and then it does not draw).
    func beginDrawing() -> Bool {
        drawing.store(currentThreadID(), ordering: .sequentiallyConsistent)
        guard !closed.load(ordering: .sequentiallyConsistent) else {
            drawing.store(0, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// This thread's bar is written.
    func endDrawing() {
        drawing.store(0, ordering: .sequentiallyConsistent)
    }

    /// Closes the gate for good, then waits up to `milliseconds` for another thread's bar to be
    /// written.
    func close(waitingUpTo milliseconds: Int) {
        closed.store(true, ordering: .sequentiallyConsistent)
        let me = currentThreadID()
        for _ in 0..<milliseconds {
            let thread = drawing.load(ordering: .sequentiallyConsistent)
            guard thread != 0, thread != me else { return }
            sleep(nanoseconds: 1_000_000)
        }
    }
}
