import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a regular file for reading; returns its descriptor (the caller closes it) and size.
private func openRegularFile(_ path: String) throws(ReverseGeocodingError) -> (descriptor: Int32, size: Int) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotRead(path: path, reason: errnoText()) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
        let reason = errnoText()
        close(descriptor)
        throw .cannotRead(path: path, reason: reason)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        close(descriptor)
        throw .cannotRead(path: path, reason: "not a regular file")
    }
    return (descriptor, Int(info.st_size))
}

/// A whole file read into memory (import dumps, which are parsed line by line anyway).
func readWholeFile(_ path: String) throws(ReverseGeocodingError) -> [UInt8] {
    let (descriptor, size) = try openRegularFile(path)
    defer { close(descriptor) }
    var bytes = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    bytes.reserveCapacity(size)
    while true {
        let got = chunk.withUnsafeMutableBytes { readRetrying(descriptor, $0.baseAddress, $0.count) }
        if got > 0 {
            bytes += chunk[0..<got]
        } else if got == 0 {
            return bytes
        } else {
            throw .cannotRead(path: path, reason: errnoText())
        }
    }
}

/// Writes `bytes` to `path` through a temporary file renamed into place, so a reader never sees a
/// half-written table.
func writeWholeFile(_ bytes: [UInt8], to path: String) throws(ReverseGeocodingError) {
    let temporary = path + ".partial"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoText()) }
    var failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure == 0, rename(temporary, path) != 0 { failure = errno }
    if failure != 0 {
        unlink(temporary)
        throw .cannotWrite(path: path, reason: errnoText(failure))
    }
}

/// A file mapped read-only for as long as this object lives.
///
/// The owner of its mapping, not a view: `bytes` is valid exactly as long as the object lives
/// (the geocoder or boundary table that opened the file holds it for as long as its views are
/// used), and read-only (`PROT_READ`, `MAP_PRIVATE`).
final class MappedFile: Sendable {
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer

    init(path: String) throws(ReverseGeocodingError) {
        let (descriptor, size) = try openRegularFile(path)
        defer { close(descriptor) }
        guard size > 0 else { throw .notAPlaceTable(path: path, reason: "empty file") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .cannotRead(path: path, reason: errnoText())
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
