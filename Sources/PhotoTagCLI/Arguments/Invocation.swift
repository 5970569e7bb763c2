import PhotoTagSupport
import ReverseGeocoding

/// The commands phototag has.
enum Command: String, CaseIterable {
    case locate
    case scan
    case tag
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
        case .tag: Commands.tag
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
    /// `phototag help --help`: the help of `help` itself.
    case helpOfHelp
    /// `phototag --version`, `phototag -V`.
    case version
    case locate(LocateOptions)
    case scan(ScanOptions)
    /// `phototag tag`: a scan that writes sidecars (``ScanOptions/tag``).
    case tag(ScanOptions)
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
            if option == Options.help { return try help(arguments.dropFirst()) }
            guard arguments.count == 1 else { throw UsageError(message: "unexpected argument '\(arguments[1].text)'") }
            return .version
        }
        if first == "help" { return try help(arguments.dropFirst()) }
        var words = 1
        var name = first
        if let group = commandGroups[first] {
            let next = arguments.count > 1 ? arguments[1].text : ""
            if next.hasPrefix("-"), (try? [Options.help].matching(next, command: nil)) == Options.help {
                return .help(group)  // phototag places --help
            }
            guard !next.isEmpty, !next.hasPrefix("-") else {
                throw UsageError(message: "'\(first)' needs a subcommand: import or info")
            }
            name = "\(first) \(arguments[1].text)"
            words = 2
        }
        guard let command = Command(rawValue: name) else {
            throw words == 1 ? unknownCommand(name, arguments: arguments) : unknownCommand(name)
        }
        let parsed = try command.spec.parse(Array(arguments.dropFirst(words)), command: command)
        if parsed.has(Options.help) { return .help([command]) }
        // Option values are checked before the number of arguments, so that a bad value is
        // named even when it took the place of the only argument (locate --format photo.jpg).
        let invocation = try invocation(command, parsed)
        try command.spec.checkArgumentCount(parsed, command: command)
        return invocation
    }

    /// The words that group two subcommands, and the commands they group: `phototag help places`
    /// explains both.
    static let commandGroups: [String: [Command]] = [
        "places": [.placesImport, .placesInfo], "boundaries": [.boundariesImport, .boundariesInfo],
    ]

    /// `phototag help ARGUMENT...` (or `phototag --help ARGUMENT...`): parsed by the spec of
    /// `help`, so that `help --help` (or `-h`, anywhere) explains `help` itself, as every
    /// command's `--help` does, and another option is named as unknown.
    private static func help(_ arguments: ArraySlice<Argument>) throws(UsageError) -> Invocation {
        let parsed = try Commands.help.parse(Array(arguments), command: nil)
        if parsed.has(Options.help) { return .helpOfHelp }
        return .help(try helpTopics(parsed.positionals.map(\.text)))
    }

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
        case .locate: return .locate(try LocateOptions(reader))
        case .scan: return .scan(try ScanOptions(reader))
        case .tag:
            var options = try ScanOptions(reader)
            options.tag = try TagOptions(reader)
            return .tag(options)
        case .geocode: return .geocode(try GeocodeOptions(reader))
        case .placesImport: return .placesImport(try ImportOptions(reader))
        case .placesInfo: return .placesInfo(places: parsed.last(Options.places))
        case .boundariesImport: return .boundariesImport(try BoundariesImportOptions(reader))
        case .boundariesInfo: return .boundariesInfo
        case .completions:
            try command.spec.checkArgumentCount(parsed, command: command)
            let name = parsed.positionals[0].text
            guard let shell = Shell(rawValue: name) else {
                throw reader.error("unknown shell '\(name)' (choose from bash, zsh, fish)")
            }
            return .completions(shell)
        case .manpage: return .manpage
        }
    }

    /// The error of a first word that is no command: a typo names the closest command, and a
    /// path given where the command belongs (`phototag photo.jpg`, `phototag ~/Pictures`) names
    /// the command line meant: `locate` for files, `scan` when a path is a folder.
    ///
    /// - Parameter arguments: the whole command line, when its first word is `name`.
    private static func unknownCommand(_ name: String, arguments: [Argument] = []) -> UsageError {
        let kind = arguments.first.flatMap { fileKind($0.bytes) }
        if kind == nil, let suggestion = closest(to: name, among: Command.allCases.map(\.rawValue) + ["help"]) {
            return UsageError(message: "unknown command '\(name)'; did you mean '\(suggestion)'?")
        }
        guard let first = arguments.first, kind != nil || PhotoFiles.hasPhotoExtension(first.bytes[...]) else {
            return UsageError(message: "unknown command '\(name)'")
        }
        // scan reads files given too, so one folder among the paths makes it scan.
        let folders = arguments.contains { fileKind($0.bytes) == .folder }
        let meant =
            "phototag \(folders ? "scan" : "locate") " + arguments.map { shellWord($0.text) }.joined(separator: " ")
        let what = kind.map { "'\(name)' is a \($0 == .folder ? "folder" : "file"), not a command" }
        let reading =
            kind == .folder ? "to read the photos in it" : folders ? "to read the photos" : "to read the photo"
        // The command line meant is shown unquoted: it may hold quotes of its own.
        return UsageError(message: (what ?? "unknown command '\(name)'") + "; \(reading), run: \(meant)")
    }

    private enum FileKind { case file, folder }

    /// Whether `path` names an existing folder or another file; `nil` when nothing is there.
    private static func fileKind(_ path: [UInt8]) -> FileKind? {
        guard !path.isEmpty, let info = try? fileStatus(path) else { return nil }
        return info.isDirectory ? .folder : .file
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
        return (1...GregorianCalendar.daysIn(month: month, year: year)).contains(day)
    }
}

