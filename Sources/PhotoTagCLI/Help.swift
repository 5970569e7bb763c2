import ReverseGeocoding

/// The specifications of every command: parsing, help, completions and the man page all come
/// from these, so they cannot drift apart.
enum Commands {
    static let format = OptionSpec(
        name: "--format", value: "<format>", help: "Output: text (default), json, ndjson, csv or geojson")
    static let json = OptionSpec(name: "--json", help: "Same as --format json")
    static let places = OptionSpec(
        name: "--places", value: "<file>", help: "Use this place table instead of the bundled one")
    static let nearest = OptionSpec(
        name: "--nearest", value: "<k>", help: "Also list the k nearest places (nearby)")
    static let maxDistance = OptionSpec(
        name: "--max-distance", value: "<km>", help: "Name no place farther away than this")
    static let minPopulation = OptionSpec(
        name: "--min-population", value: "<n>", help: "Name only places with at least n people")
    static let noPlace = OptionSpec(name: "--no-place", help: "Skip the place lookup")
    static let quiet = OptionSpec(
        name: "--quiet", short: "-q", help: "No warnings, per-file errors or progress on stderr")
    static let progress = OptionSpec(
        name: "--progress", help: "Show a progress bar on stderr (default: on a terminal; erased around records)")
    static let noProgress = OptionSpec(name: "--no-progress", help: "Never show a progress bar")
    static let summary = OptionSpec(
        name: "--summary", help: "Count files per status, country and place (text: the whole output)")

    static let outputOptions = [format, json, quiet]
    static let placeOptions = [places, nearest, maxDistance, minPopulation, noPlace]

    static let exitStatus = """
        Exit status: 0 every file located, 1 some file has no usable position,
        2 some input could not be read (the others are still reported) or the output could
        not be written, 64 usage error.
        """

    static let locate = CommandSpec(
        name: "locate", summary: "Print where each photo was taken", arguments: "<file>...",
        minimumArguments: 1, missingArgumentsMessage: "no files given",
        options: outputOptions + placeOptions + [summary, progress, noProgress, CommandSpec.help],
        epilogue: """
            One record per file, in argument order.

            \(exitStatus)

            Example: phototag locate --json IMG_0042.jpg | jq '.[0].place.name'
            """)

    static let scan = CommandSpec(
        name: "scan", summary: "Find the photos under folders and print where each was taken",
        arguments: "<path>...", minimumArguments: 1, missingArgumentsMessage: "no paths given",
        options: outputOptions + placeOptions + [
            OptionSpec(name: "--all-files", help: "Read every file's first bytes, not only photo extensions"),
            OptionSpec(name: "--hidden", help: "Include hidden files and folders"),
            OptionSpec(name: "--sort", help: "Order everything by path, across the paths given too"),
            OptionSpec(name: "--with-gps", help: "Print only photos that are located"),
            OptionSpec(name: "--without-gps", help: "Print only photos without a usable position"),
            OptionSpec(name: "--near", value: "<lat,lon>", help: "Print only photos within --within km of here"),
            OptionSpec(name: "--within", value: "<km>", help: "The radius for --near"),
            summary, progress, noProgress, CommandSpec.help,
        ],
        epilogue: """
            Folders are walked recursively, in path order, on every core; records stream out as
            files finish, in path order. Photos are chosen by extension (case-insensitive:
            \(photoExtensionList)) unless --all-files is given. Symbolic links are followed, but
            no folder is entered twice, so links cannot loop. Files that cannot be read are
            reported as error records (and on stderr, unless it is the same terminal) and the scan
            goes on.

            Exit status: 0 done, 2 some file or folder could not be read or the output could not
            be written, 64 usage error.

            Example: phototag scan --with-gps --format csv ~/Pictures > located.csv
            """)

    static let geocode = CommandSpec(
        name: "geocode", summary: "Name the places nearest to coordinates", arguments: "[<lat,lon>...]",
        options: outputOptions + placeOptions + [CommandSpec.help],
        epilogue: """
            Coordinates come from the arguments or, without any, from standard input: one per
            line as lat,lon or lat<TAB>lon or lat lon (decimal degrees). A header line and blank
            lines are skipped; a line that is not a coordinate is reported with its number and
            gives an error record. One record per coordinate, in input order.

            Exit status: 0 every coordinate has a place, 1 some has none within the filters,
            2 some line was not a coordinate or the output could not be written, 64 usage error.

            Example: cut -f2,3 points.tsv | phototag geocode --format ndjson
            """)

