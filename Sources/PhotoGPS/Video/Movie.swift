import PhotoTagSupport

/// QuickTime, MP4, M4V and 3GP movies (ISO BMFF): where and when a video was recorded.
///
/// The top-level boxes are walked by their headers (16 bytes each; 64-bit sizes and size 0, "to
/// the end of the file", included), so the media data (`mdat`), wherever it lies, is never read.
/// `moov` is read in one piece when it fits what is left of the 1 MiB budget; a larger one is
/// walked by its children's headers and only `mvhd`, `meta`, `udta` and `uuid` are read. Every
/// read counts against ``budget``: a movie whose metadata would take more is an error.
///
/// The position comes from the first of these that is valid (the warnings of those before it
/// are kept):
/// 1. `moov/meta` keys `com.apple.quicktime.location.ISO6709` (``GPSFix/Source/quicktimeKeys``);
/// 2. `moov/udta/©xyz`, or `©xyz` in an iTunes-style `udta/meta/ilst` (``GPSFix/Source/udtaXYZ``);
/// 3. `moov/udta/loci`, 3GPP TS 26.244 (``GPSFix/Source/loci``);
/// 4. XMP: `moov/udta/XMP_`, or a `uuid` box BE7ACFCB-97A9-42E8-9C71-999491E3AFAC in `moov` or at
///    the top level (``GPSFix/Source/xmp``).
///
/// The capture time: the keys' `com.apple.quicktime.creationdate` (local time and offset) becomes
/// ``CameraInfo/dateTimeOriginal`` and ``CameraInfo/offsetTimeOriginal``; without it, `mvhd`'s
/// creation time, which is UTC by the specification, is given as that time with offset `+00:00`
/// (0, "unset", gives none, and so does a time before 1970: a clock never set counts from 1904;
/// and so does 1970-01-01T00:00:00 itself, which muxers write for a Unix time of 0, and which
/// ExifTool shows as `0000:00:00 00:00:00`).
/// Make and model come from the keys `com.apple.quicktime.make`/`model`.
struct Movie {
    /// The most bytes reading one movie may take, headers included.
    static let budget = 1 << 20
    /// The `uuid` of an XMP box.
    static let xmpUUID: [UInt8] = [
        0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
    ]
    /// `©xyz` as a box type.
    static let xyzCode: UInt32 = 0xA978_797A
    /// Seconds from 1904-01-01 (the movie epoch) to 1970-01-01.
    static let epochOffset: UInt64 = 2_082_844_800

    /// The keys' ISO 6709 location.
    private var keysLocation: [UInt8]?
    /// The keys' creation date, as written.
    private var keysCreationDate: [UInt8]?
    private var make: String?
    private var model: String?
    /// The ISO 6709 string of `©xyz`.
    private var xyz: [UInt8]?
    /// The `loci` payload.
    private var loci: [UInt8]?
    /// The first XMP packet in `moov`.
    private var xmp: [UInt8]?
    /// A top-level XMP `uuid` box, read only when nothing before it gives a position.
    private var topLevelXMP: Box?
    /// `mvhd`'s creation time in seconds since 1904; `nil` when absent or 0.
    private var creationTime: UInt64?

    /// Whether a box that can hold a position has been found.
    private var hasLocation: Bool {
        keysLocation != nil || xyz != nil || loci != nil || xmp != nil || topLevelXMP != nil
    }

