/// The commands phototag has.
enum Command: String, CaseIterable {
    case locate
    case placesImport = "places import"
    case placesInfo = "places info"

    var spec: CommandSpec {
        switch self {
        case .locate: Commands.locate
        case .placesImport: Commands.placesImport
        case .placesInfo: Commands.placesInfo
        }
    }
}

/// How records are printed.
enum OutputFormat: String, CaseIterable {
    case text, json
}

/// `phototag locate`'s settings.
struct LocateOptions: Equatable {
    var files: [String]
    var format = OutputFormat.text
    /// A place table file instead of the bundled one.
    var places: String? = nil
}

/// `phototag places import`'s settings.
struct ImportOptions: Equatable {
    var directory: String
    var output: String
    var citiesFile: String? = nil
    var minimumPopulation = 0
    var date: String? = nil
    var allFeatures = false
}

/// A command line, parsed and validated before any work is done.
enum Invocation: Equatable {
    /// `phototag --help`, `phototag help [COMMAND]`, `phototag COMMAND --help`.
    case help(Command?)
    /// `phototag --version`.
    case version
    case locate(LocateOptions)
    case placesImport(ImportOptions)
    /// `phototag places info [--places FILE]`.
    case placesInfo(places: String?)
}

extension Invocation {
    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(nil) }
        switch first {
        case "--help", "-h": return .help(nil)
        case "--version": return .version
        case "help":
            let topic = arguments.dropFirst().joined(separator: " ")
            guard !topic.isEmpty else { return .help(nil) }
            guard let command = Command(rawValue: topic) else {
                if topic == "places" { return .help(.placesImport) }
                throw unknownCommand(topic)
            }
            return .help(command)
        default:
            break
        }
        var words = 1
        var name = first
        if first == "places" {
            guard arguments.count > 1, !arguments[1].hasPrefix("-") else {
                throw UsageError(message: "'places' needs a subcommand: import or info")
            }
            name = "places \(arguments[1])"
            words = 2
        }
        guard let command = Command(rawValue: name) else {
            if first.hasPrefix("-") {
                var message = "unknown option '\(first)'"
                if let suggestion = closest(to: first, among: ["--help", "--version"]) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message)
            }
            throw unknownCommand(name)
        }
        let parsed = try command.spec.parse(Array(arguments.dropFirst(words)), command: command)
        if parsed.has("--help") { return .help(command) }
        switch command {
        case .locate:
            var options = LocateOptions(files: parsed.positionals)
            options.format = try format(parsed, command: command)
            options.places = parsed.last("--places")
            return .locate(options)
        case .placesImport:
            guard let directory = parsed.last("--from") else {
                throw UsageError(message: "option '--from' is required", command: command)
            }
            guard let output = parsed.last("--output") else {
                throw UsageError(message: "option '--output' is required", command: command)
            }
            var options = ImportOptions(directory: directory, output: output)
            options.citiesFile = parsed.last("--cities")
            options.minimumPopulation = try integer(parsed, "--min-population", command: command) ?? 0
            if let date = parsed.last("--date") {
                guard isISODate(date) else {
                    throw UsageError(
                        message: "option '--date' needs a date like 2026-07-28, not '\(date)'", command: command)
                }
                options.date = date
            }
            options.allFeatures = parsed.has("--all-features")
            return .placesImport(options)
        case .placesInfo:
            return .placesInfo(places: parsed.last("--places"))
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let suggestion = closest(to: name, among: Command.allCases.map(\.rawValue) + ["help"]) {
            message += "; did you mean '\(suggestion)'?"
        }
        return UsageError(message: message)
    }

    private static func format(_ parsed: ParsedArguments, command: Command) throws(UsageError) -> OutputFormat {
        if parsed.has("--json") { return .json }
        guard let value = parsed.last("--format") else { return .text }
        guard let format = OutputFormat(rawValue: value) else {
            let choices = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "unknown format '\(value)' (choose from \(choices))", command: command)
        }
        return format
    }

    private static func integer(_ parsed: ParsedArguments, _ name: String, command: Command) throws(UsageError) -> Int?
    {
        guard let value = parsed.last(name) else { return nil }
        guard let number = Int(value), number >= 0 else {
            throw UsageError(
                message: "option '\(name)' needs a whole number of 0 or more, not '\(value)'", command: command)
        }
        return number
    }

    private static func isISODate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }
    }
}
