import PhotoTagSupport

/// Compiles the rules of a list of zones from a folder of compiled tzdata (TZif files, RFC 8536,
/// as `zic` writes them into `zoneinfo/`) into the format of `TimeZoneRulesLayout` (TimeZoneRulesLayout.swift).
///
/// A zone is read from the file of its name; a name with no file of its own is followed through
/// the `L` (link) lines of the folder's `tzdata.zi`. The output depends only on those files and
/// the set of names asked for (their order and repeats do not matter), so the same input always
/// gives the same bytes.
package struct TimeZoneRulesBuilder {
    /// The zoneinfo folder.
    package var zoneinfo: String

    /// A builder that reads the zones from the zoneinfo folder `zoneinfo`.
    package init(zoneinfo: String) {
        self.zoneinfo = zoneinfo
    }

    /// Reads the zones' TZif files and writes the rules.
    ///
    /// - Throws: ``TimeZoneRulesError`` when a zone is unknown, a file cannot be read or is not a
    ///   version 2+ TZif file without leap seconds, or the output would exceed the format's limits.
    package func build(zones: [String]) throws(TimeZoneRulesError) -> [UInt8] {
        var links: [String: String]?
        var rules: [String: ZoneRules] = [:]
        for name in Set(zones).sorted() {
            guard Self.isZoneName(name) else { throw .unknownZone(name) }
            var target = name
            var hops = 0
            while !Self.isRegularFile(zoneinfo + "/" + target) {
                if links == nil { links = try readLinks() }
                guard let next = links?[target], hops < 8, Self.isZoneName(next) else { throw .unknownZone(name) }
                target = next
                hops += 1
            }
            let path = zoneinfo + "/" + target
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(path)
            } catch {
                if case .cannotRead(_, let reason) = error { throw .cannotRead(path: path, reason: reason) }
                throw .cannotRead(path: path, reason: "\(error)")
            }
            rules[name] = try ZoneRules(tzif: bytes, path: path)
        }
        return try Self.encode(rules)
    }

    /// Writes named rules in the format of `TimeZoneRulesLayout` (TimeZoneRulesLayout.swift).
    static func encode(_ zones: [String: ZoneRules]) throws(TimeZoneRulesError) -> [UInt8] {
        let names = zones.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var ruleSets: [ZoneRules] = []
        var ruleSetIndex: [ZoneRules: Int] = [:]
        var nameRuleSets: [Int] = []
        for name in names {
            guard let zone = zones[name] else { continue }
            if let index = ruleSetIndex[zone] {
                nameRuleSets.append(index)
            } else {
                ruleSetIndex[zone] = ruleSets.count
                nameRuleSets.append(ruleSets.count)
                ruleSets.append(zone)
            }
        }
        // Abbreviations go first in the pool: a type refers to its abbreviation with 16 bits.
        var pool = ShortStringPool()
        for set in ruleSets { for type in set.types { _ = try pool.add(type.abbreviation) } }
        guard pool.bytes.count <= Int(UInt16.max) else { throw .tooLarge("abbreviations of \(pool.bytes.count) bytes") }
        let transitionCount = ruleSets.reduce(0) { $0 + $1.transitions.count }
        let typeCount = ruleSets.reduce(0) { $0 + $1.types.count }
        guard transitionCount < Int(UInt32.max), typeCount < Int(UInt32.max) else {
            throw .tooLarge("\(transitionCount) transitions")
        }

        var nameTable: [UInt8] = []
        for (name, index) in zip(names, nameRuleSets) {
            ByteOrder.littleEndian.append(try pool.add(name), to: &nameTable)
            ByteOrder.littleEndian.append(UInt32(index), to: &nameTable)
        }
        var setTable: [UInt8] = [], times: [UInt8] = [], typeIndices: [UInt8] = [], typeTable: [UInt8] = []
        var firstTransition = 0, firstType = 0
        for set in ruleSets {
            ByteOrder.littleEndian.append(UInt32(firstTransition), to: &setTable)
            ByteOrder.littleEndian.append(UInt32(set.transitions.count), to: &setTable)
            ByteOrder.littleEndian.append(UInt32(firstType), to: &setTable)
            ByteOrder.littleEndian.append(UInt32(set.types.count), to: &setTable)
            ByteOrder.littleEndian.append(try pool.add(set.footer), to: &setTable)
            for transition in set.transitions {
                ByteOrder.littleEndian.append(UInt64(bitPattern: transition.at), to: &times)
                typeIndices.append(transition.type)
            }
            for type in set.types {
                ByteOrder.littleEndian.append(UInt32(bitPattern: Int32(type.utcOffset)), to: &typeTable)
                ByteOrder.littleEndian.append(UInt16(try pool.add(type.abbreviation)), to: &typeTable)
                typeTable.append(type.isDaylightSaving ? 1 : 0)
                typeTable.append(0)
            }
            firstTransition += set.transitions.count
            firstType += set.types.count
        }
        guard pool.bytes.count < Int(UInt32.max) else { throw .tooLarge("the string pool") }

        var bytes = TimeZoneRulesLayout.magic
        for value in [
            TimeZoneRulesLayout.version, UInt32(names.count), UInt32(ruleSets.count), UInt32(transitionCount),
            UInt32(typeCount), UInt32(pool.bytes.count),
        ] {
            ByteOrder.littleEndian.append(value, to: &bytes)
        }
        bytes += nameTable + setTable + times + typeIndices + typeTable + pool.bytes
        return bytes
    }

    /// Whether `name` looks like a tz zone name (`Europe/Berlin`, `Etc/GMT+5`): ASCII letters,
    /// digits, `_`, `-`, `+` and `/`, no empty or dot component. Keeps the name inside the folder.
    static func isZoneName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard !component.isEmpty, component.first != UInt8(ascii: "."),
                component.allSatisfy({ byte in
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                        || [0x2B, 0x2D, 0x2E, 0x5F].contains(byte)
                })
            else { return false }
        }
        return true
    }

    private static func isRegularFile(_ path: String) -> Bool {
        (try? fileStatus(path))?.isRegular == true
    }

    /// The `L TARGET LINK-NAME` lines of `tzdata.zi`, as link name → target.
    private func readLinks() throws(TimeZoneRulesError) -> [String: String] {
        let path = zoneinfo + "/tzdata.zi"
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path)
        } catch {
            if case .cannotRead(_, let reason) = error { throw .cannotRead(path: path, reason: reason) }
            throw .cannotRead(path: path, reason: "\(error)")
        }
        var links: [String: String] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first == UInt8(ascii: "L") {
            let fields = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
            guard fields.count == 3 else { continue }
            links[String(decoding: fields[2], as: UTF8.self)] = String(decoding: fields[1], as: UTF8.self)
        }
        return links
    }
}

