import PhotoTagSupport

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
    static var current: ReadBuffer? { perThread.current }

    /// Each thread's buffer, released when it ends.
    private static let perThread = PerThread { ReadBuffer() }

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
}
