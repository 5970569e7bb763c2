import PhotoGPS
import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        case .locate(let options):
            return locate(options, output: output, errors: errors)
        case .placesImport(let options):
            return importPlaces(options, output: output, errors: errors)
        case .placesInfo(let path):
            guard let geocoder = openPlaces(path, errors: errors) else { return ExitStatus.unreadable }
            output.write(
                """
                source: \(geocoder.source)
                date: \(geocoder.date)
                places: \(geocoder.placeCount)
                file: \(path ?? "(bundled)")

                """)
            return ExitStatus.success
        }
    }

    /// The bundled place table, or the one at `path`; `nil` after reporting why it cannot be used.
    static func openPlaces(_ path: String?, errors: OutputSink) -> ReverseGeocoder? {
        guard let path else { return ReverseGeocoder.bundled }
        do {
            return try ReverseGeocoder(contentsOf: path)
        } catch {
            errors.write("phototag: \(error)\n")
            return nil
        }
    }

    static func locate(_ options: LocateOptions, output: OutputSink, errors: OutputSink) -> Int32 {
        guard let geocoder = openPlaces(options.places, errors: errors) else { return ExitStatus.unreadable }
        let reader = GPSReader()
        var status = ExitStatus.success
        var json = JSONWriter(pretty: true)
        if options.format == .json { json.beginArray() }
        for file in options.files {
            let reading = reader.read(file: file)
            var record = PhotoRecord(file: file, reading: reading)
            if let fix = reading.fix, let coordinate = Coordinate(latitude: fix.latitude, longitude: fix.longitude) {
                record.place = geocoder.nearestPlace(to: coordinate)
            }
            switch reading.status {
            case .located: break
            case .noGPS, .invalidGPS: status = max(status, ExitStatus.notLocated)
            case .error:
                status = ExitStatus.unreadable
                errors.write("phototag: \(file): \(reading.error?.description ?? "unknown error")\n")
            }
            switch options.format {
            case .text: output.write(record.textLine + "\n")
            case .json: record.write(to: &json)
            }
        }
        if options.format == .json {
            json.endArray()
            json.bytes.append(UInt8(ascii: "\n"))
            output.write(json.bytes)
        }
        return status
    }

    static func importPlaces(_ options: ImportOptions, output: OutputSink, errors: OutputSink) -> Int32 {
        do {
            let dump = try GeoNamesImport(
                directory: options.directory, citiesFile: options.citiesFile,
                minimumPopulation: options.minimumPopulation, populatedPlacesOnly: !options.allFeatures)
            for note in dump.notes { errors.write("phototag: \(note)\n") }
            let citiesFile = String(dump.citiesPath.split(separator: "/").last ?? "")
            let date = options.date ?? modificationDate(dump.citiesPath) ?? "unknown"
            let builder = PlaceTableBuilder(source: "GeoNames \(citiesFile)", date: date)
            let table = try builder.build(dump.places)
            try PlaceTableBuilder.write(table, to: options.output)
            var report = "imported \(grouped(dump.places.count)) places from \(citiesFile)"
            if dump.filteredOut > 0 { report += " (\(grouped(dump.filteredOut)) left out by the filters)" }
            report += "\nskipped \(grouped(dump.skippedCount)) bad rows"
            if dump.skippedCount > 0 {
                report +=
                    ": "
                    + dump.skipped.sorted { $0.key < $1.key }.map { "\(grouped($0.value)) \($0.key.rawValue)" }.joined(
                        separator: ", ")
            }
            report += "\nwrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))\n"
            output.write(report)
            return ExitStatus.success
        } catch {
            errors.write("phototag: \(error)\n")
            return ExitStatus.unreadable
        }
    }

    /// A file's modification date in UTC, `YYYY-MM-DD`.
    static func modificationDate(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var seconds = info.st_mtim.tv_sec
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
    }
}

/// Zero-pads a non-negative number to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
