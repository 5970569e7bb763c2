import PhotoTagSupport

/// A streaming reader of tracks in CSV files whose header line names the columns (GPSBabel's
/// `unicsv`, spreadsheet and logger exports).
///
/// - The header is the first line that is neither blank nor a `#` comment. Its separator is a
///   comma, a semicolon, a tab or `|`: the first of them (most frequent first) that splits the
///   header into a latitude, a longitude and a time column.
/// - Column names are matched without case, spaces, `_`, `-` or `.`, a leading `GPS`, or a unit
///   in brackets (`Latitude (deg)`, `GPS_Time`, `time [UTC]`); ``CSVTrackColumns`` lists them.
/// - Fields may be double-quoted (RFC 4180: `""` for a quote, line ends inside quotes); lines end
///   with LF, CR LF or CR.
/// - Time: a time column holding a date and time (`2013-04-30T14:23:57Z`, `2013/04/30 14:23:57`,
///   `30/04/2013 14:23:57`, with a fraction and a zone `Z`, `±HH:MM`, `±HHMM` or `±HH`; none is
///   UTC), or Unix epoch seconds (≥ 10^8) or milliseconds (≥ 10^11), or a time of day with a
///   date column (`YYYY-MM-DD`, `YYYY/MM/DD`, `YYYYMMDD`, or `DD/MM/YYYY` as ExifTool reads it).
/// - Coordinates: signed decimal degrees, or a hemisphere letter before or after them
///   (`40.78 N`), or a latitude/longitude reference column (`S`, `W`); a decimal comma is read
///   when the separator is not a comma. Altitude in metres is optional.
///
/// A row that cannot be read is skipped with the reason (`line 12: no latitude`).
struct CSVTrackParser: TrackParser {
    /// The file's records.
    private var lines = TrackLineSplitter(csvQuotes: true)
    /// The header's columns and the reading state.
    private var reader = CSVTrackReader()

    /// A reader at the start of a file.
    init() {}

    /// Whether `prefix` (a file's first bytes) is a CSV track: its first line that is neither
    /// blank nor a `#` comment is a header naming latitude, longitude and time columns (see
    /// ``CSVTrackColumns``). Try it after the other formats: it is the last resort.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        var found = false
        _ = TrackText.anyLine(of: prefix) { line in
            let range = TrackText.trimmed(line, 0..<line.count)
            if range.isEmpty || line[range.lowerBound] == UInt8(ascii: "#") { return false }
            found = CSVTrackColumns(header: line) != nil
            return true
        }
        return found
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
        guard reader.columns != nil else { throw TrackReadError("not a CSV track: it has no header line") }
    }
}

/// The columns a CSV track's header names, and its separator.
///
/// Names, compared after lowercasing, cutting a unit in brackets, removing spaces, `_`, `-` and
/// `.`, and removing a leading `gps`:
/// - latitude: `lat`, `latitude`, `poslat`, `latdeg`, `latitudedeg`, `latitudedegrees`;
/// - longitude: `lon`, `lng`, `long`, `longitude`, `poslon`, `londeg`, `lngdeg`, `longitudedeg`,
///   `longitudedegrees`;
/// - time: `time`, `timestamp`, `datetime`, `utc`, `utctime`, `timeutc`, `datetimeutc`,
///   `utcdatetime`, `timestamputc`, `utctimestamp`, `isotime`, `gmttime`, `unixtime`,
///   `unixtimestamp`, `epoch`, `epochtime`, `timems`, `timestampms`;
/// - date: `date`, `utcdate`, `dateutc`, `gmtdate`;
/// - altitude (optional): `ele`, `elevation`, `alt`, `altitude`, `posalt`, `altm`, `altitudem`,
///   `elevationm`, `altitudemeters`, `elevationmeters`;
/// - hemisphere references (optional): `latref`, `latituderef`; `lonref`, `lngref`, `longituderef`.
///
/// The first column of each role counts; the others are ignored.
struct CSVTrackColumns: Equatable {
    /// The field separator.
    var separator: UInt8
    /// The latitude column's index (from 0).
    var latitude: Int
    /// The longitude column's index.
    var longitude: Int
    /// The time (or date and time) column's index.
    var time: Int
    /// The date column's index, if any.
    var date: Int?
    /// The altitude column's index, if any.
    var altitude: Int?
    /// The latitude reference (`N`/`S`) column's index, if any.
    var latitudeReference: Int?
    /// The longitude reference (`E`/`W`) column's index, if any.
    var longitudeReference: Int?