    /// Reads a movie's metadata and decodes its position.
    static func read(_ file: some ByteSource) throws(PhotoGPSError) -> GPSReading {
        let source = BudgetedSource(base: file, budget: budget)
        var movie = Movie()
        var boxes = Boxes(in: source, from: 0, to: source.count)
        var sawMoov = false
        walk: while let box = try boxes.next() {
            switch box.type {
            case "moov" where !sawMoov:
                sawMoov = true
                if box.isCutShort { throw .truncated("the file ends inside the 'moov' box") }
                try movie.readMoov(box, in: source)
                if movie.hasLocation, movie.topLevelXMP == nil {
                    // Nothing after `moov` can take precedence over a valid position in it.
                    let reading = try movie.reading(source)
                    if reading.status == .located { return reading }
                }
            case "moof" where sawMoov:
                break walk  // a fragmented movie: only fragments follow, never its metadata
            case "uuid" where movie.topLevelXMP == nil && box.payloadLength >= 16:
                if try source.bytes(at: box.payload, length: 16) == xmpUUID { movie.topLevelXMP = box }
            default: break
            }
        }
        guard sawMoov else { throw .malformedContainer("the movie has no 'moov' box") }
        return try movie.reading(source)
    }

    // MARK: Boxes

    /// Reads `moov` whole when it fits the budget, else its interesting children one by one.
    private mutating func readMoov(_ moov: Box, in source: BudgetedSource<some ByteSource>) throws(PhotoGPSError) {
        if moov.payloadLength <= source.remaining {
            let bytes = try source.bytes(at: moov.payload, length: moov.payloadLength)
            try readMoovChildren(in: MemorySource(storage: bytes), from: 0, to: bytes.count)
        } else {
            try readMoovChildren(in: source, from: moov.payload, to: moov.end)
        }
    }

    private mutating func readMoovChildren(
        in source: some ByteSource, from start: Int, to end: Int
    )
        throws(PhotoGPSError)
    {
        var children = Boxes(in: source, from: start, to: end)
        var seen: Set<String> = []
        while let box = try children.next() {
            guard ["mvhd", "meta", "udta", "uuid"].contains(box.type), !seen.contains(box.type) else { continue }
            if box.overrunsParent { throw .malformedContainer("the '\(box.type)' box runs past the end of 'moov'") }
            if box.type == "uuid" {
                guard xmp == nil, box.payloadLength >= 16,
                    try source.bytes(at: box.payload, length: 16) == Self.xmpUUID
                else { continue }
            }
            seen.insert(box.type)
            let payload = try Self.payload(of: box, in: source)
            switch box.type {
            case "mvhd": try readMovieHeader(payload)
            case "meta": try readMeta(payload)
            case "udta": try readUserData(payload)
            default: xmp = Array(payload.dropFirst(16))
            }
        }
    }

    /// A box's payload, after checking that it fits the budget with a message that names it.
    private static func payload(of box: Box, in source: some ByteSource) throws(PhotoGPSError) -> [UInt8] {
        if let budgeted = source as? any RemainingBudget, box.payloadLength > budgeted.remaining {
            throw .malformedContainer(
                "the '\(box.type)' box is \(box.payloadLength) bytes; a movie's metadata is read up to 1 MiB")
        }
        let bytes = try source.bytes(at: box.payload, length: box.payloadLength)
        guard bytes.count == box.payloadLength else { throw .truncated("the file ends inside the '\(box.type)' box") }
        return bytes
    }

    /// `mvhd`: version 0 has a 32-bit creation time, version 1 a 64-bit one.
    private mutating func readMovieHeader(_ payload: [UInt8]) throws(PhotoGPSError) {
        var reader = ByteReader(payload, 0..<payload.count)
        let version = try reader.u8()
        try reader.skip(3)
        let seconds =
            version == 1 ? UInt64(try reader.u32()) << 32 | UInt64(try reader.u32()) : UInt64(try reader.u32())
        if seconds != 0 { creationTime = seconds }
    }

