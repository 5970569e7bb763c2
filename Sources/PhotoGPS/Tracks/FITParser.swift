import PhotoTagSupport

/// A streaming reader of Garmin FIT activity files: the fixes are the `record` messages (global
/// message 20), not the `lap` and `session` messages (which ExifTool wrongly turns into fixes).
///
/// - File header: 12 or 14 bytes, `.FIT` at bytes 8–11; a 14-byte header's CRC is checked
///   unless it is 0 (not computed). Several FIT files may follow one another (chained): each is
///   read with its own definitions.
/// - Definition messages: little- or big-endian architecture, field definitions, developer field
///   definitions (their data is skipped); up to 16 local message types.
/// - Data messages with a normal or a compressed timestamp header (the 5-bit offset added to the
///   last full `timestamp` field read, rolling over every 32 s).
/// - A record's fix: `timestamp` (field 253, seconds since 1989-12-31T00:00:00Z; or the
///   compressed header's time), `position_lat` / `position_long` (fields 0 and 1, semicircles:
///   degrees = value × 180 / 2^31; 0x7FFFFFFF = no position), altitude from
///   `enhanced_altitude` (field 78) or else `altitude` (field 2), both value / 5 − 500 metres.
/// - The file's CRC (its last two bytes) is computed as the bytes arrive; a wrong one refuses the
///   file, as Garmin's SDK does.
///
/// A record without a position or a time, or timed before 0x10000000 (seconds since the device
/// started, not a date), is skipped with its byte offset.
struct FITParser: TrackParser {
    /// Seconds from the Unix epoch to the FIT epoch, 1989-12-31T00:00:00Z.
    static let epoch = 631_065_600.0

    /// What the bytes being gathered are.
    private enum Step {
        /// The file header's first byte: its size.
        case headerSize
        /// The rest of a file header of `size` bytes.
        case header(size: Int)
        /// A record header byte.
        case recordHeader
        /// A definition message's fixed part (reserved, architecture, global number, field count).
        case definition(local: Int, developer: Bool)
        /// A definition's `count` field definitions.
        case fields(Definition, local: Int, count: Int, developer: Bool)
        /// A definition's developer field count.
        case developerCount(Definition, local: Int)
        /// A definition's `count` developer field definitions.
        case developerFields(Definition, local: Int, count: Int)
        /// A data message of local type `local`; `compressedTime` is its compressed header's time.
        case message(local: Int, compressedTime: UInt32?, compressed: Bool)
        /// The file's CRC.
        case fileCRC
    }

    /// A local message type's definition: what a data message of it holds and where.
    struct Definition {
        /// The global message number (20: `record`).
        var global: UInt16 = 0
        /// Whether multi-byte fields are big-endian.
        var bigEndian = false
        /// The data message's size in bytes (developer fields included).
        var size = 0
        /// The offset of the `timestamp` field (253, 4 bytes) in the data message, if it has one.
        var timestamp: Int?
        /// The offset of `position_lat` (0, 4 bytes), in a `record`.
        var latitude: Int?
        /// The offset of `position_long` (1, 4 bytes), in a `record`.
        var longitude: Int?
        /// The offset of `altitude` (2, 2 bytes), in a `record`.
        var altitude: Int?
        /// The offset of `enhanced_altitude` (78, 4 bytes), in a `record`.
        var enhancedAltitude: Int?
    }

    /// What the next bytes are.
    private var step = Step.headerSize
    /// The start of a unit cut by a chunk boundary.
    private var pending: [UInt8] = []
    /// The offset in the file of the unit being gathered.
    private var offset = 0
    /// The offset of the message (its record header) the unit is part of.
    private var messageStart = 0
    /// Where the current FIT file starts.
    private var fileStart = 0
    /// Where the current FIT file's data ends (its CRC starts).
    private var dataEnd = 0
    /// The CRC of the current FIT file's bytes so far.
    private var crc: UInt16 = 0
    /// The definitions of local message types 0–15.
    private var definitions = [Definition?](repeating: nil, count: 16)
    /// The last full or compressed timestamp read, in FIT seconds.
    private var lastTimestamp: UInt32?
    /// Complete FIT files read.
    private var files = 0