/// Turns option values into validated settings, with one message style for every bad value.
///
/// Options are named by their ``Options`` constants; the messages take the name from them.
struct OptionReader {
    let parsed: ParsedArguments
    let command: Command

    /// A usage error of this command.
    func error(_ message: String) -> UsageError { UsageError(message: message, command: command) }

    /// Whether the command takes `option` at all.
    func accepts(_ option: OptionSpec) -> Bool { parsed.accepted.contains(option) }

    /// Whether a flag was given.
    func has(_ option: OptionSpec) -> Bool { parsed.has(option) }

    /// The last value given for an option.
    func value(_ option: OptionSpec) -> String? { parsed.last(option) }

    /// The value of an option the command cannot run without.
    func required(_ option: OptionSpec) throws(UsageError) -> String {
        guard let value = parsed.last(option) else { throw error("option '\(option.name)' is required") }
        return value
    }

    /// The output options of `locate`, `scan` and `geocode`.
    func output() throws(UsageError) -> OutputOptions {
        var options = OutputOptions()
        if has(Options.json) { options.format = .json }
        if let value = value(Options.format) {
            guard let format = OutputFormat(rawValue: value) else {
                let choices = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("unknown format '\(value)' (choose from \(choices))")
            }
            if has(Options.json), format != .json {
                throw error("'\(Options.json.name)' and '\(Options.format.name) \(value)' disagree")
            }
            options.format = format
        }
        options.quiet = has(Options.quiet)
        // Only locate and scan count their files and show a progress bar.
        if accepts(Options.summary) {
            options.summaryFile = value(Options.summaryFile)
            options.summary = has(Options.summary) || options.summaryFile != nil
        }
        if let value = value(Options.coordinates) {
            guard let style = CoordinateStyle(rawValue: value) else {
                let choices = CoordinateStyle.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("unknown coordinate style '\(value)' (choose from \(choices))")
            }
            options.coordinates = style
        }
        options.csvByteOrderMark = has(Options.bom)
        options.csvFormulaGuard = !has(Options.noFormulaGuard)
        if let path = value(Options.csvt) {
            guard !path.isEmpty else { throw error("option '\(Options.csvt.name)' needs a file name") }
            options.csvTypesFile = path
        }
        for option in [Options.bom, Options.noFormulaGuard, Options.csvt] where has(option) && options.format != .csv {
            throw error("'\(option.name)' is for \(Options.format.name) csv")
        }
        if accepts(Options.warnings), let value = value(Options.warnings) {
            guard let mode = WarningMode(rawValue: value) else {
                let choices = WarningMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw error("unknown warnings mode '\(value)' (choose from \(choices))")
            }
            options.warnings = mode
        }
        // The later of --progress and --no-progress wins.
        if accepts(Options.progress),
            let last = parsed.lastGiven(of: [Options.progress, Options.noProgress])
        {
            options.progress = last == Options.progress
        }
        return options
    }

