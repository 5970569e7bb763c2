import PhotoTagSupport

/// A streaming reader of IGC flight logs (FAI gliding), read as ExifTool 13.58 reads them.
///
/// - The file starts with an `A` record (the logger's manufacturer).
/// - The date is the `HFDTE` header's: `HFDTEDDMMYY` or `HFDTEDATE:DDMMYY,NN` (a year `70`–`99`
///   is 19xx, others 20xx); a later `HFDTE` header replaces it. A `B` record before any date
///   cannot be placed: the file is refused.
/// - Each `B` record is a fix: `BHHMMSSDDMMmmmNDDDMMmmmEVPPPPPGGGGG`, time UTC, latitude and
///   longitude in degrees, minutes and thousandths of minutes, validity `A` (3D) or `V` (2D),
///   pressure and GNSS altitudes in metres. Both validities are kept; the altitude is the GNSS
///   one (above the WGS84 ellipsoid), and only for `A` records, as ExifTool takes it.
/// - A time of day more than 2 s earlier than the previous record's is the next day (a flight
///   over midnight UTC).
/// - Other records (`H`, `I`, `L`, `E`, `F`, `G`…) are passed over.
struct IGCParser: TrackParser {
    /// The file's lines.
    private var lines = TrackLineSplitter()
    /// What the records read so far have left.
    private var reader = IGCReader()

    /// A reader at the start of a file.
    init() {}

    /// Whether `prefix` (a file's first bytes) is IGC: its first line is an `A` record with a
    /// three-character manufacturer code (capitals or digits), every other line starts with a
    /// record letter `A`–`L`, and at least one is an `H` record (`HF`, `HO` or `HP` and a
    /// three-letter code: `HFDTE`).
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        var lineCount = 0, sawHeader = false, valid = true
        _ = TrackText.anyLine(of: prefix) { line in
            guard !line.isEmpty else { return false }
            lineCount += 1
            if lineCount == 1 {
                valid =
                    line.count >= 4 && line[0] == UInt8(ascii: "A")
                    && (1...3).allSatisfy { IGCReader.isCapitalOrDigit(line[$0]) }
            } else if line[0] == UInt8(ascii: "H") {
                valid =
                    line.count >= 5 && [UInt8(ascii: "F"), UInt8(ascii: "O"), UInt8(ascii: "P")].contains(line[1])
                    && (2...4).allSatisfy { IGCReader.isCapitalOrDigit(line[$0]) }
                sawHeader = true
            } else {
                valid = line[0] >= UInt8(ascii: "A") && line[0] <= UInt8(ascii: "L")
            }
            return !valid
        }
        return valid && sawHeader
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        try lines.feed(chunk, &reader) { reader, line, number throws(TrackReadError) in
            try reader.read(line, number, &sink)
        }
    }

    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        try lines.finish(&reader) { reader, line, number throws(TrackReadError) in
            try reader.read(line, number, &sink)
        }
        guard reader.sawRecord else { throw TrackReadError("not an IGC file: it has no records") }
    }
}

/// IGCParser's state between lines: the date and the previous record's time of day.
struct IGCReader {
    /// Whether a record (the `A` record) has been read.
    private(set) var sawRecord = false
    /// Midnight UTC of the current record's day, in seconds since the Unix epoch.
    private var date: Double?
    /// The previous `B` record's time of day, in seconds (ExifTool's `$lastSecs`).
    private var lastSeconds = 0

    /// Reads one line.
    mutating func read(
        _ line: UnsafeRawBufferPointer, _ number: Int, _ sink: inout some TrackSink
    ) throws(TrackReadError) {
        let end = TrackText.trimmed(line, 0..<line.count).upperBound
        guard end > 0 else { return }
        if !sawRecord {
            guard line[0] == UInt8(ascii: "A") else {
                throw TrackReadError("not an IGC file: line \(number) is not an A record")
            }
            sawRecord = true
            return
        }
        switch line[0] {
        case UInt8(ascii: "H"):
            try header(line, end, number)
        case UInt8(ascii: "B"):
            guard let date else {
                throw TrackReadError("no date in the IGC file: line \(number) has a B record before any HFDTE header")
            }
            record(line, end, number, date, &sink)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            break  // the other record types (I, J, C, E, F, G, K, L…) hold no fix
        default:
            // Not a record at all: damage, which may have been a B record.
            sink.skip("line \(number): not an IGC record (it starts with \(TrackText.quoted(line, 0..<1)))")
        }
    }

