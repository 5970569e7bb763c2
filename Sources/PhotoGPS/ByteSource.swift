import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random access to the bytes of a photo, so parsers read only the parts they need.
protocol ByteSource {
    /// The total length in bytes.
    var count: Int { get }
    /// Reads up to `length` bytes starting at `offset`; fewer only where the source ends.
    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8]
    /// Calls `body` with the bytes ``bytes(at:length:)`` returns, without copying them where the
    /// source is already in memory.
    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result
}

extension ByteSource {
    /// Reads the bytes (into an array) and calls `body` with them.
    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        let bytes = try bytes(at: offset, length: length)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(PhotoGPSError) in try body(buffer) }
    }
}

/// Bytes already in memory (tests, fuzzing, library callers that hold the data).
struct MemorySource: ByteSource {
    let storage: [UInt8]

    var count: Int { storage.count }

    func bytes(at offset: Int, length: Int) -> [UInt8] {
        guard offset >= 0, offset < storage.count, length > 0 else { return [] }
        return Array(storage[offset..<min(storage.count, offset + min(length, storage.count - offset))])
    }

    /// Calls `body` with the stored bytes themselves, as ``bytes(at:length:)`` would return them.
    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        try storage.withUnsafeBufferPointer { (all) throws(PhotoGPSError) in
            guard offset >= 0, offset < all.count, length > 0 else {
                return try body(UnsafeBufferPointer(start: nil, count: 0))
            }
            let end = offset + min(length, all.count - offset)
            return try body(UnsafeBufferPointer(rebasing: all[offset..<end]))
        }
    }
}

/// Bytes borrowed from memory that outlives the source (a segment read into a thread's
/// ``ReadBuffer``): read in place, never copied.
struct BufferSource: ByteSource {
    let buffer: UnsafeBufferPointer<UInt8>

    var count: Int { buffer.count }

    func bytes(at offset: Int, length: Int) -> [UInt8] { Array(slice(at: offset, length: length)) }

    /// Calls `body` with the bytes themselves, as ``bytes(at:length:)`` would return them.
    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        try body(slice(at: offset, length: length))
    }

    /// Up to `length` bytes from `offset`, fewer where the buffer ends; none outside it.
    private func slice(at offset: Int, length: Int) -> UnsafeBufferPointer<UInt8> {
        guard offset >= 0, offset < buffer.count, length > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: buffer[offset..<offset + min(length, buffer.count - offset)])
    }
}

/// A regular file read with `pread(2)`: no buffering, no mapping, nothing read ahead.
///
/// The type is checked with `stat(2)` before the file is opened, so a FIFO or a device is never
/// opened (opening a FIFO blocks; opening a device can have side effects), and again with
/// `fstat(2)` on the open descriptor in case the path changed in between.
final class FileSource: ByteSource {
    private let descriptor: Int32
    /// Whether the descriptor is closed with the source (not when the caller opened it).
    private let ownsDescriptor: Bool
    let count: Int
    /// One past the furthest byte any read has asked for: how much of the file was touched.
    private(set) var extent = 0
    /// How many bytes the reads have returned in all.
    private(set) var bytesRead = 0
    /// How many times the file itself was read (`pread(2)` calls, not counting a read's retries).
    private(set) var fileReads = 0
    /// The file's first bytes (up to 64), kept from a read at offset 0: identifying the
    /// container reads them, and a JPEG's first marker segments, read next, lie among them.
    private var head: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes of ``head`` are the file's.
    private var headCount = 0

    convenience init(path: String) throws(PhotoGPSError) {
        try self.init(cPath: path)
    }

