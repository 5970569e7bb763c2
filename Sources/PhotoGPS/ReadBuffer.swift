#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// 64 KiB of memory per thread that a file's larger reads (a JPEG's EXIF segment, an IFD's
/// table) go into instead of a new array each, so that reading photo after photo on one thread
/// reads them without allocating.
///
/// One read at a time uses it (``withMemory(_:)``); a read made while it is in use (a value
/// read inside an IFD's table) gets `nil` and reads into an array as before. What a read leaves
/// in the memory is only ever seen through the bytes it read.
final class ReadBuffer {
    /// How many bytes the buffer holds: as many as a JPEG segment can.
    static let capacity = 1 << 16
    /// The memory, allocated with the buffer.
    private let memory: UnsafeMutableRawPointer
    /// Whether a read is using the memory.
    @exclusivity(unchecked) private var inUse = false

    private init() {
        memory = UnsafeMutableRawPointer.allocate(byteCount: Self.capacity, alignment: 16)
    }

    deinit { memory.deallocate() }

    /// The calling thread's buffer, made on its first call; `nil` when it cannot be kept.
    static var current: ReadBuffer? {
        if let raw = pthread_getspecific(key) { return Unmanaged<ReadBuffer>.fromOpaque(raw).takeUnretainedValue() }
        let buffer = ReadBuffer()
        let raw = Unmanaged.passRetained(buffer).toOpaque()
        guard pthread_setspecific(key, raw) == 0 else {
            Unmanaged<ReadBuffer>.fromOpaque(raw).release()
            return nil
        }
        return buffer
    }

    /// Calls `body` with the buffer's memory (``capacity`` bytes), or with `nil` when another
    /// read is using it.
    func withMemory<Result, Failure: Error>(
        _ body: (UnsafeMutableRawPointer?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard !inUse else { return try body(nil) }
        inUse = true
        defer { inUse = false }
        return try body(memory)
    }

    /// The key of the threads' buffers; a thread's is released when it ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in ReadBuffer.release(raw) }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// Releases the buffer of a thread that ends.
    private static func release(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        Unmanaged<ReadBuffer>.fromOpaque(raw).release()
    }
}
