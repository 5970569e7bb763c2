import PhotoTagSupport

/// A streaming reader of NMEA 0183 logs: `RMC`, `GGA`, `GLL` and `ZDA` sentences of any talker
/// (`GP`, `GN`, `GL`, `GA`, `BD`…), read as ExifTool 13.58 reads them.
///
/// - A sentence may follow other text on its line (ExifTool reads from the line's last `$` that
///   starts a sentence); lines that hold none of these sentences (comments, `GSA`, `GSV`, `VTG`,
///   proprietary `$P…` sentences) are passed over.
/// - A checksum `*hh`, when present, must match (the sentence is refused otherwise).
/// - A new fix starts at each sentence of the type that comes first in the file, or at any
///   sentence 10 s or more from the fix being assembled; the other sentences complete it without
///   overwriting what it has. The fix's time is that of the sentence that started it.
/// - Dates come from `RMC` and `ZDA`; a sentence without a date (`GGA`, `GLL`) takes the last date
///   read if its time is less than 10 s after that date's time, rolling over midnight (a step
///   back of more than 2 s). A fix that gets no date cannot be placed: it is skipped, and a file
///   with no date at all is refused.
/// - Refused: `RMC` and `GLL` whose status is `V` (void), `GGA` whose fix quality is not 1–6.
///   Altitude (metres above the geoid) comes from `GGA`.
///
/// A refused sentence of the type that starts fixes is a skipped point, as is a fix left without
/// a position or a date; a refused sentence of another type only loses what it would have added.
struct NMEAParser: TrackParser {
    /// The file's lines.
    private var lines = TrackLineSplitter()
    /// What the sentences read so far have left.
    private var reader = NMEAReader()

    /// A reader at the start of a file.
    init() {}

    /// Whether `prefix` (a file's first bytes) is NMEA: a line holds an `RMC`, `GGA`, `GLL` or
    /// `ZDA` sentence with a correct checksum, and the file does not start with `<`, `{` or `[`
    /// (XML, JSON). Other lines (a `#` comment header, other sentences) may come first.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        var first = 0
        if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { first = 3 }
        while first < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[first]) { first += 1 }
        if first < prefix.count, [UInt8(ascii: "<"), UInt8(ascii: "{"), UInt8(ascii: "[")].contains(prefix[first]) {
            return false
        }
        return TrackText.anyLine(of: prefix) { line in
            guard let (start, _) = NMEAReader.sentence(in: line) else { return false }
            let end = TrackText.trimmed(line, start..<line.count).upperBound
            return NMEAReader.checksum(line, start, end) == .correct
        }
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        try lines.feed(chunk, &reader) { reader, line, number in reader.read(line, number, &sink) }
    }

    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        try lines.finish(&reader) { reader, line, number in reader.read(line, number, &sink) }
        try reader.finish(&sink)
    }
}

/// The sentence types NMEAParser reads.
enum NMEASentenceType: Sendable {
    /// Recommended minimum data: time, status, position, date.
    case rmc
    /// Fix data: time, position, fix quality, altitude.
    case gga
    /// Geographic position: position, time, status.
    case gll
    /// Date and time.
    case zda

    /// The type's three letters.
    var name: String {
        switch self {
        case .rmc: "RMC"
        case .gga: "GGA"
        case .gll: "GLL"
        case .zda: "ZDA"
        }
    }
}

/// NMEAParser's state between lines: the fix being assembled and the last date read.
struct NMEAReader {
    /// What one sentence gave.
    struct Reading {
        /// Seconds since midnight UTC, with the fraction.
        var seconds: Double
        /// Midnight UTC of the sentence's date, in seconds since the Unix epoch (RMC, ZDA).
        var date: Double?
        /// Signed degrees (with ``longitude``, or neither).
        var latitude: Double?
        /// Signed degrees (with ``latitude``, or neither).
        var longitude: Double?
        /// Metres (GGA).
        var altitude: Double?
    }

    /// The fix being assembled from the sentences since the one that started it.
    struct PendingFix {
        /// The line of the sentence that started it.
        var line: Int
        /// Its time of day (seconds since midnight UTC): the starting sentence's.
        var seconds: Double
        /// Midnight UTC of its day, once a sentence has given one.
        var date: Double?
        /// Its position, from the first sentence that gave one.
        var latitude: Double?
        /// Its longitude, with ``latitude``.
        var longitude: Double?
        /// Its altitude, from the first GGA that gave one.
        var altitude: Double?
        /// Why a sentence of this fix was refused (reported if the fix gets no position).
        var rejection: String?
    }