    /// `meta` with `keys` and `ilst` (QuickTime metadata), or an iTunes-style `ilst` alone. A
    /// QuickTime `meta` starts with its first child; an ISO one is a full box (4 bytes of version
    /// and flags first), told apart by those four bytes being zero.
    private mutating func readMeta(_ payload: [UInt8]) throws(PhotoGPSError) {
        let memory = MemorySource(storage: payload)
        let start = payload.count >= 12 && payload[0..<4].allSatisfy { $0 == 0 } ? 4 : 0
        var children = Boxes(in: memory, from: start, to: payload.count)
        var keys: [UInt32: [UInt8]] = [:]
        var items: Box? = nil
        while let box = try children.next() {
            if box.type == "keys" {
                keys = try Self.readKeys(payload, box)
            } else if box.type == "ilst", items == nil {
                items = box
            }
        }
        guard let items else { return }
        var entries = Boxes(in: memory, from: items.payload, to: items.end)
        while let item = try entries.next() {
            guard let value = try Self.firstData(payload, item) else { continue }
            if let key = keys[item.code] {
                switch String(decoding: key, as: UTF8.self) {
                case "com.apple.quicktime.location.ISO6709": if keysLocation == nil { keysLocation = value }
                case "com.apple.quicktime.creationdate": if keysCreationDate == nil { keysCreationDate = value }
                case "com.apple.quicktime.make": if make == nil { make = String(decoding: value, as: UTF8.self) }
                case "com.apple.quicktime.model": if model == nil { model = String(decoding: value, as: UTF8.self) }
                default: break
                }
            } else if keys.isEmpty, item.code == Self.xyzCode, xyz == nil {
                xyz = value
            }
        }
    }

    /// The `keys` box: index (from 1) → key name, for the `mdta` namespace.
    private static func readKeys(_ bytes: [UInt8], _ box: Box) throws(PhotoGPSError) -> [UInt32: [UInt8]] {
        var reader = ByteReader(bytes, box.payload..<box.end)
        try reader.skip(4)  // version and flags
        let count = try reader.u32()
        var keys: [UInt32: [UInt8]] = [:]
        var index: UInt32 = 1
        while index <= count {
            let size = Int(try reader.u32())
            guard size >= 8 else { throw .malformedContainer("a 'keys' entry has size \(size)") }
            let namespace = try reader.fourCC()
            let start = reader.position
            try reader.skip(size - 8)
            if namespace == "mdta" { keys[index] = Array(bytes[start..<start + size - 8]) }
            index += 1
        }
        return keys
    }

    /// The value of an `ilst` item's first `data` box (after its 4-byte type and 4-byte locale).
    private static func firstData(_ bytes: [UInt8], _ item: Box) throws(PhotoGPSError) -> [UInt8]? {
        guard let data = try Boxes.find("data", in: MemorySource(storage: bytes), from: item.payload, to: item.end),
            data.payloadLength >= 8
        else { return nil }
        return Array(bytes[(data.payload + 8)..<data.end])
    }

    /// `udta`: `©xyz` (a 16-bit length, a 16-bit language, the ISO 6709 string), `loci`, `XMP_`,
    /// and a `meta` with an iTunes-style `ilst`.
    private mutating func readUserData(_ payload: [UInt8]) throws(PhotoGPSError) {
        var children = Boxes(in: MemorySource(storage: payload), from: 0, to: payload.count)
        while let box = try children.next() {
            let body = payload[box.payload..<box.end]
            if box.code == Self.xyzCode, xyz == nil {
                guard body.count >= 4 else { throw .malformedContainer("the '©xyz' box has \(body.count) bytes") }
                let length = Int(ByteOrder.bigEndian.read(UInt16.self, payload, at: box.payload))
                xyz = Array(body.dropFirst(4).prefix(length))
            } else if box.type == "loci", loci == nil {
                loci = Array(body)
            } else if box.type == "XMP_", xmp == nil {
                xmp = Array(body)
            } else if box.type == "meta" {
                try readMeta(Array(body))
            }
        }
    }

    // MARK: Decoding

