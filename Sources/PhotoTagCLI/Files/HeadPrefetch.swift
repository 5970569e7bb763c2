import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a photo and has the storage bring in its head before it is parsed.
///
/// On a cold disk or a network share a scan's time goes into waiting for opens and reads. The
/// scan's readers wait here, outside the CPU slots (``CPUSlots``), so that many requests are
/// outstanding at once while one thread per core parses what has arrived.
enum HeadPrefetch {
    /// How much of a file's head is asked for: what parsing a photo normally reads at most (a
    /// JPEG's EXIF segment is at most 64 KiB).
    static let headBytes = 1 << 16

    /// `path` opened for reading, its first ``headBytes`` asked of the storage, and the first and
    /// last page of those waited for; `nil` for anything but a regular file that opens (the
    /// reader then opens it by its path and reports what is wrong just as it always has).
    static func openHead(_ path: [UInt8]) -> Int32? {
        guard !path.contains(0) else { return nil }
        return withCPath(path) { cPath -> Int32? in
            var info = stat()
            // Never a FIFO or a device: opening one could block, or have side effects.
            guard stat(cPath, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            let descriptor = open(cPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            let wanted = min(Int(info.st_size), headBytes)
            if wanted > 0 {
                #if canImport(Glibc)
                    _ = posix_fadvise(descriptor, 0, off_t(wanted), POSIX_FADV_WILLNEED)
                #endif
                // Waits for the first and the last page asked for: those in between went out
                // with them. (Waiting for the last one alone lets the first still be on its way
                // when the parsing starts: measured slower through a 2 ms FUSE mount.)
                var byte: UInt8 = 0
                _ = pread(descriptor, &byte, 1, 0)
                if wanted > 4096 { _ = pread(descriptor, &byte, 1, off_t(wanted - 1)) }
            }
            return descriptor
        }
    }
}