    /// The file-selection options of `locate` and `scan`.
    func selection(format: OutputFormat) throws(UsageError) -> SelectionOptions {
        var options = SelectionOptions()
        if let list = value(Options.filesFrom) {
            guard !list.isEmpty else { throw error("option '\(Options.filesFrom.name)' needs a file name or '-'") }
            options.filesFrom = Argument(list)
        }
        options.nullSeparated = has(Options.null)
        if options.nullSeparated, options.filesFrom == nil {
            throw error("'\(Options.null.name)' needs '\(Options.filesFrom.name)'")
        }
        options.jobs = try count(Options.jobs, minimum: 1, maximum: 1024)
        options.allRecords = try allRecords(format: format)
        options.allPositions = has(Options.allPositions)
        if options.allPositions, format != .exiftoolCSV, command != .tag {
            throw error("'\(Options.allPositions.name)' is for \(Options.format.name) exiftool-csv and for tag")
        }
        options.preferSidecar = has(Options.preferSidecar)
        switch (has(Options.withGPS), has(Options.withoutGPS)) {
        case (true, true):
            throw error("'\(Options.withGPS.name)' and '\(Options.withoutGPS.name)' exclude each other")
        case (true, false): options.gpsFilter = .withGPS
        case (false, true): options.gpsFilter = .withoutGPS
        case (false, false): break
        }
        switch (value(Options.near), value(Options.within)) {
        case (let point?, let radius?):
            options.near = try coordinate(point, option: Options.near)
            options.within = try distance(radius, option: Options.within)
        case (_?, nil): throw error("'\(Options.near.name)' needs '\(Options.within.name) KM'")
        case (nil, _?): throw error("'\(Options.within.name)' needs '\(Options.near.name) LAT,LON'")
        case (nil, nil): break
        }
        return options
    }

    /// `--columns`: the order of the two fields of lines without a header; `nil` when not given.
    func columnOrder() throws(UsageError) -> CoordinateHeader? {
        guard let value = value(Options.columns) else { return nil }
        switch value.lowercased() {
        case "lat,lon": return .latitudeFirst
        case "lon,lat": return .longitudeFirst
        default: throw error("unknown column order '\(value)' (choose from lat,lon, lon,lat)")
        }
    }

    /// Refuses what `--format exiftool-csv` has no use for, in locate and scan: standard input
    /// (`-`, no file for exiftool to write to), `--without-gps` (no row would be written) and
    /// `--nearest` (no column for it).
    func checkExifToolCSV(
        _ output: OutputOptions, _ place: PlaceOptions, _ selection: SelectionOptions, standardInput: Bool
    ) throws(UsageError) {
        guard output.format == .exiftoolCSV else { return }
        let format = "\(Options.format.name) exiftool-csv"
        if standardInput { throw error("'-' (standard input) has no file name for \(format); give the photo's path") }
        if selection.gpsFilter == .withoutGPS {
            throw error("'\(Options.withoutGPS.name)' leaves nothing for \(format) to write")
        }
        if place.nearest != nil { throw error("'\(Options.nearest.name)' has no column in \(format)") }
    }