    /// The checksum of a sentence.
    enum Checksum: Equatable {
        /// No `*hh`.
        case absent
        /// `*hh` matches.
        case correct
        /// `*hh` does not match (or is not two hexadecimal digits).
        case wrong
    }

    /// The type of the first sentence read: each of its type starts a fix.
    private var startType: NMEASentenceType?
    /// Whether any line held a sentence of a type read.
    private var sawSentence = false
    /// ExifTool's `$lastDate`: the last date read (midnight UTC, in seconds since the epoch).
    private var lastDate: Double?
    /// ExifTool's `$lastSecs`: the time of day of the sentence that gave ``lastDate``.
    private var lastSeconds = 0.0
    /// The fix being assembled.
    private var fix: PendingFix?
    /// Fixes handed out.
    private var datedFixes = 0
    /// Fixes skipped for want of a date.
    private var datelessFixes = 0

    /// Reads one line.
    mutating func read(_ line: UnsafeRawBufferPointer, _ number: Int, _ sink: inout some TrackSink) {
        guard let (start, type) = Self.sentence(in: line) else { return }
        sawSentence = true
        let end = TrackText.trimmed(line, start..<line.count).upperBound
        var bodyEnd = start + 7
        while bodyEnd < end, line[bodyEnd] != UInt8(ascii: "*") { bodyEnd += 1 }
        switch Self.checksum(line, start, end) {
        case .wrong:
            let found = TrackText.quoted(line, bodyEnd..<end)
            reject(type, "line \(number): \(type.name) sentence with a wrong checksum \(found)", &sink)
            return
        case .absent, .correct:
            break
        }
        if startType == nil { startType = type }
        let parsed: Result<Reading, SentenceError>
        switch type {
        case .rmc: parsed = Self.rmc(line, start + 7..<bodyEnd)
        case .gga: parsed = Self.gga(line, start + 7..<bodyEnd)
        case .gll: parsed = Self.gll(line, start + 7..<bodyEnd)
        case .zda: parsed = Self.zda(line, start + 7..<bodyEnd)
        }
        switch parsed {
        case .success(let reading): combine(reading, type, number, &sink)
        case .failure(let error): reject(type, "line \(number): \(type.name) \(error.reason)", &sink)
        }
    }

    /// The end of the file: hands out the last fix; refuses a file without any sentence read or
    /// without any date.
    mutating func finish(_ sink: inout some TrackSink) throws(TrackReadError) {
        if let fix { emit(fix, &sink) }
        fix = nil
        guard sawSentence else {
            throw TrackReadError("not an NMEA file: no RMC, GGA, GLL or ZDA sentence")
        }
        if datedFixes == 0, datelessFixes > 0 {
            throw TrackReadError("no date in the NMEA file: it has \(startType?.name ?? "GGA") without RMC or ZDA")
        }
    }

    /// A refused sentence: a lost point when its type starts fixes, else a note on the fix it
    /// would have completed.
    private mutating func reject(_ type: NMEASentenceType, _ reason: String, _ sink: inout some TrackSink) {
        if startType == nil || type == startType {
            sink.skip(reason)
        } else if fix != nil, fix?.rejection == nil {
            fix?.rejection = reason
        }
    }

    /// Applies ExifTool's rules to a sentence read: borrows the last date, starts a new fix or
    /// completes the current one.
    private mutating func combine(
        _ reading: Reading, _ type: NMEASentenceType, _ number: Int, _ sink: inout some TrackSink
    ) {
        let seconds = reading.seconds
        var date = reading.date
        if date == nil, let last = lastDate {
            var day = last
            if seconds < lastSeconds - 2 {
                lastSeconds -= 86_400
                day += 86_400
            }
            if seconds - lastSeconds < 10 {
                lastDate = day
                date = day
            } else {
                lastDate = nil
                lastSeconds = 0
            }
        }
        if let date {
            lastDate = date
            lastSeconds = seconds
        }
        let startsFix: Bool
        if type == startType {
            startsFix = true
        } else if let current = fix?.seconds {
            startsFix =
                seconds >= current ? seconds - current >= 10 : seconds + 86_400 - current >= 10
        } else {
            startsFix = true
        }
        if startsFix {
            if let fix { emit(fix, &sink) }
            fix = PendingFix(
                line: number, seconds: seconds, date: date, latitude: reading.latitude,
                longitude: reading.longitude, altitude: reading.altitude)
            return
        }
        guard var current = fix else { return }
        if current.latitude == nil, let latitude = reading.latitude, let longitude = reading.longitude {
            current.latitude = latitude
            current.longitude = longitude
        }
        if current.altitude == nil { current.altitude = reading.altitude }
        if current.date == nil, let date {
            current.date = seconds < current.seconds ? date - 86_400 : date
        }
        fix = current
    }

