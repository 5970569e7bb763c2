import PhotoTagSupport

/// When a photo was taken: the instant (UTC) and the clock on the wall where it was taken.
///
/// ``resolve(dateTimeOriginal:subSeconds:offsetTimeOriginal:offsetSource:gpsTimestamp:zone:otherZone:rules:)`` applies
/// phototag's rule:
///
/// - `utc` is DateTimeOriginal minus an offset, from the first of:
///   1. OffsetTimeOriginal (``OffsetSource/exif``, or where the time was read: a video's
///      ``OffsetSource/quicktime``, a sidecar's ``OffsetSource/xmp`` or ``OffsetSource/takeout``);
///   2. DateTimeOriginal minus the GPS date and time (UTC), rounded to the nearest 15 minutes,
///      when the difference is at most 14 hours either way and within 2 minutes of that quarter
///      hour (``OffsetSource/gps``). A receiver's stale time fails this test and is not used,
///      with a warning;
///   3. the offset of the place's time zone at that wall-clock time (``OffsetSource/timeZone``).
///      A time the clocks showed twice (set back) is read as the first occurrence, daylight time
///      still in effect; a time they skipped (set forward) is read with the offset in effect
///      before the change, so it lands as far after the change as the time was after its start
///      (02:30 in a one-hour gap at 02:00 is the instant the clocks read 03:30). Both warn.
///
///   With no usable DateTimeOriginal but a GPS date and time, `utc` is the GPS time
///   (``OffsetSource/gps``). With neither, there is no capture time.
/// - `local` is `utc` on the clocks of the place's zone, even when the camera's clock was on
///   home time. With no place zone, it is DateTimeOriginal with OffsetTimeOriginal, or `nil`.
/// - Where two zones overlap on purpose (Asia/Urumqi and Asia/Shanghai in Xinjiang; see
///   ``BoundaryTable``), the place has a second zone. When the camera's offset is known (from
///   OffsetTimeOriginal or the GPS time, not from a zone) and the first zone's clocks at `utc`
///   differ from it while the second zone's agree, the second zone is the place's: the one the
///   camera's clock was set to. Otherwise the first stays. ``timeZone`` says which.
///
/// Fractions of a second are kept: SubSecTimeOriginal's digits with DateTimeOriginal, the GPS
/// time's own fraction without it. Texts are ISO 8601: `2019-07-01T12:34:56.24Z` and
/// `2019-07-01T14:34:56.24+02:00`; an offset with seconds (local mean time before standard
/// time, e.g. `+00:53:28` in Berlin before 1893) shows them, any other has hours and minutes only.
public struct CaptureTime: Hashable, Sendable {
    /// Where the offset between the camera's clock and UTC came from.
    public enum OffsetSource: String, Hashable, Sendable {
        /// OffsetTimeOriginal.
        case exif
        /// A video's QuickTime metadata: the offset of the keys' creation date, or UTC for
        /// `mvhd`'s creation time.
        case quicktime
        /// An XMP sidecar's date with its offset.
        case xmp
        /// A Google Takeout sidecar's `photoTakenTime`, which is UTC.
        case takeout
        /// The GPS date and time.
        case gps
        /// The place's time zone (`timezone` as text, as the command line writes it).
        case timeZone = "timezone"
        /// The zone of a GPS track's position that turns the camera's clock into the instant
        /// of that position (the command line's `--track`).
        case track
        /// The camera's zone or clock error given on the command line (`--time-zone`,
        /// `--sync-with`).
        case option
    }

    /// The instant as seconds since 1970-01-01T00:00:00Z, `nil` when no offset is known.
    public var utcSeconds: Int64?
    /// The fraction of the second, in nanoseconds (0 when none is recorded).
    public var nanoseconds: Int
    /// The offset of the clocks where the photo was taken at that instant (seconds east of UTC),
    /// for ``local``; `nil` when unknown.
    public var localOffset: Int?
    /// `utcSeconds` in ISO 8601 (`2019-07-01T12:34:56Z`).
    public var utc: String? { withTexts { utc, _ in utc.map { String(decoding: $0, as: UTF8.self) } } }
    /// The wall-clock time where the photo was taken, with its offset (`2019-07-01T14:34:56+02:00`).
    public var local: String? { withTexts { _, local in local.map { String(decoding: $0, as: UTF8.self) } } }
    /// Where the offset came from; `nil` when none is known.
    public var offsetSource: OffsetSource?
    /// The zone whose clocks ``local`` shows: the place's zone, or its second zone when the
    /// camera's offset matches that one only (see above); `nil` without a zone, or when the zone
    /// is not in the rules.
    public var timeZone: String?
    /// What the rule had to decide or leave out.
    public var warnings: [CaptureTimeWarning]

