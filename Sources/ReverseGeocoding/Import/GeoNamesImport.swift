import PhotoTagSupport

/// Reads the official GeoNames dump files into ``Place`` values.
///
/// Inputs, all tab-separated UTF-8 with no quoting (a quote character is an ordinary byte):
/// - a cities file (`cities500.txt`, `cities1000.txt`…, or `allCountries.txt`): 19 columns;
/// - `admin1CodesASCII.txt` (`CC.A1`, name, ASCII name, geonameid) and `admin2Codes.txt`
///   (`CC.A1.A2`, …), which turn admin codes into names;
/// - `countryInfo.txt` (`#` comment lines, then ISO code, ISO3, numeric, FIPS, country name, …).
///
/// A row that cannot be trusted is skipped and counted under its reason, never guessed at.
package struct GeoNamesImport: Sendable {
    /// Why a row of the cities file was skipped.
    package enum SkipReason: String, CaseIterable, Hashable, Sendable, Comparable {
        case columnCount = "wrong column count"
        case geonameId = "bad geonameid"
        case coordinates = "bad coordinates"
        case population = "bad population"
        case name = "empty name"
        case countryCode = "bad country code"
        case duplicate = "duplicate geonameid"
        case longText = "text over 65,535 bytes"

        /// Orders the reasons as they are listed, for a stable report.
        package static func < (a: SkipReason, b: SkipReason) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// The places read, in file order.
    package var places: [Place] = []
    /// Rows skipped as bad, by reason.
    package var skipped: [SkipReason: Int] = [:]
    /// Good rows left out on purpose (below the minimum population, or not a populated place).
    package var filteredOut = 0
    /// Notes for the user, e.g. a missing admin file.
    package var notes: [String] = []
    /// The path of the cities file that was read.
    package var citiesPath = ""

    /// The file names a cities dump may have.
    package static func isCitiesFile(_ name: String) -> Bool {
        name == "allCountries.txt" || (name.hasPrefix("cities") && name.hasSuffix(".txt"))
    }

    /// Imports a directory of GeoNames dumps.
    ///
    /// - Parameters:
    ///   - directory: where the dumps are.
    ///   - citiesFile: the cities file's name; `nil` picks the only one there.
    ///   - minimumPopulation: rows below it are left out.
    ///   - populatedPlacesOnly: keep only feature class `P` (what the cities files hold; relevant
    ///     for `allCountries.txt`, which also has mountains, lakes and roads).
    /// - Throws: ``ReverseGeocodingError`` when the cities file is missing or unreadable.
    package init(
        directory: String, citiesFile: String? = nil, minimumPopulation: Int = 0, populatedPlacesOnly: Bool = true
    ) throws(ReverseGeocodingError) {
        let name: String
        if let citiesFile { name = citiesFile } else { name = try Self.findCitiesFile(in: directory) }
        var notes: [String] = []
        let countries = Self.readOptional(directory, "countryInfo.txt", notes: &notes).map(Self.countryNames) ?? [:]
        let admin1 = Self.readOptional(directory, "admin1CodesASCII.txt", notes: &notes).map(Self.adminNames) ?? [:]
        let admin2 = Self.readOptional(directory, "admin2Codes.txt", notes: &notes).map(Self.adminNames) ?? [:]
        let path = directory + "/" + name
        self.init(
            cities: try readWholeFile(path), countries: countries, admin1: admin1, admin2: admin2,
            minimumPopulation: minimumPopulation, populatedPlacesOnly: populatedPlacesOnly)
        self.notes = notes
        citiesPath = path
        if places.isEmpty { throw .noPlaces(path: path) }
    }

    /// Imports dumps already in memory (the core of ``init(directory:citiesFile:minimumPopulation:populatedPlacesOnly:)``).
    init(
        cities: [UInt8], countries: [String: String], admin1: [String: String], admin2: [String: String],
        minimumPopulation: Int, populatedPlacesOnly: Bool
    ) {
        var seen = Set<Int>()
        Self.forEachLine(cities) { line in
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count == 19 else { return skipped[.columnCount, default: 0] += 1 }
            func text(_ index: Int) -> String { String(decoding: fields[index], as: UTF8.self) }
            func optional(_ index: Int) -> String? { fields[index].isEmpty ? nil : text(index) }
            guard let id = Int(text(0)), id > 0, id <= Int(UInt32.max) else {
                return skipped[.geonameId, default: 0] += 1
            }
            guard let latitude = DecimalNumber.parse(fields[4], exponent: .rejected),
                let longitude = DecimalNumber.parse(fields[5], exponent: .rejected),
                Coordinate(latitude: latitude, longitude: longitude) != nil
            else { return skipped[.coordinates, default: 0] += 1 }
            let population: Int
            if fields[14].isEmpty {
                population = 0
            } else if let value = Int(text(14)), value >= 0 {
                population = value
            } else {
                return skipped[.population, default: 0] += 1
            }
            guard !fields[1].isEmpty else { return skipped[.name, default: 0] += 1 }
            let country = text(8)
            guard country.utf8.count == 2, country.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                return skipped[.countryCode, default: 0] += 1
            }
            guard population >= minimumPopulation, !populatedPlacesOnly || text(6) == "P" else {
                return filteredOut += 1
            }
            // The table stores each string with a 16-bit length: a longer one is a bad row, not
            // the end of the import.
            let stored = [1, 2, 7, 10, 11, 12, 13, 17]
            guard stored.allSatisfy({ fields[$0].count <= Self.longestText }) else {
                return skipped[.longText, default: 0] += 1
            }
            guard seen.insert(id).inserted else { return skipped[.duplicate, default: 0] += 1 }
            let admin1Code = optional(10), admin2Code = optional(11)
            places.append(
                Place(
                    geonameId: id, name: text(1), asciiName: optional(2) ?? text(1),
                    admin1: admin1Code.flatMap { admin1["\(country).\($0)"] },
                    admin2: admin2Code.flatMap { code in admin1Code.flatMap { admin2["\(country).\($0).\(code)"] } },
                    admin1Code: admin1Code, admin2Code: admin2Code, admin3Code: optional(12), admin4Code: optional(13),
                    countryCode: country, country: countries[country],
                    timeZone: optional(17), population: population, featureCode: optional(7), latitude: latitude,
                    longitude: longitude))
        }
    }

    /// The number of rows skipped as bad.
    package var skippedCount: Int { skipped.values.reduce(0, +) }

    /// Picks the cities file of a directory: the only `cities*.txt` or `allCountries.txt` there.
    static func findCitiesFile(in directory: String) throws(ReverseGeocodingError) -> String {
        let stream: DirectoryStream
        do {
            stream = try DirectoryStream(directory)
        } catch {
            throw .cannotRead(path: directory, reason: error.text)
        }
        var found: [String] = []
        while let entry = stream.next() {
            let name = String(decoding: entry.name, as: UTF8.self)
            if isCitiesFile(name) { found.append(name) }
        }
        found.sort()
        guard found.count == 1 else {
            throw .noCitiesFile(
                directory: directory,
                reason: found.isEmpty
                    ? "expected cities500.txt, cities1000.txt… or allCountries.txt"
                    : "found \(found.joined(separator: ", ")); choose one with --cities")
        }
        return found[0]
    }

    private static func readOptional(_ directory: String, _ name: String, notes: inout [String]) -> [UInt8]? {
        do {
            return try readWholeFile(directory + "/" + name)
        } catch {
            notes.append("\(name) not read (\(error)); its names are left empty")
            return nil
        }
    }

    /// The longest string the table stores (its length is a `UInt16`).
    static let longestText = Int(UInt16.max)

    /// `countryInfo.txt`: ISO code (column 0) → country name (column 4).
    static func countryNames(_ bytes: [UInt8]) -> [String: String] {
        var names: [String: String] = [:]
        forEachLine(bytes) { line in
            guard line.first != UInt8(ascii: "#") else { return }
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count > 4, !fields[0].isEmpty, !fields[4].isEmpty, fields[4].count <= longestText else {
                return
            }
            names[String(decoding: fields[0], as: UTF8.self)] = String(decoding: fields[4], as: UTF8.self)
        }
        return names
    }

    /// `admin1CodesASCII.txt` / `admin2Codes.txt`: code (column 0) → name (column 1).
    static func adminNames(_ bytes: [UInt8]) -> [String: String] {
        var names: [String: String] = [:]
        forEachLine(bytes) { line in
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty, fields[1].count <= longestText else {
                return
            }
            names[String(decoding: fields[0], as: UTF8.self)] = String(decoding: fields[1], as: UTF8.self)
        }
        return names
    }

    /// Calls `body` with each non-empty line, without its `\n` (or `\r\n`).
    /// A UTF-8 byte-order mark at the start of a file (some editors and exports write one) is
    /// not part of its first line.
    static func forEachLine(_ bytes: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let next = end + 1
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            if end > start { body(bytes[start..<end]) }
            start = next
        }
    }
}
