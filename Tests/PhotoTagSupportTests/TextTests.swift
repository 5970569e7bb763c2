import Testing

@testable import PhotoTagSupport

@Suite struct DecimalNumberTests {
    @Test(arguments: [
        ("12.5", 12.5), ("-12.5", -12.5), ("+3", 3), (".5", 0.5), ("5.", 5), ("0", 0),
        ("-0.000001", -0.000001), ("48.858222", 48.858222), ("1e-3", 0.001), ("2.5E+2", 250),
        ("12345678901234567890.5", 12_345_678_901_234_567_890.5),
    ])
    func readsPlainDecimalsCorrectlyRounded(text: String, value: Double) {
        #expect(DecimalNumber.parse(Array(text.utf8)) == value)
        // The fast path and the standard library agree to the last bit.
        #expect(DecimalNumber.parse(Array(text.utf8)) == Double(text))
    }

    @Test(arguments: [
        "", "-", "+", ".", "nan", "inf", "-inf", "0x10", "1.2.3", " 1", "1 ", "1e", "1e+", "--1", "1,5", "１",
    ])
    func rejectsWhatIsNotADecimal(text: String) {
        #expect(DecimalNumber.parse(Array(text.utf8)) == nil)
    }

    @Test func theExponentCanBeRuledOut() {
        #expect(DecimalNumber.parse(Array("1e3".utf8), exponent: .rejected) == nil)
        #expect(DecimalNumber.parse(Array("1e3".utf8), exponent: .allowed) == 1000)
        #expect(DecimalNumber.parse(Array("-7.25".utf8), exponent: .rejected) == -7.25)
    }

    @Test func readsASliceOfALine() {
        let line = Array("48.8,2.35".utf8)
        #expect(DecimalNumber.parse(line[0..<4]) == 48.8)
        #expect(DecimalNumber.parse(line[5...]) == 2.35)
    }

    @Test func manyDigitsRoundLikeTheStandardLibrary() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(Int64(bitPattern: state >> 1) % 360_000_000_000) / 1e9 - 180
            let text = "\(value)"
            #expect(DecimalNumber.parse(Array(text.utf8)) == Double(text), "\(text)")
        }
    }
}

@Suite struct TextTests {
    @Test func zeroPaddingWidensOnlyShortNumbers() {
        #expect(zeroPadded(7, 3) == "007")
        #expect(zeroPadded(2026, 4) == "2026")
        #expect(zeroPadded(12345, 4) == "12345")
    }

    @Test func hexDigitsAreLowercaseHighNibbleFirst() {
        let all = (0...255).map { byte -> String in
            let digits = hexDigits(UInt8(byte))
            return String(decoding: [digits.high, digits.low], as: UTF8.self)
        }
        #expect(all == (0...255).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) })
    }
}

@Suite struct GregorianCalendarTests {
    @Test func daysRoundTripAcrossCenturiesAndLeapDays() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 97) {
            let date = GregorianCalendar.civilDate(fromDays: days)
            #expect(GregorianCalendar.daysSinceEpoch(year: date.year, month: date.month, day: date.day) == days)
            #expect((1...GregorianCalendar.daysIn(month: date.month, year: date.year)).contains(date.day))
        }
    }

    @Test func knownDays() {
        #expect(GregorianCalendar.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(GregorianCalendar.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(GregorianCalendar.civilDate(fromDays: -1) == (1969, 12, 31))
        #expect(GregorianCalendar.weekday(fromDays: 0) == 4)  // a Thursday
        #expect(GregorianCalendar.daysIn(month: 2, year: 1900) == 28)
        #expect(GregorianCalendar.daysIn(month: 2, year: 2000) == 29)
        #expect(GregorianCalendar.floorDivide(-7, 2) == -4)
        #expect(GregorianCalendar.floorModulo(-7, 2) == 1)
    }
}

@Suite struct ISO8601TextTests {
    @Test(arguments: [
        (2019, 7, 1, 12, 34, 56, 240_000_000, nil as Int?, "2019-07-01T12:34:56.24Z"),
        (1, 1, 1, 0, 0, 0, 0, nil, "0001-01-01T00:00:00Z"),
        (9999, 12, 31, 23, 59, 59, 999_999_999, nil, "9999-12-31T23:59:59.999999999Z"),
        (2024, 2, 29, 8, 5, 9, 1, 7_200, "2024-02-29T08:05:09.000000001+02:00"),
        (1990, 10, 3, 23, 0, 0, 500_000_000, -(3 * 3600 + 30 * 60), "1990-10-03T23:00:00.5-03:30"),
        (1880, 1, 1, 0, 0, 0, 0, -(5 * 3600 + 17 * 60 + 32), "1880-01-01T00:00:00-05:17:32"),
        (2000, 6, 15, 12, 0, 0, 0, 0, "2000-06-15T12:00:00+00:00"),
        (0, 1, 1, 0, 0, 0, 0, -(99 * 3600 + 59 * 60 + 59), "0000-01-01T00:00:00-99:59:59"),
    ])
    func writesTheDateTimeItsFractionAndItsOffset(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int, offset: Int?,
        text: String
    ) {
        let written = [UInt8](unsafeUninitializedCapacity: ISO8601Text.maximumLength) { buffer, count in
            count = ISO8601Text.write(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                nanoseconds: nanoseconds, offset: offset, into: buffer)
        }
        #expect(String(decoding: written, as: UTF8.self) == text)
    }
}
