// Integers stored in a byte order: one reader and writer for the containers PhotoGPS walks (ISO
// BMFF, TIFF, PNG and WebP chunks, JPEG segments), the tables ReverseGeocoding opens in place,
// and the builders that write those tables.

/// The order of the bytes of an integer in a file, a table or a block of memory: most
/// significant first (``bigEndian``: ISO BMFF, PNG, JPEG, TZif, a Motorola TIFF) or least
/// significant first (``littleEndian``: WebP, an Intel TIFF, phototag's own tables).
///
/// Every function is `@inlinable`: the hot paths (an IFD's entries, a string of the place table,
/// a transition of the tz rules) read through them millions of times, and each specialises to
/// the loads and shifts it replaced.
///
/// Two ways to read, which differ in what they check:
///
/// - ``read(_:_:at:)`` takes any collection of bytes (`[UInt8]`, a slice, a buffer) and reads
///   byte by byte through its subscript, so it checks the bounds exactly as that subscript
///   does: an array traps past its end, an unsafe buffer only in debug builds.
/// - `load(_:_:at:)` reads raw memory in one unaligned load. It
///   checks nothing in a release build (as `loadUnaligned`): the caller has checked the bounds,
///   as a table does once when it is opened.
///
/// `@usableFromInline` as well as `package`: without it, Swift 6.3 does not specialise a generic
/// method of a `package` type in another module: each call went through the unspecialised
/// function, its witness tables and boxed values, far more work than the loads it stands for.
@usableFromInline package enum ByteOrder: Hashable, Sendable {
    /// Most significant byte first.
    case bigEndian
    /// Least significant byte first.
    case littleEndian

    /// The order a TIFF's header names (`MM` big-endian, `II` little-endian).
    @inlinable @inline(__always)
    package init(bigEndian: Bool) { self = bigEndian ? .bigEndian : .littleEndian }

    // MARK: reading

    /// The integer stored in this order in `bytes[offset] ..< bytes[offset + size]`, read byte by
    /// byte (bounds-checked as `bytes`'s subscript is).
    @inlinable @inline(__always)
    package func read<T: FixedWidthInteger, Bytes: RandomAccessCollection<UInt8>>(
        _ type: T.Type, _ bytes: Bytes, at offset: Int
    ) -> T where Bytes.Index == Int {
        var value = T.zero
        switch self {
        case .bigEndian:
            for index in 0..<MemoryLayout<T>.size {
                value = value &<< 8 | T(truncatingIfNeeded: bytes[offset + index])
            }
        case .littleEndian:
            for index in 0..<MemoryLayout<T>.size {
                value |= T(truncatingIfNeeded: bytes[offset + index]) &<< (8 &* index)
            }
        }
        return value
    }

    /// The integer stored in this order at `offset` of `raw`, in one unaligned load; not
    /// bounds-checked in release builds (the caller checks).
    @inlinable @inline(__always)
    package func load<T: FixedWidthInteger>(_ type: T.Type, _ raw: UnsafeRawBufferPointer, at offset: Int) -> T {
        host(raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The integer stored in this order at `raw + offset`, in one unaligned load (the caller
    /// checks the bounds).
    @inlinable @inline(__always)
    package func load<T: FixedWidthInteger>(_ type: T.Type, _ raw: UnsafeRawPointer, at offset: Int) -> T {
        host(raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// `stored`, an integer as it lies in memory in this order, as a number.
    @inlinable @inline(__always)
    package func host<T: FixedWidthInteger>(_ stored: T) -> T {
        switch self {
        case .bigEndian: T(bigEndian: stored)
        case .littleEndian: T(littleEndian: stored)
        }
    }

    // MARK: writing

    /// `value`'s bytes in this order, as they are to lie in memory (the inverse of ``host(_:)``).
    @inlinable @inline(__always)
    package func stored<T: FixedWidthInteger>(_ value: T) -> T {
        switch self {
        case .bigEndian: value.bigEndian
        case .littleEndian: value.littleEndian
        }
    }

    /// Writes `value` in this order over `bytes[offset] ..< bytes[offset + size]` (bounds-checked
    /// as the array is).
    @inlinable @inline(__always)
    package func write<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8], at offset: Int) {
        let size = MemoryLayout<T>.size
        for index in 0..<size {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value &>> shift(ofByte: index, size))
        }
    }

    /// Stores `value` in this order at `raw + offset`, unaligned (the caller checks the bounds).
    @inlinable @inline(__always)
    package func store<T: FixedWidthInteger>(_ value: T, _ raw: UnsafeMutableRawPointer, at offset: Int) {
        raw.storeBytes(of: stored(value), toByteOffset: offset, as: T.self)
    }

    /// Appends `value`'s bytes in this order.
    @inlinable @inline(__always)
    package func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        let size = MemoryLayout<T>.size
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value &>> shift(ofByte: index, size))) }
    }

    /// How far right the value's byte number `index` (of `size`) in this order is shifted.
    @inlinable @inline(__always)
    func shift(ofByte index: Int, _ size: Int) -> Int {
        switch self {
        case .bigEndian: 8 &* (size &- 1 &- index)
        case .littleEndian: 8 &* index
        }
    }
}
