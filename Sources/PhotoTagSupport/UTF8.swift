// UTF-8 validation: one validator for the paths the CLI writes and the string pools of the tables
// ReverseGeocoding opens.

/// Whether `bytes` are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, surrogates or
/// code points past U+10FFFF), exactly when `String(decoding:as:)` keeps them as they are.
package func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
        // ASCII, the bulk of paths, eight bytes at a time.
        while index + 8 <= count,
            bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
            index += 8
        }
        guard index < count else { break }
        let lead = bytes[index]
        if lead < 0x80 {
            index += 1
            continue
        }
        // The length of the sequence, and the range of its second byte.
        var length = 3
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: break
        case 0xED: high = 0x9F
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return false
        }
        guard index + length <= count, low...high ~= bytes[index + 1] else { return false }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
        index += length
    }
    return true
}