/// One zone's rules as a TZif file's 64-bit section gives them.
struct ZoneRules: Hashable {
    /// A change of local time type at an instant.
    struct Transition: Hashable {
        /// Seconds since the epoch, UTC.
        var at: Int64
        /// The index into ``types`` of the time in effect from then on.
        var type: UInt8
    }

    var transitions: [Transition]
    var types: [LocalTimeType]
    /// The POSIX TZ string for instants after the last transition; empty when there is none.
    var footer: String

    /// Parses a TZif file of version 2 or later (RFC 8536), using its 64-bit data and footer.
    ///
    /// - Throws: ``TimeZoneRulesError/notTZif(path:reason:)`` for a version 1 file, a file with
    ///   leap seconds (a `right/` zone), a footer that is not a POSIX TZ string, or any count or
    ///   index that does not fit the file.
    init(tzif bytes: [UInt8], path: String) throws(TimeZoneRulesError) {
        func fail(_ reason: String) -> TimeZoneRulesError { .notTZif(path: path, reason: reason) }
        func header(at offset: Int) throws(TimeZoneRulesError) -> [Int] {
            guard offset + 44 <= bytes.count, Array(bytes[offset..<offset + 4]) == Array("TZif".utf8) else {
                throw fail("no TZif header")
            }
            return (0..<6).map { Int(ByteOrder.bigEndian.read(UInt32.self, bytes, at: offset + 20 + 4 * $0)) }
        }
        let first = try header(at: 0)
        guard bytes[4] >= UInt8(ascii: "2") else { throw fail("version 1 has no 64-bit data") }
        // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        let version1Size = first[3] * 5 + first[4] * 6 + first[5] + first[2] * 8 + first[1] + first[0]
        let start = 44 + version1Size
        let counts = try header(at: start)
        let (isUT, isStd, leaps, timeCount, typeCount, charCount) =
            (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
        guard leaps == 0 else { throw fail("it has leap seconds") }
        guard typeCount >= 1, typeCount <= 256 else { throw fail("\(typeCount) local time types") }
        var at = start + 44
        let size = timeCount * 9 + typeCount * 6 + charCount + isStd + isUT
        guard at + size < bytes.count else { throw fail("the data is cut short") }
        var transitions: [Transition] = []
        for index in 0..<timeCount {
            let instant = ByteOrder.bigEndian.read(Int64.self, bytes, at: at + 8 * index)
            let type = bytes[at + 8 * timeCount + index]
            guard Int(type) < typeCount else { throw fail("transition \(index) has type \(type)") }
            guard transitions.last.map({ $0.at < instant }) ?? true else { throw fail("transitions out of order") }
            transitions.append(Transition(at: instant, type: type))
        }
        at += 9 * timeCount
        let characters = Array(bytes[at + 6 * typeCount..<at + 6 * typeCount + charCount])
        var types: [LocalTimeType] = []
        for index in 0..<typeCount {
            let offset = Int(ByteOrder.bigEndian.read(Int32.self, bytes, at: at + 6 * index))
            let isDST = bytes[at + 6 * index + 4], nameIndex = Int(bytes[at + 6 * index + 5])
            guard isDST <= 1, nameIndex < charCount, let end = characters[nameIndex...].firstIndex(of: 0),
                end - nameIndex <= 255, (-89_999...93_599).contains(offset)
            else { throw fail("local time type \(index) is malformed") }
            let name = String(decoding: characters[nameIndex..<end], as: UTF8.self)
            types.append(LocalTimeType(utcOffset: offset, isDaylightSaving: isDST == 1, abbreviation: name))
        }
        at += size - 9 * timeCount
        // The footer: a newline, the TZ string, a newline.
        guard bytes[at] == UInt8(ascii: "\n"), let close = bytes[(at + 1)...].firstIndex(of: UInt8(ascii: "\n")),
            close - at - 1 <= 255
        else { throw fail("no footer") }
        footer = String(decoding: bytes[(at + 1)..<close], as: UTF8.self)
        guard footer.isEmpty || POSIXTimeZone(footer) != nil else { throw fail("footer '\(footer)'") }
        self.transitions = transitions
        self.types = types
    }

    init(transitions: [Transition], types: [LocalTimeType], footer: String) {
        self.transitions = transitions
        self.types = types
        self.footer = footer
    }
}

/// Interned strings, each a `UInt8` byte count and UTF-8 bytes; offset 0 is the empty string.
private struct ShortStringPool {
    var bytes: [UInt8] = [0]
    var offsets: [String: UInt32] = ["": 0]

    mutating func add(_ string: String) throws(TimeZoneRulesError) -> UInt32 {
        if let offset = offsets[string] { return offset }
        let utf8 = Array(string.utf8)
        guard utf8.count <= 255 else { throw .tooLarge("the string '\(string)'") }
        let offset = UInt32(truncatingIfNeeded: bytes.count)
        bytes.append(UInt8(utf8.count))
        bytes += utf8
        offsets[string] = offset
        return offset
    }
}
