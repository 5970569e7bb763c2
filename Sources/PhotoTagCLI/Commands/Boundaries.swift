import ReverseGeocoding

/// `phototag boundaries import`'s settings.
struct BoundariesImportOptions: Equatable, Sendable {
    /// The folder of the three boundary layers; `nil` with ``seas``.
    var directory: String?
    /// A GeoJSON file of named seas: the table holds only them.
    var seas: String? = nil
    var output: String
    /// A compiled IANA tz database (`zoneinfo`): the rules of every zone of the time-zone layer
    /// are stored with the polygons. Without it, the table has no rules (no local times).
    var tzdata: String? = nil
    /// GeoNames' `countryInfo.txt`: each country's name is stored with its polygons.
    var countryNames: String? = nil
    var date: String? = nil
}

extension BoundariesImportOptions {
    /// The settings of a parsed `boundaries import` command line.
    init(_ reader: OptionReader) throws(UsageError) {
        let seas = reader.value(Options.seasFile)
        let directory = seas == nil ? try reader.required(Options.boundaryFolder) : reader.value(Options.boundaryFolder)
        self.init(directory: directory, seas: seas, output: try reader.required(Options.tableOutput))
        tzdata = reader.value(Options.tzdata)
        countryNames = reader.value(Options.countryNames)
        date = try reader.date(Options.boundariesDate)
        if seas != nil {
            for (option, given) in [
                (Options.boundaryFolder, directory != nil), (Options.tzdata, tzdata != nil),
                (Options.countryNames, countryNames != nil),
            ] where given {
                throw reader.error("option '\(option.name)' does not go with '--seas' (a sea table holds only seas)")
            }
        }
    }
}

extension Context {
    /// `phototag boundaries info`: what the bundled boundary table holds.
    func describeBoundaries() -> Int32 {
        let table = BoundaryTable.bundled
        output.write(
            """
            source: \(table.source)
            date: \(table.date)
            time zones: \(table.timeZoneCount)
            countries: \(table.countryCount)
            admin-1 regions: \(table.admin1Count)
            seas: \(BoundaryTable.bundledSeas.seaCount) (a table of their own, \(grouped(BoundaryTable.bundledSeas.byteCount)) bytes)
            country names: \((0..<table.countryCount).filter { table.countryName($0) != nil }.count)
            tz rules: \(table.rules == nil ? "none" : "\(grouped(table.timeZoneRules.count)) bytes")
            bytes: \(grouped(table.byteCount))

            """)
        return PhotoTag.ExitStatus.success
    }

    /// `phototag boundaries import`: a boundary table built from GeoJSON polygons.
    func importBoundaries(_ options: BoundariesImportOptions) -> Int32 {
        do {
            guard let directory = options.directory else {
                guard let seas = options.seas else { preconditionFailure("the parser requires --from or --seas") }
                return try importSeas(from: seas, options)
            }
            let names = BoundaryTableBuilder.fileNames
            let date = options.date ?? modificationDate(directory + "/" + names.timeZones) ?? "unknown"
            let timeZones = try GeoJSONReader.read(path: directory + "/" + names.timeZones)
            var rules: [UInt8] = []
            var source = "\(names.timeZones), \(names.countries), \(names.admin1)"
            if let tzdata = options.tzdata {
                let zones = timeZones.compactMap { $0.property("tzid") }
                rules = try TimeZoneRulesBuilder(zoneinfo: tzdata).build(zones: zones)
                source += ", tz rules"
            }
            var builder = BoundaryTableBuilder(source: source, date: date, timeZoneRules: rules)
            if let path = options.countryNames {
                builder.countryNames = try BoundaryTableBuilder.countryNames(countryInfo: path)
                source += ", country names"
                builder.source = source
            }
            let table = try builder.build(
                timeZones: timeZones,
                countries: try GeoJSONReader.read(path: directory + "/" + names.countries),
                admin1: try GeoJSONReader.read(path: directory + "/" + names.admin1),
                names: (
                    directory + "/" + names.timeZones, directory + "/" + names.countries, directory + "/" + names.admin1
                ))
            try BoundaryTableBuilder.write(table, to: options.output)
            let opened = try BoundaryTable(tableBytes: table)
            output.write(
                """
                imported \(grouped(opened.timeZoneCount)) time zones, \(grouped(opened.countryCount)) countries, \
                \(grouped(opened.admin1Count)) admin-1 regions\(rules.isEmpty ? "" : ", the tz rules of every zone (\(grouped(rules.count)) bytes)")
                wrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))

                """)
            return PhotoTag.ExitStatus.success
        } catch {
            errors.write("phototag: \(error)\n")
            return PhotoTag.ExitStatus.unreadable
        }
    }

    /// `phototag boundaries import --seas`: a table of named seas alone.
    private func importSeas(from path: String, _ options: BoundariesImportOptions) throws(BoundaryError) -> Int32 {
        let date = options.date ?? modificationDate(path) ?? "unknown"
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let (seas, unnamed) = BoundaryTableBuilder.namedSeas(try GeoJSONReader.read(path: path, rounding: true))
        let table = try BoundaryTableBuilder(source: file, date: date).build(
            timeZones: [], countries: [], admin1: [], seas: seas, seasName: path)
        try BoundaryTableBuilder.write(table, to: options.output)
        let names = Set(seas.compactMap { $0.property("name") })
        output.write(
            """
            imported \(grouped(seas.count)) seas (\(grouped(names.count)) names)\
            \(unnamed == 0 ? "" : "; left out \(unnamed) without a name")
            wrote \(options.output) (\(grouped(table.count)) bytes, data of \(date))

            """)
        return PhotoTag.ExitStatus.success
    }
}
