import ReverseGeocoding

/// Every help text phototag prints, in one place.
enum Help {
    static let toolVersion = "0.1.0"

    /// `phototag --version`: the tool, the bundled data and its credit.
    static var version: String {
        let places = ReverseGeocoder.bundled
        let boundaries = BoundaryTable.bundled
        return """
            phototag \(toolVersion)
            Place data: \(places.source), \(grouped(places.placeCount)) places, as of \(places.date)
            Place data © GeoNames (geonames.org), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)
            Boundaries: \(boundaries.timeZoneCount) time zones, \(boundaries.countryCount) countries, \
            \(grouped(boundaries.admin1Count)) admin-1 regions, as of \(boundaries.date)
            Time-zone boundaries: timezone-boundary-builder 2026e
            (https://github.com/evansiroky/timezone-boundary-builder), data © OpenStreetMap contributors,
            available under the Open Database License 1.0 (https://opendatacommons.org/licenses/odbl/1-0/);
            phototag's boundary table is a derivative database offered under the same licence (see NOTICE)
            Country and admin-1 geometry: Natural Earth (public domain); admin-1 codes: GeoNames, CC BY 4.0
            Puerto Rico's municipios: U.S. Census Bureau cartographic boundaries (public domain)
            Seas: \(BoundaryTable.bundledSeas.seaCount) named seas and oceans, Natural Earth 1:10m marine polygons (public domain)
            Names (--lang): \(grouped(PlaceNames.bundled.placeCount)) places, \(grouped(PlaceNames.bundled.regionCount)) regions and \
            \(PlaceNames.bundled.countryCount) countries in \(PlaceNames.bundled.languages.count) languages, as of \(PlaceNames.bundled.date):
            GeoNames alternate names, CC BY 4.0; Unicode CLDR 41 subdivision names and CLDR 49 country
            names (through babel 2.19.0, BSD-3-Clause), © Unicode, Inc., under the Unicode License (see NOTICE)
            Time-zone rules: IANA tz database 2026f (public domain)
            EXIF reading: libexif (https://libexif.github.io/), LGPL 2.1 or later, linked in (see NOTICE)
            KMZ inflating: zlib (https://zlib.net/), zlib License, linked in

            """
    }

    /// The usage line of a command, or of the tool.
    static func usage(_ command: Command?) -> String {
        command?.spec.usage ?? "phototag <command> [options]"
    }

    /// The help of each command in turn, blank-line separated; the tool's help for none.
    static func text(_ commands: [Command]) -> String {
        commands.isEmpty ? toolHelp : commands.map { text($0) }.joined(separator: "\n")
    }

    /// The help of a command (its options, usage and notes), or the tool's for `nil`.
    static func text(_ command: Command?) -> String {
        guard let command else { return toolHelp }
        return text(command.spec)
    }

    /// The help of a command's spec: its summary, usage, options and notes.
    static func text(_ spec: CommandSpec) -> String {
        var text = "\(spec.summary).\n\nUsage: \(spec.usage)\n\nOptions:\n" + optionRows(spec.options)
        if !spec.epilogue.isEmpty { text += "\n\(spec.epilogue)\n" }
        return text
    }

    /// The option list of a help text: names and value in a column, then the help.
    static func optionRows(_ options: [OptionSpec]) -> String {
        let rows = options.map { option in
            let names = (option.short.map { "\($0), " } ?? "") + option.name + (option.value.map { " \($0)" } ?? "")
            return (names, option.help)
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { names, help in "  \(names)\(String(repeating: " ", count: width - names.count))   \(help)\n" }
            .joined()
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
        text += "  help\(String(repeating: " ", count: width - 4))   \(Commands.help.summary)\n"
        text += "\nOptions:\n" + optionRows(Commands.toolOptions)
        text += """

            See 'phototag help <command>...' for commands' options ('help places' for both
            places commands). Long options may be shortened while unambiguous: --form for --format.

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
