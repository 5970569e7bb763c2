/// Which files `scan` considers photos (videos included: they are read like photos).
enum PhotoFiles {
    /// Lowercase extensions of the containers phototag reads.
    static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif",  // JPEG
        "heic", "heif", "hif", "avif",  // ISO BMFF images
        "png", "webp",
        // TIFF and TIFF-based raw, and Canon CR3
        "tif", "tiff", "dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "pef", "srw",
        "jxl",  // JPEG XL
        "raf", "x3f",  // Fujifilm and Sigma raw, read through their embedded JPEG
        "mov", "mp4", "m4v", "3gp",  // QuickTime, MP4 and 3GP videos
    ]

    /// ``extensions``, each packed as ``packed(_:)`` packs a name's: compared without a string.
    private static let packedExtensions: [UInt64] = extensions.map { packed(Array($0.utf8)[...]) }

    /// The bytes of an extension of at most 5 bytes, ASCII letters lowercased, one byte each in
    /// an integer.
    private static func packed(_ suffix: ArraySlice<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        for byte in suffix { packed = packed << 8 | UInt64(byte | (0x41...0x5A ~= byte ? 0x20 : 0)) }
        return packed
    }

    /// Whether a file name (bytes) ends in one of ``extensions``, ignoring case.
    static func hasPhotoExtension(_ name: ArraySlice<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot < name.endIndex - 1 else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.count <= 5 else { return false }
        // No extension has a zero byte, so packing (which drops leading zeros) confuses none.
        guard !suffix.contains(0) else { return false }
        return packedExtensions.contains(packed(suffix))
    }
}
