// The system calls phototag makes, each wrapped once: retried on EINTR, with errno turned into
// the text every message prints. In the manner of swift-system's Syscalls.swift, every module of
// the package goes through these rather than writing its own loop.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's text for an `errno`, with its first letter lowercased like every message
/// phototag prints (`no such file or directory`).
package func errnoText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    let message = String(cString: text)
    return message.prefix(1).lowercased() + message.dropFirst()
}

/// `read(2)` retried on EINTR, unless a stop has been asked for (``StopRequest``): the byte
/// count (0 at the end), or `-1` with `errno` set.
package func readRetrying(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
        #if canImport(Glibc)
            let got = Glibc.read(descriptor, buffer, count)
        #else
            let got = Darwin.read(descriptor, buffer, count)
        #endif
        if got >= 0 || errno != EINTR || StopRequest.isRequested { return got }
    }
}

/// `read(2)` into `buffer`, retried on EINTR: the byte count, 0 at the end.
package func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    let got = readRetrying(descriptor, buffer.baseAddress, buffer.count)
    guard got >= 0 else { throw SystemError(code: errno) }
    return got
}

/// One `write(2)` of `bytes`, neither retried nor waited on: what a signal handler may call.
/// The byte count, or -1 with `errno` set.
@discardableResult
package func writeOnce(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes.baseAddress, bytes.count)
    #else
        Darwin.write(descriptor, bytes.baseAddress, bytes.count)
    #endif
}

/// `pread(2)` until `count` bytes are in `buffer`, the file ends, or a read fails.
///
/// Returns the number of bytes read (fewer than `count` only at the end of the file) and the
/// `errno` of a failed read (0 when none failed).
package func preadFully(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int
) -> (count: Int, error: Int32) {
    var done = 0
    while done < count {
        let got = pread(descriptor, buffer + done, count - done, off_t(offset + done))
        if got > 0 {
            done += got
        } else if got == 0 {
            break
        } else if errno != EINTR {
            return (done, errno)
        }
    }
    return (done, 0)
}

/// Reads `descriptor` to its end, at most `limit` bytes: the bytes, and whether there was more
/// than `limit` (the extra byte that proves it is read and dropped).
///
/// Throws the `errno` of a failed read as ``SystemError``.
package func readToEnd(_ descriptor: Int32, limit: Int = .max) throws(SystemError) -> (bytes: [UInt8], truncated: Bool)
{
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let wanted = limit == .max ? chunk.count : min(chunk.count, limit + 1 - bytes.count)
        let got = chunk.withUnsafeMutableBytes { readRetrying(descriptor, $0.baseAddress, wanted) }
        if got > 0 {
            bytes += chunk[0..<got]
            if bytes.count > limit {
                bytes.removeLast(bytes.count - limit)
                return (bytes, true)
            }
        } else if got == 0 {
            return (bytes, false)
        } else {
            throw SystemError(code: errno)
        }
    }
}

/// `write(2)` until all of `bytes` is out: 0, or the `errno` of the write that failed.
///
/// A descriptor that another program left non-blocking (a terminal, a pipe) is waited on with
/// `poll(2)` rather than failing with EAGAIN. A write of 0 bytes for a non-empty buffer counts as
/// EIO: it wrote nothing and would do so again.
package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard var next = bytes.baseAddress else { return 0 }
    var left = bytes.count
    while left > 0 {
        #if canImport(Glibc)
            let result = Glibc.write(descriptor, next, left)
        #else
            let result = Darwin.write(descriptor, next, left)
        #endif
        if result > 0 {
            next += result
            left -= result
        } else if result < 0, errno == EINTR {
            continue
        } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, -1)
        } else {
            return result < 0 ? errno : EIO
        }
    }
    return 0
}

/// A failed system call's `errno`.
package struct SystemError: Error, Equatable, Sendable {
    /// The `errno` value.
    package var code: Int32

    /// Wraps an `errno` value.
    package init(code: Int32) { self.code = code }

    /// The C library's text for the error, lowercased (see ``errnoText(_:)``).
    package var text: String { errnoText(code) }

    /// `EINVAL`: an argument is not valid (a path with a NUL byte in it).
    package static let invalidArgument = SystemError(code: EINVAL)
    /// `EISDIR`: a folder where a file is wanted.
    package static let isADirectory = SystemError(code: EISDIR)
    /// `EINTR`: a signal interrupted the call.
    package static let interrupted = SystemError(code: EINTR)
    /// `EPIPE`: the reading end of a pipe is closed.
    package static let brokenPipe = SystemError(code: EPIPE)
    /// `ELOOP`: a symbolic link where `O_NOFOLLOW` asked for none (or too many links).
    package static let symbolicLinkLoop = SystemError(code: ELOOP)
    /// `ENOTDIR`: something other than a folder where `O_DIRECTORY` asked for one.
    package static let notADirectory = SystemError(code: ENOTDIR)
}

/// Calls `body` with a byte path as a NUL-terminated C string, written into temporary memory
/// (on the stack for any usual path) rather than an array: a scan asks for one per file.
package func withCPath<T, E: Error>(
    _ path: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) throws(E) -> T
) throws(E) -> T {
    let count = path.count
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) { (bytes) throws(E) -> T in
        let end = bytes.initialize(fromContentsOf: path)
        precondition(end == count, "a path's bytes changed while they were copied")
        bytes[count] = 0
        return try bytes.withMemoryRebound(to: CChar.self) { (characters) throws(E) -> T in
            try body(UnsafePointer(characters.baseAddress!))
        }
    }
}

/// The name of a directory entry, as bytes.
package func directoryEntryName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    withDirectoryEntryName(entry) { Array($0) }
}

/// Calls `body` with the name of a directory entry, borrowed where readdir(3) left it (valid
/// only during the call): a caller that keeps names in a buffer of its own makes no array per
/// entry.
///
/// The kernel sizes each entry to its name, so `d_name` must be read up to its NUL only: copying
/// the whole 256-byte array runs past the end of the last entry in readdir's buffer.
package func withDirectoryEntryName<T>(
    _ entry: UnsafeMutablePointer<dirent>, _ body: (UnsafeRawBufferPointer) -> T
) -> T {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    let name = (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)
    return body(UnsafeRawBufferPointer(start: name, count: strlen(name)))
}
