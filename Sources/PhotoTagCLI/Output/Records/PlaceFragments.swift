import PhotoTagSupport

/// The text of a named place's compact `place` object that depends on the place alone, for the
/// places written lately, by slot: `geocode` writes millions of places, nearby points name the
/// same ones (at sea, the nearest places of a whole ocean are a few hundred on its shores), and
/// the place's numbers (its coordinates above all) were most of the cost of writing it.
///
/// Each place has two pieces: the head, `{"geonameId":…,"name":…,"asciiName":…,"admin1":`, and
/// the middle, `,"population":…,"featureCode":…,"latitude":…,"longitude":…,"distanceKm":`
/// (the point's own fields go between and after them). They are kept in a direct-mapped table
/// of fixed-size entries (a slot goes to entry `slot % capacity`; neighbouring places have
/// neighbouring slots), each marked with its slot, so a place is only ever read back from an
/// entry that was written for it. Places whose text does not fit an entry are not kept.
///
/// A table serves one geocoder (slots are its table's) and one thread at a time (`geocode`
/// keeps one per part of a batch, with the part's output buffer).
final class PlaceFragments {
    /// A place's two pieces, in the table's memory (valid until the entry is written again).
    struct Entry {
        let head: UnsafeRawBufferPointer
        let middle: UnsafeRawBufferPointer
    }

    /// Bytes per entry: the slot plus one (8 bytes; 0 marks an empty entry), the lengths of the
    /// two pieces (2 bytes each, then 4 unused) and the pieces themselves.
    static let entrySize = 256
    private static let textOffset = 16

    /// How many entries (a power of two).
    let capacity: Int
    private let storage: UnsafeMutableRawPointer

    /// - Parameter capacity: how many entries, a power of two. The default, 16,384 entries
    ///   (4 MiB, zeroed pages that are only backed once written), is sized for the geocode
    ///   benchmark's random points (Benchmarks/README.md): a place written once is often written
    ///   again.
    init(capacity: Int = 16384) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "a capacity of \(capacity)")
        self.capacity = capacity
        guard let storage = allocateZeroed(count: capacity, size: Self.entrySize) else {
            preconditionFailure("no memory for \(capacity) places' text")
        }
        self.storage = storage
    }

    deinit { deallocate(storage) }

    @inline(__always)
    private func address(_ slot: Int) -> UnsafeMutableRawPointer { storage + (slot & (capacity - 1)) * Self.entrySize }

    /// The pieces of the place at `slot`, when they are kept.
    @inline(__always)
    func entry(_ slot: Int) -> Entry? {
        let entry = address(slot)
        guard entry.load(as: UInt64.self) == UInt64(truncatingIfNeeded: slot &+ 1) else { return nil }
        let head = Int(entry.load(fromByteOffset: 8, as: UInt16.self))
        let middle = Int(entry.load(fromByteOffset: 10, as: UInt16.self))
        let text = UnsafeRawPointer(entry + Self.textOffset)
        return Entry(
            head: UnsafeRawBufferPointer(start: text, count: head),
            middle: UnsafeRawBufferPointer(start: text + head, count: middle))
    }

    /// Keeps the pieces of the place at `slot` (when they fit an entry), in place of whatever
    /// place the entry held.
    func keep(_ slot: Int, head: UnsafeRawBufferPointer, middle: UnsafeRawBufferPointer) {
        guard slot >= 0, let headBytes = head.baseAddress, let middleBytes = middle.baseAddress,
            head.count + middle.count <= Self.entrySize - Self.textOffset
        else { return }
        let entry = address(slot), text = entry + Self.textOffset
        text.copyMemory(from: headBytes, byteCount: head.count)
        (text + head.count).copyMemory(from: middleBytes, byteCount: middle.count)
        entry.storeBytes(of: UInt16(head.count), toByteOffset: 8, as: UInt16.self)
        entry.storeBytes(of: UInt16(middle.count), toByteOffset: 10, as: UInt16.self)
        entry.storeBytes(of: UInt64(truncatingIfNeeded: slot &+ 1), as: UInt64.self)
    }
}
