import PhotoTagSupport

/// Where a command writes its bytes: standard output or error, or memory in tests.
public protocol OutputSink: AnyObject {
    /// Queues bytes for writing. Once the sink is closed (the reader has gone, or a write
    /// failed), this does nothing.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// Writes out everything queued.
    func flush()
    /// Whether nothing more can be written: the reader has gone (`EPIPE`) or a write failed
    /// (see ``writeError``). Commands stop early when it is.
    var isClosed: Bool { get }
    /// The `errno` of a failed write other than `EPIPE` (a full disk, `/dev/full`, an I/O
    /// error), which the run reports and ends with exit status 2; `nil` while all is well and
    /// after a closed pipe, which ends the run quietly.
    var writeError: Int32? { get }
    /// Whether this is a terminal (colours, progress bars).
    var isTerminal: Bool { get }
    /// Whether this and `other` are the same terminal, as when a command's standard output and
    /// standard error both go to the screen: then records and diagnostics share its lines.
    func isSameTerminal(as other: OutputSink) -> Bool
}

/// The defaults, for sinks in memory (tests).
extension OutputSink {
    /// Memory cannot fail.
    public var writeError: Int32? { nil }

    /// The same sink on a terminal: one `MemorySink(isTerminal: true)` given as both streams.
    public func isSameTerminal(as other: OutputSink) -> Bool { isTerminal && self === other }
}

extension OutputSink {
    func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }
    func write(_ text: String) { write(Array(text.utf8)) }
}

/// A file descriptor with a 64 KiB buffer.
///
/// A failed write closes the sink and drops further output, so the run stops early. `EPIPE`
/// (most often from `phototag … | head`, with `SIGPIPE` ignored) ends the run quietly; any other
/// error is kept in ``writeError`` for `PhotoTag.run` to report.
public final class FileSink: OutputSink {
    /// The file descriptor written to.
    public let descriptor: Int32
    /// What is written and not yet flushed. (No run-time exclusivity checks on it and
    /// ``isClosed``: they cost a thread-local lookup per record, and every access is a plain
    /// read or write of the sink's own, which its user serializes.)
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Whether a write failed or the reader went away (see ``OutputSink/isClosed``).
    @exclusivity(unchecked) public private(set) var isClosed = false
    /// The `errno` of a failed write other than `EPIPE` (see ``OutputSink/writeError``).
    public private(set) var writeError: Int32?
    /// Whether the descriptor is a terminal (`isatty(3)`).
    public let isTerminal: Bool
    /// The device and inode of the terminal this is, to tell whether two descriptors are the same one.
    private let terminal: (device: UInt64, inode: UInt64)?

    /// A sink writing to `descriptor` (1 for standard output, 2 for standard error), which it
    /// does not close.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        isTerminal = refersToTerminal(descriptor)
        terminal = isTerminal ? (try? fileStatus(descriptor: descriptor)).map { ($0.device, $0.inode) } : nil
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    /// Whether `other` is a file sink on the same terminal device (the same device and inode).
    public func isSameTerminal(as other: OutputSink) -> Bool {
        guard let terminal, let theirs = (other as? FileSink)?.terminal else { return false }
        return terminal == theirs
    }

    /// Buffers `bytes`, writing the buffer out when it reaches 64 KiB; a block of 64 KiB or
    /// more is written out directly.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        guard bytes.count < 1 << 16 else {
            // A big block (a batch of geocode records) goes out as it is, not through the buffer.
            flush()
            writeOut(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes the buffer out with `write(2)`, whole, retrying interrupted and partial writes.
    public func flush() {
        guard !isClosed else { return }
        buffer.withUnsafeBytes { writeOut($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `bytes` out whole; a failed write closes the sink (see ``writeError``).
    private func writeOut(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        let code = writeAll(descriptor, bytes)
        guard code != 0 else { return }
        isClosed = true
        if code != SystemError.brokenPipe.code { writeError = code }
    }
}

/// Collects output in memory, for tests.
public final class MemorySink: OutputSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the sink plays a terminal (for tests of colours and progress bars).
    public let isTerminal: Bool
    /// Never: memory takes every write.
    public var isClosed: Bool { false }

    /// An empty sink, playing a terminal when `isTerminal` is true.
    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    /// Appends `bytes` to ``bytes``.
    public func write(_ bytes: UnsafeRawBufferPointer) { self.bytes += bytes }
    /// Nothing to do: every write is already in ``bytes``.
    public func flush() {}

    /// The output decoded as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