    /// Applies the rule above.
    ///
    /// - Parameters:
    ///   - dateTimeOriginal: `2019-07-01T14:34:56` (as PhotoGPS's `CameraInfo` gives it) or the EXIF form
    ///     `2019:07:01 14:34:56`.
    ///   - subSeconds: SubSecTimeOriginal, digits of the fraction of DateTimeOriginal's second.
    ///   - offsetTimeOriginal: `+02:00`.
    ///   - offsetSource: where `dateTimeOriginal` and `offsetTimeOriginal` were read, for
    ///     ``offsetSource`` when the offset is theirs: ``OffsetSource/exif`` (the default),
    ///     ``OffsetSource/quicktime``, ``OffsetSource/xmp`` or ``OffsetSource/takeout``.
    ///   - gpsTimestamp: the GPS date and time in UTC as `GPSTimestamp.description` writes it
    ///     (`2019-07-01T12:34:56.24Z`).
    ///   - zone: the place's time zone, e.g. `Europe/Berlin`.
    ///   - otherZone: the place's second zone where two overlap on purpose
    ///     (``PlaceAnswer/otherTimeZone``), e.g. `Asia/Urumqi` beside `Asia/Shanghai`.
    ///   - rules: the rules to find `zone` in.
    /// - Returns: `nil` when there is neither a DateTimeOriginal nor a GPS time.
    public static func resolve(
        dateTimeOriginal: String?, subSeconds: String? = nil, offsetTimeOriginal: String? = nil,
        offsetSource: OffsetSource = .exif, gpsTimestamp: String? = nil, zone: String? = nil,
        otherZone: String? = nil, rules: TimeZoneRules? = nil
    ) -> CaptureTime? {
        resolve(
            dateTimeOriginal: dateTimeOriginal, subSeconds: subSeconds, offsetTimeOriginal: offsetTimeOriginal,
            offsetSource: offsetSource, gpsTime: gpsTimestamp.flatMap(parseGPSTime), zone: zone,
            otherZone: otherZone, rules: rules)
    }

