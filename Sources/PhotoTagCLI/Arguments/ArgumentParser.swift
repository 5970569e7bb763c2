/// One option a command accepts.
struct OptionSpec: Equatable {
    /// The long name, with its dashes: `--format`.
    var name: String
    /// A one-letter alias, with its dash: `-q`.
    var short: String? = nil
    /// The value's placeholder (`<format>`); `nil` for a flag.
    var value: String? = nil
    /// One line of help.
    var help: String
    /// The values it takes, when they are a fixed list (checked by the command, offered by the
    /// completions).
    var choices: [String]? = nil
}

/// A command's shape: its options and positional arguments, from which both parsing and help
/// are derived (so the two cannot drift apart).
struct CommandSpec {
    /// The words that name it: `locate`, `places import`.
    var name: String
    /// One line saying what it does.
    var summary: String
    /// The positional arguments as shown in the usage line: `<file>...`.
    var arguments: String
    /// How many positional arguments it needs at least, and what to say when they are missing.
    var minimumArguments = 0
    var missingArgumentsMessage = ""
    /// At most this many positional arguments.
    var maximumArguments = Int.max
    var options: [OptionSpec]
    /// Paragraphs after the option list (examples, exit statuses).
    var epilogue: String = ""

    var usage: String {
        let optionPart = options.contains { $0 != Options.help } ? " [options]" : ""
        return "phototag \(name)\(optionPart)\(arguments.isEmpty ? "" : " " + arguments)"
    }
}

/// One command-line argument: its text for parsing, and its exact bytes, because a file name
/// on Linux need not be valid UTF-8 and must still be opened as given.
struct Argument: Equatable, Sendable {
    var text: String
    var bytes: [UInt8]

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        text = String(decoding: bytes, as: UTF8.self)
    }
}

/// The result of parsing a command's arguments: the values of its options and its positional
/// arguments.
///
/// Options are looked up by their ``OptionSpec`` constants (``Options``), never by a name written
/// as a string. Asking for an option that the command does not accept is a programming error
/// and traps, so it cannot silently read as "not given".
struct ParsedArguments {
    /// The options the command accepts.
    let accepted: [OptionSpec]
    /// The positional arguments, in order.
    var positionals: [Argument] = []
    /// The values given, by long name (a flag has one empty value each time it is given).
    private var values: [String: [String]] = [:]
    /// The options in the order they were given (for flags where the last one wins).
    private var order: [OptionSpec] = []

    /// An empty result for a command that accepts `accepted`.
    init(accepting accepted: [OptionSpec]) { self.accepted = accepted }

    /// Records that `option` was given, with `value` (empty for a flag).
    mutating func add(_ option: OptionSpec, value: String = "") {
        order.append(option)
        values[option.name, default: []].append(value)
    }

    /// Whether `option` was given.
    func has(_ option: OptionSpec) -> Bool { all(option) != nil }

    /// The last value given for `option` (a repeated option overrides).
    func last(_ option: OptionSpec) -> String? { all(option)?.last }

    /// Every value given for `option`, in order; `nil` when it was not given.
    func all(_ option: OptionSpec) -> [String]? {
        precondition(accepted.contains(option), "\(option.name) is not an option of this command")
        return values[option.name]
    }

    /// Which of `options` was given last, if any.
    func lastGiven(of options: [OptionSpec]) -> OptionSpec? {
        for option in options {
            precondition(accepted.contains(option), "\(option.name) is not an option of this command")
        }
        return order.last { options.contains($0) }
    }
}

/// A command line that cannot be run; printed with the usage line, exit status 64.
struct UsageError: Error, Equatable {
    var message: String
    /// The command whose usage to show; `nil` for the tool's.
    var command: Command?
}

