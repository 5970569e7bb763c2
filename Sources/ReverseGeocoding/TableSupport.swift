import PhotoTagSupport

/// Table bytes held in memory, 64-byte aligned as the table readers require, for tables built
/// in-process (the place table's and the boundary table's `init(tableBytes:)`).
///
/// The owner of its memory, not a view: `bytes` is allocated here and freed when the object
/// goes, so it is valid exactly as long as the object lives (the geocoder or boundary table that
/// holds it keeps it for as long as its views are used). It is never written after the copy.
final class AlignedTableBytes: Sendable {
    // Never written after the copy.
    // Guarded by ReverseGeocodingTests/ConcurrencyInvariantTests.freshCellsWorkedOutByManyThreadsAtOnceGiveTheTreeSearchsAnswers.
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer

    init(_ source: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 64)
        buffer.copyBytes(from: source)
        bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<source.count])
    }

    deinit { bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).deallocate() } }
}

/// Interned UTF-8 strings with a 16-bit length prefix; offset 0 is the empty string ("none"):
/// the string pool of the place table and of the boundary table. Past the format's limits it
/// throws the error its table's builder makes of what is too large.
struct StringPool<Failure: Error> {
    var bytes: [UInt8] = [0, 0]
    private var offsets: [String: UInt32] = ["": 0]
    private let tooLarge: (String) -> Failure

    init(tooLarge: @escaping (String) -> Failure) { self.tooLarge = tooLarge }

    mutating func add(_ string: String?) throws(Failure) -> UInt32 {
        guard let string else { return 0 }
        if let offset = offsets[string] { return offset }
        let utf8 = Array(string.utf8)
        guard utf8.count <= Int(UInt16.max) else { throw tooLarge("a string of \(utf8.count) bytes") }
        guard bytes.count + 2 + utf8.count <= Int(UInt32.max) else { throw tooLarge("the string pool") }
        let offset = UInt32(bytes.count)
        ByteOrder.littleEndian.append(UInt16(utf8.count), to: &bytes)
        bytes += utf8
        offsets[string] = offset
        return offset
    }
}

/// A zero-filled buffer written at fixed offsets, little-endian: the place table and the
/// boundary table as their builders lay them out.
struct TableByteWriter {
    var bytes: [UInt8]

    init(size: Int) { bytes = [UInt8](repeating: 0, count: size) }

    mutating func put(_ data: [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<offset + data.count, with: data)
    }

    mutating func put16(_ value: UInt16, at offset: Int) { ByteOrder.littleEndian.write(value, to: &bytes, at: offset) }
    mutating func put32(_ value: UInt32, at offset: Int) { ByteOrder.littleEndian.write(value, to: &bytes, at: offset) }
    mutating func put64(_ value: UInt64, at offset: Int) { ByteOrder.littleEndian.write(value, to: &bytes, at: offset) }
    mutating func putDouble(_ value: Double, at offset: Int) { put64(value.bitPattern, at: offset) }

    /// Writes the table's checksum (see ``TableChecksum``) into the last 8 bytes of its header,
    /// the first `header` bytes: the last thing written.
    mutating func sealChecksum(header: Int) {
        let checksum = bytes.withUnsafeBytes { TableChecksum.of($0, header: header) }
        put64(checksum, at: header - 8)
    }
}

/// A string pool (see ``StringPool``) read in place: borrowed bytes, not a copy.
///
/// **Borrowed memory.** `bytes` points into a table's memory, which this view neither owns nor
/// keeps alive: the bundled tables' pools are static data that lives as long as the process;
/// a table from a file lives as long as the ``MappedFile`` or ``AlignedTableBytes`` that owns
/// it (its ``ReverseGeocoder`` or ``BoundaryTable`` holds that owner). The pool must not be
/// used, nor the bytes it hands out, after the owner is gone; the memory is never written, so
/// any number of threads may read it at once.
///
/// Every read checks the offset and the length against the pool, so a damaged table gives a
/// `nil`, never a read outside it; ``isValid`` checks the whole pool once, for a table from
/// outside the binary, so that the strings can be written out as text unchecked.
struct UnsafeStringPool {
    /// The pool's bytes, borrowed (see the type's documentation).
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The UTF-8 bytes of the string at a pool offset, borrowed from the table; `nil` for offset
    /// 0 (none) or an offset outside the pool.
    @inline(__always)
    func utf8(at offset: UInt32) -> UnsafeRawBufferPointer? {
        let start = Int(offset)
        guard start != 0, start + 2 <= bytes.count else { return nil }
        let length = Int(ByteOrder.littleEndian.read(UInt16.self, bytes, at: start))
        guard start + 2 + length <= bytes.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[start + 2..<start + 2 + length])
    }

    /// The string at a pool offset; `nil` for offset 0 (none) or an offset outside the pool.
    func string(at offset: UInt32) -> String? {
        utf8(at: offset).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the pool is well formed: length-prefixed strings that fill it exactly, each valid
    /// UTF-8. Tables opened from outside the binary are checked with it, so that their strings
    /// can be borrowed and written out as text (the bundled ones are checked by the tests).
    var isValid: Bool {
        var offset = 2  // offset 0 is the empty string
        while offset + 2 <= bytes.count {
            let length = Int(ByteOrder.littleEndian.read(UInt16.self, bytes, at: offset))
            guard offset + 2 + length <= bytes.count else { return false }
            guard isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[offset + 2..<offset + 2 + length])) else {
                return false
            }
            offset += 2 + length
        }
        return offset == bytes.count
    }
}
