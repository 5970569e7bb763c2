import Testing

@testable import ReverseGeocoding

/// The string pool of the place and boundary tables: what the builders' ``StringPool`` writes,
/// ``UnsafeStringPool`` reads back, and a damaged pool gives `nil` or fails validation rather
/// than a read outside it.
@Suite struct StringPoolTests {
    static func pool(_ strings: [String]) throws -> (bytes: [UInt8], offsets: [UInt32]) {
        var pool = StringPool(tooLarge: ReverseGeocodingError.tableTooLarge)
        let offsets = try strings.map { try pool.add($0) }
        return (pool.bytes, offsets)
    }

    @Test func whatIsWrittenIsReadBack() throws {
        let strings = ["Paris", "Île-de-France", "", "Paris", "東京", String(repeating: "x", count: 300)]
        let (bytes, offsets) = try Self.pool(strings)
        #expect(offsets[0] == offsets[3] && offsets[2] == 0)
        bytes.withUnsafeBytes { raw in
            let pool = UnsafeStringPool(raw)
            #expect(pool.isValid)
            for (string, offset) in zip(strings, offsets) where !string.isEmpty {
                #expect(pool.string(at: offset) == string)
                #expect(pool.utf8(at: offset).map(Array.init) == Array(string.utf8))
            }
            // Offset 0 is "none"; offsets at or past the end, or whose length runs past it, are too.
            #expect(pool.string(at: 0) == nil)
            #expect(pool.utf8(at: UInt32(raw.count)) == nil && pool.utf8(at: UInt32(raw.count - 1)) == nil)
            #expect(pool.utf8(at: .max) == nil)
        }
    }

    @Test func aDamagedPoolIsNotValidAndReadsStayInside() throws {
        var (bytes, offsets) = try Self.pool(["abc", "déf"])
        // The last string's length claims a byte past the end.
        bytes[Int(offsets[1])] += 1
        bytes.withUnsafeBytes { raw in
            let pool = UnsafeStringPool(raw)
            #expect(!pool.isValid)
            #expect(pool.utf8(at: offsets[1]) == nil)
            #expect(pool.string(at: offsets[0]) == "abc")
        }
        // Bytes that are not UTF-8.
        (bytes, offsets) = try Self.pool(["abc"])
        bytes[Int(offsets[0]) + 2] = 0xFF
        #expect(bytes.withUnsafeBytes { UnsafeStringPool($0).isValid } == false)
        // A byte left over after the last string.
        (bytes, _) = try Self.pool(["abc"])
        #expect(bytes.withUnsafeBytes { UnsafeStringPool($0).isValid })
        #expect((bytes + [0]).withUnsafeBytes { UnsafeStringPool($0).isValid } == false)
    }
}