    /// Hands out a finished fix, or skips it for want of a position, a date or a valid value.
    private mutating func emit(_ pending: PendingFix, _ sink: inout some TrackSink) {
        guard let latitude = pending.latitude, let longitude = pending.longitude else {
            sink.skip(pending.rejection ?? "line \(pending.line): no position for this fix")
            return
        }
        guard let date = pending.date else {
            datelessFixes += 1
            sink.skip("line \(pending.line): no date for this fix (no RMC or ZDA within 10 s)")
            return
        }
        let fix = TrackFix(
            time: date + pending.seconds, latitude: latitude, longitude: longitude, altitude: pending.altitude)
        guard fix.isValid else {
            sink.skip("line \(pending.line): position out of range")
            return
        }
        datedFixes += 1
        sink.add(fix)
    }

    // MARK: sentences

    /// Why a sentence is refused: text following the sentence's type (`status V (void)`).
    struct SentenceError: Error {
        /// What is wrong.
        var reason: String
    }

    /// Where the sentence read in `line` starts (its `$`), and its type: the last `$` followed by
    /// two capital letters, `RMC`, `GGA`, `GLL` or `ZDA`, and a comma (`nil` when there is none).
    static func sentence(in line: UnsafeRawBufferPointer) -> (Int, NMEASentenceType)? {
        if line.count >= 7, line[0] == UInt8(ascii: "$"), let type = type(line, 0) { return (0, type) }
        var index = line.count - 7
        while index >= 0 {
            if line[index] == UInt8(ascii: "$"), let type = type(line, index) { return (index, type) }
            index -= 1
        }
        return nil
    }

    /// The type of the sentence whose `$` is at `start`, if it is one read.
    private static func type(_ line: UnsafeRawBufferPointer, _ start: Int) -> NMEASentenceType? {
        guard start + 7 <= line.count, isCapital(line[start + 1]), isCapital(line[start + 2]),
            line[start + 6] == UInt8(ascii: ",")
        else { return nil }
        switch (line[start + 3], line[start + 4], line[start + 5]) {
        case (0x52, 0x4D, 0x43): return .rmc  // RMC
        case (0x47, 0x47, 0x41): return .gga  // GGA
        case (0x47, 0x4C, 0x4C): return .gll  // GLL
        case (0x5A, 0x44, 0x41): return .zda  // ZDA
        default: return nil
        }
    }