    /// Opens a path given as a NUL-terminated C string (file names need not be UTF-8).
    init(cPath path: UnsafePointer<CChar>) throws(PhotoGPSError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(errno: errno) }
        if let kind = Self.irregularKind(info.st_mode) { throw .notARegularFile(kind: kind) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotOpen(errno: errno) }
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .cannotRead(errno: code)
        }
        if let kind = Self.irregularKind(info.st_mode) {
            close(descriptor)
            throw .notARegularFile(kind: kind)
        }
        self.descriptor = descriptor
        self.count = Int(info.st_size)
        ownsDescriptor = true
    }

    /// Reads through a descriptor the caller opened and closes, checked with `fstat(2)` as an
    /// opened path is.
    init(openedDescriptor descriptor: Int32) throws(PhotoGPSError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotRead(errno: errno) }
        if let kind = Self.irregularKind(info.st_mode) { throw .notARegularFile(kind: kind) }
        self.descriptor = descriptor
        self.count = Int(info.st_size)
        ownsDescriptor = false
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8] {
        let wanted = max(0, min(length, count - offset))
        guard offset >= 0, wanted > 0 else { return [] }
        extent = max(extent, offset + wanted)
        var failure: Int32 = 0
        let buffer = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            // Fewer bytes than wanted only when the file shrank since fstat.
            (initialized, failure) = preadFully(descriptor, buffer.baseAddress!, wanted, at: offset)
        }
        fileReads += 1
        if failure != 0 { throw .cannotRead(errno: failure) }
        bytesRead += buffer.count
        return buffer
    }

    /// Reads as ``bytes(at:length:)`` does; up to 64 bytes (a marker, a box header, a file's
    /// first bytes) go into a buffer on the stack, and up to 64 KiB (a JPEG's EXIF segment) into
    /// the thread's ``ReadBuffer`` when no other read is using it, not an array.
    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        let wanted = max(0, min(length, count - offset))
        guard offset >= 0, wanted > 0, wanted <= 64 else {
            if offset >= 0, wanted > 0, wanted <= ReadBuffer.capacity, let buffer = ReadBuffer.current {
                let outcome = try buffer.withMemory { (memory) throws(PhotoGPSError) -> Result? in
                    guard let memory else { return nil }
                    return try withBytes(at: offset, wanted: wanted, in: memory, body)
                }
                if let outcome { return outcome }
            }
            let bytes = try bytes(at: offset, length: length)
            return try bytes.withUnsafeBufferPointer { (buffer) throws(PhotoGPSError) in try body(buffer) }
        }
        extent = max(extent, offset + wanted)
        if offset + wanted <= headCount {
            // Among the first bytes, read already: no second read of the file.
            bytesRead += wanted
            return try Self.withBuffer(head, from: offset, count: wanted, body)
        }
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let (initialized, failure) = withUnsafeMutableBytes(of: &storage) { raw in
            // Fewer bytes than wanted only when the file shrank since fstat.
            preadFully(descriptor, raw.baseAddress!, wanted, at: offset)
        }
        fileReads += 1
        if failure != 0 { throw .cannotRead(errno: failure) }
        bytesRead += initialized
        if offset == 0 {
            head = storage
            headCount = initialized
        }
        return try Self.withBuffer(storage, from: 0, count: initialized, body)
    }

    /// Reads `wanted` bytes (more than 64, at most ``ReadBuffer/capacity``) at `offset` into
    /// `memory` and calls `body` with them, counting the read as ``bytes(at:length:)`` does.
    private func withBytes<Result>(
        at offset: Int, wanted: Int, in memory: UnsafeMutableRawPointer,
        _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        extent = max(extent, offset + wanted)
        // Fewer bytes than wanted only when the file shrank since fstat.
        let (initialized, failure) = preadFully(descriptor, memory, wanted, at: offset)
        fileReads += 1
        if failure != 0 { throw .cannotRead(errno: failure) }
        bytesRead += initialized
        return try body(
            UnsafeBufferPointer(start: memory.bindMemory(to: UInt8.self, capacity: wanted), count: initialized))
    }

    /// Calls `body` with `count` bytes of `storage` from byte `start`.
    private static func withBuffer<Result>(
        _ storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64), from start: Int, count: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        let outcome = withUnsafeBytes(of: storage) { raw in
            Swift.Result { () throws(PhotoGPSError) in
                try body(UnsafeBufferPointer(start: raw.bindMemory(to: UInt8.self).baseAddress! + start, count: count))
            }
        }
        return try outcome.get()
    }

    /// A name for a file type that is not a regular file, or `nil` for a regular file.
    static func irregularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "directory"
        case S_IFIFO: "FIFO"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        case S_IFSOCK: "socket"
        default: "unknown type"
        }
    }
}

/// Whole streams read into memory: what cannot be read with `pread(2)` (a pipe, a FIFO, a
/// character device) is read to its end once, within a size limit, and parsed from memory.
enum StreamReading {
    /// Whether a file type from ``FileSource/irregularKind(_:)`` is read as a stream: FIFOs and
    /// character devices (`/dev/stdin`), never folders, block devices or sockets.
    static func reads(_ kind: String) -> Bool { kind == "FIFO" || kind == "character device" }

    /// Reads `descriptor` to its end; past `limit` bytes, stops and throws ``PhotoGPSError/tooLarge(source:limit:)``
    /// with `name` as the source.
    static func readAll(_ descriptor: Int32, limit: Int, name: String) throws(PhotoGPSError) -> [UInt8] {
        let read: (bytes: [UInt8], truncated: Bool)
        do {
            read = try readToEnd(descriptor, limit: limit)
        } catch {
            throw .cannotRead(errno: error.code)
        }
        if read.truncated { throw .tooLarge(source: name, limit: limit) }
        return read.bytes
    }
}