    /// The reading: the first valid position in order of precedence, the camera and the time.
    private func reading(_ source: some ByteSource) throws(PhotoGPSError) -> GPSReading {
        var warnings: [GPSWarning] = []
        var invalid = false
        var fix: GPSFix? = nil
        if let keysLocation {
            fix = Self.iso6709(keysLocation, box: "QuickTime keys", source: .quicktimeKeys, warnings: &warnings)
            invalid = fix == nil
        }
        if fix == nil, let xyz {
            fix = Self.iso6709(xyz, box: "udta ©xyz", source: .udtaXYZ, warnings: &warnings)
            invalid = invalid || fix == nil
        }
        if fix == nil, let loci {
            fix = Self.decodeLoci(loci, warnings: &warnings)
            invalid = invalid || fix == nil
        }
        if fix == nil {
            var packet = xmp
            if packet == nil, let topLevelXMP {
                packet = Array(try Self.payload(of: topLevelXMP, in: source).dropFirst(16))
            }
            if let packet {
                let decoded = XMP.decode(packet)
                warnings += decoded.warnings
                fix = decoded.fix
                invalid = invalid || decoded.warnings.contains { $0 != .xmpNotWellFormed }
            }
        }
        let camera = self.camera
        let status: GPSReading.Status = fix != nil ? .located : invalid ? .invalidGPS : .noGPS
        return GPSReading(status: status, fix: fix, camera: camera.isEmpty ? nil : camera, warnings: warnings)
    }

    /// A fix from an ISO 6709 string, or `nil` with the reason in `warnings`.
    private static func iso6709(
        _ text: [UInt8], box: String, source: GPSFix.Source, warnings: inout [GPSWarning]
    ) -> GPSFix? {
        let point: ISO6709.Point
        do {
            point = try ISO6709.parse(text)
        } catch {
            let shown = String(decoding: text.prefix(64).map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
            warnings.append(.badISO6709(box: box, value: shown, reason: error.description))
            return nil
        }
        guard point.latitude != 0 || point.longitude != 0 else {
            warnings.append(.noFixPlaceholder)
            return nil
        }
        return GPSFix(latitude: point.latitude, longitude: point.longitude, altitude: point.altitude, source: source)
    }

    /// The 3GPP `loci` box: version and flags, language, a name (UTF-8 or BOM-marked UTF-16,
    /// NUL-terminated), a role byte, then longitude, latitude and altitude as signed 16.16 fixed
    /// point (degrees and metres); the body and notes strings after them are not needed.
    static func decodeLoci(_ payload: [UInt8], warnings: inout [GPSWarning]) -> GPSFix? {
        var position = 6  // version, flags, language
        if payload.count >= position + 2, payload[position] == 0xFE, payload[position + 1] == 0xFF {
            position += 2
            while position + 1 < payload.count, payload[position] != 0 || payload[position + 1] != 0 { position += 2 }
            position += 2
        } else {
            while position < payload.count, payload[position] != 0 { position += 1 }
            position += 1
        }
        position += 1  // role
        guard position + 12 <= payload.count else {
            warnings.append(.badLoci(reason: "it ends before its coordinates"))
            return nil
        }
        func fixed(_ offset: Int) -> Double {
            Double(ByteOrder.bigEndian.read(Int32.self, payload, at: offset)) / 65536
        }
        let longitude = fixed(position), latitude = fixed(position + 4), altitude = fixed(position + 8)
        guard abs(latitude) <= 90 else {
            warnings.append(.badLoci(reason: "the latitude \(latitude) is out of range (more than 90 degrees)"))
            return nil
        }
        guard abs(longitude) <= 180 else {
            warnings.append(.badLoci(reason: "the longitude \(longitude) is out of range (more than 180 degrees)"))
            return nil
        }
        guard latitude != 0 || longitude != 0 else {
            warnings.append(.noFixPlaceholder)
            return nil
        }
        return GPSFix(latitude: latitude, longitude: longitude, altitude: altitude, source: .loci)
    }

    /// Make, model and capture time (see the type's documentation).
    private var camera: CameraInfo {
        var dateTime: String? = nil, offset: String? = nil, subSeconds: String? = nil
        if let keysCreationDate, let parsed = Self.creationDate(keysCreationDate) {
            (dateTime, offset, subSeconds) = parsed
        } else if let creationTime, creationTime > Self.epochOffset {
            dateTime = Self.civilTime(secondsSince1970: creationTime - Self.epochOffset)
            offset = dateTime == nil ? nil : "+00:00"
        }
        return CameraInfo(
            make: make, model: model, dateTimeOriginal: dateTime, offsetTimeOriginal: offset,
            subSecTimeOriginal: subSeconds, timeSource: .quicktime)
    }

    /// `2019-07-01T14:34:56+0200` (also `+02:00`, `Z`, no offset, or a fraction of a second after
    /// the seconds) → the local time, the offset as `+02:00`, and the fraction's digits.
    static func creationDate(_ bytes: [UInt8]) -> (String, String?, String?)? {
        var text = bytes
        while text.last == 0 { text.removeLast() }
        guard text.count >= 19, CameraInfo.isoDateTime(String(decoding: text[0..<19], as: UTF8.self)) != nil
        else { return nil }
        let dateTime = String(decoding: text[0..<19], as: UTF8.self)
        var rest = Array(text[19...])
        var fraction: String? = nil
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty else { return nil }
            fraction = String(decoding: digits, as: UTF8.self)
            rest = Array(rest.dropFirst(1 + digits.count))
        }
        switch rest.count {
        case 0: return (dateTime, nil, fraction)
        case 1 where rest[0] == UInt8(ascii: "Z"): return (dateTime, "+00:00", fraction)
        case 5, 6:
            guard rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-") else { return nil }
            let digits = rest.count == 5 ? rest[1...] : rest[1..<3] + rest[4...]
            guard rest.count == 5 || rest[3] == UInt8(ascii: ":"), digits.count == 4,
                let hours = decimalDigits(Array(digits), 0..<2), let minutes = decimalDigits(Array(digits), 2..<4),
                hours <= 14, minutes < 60
            else { return nil }
            let sign = rest[0] == UInt8(ascii: "+") ? "+" : "-"
            return (dateTime, "\(sign)\(zeroPadded(hours, 2)):\(zeroPadded(minutes, 2))", fraction)
        default: return nil
        }
    }