    /// `--all-records`, which only GeoJSON takes.
    func allRecords(format: OutputFormat) throws(UsageError) -> Bool {
        guard has(Options.allRecords) else { return false }
        guard format == .geojson else {
            throw error(
                "'\(Options.allRecords.name)' is for \(Options.format.name) geojson (other formats always keep every record)"
            )
        }
        return true
    }

    /// Checks, after every option value, that there is something to read: paths given as
    /// arguments or a `--files-from` list (so a bad value is named before a missing path).
    func requirePaths(_ selection: SelectionOptions) throws(UsageError) {
        if selection.filesFrom == nil, parsed.positionals.isEmpty {
            throw error(command.spec.missingArgumentsMessage)
        }
    }

    /// The place options of `locate`, `scan` and `geocode`.
    func place() throws(UsageError) -> PlaceOptions {
        var options = PlaceOptions()
        options.places = value(Options.places)
        options.nearest = try count(Options.nearest, minimum: 1, maximum: 1000)
        if let value = value(Options.maxDistance) {
            options.filter.maximumDistanceKm = try distance(value, option: Options.maxDistance)
        }
        options.filter.minimumPopulation = try count(Options.minPopulation, minimum: 0) ?? 0
        options.skip = has(Options.noPlace)
        if let value = value(Options.lang) {
            if value.lowercased() == "auto" {
                options.language = .auto
            } else if let language = NameLanguage(value) {
                options.language = .tag(language)
            } else {
                throw error(
                    "option '\(Options.lang.name)' needs a language tag such as de, de-AT, zh-Hant or auto, not '\(value)'"
                )
            }
        }
        if options.skip {
            for option in [Options.places, Options.nearest, Options.maxDistance, Options.minPopulation, Options.lang]
            where has(option) {
                throw error("'\(Options.noPlace.name)' and '\(option.name)' exclude each other")
            }
        }
        return options
    }

    /// A whole number from `minimum` to `maximum`; `nil` when the option is not given.
    func count(_ option: OptionSpec, minimum: Int, maximum: Int = Int.max) throws(UsageError) -> Int? {
        guard let value = value(option) else { return nil }
        guard let number = Int(value), number >= minimum, number <= maximum else {
            let range = maximum == Int.max ? "\(minimum) or more" : "from \(minimum) to \(maximum)"
            throw error("option '\(option.name)' needs a whole number \(range), not '\(value)'")
        }
        return number
    }

    /// A distance in km, 0 or more.
    func distance(_ value: String, option: OptionSpec) throws(UsageError) -> Double {
        guard let number = DecimalNumber.parse(value.utf8), number >= 0, number.isFinite else {
            throw error("option '\(option.name)' needs a distance in km (0 or more), not '\(value)'")
        }
        return number
    }

    /// A date written `YYYY-MM-DD`; `nil` when the option is not given.
    func date(_ option: OptionSpec) throws(UsageError) -> String? {
        guard let date = value(option) else { return nil }
        guard Invocation.isISODate(date) else {
            throw error("option '\(option.name)' needs a date like 2026-07-28, not '\(date)'")
        }
        return date
    }

    /// `geocode`'s arguments, refusing a latitude and a longitude given as two arguments
    /// (`geocode 48.8 2.3`), which would otherwise be two error records.
    func coordinateArguments(_ arguments: [Argument]) throws(UsageError) -> [Argument] {
        for (first, second) in zip(arguments, arguments.dropFirst())
        where DecimalNumber.parse(first.bytes) != nil && DecimalNumber.parse(second.bytes) != nil {
            throw error(
                "'\(first.text)' and '\(second.text)' are two arguments; did you mean '\(first.text),\(second.text)'?")
        }
        return arguments
    }

    /// A `LAT,LON` option value.
    func coordinate(_ value: String, option: OptionSpec) throws(UsageError) -> Coordinate {
        switch parseCoordinate(Array(value.utf8)[...]) {
        case .success(let coordinate): return coordinate
        case .failure(let reason): throw error("option '\(option.name)' needs LAT,LON: \(reason)")
        }
    }
}
