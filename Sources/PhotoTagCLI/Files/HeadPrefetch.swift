import PhotoTagSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A file opened for its head: the descriptor, and how many bytes of it to ask for.
    struct Opened {
        let descriptor: Int32
        let wanted: Int
    }

    /// `path` opened for reading; `nil` for anything but a regular file that opens (the reader
    /// then opens it by its path and reports what is wrong just as it always has).
    ///
    /// With `regular`, the folder's listing has shown the path to be a regular file, and it is
    /// opened without a `stat(2)` first (one path lookup instead of two); the reader's
    /// `fstat(2)` of the descriptor still checks what was opened, as it does after a `stat`.
    static func openHead(_ path: [UInt8], regular: Bool = false) -> Opened? {
        guard !path.contains(0) else { return nil }
        return withCPath(path) { cPath -> Opened? in
            var wanted = headBytes
            if !regular {
                var info = stat()
                // Never a FIFO or a device: opening one could block, or have side effects.
                guard stat(cPath, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
                wanted = min(Int(info.st_size), headBytes)
            }
            let descriptor = open(cPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            return Opened(descriptor: descriptor, wanted: wanted)
        }
    }

    /// Asks the storage for the first ``headBytes`` of `file` without waiting for them.
    ///
    /// Only where the storage shows itself slow (see the scan's readers): from a warm page cache
    /// the head is there already, and the advice is a system call (and a walk of the cached
    /// pages) for nothing, about a tenth of a warm scan's time.
    static func advise(_ file: Opened) {
        // Past the end of a smaller file, the advice has nothing to read.
        #if canImport(Glibc)
            if file.wanted > 0 { _ = posix_fadvise(file.descriptor, 0, off_t(file.wanted), POSIX_FADV_WILLNEED) }
        #endif
    }
}

/// Whether a scan's readers have found the storage slow: half of a group of opens took longer
/// than ``HeadPrefetch/slowOpen`` (a disk's or a share's, not a thread that lost its core). Once
/// slow, slow for the rest of the scan: every head is then asked for as its file opens.
final class StorageSpeed: Sendable {
    private let slow = Atomic<Bool>(false)

    var isSlow: Bool { slow.load(ordering: .relaxed) }

    func markSlow() { slow.store(true, ordering: .relaxed) }
}