    static let placesImport = CommandSpec(
        name: "places import", summary: "Build a place table from GeoNames dump files", arguments: "",
        maximumArguments: 0,
        options: [
            OptionSpec(name: "--from", value: "<dir>", help: "Folder with the GeoNames dumps (required)"),
            OptionSpec(name: "--output", value: "<file>", help: "Where to write the table (required)"),
            OptionSpec(name: "--cities", value: "<name>", help: "The cities file to read (default: the only one)"),
            OptionSpec(name: "--min-population", value: "<n>", help: "Leave out places with fewer people"),
            OptionSpec(name: "--date", value: "<yyyy-mm-dd>", help: "The data's date (default: the file's)"),
            OptionSpec(name: "--all-features", help: "Keep every feature class, not only populated places"),
            CommandSpec.help,
        ],
        epilogue: """
            The folder holds a cities file (cities500.txt, cities1000.txt… or allCountries.txt)
            and, for names of regions and countries, admin1CodesASCII.txt, admin2Codes.txt and
            countryInfo.txt, as published at https://download.geonames.org/export/dump/.
            Rows with bad fields are skipped and counted. Use the table with --places <file>.
            """)

    static let placesInfo = CommandSpec(
        name: "places info", summary: "Describe the place table in use", arguments: "", maximumArguments: 0,
        options: [places, CommandSpec.help])

    static let completions = CommandSpec(
        name: "completions", summary: "Print a shell completion script", arguments: "<bash|zsh|fish>",
        minimumArguments: 1, missingArgumentsMessage: "no shell given (bash, zsh or fish)", maximumArguments: 1,
        options: [CommandSpec.help],
        epilogue: """
            bash:  phototag completions bash > /etc/bash_completion.d/phototag
            zsh:   phototag completions zsh > "${fpath[1]}/_phototag"
            fish:  phototag completions fish > ~/.config/fish/completions/phototag.fish
            """)

    static let manpage = CommandSpec(
        name: "manpage", summary: "Print the manual page (roff), as installed by make install",
        arguments: "", maximumArguments: 0, options: [CommandSpec.help])

    /// The extensions `scan` picks by default, as shown in help.
    static var photoExtensionList: String { PhotoFiles.extensions.sorted().joined(separator: ", ") }
}

/// Every help text phototag prints, in one place.
enum Help {
    static let toolVersion = "0.1.0"

    /// `phototag --version`: the tool, the bundled data and its credit.
    static var version: String {
        let places = ReverseGeocoder.bundled
        return """
            phototag \(toolVersion)
            Place data: \(places.source), \(grouped(places.placeCount)) places, as of \(places.date)
            Place data © GeoNames (geonames.org), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)

            """
    }

    /// The usage line of a command, or of the tool.
    static func usage(_ command: Command?) -> String {
        command?.spec.usage ?? "phototag <command> [options]"
    }

    static func text(_ command: Command?) -> String {
        guard let command else { return toolHelp }
        let spec = command.spec
        let rows = spec.options.map { option in
            let names = (option.short.map { "\($0), " } ?? "") + option.name + (option.value.map { " \($0)" } ?? "")
            return (names, option.help)
        }
        let width = rows.map(\.0.count).max() ?? 0
        var text = "\(spec.summary).\n\nUsage: \(spec.usage)\n\nOptions:\n"
        for (names, help) in rows {
            text += "  \(names)\(String(repeating: " ", count: width - names.count))   \(help)\n"
        }
        if !spec.epilogue.isEmpty { text += "\n\(spec.epilogue)\n" }
        return text
    }

    static var toolHelp: String {
        let names = Command.allCases.map(\.rawValue) + ["help"]
        let width = names.map(\.count).max()!
        var text = """
            phototag: where was this photo taken? Reads photos' GPS tags and names the nearest
            place, offline.

            Usage: \(usage(nil))

            Commands:

            """
        for command in Command.allCases {
            text +=
                "  \(command.rawValue)\(String(repeating: " ", count: width - command.rawValue.count))   \(command.spec.summary)\n"
        }
        text += "  help\(String(repeating: " ", count: width - 4))   Show help for a command\n"
        text += """

            Options:
              -h, --help   Show this help
              --version    Show the version and the place data's source

            See 'phototag help <command>' for a command's options.

            """
        return text
    }
}

/// `1234567` → `1,234,567`.
func grouped(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return (number < 0 ? "-" : "") + text
}