    /// Whether `byte` is `A`…`Z`.
    private static func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }

    /// The checksum of the sentence `line[start..<end]`: the exclusive or of the bytes between
    /// `$` and `*` against the two hexadecimal digits after `*`, which must end the sentence.
    static func checksum(_ line: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Checksum {
        var sum: UInt8 = 0
        var index = start + 1
        while index < end, line[index] != UInt8(ascii: "*") {
            sum ^= line[index]
            index += 1
        }
        guard index < end else { return .absent }
        guard end - index == 3, let high = hexValue(line[index + 1]), let low = hexValue(line[index + 2]) else {
            return .wrong
        }
        return high << 4 | low == sum ? .correct : .wrong
    }

    /// The value of a hexadecimal digit (either case).
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }

    /// The comma-separated fields of a sentence's body, in order.
    private struct Fields {
        /// The line.
        let line: UnsafeRawBufferPointer
        /// Where the next field starts.
        var position: Int
        /// Where the body ends (its `*` or the line's end).
        let end: Int

        /// The next field (empty past the last).
        mutating func next() -> Range<Int> {
            let start = position
            guard start <= end else { return end..<end }
            while position < end, line[position] != UInt8(ascii: ",") { position += 1 }
            let field = start..<position
            position += 1
            return field
        }
    }

    /// `$xxRMC,hhmmss.ss,A,ddmm.mm,N,dddmm.mm,E,speed,course,ddmmyy,…`
    static func rmc(_ line: UnsafeRawBufferPointer, _ body: Range<Int>) -> Result<Reading, SentenceError> {
        var fields = Fields(line: line, position: body.lowerBound, end: body.upperBound)
        let time = fields.next(), status = fields.next()
        let latitude = fields.next(), north = fields.next(), longitude = fields.next(), east = fields.next()
        _ = fields.next()
        _ = fields.next()
        let dateField = fields.next()
        do throws(SentenceError) {
            let seconds = try timeOfDay(line, time)
            if !status.isEmpty {
                guard status.count == 1, line[status.lowerBound] == UInt8(ascii: "A") else {
                    if status.count == 1, line[status.lowerBound] == UInt8(ascii: "V") {
                        throw SentenceError(reason: "status V (void: no fix)")
                    }
                    throw SentenceError(reason: "status \(TrackText.quoted(line, status)) is not A or V")
                }
            }
            let (lat, lon) = try position(line, latitude, north, longitude, east)
            guard dateField.count == 6,
                let day = TrackText.digits(line, dateField.lowerBound..<dateField.lowerBound + 2),
                let month = TrackText.digits(line, dateField.lowerBound + 2..<dateField.lowerBound + 4),
                let year = TrackText.digits(line, dateField.lowerBound + 4..<dateField.upperBound),
                let date = midnight(year: year + (year >= 70 ? 1900 : 2000), month: month, day: day)
            else { throw SentenceError(reason: "date \(TrackText.quoted(line, dateField)) is not ddmmyy") }
            return .success(Reading(seconds: seconds, date: date, latitude: lat, longitude: lon))
        } catch {
            return .failure(error)
        }
    }

    /// `$xxGGA,hhmmss.ss,ddmm.mm,N,dddmm.mm,E,quality,satellites,hdop,altitude,M,…`
    static func gga(_ line: UnsafeRawBufferPointer, _ body: Range<Int>) -> Result<Reading, SentenceError> {
        var fields = Fields(line: line, position: body.lowerBound, end: body.upperBound)
        let time = fields.next()
        let latitude = fields.next(), north = fields.next(), longitude = fields.next(), east = fields.next()
        let quality = fields.next()
        _ = fields.next()
        _ = fields.next()
        let altitudeField = fields.next()
        do throws(SentenceError) {
            let seconds = try timeOfDay(line, time)
            if !quality.isEmpty {
                guard quality.count == 1, (0x31...0x36).contains(line[quality.lowerBound]) else {
                    if quality.count == 1, line[quality.lowerBound] == 0x30 {
                        throw SentenceError(reason: "without a fix (quality 0)")
                    }
                    throw SentenceError(reason: "fix quality \(TrackText.quoted(line, quality)) is not 1 to 6")
                }
            }
            let (lat, lon) = try position(line, latitude, north, longitude, east)
            var altitude: Double?
            if !altitudeField.isEmpty {
                guard let value = TrackText.decimal(line, altitudeField) else {
                    throw SentenceError(reason: "altitude \(TrackText.quoted(line, altitudeField)) is not a number")
                }
                altitude = value
            }
            return .success(Reading(seconds: seconds, latitude: lat, longitude: lon, altitude: altitude))
        } catch {
            return .failure(error)
        }
    }

    /// `$xxGLL,ddmm.mm,N,dddmm.mm,E,hhmmss.ss,A,…`
    static func gll(_ line: UnsafeRawBufferPointer, _ body: Range<Int>) -> Result<Reading, SentenceError> {
        var fields = Fields(line: line, position: body.lowerBound, end: body.upperBound)
        let latitude = fields.next(), north = fields.next(), longitude = fields.next(), east = fields.next()
        let time = fields.next(), status = fields.next()
        do throws(SentenceError) {
            let seconds = try timeOfDay(line, time)
            guard status.count == 1, line[status.lowerBound] == UInt8(ascii: "A") else {
                if status.count == 1, line[status.lowerBound] == UInt8(ascii: "V") {
                    throw SentenceError(reason: "status V (void: no fix)")
                }
                throw SentenceError(reason: "status \(TrackText.quoted(line, status)) is not A")
            }
            let (lat, lon) = try position(line, latitude, north, longitude, east)
            return .success(Reading(seconds: seconds, latitude: lat, longitude: lon))
        } catch {
            return .failure(error)
        }
    }

    /// `$xxZDA,hhmmss.ss,dd,mm,yyyy,zone hours,zone minutes`
    static func zda(_ line: UnsafeRawBufferPointer, _ body: Range<Int>) -> Result<Reading, SentenceError> {
        var fields = Fields(line: line, position: body.lowerBound, end: body.upperBound)
        let time = fields.next(), dayField = fields.next(), monthField = fields.next(), yearField = fields.next()
        do throws(SentenceError) {
            let seconds = try timeOfDay(line, time)
            guard dayField.count <= 2, monthField.count <= 2, yearField.count == 4,
                let day = TrackText.digits(line, dayField), let month = TrackText.digits(line, monthField),
                let year = TrackText.digits(line, yearField),
                let date = midnight(year: year, month: month, day: day)
            else {
                let text = TrackText.quoted(line, dayField.lowerBound..<yearField.upperBound)
                throw SentenceError(reason: "date \(text) is not dd,mm,yyyy")
            }
            return .success(Reading(seconds: seconds, date: date))
        } catch {
            return .failure(error)
        }
    }

    /// `hhmmss` with an optional fraction (`032908.379`), in seconds since midnight.
    private static func timeOfDay(_ line: UnsafeRawBufferPointer, _ field: Range<Int>) throws(SentenceError) -> Double {
        let start = field.lowerBound
        guard field.count >= 6, let hour = TrackText.digits(line, start..<start + 2),
            let minute = TrackText.digits(line, start + 2..<start + 4),
            TrackText.digits(line, start + 4..<start + 6) != nil,
            field.count == 6 || line[start + 6] == UInt8(ascii: "."),
            let second = TrackText.decimal(line, start + 4..<field.upperBound),
            hour <= 23, minute <= 59, second < 60
        else {
            throw SentenceError(
                reason: field.isEmpty ? "without a time" : "time \(TrackText.quoted(line, field)) is not hhmmss")
        }
        return Double(hour * 3600 + minute * 60) + second
    }

    /// A latitude `ddmm.mmm` and a longitude `dddmm.mmm` with their hemispheres, in signed degrees
    /// (degrees + minutes / 60, as ExifTool computes them).
    private static func position(
        _ line: UnsafeRawBufferPointer, _ latitude: Range<Int>, _ north: Range<Int>, _ longitude: Range<Int>,
        _ east: Range<Int>
    ) throws(SentenceError) -> (Double, Double) {
        if latitude.isEmpty && longitude.isEmpty { throw SentenceError(reason: "without a position") }
        guard let lat = degrees(line, latitude, north, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
        else {
            let text = TrackText.quoted(line, latitude.lowerBound..<north.upperBound)
            throw SentenceError(reason: "latitude \(text) is not ddmm.mmm,N or S")
        }
        guard let lon = degrees(line, longitude, east, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
        else {
            let text = TrackText.quoted(line, longitude.lowerBound..<east.upperBound)
            throw SentenceError(reason: "longitude \(text) is not dddmm.mmm,E or W")
        }
        return (lat, lon)
    }

    /// One coordinate: degrees then two digits of whole minutes and their fraction.
    private static func degrees(
        _ line: UnsafeRawBufferPointer, _ field: Range<Int>, _ hemisphere: Range<Int>, positive: UInt8,
        negative: UInt8
    ) -> Double? {
        guard hemisphere.count == 1 else { return nil }
        let sign: Double
        switch line[hemisphere.lowerBound] {
        case positive: sign = 1
        case negative: sign = -1
        default: return nil
        }
        var dot = field.lowerBound
        while dot < field.upperBound, line[dot] != UInt8(ascii: ".") { dot += 1 }
        let degreeDigits = max(0, dot - field.lowerBound - 2)
        guard dot > field.lowerBound, (0x30...0x39).contains(line[field.lowerBound + degreeDigits]),
            let minutes = TrackText.decimal(line, field.lowerBound + degreeDigits..<field.upperBound),
            minutes < 60
        else { return nil }
        var whole = 0
        if degreeDigits > 0 {
            guard let value = TrackText.digits(line, field.lowerBound..<field.lowerBound + degreeDigits) else {
                return nil
            }
            whole = value
        }
        return (Double(whole) + minutes / 60) * sign
    }

    /// Midnight UTC of a calendar day, in seconds since the Unix epoch; `nil` for no such day.
    private static func midnight(year: Int, month: Int, day: Int) -> Double? {
        guard (1...12).contains(month), day >= 1, day <= GregorianCalendar.daysIn(month: month, year: year) else {
            return nil
        }
        return Double(GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day) * 86_400)
    }
}
