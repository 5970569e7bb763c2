/// A command line, parsed and validated before any work is done.
enum Invocation: Equatable {
    /// `phototag --help`, `phototag help [COMMAND]`, `phototag COMMAND --help`.
    case help(Command?)
    /// `phototag --version`.
    case version
    /// `phototag locate [--format F] FILE...`.
    case locate(files: [String], format: OutputFormat)

    /// The commands phototag has.
    enum Command: String, CaseIterable {
        case locate
    }
}

/// How records are printed.
enum OutputFormat: String, CaseIterable {
    case text, json
}

/// A command line that cannot be run; printed with the usage line, exit status 64.
struct UsageError: Error, Equatable {
    var message: String
    /// The command whose usage to show, if known.
    var command: Invocation.Command?
}

extension Invocation {
    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(nil) }
        switch first {
        case "--help", "-h": return .help(nil)
        case "--version": return .version
        case "help":
            guard arguments.count <= 2 else { throw UsageError(message: "'help' takes at most one command") }
            guard let name = arguments.dropFirst().first else { return .help(nil) }
            guard let command = Command(rawValue: name) else { throw unknownCommand(name) }
            return .help(command)
        default:
            guard let command = Command(rawValue: first) else {
                if first.hasPrefix("-") { throw UsageError(message: "unknown option '\(first)'") }
                throw unknownCommand(first)
            }
            return try parseLocate(Array(arguments.dropFirst()), command: command)
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        UsageError(message: "unknown command '\(name)'")
    }

    private static func parseLocate(_ arguments: [String], command: Command) throws(UsageError) -> Invocation {
        var files: [String] = []
        var format = OutputFormat.text
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                files.append(argument)
                continue
            }
            let (name, inlineValue) = splitOption(argument)
            switch name {
            case "--":
                optionsEnded = true
            case "--help", "-h":
                return .help(command)
            case "--format":
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "option '--format' needs a value", command: command)
                    }
                    value = arguments[index]
                    index += 1
                }
                guard let parsed = OutputFormat(rawValue: value) else {
                    let choices = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(message: "unknown format '\(value)' (choose from \(choices))", command: command)
                }
                format = parsed
            case "--json":
                format = .json
            default:
                throw UsageError(message: "unknown option '\(name)'", command: command)
            }
        }
        guard !files.isEmpty else { throw UsageError(message: "no files given", command: command) }
        return .locate(files: files, format: format)
    }

    /// Splits `--name=value` into its parts; other arguments come back whole.
    private static func splitOption(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