    /// How many fields of a row must be split to reach every column used.
    var fieldsUsed = 0

    /// The roles a column name can have.
    enum Role {
        /// Latitude in degrees.
        case latitude
        /// Longitude in degrees.
        case longitude
        /// A date and time, an epoch time, or a time of day.
        case time
        /// A date, for a time of day.
        case date
        /// Metres.
        case altitude
        /// `N` or `S`.
        case latitudeReference
        /// `E` or `W`.
        case longitudeReference
    }

    /// Normalized names and their roles.
    static let names: [String: Role] = {
        var names: [String: Role] = [:]
        let lists: [(Role, [String])] = [
            (.latitude, ["lat", "latitude", "poslat", "latdeg", "latitudedeg", "latitudedegrees"]),
            (
                .longitude,
                ["lon", "lng", "long", "longitude", "poslon", "londeg", "lngdeg", "longitudedeg", "longitudedegrees"]
            ),
            (
                .time,
                [
                    "time", "timestamp", "datetime", "utc", "utctime", "timeutc", "datetimeutc", "utcdatetime",
                    "timestamputc", "utctimestamp", "isotime", "gmttime", "unixtime", "unixtimestamp", "epoch",
                    "epochtime", "timems", "timestampms",
                ]
            ),
            (.date, ["date", "utcdate", "dateutc", "gmtdate"]),
            (
                .altitude,
                [
                    "ele", "elevation", "alt", "altitude", "posalt", "altm", "altitudem", "elevationm",
                    "altitudemeters", "elevationmeters",
                ]
            ),
            (.latitudeReference, ["latref", "latituderef"]),
            (.longitudeReference, ["lonref", "lngref", "longituderef"]),
        ]
        for (role, list) in lists {
            for name in list { names[name] = role }
        }
        return names
    }()

    /// The columns of a header line, or `nil` when no separator splits it into latitude,
    /// longitude and time columns.
    init?(header: UnsafeRawBufferPointer) {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]  // , ; tab |
        let counts = candidates.map { separator in header.reduce(0) { $0 + ($1 == separator ? 1 : 0) } }
        let order = candidates.indices.filter { counts[$0] > 0 }.sorted { counts[$0] > counts[$1] }
        for index in order {
            if let columns = Self(header: header, separator: candidates[index]) {
                self = columns
                return
            }
        }
        return nil
    }

    /// The columns of a header split by `separator`, if it names the three needed.
    private init?(header: UnsafeRawBufferPointer, separator: UInt8) {
        var fields: [Range<Int>] = []
        guard CSVTrackReader.split(header, separator, limit: .max, into: &fields) else { return nil }
        var roles: [Role: Int] = [:]
        for (index, field) in fields.enumerated() {
            if let role = Self.role(of: header, field), roles[role] == nil { roles[role] = index }
        }
        guard let latitude = roles[.latitude], let longitude = roles[.longitude], let time = roles[.time] else {
            return nil
        }
        self.separator = separator
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        date = roles[.date]
        altitude = roles[.altitude]
        latitudeReference = roles[.latitudeReference]
        longitudeReference = roles[.longitudeReference]
        fieldsUsed = roles.values.reduce(0, max) + 1
    }

    /// The role of a column name, if it has one.
    static func role(of header: UnsafeRawBufferPointer, _ field: Range<Int>) -> Role? {
        var name: [UInt8] = []
        for index in field {
            var byte = header[index]
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") { break }
            if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte == 0x20 || byte == 0x09 || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x22 {
                continue
            }
            name.append(byte)
        }
        if name.count > 3, name[0] == 0x67, name[1] == 0x70, name[2] == 0x73 { name.removeFirst(3) }  // gps
        guard !name.isEmpty, name.count <= 20 else { return nil }
        return names[String(decoding: name, as: UTF8.self)]
    }
}

