/// Bounds-checked reads of a TIFF structure (the body of an EXIF block) in its byte order.
///
/// libexif loads the tags but keeps no trace of the IFD pointers it followed, so the few
/// structural questions it cannot answer ("does IFD0 point to a GPS IFD at all?") are answered
/// here, from the same bytes.
struct TIFFStructure {
    /// The TIFF bytes, starting at the `II`/`MM` byte-order mark.
    let bytes: ArraySlice<UInt8>
    let bigEndian: Bool
    /// Where IFD0 starts, relative to the byte-order mark.
    private(set) var firstIFD: Int

    /// Reads the 8-byte TIFF header, or returns `nil` when there is none.
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= 8 else { return nil }
        let start = bytes.startIndex
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        firstIFD = 0
        guard u16(at: 2) == 42, let offset = u32(at: 4) else { return nil }
        firstIFD = Int(offset)
    }

    /// The unsigned 16-bit value at `offset`, or `nil` past the end.
    func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[bytes.startIndex + offset]), b = UInt16(bytes[bytes.startIndex + offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    /// The unsigned 32-bit value at `offset`, or `nil` past the end.
    func u32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4, let high = u16(at: bigEndian ? offset : offset + 2),
            let low = u16(at: bigEndian ? offset + 2 : offset)
        else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// What looking for a tag in an IFD found.
    enum Lookup: Equatable {
        /// The entry's value field read as a LONG (the shape of IFD pointers), with its type and count.
        case found(UInt32, type: UInt16, count: UInt32)
        /// Every entry was read and none has the tag.
        case absent
        /// The IFD runs past the end of the bytes before the tag was found.
        case cutShort
    }

    /// Looks for the first entry with tag `tag` in the IFD at `ifd`.
    func lookup(_ tag: UInt16, inIFDAt ifd: Int) -> Lookup {
        guard let count = u16(at: ifd) else { return .cutShort }
        for index in 0..<Int(count) {
            let entry = ifd + 2 + 12 * index
            guard let entryTag = u16(at: entry) else { return .cutShort }
            if entryTag == tag {
                guard let type = u16(at: entry + 2), let count = u32(at: entry + 4), let value = u32(at: entry + 8)
                else { return .cutShort }
                return .found(value, type: type, count: count)
            }
        }
        return .absent
    }

    /// IFD0's GPSInfo pointer (tag 0x8825).
    var gpsPointer: Lookup { lookup(0x8825, inIFDAt: firstIFD) }
}
