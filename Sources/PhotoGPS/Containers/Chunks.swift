import PhotoTagSupport

/// The metadata blocks a container holds, found by walking its chunk headers only.
struct ChunkMetadata {
    /// The EXIF chunk's payload (a TIFF, possibly after an `Exif\0\0` that some writers add).
    var exif: [UInt8]?
    /// The XMP packet.
    var xmp: [UInt8]?
    /// What was found damaged and left out (a PNG chunk whose CRC does not match).
    var warnings: [GPSWarning] = []
}

/// PNG (ISO/IEC 15948, with the 2017 `eXIf` extension): 8-byte signature, then chunks of length,
/// type, data and CRC. `eXIf` may come before or after the image data; IDAT is skipped by its
/// length, never read. XMP is in an `iTXt` chunk with the keyword `XML:com.adobe.xmp`. The CRC of
/// each chunk read is checked: a damaged `eXIf` or XMP chunk gives a warning and is not used. A
/// file whose first chunk (`IHDR`, which every PNG starts with) fails its CRC too was written by
/// a tool that computes none (test files that store 0 in every CRC exist), and is read unchecked.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func read(_ source: some ByteSource, wantXMP: Bool) throws(PhotoGPSError) -> ChunkMetadata {
        var found = ChunkMetadata()
        var offset = 8
        var checksCRC = true
        while offset + 8 <= source.count {
            let header = try source.bytes(at: offset, length: 8)
            guard header.count == 8 else { break }
            let length = Int(ByteOrder.bigEndian.read(UInt32.self, header, at: 0))
            let type = fourCC(header, 4)
            guard length <= 0x7FFF_FFFF else { throw .malformedContainer("PNG chunk '\(type)' claims \(length) bytes") }
            if offset == 8, type == "IHDR", length == 13 {
                let chunk = try source.bytes(at: offset + 4, length: 21)
                checksCRC =
                    chunk.count == 21 && CRC32.png(chunk[..<17]) == ByteOrder.bigEndian.read(UInt32.self, chunk, at: 17)
            }
            let data = offset + 8
            guard data + length <= source.count else {
                if type == "eXIf" || type == "iTXt" { throw .truncated("the file ends inside PNG chunk '\(type)'") }
                break  // image data cut short: what came before is still good
            }
            /// The chunk's data when its CRC (over the type and the data) matches, else `nil`
            /// with a warning.
            func checked() throws(PhotoGPSError) -> [UInt8]? {
                let chunk = try source.bytes(at: offset + 4, length: length + 8)
                guard chunk.count == length + 8 else { throw .truncated("the file ends inside PNG chunk '\(type)'") }
                let stored = ByteOrder.bigEndian.read(UInt32.self, chunk, at: length + 4)
                guard !checksCRC || CRC32.png(chunk[..<(length + 4)]) == stored else {
                    found.warnings.append(.badChunkCRC(chunk: type))
                    return nil
                }
                return Array(chunk[4..<(length + 4)])
            }
            switch type {
            case "eXIf" where found.exif == nil:
                guard length <= metadataLimit else { throw .malformedContainer("the eXIf chunk is \(length) bytes") }
                guard let chunk = try checked() else { return found }
                found.exif = chunk
            case "iTXt" where wantXMP && found.xmp == nil && length <= metadataLimit:
                guard let chunk = try checked() else { break }
                found.xmp = xmpText(inITXt: chunk)
            case "IEND":
                return found
            default:
                break
            }
            if found.exif != nil, !wantXMP || found.xmp != nil { return found }
            offset = data + length + 4
        }
        return found
    }

    /// The text of an uncompressed `iTXt` chunk whose keyword is `XML:com.adobe.xmp`.
    static func xmpText(inITXt chunk: [UInt8]) -> [UInt8]? {
        let keyword = Array("XML:com.adobe.xmp".utf8)
        guard chunk.starts(with: keyword + [0]), chunk.count > keyword.count + 2 else { return nil }
        var index = keyword.count + 1
        guard chunk[index] == 0 else { return nil }  // compressed XMP is not read
        index += 2  // compression flag and method
        for _ in 0..<2 {  // language tag, translated keyword
            guard let end = chunk[index...].firstIndex(of: 0) else { return nil }
            index = end + 1
        }
        return Array(chunk[index...])
    }
}

/// WebP (RIFF): `RIFF`, size, `WEBP`, then chunks of a four-character code, a little-endian
/// size and data padded to an even length. The extended format (`VP8X`) carries `EXIF` and
/// `XMP ` chunks, usually after the image data, which is skipped by its size.
enum WebPChunks {
    static func read(_ source: some ByteSource, wantXMP: Bool) throws(PhotoGPSError) -> ChunkMetadata {
        var found = ChunkMetadata()
        var offset = 12
        let end = source.count
        while offset + 8 <= end {
            let header = try source.bytes(at: offset, length: 8)
            guard header.count == 8 else { break }
            let type = fourCC(header, 0)
            let length = Int(ByteOrder.littleEndian.read(UInt32.self, header, at: 4))
            let data = offset + 8
            guard data + length <= end else {
                if type == "EXIF" || type == "XMP " { throw .truncated("the file ends inside WebP chunk '\(type)'") }
                break
            }
            switch type {
            case "EXIF" where found.exif == nil:
                guard length <= metadataLimit else { throw .malformedContainer("the EXIF chunk is \(length) bytes") }
                found.exif = try source.bytes(at: data, length: length)
            case "XMP " where wantXMP && found.xmp == nil && length <= metadataLimit:
                found.xmp = try source.bytes(at: data, length: length)
            default:
                break
            }
            if found.exif != nil, !wantXMP || found.xmp != nil { return found }
            offset = data + length + (length & 1)
        }
        return found
    }
}

/// The CRC-32 of ISO 3309 and ITU-T V.42 (polynomial 0xEDB88320, reflected), as PNG chunks
/// carry it.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC of `bytes`.
    static func png(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
