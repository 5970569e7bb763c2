import ReverseGeocoding

/// The commands phototag has.
enum Command: String, CaseIterable {
    case locate
    case scan
    case geocode
    case placesImport = "places import"
    case placesInfo = "places info"
    case boundariesImport = "boundaries import"
    case boundariesInfo = "boundaries info"
    case completions
    case manpage

    var spec: CommandSpec {
        switch self {
        case .locate: Commands.locate
        case .scan: Commands.scan
        case .geocode: Commands.geocode
        case .placesImport: Commands.placesImport
        case .placesInfo: Commands.placesInfo
        case .boundariesImport: Commands.boundariesImport
        case .boundariesInfo: Commands.boundariesInfo
        case .completions: Commands.completions
        case .manpage: Commands.manpage
        }
    }
}

/// A command line, parsed and validated before any work is done.
enum Invocation: Equatable {
    /// `phototag --help`, `phototag help [COMMAND...]`, `phototag COMMAND --help`: the help of
    /// each command in turn, or the tool's when there is none.
    case help([Command])
    /// `phototag --version`, `phototag -V`.
    case version
    case locate(LocateOptions)
    case scan(ScanOptions)
    case geocode(GeocodeOptions)
    case placesImport(ImportOptions)
    /// `phototag places info [--places FILE]`.
    case placesInfo(places: String?)
    case boundariesImport(BoundariesImportOptions)
    /// `phototag boundaries info`.
    case boundariesInfo
    case completions(Shell)
    case manpage
}