/// CSVTrackParser's state between records: the columns and a reused field list.
struct CSVTrackReader {
    /// The header's columns, once read.
    private(set) var columns: CSVTrackColumns?
    /// The current row's fields (reused).
    private var fields: [Range<Int>] = []

    /// Reads one record: the header, a row, or a blank or `#` comment line.
    mutating func read(
        _ line: UnsafeRawBufferPointer, _ number: Int, _ sink: inout some TrackSink
    ) throws(TrackReadError) {
        let content = TrackText.trimmed(line, 0..<line.count)
        if content.isEmpty || line[content.lowerBound] == UInt8(ascii: "#") { return }
        guard let columns else {
            guard let found = CSVTrackColumns(header: line) else {
                throw TrackReadError(
                    "not a CSV track: its header (line \(number)) does not name latitude, longitude and time columns")
            }
            columns = found
            fields.reserveCapacity(found.fieldsUsed)
            return
        }
        guard Self.split(line, columns.separator, limit: columns.fieldsUsed, into: &fields) else {
            sink.skip("line \(number): unterminated quoted field")
            return
        }
        switch Self.row(line, fields, columns) {
        case .success(let fix):
            if fix.isValid {
                sink.add(fix)
            } else {
                sink.skip("line \(number): position out of range")
            }
        case .failure(let error):
            sink.skip("line \(number): \(error.reason)")
        }
    }

    /// Why a row is skipped.
    struct RowError: Error {
        /// What is wrong.
        var reason: String
    }

    /// The fix of a row split into `fields`.
    static func row(
        _ line: UnsafeRawBufferPointer, _ fields: [Range<Int>], _ columns: CSVTrackColumns
    ) -> Result<TrackFix, RowError> {
        func field(_ index: Int) -> Range<Int>? {
            guard index < fields.count else { return nil }
            let range = TrackText.trimmed(line, fields[index])
            return range.isEmpty ? nil : range
        }
        let comma = columns.separator != UInt8(ascii: ",")
        guard let latitudeField = field(columns.latitude) else { return .failure(RowError(reason: "no latitude")) }
        guard var latitude = coordinate(line, latitudeField, "N", "S", decimalComma: comma) else {
            return .failure(RowError(reason: "latitude \(TrackText.quoted(line, latitudeField)) is not a number"))
        }
        guard let longitudeField = field(columns.longitude) else {
            return .failure(RowError(reason: "no longitude"))
        }
        guard var longitude = coordinate(line, longitudeField, "E", "W", decimalComma: comma) else {
            return .failure(RowError(reason: "longitude \(TrackText.quoted(line, longitudeField)) is not a number"))
        }
        if let index = columns.latitudeReference, let reference = field(index),
            line[reference.lowerBound] | 0x20 == UInt8(ascii: "s")
        {
            latitude = -abs(latitude)
        }
        if let index = columns.longitudeReference, let reference = field(index),
            line[reference.lowerBound] | 0x20 == UInt8(ascii: "w")
        {
            longitude = -abs(longitude)
        }
        guard let timeField = field(columns.time) else { return .failure(RowError(reason: "no time")) }
        let time: Double
        switch CSVTrackTime.value(line, timeField) {
        case .instant(let value):
            time = value
        case .timeOfDay(let seconds):
            guard let dateIndex = columns.date, let dateField = field(dateIndex) else {
                return .failure(RowError(reason: "time \(TrackText.quoted(line, timeField)) has no date"))
            }
            guard let (days, end) = CSVTrackTime.date(line, dateField), end == dateField.upperBound else {
                return .failure(RowError(reason: "date \(TrackText.quoted(line, dateField)) is not a date"))
            }
            time = Double(days * 86_400) + seconds
        case .invalid:
            return .failure(RowError(reason: "time \(TrackText.quoted(line, timeField)) is not a date and time"))
        }
        var altitude: Double?
        if let index = columns.altitude, let altitudeField = field(index) {
            altitude = number(line, altitudeField, decimalComma: comma)
        }
        return .success(TrackFix(time: time, latitude: latitude, longitude: longitude, altitude: altitude))
    }

