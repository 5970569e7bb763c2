import PhotoTagSupport

/// What `--warnings` does with the warnings of records and the notes of a scan's walk.
enum WarningMode: String, CaseIterable, Sendable {
    /// Each one on stderr as it comes (text shows a record's warnings there; the other formats
    /// have them in the record).
    case all
    /// None as they come; at the end, one line per kind with its count and its first file.
    case summary
    /// None at all (errors are still reported).
    case none
}

/// `--warnings summary`: the warnings counted by kind, for one line per kind at the end.
///
/// A warning's kind is its text with what varies from file to file taken out: quoted text
/// becomes `'…'`, numbers `N`, and a duration (`3 h 2 min 1 s`) one `N`. So `GPSLatitude
/// seconds has a zero denominator` is one kind, and the hundreds of `the GPS time is 2 h ahead
/// of DateTimeOriginal …` and `… 1 d 3 s ahead …` another.
struct WarningTally {
    private var kinds: [String: (count: Int, first: String)] = [:]
    /// Every warning counted, and the files they came from.
    private(set) var total = 0
    private(set) var files = 0

    var isEmpty: Bool { total == 0 }

    /// Counts the warnings of one file (`file` as it is shown).
    mutating func add(_ warnings: [String], file: String) {
        guard !warnings.isEmpty else { return }
        files += 1
        for warning in warnings {
            total += 1
            let kind = Self.kind(of: warning)
            if let known = kinds[kind] {
                kinds[kind] = (known.count + 1, known.first)
            } else {
                kinds[kind] = (1, file)
            }
        }
    }

    /// The lines for stderr, with their newlines: a heading, then each kind, commonest first (ties
    /// by kind), with its count and the first file that had it.
    func lines() -> String {
        guard total > 0 else { return "" }
        let sorted = kinds.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
        }
        let width = grouped(sorted[0].value.count).count
        var text =
            "phototag: \(grouped(total)) \(total == 1 ? "warning" : "warnings") in \(grouped(files)) "
            + "\(files == 1 ? "file" : "files"), by kind:\n"
        for (kind, entry) in sorted {
            let count = grouped(entry.count)
            text +=
                "phototag: \(String(repeating: " ", count: width - count.count))\(count)  \(escapingControls(kind))"
                + " (first: \(entry.first))\n"
        }
        return text
    }

    /// The kind of a warning (see ``WarningTally``).
    static func kind(of warning: String) -> String {
        // Quoted text first, then numbers; the words stay.
        var words: [String] = []
        var quote: Character? = nil
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            words.append(numbersReplaced(word))
            word = ""
        }
        for character in warning {
            if let open = quote {
                if character == open {
                    quote = nil
                    word += "'…'"
                }
                continue
            }
            // An opening quote, not an apostrophe (`file's`).
            if character == "'" || character == "\"", !(word.last?.isLetter ?? false) {
                quote = character
                continue
            }
            if character == " " {
                flush()
            } else {
                word.append(character)
            }
        }
        if quote != nil { word += "'…" }
        flush()
        // A duration (`3 h 2 min 1 s`, `1 d 3 s`) is one value.
        let units: Set<String> = ["d", "h", "min", "s", "ms"]
        var kind: [String] = []
        var index = 0
        while index < words.count {
            if words[index] == "N", index + 1 < words.count, units.contains(words[index + 1]) {
                while index + 1 < words.count, words[index] == "N", units.contains(words[index + 1]) { index += 2 }
                kind.append("N")
                continue
            }
            kind.append(words[index])
            index += 1
        }
        return kind.joined(separator: " ")
    }

    /// `word` with each number (digits, with a sign before them and a decimal point or thousands
    /// separator between them) made `N`: `-91.5°` is `N°`, `0xFF` `NxFF`, `12,` `N,`.
    private static func numbersReplaced(_ word: String) -> String {
        let characters = Array(word)
        var result = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let startsNumber =
                character.isASCIIDigit
                || (character == "-" && index + 1 < characters.count && characters[index + 1].isASCIIDigit)
            guard startsNumber else {
                result.append(character)
                index += 1
                continue
            }
            index += 1
            while index < characters.count {
                if characters[index].isASCIIDigit {
                    index += 1
                } else if characters[index] == "." || characters[index] == ",", index + 1 < characters.count,
                    characters[index + 1].isASCIIDigit
                {
                    index += 2
                } else {
                    break
                }
            }
            result += "N"
        }
        return result
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
