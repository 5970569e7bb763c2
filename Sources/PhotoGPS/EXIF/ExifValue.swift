/// The decoded contents of one EXIF entry, in the shape the GPS policy needs.
///
/// This is the boundary between libexif and the pure conversion code: `ExifBlock` turns libexif's
/// raw entries into these values, and ``GPSFix`` decodes them without knowing where they came from,
/// so the policy is tested on hand-made values without any file.
///
/// The values the GPS policy reads are short (a coordinate or a time is three rationals, a
/// reference letter or a date a few bytes), so they are kept inline (``EntryComponents``,
/// ``EntryBytes``): decoding a GPS block allocates nothing.
enum ExifValue: Hashable, Sendable {
    /// RATIONAL (type 5) components.
    case rationals(EntryComponents<Rational>)
    /// SRATIONAL (type 10) components.
    case signedRationals(EntryComponents<Rational>)
    /// ASCII (type 2) text, without its terminating NULs.
    case ascii(EntryBytes)
    /// BYTE, SBYTE or UNDEFINED (types 1, 6, 7) bytes.
    case bytes(EntryBytes)
    /// SHORT, LONG, SSHORT or SLONG (types 3, 4, 8, 9) integers.
    case integers(EntryComponents<Int64>)
    /// Any other TIFF type, kept only so that messages can name it.
    case other(type: UInt16, count: Int)

    /// The TIFF type name used in messages, e.g. `RATIONAL`.
    var typeName: String {
        switch self {
        case .rationals: "RATIONAL"
        case .signedRationals: "SRATIONAL"
        case .ascii: "ASCII"
        case .bytes: "BYTE"
        case .integers: "integer"
        case .other(let type, _): "type \(type)"
        }
    }

    /// The entry read as text: ASCII as is, BYTE/UNDEFINED as if it were ASCII, trimmed of
    /// trailing NULs and spaces; `nil` for numeric types.
    var text: String? {
        switch self {
        case .ascii(let bytes), .bytes(let bytes): bytes.withBytes(Self.text(of:))
        default: nil
        }
    }

    /// Stored bytes read as text: up to the first NUL, trailing spaces trimmed.
    static func text(of raw: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: textBytes(of: raw), as: UTF8.self)
    }

    /// The bytes of `raw` that ``text(of:)`` decodes: up to the first NUL, trailing spaces removed.
    static func textBytes(of raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = raw.count
        if let nul = raw.firstIndex(of: 0) { end = nul }
        while end > 0, raw[end - 1] == 0x20 { end -= 1 }
        return UnsafeBufferPointer(rebasing: raw[..<end])
    }
}

/// The numeric components of one EXIF entry: up to three kept inline (a GPS coordinate or time
/// has three), more in an array (only damaged or unusual entries have more).
struct EntryComponents<Element: Hashable & Sendable>: RandomAccessCollection, Hashable, Sendable,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    /// The first three components, each `nil` past `count`, and all `nil` when `count` exceeds three.
    private var first: Element?
    private var second: Element?
    private var third: Element?
    /// Every component when there are more than three; otherwise empty (and so not allocated).
    private var more: [Element] = []
    /// How many components there are.
    let count: Int

    /// The `count` components `element(0)`, `element(1)`…
    init(count: Int, element: (Int) -> Element) {
        self.count = count
        if count > 3 {
            more = (0..<count).map(element)
        } else {
            if count > 0 { first = element(0) }
            if count > 1 { second = element(1) }
            if count > 2 { third = element(2) }
        }
    }

    /// The elements of `elements`, in order.
    init(_ elements: [Element]) {
        self.init(count: elements.count) { elements[$0] }
    }

    /// The elements listed, in order.
    init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The component at `position`; traps outside `0..<count`, as an array does.
    subscript(position: Int) -> Element {
        let inline =
            switch position {
            case 0: first
            case 1: second
            case 2: third
            default: Element?.none
            }
        return inline ?? more[position]
    }

    /// Equal when they hold the same components in the same order.
    static func == (left: Self, right: Self) -> Bool { left.elementsEqual(right) }

    /// Hashes the components in order.
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }

    /// The components as an array would show them, e.g. `[1, 2]`.
    var description: String { Array(self).description }
}

/// The bytes of one EXIF entry (text, a reference letter, an altitude reference, a value as
/// stored in a TIFF): up to 32 kept inline, more in an array.
struct EntryBytes: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// How many bytes are kept inline.
    static let inlineCapacity = 32
    /// The bytes when there are at most 32, in memory order, zero past `count`.
    private var inline: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// Every byte when there are more than 32; otherwise empty (and so not allocated).
    private var more: [UInt8] = []
    /// How many bytes there are.
    let count: Int

    /// A copy of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        count = bytes.count
        if count > Self.inlineCapacity {
            more = Array(bytes)
        } else if count > 0 {
            withUnsafeMutableBytes(of: &inline) { storage in
                storage.copyMemory(from: UnsafeRawBufferPointer(bytes))
            }
        }
    }

    /// The elements of `bytes`, in order.
    init(_ bytes: [UInt8]) {
        let count = bytes.count
        self = bytes.withUnsafeBufferPointer { buffer in
            EntryBytes(UnsafeBufferPointer(start: count == 0 ? nil : buffer.baseAddress, count: count))
        }
    }

    /// The bytes listed, in order.
    init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The byte at `position`; traps outside `0..<count`, as an array does.
    subscript(position: Int) -> UInt8 {
        guard count <= Self.inlineCapacity else { return more[position] }
        precondition(position >= 0 && position < count, "index out of range")
        return withUnsafeBytes(of: inline) { $0[position] }
    }

    /// Calls `body` with the bytes, contiguous, without copying them to the heap.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if count > Self.inlineCapacity { return more.withUnsafeBufferPointer(body) }
        return withUnsafeBytes(of: inline) { raw in
            body(UnsafeBufferPointer(start: raw.bindMemory(to: UInt8.self).baseAddress, count: count))
        }
    }

    /// Equal when they hold the same bytes (the storage is canonical: see the properties).
    static func == (left: Self, right: Self) -> Bool {
        left.count == right.count && left.inline.0 == right.inline.0 && left.inline.1 == right.inline.1
            && left.inline.2 == right.inline.2 && left.inline.3 == right.inline.3 && left.more == right.more
    }

    /// Hashes the bytes.
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(inline.0)
        hasher.combine(inline.1)
        hasher.combine(inline.2)
        hasher.combine(inline.3)
        hasher.combine(more)
    }

    /// The bytes as an array would show them, e.g. `[78, 0]`.
    var description: String { Array(self).description }
}