    /// ``resolve(dateTimeOriginal:subSeconds:offsetTimeOriginal:offsetSource:gpsTimestamp:zone:otherZone:rules:)`` with
    /// the GPS date and time given as the instant it stands for (seconds since
    /// 1970-01-01T00:00:00Z) and the nanoseconds of its second, rather than as text to parse.
    ///
    /// The zone and the offsets of its clocks are looked up through the calling thread's
    /// ``TimeZoneMemo``: photos in a row are mostly from one place and season.
    package static func resolve(
        dateTimeOriginal: String?, subSeconds: String? = nil, offsetTimeOriginal: String? = nil,
        offsetSource: OffsetSource = .exif, gpsTime gps: (seconds: Int64, nanoseconds: Int)?, zone: String? = nil,
        otherZone: String? = nil, rules: TimeZoneRules? = nil
    ) -> CaptureTime? {
        var warnings: [CaptureTimeWarning] = []
        let wall = dateTimeOriginal.flatMap(parseDateTime)
        guard wall != nil || gps != nil else { return nil }
        let memo = rules == nil ? nil : TimeZoneMemo.current
        var place: TimeZoneRules.Zone?
        if let zone, let rules, let memo {
            place = memo.zone(named: zone, in: rules)
            if place == nil { warnings.append(.unknownZone(zone)) }
        }
        var exifOffset: Int?
        if let offsetTimeOriginal {
            exifOffset = parseOffset(offsetTimeOriginal)
            if exifOffset == nil { warnings.append(.badOffsetTimeOriginal(offsetTimeOriginal)) }
        }

        var time = CaptureTime(nanoseconds: 0, warnings: [])
        if let wall {
            let seconds = wall.secondsSinceEpoch
            if let subSeconds {
                if let fraction = parseFraction(subSeconds) {
                    time.nanoseconds = fraction
                } else {
                    warnings.append(.badSubSeconds(subSeconds))
                }
            }
            if let exifOffset {
                time.utcSeconds = seconds - Int64(exifOffset)
                time.offsetSource = offsetSource
            } else if let gps {
                let difference =
                    (seconds - gps.seconds) * 1_000_000_000 + Int64(time.nanoseconds) - Int64(gps.nanoseconds)
                let quarter: Int64 = 900 * 1_000_000_000
                let rounded = (difference + (difference >= 0 ? quarter / 2 : -quarter / 2)) / quarter * quarter
                if abs(difference) <= 14 * 3600 * 1_000_000_000, abs(difference - rounded) <= 120 * 1_000_000_000 {
                    time.utcSeconds = seconds - rounded / 1_000_000_000
                    time.offsetSource = .gps
                } else {
                    warnings.append(.gpsTimeNotAnOffset(seconds: difference / 1_000_000_000))
                }
            }
            if time.utcSeconds == nil, let place, let rules, let memo {
                let resolution = memo.utc(fromLocal: wall, zone: place, in: rules)
                time.utcSeconds = resolution.instant
                time.offsetSource = .timeZone
                switch resolution {
                case .unique: break
                case .ambiguous(let earlier, let later):
                    warnings.append(
                        .ambiguousLocalTime(
                            wall.description, zone: place.name, first: Int(seconds - earlier),
                            second: Int(seconds - later)))
                case .nonexistent(let instant, let gap):
                    warnings.append(
                        .nonexistentLocalTime(
                            wall.description, zone: place.name, offsetUsed: Int(seconds - instant), gap: gap))
                }
            }
        } else if let gps {
            time.utcSeconds = gps.seconds
            time.nanoseconds = gps.nanoseconds
            time.offsetSource = .gps
        }

        if let utc = time.utcSeconds, var zone = place, let rules, let memo {
            var offset = memo.offset(zone, atUTC: utc, in: rules).utcOffset
            // The camera's own offset, when it came from the photo rather than from a zone: the
            // second zone of an overlap wins when only its clocks agree with it.
            if let otherZone, let wall, time.offsetSource != .timeZone,
                case let camera = Int(wall.secondsSinceEpoch - utc), offset != camera,
                let other = memo.zone(named: otherZone, in: rules),
                case let otherOffset = memo.offset(other, atUTC: utc, in: rules).utcOffset, otherOffset == camera
            {
                (zone, offset) = (other, otherOffset)
            }
            time.localOffset = offset
            time.timeZone = zone.name
        }
        // Without a place, DateTimeOriginal with its offset (then the instant is that of both).
        if place == nil, wall != nil, let exifOffset { time.localOffset = exifOffset }
        time.warnings = warnings
        return time
    }

    private init(nanoseconds: Int, warnings: [CaptureTimeWarning]) {
        self.nanoseconds = nanoseconds
        self.warnings = warnings
    }

    /// `YYYY-MM-DDTHH:MM:SS` or `YYYY:MM:DD HH:MM:SS` (a real date and time), else `nil`.
    package static func parseDateTime(_ text: String) -> CivilDateTime? {
        var text = text
        return text.withUTF8 { parseDateTime(UnsafeRawBufferPointer($0)) }
    }

