// A small PNG reader for the tests: enough of zlib (inflate) and PNG (8-bit greyscale, RGB,
// RGBA and palette images, all five filters, no interlace) to read back what rsvg-convert
// and Chromium write.

/// Why a PNG could not be read.
struct PNGError: Error, CustomStringConvertible {
    var description: String
}

/// A decoded image: 8-bit RGBA pixels, row by row from the top.
struct PNGImage {
    let width: Int
    let height: Int
    let rgba: [UInt8]

    /// The colour at a pixel as `#rrggbb` (alpha ignored), `nil` outside the image.
    func colour(x: Int, y: Int) -> String? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = 4 * (y * width + x)
        let hex = Array("0123456789abcdef")
        var text = "#"
        for channel in 0..<3 {
            let value = rgba[offset + channel]
            text.append(hex[Int(value >> 4)])
            text.append(hex[Int(value & 15)])
        }
        return text
    }

    /// The channels at a pixel.
    func pixel(x: Int, y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
        let offset = 4 * (y * width + x)
        return (Int(rgba[offset]), Int(rgba[offset + 1]), Int(rgba[offset + 2]), Int(rgba[offset + 3]))
    }

    /// How many distinct colours the image has.
    var distinctColours: Int {
        var seen = Set<UInt32>()
        for offset in stride(from: 0, to: rgba.count, by: 4) {
            seen.insert(
                UInt32(rgba[offset]) << 24 | UInt32(rgba[offset + 1]) << 16 | UInt32(rgba[offset + 2]) << 8
                    | UInt32(rgba[offset + 3]))
        }
        return seen.count
    }

    init(_ bytes: [UInt8]) throws {
        let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { throw PNGError(description: "not a PNG") }
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var offset = 8
        var width = 0, height = 0, depth = 0, colourType = 0, interlace = 0
        var data: [UInt8] = []
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = Array(bytes[offset + 8..<offset + 8 + length])
            switch type {
            case "IHDR":
                width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                depth = Int(body[8])
                colourType = Int(body[9])
                interlace = Int(body[12])
            case "PLTE": palette = body
            case "tRNS": transparency = body
            case "IDAT": data += body
            default: break
            }
            offset += 12 + length
            if type == "IEND" { break }
        }
        guard depth == 8, interlace == 0 else {
            throw PNGError(description: "bit depth \(depth), interlace \(interlace): not supported")
        }
        let channels: Int
        switch colourType {
        case 0: channels = 1
        case 2: channels = 3
        case 3: channels = 1
        case 4: channels = 2
        case 6: channels = 4
        default: throw PNGError(description: "colour type \(colourType)")
        }
        let raw = try Inflate.zlib(data)
        let stride = width * channels
        guard raw.count >= height * (stride + 1) else { throw PNGError(description: "short image data") }
        var previous = [UInt8](repeating: 0, count: stride)
        var rgba = [UInt8](repeating: 255, count: 4 * width * height)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            var line = Array(raw[row * (stride + 1) + 1..<(row + 1) * (stride + 1)])
            for index in 0..<stride {
                let left = index >= channels ? Int(line[index - channels]) : 0
                let up = Int(previous[index])
                let upLeft = index >= channels ? Int(previous[index - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let pa = abs(p - left), pb = abs(p - up), pc = abs(p - upLeft)
                    predictor = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
                default: throw PNGError(description: "filter \(filter)")
                }
                line[index] = UInt8(truncatingIfNeeded: Int(line[index]) + predictor)
            }
            for x in 0..<width {
                let out = 4 * (row * width + x), at = x * channels
                switch colourType {
                case 0, 4:
                    rgba[out] = line[at]
                    rgba[out + 1] = line[at]
                    rgba[out + 2] = line[at]
                    if colourType == 4 { rgba[out + 3] = line[at + 1] }
                case 3:
                    let entry = Int(line[at])
                    guard 3 * entry + 2 < palette.count else { throw PNGError(description: "palette index") }
                    rgba[out] = palette[3 * entry]
                    rgba[out + 1] = palette[3 * entry + 1]
                    rgba[out + 2] = palette[3 * entry + 2]
                    if entry < transparency.count { rgba[out + 3] = transparency[entry] }
                default:
                    rgba[out] = line[at]
                    rgba[out + 1] = line[at + 1]
                    rgba[out + 2] = line[at + 2]
                    if colourType == 6 { rgba[out + 3] = line[at + 3] }
                }
            }
            previous = line
        }
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