extension Invocation {
    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        try parse(arguments.map(Argument.init))
    }

    /// Parses arguments given with their exact bytes.
    static func parse(_ arguments: [Argument]) throws(UsageError) -> Invocation {
        guard let first = arguments.first?.text else { return .help([]) }
        if first.hasPrefix("-") {
            // The tool's own options: --help [COMMAND...] (as help does), or --version alone.
            let option = try Commands.toolOptions.matching(first, command: nil)
            if option == CommandSpec.help { return .help(try helpTopics(arguments.dropFirst().map(\.text))) }
            guard arguments.count == 1 else { throw UsageError(message: "unexpected argument '\(arguments[1].text)'") }
            return .version
        }
        if first == "help" { return .help(try helpTopics(arguments.dropFirst().map(\.text))) }
        var words = 1
        var name = first
        if let group = commandGroups[first] {
            let next = arguments.count > 1 ? arguments[1].text : ""
            if next.hasPrefix("-"), (try? [CommandSpec.help].matching(next, command: nil)) == CommandSpec.help {
                return .help(group)  // phototag places --help
            }
            guard !next.isEmpty, !next.hasPrefix("-") else {
                throw UsageError(message: "'\(first)' needs a subcommand: import or info")
            }
            name = "\(first) \(arguments[1].text)"
            words = 2
        }
        guard let command = Command(rawValue: name) else { throw unknownCommand(name) }
        let parsed = try command.spec.parse(Array(arguments.dropFirst(words)), command: command)
        if parsed.has("--help") { return .help([command]) }
        // Option values are checked before the number of arguments, so that a bad value is
        // named even when it took the place of the only argument (locate --format photo.jpg).
        let invocation = try invocation(command, parsed)
        try command.spec.checkArgumentCount(parsed, command: command)
        return invocation
    }

    /// The commands `places` groups: `phototag help places` explains both.
    static let placesCommands: [Command] = [.placesImport, .placesInfo]

    /// The words that group two subcommands, and the commands they group.
    static let commandGroups: [String: [Command]] = [
        "places": placesCommands, "boundaries": [.boundariesImport, .boundariesInfo],
    ]

    /// The commands `phototag help WORD...` explains, in the order named: each word is a
    /// command, `places` alone stands for both of its subcommands, and `help` (or nothing) for the
    /// tool itself.
    ///
    /// - Throws: ``UsageError`` naming the first word that is not a command.
    private static func helpTopics(_ words: [String]) throws(UsageError) -> [Command] {
        var commands: [Command] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "help" { continue }
            if let group = commandGroups[word] {
                if index < words.count, let command = Command(rawValue: "\(word) \(words[index])") {
                    commands.append(command)
                    index += 1
                } else {
                    commands += group
                }
                continue
            }
            guard let command = Command(rawValue: word) else { throw unknownCommand(word) }
            commands.append(command)
        }
        return commands
    }

    /// The settings of `command`, read from its parsed arguments.
    private static func invocation(_ command: Command, _ parsed: ParsedArguments) throws(UsageError) -> Invocation {
        let reader = OptionReader(parsed: parsed, command: command)
        switch command {
        case .locate:
            let output = try reader.output()
            let selection = try reader.selection(format: output.format)
            let standardInput = parsed.positionals.filter { $0.bytes == [UInt8(ascii: "-")] }.count
            if standardInput > 1 { throw reader.error("'-' (standard input) can be given only once") }
            if standardInput == 1, selection.listIsStandardInput {
                throw reader.error("'-' and '--files-from -' both read standard input; give one of them")
            }
            let place = try reader.place()
            try reader.requirePaths(selection)
            return .locate(LocateOptions(files: parsed.positionals, output: output, place: place, selection: selection))
        case .scan:
            let output = try reader.output()
            var options = ScanOptions(
                paths: parsed.positionals, output: output, place: try reader.place(),
                selection: try reader.selection(format: output.format))
            options.exclude = parsed.values["--exclude"] ?? []
            options.maxDepth = try reader.count("--max-depth", minimum: 0)
            options.noFollow = parsed.has("--no-follow")
            options.allFiles = parsed.has("--all-files")
            options.hidden = parsed.has("--hidden")
            options.sort = parsed.has("--sort")
            switch (parsed.has("--with-gps"), parsed.has("--without-gps")) {
            case (true, true): throw reader.error("'--with-gps' and '--without-gps' exclude each other")
            case (true, false): options.gpsFilter = .withGPS
            case (false, true): options.gpsFilter = .withoutGPS
            case (false, false): break
            }
            switch (parsed.last("--near"), parsed.last("--within")) {
            case (let point?, let radius?):
                options.near = try reader.coordinate(point, option: "--near")
                options.within = try reader.distance(radius, option: "--within")
            case (_?, nil): throw reader.error("'--near' needs '--within KM'")
            case (nil, _?): throw reader.error("'--within' needs '--near LAT,LON'")
            case (nil, nil): break
            }
            try reader.requirePaths(options.selection)
            return .scan(options)
        case .geocode:
            let output = try reader.output()
            var options = GeocodeOptions(
                coordinates: try reader.coordinateArguments(parsed.positionals), output: output,
                place: try reader.place())
            options.allRecords = parsed.has("--all-records")
            if options.allRecords, output.format != .geojson {
                throw reader.error("'--all-records' is for --format geojson (other formats always keep every record)")
            }
            return .geocode(options)
        case .placesImport:
            guard let directory = parsed.last("--from") else { throw reader.error("option '--from' is required") }
            guard let output = parsed.last("--output") else { throw reader.error("option '--output' is required") }
            var options = ImportOptions(directory: directory, output: output)
            options.citiesFile = parsed.last("--cities")
            options.minimumPopulation = try reader.count("--min-population", minimum: 0) ?? 0
            if let date = parsed.last("--date") {
                guard isISODate(date) else {
                    throw reader.error("option '--date' needs a date like 2026-07-28, not '\(date)'")
                }
                options.date = date
            }
            options.allFeatures = parsed.has("--all-features")
            return .placesImport(options)
        case .placesInfo:
            return .placesInfo(places: parsed.last("--places"))
        case .boundariesImport:
            guard let directory = parsed.last("--from") else { throw reader.error("option '--from' is required") }
            guard let output = parsed.last("--output") else { throw reader.error("option '--output' is required") }
            var options = BoundariesImportOptions(directory: directory, output: output)
            options.tzdata = parsed.last("--tzdata")
            if let date = parsed.last("--date") {
                guard isISODate(date) else {
                    throw reader.error("option '--date' needs a date like 2026-07-28, not '\(date)'")
                }
                options.date = date
            }
            return .boundariesImport(options)
        case .boundariesInfo:
            return .boundariesInfo
        case .completions:
            try command.spec.checkArgumentCount(parsed, command: command)
            let name = parsed.positionals[0].text
            guard let shell = Shell(rawValue: name) else {
                throw reader.error("unknown shell '\(name)' (choose from bash, zsh, fish)")
            }
            return .completions(shell)
        case .manpage:
            return .manpage
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let suggestion = closest(to: name, among: Command.allCases.map(\.rawValue) + ["help"]) {
            message += "; did you mean '\(suggestion)'?"
        }
        return UsageError(message: message)
    }

    /// Whether `text` is a real calendar date written `YYYY-MM-DD` (proleptic Gregorian, so
    /// 2024-02-29 is one and 2026-02-29 or 2026-13-45 are not).
    static func isISODate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) })
        else { return false }
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}

/// Turns option values into validated settings, with one message style for every bad value.
struct OptionReader {
    let parsed: ParsedArguments
    let command: Command

    func error(_ message: String) -> UsageError { UsageError(message: message, command: command) }