extension CommandSpec {
    /// Parses arguments: `--name value`, `--name=value`, `-x value`, flags, `--` ending options,
    /// and `-` as a positional argument.
    ///
    /// Long options may be shortened to any unambiguous prefix. The number of positional
    /// arguments is checked apart, by ``checkArgumentCount(_:command:)``.
    ///
    /// - Throws: ``UsageError`` for an unknown or ambiguous option, a missing value, or a value
    ///   given to a flag.
    /// - Parameter command: the command whose usage a ``UsageError`` shows; `nil` for the tool's
    ///   (as `help`'s errors show).
    func parse(_ rawArguments: [Argument], command: Command?) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(accepting: options)
        let arguments = rawArguments.map(\.text)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // A digit option (`-0`) is an option, not a negative number.
            let isShortOption = options.contains { $0.short == argument }
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-", !isNegativeNumber(argument) || isShortOption
            else {
                parsed.positionals.append(rawArguments[index - 1])
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            // Short flags given together (`-q0`), as getopt takes them: each letter a flag of its own.
            if let flags = combinedShortFlags(argument) {
                for flag in flags { parsed.add(flag) }
                continue
            }
            let option = try options.matching(name, command: command)
            if option.value == nil {
                guard inline == nil else {
                    throw UsageError(message: "option '\(option.name)' takes no value", command: command)
                }
                parsed.add(option)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: "option '\(option.name)' needs a value", command: command)
                }
                value = arguments[index]
                index += 1
            }
            parsed.add(option, value: value)
        }
        return parsed
    }

    /// The flags of `-abc` when every letter is the short name of a flag that takes no value;
    /// `nil` for anything else (a single option, a long one, an unknown letter).
    private func combinedShortFlags(_ argument: String) -> [OptionSpec]? {
        guard !argument.hasPrefix("--"), argument.count > 2, !options.contains(where: { $0.short == argument })
        else { return nil }
        var flags: [OptionSpec] = []
        for letter in argument.dropFirst() {
            guard let flag = options.first(where: { $0.short == "-\(letter)" }), flag.value == nil else { return nil }
            flags.append(flag)
        }
        return flags
    }

    /// Checks the number of positional arguments. Called after the option values are checked, so
    /// that `locate --format photo.jpg` complains about the format, not about missing files.
    ///
    /// - Throws: ``UsageError`` for too few or too many positional arguments.
    func checkArgumentCount(_ parsed: ParsedArguments, command: Command) throws(UsageError) {
        guard parsed.positionals.count >= minimumArguments else {
            throw UsageError(message: missingArgumentsMessage, command: command)
        }
        guard parsed.positionals.count <= maximumArguments else {
            throw UsageError(
                message: "unexpected argument '\(parsed.positionals[maximumArguments].text)'", command: command)
        }
    }
}

extension [OptionSpec] {
    /// The option `name` stands for: a short or long name given in full, or, as GNU
    /// `getopt_long` allows, an unambiguous prefix of a long name (`--form` for `--format`).
    /// A name given in full always wins over longer names it is a prefix of.
    ///
    /// - Parameter command: the command whose usage a ``UsageError`` shows; `nil` for the tool's.
    /// - Throws: ``UsageError`` for an unknown option (naming the closest valid one) or an
    ///   ambiguous prefix (naming every candidate).
    func matching(_ name: String, command: Command?) throws(UsageError) -> OptionSpec {
        if let exact = first(where: { $0.name == name || $0.short == name }) { return exact }
        if name.hasPrefix("--"), name.count > 2 {
            let candidates = filter { $0.name.hasPrefix(name) }
            if candidates.count == 1 { return candidates[0] }
            if candidates.count > 1 {
                let names = candidates.map { "'\($0.name)'" }.joined(separator: ", ")
                throw UsageError(message: "ambiguous option '\(name)' (could be \(names))", command: command)
            }
        }
        var message = "unknown option '\(name)'"
        if let habit = exiftoolHabits[name.lowercased()] {
            message += "; " + habit(command)
        } else if let suggestion = closest(to: name, among: map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        }
        throw UsageError(message: message, command: command)
    }
}

/// What ExifTool's users type out of habit, and what phototag calls it: the hint of an unknown
/// option, given the command it was given to.
let exiftoolHabits: [String: @Sendable (Command?) -> String] = [
    "-json": { _ in "did you mean '--json'? (ExifTool's -json)" },
    "-j": { _ in "did you mean '--json'? (ExifTool's -j)" },
    "-csv": { _ in "did you mean '--format csv'? (ExifTool's -csv)" },
    "-r": recursionHint, "-recurse": recursionHint,
    "-n": { _ in "coordinates are already signed decimal degrees (ExifTool's -n)" },
]

/// ExifTool's `-r`: `scan` walks folders, always recursively.
@Sendable private func recursionHint(_ command: Command?) -> String {
    command == .scan
        ? "scan walks folders recursively already (ExifTool's -r); --max-depth N limits it"
        : "to read the photos under a folder, recursively, run: phototag scan FOLDER (ExifTool's -r)"
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo.
func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= max(2, $0.0.count / 3) }
    return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
}

/// The Levenshtein distance between two strings, by Unicode scalar.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Whether an argument is a number such as `-33.86,151.2` (a coordinate), not an option.
func isNegativeNumber(_ argument: String) -> Bool {
    let bytes = Array(argument.utf8)
    return bytes.count > 1 && bytes[0] == UInt8(ascii: "-") && (0x30...0x39).contains(bytes[1])
}
