// Memory from the C library and the kernel: byte comparison, and pages mapped from a file or
// from nothing (zeros).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `memcmp(3)` of `count` bytes: negative, zero or positive as `a`'s bytes come before, equal or
/// after `b`'s. Inlinable: sorting a folder's names calls it for each comparison.
@inlinable package func compareBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int32 {
    memcmp(a, b, count)
}

/// The file open at `descriptor` mapped read-only (`mmap(2)`, `MAP_PRIVATE`), its first
/// `byteCount` bytes (more than 0); ``unmap(_:byteCount:)`` releases it. The descriptor may be
/// closed once it is mapped.
package func mapReadOnly(descriptor: Int32, byteCount: Int) throws(SystemError) -> UnsafeRawBufferPointer {
    guard let address = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
        throw SystemError(code: errno)
    }
    return UnsafeRawBufferPointer(start: address, count: byteCount)
}

/// `byteCount` bytes of zeros, readable and writable, mapped from the kernel (`mmap(2)`,
/// `MAP_PRIVATE | MAP_ANONYMOUS`): a page takes memory only once it is written. `nil` when the
/// mapping fails; ``unmap(_:byteCount:)`` releases it.
package func mapZeroedPages(byteCount: Int) -> UnsafeMutableRawPointer? {
    guard let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        address != MAP_FAILED
    else { return nil }
    return address
}

/// Releases `byteCount` bytes mapped at `address` (`munmap(2)`).
package func unmap(_ address: UnsafeRawPointer, byteCount: Int) {
    munmap(UnsafeMutableRawPointer(mutating: address), byteCount)
}

/// `count * size` bytes of zeros from the C library's heap (`calloc(3)`), whose pages the kernel
/// backs only once they are written; `nil` when there is no memory. ``deallocate(_:)`` frees them.
package func allocateZeroed(count: Int, size: Int) -> UnsafeMutableRawPointer? {
    calloc(count, size)
}

/// Frees memory from ``allocateZeroed(count:size:)`` (`free(3)`).
package func deallocate(_ memory: UnsafeMutableRawPointer) {
    free(memory)
}
