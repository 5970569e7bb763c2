/// Finds the EXIF and XMP items of a HEIF or AVIF file (ISO/IEC 23008-12): `meta` → `iinf` for
/// the item types, `iloc` for where their bytes are (every version, field size, extent count, and
/// `idat` construction), reading the `meta` box and the items' extents only.
struct HEIFItems<Source: ByteSource> {
    let source: Source
    /// The `meta` box's payload, read into memory.
    private let meta: [UInt8]
    private var exifItem: UInt32?
    private var xmpItem: UInt32?
    private var locations: [UInt32: Location] = [:]
    /// The `idat` box's payload (items stored inside `meta`).
    private var idat: Range<Int>?

    private struct Location {
        var construction: Int
        var baseOffset: Int
        var extents: [(offset: Int, length: Int)]
    }

    /// Reads the top-level `meta` box; `nil` when the file has none.
    init?(source: Source) throws(PhotoGPSError) {
        self.source = source
        guard let metaBox = try Boxes.find("meta", in: source, from: 0, to: source.count) else { return nil }
        guard metaBox.payloadLength <= metadataLimit else {
            throw .malformedContainer("the 'meta' box is \(metaBox.payloadLength) bytes")
        }
        meta = try source.bytes(at: metaBox.payload, length: metaBox.payloadLength)
        let memory = MemorySource(storage: meta)
        // meta is a FullBox: 4 bytes of version and flags, then child boxes.
        var children = Boxes(in: memory, from: 4, to: meta.count)
        while let box = try children.next() {
            switch box.type {
            case "iinf": try readItemInfo(box)
            case "iloc": try readLocations(box)
            case "idat": idat = box.payload..<box.end
            default: break
            }
        }
    }

    /// The EXIF item's bytes, if the file has one.
    func exif() throws(PhotoGPSError) -> [UInt8]? { try exifItem.map(data(of:)) ?? nil }

    /// The XMP item's bytes (a `mime` item of type `application/rdf+xml`), if any.
    func xmp() throws(PhotoGPSError) -> [UInt8]? { try xmpItem.map(data(of:)) ?? nil }

    private mutating func readItemInfo(_ box: Box) throws(PhotoGPSError) {
        var reader = ByteReader(meta, box.payload..<box.end)
        let version = try reader.u8()
        try reader.skip(3)
        _ = version == 0 ? Int(try reader.u16()) : Int(try reader.u32())
        var entries = Boxes(in: MemorySource(storage: meta), from: reader.position, to: box.end)
        while let entry = try entries.next() {
            guard entry.type == "infe" else { continue }
            var fields = ByteReader(meta, entry.payload..<entry.end)
            let entryVersion = try fields.u8()
            try fields.skip(3)
            guard entryVersion >= 2 else { continue }  // versions 0 and 1 name no item type
            let id = entryVersion == 2 ? UInt32(try fields.u16()) : try fields.u32()
            try fields.skip(2)  // item_protection_index
            let type = try fields.fourCC()
            if type == "Exif", exifItem == nil { exifItem = id }
            if type == "mime" {
                _ = try fields.cString()  // item_name
                if try fields.cString() == "application/rdf+xml", xmpItem == nil { xmpItem = id }
            }
        }
    }

    private mutating func readLocations(_ box: Box) throws(PhotoGPSError) {
        var reader = ByteReader(meta, box.payload..<box.end)
        let version = try reader.u8()
        try reader.skip(3)
        guard version <= 2 else { throw .malformedContainer("'iloc' version \(version)") }
        let sizes = try reader.u8()
        let more = try reader.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F), baseOffsetSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 0x0F) : 0
        let itemCount = version < 2 ? Int(try reader.u16()) : Int(try reader.u32())
        // Zero-sized fields read no bytes, so a box's size does not bound its extents: cap them.
        var extentsRead = 0
        for _ in 0..<itemCount {
            let id = version < 2 ? UInt32(try reader.u16()) : try reader.u32()
            var construction = 0
            if version >= 1 { construction = Int(try reader.u16() & 0x0F) }
            try reader.skip(2)  // data_reference_index
            let baseOffset = try reader.sized(baseOffsetSize)
            let extentCount = Int(try reader.u16())
            var extents: [(Int, Int)] = []
            extentsRead += extentCount
            guard extentsRead <= 65_536 else { throw .malformedContainer("'iloc' lists more than 65,536 extents") }
            for _ in 0..<extentCount {
                if indexSize > 0 { _ = try reader.sized(indexSize) }
                extents.append((try reader.sized(offsetSize), try reader.sized(lengthSize)))
            }
            if id == exifItem || id == xmpItem || locations[id] == nil {
                locations[id] = Location(construction: construction, baseOffset: baseOffset, extents: extents)
            }
        }
    }

    /// An item's bytes: its extents joined, from the file (construction 0) or `idat` (1).
    private func data(of item: UInt32) throws(PhotoGPSError) -> [UInt8]? {
        guard let location = locations[item] else {
            throw .malformedContainer("item \(item) has no location in 'iloc'")
        }
        var bytes: [UInt8] = []
        for extent in location.extents {
            let start = location.baseOffset &+ extent.offset
            switch location.construction {
            case 0:
                // Offsets come from the file: compare by subtraction, so no sum can overflow.
                guard start >= 0, start <= source.count else {
                    throw .malformedContainer("item \(item) lies outside the file")
                }
                let length = extent.length == 0 ? source.count - start : extent.length
                guard length >= 0, length <= metadataLimit - bytes.count else {
                    throw .malformedContainer("item \(item) is larger than \(metadataLimit) bytes")
                }
                let read = try source.bytes(at: start, length: length)
                guard read.count == length else { throw .truncated("the file ends inside item \(item)") }
                bytes += read
            case 1:
                guard let idat else { throw .malformedContainer("item \(item) is in an 'idat' box that is missing") }
                guard start >= 0, start <= idat.count else {
                    throw .malformedContainer("item \(item) lies outside the 'idat' box")
                }
                let length = extent.length == 0 ? idat.count - start : extent.length
                guard length >= 0, length <= idat.count - start, length <= metadataLimit - bytes.count else {
                    throw .malformedContainer("item \(item) lies outside the 'idat' box")
                }
                bytes += meta[(idat.lowerBound + start)..<(idat.lowerBound + start + length)]
            default:
                throw .malformedContainer("item \(item) uses construction method \(location.construction)")
            }
        }
        return bytes
    }
}
