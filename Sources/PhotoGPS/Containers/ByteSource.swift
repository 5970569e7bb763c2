import PhotoTagSupport

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

/// What reading a file keeps between reads: how much was read, and the file's first bytes.
struct FileReadState {
    /// One past the furthest byte any read has asked for: how much of the file was touched.
    var extent = 0
    /// How many bytes the reads have returned in all.
    var bytesRead = 0
    /// How many times the file itself was read (`pread(2)` calls, not counting a read's retries).
    var fileReads = 0
    /// The file's first bytes (up to 64), kept from a read at offset 0: identifying the
    /// container reads them, and a JPEG's first marker segments, read next, lie among them.
    var head: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes of ``head`` are the file's.
    var headCount = 0
}

/// A regular file read with `pread(2)`: no buffering, no mapping, nothing read ahead.
///
/// The type is checked with `stat(2)` before the file is opened, so a FIFO or a device is never
/// opened (opening a FIFO blocks; opening a device can have side effects), and again with
/// `fstat(2)` on the open descriptor in case the path changed in between.
///
/// A value that owns nothing: the descriptor and the ``FileReadState`` belong to whoever made it,
/// ``FileSource`` (an object, for callers that keep a file) or ``withOpenedFile(cPath:_:)`` (for
/// the duration of a call, its state on the stack: reading a photo allocates no object).
struct FileBytes: ByteSource {
    let descriptor: Int32
    let count: Int
    /// The reads' bookkeeping, which outlives this value.
    let state: UnsafeMutablePointer<FileReadState>

    /// Opens the file at `path` (a NUL-terminated C string; file names need not be UTF-8), checked
    /// as the type says, and calls `body` with it; the file is closed when `body` returns.
    static func withOpenedFile<Result>(
        cPath path: UnsafePointer<CChar>, _ body: (FileBytes) -> Result
    ) throws(PhotoGPSError) -> Result {
        let (descriptor, count) = try open(cPath: path)
        defer { closeFile(descriptor) }
        return withState { body(FileBytes(descriptor: descriptor, count: count, state: $0)) }
    }

    /// Calls `body` with the regular file open at `descriptor` (the caller opened it and closes
    /// it), checked with `fstat(2)` as an opened path is.
    static func withOpenedFile<Result>(
        descriptor: Int32, _ body: (FileBytes) -> Result
    ) throws(PhotoGPSError) -> Result {
        let count = try size(ofOpened: descriptor)
        return withState { body(FileBytes(descriptor: descriptor, count: count, state: $0)) }
    }

    /// Calls `body` with a fresh ``FileReadState`` in temporary memory (on the stack).
    private static func withState<Result>(_ body: (UnsafeMutablePointer<FileReadState>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: FileReadState.self, capacity: 1) { memory in
            let state = memory.baseAddress!
            state.initialize(to: FileReadState())
            defer { state.deinitialize(count: 1) }
            return body(state)
        }
    }

    /// Opens a path for reading once `stat(2)` says it is a regular file, and checks again with
    /// `fstat(2)`: the descriptor (the caller closes it) and the file's size.
    static func open(cPath path: UnsafePointer<CChar>) throws(PhotoGPSError) -> (descriptor: Int32, count: Int) {
        let status: FileStatus
        do { status = try fileStatus(path) } catch { throw .cannotOpen(errno: error.code) }
        if let kind = FileSource.irregularKind(status.kind) { throw .notARegularFile(kind: kind) }
        let descriptor: Int32
        do { descriptor = try openForReading(path, nonBlocking: true) } catch { throw .cannotOpen(errno: error.code) }
        do {
            return (descriptor, try size(ofOpened: descriptor))
        } catch {
            closeFile(descriptor)
            throw error
        }
    }

