/// Every help text phototag prints, in one place.
enum Help {
    static let version = "phototag 0.1.0\n"

    /// The usage line of a command, or of the tool.
    static func usage(_ command: Invocation.Command?) -> String {
        switch command {
        case nil: "phototag <command> [options]"
        case .locate: "phototag locate [--format text|json] <file>..."
        }
    }

    static func text(_ command: Invocation.Command?) -> String {
        switch command {
        case nil:
            """
            phototag: where was this photo taken? Reads GPS tags, offline.

            Usage: \(usage(nil))

            Commands:
              locate    Print the GPS position of each photo
              help      Show help for a command

            Options:
              -h, --help    Show this help
              --version     Show the version

            See 'phototag help <command>' for a command's options.

            """
        case .locate:
            """
            Print the GPS position recorded in each photo.

            Usage: \(usage(.locate))

            Options:
              --format <format>   Output format: text (default) or json
              --json              Same as --format json
              -h, --help          Show this help

            Exit status: 0 every file located, 1 some file has no usable position,
            2 some file could not be read, 64 usage error.

            """
        }
    }
}