    /// An `H` record: the date when it is `HFDTE`.
    private mutating func header(_ line: UnsafeRawBufferPointer, _ end: Int, _ number: Int) throws(TrackReadError) {
        let name: [UInt8] = Array("HFDTE".utf8)
        guard end >= 5, (0..<5).allSatisfy({ line[$0] == name[$0] }) else { return }
        var start = 5
        let label: [UInt8] = Array("DATE:".utf8)
        if end >= 10, (0..<5).allSatisfy({ line[5 + $0] == label[$0] }) {
            start = 10
        } else if end > 5, line[5] == UInt8(ascii: ":") {
            start = 6
        }
        guard start + 6 <= end, start + 6 == end || !(0x30...0x39).contains(line[start + 6]),
            let day = TrackText.digits(line, start..<start + 2),
            let month = TrackText.digits(line, start + 2..<start + 4),
            let shortYear = TrackText.digits(line, start + 4..<start + 6),
            (1...12).contains(month), day >= 1,
            day <= GregorianCalendar.daysIn(month: month, year: shortYear + (shortYear >= 70 ? 1900 : 2000))
        else {
            throw TrackReadError(
                "line \(number): the HFDTE header's date \(TrackText.quoted(line, start..<end)) is not DDMMYY")
        }
        let year = shortYear + (shortYear >= 70 ? 1900 : 2000)
        date = Double(GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day) * 86_400)
        lastSeconds = 0
    }

    /// A `B` record: a fix, or a skip with the reason.
    private mutating func record(
        _ line: UnsafeRawBufferPointer, _ end: Int, _ number: Int, _ day: Double, _ sink: inout some TrackSink
    ) {
        guard end >= 25 else {
            sink.skip("line \(number): B record shorter than 25 characters")
            return
        }
        guard let hour = TrackText.digits(line, 1..<3), let minute = TrackText.digits(line, 3..<5),
            let second = TrackText.digits(line, 5..<7), hour <= 23, minute <= 59, second <= 59
        else {
            sink.skip("line \(number): B record time \(TrackText.quoted(line, 1..<7)) is not HHMMSS")
            return
        }
        guard let latitude = Self.coordinate(line, 7, degreeDigits: 2, positive: "N", negative: "S") else {
            sink.skip("line \(number): B record latitude \(TrackText.quoted(line, 7..<15)) is not DDMMmmmN or S")
            return
        }
        guard let longitude = Self.coordinate(line, 15, degreeDigits: 3, positive: "E", negative: "W") else {
            sink.skip("line \(number): B record longitude \(TrackText.quoted(line, 15..<24)) is not DDDMMmmmE or W")
            return
        }
        let validity = line[24]
        guard validity == UInt8(ascii: "A") || validity == UInt8(ascii: "V") else {
            sink.skip("line \(number): B record validity \(TrackText.quoted(line, 24..<25)) is not A or V")
            return
        }
        var altitude: Double?
        if end >= 35 {
            // A GNSS altitude that cannot be read is damage: the record is left out, as ExifTool
            // leaves it out.
            guard let metres = Self.altitude(line, 30..<35), Self.altitude(line, 25..<30) != nil else {
                sink.skip("line \(number): B record altitudes \(TrackText.quoted(line, 25..<35)) are not numbers")
                return
            }
            if validity == UInt8(ascii: "A") { altitude = Double(metres) }
        }
        let seconds = hour * 3600 + minute * 60 + second
        var midnight = day
        if seconds < lastSeconds - 2 {
            midnight += 86_400
            date = midnight
        }
        lastSeconds = seconds
        let fix = TrackFix(
            time: midnight + Double(seconds), latitude: latitude, longitude: longitude, altitude: altitude)
        guard fix.isValid else {
            sink.skip("line \(number): B record position out of range")
            return
        }
        sink.add(fix)
    }

    /// A coordinate at `start`: degrees (`degreeDigits` digits), minutes (2), thousandths of
    /// minutes (3) and the hemisphere letter, in signed degrees as ExifTool computes them.
    private static func coordinate(
        _ line: UnsafeRawBufferPointer, _ start: Int, degreeDigits: Int, positive: Unicode.Scalar,
        negative: Unicode.Scalar
    ) -> Double? {
        let minutesStart = start + degreeDigits
        guard let degrees = TrackText.digits(line, start..<minutesStart),
            let minutes = TrackText.digits(line, minutesStart..<minutesStart + 2),
            let thousandths = TrackText.digits(line, minutesStart + 2..<minutesStart + 5), minutes <= 59
        else { return nil }
        let value = Double(degrees) + (Double(minutes) + Double(thousandths) / 1000) / 60
        switch line[minutesStart + 5] {
        case UInt8(ascii: positive): return value
        case UInt8(ascii: negative): return -value
        default: return nil
        }
    }

    /// A five-character altitude in metres: digits, or `-` and four digits.
    private static func altitude(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        if line[range.lowerBound] == UInt8(ascii: "-") {
            return TrackText.digits(line, range.lowerBound + 1..<range.upperBound).map { -$0 }
        }
        return TrackText.digits(line, range)
    }

    /// Whether `byte` is an ASCII capital letter or digit.
    static func isCapitalOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
    }
}