    /// Splits `line` at `separator` into at most `limit` fields (a quoted field's range is
    /// between its quotes; what follows the closing quote is ignored); `false` when a quote is
    /// not closed.
    static func split(
        _ line: UnsafeRawBufferPointer, _ separator: UInt8, limit: Int, into fields: inout [Range<Int>]
    ) -> Bool {
        fields.removeAll(keepingCapacity: true)
        let end = line.count
        var index = 0
        while fields.count < limit {
            if index < end, line[index] == UInt8(ascii: "\"") {
                var close = index + 1
                while true {
                    guard close < end else { return false }
                    if line[close] == UInt8(ascii: "\"") {
                        if close + 1 < end, line[close + 1] == UInt8(ascii: "\"") {
                            close += 2
                            continue
                        }
                        break
                    }
                    close += 1
                }
                fields.append(index + 1..<close)
                index = close + 1
                while index < end, line[index] != separator { index += 1 }
            } else {
                let start = index
                while index < end, line[index] != separator { index += 1 }
                fields.append(start..<index)
            }
            if index >= end { break }
            index += 1
        }
        return true
    }

    /// A coordinate: a signed decimal, or a decimal with a hemisphere letter before or after it
    /// (`positive` keeps the sign, `negative` makes it negative).
    static func coordinate(
        _ line: UnsafeRawBufferPointer, _ field: Range<Int>, _ positive: Unicode.Scalar, _ negative: Unicode.Scalar,
        decimalComma: Bool
    ) -> Double? {
        var range = field
        var sign = 1.0
        func hemisphere(_ byte: UInt8) -> Double? {
            switch byte | 0x20 {
            case UInt8(ascii: positive) | 0x20: 1
            case UInt8(ascii: negative) | 0x20: -1
            default: nil
            }
        }
        if let value = hemisphere(line[range.lowerBound]) {
            sign = value
            range = TrackText.trimmed(line, range.lowerBound + 1..<range.upperBound)
        } else if let value = hemisphere(line[range.upperBound - 1]) {
            sign = value
            range = TrackText.trimmed(line, range.lowerBound..<range.upperBound - 1)
        }
        guard let value = number(line, range, decimalComma: decimalComma) else { return nil }
        return sign < 0 ? -abs(value) : value
    }

    /// A decimal number (a decimal comma too when `decimalComma`).
    static func number(_ line: UnsafeRawBufferPointer, _ range: Range<Int>, decimalComma: Bool) -> Double? {
        if let value = TrackText.decimal(line, range) { return value }
        guard decimalComma, !range.isEmpty, range.count <= 64 else { return nil }
        var copy = [UInt8](UnsafeRawBufferPointer(rebasing: line[range]))
        guard let comma = copy.firstIndex(of: UInt8(ascii: ",")), !copy.contains(UInt8(ascii: ".")) else {
            return nil
        }
        copy[comma] = UInt8(ascii: ".")
        return copy.withUnsafeBytes { TrackText.decimal($0, 0..<$0.count) }
    }
}

/// The dates and times of CSV tracks.
enum CSVTrackTime {
    /// What a time field holds.
    enum Value: Equatable {
        /// An instant, in seconds since the Unix epoch.
        case instant(Double)
        /// A time of day UTC (zone applied), in seconds since midnight: it needs a date.
        case timeOfDay(Double)
        /// Nothing readable.
        case invalid
    }

    /// A time field: a date and time, epoch seconds or milliseconds, or a time of day.
    static func value(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) -> Value {
        if let (days, end) = date(text, range), end < range.upperBound {
            var index = end
            if text[index] == UInt8(ascii: "T") || text[index] == UInt8(ascii: "t") {
                index += 1
            } else {
                while index < range.upperBound, text[index] == 0x20 { index += 1 }
                guard index > end else { return .invalid }
            }
            guard let seconds = timeOfDay(text, index..<range.upperBound) else { return .invalid }
            return .instant(Double(days * 86_400) + seconds)
        }
        if let seconds = timeOfDay(text, range) { return .timeOfDay(seconds) }
        if let value = TrackText.decimal(text, range), text[range.lowerBound] != UInt8(ascii: "-"),
            text[range.lowerBound] != UInt8(ascii: "+")
        {
            if value >= 1e11 { return .instant(value / 1000) }
            if value >= 1e8 { return .instant(value) }
        }
        return .invalid
    }

