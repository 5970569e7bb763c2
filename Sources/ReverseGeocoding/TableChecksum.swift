/// The checksum of a place or boundary table: XXH64 (xxHash, 64-bit, by Yann Collet; the
/// algorithm as its specification, `doc/xxhash_spec.md` of the xxHash project, describes it),
/// written here so that the package needs nothing but the toolchain.
///
/// A table keeps its checksum in the last 8 bytes of its header and covers every other byte:
/// the checksum is XXH64 of the header's other bytes, seeded with XXH64 of everything after the
/// header (see ``of(_:header:)``). A table opened from outside the binary is checked in full
/// before it is used: one damaged byte anywhere, in the k-d tree's boxes as in the names, is
/// refused at open rather than turned into a confident wrong answer.
enum TableChecksum {
    /// The checksum of the table `bytes` whose header is the first `header` bytes, the checksum
    /// itself being the header's last 8.
    static func of(_ bytes: UnsafeRawBufferPointer, header: Int) -> UInt64 {
        precondition(header >= 8 && bytes.count >= header, "a table shorter than its header")
        let body = xxh64(UnsafeRawBufferPointer(rebasing: bytes[header...]), seed: 0)
        return xxh64(UnsafeRawBufferPointer(rebasing: bytes[0..<(header - 8)]), seed: body)
    }

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        (accumulator &+ lane &* prime2).rotatedLeft(31) &* prime1
    }

    @inline(__always)
    private static func merge(_ hash: UInt64, _ accumulator: UInt64) -> UInt64 {
        (hash ^ round(0, accumulator)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func lane64(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// XXH64 of `bytes` with `seed`.
    static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return avalanche(seed &+ prime5) }
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            let stripes = count - 32
            while offset <= stripes {
                v1 = round(v1, lane64(base, offset))
                v2 = round(v2, lane64(base, offset + 8))
                v3 = round(v3, lane64(base, offset + 16))
                v4 = round(v4, lane64(base, offset + 24))
                offset += 32
            }
            hash = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
            hash = merge(merge(merge(merge(hash, v1), v2), v3), v4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash = (hash ^ round(0, lane64(base, offset))).rotatedLeft(27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let lane = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = (hash ^ (lane &* prime1)).rotatedLeft(23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            let byte = UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            hash = (hash ^ (byte &* prime5)).rotatedLeft(11) &* prime1
            offset += 1
        }
        return avalanche(hash)
    }

    @inline(__always)
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
