/// The binary time-zone rules format shared by ``TimeZoneRulesBuilder`` (which writes it from
/// compiled tzdata) and ``TimeZoneRules`` (which reads it in place).
///
/// Each zone keeps what its TZif file (RFC 8536) says in its 64-bit section: every transition,
/// every local time type and the POSIX TZ string for instants after the last transition. Nothing
/// is dropped, so the answers are those of the TZif files at every instant. Zones whose rules are
/// identical (links such as `Asia/Calcutta` → `Asia/Kolkata`, and zones that share their whole
/// history) share one rule set.
///
/// Layout (little-endian, no alignment: every field is read with unaligned loads, so the blob
/// can sit anywhere inside a larger table):
///
/// | bytes | content |
/// |---|---|
/// | 32 | header: magic `PTGTZRUL`, then `UInt32`s: version, zone-name count N, rule-set count R, transition count T, type count Y, string-pool size S |
/// | 8 N | zone names, sorted by their UTF-8 bytes: string offset of the name, rule-set index (`UInt32` each) |
/// | 20 R | rule sets: first transition, transition count, first type, type count, string offset of the POSIX TZ string (`UInt32` each; the empty string when the file has none) |
/// | 8 T | transition instants (`Int64` seconds since 1970-01-01T00:00:00Z), ascending within a rule set |
/// | T | for each transition, the index (`UInt8`) within its rule set's types of the time in effect from that instant |
/// | 8 Y | local time types: UTC offset (`Int32` seconds, east positive), string offset of the abbreviation (`UInt16`), daylight saving (`UInt8`, 0 or 1), 0 |
/// | S | string pool: each string is a `UInt8` byte count and UTF-8 bytes; offset 0 is the empty string |
///
/// Before a rule set's first transition its type 0 applies (RFC 8536 §3.2); from its last
/// transition on, its POSIX TZ string does, or the last transition's type when there is none.
enum TimeZoneRulesLayout {
    static let magic: [UInt8] = Array("PTGTZRUL".utf8)
    static let version: UInt32 = 1
    static let headerSize = 32
    static let nameStride = 8
    static let ruleSetStride = 20
    static let typeStride = 8

    /// Where each section starts, from the header's counts.
    struct Sections: Equatable {
        let names: Int
        let ruleSets: Int
        let transitionTimes: Int
        let transitionTypes: Int
        let types: Int
        let strings: Int
        let totalSize: Int

        init(names n: Int, ruleSets r: Int, transitions t: Int, types y: Int, stringsSize s: Int) {
            names = TimeZoneRulesLayout.headerSize
            ruleSets = names + TimeZoneRulesLayout.nameStride * n
            transitionTimes = ruleSets + TimeZoneRulesLayout.ruleSetStride * r
            transitionTypes = transitionTimes + 8 * t
            types = transitionTypes + t
            strings = types + TimeZoneRulesLayout.typeStride * y
            totalSize = strings + s
        }
    }
}

/// Why time-zone rules could not be built or opened.
///
/// Every case prints as one lowercase line without a final period.
public enum TimeZoneRulesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file could not be opened or read; `errno`'s text is included.
    case cannotRead(path: String, reason: String)
    /// A zoneinfo file is not a TZif file phototag can use.
    case notTZif(path: String, reason: String)
    /// The zone is neither a file of the zoneinfo folder nor a link in its `tzdata.zi`.
    case unknownZone(String)
    /// The bytes are not phototag time-zone rules (wrong magic, version or size, or inconsistent).
    case notTimeZoneRules(String)
    /// The rules would exceed the format's limits.
    case tooLarge(String)

    /// The error as one line, without a final period.
    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .notTZif(let path, let reason): "\(path) is not a usable TZif file (\(reason))"
        case .unknownZone(let name): "unknown time zone '\(name)'"
        case .notTimeZoneRules(let reason): "not phototag time-zone rules (\(reason))"
        case .tooLarge(let what): "the time-zone rules are too large: \(what)"
        }
    }
}
