import Testing

@testable import PhotoTagSupport

/// The one reader and writer of integers in a byte order: both orders, every width, signed
/// values, collections and raw memory at unaligned offsets agree.
@Suite struct ByteOrderTests {
    static let bytes: [UInt8] = [0xFF, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88]

    @Test func eachOrderReadsItsOwnWay() {
        let bytes = Self.bytes
        #expect(ByteOrder.bigEndian.read(UInt16.self, bytes, at: 1) == 0x0102)
        #expect(ByteOrder.littleEndian.read(UInt16.self, bytes, at: 1) == 0x0201)
        #expect(ByteOrder.bigEndian.read(UInt32.self, bytes, at: 1) == 0x0102_0304)
        #expect(ByteOrder.littleEndian.read(UInt32.self, bytes, at: 1) == 0x0403_0201)
        #expect(ByteOrder.bigEndian.read(UInt64.self, bytes, at: 1) == 0x0102_0304_0506_0788)
        #expect(ByteOrder.littleEndian.read(UInt64.self, bytes, at: 1) == 0x8807_0605_0403_0201)
        #expect(ByteOrder.bigEndian.read(UInt8.self, bytes, at: 0) == 0xFF)
        // Signed values keep their sign (a TZif offset, a tz transition before 1970).
        #expect(ByteOrder.bigEndian.read(Int16.self, bytes, at: 0) == Int16(bitPattern: 0xFF01))
        #expect(ByteOrder.littleEndian.read(Int32.self, [0xFE, 0xFF, 0xFF, 0xFF], at: 0) == -2)
        #expect(ByteOrder.bigEndian.read(Int64.self, [UInt8](repeating: 0xFF, count: 8), at: 0) == -1)
        // A slice is read by its own indices.
        #expect(ByteOrder.bigEndian.read(UInt16.self, bytes[4...], at: 5) == 0x0506)
        #expect(ByteOrder(bigEndian: true) == .bigEndian && ByteOrder(bigEndian: false) == .littleEndian)
    }

    @Test(arguments: [ByteOrder.bigEndian, .littleEndian])
    func rawLoadsAtEveryOffsetAgreeWithTheByteReads(order: ByteOrder) {
        Self.bytes.withUnsafeBytes { raw in
            for offset in 0...(raw.count - 8) {
                #expect(order.load(UInt64.self, raw, at: offset) == order.read(UInt64.self, Self.bytes, at: offset))
                #expect(order.load(Int32.self, raw, at: offset) == order.read(Int32.self, Self.bytes, at: offset))
                #expect(
                    order.load(UInt16.self, raw.baseAddress!, at: offset) == order.read(UInt16.self, raw, at: offset))
            }
        }
    }

    @Test(arguments: [ByteOrder.bigEndian, .littleEndian])
    func whatIsWrittenReadsBack(order: ByteOrder) {
        var bytes = [UInt8](repeating: 0, count: 16)
        order.write(UInt32(0xDEAD_BEEF), to: &bytes, at: 1)
        order.write(Int16(-3), to: &bytes, at: 5)
        #expect(order.read(UInt32.self, bytes, at: 1) == 0xDEAD_BEEF)
        #expect(order.read(Int16.self, bytes, at: 5) == -3)
        #expect(bytes[0] == 0 && bytes[7...].allSatisfy { $0 == 0 })
        #expect(Array(bytes[1..<5]) == (order == .bigEndian ? [0xDE, 0xAD, 0xBE, 0xEF] : [0xEF, 0xBE, 0xAD, 0xDE]))

        var appended: [UInt8] = [9]
        order.append(UInt64(0x0102_0304_0506_0708), to: &appended)
        order.append(UInt16(0xABCD), to: &appended)
        #expect(appended.count == 11 && appended[0] == 9)
        #expect(order.read(UInt64.self, appended, at: 1) == 0x0102_0304_0506_0708)
        #expect(order.read(UInt16.self, appended, at: 9) == 0xABCD)

        bytes.withUnsafeMutableBytes { raw in order.store(UInt64(0x1122_3344_5566_7788), raw.baseAddress!, at: 3) }
        #expect(order.read(UInt64.self, bytes, at: 3) == 0x1122_3344_5566_7788)
        #expect(order.host(order.stored(UInt32(0x0102_0304))) == 0x0102_0304)
    }
}