    /// The size of the regular file open at `descriptor`, or an error when it is not one.
    static func size(ofOpened descriptor: Int32) throws(PhotoGPSError) -> Int {
        let status: FileStatus
        do { status = try fileStatus(descriptor: descriptor) } catch { throw .cannotRead(errno: error.code) }
        if let kind = FileSource.irregularKind(status.kind) { throw .notARegularFile(kind: kind) }
        return status.size
    }

    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8] {
        let wanted = max(0, min(length, count - offset))
        guard offset >= 0, wanted > 0 else { return [] }
        state.pointee.extent = max(state.pointee.extent, offset + wanted)
        var failure: Int32 = 0
        let buffer = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            // Fewer bytes than wanted only when the file shrank since fstat.
            (initialized, failure) = preadFully(descriptor, buffer.baseAddress!, wanted, at: offset)
        }
        state.pointee.fileReads += 1
        if failure != 0 { throw .cannotRead(errno: failure) }
        state.pointee.bytesRead += buffer.count
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
        state.pointee.extent = max(state.pointee.extent, offset + wanted)
        if offset + wanted <= state.pointee.headCount {
            // Among the first bytes, read already: no second read of the file.
            state.pointee.bytesRead += wanted
            return try Self.withBuffer(state.pointee.head, from: offset, count: wanted, body)
        }
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let (initialized, failure) = withUnsafeMutableBytes(of: &storage) { raw in
            // Fewer bytes than wanted only when the file shrank since fstat.
            preadFully(descriptor, raw.baseAddress!, wanted, at: offset)
        }
        state.pointee.fileReads += 1
        if failure != 0 { throw .cannotRead(errno: failure) }
        state.pointee.bytesRead += initialized
        if offset == 0 {
            state.pointee.head = storage
            state.pointee.headCount = initialized
        }
        return try Self.withBuffer(storage, from: 0, count: initialized, body)
    }

    /// Reads `wanted` bytes (more than 64, at most ``ReadBuffer/capacity``) at `offset` into
    /// `memory` and calls `body` with them, counting the read as ``bytes(at:length:)`` does.
    private func withBytes<Result>(
        at offset: Int, wanted: Int, in memory: UnsafeMutableRawPointer,
        _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        state.pointee.extent = max(state.pointee.extent, offset + wanted)
        // Fewer bytes than wanted only when the file shrank since fstat.
        let (initialized, failure) = preadFully(descriptor, memory, wanted, at: offset)
        state.pointee.fileReads += 1
        if failure != 0 { throw .cannotRead(errno: failure) }
        state.pointee.bytesRead += initialized
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

}

/// A regular file read as ``FileBytes`` reads it, kept open (and its bookkeeping kept) for as
/// long as this object lives: for callers that keep a file, and for tests that look at how much
/// was read.
final class FileSource: ByteSource {
    /// The reads; its state is this object's.
    private let file: FileBytes
    /// Whether the descriptor is closed with the source (not when the caller opened it).
    private let ownsDescriptor: Bool
    var count: Int { file.count }
    /// One past the furthest byte any read has asked for: how much of the file was touched.
    var extent: Int { file.state.pointee.extent }
    /// How many bytes the reads have returned in all.
    var bytesRead: Int { file.state.pointee.bytesRead }
    /// How many times the file itself was read (`pread(2)` calls, not counting a read's retries).
    var fileReads: Int { file.state.pointee.fileReads }

    convenience init(path: String) throws(PhotoGPSError) {
        try self.init(cPath: path)
    }

    /// Opens a path given as a NUL-terminated C string (file names need not be UTF-8).
    convenience init(cPath path: UnsafePointer<CChar>) throws(PhotoGPSError) {
        let (descriptor, count) = try FileBytes.open(cPath: path)
        self.init(descriptor: descriptor, count: count, owned: true)
    }

    /// Reads through a descriptor the caller opened and closes, checked with `fstat(2)` as an
    /// opened path is.
    convenience init(openedDescriptor descriptor: Int32) throws(PhotoGPSError) {
        self.init(descriptor: descriptor, count: try FileBytes.size(ofOpened: descriptor), owned: false)
    }

    private init(descriptor: Int32, count: Int, owned: Bool) {
        let state = UnsafeMutablePointer<FileReadState>.allocate(capacity: 1)
        state.initialize(to: FileReadState())
        file = FileBytes(descriptor: descriptor, count: count, state: state)
        ownsDescriptor = owned
    }

    deinit {
        if ownsDescriptor { closeFile(file.descriptor) }
        file.state.deinitialize(count: 1)
        file.state.deallocate()
    }

    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8] {
        try file.bytes(at: offset, length: length)
    }

    func withBytes<Result>(
        at offset: Int, length: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        try file.withBytes(at: offset, length: length, body)
    }

    /// A name for a file type that is not a regular file, or `nil` for a regular file.
    static func irregularKind(_ kind: FileStatus.Kind) -> String? {
        switch kind {
        case .regular: nil
        case .directory: "directory"
        case .fifo: "FIFO"
        case .characterDevice: "character device"
        case .blockDevice: "block device"
        case .socket: "socket"
        case .symbolicLink, .unknown: "unknown type"
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
