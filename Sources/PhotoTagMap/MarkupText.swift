/// Text made safe for XML/HTML, JSON and URLs, and numbers written the same way on every run.
enum MarkupText {
    /// `text` for XML or HTML content and attribute values: `& < > " '` as references, and the
    /// characters XML 1.0 forbids (control characters other than tab, newline and carriage
    /// return, U+FFFE, U+FFFF) as U+FFFD.
    static func escaped(_ text: String) -> String {
        // Most text needs nothing: then it is returned as it is.
        let plain = text.utf8.allSatisfy {
            $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">")
                && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") && $0 != 0xEF
        }
        if plain { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    output += "\u{FFFD}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// A path's bytes as text to show: UTF-8, with U+FFFD for each byte that is not.
    static func shown(_ path: [UInt8]) -> String { String(decoding: path, as: UTF8.self) }

    /// The last component of a path, as bytes.
    static func fileName(_ path: [UInt8]) -> [UInt8] {
        var end = path.count
        while end > 1, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = path[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return Array(path[start..<end])
    }

    /// A `file://` URL of an absolute path (a relative path gives a relative reference): every
    /// byte but the unreserved ASCII characters and `/` percent-encoded, so any file name, even
    /// one that is not UTF-8, links to the very bytes of the path.
    static func fileURL(_ path: [UInt8]) -> String {
        var output: [UInt8] = path.first == UInt8(ascii: "/") ? Array("file://".utf8) : []
        output.reserveCapacity(output.count + path.count + 16)
        for byte in path {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 15)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A JSON string literal, safe inside an HTML `<script>` element (`<`, `>` and `&` escaped,
    /// and the line separators JavaScript once rejected).
    static func json(_ text: String) -> String {
        let plain = text.utf8.allSatisfy {
            $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "<")
                && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "&") && $0 != 0xE2
        }
        if plain { return "\"" + text + "\"" }
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                output += "\\u" + hex4(scalar.value)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output += "\\u" + hex4(scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let hex = Array("0123456789abcdef".unicodeScalars)
        return String(String.UnicodeScalarView((0..<4).reversed().map { hex[Int((value >> (4 * $0)) & 15)] }))
    }

    /// `value` with exactly `decimals` digits after the point (none when 0), rounded half away
    /// from zero, never `-0`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        let scaled = Int64((abs(value) * power).rounded())
        guard scaled != 0 else { return decimals == 0 ? "0" : "0." + String(repeating: "0", count: decimals) }
        var digits = String(scaled)
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return value < 0 ? "-" + digits : digits
    }

    /// A pixel coordinate: one decimal, without a trailing `.0`.
    static func pixel(_ value: Double) -> String {
        let text = fixed(value, 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `1 file`, `2 files`, `12,345 files`.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }

    /// An integer with a comma between groups of three digits (`12,345`).
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// A marker's count in at most four characters: `999`, `1234`, `12k`, `123k`, `1.2M`.
    static func short(_ value: Int) -> String {
        if value < 10_000 { return String(value) }
        if value < 1_000_000 { return "\(value / 1000)k" }
        return fixed(Double(value) / 1e6, value < 10_000_000 ? 1 : 0) + "M"
    }
}
