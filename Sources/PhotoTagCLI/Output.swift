#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes its bytes: standard output or error, or memory in tests.
public protocol OutputSink: AnyObject {
    /// Queues bytes for writing. Once the reader has gone away (a closed pipe), this does nothing.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// Writes out everything queued.
    func flush()
    /// Whether the reader has gone away (`EPIPE`); commands stop early when it has.
    var isClosed: Bool { get }
    /// Whether this is a terminal (colours, progress bars).
    var isTerminal: Bool { get }
}

extension OutputSink {
    func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }
    func write(_ text: String) { write(Array(text.utf8)) }
}

/// A file descriptor with a 64 KiB buffer.
///
/// A write error other than `EINTR` (most often `EPIPE` from `phototag … | head`, with `SIGPIPE`
/// ignored) marks the sink closed and drops further output, so the run ends quietly.
public final class FileSink: OutputSink {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    public private(set) var isClosed = false
    public let isTerminal: Bool

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        isTerminal = isatty(descriptor) == 1
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        guard bytes.count < 1 << 16 else {
            // A big block (a batch of geocode records) goes out as it is, not through the buffer.
            flush()
            writeAll(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        guard !isClosed else { return }
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `write(2)` until everything is out, or until the reader has gone.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var written = 0
        while written < bytes.count, !isClosed {
            let result = systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                isClosed = true
            }
        }
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

/// `write(2)`, named so that it does not clash with the sinks' own `write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}
