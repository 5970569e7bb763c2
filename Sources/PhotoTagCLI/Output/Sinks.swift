import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    private var buffer: [UInt8] = []
    public private(set) var isClosed = false
    public private(set) var writeError: Int32?
    public let isTerminal: Bool
    /// The device and inode of the terminal this is, to tell whether two descriptors are the same one.
    private let terminal: (device: UInt64, inode: UInt64)?

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        isTerminal = isatty(descriptor) == 1
        var info = stat()
        terminal =
            isTerminal && fstat(descriptor, &info) == 0 ? (UInt64(info.st_dev), UInt64(info.st_ino)) : nil
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func isSameTerminal(as other: OutputSink) -> Bool {
        guard let terminal, let theirs = (other as? FileSink)?.terminal else { return false }
        return terminal == theirs
    }

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
        if code != EPIPE { writeError = code }
    }
}

/// Collects output in memory, for tests.
public final class MemorySink: OutputSink {
    public private(set) var bytes: [UInt8] = []
    public let isTerminal: Bool
    public var isClosed: Bool { false }

    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    public func write(_ bytes: UnsafeRawBufferPointer) { self.bytes += bytes }
    public func flush() {}

    /// The output decoded as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
