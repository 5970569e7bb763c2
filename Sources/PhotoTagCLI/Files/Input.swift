import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    public private(set) var failure: Int32 = 0

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        owned = false
    }

    /// Opens the file at `path` for reading; a folder is refused with `EISDIR`.
    init(path: [UInt8]) throws(ListFileError) {
        let descriptor = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ListFileError(code: errno) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw ListFileError(code: EISDIR)
        }
        self.descriptor = descriptor
        owned = true
    }

    deinit { if owned { close(descriptor) } }

    public func read(upTo count: Int) -> [UInt8] {
        guard failure == 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let got = readRetrying(descriptor, buffer.baseAddress, count)
            initialized = max(got, 0)
            if got < 0 { failure = errno }
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
    public private(set) var failure: Int32 = 0

    public init(_ text: String, chunk: Int = .max, failure: Int32 = 0) {
        bytes = Array(text.utf8)
        self.chunk = chunk
        failureAtEnd = failure
    }

    public func read(upTo count: Int) -> [UInt8] {
        let end = min(bytes.count, position + min(count, chunk))
        defer { position = end }
        if position == end { failure = failureAtEnd }
        return Array(bytes[position..<end])
    }
}

/// The environment variables phototag looks at.
public struct Environment: Sendable {
    public var variables: [String: String]

    public init(_ variables: [String: String] = [:]) { self.variables = variables }

    /// This process's environment.
    public static var current: Environment {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return Environment(variables)
    }

    /// Whether text output may be coloured on a terminal: not with `NO_COLOR` (any non-empty
    /// value, see no-color.org) or a `dumb` terminal.
    var allowsColor: Bool {
        (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
    }
}
