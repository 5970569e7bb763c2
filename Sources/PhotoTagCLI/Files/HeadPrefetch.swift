import PhotoTagSupport

/// Opens a photo and has the storage bring in its head before it is parsed.
///
/// On a cold disk or a network share a scan's time goes into waiting for opens and reads. The
/// scan's readers open a ``group`` of files and ask for their heads outside the CPU slots
/// (``CPUSlots``), then parse them in one: many requests are outstanding at once while one
/// thread per core parses what has arrived.
enum HeadPrefetch {
    /// How much of a file's head is asked for: what parsing a photo normally reads at most (a
    /// JPEG's EXIF segment is at most 64 KiB).
    static let headBytes = 1 << 16

    /// How many files a reader opens ahead at once: 32 readers keep 256 descriptors open at
    /// most, well under the usual limit of 1,024.
    static let group = 8

    /// How long an open may take before it counts as waiting for the storage, in nanoseconds:
    /// from the page cache an open takes a few microseconds; from a disk or a share, hundreds
    /// of microseconds to milliseconds.
    static let slowOpen: UInt64 = 50_000

    /// A monotonic clock in nanoseconds.
    static func now() -> UInt64 { monotonicNanoseconds() }

    /// `path` (bytes) opened for reading, with its first ``headBytes`` asked of the storage (not waited
    /// for); `nil` for anything but a regular file that opens (the reader then opens it by its
    /// path and reports what is wrong just as it always has).
    ///
    /// With `regular`, the folder's listing has shown the path to be a regular file, and it is
    /// opened without a `stat(2)` first (one path lookup instead of two); the reader's
    /// `fstat(2)` of the descriptor still checks what was opened, as it does after a `stat`.
    static func openHead(_ path: some Collection<UInt8>, regular: Bool = false) -> Int32? {
        guard !path.contains(0) else { return nil }
        return withCPath(path) { cPath -> Int32? in
            var wanted = headBytes
            if !regular {
                // Never a FIFO or a device: opening one could block, or have side effects.
                guard let info = try? fileStatus(cPath), info.isRegular else { return nil }
                wanted = min(info.size, headBytes)
            }
            guard let descriptor = try? openForReading(cPath, nonBlocking: true) else { return nil }
            // Past the end of a smaller file, the advice has nothing to read.
            if wanted > 0 { adviseWillNeed(descriptor, byteCount: wanted) }
            return descriptor
        }
    }
}
