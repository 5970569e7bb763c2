/// The encoding of an XML document told from its first bytes (XML 1.0, appendix F): a byte
/// order mark, or without one the code units of its first `<`. XMP packets may be UTF-8, UTF-16
/// or UTF-32 in either byte order (XMP part 1, 7.3); sidecars written by some Windows tools are
/// UTF-16 with a BOM, which xmllint and ExifTool read. phototag reads UTF-8, so the others are
/// transcoded first.
enum XMLEncoding: Equatable {
    case utf8
    case utf16(bigEndian: Bool)
    case utf32(bigEndian: Bool)

    /// The encoding of a document starting with `head`, and how many bytes its BOM takes.
    static func detect(_ head: some Collection<UInt8>) -> (encoding: XMLEncoding, bomLength: Int) {
        let bytes = Array(head.prefix(4)) + [UInt8](repeating: 0x01, count: max(0, 4 - head.count))
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return (.utf32(bigEndian: true), 4)
        case (0xFF, 0xFE, 0x00, 0x00): return (.utf32(bigEndian: false), 4)
        case (0xFE, 0xFF, _, _): return (.utf16(bigEndian: true), 2)
        case (0xFF, 0xFE, _, _): return (.utf16(bigEndian: false), 2)
        case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
        case (0x00, 0x00, 0x00, 0x3C): return (.utf32(bigEndian: true), 0)
        case (0x3C, 0x00, 0x00, 0x00): return (.utf32(bigEndian: false), 0)
        case (0x00, 0x3C, 0x00, _): return (.utf16(bigEndian: true), 0)
        case (0x3C, 0x00, _, 0x00): return (.utf16(bigEndian: false), 0)
        default: return (.utf8, 0)
        }
    }

    /// The document as UTF-8, without its BOM; the bytes as they are when they already are
    /// UTF-8 without one. `nil` when they are not valid in their encoding (an unpaired
    /// surrogate, a cut-off code unit): such a document is not well-formed.
    static func utf8(_ document: [UInt8]) -> [UInt8]? {
        let (encoding, bom) = detect(document)
        switch encoding {
        case .utf8:
            return bom == 0 ? document : Array(document[bom...])
        case .utf16(let bigEndian):
            let body = document[(document.startIndex + bom)...]
            guard body.count % 2 == 0 else { return nil }
            return transcoded(units16(body, bigEndian: bigEndian), from: UTF16.self)
        case .utf32(let bigEndian):
            let body = document[(document.startIndex + bom)...]
            guard body.count % 4 == 0 else { return nil }
            return transcoded(units32(body, bigEndian: bigEndian), from: UTF32.self)
        }
    }

    /// The first characters of a document as text, leniently (a code unit cut off at the end,
    /// or an invalid one, becomes U+FFFD): enough to tell what the document is.
    static func leadingText(_ head: [UInt8]) -> String {
        let (encoding, bom) = detect(head)
        let body = head[bom...]
        switch encoding {
        case .utf8: return String(decoding: body, as: UTF8.self)
        case .utf16(let bigEndian): return String(decoding: units16(body, bigEndian: bigEndian), as: UTF16.self)
        case .utf32(let bigEndian): return String(decoding: units32(body, bigEndian: bigEndian), as: UTF32.self)
        }
    }

    /// The whole 16-bit code units of `bytes` (a last odd byte is left out).
    private static func units16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt16] {
        stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map { index in
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
    }

    /// The whole 32-bit code units of `bytes` (a last incomplete one is left out).
    private static func units32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt32] {
        stride(from: bytes.startIndex, to: bytes.endIndex - 3, by: 4).map { index in
            (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[index + (bigEndian ? $1 : 3 - $1)]) }
        }
    }

    private static func transcoded<Codec: UnicodeCodec>(
        _ units: [Codec.CodeUnit], from codec: Codec.Type
    ) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        let failed = transcode(units.makeIterator(), from: codec, to: UTF8.self, stoppingOnError: true) {
            out.append($0)
        }
        return failed ? nil : out
    }
}