    /// Seconds since 1970 UTC → `YYYY-MM-DDTHH:MM:SS`, `nil` past the year 9999.
    static func civilTime(secondsSince1970 seconds: UInt64) -> String? {
        guard seconds < 253_402_300_800 else { return nil }  // 10000-01-01T00:00:00Z
        let second = Int(seconds % 86_400)
        let (year, month, day) = GregorianCalendar.civilDate(fromDays: Int64(seconds / 86_400))
        return "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))T"
            + "\(zeroPadded(second / 3600, 2)):\(zeroPadded(second / 60 % 60, 2)):\(zeroPadded(second % 60, 2))"
    }
}

/// A source whose reads say how much of their budget is left.
protocol RemainingBudget {
    /// Bytes that may still be read.
    var remaining: Int { get }
}

/// A source that counts its reads and bytes, and throws before it would pass its byte budget: no
/// file, however its boxes are made, costs more than that.
final class BudgetedSource<Base: ByteSource>: ByteSource, RemainingBudget {
    let base: Base
    let budget: Int
    /// Bytes returned so far.
    private(set) var spent = 0
    /// Reads made so far.
    private(set) var reads = 0

    init(base: Base, budget: Int) {
        self.base = base
        self.budget = budget
    }

    var count: Int { base.count }
    var remaining: Int { budget - spent }

    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8] {
        let wanted = max(0, min(length, count - offset))
        guard offset >= 0, wanted > 0 else { return [] }
        guard wanted <= remaining else {
            throw .malformedContainer("a movie's metadata is read up to 1 MiB, and this one takes more")
        }
        let bytes = try base.bytes(at: offset, length: wanted)
        spent += bytes.count
        reads += 1
        return bytes
    }
}