    /// A reader at the start of a file.
    init() {}

    /// Whether `prefix` (a file's first bytes) is FIT: a header size of 12 or 14 and `.FIT` at
    /// bytes 8–11.
    static func matches(prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.count >= 12 && (prefix[0] == 12 || prefix[0] == 14) && prefix[8] == 0x2E && prefix[9] == 0x46
            && prefix[10] == 0x49 && prefix[11] == 0x54
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: inout some TrackSink) throws(TrackReadError) {
        var index = 0
        while true {
            let need = try bytesNeeded()
            let available = chunk.count - index
            if pending.isEmpty {
                if available >= need {
                    try take(UnsafeRawBufferPointer(rebasing: chunk[index..<index + need]), &sink)
                    index += need
                    continue
                }
                if available > 0 { pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index...])) }
                return
            }
            let count = min(need - pending.count, available)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index..<index + count]))
            index += count
            guard pending.count == need else { return }
            var unit: [UInt8] = []
            swap(&unit, &pending)
            let result: Result<Void, TrackReadError> = unit.withUnsafeBytes { raw in
                do throws(TrackReadError) {
                    try take(raw, &sink)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
            unit.removeAll(keepingCapacity: true)
            swap(&unit, &pending)
        }
    }

    mutating func finish(into sink: inout some TrackSink) throws(TrackReadError) {
        if case .headerSize = step, pending.isEmpty, files > 0 { return }
        if offset == 0, pending.isEmpty { throw TrackReadError("not a FIT file: it is empty") }
        let end = offset + pending.count
        let what: String
        switch step {
        case .headerSize, .header: what = "in its header, which starts at byte \(fileStart)"
        case .fileCRC: what = "in its CRC, at byte \(offset)"
        default: what = "before the end of its data at byte \(dataEnd)"
        }
        throw TrackReadError("the FIT file is cut short: it ends at byte \(end), \(what)")
    }

    /// How many bytes the current step reads; throws when they would run past the data.
    private func bytesNeeded() throws(TrackReadError) -> Int {
        let need: Int
        switch step {
        case .headerSize: return 1
        case .header(let size): return size - 1
        case .fileCRC: return 2
        case .recordHeader: need = 1
        case .definition: need = 5
        case .fields(_, _, let count, _): need = 3 * count
        case .developerCount: need = 1
        case .developerFields(_, _, let count): need = 3 * count
        case .message(let local, _, _): need = definitions[local]?.size ?? 0
        }
        guard offset + need <= dataEnd else {
            var start = messageStart
            if case .recordHeader = step { start = offset }
            throw TrackReadError(
                "byte \(start): a message runs past the end of the data the FIT header announces (byte \(dataEnd))")
        }
        return need
    }

    /// Reads the unit the current step gathered, and moves to the next step.
    private mutating func take(_ unit: UnsafeRawBufferPointer, _ sink: inout some TrackSink) throws(TrackReadError) {
        if case .headerSize = step { crc = 0 }
        if case .fileCRC = step {} else { crc = Self.crc(crc, unit) }
        let start = offset
        offset += unit.count
        switch step {
        case .headerSize:
            fileStart = start
            let size = Int(unit[0])
            guard size == 12 || size == 14 else {
                throw TrackReadError(
                    start == 0
                        ? "not a FIT file: its header size is \(size), not 12 or 14"
                        : "byte \(start): what follows the FIT file is not another FIT file (header size \(size))")
            }
            step = .header(size: size)
        case .header(let size):
            try header(unit, size: size, start: start - 1)
        case .recordHeader:
            messageStart = start
            let byte = unit[0]
            if byte & 0x80 != 0 {
                let local = Int(byte >> 5 & 0x03)
                guard definitions[local] != nil else { throw undefined(local, at: start) }
                var time: UInt32?
                if let last = lastTimestamp {
                    let timeOffset = UInt32(byte & 0x1F)
                    var value = last & ~0x1F &+ timeOffset
                    if timeOffset < last & 0x1F { value = value &+ 0x20 }
                    lastTimestamp = value
                    time = value
                }
                step = .message(local: local, compressedTime: time, compressed: true)
            } else if byte & 0x40 != 0 {
                step = .definition(local: Int(byte & 0x0F), developer: byte & 0x20 != 0)
            } else {
                let local = Int(byte & 0x0F)
                guard definitions[local] != nil else { throw undefined(local, at: start) }
                step = .message(local: local, compressedTime: nil, compressed: false)
            }
        case .definition(let local, let developer):
            guard unit[1] <= 1 else {
                throw TrackReadError(
                    "byte \(messageStart): a FIT definition message with architecture \(unit[1]), not 0 or 1")
            }
            var definition = Definition()
            definition.bigEndian = unit[1] == 1
            definition.global = (definition.bigEndian ? ByteOrder.bigEndian : .littleEndian).read(
                UInt16.self, unit, at: 2)
            let count = Int(unit[4])
            if count > 0 {
                step = .fields(definition, local: local, count: count, developer: developer)
            } else {
                define(definition, local: local, developer: developer)
            }
        case .fields(var definition, let local, let count, let developer):
            for field in 0..<count {
                let number = unit[3 * field], size = Int(unit[3 * field + 1])
                let at = definition.size
                definition.size += size
                switch (number, size) {
                case (253, 4): definition.timestamp = at
                case (0, 4) where definition.global == 20: definition.latitude = at
                case (1, 4) where definition.global == 20: definition.longitude = at
                case (2, 2) where definition.global == 20: definition.altitude = at
                case (78, 4) where definition.global == 20: definition.enhancedAltitude = at
                default: break
                }
            }
            define(definition, local: local, developer: developer)
        case .developerCount(let definition, let local):
            let count = Int(unit[0])
            if count > 0 {
                step = .developerFields(definition, local: local, count: count)
            } else {
                define(definition, local: local, developer: false)
            }
        case .developerFields(var definition, let local, let count):
            for field in 0..<count { definition.size += Int(unit[3 * field + 1]) }
            define(definition, local: local, developer: false)
        case .message(let local, let compressedTime, let compressed):
            if let definition = definitions[local] {
                message(unit, definition, compressedTime, compressed, at: messageStart, &sink)
            }
            step = .recordHeader
        case .fileCRC:
            let stored = UInt16(unit[0]) | UInt16(unit[1]) << 8
            guard stored == crc else {
                throw TrackReadError(
                    "the FIT file's CRC is wrong (byte \(start): stored \(Self.hex(stored)), computed \(Self.hex(crc)))"
                )
            }
            files += 1
            step = .headerSize
            return
        }
        if case .recordHeader = step, offset == dataEnd { step = .fileCRC }
    }

    /// The rest of a file header (`unit` holds bytes 1 to size − 1; the file starts at `start`).
    private mutating func header(_ unit: UnsafeRawBufferPointer, size: Int, start: Int) throws(TrackReadError) {
        let place = start == 0 ? "" : " (FIT file at byte \(start))"
        guard unit[7] == 0x2E, unit[8] == 0x46, unit[9] == 0x49, unit[10] == 0x54 else {
            throw TrackReadError(
                start == 0
                    ? "not a FIT file: no .FIT at bytes 8 to 11"
                    : "byte \(start): what follows the FIT file is not another FIT file (no .FIT)")
        }
        if size == 14 {
            let stored = ByteOrder.littleEndian.read(UInt16.self, unit, at: 11)
            let computed = Self.crc(Self.crc(0, [UInt8(size)]), UnsafeRawBufferPointer(rebasing: unit[0..<11]))
            guard stored == 0 || stored == computed else {
                throw TrackReadError(
                    "the FIT header's CRC is wrong\(place): stored \(Self.hex(stored)), computed \(Self.hex(computed))")
            }
        }
        let dataSize = Int(ByteOrder.littleEndian.read(UInt32.self, unit, at: 3))
        dataEnd = start + size + dataSize
        definitions = [Definition?](repeating: nil, count: 16)
        lastTimestamp = nil
        step = dataSize == 0 ? .fileCRC : .recordHeader
    }

    /// Keeps a finished definition, or goes on to its developer fields.
    private mutating func define(_ definition: Definition, local: Int, developer: Bool) {
        if developer {
            step = .developerCount(definition, local: local)
        } else {
            definitions[local] = definition
            step = .recordHeader
        }
    }

    /// The error for a data message of an undefined local type.
    private func undefined(_ local: Int, at start: Int) -> TrackReadError {
        TrackReadError("byte \(start): a FIT data message of local type \(local), which no definition message defined")
    }

    /// A data message (its header at `start`): notes its timestamp, and hands out a record's fix.
    private mutating func message(
        _ unit: UnsafeRawBufferPointer, _ definition: Definition, _ compressedTime: UInt32?, _ compressed: Bool,
        at start: Int, _ sink: inout some TrackSink
    ) {
        let order: ByteOrder = definition.bigEndian ? .bigEndian : .littleEndian
        var time = compressedTime
        if let at = definition.timestamp {
            let value = order.read(UInt32.self, unit, at: at)
            if value != 0xFFFF_FFFF {
                time = value
                lastTimestamp = value
            }
        }
        guard definition.global == 20 else { return }
        guard let time else {
            sink.skip(
                compressed
                    ? "byte \(start): record with a compressed timestamp and no full timestamp before it"
                    : "byte \(start): record without a timestamp")
            return
        }
        guard time >= 0x1000_0000 else {
            sink.skip("byte \(start): record timed \(time) s after the device started, not a date")
            return
        }
        guard let latitudeAt = definition.latitude, let longitudeAt = definition.longitude,
            case let latitude = order.read(Int32.self, unit, at: latitudeAt),
            case let longitude = order.read(Int32.self, unit, at: longitudeAt),
            latitude != Int32.max, longitude != Int32.max
        else {
            sink.skip("byte \(start): record without a position")
            return
        }
        var altitude: Double?
        if let at = definition.enhancedAltitude, case let value = order.read(UInt32.self, unit, at: at),
            value != 0xFFFF_FFFF
        {
            altitude = Double(value) / 5 - 500
        } else if let at = definition.altitude, case let value = order.read(UInt16.self, unit, at: at),
            value != 0xFFFF
        {
            altitude = Double(value) / 5 - 500
        }
        let fix = TrackFix(
            time: Double(time) + Self.epoch, latitude: Double(latitude) * 180 / 2_147_483_648,
            longitude: Double(longitude) * 180 / 2_147_483_648, altitude: altitude)
        guard fix.isValid else {
            sink.skip("byte \(start): record position out of range")
            return
        }
        sink.add(fix)
    }

    /// The FIT CRC-16 (polynomial 0xA001, four bits at a time, as Garmin's SDK computes it) of
    /// `bytes`, continuing from `crc`.
    static func crc(_ crc: UInt16, _ bytes: some Sequence<UInt8>) -> UInt16 {
        let table = crcTable
        var crc = crc
        for byte in bytes {
            var low = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ table[Int(byte & 0xF)]
            low = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ table[Int(byte >> 4)]
        }
        return crc
    }

    /// The CRC's table: the remainder of each four-bit value.
    private static let crcTable: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// `0x` and four hexadecimal digits.
    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
