import PhotoTagSupport

/// The file formats phototag recognises by their first bytes.
enum Container: Equatable {
    case jpeg
    /// TIFF and the TIFF-based raw formats (DNG, CR2, NEF, NRW, ARW, ORF, RW2, PEF…).
    case tiff
    case png
    case webp
    /// HEIC, HEIF and AVIF images (ISO BMFF with a `meta` box).
    case heif
    /// Canon CR3 (ISO BMFF with `CMT` boxes).
    case cr3
    /// JPEG XL, a bare codestream or in its box container (``JPEGXL``).
    case jpegXL
    /// Fujifilm RAF and Sigma X3F raw files: the EXIF is in an embedded JPEG (``RawPreview``).
    case raf, x3f
    /// QuickTime, MP4, M4V and 3GP movies: ISO BMFF with any other `ftyp` brand, or an old
    /// QuickTime file without `ftyp` that starts with a `moov`, `mdat`, `wide`, `free`, `skip` or
    /// `pnot` box.
    case movie
    /// Something phototag does not read; the name when known.
    case unsupported(String?)

    /// Identifies a file from its first bytes (and, for ISO BMFF, its `ftyp` brands).
    static func identify(_ source: some ByteSource) throws(PhotoGPSError) -> Container {
        // The first 64 bytes, read into a buffer on the stack; a JPEG (most photos) is told from
        // its first three without copying them to an array.
        try source.withBytes(at: 0, length: 64) { head in
            head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF
                ? .jpeg : identify(head: Array(head))
        }
    }

    /// Identifies a file from its first bytes (up to 64).
    private static func identify(head: [UInt8]) -> Container {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if JPEGSegments<MemorySource>.matches(head) { return .jpeg }
        if starts(PNGChunks.signature) { return .png }
        if starts(Array("RIFF".utf8)) {
            return starts(Array("WEBP".utf8), at: 8)
                ? .webp : .unsupported("RIFF (\(head.count >= 12 ? fourCC(head, 8) : "?"))")
        }
        if head.count >= 4 {
            switch (head[0], head[1], head[2], head[3]) {
            case (0x49, 0x49, 0x2A, 0x00), (0x4D, 0x4D, 0x00, 0x2A),  // TIFF
                (0x49, 0x49, 0x52, 0x4F), (0x49, 0x49, 0x52, 0x53), (0x4D, 0x4D, 0x4F, 0x52),  // Olympus ORF
                (0x49, 0x49, 0x55, 0x00):  // Panasonic RW2
                return .tiff
            case (0x49, 0x49, 0x2B, 0x00), (0x4D, 0x4D, 0x00, 0x2B):
                return .unsupported("BigTIFF")
            default: break
            }
        }
        if starts(Array("ftyp".utf8), at: 4) {
            let size = min(Int(ByteOrder.bigEndian.read(UInt32.self, head, at: 0)), head.count)
            var brands: [String] = []
            var offset = 8
            while offset + 4 <= size {
                if offset != 12 { brands.append(fourCC(head, offset)) }  // skip minor_version
                offset += 4
            }
            if brands.contains("crx ") { return .cr3 }
            let images: Set<String> = [
                "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "mif2", "msf1", "avif", "avis", "miaf",
            ]
            if brands.contains(where: images.contains) { return .heif }
            return .movie  // qt, isom, mp41, mp42, M4V, 3gp*, 3g2*, avc1, XAVC…
        }
        if head.count >= 8, ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(fourCC(head, 4)) {
            let size = ByteOrder.bigEndian.read(UInt32.self, head, at: 0)
            if size == 0 || size == 1 || size >= 8 { return .movie }
        }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return .jpegXL }
        if starts(Array("FOVb".utf8)) { return .x3f }
        if starts(Array("FUJIFILMCCD-RAW".utf8)) { return .raf }
        if starts(Array("GIF8".utf8)) { return .unsupported("GIF") }
        if starts(Array("BM".utf8)) { return .unsupported("BMP") }
        return .unsupported(nil)
    }
}