    /// ``parseDateTime(_:)-(String)`` of UTF-8 bytes.
    static func parseDateTime(_ b: UnsafeRawBufferPointer) -> CivilDateTime? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(b[index]) else { return nil }
                value = value * 10 + Int(b[index] - 0x30)
            }
            return value
        }
        guard b.count == 19, b[4] == b[7], b[4] == UInt8(ascii: "-") || b[4] == UInt8(ascii: ":"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), b[13] == UInt8(ascii: ":"),
            b[16] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), year >= 1
        else { return nil }
        let time = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return time.isValid ? time : nil
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` → seconds since the epoch and nanoseconds.
    static func parseGPSTime(_ text: String) -> (seconds: Int64, nanoseconds: Int)? {
        var text = text
        return text.withUTF8 { utf8 -> (seconds: Int64, nanoseconds: Int)? in
            let bytes = UnsafeRawBufferPointer(utf8)
            guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
                let whole = parseDateTime(UnsafeRawBufferPointer(rebasing: bytes[0..<19]))
            else { return nil }
            var nanoseconds = 0
            let rest = bytes[19..<bytes.count - 1]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: "."),
                    let fraction = parseFraction(UnsafeRawBufferPointer(rebasing: rest.dropFirst()))
                else { return nil }
                nanoseconds = fraction
            }
            return (whole.secondsSinceEpoch, nanoseconds)
        }
    }

    /// Decimal digits of a fraction of a second (spaces around them ignored, as cameras pad the
    /// field) → nanoseconds, digits beyond the ninth dropped; `nil` for anything else.
    static func parseFraction(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { parseFraction(UnsafeRawBufferPointer($0)) }
    }

    /// ``parseFraction(_:)-(String)`` of UTF-8 bytes.
    static func parseFraction(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var digits = bytes[...]
        while digits.last == 0x20 || digits.last == 0 { digits.removeLast() }
        while digits.first == 0x20 { digits.removeFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for index in 0..<9 {
            value = value * 10 + (index < digits.count ? Int(digits[digits.startIndex + index] - 0x30) : 0)
        }
        return value
    }

    /// `±HH:MM` → seconds east of UTC, hours at most 14 and minutes below 60; else `nil`.
    static func parseOffset(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { b -> Int? in
            func isDigit(_ index: Int) -> Bool { (0x30...0x39).contains(b[index]) }
            guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":"),
                isDigit(1), isDigit(2), isDigit(4), isDigit(5)
            else { return nil }
            let hours = Int(b[1] - 0x30) * 10 + Int(b[2] - 0x30), minutes = Int(b[4] - 0x30) * 10 + Int(b[5] - 0x30)
            guard hours <= 14, minutes < 60 else { return nil }
            let seconds = hours * 3600 + minutes * 60
            return b[0] == UInt8(ascii: "-") ? -seconds : seconds
        }
    }

    /// The longest text of ``utc`` or ``local``.
    package static let maximumTextLength = 64

    /// Calls `body` with the UTF-8 of ``utc`` and ``local`` (`nil` where there is none), written
    /// on the stack rather than made strings: a record's JSON writes them from there.
    package func withTexts<T>(_ body: (_ utc: UnsafeRawBufferPointer?, _ local: UnsafeRawBufferPointer?) -> T) -> T {
        let length = Self.maximumTextLength
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * length) { buffer in
            func text(_ seconds: Int64, offset: Int?, at start: Int) -> UnsafeRawBufferPointer {
                let target = UnsafeMutableBufferPointer(rebasing: buffer[start..<start + length])
                let time = CivilDateTime(secondsSinceEpoch: seconds + Int64(offset ?? 0))
                let count = Self.writeISOText(time, nanoseconds: nanoseconds, offset: offset, into: target)
                return UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: target[0..<count]))
            }
            let utc = utcSeconds.map { text($0, offset: nil, at: 0) }
            let local = utcSeconds.flatMap { seconds in localOffset.map { text(seconds, offset: $0, at: length) } }
            return body(utc, local)
        }
    }

    /// `time` in ISO 8601 with the fraction of its second and `Z` (no `offset`) or its offset:
    /// `2019-07-01T12:34:56.24Z`, `2019-07-01T14:34:56.24+02:00`; the text of
    /// ``CivilDateTime/description``, ``fractionText(_:)`` and ``offsetText(_:)`` joined.
    static func isoText(_ time: CivilDateTime, nanoseconds: Int, offset: Int?) -> String {
        String(unsafeUninitializedCapacity: maximumTextLength) {
            writeISOText(time, nanoseconds: nanoseconds, offset: offset, into: $0)
        }
    }

    /// Writes ``isoText(_:nanoseconds:offset:)`` into `text` (``maximumTextLength`` bytes) digit
    /// by digit and returns its length; joined from five strings, it took five allocations.
    static func writeISOText(
        _ time: CivilDateTime, nanoseconds: Int, offset: Int?, into text: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let magnitude = abs(offset ?? 0)
        let twoDigits = 0...99
        guard (0...9999).contains(time.year), twoDigits.contains(time.month), twoDigits.contains(time.day),
            twoDigits.contains(time.hour), twoDigits.contains(time.minute), twoDigits.contains(time.second),
            magnitude < 100 * 3600
        else {
            // Years beyond four digits, offsets of 100 hours or more: the texts joined.
            var joined = time.description + fractionText(nanoseconds) + (offset.map(offsetText) ?? "Z")
            return joined.withUTF8 { utf8 in
                let count = min(utf8.count, text.count)
                _ = UnsafeMutableBufferPointer(rebasing: text[0..<count]).initialize(from: utf8[0..<count])
                return count
            }
        }
        return ISO8601Text.write(
            year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
            second: time.second, nanoseconds: nanoseconds, offset: offset, into: text)
    }

    /// `.24` for 240,000,000 ns (trailing zeros dropped), empty for none.
    static func fractionText(_ nanoseconds: Int) -> String {
        guard nanoseconds > 0 else { return "" }
        var value = nanoseconds, digits = 9
        while value % 10 == 0 {
            value /= 10
            digits -= 1
        }
        return "." + zeroPadded(value, digits)
    }

    /// `+02:00`, `-03:30`, `+00:00`; `+00:53:28` when there are seconds.
    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds), pad = zeroPadded
        let text = (seconds < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
        return magnitude % 60 == 0 ? text : text + ":" + pad(magnitude % 60, 2)
    }
}

/// Something the capture-time rule had to decide or leave out. Prints as one lowercase line.
public enum CaptureTimeWarning: Hashable, Sendable, CustomStringConvertible {
    /// The clocks showed the time twice; the first occurrence (offset `first`) was used.
    case ambiguousLocalTime(String, zone: String, first: Int, second: Int)
    /// The clocks skipped the time (a gap of `gap` seconds); read with the offset before, `offsetUsed`.
    case nonexistentLocalTime(String, zone: String, offsetUsed: Int, gap: Int)
    /// DateTimeOriginal minus the GPS time is beyond ±14 h or more than 2 minutes off a quarter hour.
    case gpsTimeNotAnOffset(seconds: Int64)
    /// The place's zone is not in the rules.
    case unknownZone(String)
    /// SubSecTimeOriginal is not digits.
    case badSubSeconds(String)
    /// OffsetTimeOriginal is not `±HH:MM` within ±14:59.
    case badOffsetTimeOriginal(String)

    /// The error as one line, without a final period.
    public var description: String {
        switch self {
        case .ambiguousLocalTime(let time, let zone, let first, let second):
            "\(time) happened twice in \(zone) (at \(CaptureTime.offsetText(first)), then at "
                + "\(CaptureTime.offsetText(second))); the first is used"
        case .nonexistentLocalTime(let time, let zone, let offset, let gap):
            "\(time) did not exist in \(zone) (the clocks skipped \(Self.duration(Int64(abs(gap))))); read with the "
                + "offset before the change, \(CaptureTime.offsetText(offset))"
        case .gpsTimeNotAnOffset(let seconds):
            "the GPS time is \(Self.duration(abs(seconds))) \(seconds >= 0 ? "behind" : "ahead of") DateTimeOriginal, "
                + "not a time-zone offset; not used"
        case .unknownZone(let zone): "the time zone \(zone) has no rules; local time unknown"
        case .badSubSeconds(let text): "SubSecTimeOriginal \"\(text)\" is not a fraction of a second; ignored"
        case .badOffsetTimeOriginal(let text): "OffsetTimeOriginal \"\(text)\" is not a UTC offset; ignored"
        }
    }

    /// `1 h`, `30 min`, `3 h 7 min 12 s`, `5 s`.
    ///
    /// Appended part by part to one string (mostly a small one, kept inline): a list of parts
    /// joined made an array and a string per part.
    static func duration(_ seconds: Int64) -> String {
        var text = ""
        func add(_ value: Int64, _ unit: String) {
            if !text.isEmpty { text += " " }
            text += String(value)
            text += unit
        }
        if seconds >= 86_400 { add(seconds / 86_400, " d") }
        if seconds / 3600 % 24 > 0 { add(seconds / 3600 % 24, " h") }
        if seconds / 60 % 60 > 0 { add(seconds / 60 % 60, " min") }
        if seconds % 60 > 0 || text.isEmpty { add(seconds % 60, " s") }
        return text
    }
}