/// DEFLATE (RFC 1951) inside a zlib wrapper (RFC 1950), after zlib's `puff.c`.
enum Inflate {
    private struct Bits {
        let bytes: [UInt8]
        var position = 0
        var buffer = 0
        var count = 0

        mutating func take(_ need: Int) throws -> Int {
            var value = buffer
            while count < need {
                guard position < bytes.count else { throw PNGError(description: "deflate data ends early") }
                value |= Int(bytes[position]) << count
                position += 1
                count += 8
            }
            buffer = value >> need
            count -= need
            return value & ((1 << need) - 1)
        }
    }

    /// Canonical Huffman code: counts per length and symbols in code order.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        func decode(_ bits: inout Bits) throws -> Int {
            var code = 0, first = 0, index = 0
            for length in 1...15 {
                code |= try bits.take(1)
                let count = counts[length]
                if code - count < first { return symbols[index + (code - first)] }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw PNGError(description: "bad Huffman code")
        }
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The data of a zlib stream.
    static func zlib(_ data: [UInt8]) throws -> [UInt8] {
        guard data.count > 2, data[0] & 15 == 8 else { throw PNGError(description: "not a zlib stream") }
        var bits = Bits(bytes: Array(data[2...]))
        var output: [UInt8] = []
        var last = 0
        repeat {
            last = try bits.take(1)
            switch try bits.take(2) {
            case 0:
                bits.buffer = 0
                bits.count = 0
                let at = bits.position
                guard at + 4 <= bits.bytes.count else { throw PNGError(description: "stored block") }
                let length = Int(bits.bytes[at]) | Int(bits.bytes[at + 1]) << 8
                guard at + 4 + length <= bits.bytes.count else { throw PNGError(description: "stored block") }
                output += bits.bytes[at + 4..<at + 4 + length]
                bits.position = at + 4 + length
            case 1:
                var lengths = [Int](repeating: 8, count: 288)
                for index in 144..<256 { lengths[index] = 9 }
                for index in 256..<280 { lengths[index] = 7 }
                try codes(&bits, &output, Huffman(lengths: lengths), Huffman(lengths: [Int](repeating: 5, count: 30)))
            case 2:
                let literalCount = try bits.take(5) + 257, distanceCount = try bits.take(5) + 1
                let codeCount = try bits.take(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var codeLengths = [Int](repeating: 0, count: 19)
                for index in 0..<codeCount { codeLengths[order[index]] = try bits.take(3) }
                let lengthCode = Huffman(lengths: codeLengths)
                var lengths: [Int] = []
                while lengths.count < literalCount + distanceCount {
                    let symbol = try lengthCode.decode(&bits)
                    switch symbol {
                    case 0..<16: lengths.append(symbol)
                    case 16:
                        guard let previous = lengths.last else { throw PNGError(description: "repeat with no length") }
                        lengths += [Int](repeating: previous, count: 3 + (try bits.take(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits.take(3)))
                    default: lengths += [Int](repeating: 0, count: 11 + (try bits.take(7)))
                    }
                }
                try codes(
                    &bits, &output, Huffman(lengths: Array(lengths[0..<literalCount])),
                    Huffman(lengths: Array(lengths[literalCount..<literalCount + distanceCount])))
            default:
                throw PNGError(description: "bad block type")
            }
        } while last == 0
        return output
    }

    private static func codes(
        _ bits: inout Bits, _ output: inout [UInt8], _ literals: Huffman, _ distances: Huffman
    )
        throws
    {
        while true {
            let symbol = try literals.decode(&bits)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw PNGError(description: "bad length symbol") }
                let length = lengthBase[index] + (try bits.take(lengthExtra[index]))
                let code = try distances.decode(&bits)
                guard code < 30 else { throw PNGError(description: "bad distance symbol") }
                let distance = distanceBase[code] + (try bits.take(distanceExtra[code]))
                guard distance <= output.count else { throw PNGError(description: "distance too far back") }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }
}
