import PhotoTagSupport

/// Opens a regular file for reading; returns its descriptor (the caller closes it) and size.
///
/// The file is opened without blocking, so that a FIFO (which would wait for a writer for ever)
/// or a device is refused as "not a regular file" at once, as photo and sidecar readers refuse them.
private func openRegularFile(_ path: String) throws(ReverseGeocodingError) -> (descriptor: Int32, size: Int) {
    let descriptor: Int32
    do {
        descriptor = try openForReading(path, nonBlocking: true)
    } catch {
        throw .cannotRead(path: path, reason: error.text)
    }
    let status: FileStatus
    do {
        status = try fileStatus(descriptor: descriptor)
    } catch {
        closeFile(descriptor)
        throw .cannotRead(path: path, reason: error.text)
    }
    guard status.isRegular else {
        closeFile(descriptor)
        throw .cannotRead(path: path, reason: "not a regular file")
    }
    return (descriptor, status.size)
}

/// A whole file read into memory (import dumps, which are parsed line by line anyway).
func readWholeFile(_ path: String) throws(ReverseGeocodingError) -> [UInt8] {
    let (descriptor, size) = try openRegularFile(path)
    defer { closeFile(descriptor) }
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
    let descriptor: Int32
    do {
        descriptor = try openForWriting(temporary, permissions: 0o644)
    } catch {
        throw .cannotWrite(path: path, reason: error.text)
    }
    var failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    let closed = closeFile(descriptor)
    if failure == 0 { failure = closed }
    if failure == 0 { failure = renameFile(temporary, to: path) }
    if failure != 0 {
        removeFile(temporary)
        throw .cannotWrite(path: path, reason: errnoText(failure))
    }
}

/// A file mapped read-only for as long as this object lives.
///
/// The owner of its mapping, not a view: `bytes` is valid exactly as long as the object lives
/// (the geocoder or boundary table that opened the file holds it for as long as its views are
/// used), and read-only (`PROT_READ`, `MAP_PRIVATE`).
final class MappedFile: Sendable {
    // Read-only once mapped. Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.aMappedPlaceTableSearchedByManyThreadsGivesOneThreadsAnswers.
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer

    init(path: String) throws(ReverseGeocodingError) {
        let (descriptor, size) = try openRegularFile(path)
        defer { closeFile(descriptor) }
        guard size > 0 else { throw .notAPlaceTable(path: path, reason: "empty file") }
        do {
            bytes = try mapReadOnly(descriptor: descriptor, byteCount: size)
        } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
    }

    deinit { unmap(bytes.baseAddress!, byteCount: bytes.count) }
}
