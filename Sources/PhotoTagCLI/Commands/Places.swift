import ReverseGeocoding

/// `phototag places import`'s settings.
struct ImportOptions: Equatable, Sendable {
    /// The folder of GeoNames dumps; `nil` with ``names``.
    var directory: String?
    /// A folder of name lists: the table is a names table (``PlaceNamesBuilder``).
    var names: String? = nil
    var output: String
    var citiesFile: String? = nil
    var minimumPopulation = 0
    var date: String? = nil
    var allFeatures = false
}

extension ImportOptions {
    /// The settings of a parsed `places import` command line.
    init(_ reader: OptionReader) throws(UsageError) {
        let names = reader.value(Options.namesFolder)
        let directory =
            names == nil ? try reader.required(Options.geoNamesFolder) : reader.value(Options.geoNamesFolder)
        self.init(directory: directory, names: names, output: try reader.required(Options.tableOutput))
        citiesFile = reader.value(Options.cities)
        minimumPopulation = try reader.count(Options.importMinPopulation, minimum: 0) ?? 0
        date = try reader.date(Options.placesDate)
        allFeatures = reader.has(Options.allFeatures)
        if names != nil {
            for (option, given) in [
                (Options.geoNamesFolder, directory != nil), (Options.cities, citiesFile != nil),
                (Options.importMinPopulation, minimumPopulation != 0), (Options.allFeatures, allFeatures),
            ] where given {
                throw reader.error(
                    "option '\(option.name)' does not go with '--names' (a names table holds only names)")
            }
        }
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
            guard let directory = options.directory else {
                guard let names = options.names else { preconditionFailure("the parser requires --from or --names") }
                return try importNames(from: names, options)
            }
            let dump = try GeoNamesImport(
                directory: directory, citiesFile: options.citiesFile,
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

    /// `phototag places import --names`: a names table, for `--lang`.
    private func importNames(from folder: String, _ options: ImportOptions) throws(ReverseGeocodingError) -> Int32 {
        let date = options.date ?? modificationDate(folder + "/places.tsv") ?? "unknown"
        let builder = try PlaceNamesBuilder(directory: folder, date: date)
        let table = try builder.build()
        try PlaceTableBuilder.write(table, to: options.output)
        let report = builder.report
        output.write(
            """
            imported \(grouped(report.placeNames)) place names, \(grouped(report.regionNames)) region names \
            and \(grouped(report.subdivisionNames)) more from CLDR subdivisions, \(grouped(report.countryNames)) country names
            left out \(grouped(report.sharedNamesLeftOut)) CLDR names marked as shared; dropped the brackets of \
            \(grouped(report.bracketsDropped)); wrote \(grouped(report.serbianLatinNames)) Serbian names in Latin
            skipped \(grouped(report.badRows)) bad rows and \(grouped(report.repeatedRows)) repeated ones
            wrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))

            """)
        return PhotoTag.ExitStatus.success
    }
}