    func output() throws(UsageError) -> OutputOptions {
        var options = OutputOptions()
        if parsed.has("--json") { options.format = .json }
        if let value = parsed.last("--format") {
            guard let format = OutputFormat(rawValue: value) else {
                let choices = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("unknown format '\(value)' (choose from \(choices))")
            }
            if parsed.has("--json"), format != .json { throw error("'--json' and '--format \(value)' disagree") }
            options.format = format
        }
        options.quiet = parsed.has("--quiet")
        options.summaryFile = parsed.last("--summary-file")
        options.summary = parsed.has("--summary") || options.summaryFile != nil
        if let value = parsed.last("--coordinates") {
            guard let style = CoordinateStyle(rawValue: value) else {
                let choices = CoordinateStyle.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("unknown coordinate style '\(value)' (choose from \(choices))")
            }
            options.coordinates = style
        }
        // The later of --progress and --no-progress wins; the parser keeps them apart, so
        // look at the order they were given in.
        if let order = parsed.order.last(where: { $0 == "--progress" || $0 == "--no-progress" }) {
            options.progress = order == "--progress"
        }
        return options
    }

    /// The file-selection options of `locate` and `scan`. Without `--files-from`, at least one
    /// path argument is needed.
    func selection(format: OutputFormat) throws(UsageError) -> SelectionOptions {
        var options = SelectionOptions()
        if let list = parsed.last("--files-from") {
            guard !list.isEmpty else { throw error("option '--files-from' needs a file name or '-'") }
            options.filesFrom = Argument(list)
        }
        options.nullSeparated = parsed.has("--null")
        if options.nullSeparated, options.filesFrom == nil { throw error("'--null' needs '--files-from'") }
        options.jobs = try count("--jobs", minimum: 1, maximum: 1024)
        options.allRecords = parsed.has("--all-records")
        options.preferSidecar = parsed.has("--prefer-sidecar")
        if options.allRecords, format != .geojson {
            throw error("'--all-records' is for --format geojson (other formats always keep every record)")
        }
        return options
    }

    /// Checks, after every option value, that there is something to read: paths given as
    /// arguments or a `--files-from` list (so a bad value is named before a missing path).
    func requirePaths(_ selection: SelectionOptions) throws(UsageError) {
        if selection.filesFrom == nil, parsed.positionals.isEmpty {
            throw error(command.spec.missingArgumentsMessage)
        }
    }

    func place() throws(UsageError) -> PlaceOptions {
        var options = PlaceOptions()
        options.places = parsed.last("--places")
        options.nearest = try count("--nearest", minimum: 1, maximum: 1000)
        if let value = parsed.last("--max-distance") {
            options.filter.maximumDistanceKm = try distance(value, option: "--max-distance")
        }
        options.filter.minimumPopulation = try count("--min-population", minimum: 0) ?? 0
        options.skip = parsed.has("--no-place")
        if options.skip {
            for option in ["--places", "--nearest", "--max-distance", "--min-population"] where parsed.has(option) {
                throw error("'--no-place' and '\(option)' exclude each other")
            }
        }
        return options
    }

    func count(_ option: String, minimum: Int, maximum: Int = Int.max) throws(UsageError) -> Int? {
        guard let value = parsed.last(option) else { return nil }
        guard let number = Int(value), number >= minimum, number <= maximum else {
            let range = maximum == Int.max ? "\(minimum) or more" : "from \(minimum) to \(maximum)"
            throw error("option '\(option)' needs a whole number \(range), not '\(value)'")
        }
        return number
    }

    func distance(_ value: String, option: String) throws(UsageError) -> Double {
        guard let number = parseDecimal(value), number >= 0, number.isFinite else {
            throw error("option '\(option)' needs a distance in km (0 or more), not '\(value)'")
        }
        return number
    }

    /// `geocode`'s arguments, refusing a latitude and a longitude given as two arguments
    /// (`geocode 48.8 2.3`), which would otherwise be two error records.
    func coordinateArguments(_ arguments: [Argument]) throws(UsageError) -> [Argument] {
        for (first, second) in zip(arguments, arguments.dropFirst())
        where parseDecimal(first.text) != nil && parseDecimal(second.text) != nil {
            throw error(
                "'\(first.text)' and '\(second.text)' are two arguments; did you mean '\(first.text),\(second.text)'?")
        }
        return arguments
    }

    func coordinate(_ value: String, option: String) throws(UsageError) -> Coordinate {
        switch parseCoordinate(Array(value.utf8)[...]) {
        case .success(let coordinate): return coordinate
        case .failure(let reason): throw error("option '\(option)' needs LAT,LON: \(reason)")
        }
    }
}
