import ReverseGeocoding

/// `phototag boundaries import`'s settings.
struct BoundariesImportOptions: Equatable, Sendable {
    var directory: String
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
        self.init(
            directory: try reader.required(Options.boundaryFolder), output: try reader.required(Options.tableOutput))
        tzdata = reader.value(Options.tzdata)
        countryNames = reader.value(Options.countryNames)
        date = try reader.date(Options.boundariesDate)
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
            country names: \((0..<table.countryCount).filter { table.countryName($0) != nil }.count)
            tz rules: \(table.rules == nil ? "none" : "\(grouped(table.timeZoneRules.count)) bytes")
            bytes: \(grouped(table.byteCount))

            """)
        return PhotoTag.ExitStatus.success
    }

    /// `phototag boundaries import`: a boundary table built from GeoJSON polygons.
    func importBoundaries(_ options: BoundariesImportOptions) -> Int32 {
        do {
            let names = BoundaryTableBuilder.fileNames
            let date = options.date ?? modificationDate(options.directory + "/" + names.timeZones) ?? "unknown"
            let timeZones = try GeoJSONReader.read(path: options.directory + "/" + names.timeZones)
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
                countries: try GeoJSONReader.read(path: options.directory + "/" + names.countries),
                admin1: try GeoJSONReader.read(path: options.directory + "/" + names.admin1),
                names: (
                    options.directory + "/" + names.timeZones, options.directory + "/" + names.countries,
                    options.directory + "/" + names.admin1
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
}
