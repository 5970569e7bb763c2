import ReverseGeocoding

/// `phototag places import`'s settings.
struct ImportOptions: Equatable, Sendable {
    var directory: String
    var output: String
    var citiesFile: String? = nil
    var minimumPopulation = 0
    var date: String? = nil
    var allFeatures = false
}

extension ImportOptions {
    /// The settings of a parsed `places import` command line.
    init(_ reader: OptionReader) throws(UsageError) {
        self.init(
            directory: try reader.required(Options.geoNamesFolder), output: try reader.required(Options.tableOutput))
        citiesFile = reader.value(Options.cities)
        minimumPopulation = try reader.count(Options.importMinPopulation, minimum: 0) ?? 0
        date = try reader.date(Options.placesDate)
        allFeatures = reader.has(Options.allFeatures)
    }
}

extension Context {
    /// `phototag places info`: what the place table in use is.
    func describePlaces(_ path: String?) -> Int32 {
        guard let geocoder = openPlaces(path) else { return PhotoTag.ExitStatus.unreadable }
        output.write(
            """
            source: \(geocoder.source)
            date: \(geocoder.date)
            places: \(geocoder.placeCount)
            file: \(path ?? "(bundled)")

            """)
        return PhotoTag.ExitStatus.success
    }

    /// `phototag places import`: a place table built from GeoNames dumps.
    func importPlaces(_ options: ImportOptions) -> Int32 {
        do {
            let dump = try GeoNamesImport(
                directory: options.directory, citiesFile: options.citiesFile,
                minimumPopulation: options.minimumPopulation, populatedPlacesOnly: !options.allFeatures)
            for note in dump.notes { errors.write("phototag: \(note)\n") }
            errors.flush()  // before the long part: the build
            let citiesFile = String(dump.citiesPath.split(separator: "/").last ?? "")
            let date = options.date ?? modificationDate(dump.citiesPath) ?? "unknown"
            let builder = PlaceTableBuilder(source: "GeoNames \(citiesFile)", date: date)
            let table = try builder.build(dump.places)
            try PlaceTableBuilder.write(table, to: options.output)
            var report = "imported \(grouped(dump.places.count)) places from \(citiesFile)"
            if dump.filteredOut > 0 { report += " (\(grouped(dump.filteredOut)) left out by the filters)" }
            report += "\nskipped \(grouped(dump.skippedCount)) bad rows"
            if dump.skippedCount > 0 {
                let reasons = dump.skipped.sorted { $0.key < $1.key }.map { "\(grouped($0.value)) \($0.key.rawValue)" }
                report += ": " + reasons.joined(separator: ", ")
            }
            report += "\nwrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))\n"
            output.write(report)
            return PhotoTag.ExitStatus.success
        } catch {
            errors.write("phototag: \(error)\n")
            return PhotoTag.ExitStatus.unreadable
        }
    }
}
