import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// NDJSON records are written by ``JSONCursor`` in one piece each; the `json` format still goes
/// through ``JSONWriter`` one key at a time. Both must give the same text, whitespace aside.
@Suite struct CompactJSONTests {
    /// Seeded points with 0 to 8 decimals, some at sea and near the poles, and some lines that
    /// are not coordinates (error records).
    static func points(_ count: Int) -> String {
        var random = SeededGenerator(state: 14)
        var lines = ""
        for index in 0..<count {
            if index % 997 == 0 {
                lines += ["nowhere", "91,0", "1,2,3", "\"quoted\",x"][index / 997 % 4] + "\n"
                continue
            }
            let decimals = Int.random(in: 0...8, using: &random)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let latitude = (Double.random(in: -90...90, using: &random) * scale).rounded() / scale
            let longitude = (Double.random(in: -180...180, using: &random) * scale).rounded() / scale
            lines += "\(latitude),\(longitude)\n"
        }
        return lines
    }

    /// `text` without the whitespace outside its strings.
    static func minified(_ text: String) -> String {
        var result: [UInt8] = []
        var inString = false, escaped = false
        for byte in text.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == 0x20 || byte == 0x0A {
                continue
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    @Test(arguments: [[], ["--nearest", "3"], ["--min-population", "100000"], ["--max-distance", "50"]])
    func ndjsonRecordsAreTheJSONRecordsOnOneLine(_ options: [String]) throws {
        let points = Self.points(20_000)
        func run(_ format: String) -> String {
            let output = MemorySink(), errors = MemorySink()
            _ = PhotoTag.run(
                ["geocode", "--format", format] + options, input: MemoryInput(points), output: output,
                errors: errors)
            return output.text
        }
        let ndjson = run("ndjson")
        let lines = ndjson.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 20_000)
        #expect("[" + lines.joined(separator: ",") + "]" == Self.minified(run("json")))
    }

    /// Photo records take their own one-line path (``PhotoRecord/write(to:nearby:)``): every
    /// fixture (positions, camera and capture times, warnings of every source, sidecars, errors)
    /// and, when present, the shared corpus, with and without `nearby`.
    @Test(arguments: [["--places", Fixtures.places], ["--nearest", "2"], ["--no-place"]])
    func ndjsonPhotoRecordsAreTheJSONRecordsOnOneLine(_ options: [String]) throws {
        var roots = [Fixtures.root + "/photos", Fixtures.root + "/sidecars", Fixtures.root + "/videos"]
        if FileManager.default.fileExists(atPath: SharedData.path("corpus/dev")) {
            roots.append(SharedData.path("corpus/dev"))
        }
        func run(_ format: String) -> String {
            let output = MemorySink(), errors = MemorySink()
            _ = PhotoTag.run(
                ["scan", "--format", format] + options + roots, input: MemoryInput(""),
                output: output, errors: errors)
            return output.text
        }
        let ndjson = run("ndjson")
        let lines = ndjson.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count > 100)
        #expect(lines.contains { $0.contains("\"warnings\":[\"") })
        #expect(lines.contains { $0.contains("\"sidecar\":\"") })
        #expect("[" + lines.joined(separator: ",") + "]" == Self.minified(run("json")))
    }

    /// Strings with every byte JSON escapes, at every position of an eight-byte word.
    @Test func cursorEscapesAsTheByteByByteEscapeDoes() {
        var random = SeededGenerator(state: 15)
        let alphabet: [UInt8] =
            [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F]
            + Array("abcxyzÉé東京".utf8)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &random)
            let clean = Bool.random(using: &random)
            let bytes = (0..<length).map { _ in
                clean ? UInt8.random(in: 0x23...0x5B, using: &random) : alphabet.randomElement(using: &random)!
            }
            var expected = "\""
            for byte in bytes {
                switch byte {
                case 0x22: expected += "\\\""
                case 0x5C: expected += "\\\\"
                case 0x0A: expected += "\\n"
                case 0x0D: expected += "\\r"
                case 0x09: expected += "\\t"
                case 0..<0x20, 0x7F: expected += String(format: "\\u%04x", byte)
                default: expected += String(UnicodeScalar(byte))
                }
            }
            expected += "\""
            let out = ByteBuffer()
            bytes.withUnsafeBytes { text in JSONWriter.write(atMost: JSONCursor.room(text), to: out) { $0.string(text) }
            }
            // Compared as bytes: the alphabet's UTF-8 sequences are cut anywhere.
            let expectedBytes = expected.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            #expect(out.bytes == expectedBytes, "\(bytes)")
        }
    }

    /// The compact records write the at-sea warning from a literal of its own: it must be the
    /// warning, quoted as the writer quotes it.
    @Test func atSeaWarningLiteralIsTheWarningQuoted() {
        let out = ByteBuffer()
        JSONWriter.appendQuoted(atSeaWarning, to: out)
        #expect(out.bytes == CoordinateRecord.atSeaWarningJSON.withUTF8Buffer { Array($0) })
    }

    @Test func numbersOfTheGeneralPathAreTheirDescriptions() {
        // Values the seven-decimal path declines (DMS coordinates, random bit patterns, the
        // extremes) take the standard library's digits through DigitSink: the same text as
        // `description`, within the room a number is given; infinities and NaN are null.
        var random = SeededGenerator(state: 17)
        var values: [Double] = [
            48.858222222222224, -0.1, 1e16, 1e15, 1e-5, 0.0001, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .leastNormalMagnitude, 123_456_789_012_345_680, 1.0 / 3,
            -973_736_468.835_811_3, 999_999_999.999_999_9, 1_000_000.000_000_1, 12_345_678.123_456_78,
        ]
        for _ in 0..<50_000 {
            let bits = Double(bitPattern: random.next())
            if bits.isFinite { values.append(bits) }
            values.append(Double.random(in: -180...180, using: &random))
        }
        for value in values {
            let out = ByteBuffer()
            JSONWriter.write(atMost: JSONCursor.numberRoom, to: out) { $0.number(value) }
            #expect(String(decoding: out.bytes, as: UTF8.self) == value.description)
            #expect(out.bytes.count <= 24)
        }
        for value in [Double.infinity, -.infinity, .nan, -.nan, .signalingNaN] {
            let out = ByteBuffer()
            JSONWriter.write(atMost: JSONCursor.numberRoom, to: out) { $0.number(value) }
            #expect(out.bytes == Array("null".utf8))
        }
    }

    @Test func cursorIntegersAreTheirDescriptions() {
        var random = SeededGenerator(state: 16)
        var values = [0, 9, 10, 99, 100, -1, Int.max, Int.min, 999_999_999_999_999_999, 1_000_000_000_000_000_000]
        for _ in 0..<20_000 {
            values.append(Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0...63, using: &random))
        }
        for value in values {
            let out = ByteBuffer()
            JSONWriter.appendDigits(value, to: out)
            #expect(String(decoding: out.bytes, as: UTF8.self) == value.description)
        }
    }
}