    /// A date at the start of `range`, in days since 1970-01-01, and where it ends:
    /// `YYYY-MM-DD` (or with `/`, `.` or `:`; one-digit months and days too), `YYYYMMDD`, or
    /// `DD/MM/YYYY` (or with `.` or `-`).
    static func date(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) -> (Int64, Int)? {
        var index = range.lowerBound
        func number() -> (value: Int, digits: Int)? {
            let start = index
            while index < range.upperBound, index - start < 8, (0x30...0x39).contains(text[index]) { index += 1 }
            guard let value = TrackText.digits(text, start..<index) else { return nil }
            return (value, index - start)
        }
        guard let first = number() else { return nil }
        var year: Int, month: Int, day: Int
        if first.digits == 8 {
            (year, month, day) = (first.value / 10_000, first.value / 100 % 100, first.value % 100)
        } else {
            guard index < range.upperBound else { return nil }
            let separator = text[index]
            guard [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: ":")].contains(separator)
            else { return nil }
            index += 1
            guard let second = number(), second.digits <= 2, index < range.upperBound, text[index] == separator
            else { return nil }
            index += 1
            guard let third = number() else { return nil }
            if first.digits == 4, third.digits <= 2 {
                (year, month, day) = (first.value, second.value, third.value)
            } else if first.digits <= 2, third.digits == 4, separator != UInt8(ascii: ":") {
                (year, month, day) = (third.value, second.value, first.value)
            } else {
                return nil
            }
        }
        guard (1...12).contains(month), day >= 1, day <= GregorianCalendar.daysIn(month: month, year: year) else {
            return nil
        }
        return (GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day), index)
    }

    /// A time of day filling `range`: `H:MM`, `H:MM:SS` or `H:MM:SS.fff` (one or two hour digits),
    /// then an optional zone (`Z`, `UTC`, `±HH:MM`, `±HHMM`, `±HH`, after optional spaces), in
    /// seconds since midnight UTC (the zone applied: it may leave the day).
    static func timeOfDay(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let end = range.upperBound
        func digits(_ count: Int) -> Int? {
            guard index + count <= end, let value = TrackText.digits(text, index..<index + count) else { return nil }
            index += count
            return value
        }
        func expect(_ byte: Unicode.Scalar) -> Bool {
            guard index < end, text[index] == UInt8(ascii: byte) else { return false }
            index += 1
            return true
        }
        let hourDigits = index + 1 < end && (0x30...0x39).contains(text[index + 1]) ? 2 : 1
        guard let hour = digits(hourDigits), expect(":"), let minute = digits(2), hour <= 23, minute <= 59 else {
            return nil
        }
        var seconds = Double(hour * 3600 + minute * 60)
        if expect(":") {
            let start = index
            guard digits(2) != nil else { return nil }
            if expect(".") {
                while index < end, (0x30...0x39).contains(text[index]) { index += 1 }
            }
            guard let second = TrackText.decimal(text, start..<index), second < 60 else { return nil }
            seconds += second
        }
        while index < end, text[index] == 0x20 { index += 1 }
        guard index < end else { return seconds }
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "U"), UInt8(ascii: "u"):
            guard end - index == 3, text[index + 1] | 0x20 == UInt8(ascii: "t"),
                text[index + 2] | 0x20 == UInt8(ascii: "c")
            else { return nil }
            index = end
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = text[index] == UInt8(ascii: "-") ? -1.0 : 1.0
            index += 1
            guard let hours = digits(2), hours <= 23 else { return nil }
            var minutes = 0
            if index < end {
                _ = expect(":")
                guard let value = digits(2), value <= 59 else { return nil }
                minutes = value
            }
            seconds -= sign * Double(hours * 3600 + minutes * 60)
        default:
            return nil
        }
        return index == end ? seconds : nil
    }
}
