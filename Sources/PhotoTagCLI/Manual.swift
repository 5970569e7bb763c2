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
            in a fixed order; absent values are null. See the README for the record shape.
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
            (public domain). Time-zone rules: the IANA tz database 2026f (public domain).

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

    /// A completion script for `shell`.
    static func completions(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// What a completion offers in one place of a command line.
    enum Completion: Equatable {
        /// Nothing in particular (a number, a name): the shell offers nothing.
        case nothing
        /// One of a fixed list of words.
        case words([String])
        /// File names (folders included, to reach files in them).
        case files
        /// Folder names only.
        case directories
    }

    /// What an option's value completes to: its choices, files for a `<file…>` value, folders
    /// for a `<dir…>` value, nothing for numbers and other values; `nil` for a flag.
    static func completion(ofValueOf option: OptionSpec) -> Completion? {
        guard let value = option.value else { return nil }
        if let choices = option.choices { return .words(choices) }
        if value.hasPrefix("<file") { return .files }
        if value.hasPrefix("<dir") { return .directories }
        return .nothing
    }

    /// What a command's positional arguments complete to.
    static func completion(ofArgumentsOf command: Command) -> Completion {
        switch command {
        case .locate, .scan: .files
        case .completions: .words(Shell.allCases.map(\.rawValue))
        case .geocode, .placesImport, .placesInfo, .boundariesImport, .boundariesInfo, .manpage: .nothing
        }
    }

    /// The words that can follow `phototag`, and those that can follow `phototag help`.
    static let commandWords = [
        "locate", "scan", "geocode", "places", "boundaries", "completions", "manpage", "help",
    ]
    static let helpWords = ["locate", "scan", "geocode", "places", "boundaries", "completions", "manpage"]

    /// Every option that takes a value, once, with what its value completes to. A name means the
    /// same kind of value in every command (checked by the tests).
    static var valueOptions: [(option: OptionSpec, completion: Completion)] {
        var seen: Set<String> = []
        var result: [(OptionSpec, Completion)] = []
        for (_, spec) in commands {
            for option in spec.options where !seen.contains(option.name) {
                guard let completion = completion(ofValueOf: option) else { continue }
                seen.insert(option.name)
                result.append((option, completion))
            }
        }
        return result
    }

    /// A bash command that sets `COMPREPLY` to what `completion` offers for the word `$cur`.
    private static func bashReply(_ completion: Completion) -> String {
        switch completion {
        case .nothing: "COMPREPLY=()"
        case .words(let words): "_phototag_reply -W '\(words.joined(separator: " "))'"
        case .files: "compopt -o filenames 2>/dev/null; _phototag_reply -f"
        case .directories: "compopt -o filenames 2>/dev/null; _phototag_reply -d"
        }
    }

    private static func bash() -> String {
        var script = """
            # bash completion for phototag (generated by 'phototag completions bash')

            # Sets COMPREPLY to compgen's matches for the current word, one per line, so that
            # names with spaces stay whole.
            _phototag_reply() {
                COMPREPLY=()
                local line
                while IFS= read -r line; do
                    COMPREPLY+=("$line")
                done < <(compgen "$@" -- "$cur")
            }

            _phototag() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                # --option=value: bash splits it at '='.
                if [[ $cur == = ]]; then
                    cur=""
                elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
                    prev="${COMP_WORDS[COMP_CWORD-2]}"
                fi
                if [[ $COMP_CWORD -eq 1 ]]; then
                    \(bashReply(.words(commandWords + Commands.toolOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) })))
                    return
                fi
                local command="${COMP_WORDS[1]}" first=2
                if [[ $command == places || $command == boundaries ]]; then
                    if [[ $COMP_CWORD -eq 2 ]]; then
                        \(bashReply(.words(["import", "info", "--help"])))
                        return
                    fi
                    command="$command ${COMP_WORDS[2]}"
                    first=3
                fi
                # After '--', every word is an argument.
                local index options_ended=""
                for ((index = first; index < COMP_CWORD; index++)); do
                    [[ ${COMP_WORDS[index]} == -- ]] && options_ended=1
                done
                if [[ -z $options_ended ]]; then
                    case "$prev" in

            """
        for (option, completion) in valueOptions {
            let names = ([option.name] + (option.short.map { [$0] } ?? [])).joined(separator: "|")
            script += "            \(names)) \(bashReply(completion)); return ;;\n"
        }
        script += """
                    esac
                fi
                case "$command" in

            """
        for (name, spec) in commands {
            let command = Command(rawValue: name)!
            let options = spec.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
            script += """
                        "\(name)")
                            if [[ -z $options_ended && $cur == -* ]]; then
                                \(bashReply(.words(options)))
                            else
                                \(bashReply(completion(ofArgumentsOf: command)))
                            fi
                            ;;

                """
        }
        script += """
                    help) \(bashReply(.words(helpWords))) ;;
                    *) COMPREPLY=() ;;
                esac
            }
            complete -F _phototag phototag

            """
        return script
    }

    /// The `_arguments` action for what `completion` offers.
    private static func zshAction(_ completion: Completion) -> String {
        switch completion {
        case .nothing: " "
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .files: "_files"
        case .directories: "_files -/"
        }
    }

    private static func zsh() -> String {
        var script = """
            #compdef phototag
            # zsh completion for phototag (generated by 'phototag completions zsh')

            _phototag() {
              local -a commands
              commands=(

            """
        for (name, spec) in commands where !name.contains(" ") {
            script += "    '\(name):\(zshEscape(spec.summary))'\n"
        }
        script += """
                'places:Build or describe place tables'
                'boundaries:Build or describe boundary tables'
                'help:Show help for commands'
              )
              if (( CURRENT == 2 )); then
                if [[ $PREFIX == -* ]]; then
                  _values 'option' '-h[Show this help]' '--help[Show this help]' '-V[Show the version]' '--version[Show the version]'
                else
                  _describe 'command' commands
                fi
                return
              fi
              local command=${words[2]}
              integer skip=1
              if [[ $command == places ]]; then
                if (( CURRENT == 3 )); then
                  _values 'subcommand' 'import[Build a place table from GeoNames dumps]' 'info[Describe the place table in use]'
                  return
                fi
                command="places ${words[3]}"
                skip=2
              elif [[ $command == boundaries ]]; then
                if (( CURRENT == 3 )); then
                  _values 'subcommand' 'import[Build a boundary table from GeoJSON polygons]' 'info[Describe the bundled boundary table]'
                  return
                fi
                command="boundaries ${words[3]}"
                skip=2
              fi
              # Make the (sub)command the first word, as _arguments expects.
              shift $skip words
              (( CURRENT -= skip ))
              case $command in

            """
        for (name, spec) in commands {
            var arguments: [String] = []
            for option in spec.options {
                let help = zshEscape(option.help)
                var value = ""
                if let placeholder = option.value, let completion = completion(ofValueOf: option) {
                    value = ":\(zshEscape(placeholder)):\(zshAction(completion))"
                }
                let names = [option.name] + (option.short.map { [$0] } ?? [])
                for optionName in names { arguments.append("'\(optionName)[\(help)]\(value)'") }
            }
            let command = Command(rawValue: name)!
            let positional = completion(ofArgumentsOf: command)
            if positional != .nothing {
                let label = command == .completions ? "shell" : "file"
                arguments.append("'*:\(label):\(zshAction(positional))'")
            }
            script +=
                "    '\(name)')\n      _arguments -s \\\n        " + arguments.joined(separator: " \\\n        ")
                + "\n      ;;\n"
        }
        script += """
                help)
                  _values 'command' \(helpWords.joined(separator: " "))
                  ;;
              esac
            }

            _phototag "$@"

            """
        return script
    }

    private static func zshEscape(_ text: String) -> String {
        text.replacingAll("'", with: "'\\''").replacingAll("[", with: "\\[").replacingAll("]", with: "\\]")
            .replacingAll(":", with: "\\:")
    }

    private static func fishEscape(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
    }

    private static func fish() -> String {
        let commandList = commandWords.joined(separator: " ")
        var script = """
            # fish completion for phototag (generated by 'phototag completions fish')
            # No file names unless a command or option takes them.
            complete -c phototag -f
            complete -c phototag -n '__fish_use_subcommand' -a '\(commandList)'
            complete -c phototag -n '__fish_seen_subcommand_from places; and not __fish_seen_subcommand_from import info' -a 'import info'
            complete -c phototag -n '__fish_seen_subcommand_from boundaries; and not __fish_seen_subcommand_from import info' -a 'import info'
            complete -c phototag -n '__fish_seen_subcommand_from help' -a '\(helpWords.joined(separator: " "))'

            """
        for option in Commands.toolOptions {
            var line = "complete -c phototag -n '__fish_use_subcommand' -l \(option.name.dropFirst(2))"
            if let short = option.short { line += " -s \(short.dropFirst())" }
            script += line + " -d '\(fishEscape(option.help))'\n"
        }
        for (name, spec) in commands {
            let words = name.split(separator: " ")
            var condition = "__fish_seen_subcommand_from \(words.last!)"
            if words.count > 1 { condition = "__fish_seen_subcommand_from \(words[0]); and " + condition }
            for option in spec.options {
                var line = "complete -c phototag -n '\(condition)' -l \(option.name.dropFirst(2))"
                if let short = option.short { line += " -s \(short.dropFirst())" }
                switch completion(ofValueOf: option) {
                case nil: break
                case .nothing?: line += " -x"
                case .words(let choices)?: line += " -x -a '\(choices.joined(separator: " "))'"
                case .files?: line += " -r -F"
                case .directories?: line += " -x -a '(__fish_complete_directories)'"
                }
                line += " -d '\(fishEscape(option.help))'"
                script += line + "\n"
            }
            switch completion(ofArgumentsOf: Command(rawValue: name)!) {
            case .nothing: break
            case .words(let choices):
                script += "complete -c phototag -n '\(condition)' -a '\(choices.joined(separator: " "))'\n"
            case .files: script += "complete -c phototag -n '\(condition)' -F\n"
            case .directories: script += "complete -c phototag -n '\(condition)' -a '(__fish_complete_directories)'\n"
            }
        }
        return script
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
