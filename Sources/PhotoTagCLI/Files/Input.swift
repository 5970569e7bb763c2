import PhotoTagSupport

/// Where `geocode`, `locate -` and `--files-from` read: standard input, a list file, or memory
/// in tests.
public protocol InputSource: AnyObject {
    /// Reads up to `count` bytes; an empty result is the end of input, or a read error
    /// (``failure``).
    func read(upTo count: Int) -> [UInt8]
    /// The `errno` of the read that failed and ended the input, or 0: a read error is reported,
    /// never taken for the end of the input.
    var failure: Int32 { get }
}

/// A file descriptor read with `read(2)`.
public final class FileInput: InputSource {
    private let descriptor: Int32
    /// Whether the descriptor is closed with the input (a list file phototag opened).
    private let owned: Bool
    /// The `errno` of the read that failed, or 0 (see ``InputSource/failure``).
    public private(set) var failure: Int32 = 0

    /// Reads `descriptor` (standard input: 0), which stays open when the input is done.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        owned = false
    }

    /// Opens the file at `path` for reading; a folder is refused with `EISDIR`.
    init(path: [UInt8]) throws(ListFileError) {
        let descriptor: Int32
        do { descriptor = try openForReading(path) } catch { throw ListFileError(code: error.code) }
        if (try? fileStatus(descriptor: descriptor))?.isDirectory == true {
            closeFile(descriptor)
            throw ListFileError(code: SystemError.isADirectory.code)
        }
        self.descriptor = descriptor
        owned = true
    }

    deinit { if owned { closeFile(descriptor) } }

    /// Up to `count` bytes from one `read(2)`; empty at the end, after a failed read, or when a
    /// stop (`SIGINT`, `SIGTERM`) interrupted the read.
    public func read(upTo count: Int) -> [UInt8] {
        guard failure == 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(SystemError) {
                initialized = try readSome(descriptor, into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                initialized = 0
                // A read that a stop interrupted is the end of the input, not a read error.
                if error.code != SystemError.interrupted.code || !StopRequest.isRequested { failure = error.code }
            }
        }
    }
}

/// Bytes in memory, handed out in pieces of at most `chunk` bytes (to test line splitting), then,
/// with `failure`, a read error instead of the end.
public final class MemoryInput: InputSource {
    private let bytes: [UInt8]
    private var position = 0
    private let chunk: Int
    private let failureAtEnd: Int32
    /// `failure` of the initializer once every byte has been handed out, 0 until then.
    public private(set) var failure: Int32 = 0

    /// The UTF-8 of `text`, in pieces of at most `chunk` bytes, ending with the read error
    /// `failure` (an `errno`; 0 for a clean end).
    public init(_ text: String, chunk: Int = .max, failure: Int32 = 0) {
        bytes = Array(text.utf8)
        self.chunk = chunk
        failureAtEnd = failure
    }

    /// The next piece: at most `count` bytes and at most one chunk; empty at the end.
    public func read(upTo count: Int) -> [UInt8] {
        let end = min(bytes.count, position + min(count, chunk))
        defer { position = end }
        if position == end { failure = failureAtEnd }
        return Array(bytes[position..<end])
    }
}

/// The environment variables phototag looks at.
public struct Environment: Sendable {
    /// The variables by name.
    public var variables: [String: String]

    /// An environment holding `variables` (tests give their own; the tool gives ``current``).
    public init(_ variables: [String: String] = [:]) { self.variables = variables }

    /// This process's environment.
    public static var current: Environment {
        Environment(environmentVariables())
    }

    /// Whether text output may be coloured on a terminal: not with `NO_COLOR` (any non-empty
    /// value, see no-color.org) or a `dumb` terminal.
    var allowsColor: Bool {
        (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
    }
}
