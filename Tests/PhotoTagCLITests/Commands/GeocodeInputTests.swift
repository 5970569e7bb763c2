import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import ReverseGeocoding

/// What `geocode` reads: headers, first lines, byte order marks, degrees-minutes-seconds, and
/// what it prints with `--coordinates dms` and `--nearest` in CSV.
@Suite struct GeocodeInputTests {
    /// One in-process run: exit status, standard output and standard error.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String], input: String = "", chunk: Int = .max) -> Run {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, input: MemoryInput(input, chunk: chunk), output: output, errors: errors)
        return Run(status: status, output: output.text, errors: errors.text)
    }

    /// The NDJSON records of a run, decoded.
    static func records(_ run: Run) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    // MARK: - Line length

    /// A line longer than 64 KiB is one error record, quoted not at all; the lines around it are
    /// read, whether it comes whole in one read or in many, and with or without its end.
    @Test(arguments: [Int.max, 4096, 100_000])
    func aLineTooLongIsAnErrorRecordAndTheRunGoesOn(chunk: Int) throws {
        let long = String(repeating: "7", count: 1 << 20)
        for input in ["48.85,2.35\n\(long)\n51.5,-0.12\n", "48.85,2.35\n51.5,-0.12\n\(long)"] {
            let run = Self.run(["geocode", "--format", "ndjson", "--no-place"], input: input, chunk: chunk)
            let records = try Self.records(run)
            #expect(records.count == 3)
            let errors = records.compactMap { $0["error"] as? String }
            #expect(errors == ["the line is longer than 65,536 bytes; not read"])
            #expect(records.filter { $0["latitude"] is Double }.count == 2)
            #expect(run.errors.hasPrefix("phototag: line "))
            #expect(run.errors.hasSuffix(": the line is longer than 65,536 bytes; not read\n"))
            #expect(run.status == 2)
        }
        // A line just under the limit is read (and, not being a coordinate, quoted shortly).
        let under = String(repeating: "x", count: (1 << 16) - 1)
        let run = Self.run(["geocode", "--format", "ndjson", "--no-place"], input: "1,2\n\(under)\n", chunk: chunk)
        let error = try #require(try Self.records(run).compactMap { $0["error"] as? String }.first)
        #expect(
            error
                == "expected 'latitude,longitude' (or separated by a tab or spaces), got '\(String(repeating: "x", count: 80))…'"
        )
    }

    // MARK: - The first line

    /// Only a real header is skipped; any other first line is a record, an error on line 1 if it
    /// is not a coordinate (it used to vanish whenever it had a letter, with exit status 0).
    @Test(
        arguments: [
            ("48°51'N 2°21'E", nil),
            ("nan,nan", "'nan' is not a number"),
            ("1e308,5", "latitude 1e308 is out of range (-90 to 90)"),
            ("inf,0", "'inf' is not a number"),
            ("Paris,2.3", "'Paris' is not a number"),
            ("48.8,2.3 # Paris", "'2.3 # Paris' is not a number"),
            ("48.8\t2.3\tx", "expected 'latitude,longitude' (or separated by a tab or spaces), got '48.8\t2.3\tx'"),
            ("lat,lon,lat", "expected 'latitude,longitude' (or separated by a tab or spaces), got 'lat,lon,lat'"),
        ] as [(String, String?)])
    func aFirstLineThatIsNotAHeaderIsARecord(line: String, error: String?) throws {
        let run = Self.run(["geocode", "--format", "ndjson"], input: line + "\n")
        let records = try Self.records(run)
        try #require(records.count == 1, "\(run)")
        #expect(records[0]["line"] as? Int == 1)
        if let error {
            #expect(records[0]["error"] as? String == error)
            // stderr shows the line with its control characters (here a tab) escaped.
            #expect(run.errors == "phototag: line 1: \(escapingControls(error))\n")
            #expect(run.status == PhotoTag.ExitStatus.unreadable)
        } else {
            #expect(records[0]["error"] is NSNull)
            #expect(abs(try #require(records[0]["latitude"] as? Double) - 48.85) < 1e-9)
            #expect(abs(try #require(records[0]["longitude"] as? Double) - 2.35) < 1e-9)
            #expect(run.errors == "")
            #expect(run.status == PhotoTag.ExitStatus.success)
        }
    }

    /// Two column names, latitude first, in any case, separated as data is, maybe quoted.
    @Test(arguments: [
        "lat,lon", "latitude,longitude", "y,x", "lat\tlng", "Latitude, Longitude", "LAT LONG", "\"lat\",\"lon\"",
        "'Lat'\t'Lng'", "  lat , lon  \r",
    ])
    func aRealHeaderIsSkipped(header: String) throws {
        let run = Self.run(["geocode", "--format", "ndjson", "--no-place"], input: header + "\n48.85,2.35\n")
        let records = try Self.records(run)
        #expect(records.count == 1)
        #expect(records.first?["line"] as? Int == 2)
        #expect(records.first?["error"] is NSNull)
        #expect(run.errors == "")
        #expect(run.status == PhotoTag.ExitStatus.success)
    }

    /// A header anywhere but on the first line with content is an error, and says why.
    @Test func aHeaderAfterTheFirstLineIsAnError() throws {
        let run = Self.run(["geocode", "--no-place"], input: "\n1,2\nlat,lon\n")
        #expect(
            run.errors
                == "phototag: line 3: 'lat,lon' is a header, which is only read as one on the first line of standard input\n"
        )
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }

    /// Standard input with no coordinate (empty, blank, only a header) is not a silent success.
    @Test(arguments: ["", "\n\n  \n", "lat,lon\n", "latitude\tlongitude"])
    func inputWithoutCoordinatesIsAnError(input: String) {
        let text = Self.run(["geocode", "--no-place"], input: input)
        #expect(text.status == PhotoTag.ExitStatus.unreadable)
        #expect(text.errors == "phototag: no coordinates on standard input\n")
        #expect(text.output == "")
        let json = Self.run(["geocode", "--no-place", "--json"], input: input)
        #expect(json.status == PhotoTag.ExitStatus.unreadable)
        #expect(json.output == "[]\n")  // still valid JSON
    }

    /// An empty argument is a record with an error, as any bad argument is, not skipped.
    @Test func anEmptyArgumentIsAnErrorRecord() {
        let run = Self.run(["geocode", "--no-place", "1,2", ""])
        #expect(
            run.output
                == "1.000000, 2.000000       no place\nerror: expected 'latitude,longitude' (or separated by a tab or spaces), got ''\n"
        )
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }

    /// A UTF-8 byte order mark (as Excel and Notepad write) before a header or a coordinate is
    /// dropped, however the input is split.
    @Test(arguments: [1, 2, 3, 4, Int.max])
    func aByteOrderMarkIsDropped(chunk: Int) throws {
        for input in ["\u{FEFF}48.85,2.35\n", "\u{FEFF}lat,lon\r\n48.85,2.35\r\n", "\u{FEFF}48.85,2.35"] {
            let run = Self.run(["geocode", "--no-place", "--format", "ndjson"], input: input, chunk: chunk)
            let records = try Self.records(run)
            #expect(records.count == 1, "\(input.debugDescription) in chunks of \(chunk)")
            #expect(records.first?["latitude"] as? Double == 48.85)
            #expect(run.errors == "")
            #expect(run.status == PhotoTag.ExitStatus.success)
        }
        // Elsewhere it is an invisible character of a coordinate copied from a web page
        // (Wikipedia puts U+FEFF around its " / "), read as nothing; it used to be an error.
        let run = Self.run(["geocode", "--no-place", "--format", "ndjson"], input: "1,2\n\u{FEFF}3,4\n", chunk: chunk)
        #expect(try Self.records(run).map { $0["latitude"] as? Double } == [1, 3])
        #expect(run.status == PhotoTag.ExitStatus.success)
    }

    /// `geocode 48.8 2.3` is a usage error that shows the one argument meant.
    @Test func aLatitudeAndLongitudeAsTwoArgumentsGetAHint() {
        for (arguments, hint) in [
            (["geocode", "48.8", "2.3"], "'48.8' and '2.3' are two arguments; did you mean '48.8,2.3'?"),
            (
                ["geocode", "1,2", "-33.9", "151.2"],
                "'-33.9' and '151.2' are two arguments; did you mean '-33.9,151.2'?"
            ),
        ] {
            let run = Self.run(arguments)
            #expect(run.status == PhotoTag.ExitStatus.usage)
            #expect(run.errors.hasPrefix("Error: \(hint)\n"), "\(run.errors)")
            #expect(run.output == "")
        }
        // One number alone is still an error record, not a usage error.
        #expect(Self.run(["geocode", "--no-place", "48.8"]).status == PhotoTag.ExitStatus.unreadable)
    }

    // MARK: - Degrees, minutes and seconds

    static let paris = (48 + 51 / 60 + 29.6 / 3600, 2 + 17 / 60 + 40.2 / 3600)

    @Test(
        arguments: [
            (#"48°51'29.6"N 2°17'40.2"E"#, paris.0, paris.1),
            ("48°51′29.6″N 2°17′40.2″E", paris.0, paris.1),
            ("48°51′29.6″N\u{A0}2°17′40.2″E", paris.0, paris.1),
            ("48 51 29.6 N, 2 17 40.2 E", paris.0, paris.1),
            ("N 48 51 29.6 E 2 17 40.2", paris.0, paris.1),
            ("48º51'29.6''N 2º17'40.2''E", paris.0, paris.1),
            ("48°51’29.6”N, 2°17’40.2”E", paris.0, paris.1),
            (#"48° 51' 29.6" N, 2° 17' 40.2" E"#, paris.0, paris.1),
            ("N48.8582 E2.2945", 48.8582, 2.2945),
            ("48.8582N 2.2945E", 48.8582, 2.2945),
            ("48.8582N,2.2945E", 48.8582, 2.2945),
            ("48.8582° N, 2.2945° E", 48.8582, 2.2945),
            ("48.8582°N 2.2945°E", 48.8582, 2.2945),
            ("48°51.4938'N 2°17.67'E", 48 + 51.4938 / 60, 2 + 17.67 / 60),
            ("E2.2945 N48.8582", 48.8582, 2.2945),
            ("2.2945°E, 48.8582°N", 48.8582, 2.2945),
            ("33°52'7.7\"S 151°12'33.5\"E", -(33 + 52 / 60 + 7.7 / 3600), 151 + 12 / 60 + 33.5 / 3600),
            ("22°57'S, 43°12'W", -(22 + 57 / 60), -(43 + 12 / 60)),
            ("s 33.9 w 151.2", -33.9, -151.2),
            ("-33.8688°, 151.2093°", -33.8688, 151.2093),
            ("\u{2212}33.8688, 151.2093", -33.8688, 151.2093),
            ("0°N 180°W", 0, -180),
            ("90°S 0°E", -90, 0),
        ] as [(String, Double, Double)])
    func degreesMinutesAndSecondsAreRead(text: String, latitude: Double, longitude: Double) throws {
        let coordinate = try parseCoordinate(Array(text.utf8)[...]).get()
        #expect(abs(coordinate.latitude - latitude) < 1e-9, "\(coordinate)")
        #expect(abs(coordinate.longitude - longitude) < 1e-9, "\(coordinate)")
    }

    @Test(
        arguments: [
            ("-48°S 2°E", "'-48°S 2°E': a minus sign and the letter S together; use one or the other"),
            ("48°61'N 2°E", "'48°61'N 2°E': minutes must be under 60"),
            (#"48°51'60"N 2°E"#, #"'48°51'60"N 2°E': seconds must be under 60"#),
            ("48°N 2°N", "'48°N 2°N': both values are latitudes (N or S); the longitude needs E or W"),
            ("2°E 48°W", "'2°E 48°W': both values are longitudes (E or W); the latitude needs N or S"),
            ("48°N 2°", "'48°N 2°': give both values a hemisphere letter (N or S, E or W), or neither"),
            ("48.5°30'N 2°E", "'48.5°30'N 2°E': degrees must be whole when minutes follow"),
            (#"48°29.6"N 2°E"#, #"'48°29.6"N 2°E': seconds without minutes"#),
            (#"51'29"N 2°E"#, #"'51'29"N 2°E': '51'29"N' has minutes but no degrees"#),
            ("48°N", "'48°N': expected a latitude and a longitude, found 1 value"),
            ("48°N 2°E 3°E", "'48°N 2°E 3°E': expected a latitude and a longitude, found 3 values"),
            ("N48 E", "'N48 E': 'E' has no number"),
            ("NN48 E2", "'NN48 E2': two hemisphere letters in a row"),
            ("48°N, , 2°E", "'48°N, , 2°E': a comma with no number before it"),
            ("48°N 2°E,", "'48°N 2°E,': a comma with no number after it"),
            (
                "\u{2212}48 51, 2 17",
                "'\u{2212}48 51, 2 17': '\u{2212}48 51' is ambiguous; mark degrees, minutes and seconds (48°51'29.6\") or add N/S and E/W"
            ),
            ("48°N 2°E x", "'48°N 2°E x': unexpected 'x'"),
            (
                "48 51 2 17 N",
                "'48 51 2 17 N': cannot tell where the latitude ends; put a comma or hemisphere letters between the values"
            ),
            ("48°1.2.3'N 2°E", "'48°1.2.3'N 2°E': '1.2.3' is not a number"),
            ("91°N 2°E", "latitude 91°N is out of range (-90 to 90)"),
            ("48°N 181°E", "longitude 181°E is out of range (-180 to 180)"),
            // Without marks or letters, numbers with spaces are not read as DMS.
            ("48 51 29.6, 2 17 40.2", "'48 51 29.6' is not a number"),
        ] as [(String, String)])
    func badDegreesMinutesAndSecondsSayWhy(text: String, message: String) {
        switch parseCoordinate(Array(text.utf8)[...]) {
        case .success(let coordinate): Issue.record("\(text) read as \(coordinate)")
        case .failure(let problem): #expect(problem.description == message)
        }
    }

    /// `scan --near` reads coordinates as `geocode` does.
    @Test func nearTakesDegreesMinutesAndSeconds() throws {
        let options = try #require(
            Invocation.parse(["scan", "--near", "33°52'S 151°12'E", "--within", "5", "."]).scanOptions, "not a scan")
        #expect(abs(try #require(options.selection.near).latitude + (33 + 52 / 60)) < 1e-9)
    }

    // MARK: - --coordinates dms

    @Test func dmsTextHasOneWidthAndReadsBack() throws {
        #expect(coordinateText(Self.paris.0, Self.paris.1, style: .dms) == #"48°51'29.60"N   2°17'40.20"E"#)
        #expect(coordinateText(-8.05, -179.5, style: .dms) == #" 8°03'00.00"S 179°30'00.00"W"#)
        // Rounding carries into minutes and degrees; a value that rounds to 0 has no sign.
        #expect(coordinateText(-0.000_000_1, 179.999_999_9, style: .dms) == #" 0°00'00.00"N 180°00'00.00"E"#)
        #expect(coordinateText(10.999_999_99, 0, style: .dms) == #"11°00'00.00"N   0°00'00.00"E"#)
        var random = SeededGenerator(state: 7)
        for _ in 0..<2000 {
            let latitude = Double.random(in: -90...90, using: &random)
            let longitude = Double.random(in: -180...180, using: &random)
            let text = coordinateText(latitude, longitude, style: .dms)
            #expect(text.count == 28, "\(text)")
            let back = try parseCoordinate(Array(text.utf8)[...]).get()
            #expect(abs(back.latitude - latitude) <= 0.005 / 3600 + 1e-12, "\(text)")
            #expect(abs(back.longitude - longitude) <= 0.005 / 3600 + 1e-12, "\(text)")
        }
    }

    @Test func coordinatesDMSChangesTextOnly() throws {
        let point = "48.858222,2.2945"
        let text = Self.run(["geocode", "--no-place", "--coordinates", "dms", point])
        #expect(text.output == #"48°51'29.60"N   2°17'40.20"E  no place"# + "\n")
        let located = Self.run(["locate", "--coordinates=dms", Fixtures.photo("altitude-wrapped.jpg")])
        #expect(located.output.contains(#"52°22'00.00"N   4°53'00.00"E  Amsterdam"#), "\(located.output)")
        for format in ["json", "ndjson", "csv", "geojson"] {
            let plain = Self.run(["geocode", "--format", format, point])
            let dms = Self.run(["geocode", "--format", format, "--coordinates", "dms", point])
            #expect(dms.output == plain.output, "\(format)")
            #expect(dms.status == 0)
        }
        let bad = Self.run(["geocode", "--coordinates", "degrees", point])
        #expect(bad.status == PhotoTag.ExitStatus.usage)
        #expect(bad.errors.hasPrefix("Error: unknown coordinate style 'degrees' (choose from decimal, dms)\n"))
    }

    // MARK: - --nearest with CSV

    /// The k nearest places get columns of their own, for locate, scan and geocode alike.
    @Test func csvHasColumnsForTheNearestPlaces() throws {
        let runs = [
            Self.run(["geocode", "--format", "csv", "--nearest", "3"], input: "48.85,2.35\n-33.9,151.2\n95,1\n"),
            Self.run(["locate", "--format", "csv", "--nearest", "3", Fixtures.photo("altitude-wrapped.jpg")]),
            Self.run([
                "scan", "--format", "csv", "--nearest", "3", "--with-gps", "--no-progress", Fixtures.root + "/photos",
            ]),
        ]
        for run in runs {
            let rows = try parseCSV(run.output)
            try #require(rows.count >= 2, "\(run)")
            let header = rows[0]
            #expect(rows.allSatisfy { $0.count == header.count })
            for index in 1...3 {
                for field in ["geoname_id", "name", "admin1", "country_code", "distance_km", "bearing"] {
                    #expect(header.contains("nearby_\(index)_\(field)"))
                }
            }
            #expect(!header.contains("nearby_4_name"))
            #expect(header.firstIndex(of: "nearby_1_geoname_id") == header.firstIndex(of: "place_sea")! + 1)
            let column = { (name: String) in header.firstIndex(of: name)! }
            for row in rows.dropFirst() where !row[column("place_name")].isEmpty {
                // The nearest place of all; the named place is the nearest in the point's country.
                let nearestKm = Double(row[column("nearby_1_distance_km")]) ?? .infinity
                #expect(nearestKm <= Double(row[column("place_distance_km")]) ?? -1)
                if row[column("nearby_1_country_code")] == row[column("place_country_code")] {
                    #expect(row[column("nearby_1_name")] == row[column("place_name")])
                }
                #expect(!row[column("nearby_3_name")].isEmpty)
                #expect(!row[column("nearby_3_geoname_id")].isEmpty)
                #expect(Double(row[column("nearby_3_distance_km")])! >= Double(row[column("nearby_2_distance_km")])!)
            }
        }
        // Without --nearest, the columns are as before.
        let plain = try parseCSV(Self.run(["geocode", "--format", "csv", "1,2"]).output)
        #expect(plain[0] == CSVColumns.coordinate)
    }
}

/// `geocode --format geojson` is for maps: the lines that are not coordinates are reported on
/// stderr and in the exit status, not written as `null`-geometry features (unless asked).
@Suite struct GeocodeGeoJSONTests {
    /// Input with a bad line first, then every `badEvery`-th line bad, `count` lines in all.
    static func input(count: Int, badEvery: Int) -> (text: String, good: Int) {
        var lines: [String] = []
        var good = 0
        for index in 0..<count {
            if index == 0 || index % badEvery == 0 {
                lines.append("not a coordinate \(index)")
            } else {
                lines.append("\(Double(index % 170) - 85),\(Double(index % 350) - 175)")
                good += 1
            }
        }
        return (lines.joined(separator: "\n") + "\n", good)
    }

    static func features(
        _ arguments: [String], _ input: String
    ) throws -> (features: [[String: Any]], run: GeocodeInputTests.Run) {
        let run = GeocodeInputTests.run(["geocode", "--no-place", "--format", "geojson"] + arguments, input: input)
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output.prefix(300))"
        )
        return (try #require(collection["features"] as? [[String: Any]]), run)
    }

    /// Small inputs take one part and big ones are split across the cores; either way the output
    /// is one valid collection of exactly the coordinates, in input order.
    @Test(arguments: [(10, 3), (5000, 7), (9000, 2)])
    func onlyCoordinatesAreFeatures(count: Int, badEvery: Int) throws {
        let (text, good) = Self.input(count: count, badEvery: badEvery)
        let (features, run) = try Self.features([], text)
        #expect(features.count == good)
        #expect(features.allSatisfy { $0["geometry"] is [String: Any] })
        let lines = features.compactMap { ($0["properties"] as? [String: Any])?["line"] as? Int }
        #expect(lines == lines.sorted() && lines.count == good)
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
        #expect(run.errors.split(separator: "\n").count == count - good)

        let (every, _) = try Self.features(["--all-records"], text)
        #expect(every.count == count)
    }

    @Test func nothingButBadLinesIsAnEmptyCollection() throws {
        let (features, run) = try Self.features([], "bad\nworse\n")
        #expect(features.isEmpty)
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }

    @Test func allRecordsIsOnlyForGeoJSON() {
        let run = GeocodeInputTests.run(["geocode", "--all-records", "1,2"])
        #expect(run.status == PhotoTag.ExitStatus.usage)
        #expect(run.errors.contains("'--all-records' is for --format geojson"))
    }

    /// A rejected line is echoed on stderr with its control characters escaped, so no escape
    /// sequence reaches the terminal.
    @Test func rejectedInputOnStderrHasNoControlCharacters() {
        let run = GeocodeInputTests.run(["geocode", "--no-place"], input: "a\u{1B}[31m,b\n")
        #expect(!run.errors.isEmpty)
        #expect(!run.errors.unicodeScalars.contains { $0.value == 0x1B })
        #expect(run.errors.contains("\\x1b[31m"))
    }
}

/// `geocode` answers by containment with the bundled tables.
@Suite struct GeocodeContainmentTests {
    @Test func atSeaTheRecordSaysSo() throws {
        let run = GeocodeInputTests.run(["geocode", "--format", "ndjson", "0,-30", "51.4408,4.9269"])
        let records = try GeocodeInputTests.records(run)
        try #require(records.count == 2)
        let sea = try #require(records[0]["place"] as? [String: Any])
        #expect(sea["countryCode"] is NSNull && sea["basis"] as? String == "nearest")
        #expect(sea["timezone"] as? String == "Etc/GMT+2")
        #expect(records[0]["warnings"] as? [String] == ["the position is at sea: no country contains it"])
        let baarle = try #require(records[1]["place"] as? [String: Any])
        #expect(baarle["countryCode"] as? String == "BE" && baarle["basis"] as? String == "boundaries")
        #expect(records[1]["warnings"] as? [String] == [])
        #expect(sea["sea"] as? String == "South Atlantic Ocean" && baarle["sea"] is NSNull)
        let text = GeocodeInputTests.run(["geocode", "0,-30"]).output
        #expect(
            text.hasSuffix(
                "South Atlantic Ocean — nearest place Fernando de Noronha (Distrito Estadual), Pernambuco, BR, 504.1 km NE\n"
            ))
        let csv = try parseCSV(GeocodeInputTests.run(["geocode", "--format", "csv", "0,-30"]).output)
        let column = try #require(csv.first?.firstIndex(of: "warnings"))
        #expect(csv[1][column] == "the position is at sea: no country contains it")
    }
}

/// A read error on standard input is reported, never taken for the end of the input (before,
/// `geocode < dir` said "no coordinates" and a failed read mid-way ended the run as a success).
@Suite struct StandardInputReadErrorTests {
    static func run(_ arguments: [String], _ text: String) -> GeocodeInputTests.Run {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(
            arguments, input: MemoryInput(text, failure: EIO), output: output, errors: errors)
        return GeocodeInputTests.Run(status: status, output: output.text, errors: errors.text)
    }

    @Test func geocodeReportsAFailedReadAndDropsTheCutLine() throws {
        let run = Self.run(["geocode", "--no-place", "--format", "ndjson"], "1,2\n3,")
        let records = try GeocodeInputTests.records(run)
        #expect(records.count == 1)
        #expect(run.errors == "phototag: standard input: cannot read: input/output error\n")
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }

    @Test func locateOfStandardInputReportsAFailedRead() {
        let run = Self.run(["locate", "--no-place", "--format", "csv", "-"], "\u{FF}\u{D8}")
        #expect(run.output.contains("cannot read: input/output error"))
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }

    @Test func aListOnStandardInputReportsAFailedRead() {
        let run = Self.run(["scan", "--no-place", "--files-from", "-"], "")
        #expect(run.errors.contains("phototag: standard input: cannot read: input/output error"))
        #expect(run.status == PhotoTag.ExitStatus.unreadable)
    }
}
