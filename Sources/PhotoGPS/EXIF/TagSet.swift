/// A few TIFF tag numbers, looked up without hashing: tags below 64 (every GPS tag) as bits, and
/// up to eight others in a list kept inline.
struct TagSet: ExpressibleByArrayLiteral, Equatable, Sendable {
    /// Bit `n` set when tag `n` (below 64) is in the set.
    private var low: UInt64 = 0
    /// The tags of 64 and above, ascending; the first `highCount` are in use.
    private var high: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Bit `n` set when a tag of 64 and above whose low six bits are `n` is in the set: most tags
    /// that are not in it are told so by this bit alone (an EXIF IFD has forty, three are asked
    /// for), without going through `high`.
    private var highBits: UInt64 = 0
    private var highCount = 0
    /// The most tags of 64 and above a set holds.
    static let highCapacity = 8

    /// An empty set.
    init() {}

    /// The tags listed.
    init(arrayLiteral tags: UInt16...) {
        for tag in tags { insert(tag) }
    }

    /// Whether no tag is in the set.
    var isEmpty: Bool { low == 0 && highCount == 0 }

    /// How many tags are in the set.
    var count: Int { low.nonzeroBitCount + highCount }

    /// Whether `tag` is in the set.
    func contains(_ tag: UInt16) -> Bool {
        if tag < 64 { return low & (1 << UInt64(tag)) != 0 }
        guard highBits & (1 << UInt64(tag & 63)) != 0 else { return false }
        return withUnsafeBytes(of: high) { raw in
            // Ascending: the first one not below `tag` decides.
            for index in 0..<highCount {
                let element = raw.load(fromByteOffset: 2 * index, as: UInt16.self)
                if element >= tag { return element == tag }
            }
            return false
        }
    }

    /// Adds `tag`; more than ``highCapacity`` tags of 64 and above is a programming error.
    mutating func insert(_ tag: UInt16) {
        if tag < 64 {
            low |= 1 << UInt64(tag)
            return
        }
        guard !contains(tag) else { return }
        precondition(highCount < Self.highCapacity, "a TagSet holds at most 8 tags of 64 and above")
        withUnsafeMutableBytes(of: &high) { raw in
            // Kept ascending: shift the larger ones up one place.
            var index = highCount
            while index > 0, raw.load(fromByteOffset: 2 * (index - 1), as: UInt16.self) > tag {
                raw.storeBytes(
                    of: raw.load(fromByteOffset: 2 * (index - 1), as: UInt16.self), toByteOffset: 2 * index,
                    as: UInt16.self)
                index -= 1
            }
            raw.storeBytes(of: tag, toByteOffset: 2 * index, as: UInt16.self)
        }
        highCount += 1
        highBits |= 1 << UInt64(tag & 63)
    }

    /// The set with the tags of `other` added.
    func union(_ other: TagSet) -> TagSet {
        var union = self
        union.low |= other.low
        other.forEachAscending { union.insert($0) }
        return union
    }

    /// Calls `body` with every tag, in ascending order.
    func forEachAscending(_ body: (UInt16) -> Void) {
        var bits = low
        while bits != 0 {
            body(UInt16(bits.trailingZeroBitCount))
            bits &= bits - 1
        }
        withUnsafeBytes(of: high) { raw in
            for index in 0..<highCount { body(raw.load(fromByteOffset: 2 * index, as: UInt16.self)) }
        }
    }

    static func == (left: TagSet, right: TagSet) -> Bool {
        guard left.low == right.low, left.highCount == right.highCount else { return false }
        var equal = true
        withUnsafeBytes(of: left.high) { a in
            withUnsafeBytes(of: right.high) { b in
                for index in 0..<left.highCount
                where a.load(fromByteOffset: 2 * index, as: UInt16.self)
                    != b.load(fromByteOffset: 2 * index, as: UInt16.self)
                {
                    equal = false
                }
            }
        }
        return equal
    }
}
