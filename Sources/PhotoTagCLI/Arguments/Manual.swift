/// The man page and the shell completions, generated from the same command specifications as
/// the help text, so none of them can drift from what the parser accepts.
enum Manual {
    /// Every command a completion can name, with its spec.
    static var commands: [(name: String, spec: CommandSpec)] {
        Command.allCases.map { ($0.rawValue, $0.spec) }
    }

    /// phototag.1 in roff (man(7) macros).
    static func page() -> String {
        var page = """
            .TH PHOTOTAG 1 "" "phototag \(Help.toolVersion)" "User Commands"
            .SH NAME
            phototag \\- where was this photo taken? Read GPS tags and name the nearest place, offline
            .SH SYNOPSIS

            """
        for (_, spec) in commands {
            page += ".B \(escape(spec.usage))\n.br\n"
        }
        page += """
            .B phototag help
            [\\fIcommand\\fR...]
            .br
            .B phototag \\-V\\fR|\\fB\\-\\-version
            .SH DESCRIPTION
            phototag reads the GPS position recorded in photos (EXIF, through libexif), turns it into
            signed decimal degrees and names the nearest place from a GeoNames table compiled into the
            binary. It never uses the network.
            .PP
            Long options may be shortened to any unambiguous prefix, as in \\fB\\-\\-form\\fR for
            \\fB\\-\\-format\\fR; a name given in full always wins.
            .SH COMMANDS

            """
        for (_, spec) in commands {
            page += ".SS \(escape(spec.usage))\n\(escape(spec.summary)).\n"
            for option in spec.options {
                let names = ((option.short.map { [$0] } ?? []) + [option.name]).map { "\\fB\(escape($0))\\fR" }
                page += ".TP\n\(names.joined(separator: ", "))\(option.value.map { " \\fI\(escape($0))\\fR" } ?? "")\n"
                page += "\(escape(option.help)).\n"
            }
            if !spec.epilogue.isEmpty { page += ".PP\n" + epilogue(spec.epilogue) }
        }
        page += """
            .SH WHERE A POINT IS
            The country, admin-1 region and time zone of a record are those of the boundary polygons
            (built into the binary) that contain the point; the named place is the nearest place inside
            that country, and place.city the city a person would name (the most populous place whose
            area of influence covers the point). At sea no country is given, the nearest place is
            named and a warning says so; basis is then "nearest", as with a place table of one's own
            (\\-\\-places). The local time of capture (time) uses the zone that contains the point
            and the IANA tz rules built into the binary.
            .SH OUTPUT
            Data goes to standard output, diagnostics to standard error. JSON records have fixed keys
            in a fixed order; absent values are null. The record shape is in docs/output.md, installed
            in share/doc/phototag.
            .SH EXIT STATUS
            0 success; 1 (locate) some file has no usable position, (geocode) some coordinate has no
            place; 2 some input could not be read (the others are still reported); 64 usage error.
            .SH ENVIRONMENT
            .TP
            .B NO_COLOR
            When set and not empty, text output is never coloured.
            .SH DATA
            Place data \\(co GeoNames (geonames.org), CC BY 4.0,
            https://creativecommons.org/licenses/by/4.0/.
            Time-zone boundaries: timezone-boundary-builder 2026e, data \\(co OpenStreetMap
            contributors, under the Open Database License 1.0
            (https://opendatacommons.org/licenses/odbl/1-0/); the boundary table is a derivative
            database offered under the same licence. Country and admin-1 geometry: Natural Earth
            (public domain); Puerto Rico's municipios: U.S. Census Bureau (public domain).
            Time-zone rules: the IANA tz database 2026f (public domain). EXIF reading: libexif,
            LGPL 2.1 or later (https://libexif.github.io/).

            """
        return page
    }

    /// A command's notes in roff: blank lines separate paragraphs, which roff fills; lines
    /// indented by two spaces (commands to type) are kept as they are, one per line.
    static func epilogue(_ text: String) -> String {
        var roff = ""
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indented = line.hasPrefix("  ")
            if indented != literal {
                roff += indented ? ".nf\n" : ".fi\n"
                literal = indented
            }
            roff += line.isEmpty ? ".PP\n" : escape(String(line)) + "\n"
        }
        return roff + (literal ? ".fi\n" : "")
    }

    /// Escapes text for roff: backslashes, hyphens, characters beyond ASCII (as `\[uXXXX]`), and
    /// a leading dot or quote that would start a request.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
