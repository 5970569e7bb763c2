import Foundation
import TestSupport
import Testing

@testable import ReverseGeocoding

/// `phototag places import`'s core, on the tiny dumps in `Fixtures/geonames/`.
@Suite struct ImportTests {
    static let dump = try! GeoNamesImport(directory: Fixtures.geonames)

    @Test func goodRowsAreImportedWithTheirNamesResolved() throws {
        // In file order.
        #expect(
            Self.dump.places.map(\.geonameId) == [
                2988507, 2995469, 5391959, 2198148, 4032243, 3833367, 7000001, 7000002,
            ])
        let paris = try #require(Self.dump.places.first)
        #expect(
            paris
                == Place(
                    geonameId: 2988507, name: "Paris", asciiName: "Paris", admin1: "Île-de-France", admin2: "Paris",
                    admin1Code: "11", admin2Code: "75", countryCode: "FR", country: "France", timeZone: "Europe/Paris",
                    population: 2_138_551, featureCode: "PPLC", latitude: 48.85341, longitude: 2.3488))
        let tonga = try #require(Self.dump.places.first { $0.geonameId == 4032243 })
        #expect(tonga.name == "Nuku‘alofa")
        #expect(tonga.asciiName == "Nuku`alofa")
        #expect(tonga.admin2 == nil)  // no admin2 code in the row
    }

    /// Issue 27, §2: the admin-3 and admin-4 codes (columns 13 and 14) are imported, and a
    /// place's municipality code is the one of its country's level: Marseille's commune,
    /// `13055`, is its admin-4; Paris has none in the dump, and a US county is no municipality.
    @Test func adminThreeAndFourCodesGiveTheMunicipalityCode() throws {
        let marseille = try #require(Self.dump.places.first { $0.geonameId == 2995469 })
        #expect(marseille.admin3Code == "133" && marseille.admin4Code == "13055")
        #expect(marseille.municipalityCode == "13055")
        #expect(Self.dump.places[0].admin4Code == nil && Self.dump.places[0].municipalityCode == nil)
        let sanFrancisco = try #require(Self.dump.places.first { $0.geonameId == 5391959 })
        #expect(sanFrancisco.admin2Code == "075" && sanFrancisco.municipalityCode == nil)
        // Through the table, borrowed as geocode reads it and made into a Place.
        let geocoder = try ReverseGeocoder(
            tableBytes: try PlaceTableBuilder(source: "s", date: "d").build(Self.dump.places))
        let match = try #require(geocoder.nearestPlaceView(to: Coordinate(latitude: 43.3, longitude: 5.4)!))
        #expect(match.view.municipalityCode.map { String(decoding: $0, as: UTF8.self) } == "13055")
        #expect(match.placeMatch.place == marseille)
    }

    /// Each row stores its municipality's main place: the most populous place of the same code
    /// chain that is not a section (`PPLX`), ties to the smaller geonameid; a section points to
    /// it, and a place without a municipality code (a US county is none) to no place.
    @Test func theTableStoresEachMunicipalitysMainPlace() throws {
        func place(
            _ id: Int, _ name: String, _ population: Int, _ code: String?, _ feature: String?, lon: Double
        )
            -> Place
        {
            Place(
                geonameId: id, name: name, asciiName: name, admin1Code: "16", admin3Code: "11000",
                admin4Code: code, countryCode: "DE", population: population, featureCode: feature,
                latitude: 52.5, longitude: lon)
        }
        let places = [
            place(1, "Bigger Section", 5_000_000, "11000000", "PPLX", lon: 13.0),
            place(2, "Berlin", 3_000_000, "11000000", "PPLC", lon: 13.1),
            place(3, "Dahlem", 16_000, "11000000", "PPLX", lon: 13.2),
            place(4, "Twin", 3_000_000, "11000000", nil, lon: 13.3),
            place(5, "Elsewhere", 100, "12069616", "PPL", lon: 13.4),
            place(6, "Uncoded", 50, nil, nil, lon: 13.5),
            Place(
                geonameId: 7, name: "County Seat", asciiName: "County Seat", admin1Code: "CA", admin2Code: "075",
                countryCode: "US", population: 1000, latitude: 37, longitude: -122),
        ]
        let geocoder = try ReverseGeocoder(
            tableBytes: try PlaceTableBuilder(source: "s", date: "d").build(places))
        let table = geocoder.table
        func main(of id: Int) -> Int? {
            let slot = (0..<table.count).first { Int(table.geonameId(at: $0)) == id }!
            return table.municipalMain(at: slot).map { Int(table.geonameId(at: $0)) }
        }
        // Berlin and Twin tie on population: the smaller geonameid; the larger section is no main.
        #expect([1, 2, 3, 4].map(main(of:)) == [2, 2, 2, 2])
        #expect(main(of: 5) == 5)
        #expect(main(of: 6) == nil && main(of: 7) == nil)
    }

    /// The borrowed lookup of a country's municipality level agrees with the table of levels for
    /// every two-letter code.
    @Test func theMunicipalityLevelOfBorrowedCodesIsTheTables() {
        for first in UInt8(0x41)...0x5A {
            for second in UInt8(0x41)...0x5A {
                let code = String(decoding: [first, second], as: UTF8.self)
                let level = [first, second].withUnsafeBytes { Place.municipalityLevel($0) }
                #expect(level == (Place.municipalityLevel[code] ?? 0), "\(code)")
            }
        }
        #expect([UInt8(0x64), 0x65].withUnsafeBytes { Place.municipalityLevel($0) } == 0)  // "de": not a code
    }

    @Test func quotesAreOrdinaryCharactersAndUnknownCodesStayEmpty() throws {
        let big = try #require(Self.dump.places.first { $0.geonameId == 7000001 })
        #expect(big.name == "\"Big\" Town")
        #expect(big.country == nil)  // ZZ is not in countryInfo.txt
        #expect(big.featureCode == nil)
        #expect(big.timeZone == nil)
        let tiny = try #require(Self.dump.places.first { $0.geonameId == 7000002 })
        #expect(tiny.admin1Code == "99")
        #expect(tiny.admin1 == nil)  // FR.99 is not in admin1CodesASCII.txt
    }

    @Test func badRowsAreSkippedAndCountedByReason() {
        #expect(
            Self.dump.skipped == [
                .columnCount: 1, .geonameId: 1, .coordinates: 2, .population: 1, .duplicate: 1,
            ])
        #expect(Self.dump.skippedCount == 6)
        #expect(Self.dump.filteredOut == 1)  // the lake (feature class H)
        #expect(Self.dump.notes == [])
    }

    /// The fixture dump's cities, as bytes, with `change` made to them.
    static func cities(_ change: (String) -> String) throws -> [UInt8] {
        Array(change(try String(contentsOfFile: Fixtures.geonames + "/cities-test.txt", encoding: .utf8)).utf8)
    }

    @Test func aNameTooLongForTheTableIsOneBadRowNotAFailedImport() throws {
        let long = String(repeating: "x", count: 70_000)
        let cities = try Self.cities {
            $0.replacingOccurrences(of: "\tMarseille\tMarseille\t", with: "\t\(long)\tMarseille\t")
        }
        let dump = GeoNamesImport(
            cities: cities, countries: [:], admin1: [:], admin2: [:], minimumPopulation: 0, populatedPlacesOnly: true)
        #expect(dump.skipped[.longText] == 1)
        #expect(dump.places.count == Self.dump.places.count - 1)
        #expect(!dump.places.contains { $0.geonameId == 2995469 })
        // And the table builds.
        #expect(try !PlaceTableBuilder(source: "test", date: "2024-01-01").build(dump.places).isEmpty)
        // An admin name that long is left out, not the row.
        #expect(GeoNamesImport.adminNames(Array("FR.11\t\(long)\nFR.93\tProvence\n".utf8)) == ["FR.93": "Provence"])
    }

    @Test func aByteOrderMarkDoesNotCostTheFirstRow() throws {
        let cities = [0xEF, 0xBB, 0xBF] + (try Self.cities { $0 })
        let dump = GeoNamesImport(
            cities: cities, countries: [:], admin1: [:], admin2: [:], minimumPopulation: 0, populatedPlacesOnly: true)
        #expect(dump.places.first?.geonameId == 2988507)
        #expect(dump.places.count == Self.dump.places.count)
        #expect(dump.skipped == Self.dump.skipped)
        #expect(GeoNamesImport.countryNames(Array("\u{FEFF}FR\tFRA\t250\tFR\tFrance\n".utf8)) == ["FR": "France"])
    }

    @Test func filtersLeaveRowsOut() throws {
        let big = try GeoNamesImport(directory: Fixtures.geonames, minimumPopulation: 100_000)
        #expect(big.places.map(\.name) == ["Paris", "Marseille", "San Francisco"])
        // Five small places, the lake, and the duplicate of Paris (filters apply before the
        // duplicate check, which only knows rows that were kept).
        #expect(big.filteredOut == 7)
        let everything = try GeoNamesImport(directory: Fixtures.geonames, populatedPlacesOnly: false)
        #expect(everything.places.contains { $0.name == "A Lake" })
    }

    @Test func aMissingAdminFileIsANoteNotAFailure() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(
            atPath: Fixtures.geonames + "/cities-test.txt", toPath: directory + "/cities500.txt")
        let dump = try GeoNamesImport(directory: directory)
        #expect(dump.places.count == 8)
        #expect(dump.places[0].admin1 == nil)
        #expect(dump.places[0].country == nil)
        #expect(
            dump.notes == [
                "countryInfo.txt not read (cannot read \(directory)/countryInfo.txt: no such file or directory); its names are left empty",
                "admin1CodesASCII.txt not read (cannot read \(directory)/admin1CodesASCII.txt: no such file or directory); its names are left empty",
                "admin2Codes.txt not read (cannot read \(directory)/admin2Codes.txt: no such file or directory); its names are left empty",
            ])
    }

    @Test func theCitiesFileMustBeUnambiguous() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(
            throws: ReverseGeocodingError.noCitiesFile(
                directory: directory, reason: "expected cities500.txt, cities1000.txt… or allCountries.txt")
        ) {
            try GeoNamesImport(directory: directory)
        }
        for name in ["cities500.txt", "cities15000.txt"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.geonames + "/cities-test.txt", toPath: directory + "/" + name)
        }
        #expect(
            throws: ReverseGeocodingError.noCitiesFile(
                directory: directory, reason: "found cities15000.txt, cities500.txt; choose one with --cities")
        ) {
            try GeoNamesImport(directory: directory)
        }
        #expect(try GeoNamesImport(directory: directory, citiesFile: "cities500.txt").places.count == 8)
    }

    @Test func theImportedTableAnswersQueries() throws {
        let table = try PlaceTableBuilder(source: "GeoNames cities-test.txt", date: "2024-01-01").build(
            Self.dump.places)
        let geocoder = try ReverseGeocoder(tableBytes: table)
        #expect(geocoder.placeCount == 8)
        #expect(geocoder.source == "GeoNames cities-test.txt")
        #expect(geocoder.date == "2024-01-01")
        let match = try #require(geocoder.nearestPlace(to: Coordinate(latitude: 48.858222, longitude: 2.2945)!))
        #expect(match.place == Self.dump.places[0])
        // Suva is nearer than Nuku‘alofa from a point east of the antimeridian.
        #expect(geocoder.nearestPlace(to: Coordinate(latitude: -18.5, longitude: -179.9)!)?.place.name == "Suva")
    }

    @Test func tablesAreByteForByteReproducibleWhateverTheInputOrder() throws {
        let builder = PlaceTableBuilder(source: "s", date: "d")
        let places = RandomPlaces.table(count: 300, seed: 5)
        var random = SeededGenerator(state: 11)
        #expect(try builder.build(places) == builder.build(places.shuffled(using: &random)))
    }
}

