import ReverseGeocoding

/// The specifications of every command: parsing and help both come from these.
enum Commands {
    static let format = OptionSpec(name: "--format", value: "<format>", help: "Output format: text (default) or json")
    static let json = OptionSpec(name: "--json", help: "Same as --format json")
    static let places = OptionSpec(
        name: "--places", value: "<file>", help: "Use this place table instead of the bundled one")

    static let locate = CommandSpec(
        name: "locate", summary: "Print where each photo was taken", arguments: "<file>...",
        minimumArguments: 1, missingArgumentsMessage: "no files given",
        options: [format, json, places, CommandSpec.help],
        epilogue: """
            Exit status: 0 every file located, 1 some file has no usable position,
            2 some file could not be read, 64 usage error.
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
