/// The language a reader wants place names in: a BCP 47 language tag (`de`, `de-AT`, `zh-Hant`,
/// `sr-Latn`), read from any of the forms people and systems write it in (`de_AT.UTF-8`,
/// `sr_RS@latin`, `pt-br`).
///
/// **Fallbacks.** A name is looked for under each tag of ``fallbacks`` in turn, and the place's
/// GeoNames name is the last resort (see docs/places.md, "Names in the reader's language"):
/// the locale first (`de-AT`, and where the region implies a script, `zh-Hant-TW`), then the
/// language with its script (`zh-Hant`, and `zh-TW` for a bare `zh-Hant`, which GeoNames writes
/// so), Latin-American Spanish (`es-419`) for a Spanish of the Americas, then the language alone
/// (`de`; also for a script that is not the language's usual one: `sr-Latn` falls back to `sr`,
/// Cyrillic, which every Serbian reader reads, and `zh-Hant` to `zh`, which GeoNames writes mostly
/// in simplified characters), then the language's other code (`nb` and `no`, `fil` and `tl`).
public struct NameLanguage: Hashable, Sendable, CustomStringConvertible {
    /// The ISO 639 language code, in lower case (`de`).
    public let language: String
    /// The ISO 15924 script code, in title case (`Hant`), when the tag names one.
    public let script: String?
    /// The ISO 3166-1 region (`AT`) or UN M.49 area (`419`), when the tag names one.
    public let region: String?

    /// The language of a tag in any of the usual forms: BCP 47 (`de-AT`, `zh-Hant-TW`), a POSIX
    /// locale (`de_AT.UTF-8`, `sr_RS@latin`), in any case; `nil` for anything else, or for a
    /// locale that names no language (`C`, `POSIX`). Variants and extensions (`ca-valencia`,
    /// `de-DE-u-co-phonebk`) are read past, as no name source has them.
    public init?(_ text: String) {
        var rest = Substring(text)
        var modifierScript: String? = nil
        if let at = rest.firstIndex(of: "@") {
            switch rest[rest.index(after: at)...].lowercased() {
            case "latin": modifierScript = "Latn"
            case "cyrillic": modifierScript = "Cyrl"
            default: break  // @euro and the like say nothing of the language
            }
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        let subtags = rest.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(Self.isASCIILetter) else {
            return nil
        }
        var language = first.lowercased()
        language = Self.deprecatedCodes[language] ?? language
        var script: String? = nil
        var region: String? = nil
        for (index, subtag) in subtags.enumerated().dropFirst() {
            if subtag.count == 1 {  // an extension (`-u-…`, `-x-…`): the rest is its own
                guard index + 1 < subtags.count, subtag.allSatisfy(Self.isASCIILetter) else { return nil }
                break
            }
            if script == nil, region == nil, subtag.count == 4, subtag.allSatisfy(Self.isASCIILetter) {
                script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if region == nil, subtag.count == 2, subtag.allSatisfy(Self.isASCIILetter) {
                region = subtag.uppercased()
            } else if region == nil, subtag.count == 3, subtag.allSatisfy({ $0.isASCII && $0.isNumber }) {
                region = String(subtag)
            } else if (5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first?.isNumber == true),
                subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            {
                continue  // a variant
            } else {
                return nil
            }
        }
        self.language = language
        self.script = script ?? modifierScript
        self.region = region
    }

    /// The language of `--lang auto`: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set
    /// and not empty, as the C library chooses the language of messages. A locale that names no
    /// language (`C`, `POSIX`, `C.UTF-8`), or none set, is English (`en`), the language of the C
    /// locale's messages; so is one that cannot be read.
    public static func fromEnvironment(_ environment: [String: String]) -> NameLanguage {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return NameLanguage(value) ?? english
        }
        return english
    }

    /// English, `en`.
    public static let english = NameLanguage(language: "en", script: nil, region: nil)

    private init(language: String, script: String?, region: String?) {
        (self.language, self.script, self.region) = (language, script, region)
    }

    /// The tag in BCP 47's form: `de-AT`, `zh-Hant`, `sr-Latn`.
    public var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "-")
    }

    /// The tags a name is looked for under, in order (see the type's documentation); the GeoNames
    /// name comes after the last. `zh-TW` gives `zh-Hant-TW`, `zh-TW`, `zh-Hant`, `zh`.
    public var fallbacks: [String] {
        let impliedScript = script ?? Self.defaultScript(language, region: region)
        var tags: [String] = []
        func add(_ parts: String?...) {
            let tag = parts.compactMap { $0 }.joined(separator: "-")
            if !tags.contains(tag) { tags.append(tag) }
        }
        if let region {
            if let impliedScript { add(language, impliedScript, region) }
            add(language, region)
        }
        if let impliedScript {
            add(language, impliedScript)
            if region == nil, let usual = Self.scriptRegions[language + "-" + impliedScript] { add(language, usual) }
        }
        if language == "es", let region, Self.latinAmerica.contains(region) { add("es", "419") }
        add(language)
        for other in Self.sameLanguage[language] ?? [] { add(other) }
        return tags
    }

    /// The source spelling of a tag turned into BCP 47's (`pt_BR` → `pt-BR`, `zh_Hant_HK` →
    /// `zh-Hant-HK`, `sr@latin` → `sr-Latn`), keeping what ``init(_:)`` reads past (`be_TARASK`
    /// → `be-tarask`), so that a variant never stands for its language. For the import.
    package static func normalizedTag(_ text: String) -> String {
        var rest = text
        var suffix: [String] = []
        if let at = rest.firstIndex(of: "@") {
            switch rest[rest.index(after: at)...].lowercased() {
            case "latin": suffix = ["Latn"]
            case "cyrillic": suffix = ["Cyrl"]
            case let other: suffix = [other]
            }
            rest = String(rest[..<at])
        }
        let subtags = rest.split(whereSeparator: { $0 == "_" || $0 == "-" }).enumerated().map { index, subtag in
            if index == 0 { return subtag.lowercased() }
            if subtag.count == 4, subtag.allSatisfy(isASCIILetter) {
                return subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            }
            if subtag.count == 2 || subtag.allSatisfy({ $0.isNumber }) { return subtag.uppercased() }
            return subtag.lowercased()
        }
        return (subtags + suffix).joined(separator: "-")
    }

    private static func isASCIILetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }

    /// Codes ISO 639 replaced, as locales still spell them (`iw_IL`).
    private static let deprecatedCodes = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"]

    /// Codes the name sources use for the same language as another.
    private static let sameLanguage = ["nb": ["no"], "no": ["nb"], "fil": ["tl"], "tl": ["fil"]]

    /// The script a language is written in where the sources have names in more than one (CLDR's
    /// likely subtags): Chinese in Taiwan, Hong Kong and Macao is traditional, elsewhere simplified.
    private static func defaultScript(_ language: String, region: String?) -> String? {
        switch language {
        case "zh": ["TW", "HK", "MO"].contains(region ?? "") ? "Hant" : (region == nil ? nil : "Hans")
        case "sr": region == "ME" ? "Latn" : (region == nil ? nil : "Cyrl")
        default: nil
        }
    }

    /// Where GeoNames tags a script's names by the region that writes it (`zh_TW`).
    private static let scriptRegions = ["zh-Hant": "TW", "zh-Hans": "CN"]

    /// The regions whose Spanish is CLDR's Latin-American Spanish (`es_419`'s children).
    private static let latinAmerica: Set<String> = [
        "AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY",
        "SV", "US", "UY", "VE",
    ]
}