/// Opening damaged or foreign files as tables.
@Suite struct PlaceTableFileTests {
    static let table = try! PlaceTableBuilder(source: "s", date: "d").build(RandomPlaces.table(count: 50, seed: 3))

    @Test func aTableFileIsMappedAndUsable() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PlaceTableBuilder.write(Self.table, to: directory + "/t.places")
        let geocoder = try ReverseGeocoder(contentsOf: directory + "/t.places")
        #expect(geocoder.placeCount == 50)
        #expect(geocoder.nearestPlace(to: Coordinate(latitude: 0, longitude: 0)!) != nil)
    }

    @Test func aGeoNamesDumpIsRecognisedAndExplained() {
        #expect(throws: ReverseGeocodingError.geoNamesDumpGiven(path: Fixtures.geonames + "/cities-test.txt")) {
            try ReverseGeocoder(contentsOf: Fixtures.geonames + "/cities-test.txt")
        }
    }

    @Test func damagedTablesAreRejectedWithAReason() {
        var truncated = Self.table
        truncated.removeLast(8)
        #expect(
            throws: ReverseGeocodingError.notAPlaceTable(
                path: "the place table", reason: "\(truncated.count) bytes, the header says \(Self.table.count)")
        ) {
            try ReverseGeocoder(tableBytes: truncated)
        }
        var version = Self.table
        version[8] = 9
        #expect(throws: ReverseGeocodingError.notAPlaceTable(path: "the place table", reason: "version 9, expected 5"))
        {
            try ReverseGeocoder(tableBytes: version)
        }
        #expect(throws: ReverseGeocodingError.notAPlaceTable(path: "the place table", reason: "10 bytes is too short"))
        {
            try ReverseGeocoder(tableBytes: Array(repeating: 0, count: 10))
        }
        #expect(throws: ReverseGeocodingError.notAPlaceTable(path: "the place table", reason: "unknown format")) {
            try ReverseGeocoder(tableBytes: Array(repeating: 0xFF, count: 100))
        }
        #expect(
            throws: ReverseGeocodingError.cannotRead(path: "/nonexistent/t.places", reason: "no such file or directory")
        ) {
            try ReverseGeocoder(contentsOf: "/nonexistent/t.places")
        }
    }

    @Test func corruptedBytesInsideATableGiveOddAnswersNotCrashes() throws {
        // Overwrite everything between the header and the string pool with a seeded pattern:
        // offsets, axes and region indices all become nonsense, and lookups must still return.
        // (A damaged string pool is refused when the table is opened: see PlaceTableTests.)
        func u32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(Self.table[offset + $1]) << (8 * $1) } }
        let layout = PlaceTableLayout(
            count: u32(PlaceTableHeader.count), regionCount: u32(PlaceTableHeader.regionCount),
            stringsSize: u32(PlaceTableHeader.stringsSize), nodeCount: u32(PlaceTableHeader.nodeCount))
        #expect(layout.totalSize == Self.table.count)
        var random = SeededGenerator(state: 1)
        for _ in 0..<20 {
            var bytes = Self.table
            for index in 64..<layout.strings where Int.random(in: 0..<4, using: &random) == 0 {
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            // Resealed: a crafted table, whose checksum is right.
            let geocoder = try ReverseGeocoder(
                tableBytes: TableChecksumTests.resealed(bytes, header: PlaceTableLayout.headerSize))
            for _ in 0..<20 {
                _ = geocoder.nearestPlaces(to: RandomPlaces.coordinate(&random), count: 3)
            }
        }
    }
}
