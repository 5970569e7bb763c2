/// Canon CR3 (ISO BMFF): the TIFF structures in `moov` → `uuid` (85c0b687-820f-11e0-8111-
/// f4ce462b6a48) → `CMT1` (IFD0), `CMT2` (the EXIF IFD), `CMT4` (the GPS IFD itself).
enum CR3 {
    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// The compact `Exif\0\0` block built from the CMT boxes, or `nil` when there are none.
    static func exifBlock(in source: some ByteSource) throws(PhotoGPSError) -> [UInt8]? {
        guard let moov = try Boxes.find("moov", in: source, from: 0, to: source.count) else { return nil }
        var boxes = Boxes(in: source, from: moov.payload, to: moov.end)
        var canon: Box? = nil
        while let box = try boxes.next() {
            if box.type == "uuid", try source.bytes(at: box.payload, length: 16) == canonUUID {
                canon = box
                break
            }
        }
        guard let canon else { return nil }
        var cmt: [String: TIFFReader<MemorySource>] = [:]
        var children = Boxes(in: source, from: canon.payload + 16, to: canon.end)
        while let box = try children.next() {
            guard ["CMT1", "CMT2", "CMT4"].contains(box.type), cmt[box.type] == nil, box.payloadLength <= metadataLimit
            else { continue }
            let bytes = try source.bytes(at: box.payload, length: box.payloadLength)
            cmt[box.type] = try TIFFReader(source: MemorySource(storage: bytes))
        }
        guard let ifd0Reader = cmt["CMT1"] ?? cmt["CMT4"] else { return nil }
        let ifd0 =
            try cmt["CMT1"].flatMap { reader throws(PhotoGPSError) in
                try reader.readIFD(at: reader.firstIFD, keeping: CompactTIFF.ifd0TagsRead)
            } ?? []
        let exif =
            try cmt["CMT2"].flatMap { reader throws(PhotoGPSError) in
                try reader.readIFD(at: reader.firstIFD, keeping: CompactTIFF.exifTagsRead)
            } ?? []
        var gps = CompactTIFF.GPS.absent
        if let reader = cmt["CMT4"] {
            gps =
                try reader.readIFD(at: reader.firstIFD, keeping: CompactTIFF.gpsTagsRead).map(CompactTIFF.GPS.entries)
                ?? .outOfBounds
        }
        // Each CMT box is a TIFF of its own; the GPS values keep the byte order of CMT4.
        let bigEndian = cmt["CMT4"]?.bigEndian ?? ifd0Reader.bigEndian
        return CompactTIFF.build(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: gps)
    }
}
