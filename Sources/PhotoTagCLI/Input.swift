#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `geocode` reads lines from: standard input, or memory in tests.
public protocol InputSource: AnyObject {
    /// Reads up to `count` bytes; an empty result is the end of input.
    func read(upTo count: Int) -> [UInt8]
}

/// A file descriptor read with `read(2)`.
public final class FileInput: InputSource {
    private let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public func read(upTo count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while true {
                #if canImport(Glibc)
                    let got = Glibc.read(descriptor, buffer.baseAddress, count)
                #else
                    let got = Darwin.read(descriptor, buffer.baseAddress, count)
                #endif
                if got >= 0 {
                    initialized = got
                    return
                }
                if errno != EINTR {
                    initialized = 0
                    return
                }
            }
        }
    }
}

/// Bytes in memory, handed out in pieces of at most `chunk` bytes (to test line splitting).
public final class MemoryInput: InputSource {
    private let bytes: [UInt8]
    private var position = 0
    private let chunk: Int

    public init(_ text: String, chunk: Int = .max) {
        bytes = Array(text.utf8)
        self.chunk = chunk
    }

    public func read(upTo count: Int) -> [UInt8] {
        let end = min(bytes.count, position + min(count, chunk))
        defer { position = end }
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
