import PhotoGPS

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
        /// Some input could not be read; the others are still reported.
        public static let unreadable: Int32 = 2
        /// The command line is wrong; nothing was done.
        public static let usage: Int32 = 64
    }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - output: where data goes (standard output).
    ///   - errors: where diagnostics go (standard error).
    /// - Returns: the exit status.
    public static func run(_ arguments: [String], output: OutputSink, errors: OutputSink) -> Int32 {
        defer {
            output.flush()
            errors.flush()
        }
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
        switch invocation {
        case .help(let command):
            output.write(Help.text(command))
            return ExitStatus.success
        case .version:
            output.write(Help.version)
            return ExitStatus.success
        case .locate(let files, let format):
            return locate(files, format: format, output: output, errors: errors)
        }
    }

    static func locate(_ files: [String], format: OutputFormat, output: OutputSink, errors: OutputSink) -> Int32 {
        let reader = GPSReader()
        var status = ExitStatus.success
        var json = JSONWriter(pretty: true)
        if format == .json { json.beginArray() }
        for file in files {
            let record = PhotoRecord(file: file, reading: reader.read(file: file))
            switch record.reading.status {
            case .located: break
            case .noGPS, .invalidGPS: status = max(status, ExitStatus.notLocated)
            case .error:
                status = ExitStatus.unreadable
                errors.write("phototag: \(file): \(record.reading.error?.description ?? "unknown error")\n")
            }
            switch format {
            case .text: output.write(record.textLine + "\n")
            case .json: record.write(to: &json)
            }
        }
        if format == .json {
            json.endArray()
            json.bytes.append(UInt8(ascii: "\n"))
            output.write(json.bytes)
        }
        return status
    }
}
