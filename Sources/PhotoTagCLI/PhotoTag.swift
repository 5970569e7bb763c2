import PhotoTagSupport

/// The phototag command line: arguments in, bytes out, an exit status back.
///
/// Everything the executable does happens here, so tests run it in-process with memory sinks.
public enum PhotoTag {
    /// Exit statuses, like grep's.
    public enum ExitStatus {
        /// Every file was located.
        public static let success: Int32 = 0
        /// Some file has no usable location (no GPS or invalid GPS).
        public static let notLocated: Int32 = 1
        /// Some input could not be read (the others are still reported), or writing the output
        /// failed.
        public static let unreadable: Int32 = 2
        /// The command line is wrong; nothing was done.
        public static let usage: Int32 = 64
    }

    /// Makes `SIGINT` and `SIGTERM` stop a run in order: the first lets the files and lines under
    /// way finish and closes the output (a JSON array's `]`, the summary, the map); a second
    /// ends the process at once, erasing a progress bar. The executable calls it once, before
    /// ``run(rawArguments:input:output:errors:environment:)``, and ``endIfStopped()`` after.
    public static func handleStopSignals() { InterruptEraser.install() }

    /// Ends the process by the signal that stopped the run, if one did (exit status 130 or 143
    /// in a shell), so that a shell loop or `make` sees the interruption.
    public static func endIfStopped() { StopRequest.endIfRequested() }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - input: where `geocode` reads coordinates without arguments (standard input).
    ///   - output: where data goes (standard output).
    ///   - errors: where diagnostics go (standard error).
    ///   - environment: the variables that matter (`NO_COLOR`, `TERM`).
    /// - Returns: the exit status; 2 when the output could not be written (reported on `errors`).
    public static func run(
        _ arguments: [String], input: InputSource = MemoryInput(""), output: OutputSink, errors: OutputSink,
        environment: Environment = Environment()
    ) -> Int32 {
        run(arguments.map(Argument.init), input: input, output: output, errors: errors, environment: environment)
    }

    /// Runs a command line given as the exact bytes of each argument (what `main` has).
    public static func run(
        rawArguments: [[UInt8]], input: InputSource, output: OutputSink, errors: OutputSink,
        environment: Environment
    ) -> Int32 {
        run(
            rawArguments.map(Argument.init(bytes:)), input: input, output: output, errors: errors,
            environment: environment)
    }

    static func run(
        _ arguments: [Argument], input: InputSource, output: OutputSink, errors: OutputSink, environment: Environment,
        progressDelay: Double = 0.5
    ) -> Int32 {
        let status = runCommand(
            arguments, input: input, output: output, errors: errors, environment: environment,
            progressDelay: progressDelay)
        output.flush()
        // A failed write (a full disk, /dev/full) loses output: say so, and never exit 0. A
        // closed pipe (EPIPE) is not an error: the reader has all it wanted.
        if let code = output.writeError ?? errors.writeError {
            errors.write("phototag: write error: \(errnoText(code))\n")
            errors.flush()
            return ExitStatus.unreadable
        }
        errors.flush()
        return errors.writeError == nil ? status : ExitStatus.unreadable
    }

    /// Runs one command line; the caller does the final flush and reports write errors.
    private static func runCommand(
        _ arguments: [Argument], input: InputSource, output: OutputSink, errors: OutputSink, environment: Environment,
        progressDelay: Double
    ) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            errors.write("Error: \(error.message)\n")
            errors.write("Usage: \(Help.usage(error.command))\n")
            let topic = error.command.map { " \($0.rawValue)" } ?? ""
            errors.write("See 'phototag help\(topic)'.\n")
            return ExitStatus.usage
        }
        let context = Context(output: output, errors: errors, environment: environment, progressDelay: progressDelay)
        switch invocation {
        case .help(let command):
            output.write(Help.text(command))
            return ExitStatus.success
        case .helpOfHelp:
            output.write(Help.text(Commands.help))
            return ExitStatus.success
        case .version:
            output.write(Help.version)
            return ExitStatus.success
        case .locate(var options):
            options.place.resolveLanguage(environment)
            return context.locate(options, input: input)
        case .scan(var options), .tag(var options):
            options.place.resolveLanguage(environment)
            return context.scan(options, input: input)
        case .geocode(var options):
            options.place.resolveLanguage(environment)
            return context.geocode(options, input: input)
        case .placesImport(let options):
            return context.importPlaces(options)
        case .placesInfo(let path):
            return context.describePlaces(path)
        case .boundariesImport(let options):
            return context.importBoundaries(options)
        case .boundariesInfo:
            return context.describeBoundaries()
        case .completions(let shell):
            output.write(Manual.completions(for: shell))
            return ExitStatus.success
        case .manpage:
            output.write(Manual.page())
            return ExitStatus.success
        }
    }
}
