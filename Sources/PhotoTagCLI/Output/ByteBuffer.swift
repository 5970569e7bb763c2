/// A growable byte buffer for output.
///
/// Rendering a million records appends a few hundred million bytes one or a few at a time;
/// `Array.append` checks uniqueness and capacity on every call, this checks capacity only. The
/// buffer is a class so that writers holding it never copy it.
final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for at least `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        if bytes.count <= 16 {
            // Keys, numbers, short names: a loop beats a call to memmove.
            for index in 0..<bytes.count { base[count + index] = source[index] }
        } else {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    func append(contentsOf bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append(contentsOf: $0) } }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    func append(_ string: String) {
        var string = string
        string.withUTF8 { append(contentsOf: $0) }
    }

    @inline(__always)
    func append(_ text: StaticString) {
        if text.hasPointerRepresentation {
            append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            text.withUTF8Buffer { append(contentsOf: $0) }
        }
    }

    /// Appends `"name":` (and a space when `space`): a JSON object key, with one capacity check.
    @inline(__always)
    func appendKey(_ name: StaticString, space: Bool) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        var out = base + count
        out[0] = UInt8(ascii: "\"")
        out += 1
        if name.hasPointerRepresentation {
            out.update(from: name.utf8Start, count: length)
        } else {
            name.withUTF8Buffer { out.update(from: $0.baseAddress!, count: length) }
        }
        out += length
        out[0] = UInt8(ascii: "\"")
        out[1] = UInt8(ascii: ":")
        out[2] = UInt8(ascii: " ")
        count += length + (space ? 4 : 3)  // the quotes, the colon and the space
    }

    /// Lets `body` write up to `maximum` bytes straight into the buffer's memory, with one capacity
    /// check for all of them (see ``JSONCursor``); `body` returns where it stopped writing.
    @inline(__always)
    func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) {
        reserve(maximum)
        let start = base + count
        count += body(start) - start
    }

    /// Empties the buffer and keeps its memory, for the next batch.
    func removeAll() { count = 0 }

    /// Appends `count` copies of `byte`.
    func append(repeating byte: UInt8, count extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        (base + count).initialize(repeating: byte, count: extra)
        count += extra
    }

    /// The bytes so far, copied out.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
