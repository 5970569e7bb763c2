import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import ReverseGeocoding

/// Command lines parsed in-process: every option, both spellings, `--`, typos, bad values.
@Suite struct ParsingTests {
    static func parse(_ arguments: String...) throws -> Invocation { try Invocation.parse(arguments) }

    static func files(_ names: String...) -> [Argument] { names.map(Argument.init) }

    @Test func locateDefaults() throws {
        #expect(
            try Self.parse("locate", "a.jpg", "b.jpg") == .locate(LocateOptions(files: Self.files("a.jpg", "b.jpg"))))
    }

    @Test func everySharedOptionInBothSpellings() throws {
        var expected = LocateOptions(files: Self.files("a.jpg"))
        expected.output = OutputOptions(format: .ndjson, quiet: true, progress: false, summary: true)
        expected.place = PlaceOptions(
            places: "t.places", nearest: 3, filter: PlaceFilter(maximumDistanceKm: 2.5, minimumPopulation: 1000))
        let spaced = try Self.parse(
            "locate", "--format", "ndjson", "-q", "--no-progress", "--summary", "--places", "t.places", "--nearest",
            "3",
            "--max-distance", "2.5", "--min-population", "1000", "a.jpg")
        let joined = try Self.parse(
            "locate", "--format=ndjson", "--quiet", "--progress", "--no-progress", "--summary", "--places=t.places",
            "--nearest=3", "--max-distance=2.5", "--min-population=1000", "a.jpg")
        #expect(spaced == .locate(expected))
        #expect(joined == .locate(expected))
    }

    @Test func theLaterOfProgressAndNoProgressWins() throws {
        let on = try #require(
            Self.parse("locate", "--no-progress", "--progress", "a.jpg").locateOptions, "not a locate")
        #expect(on.output.progress == true)
        let auto = try #require(Self.parse("locate", "a.jpg").locateOptions, "not a locate")
        #expect(auto.output.progress == nil)
    }

    @Test func jsonIsShortForFormatJSON() throws {
        let options = try #require(Self.parse("geocode", "--json", "1,2").geocodeOptions, "not a geocode")
        #expect(options.output.format == .json)
        #expect(options.coordinates == Self.files("1,2"))
    }

    @Test func scanOptions() throws {
        var expected = ScanOptions(paths: Self.files("~/Pictures", "/tmp"))
        expected.allFiles = true
        expected.hidden = true
        expected.sort = true
        expected.selection.gpsFilter = .withGPS
        expected.selection.near = Coordinate(latitude: 48.85, longitude: 2.29)
        expected.selection.within = 10
        expected.place.skip = true
        let parsed = try Self.parse(
            "scan", "--all-files", "--hidden", "--sort", "--with-gps", "--near", "48.85,2.29", "--within=10",
            "--no-place", "~/Pictures", "/tmp")
        #expect(parsed == .scan(expected))
        let without = try #require(Self.parse("scan", "--without-gps", ".").scanOptions, "not a scan")
        #expect(without.selection.gpsFilter == .withoutGPS)
    }

    @Test func doubleDashEndsOptionsAndNegativeCoordinatesAreNotOptions() throws {
        #expect(
            try Self.parse("locate", "--", "--json", "-q") == .locate(LocateOptions(files: Self.files("--json", "-q"))))
        let options = try #require(Self.parse("geocode", "-33.9,151.2", "-", "--json").geocodeOptions, "not a geocode")
        #expect(options.coordinates == Self.files("-33.9,151.2", "-"))
        #expect(options.output.format == .json)
    }

    @Test func helpVersionAndCommandsWithoutOptions() throws {
        #expect(try Self.parse() == .help([]))
        #expect(try Self.parse("-h") == .help([]))
        #expect(try Self.parse("help", "scan") == .help([.scan]))
        #expect(try Self.parse("help", "places", "info") == .help([.placesInfo]))
        #expect(try Self.parse("geocode", "--help") == .help([.geocode]))
        #expect(try Self.parse("--version") == .version)
        #expect(try Self.parse("completions", "zsh") == .completions(.zsh))
        #expect(try Self.parse("manpage") == .manpage)
        #expect(try Self.parse("places", "info") == .placesInfo(places: nil))
    }

    @Test func optionsAreReadThroughTheConstantsOfTheCommandsOwnSpec() throws {
        let parsed = try Commands.placesImport.parse(
            ["--min-population", "5", "--all-features"].map(Argument.init), command: .placesImport)
        #expect(parsed.last(Options.importMinPopulation) == "5")
        #expect(parsed.has(Options.allFeatures))
        #expect(!parsed.has(Options.placesDate))
        // Every command's spec lists each of its options once: two constants of one name (the
        // two imports' `--from`) never meet in one command.
        for command in Command.allCases {
            let names = command.spec.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.rawValue)")
        }
    }

    @Test func askingForAnOptionTheCommandDoesNotTakeTraps() async {
        // The place filter's --min-population is not the import's (their help differs): a command
        // that reads the wrong constant stops at once instead of reading "not given".
        await #expect(processExitsWith: .failure) {
            let parsed = try Commands.placesImport.parse([], command: .placesImport)
            _ = parsed.has(Options.minPopulation)
        }
        await #expect(processExitsWith: .failure) {
            let parsed = try Commands.geocode.parse([], command: .geocode)
            _ = parsed.last(Options.allFiles)
        }
    }

    @Test func helpForPlacesShowsBothSubcommands() throws {
        #expect(try Self.parse("help", "places") == .help([.placesImport, .placesInfo]))
        #expect(try Self.parse("places", "--help") == .help([.placesImport, .placesInfo]))
        #expect(try Self.parse("places", "-h") == .help([.placesImport, .placesInfo]))
        let text = Help.text([.placesImport, .placesInfo])
        for option in Commands.placesImport.options + Commands.placesInfo.options {
            #expect(text.contains(option.name), "\(option.name)")
        }
        #expect(text.contains("Usage: phototag places import") && text.contains("Usage: phototag places info"))
    }

    @Test func helpHelpIsTheToolHelpAndHelpTakesSeveralCommands() throws {
        #expect(try Self.parse("help", "help") == .help([]))
        #expect(try Self.parse("help", "locate", "scan") == .help([.locate, .scan]))
        #expect(try Self.parse("help", "places", "info", "scan") == .help([.placesInfo, .scan]))
        #expect(try Self.parse("--help", "scan") == .help([.scan]))
        #expect(Help.text([.locate, .scan]) == Help.text(.locate) + "\n" + Help.text(.scan))
    }

    @Test func versionHasAShortAlias() throws {
        #expect(try Self.parse("-V") == .version)
        #expect(try Self.parse("--vers") == .version)
        #expect(Help.toolHelp.contains("-V, --version"))
    }

    @Test func unambiguousPrefixesOfLongOptionsAreAccepted() throws {
        let options = try #require(
            Self.parse(
                "locate", "--form", "ndjson", "--summary-f", "s.json", "--neares=3", "a.jpg"
            ).locateOptions, "not a locate")
        #expect(options.output.format == .ndjson)
        #expect(options.output.summary && options.output.summaryFile == "s.json")
        #expect(options.place.nearest == 3)
        // An exact name wins over the longer names it begins: --json is not ambiguous.
        let scan = try #require(Self.parse("scan", "--json", "--with-", "--no-pl", ".").scanOptions, "not a scan")
        #expect(scan.output.format == .json)
        #expect(scan.selection.gpsFilter == .withGPS)
        #expect(scan.place.skip)
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "2026-12-31", "2026-01-01"])
    func realDatesAreAccepted(date: String) throws {
        let options = try #require(
            Self.parse(
                "places", "import", "--from", "d", "--output", "o", "--date", date
            ).importOptions, "not a places import")
        #expect(options.date == date)
    }

    @Test(arguments: ["2026-13-45", "2026-02-29", "1900-02-29", "2026-04-31", "2026-00-10", "2026-01-00", "2026-1-01"])
    func impossibleDatesAreUsageErrors(date: String) {
        #expect(
            throws: UsageError(
                message: "option '--date' needs a date like 2026-07-28, not '\(date)'", command: .placesImport)
        ) { try Self.parse("places", "import", "--from", "d", "--output", "o", "--date", date) }
    }

    @Test(
        arguments: [
            (["locate"], "no files given"),
            // A usage error, not a scan of `.` (as find and fd would): the message says how.
            (["scan"], "no paths given; to scan the current folder, run: phototag scan ."),
            (["locate", "--fromat", "json", "a"], "unknown option '--fromat'; did you mean '--format'?"),
            (["scan", "--with-gsp", "."], "unknown option '--with-gsp'; did you mean '--with-gps'?"),
            (["scan", "--zzzzzzzz", "."], "unknown option '--zzzzzzzz'"),
            (["lcoate", "a"], "unknown command 'lcoate'; did you mean 'locate'?"),
            (["--verison"], "unknown option '--verison'; did you mean '--version'?"),
            (["locate", "--format"], "option '--format' needs a value"),
            (
                ["locate", "--format", "yaml", "a"],
                "unknown format 'yaml' (choose from text, json, ndjson, csv, exiftool-csv, geojson, svg, html)"
            ),
            (["locate", "--json", "--format", "csv", "a"], "'--json' and '--format csv' disagree"),
            (["locate", "--json=yes", "a"], "option '--json' takes no value"),
            (["locate", "--nearest", "0", "a"], "option '--nearest' needs a whole number from 1 to 1000, not '0'"),
            (["locate", "--nearest", "x", "a"], "option '--nearest' needs a whole number from 1 to 1000, not 'x'"),
            (
                ["locate", "--max-distance", "-1", "a"],
                "option '--max-distance' needs a distance in km (0 or more), not '-1'"
            ),
            (
                ["locate", "--max-distance", "nan", "a"],
                "option '--max-distance' needs a distance in km (0 or more), not 'nan'"
            ),
            (
                ["locate", "--min-population", "1e3", "a"],
                "option '--min-population' needs a whole number 0 or more, not '1e3'"
            ),
            (["locate", "--no-place", "--nearest", "2", "a"], "'--no-place' and '--nearest' exclude each other"),
            (["scan", "--with-gps", "--without-gps", "."], "'--with-gps' and '--without-gps' exclude each other"),
            (["scan", "--within", "5", "."], "'--within' needs '--near LAT,LON'"),
            (["scan", "--near", "1,2", "."], "'--near' needs '--within KM'"),
            (
                ["scan", "--near", "91,2", "--within", "1", "."],
                "option '--near' needs LAT,LON: latitude 91 is out of range (-90 to 90)"
            ),
            (
                ["scan", "--near", "x", "--within", "1", "."],
                "option '--near' needs LAT,LON: expected 'latitude,longitude' (or separated by a tab or spaces), got 'x'"
            ),
            (["completions"], "no shell given (bash, zsh or fish)"),
            (["completions", "powershell"], "unknown shell 'powershell' (choose from bash, zsh, fish)"),
            (["completions", "bash", "zsh"], "unexpected argument 'zsh'"),
            (["manpage", "extra"], "unexpected argument 'extra'"),
            (["help", "nothing"], "unknown command 'nothing'"),
            (["help", "locate", "sacn"], "unknown command 'sacn'; did you mean 'scan'?"),
            (
                ["locate", "--format", "photo.jpg"],
                "unknown format 'photo.jpg' (choose from text, json, ndjson, csv, exiftool-csv, geojson, svg, html)"
            ),
            (["locate", "--nearest", "x"], "option '--nearest' needs a whole number from 1 to 1000, not 'x'"),
            (
                ["locate", "--n", "3", "a"],
                "ambiguous option '--n' (could be '--no-formula-guard', '--nearest', '--no-place', '--null', '--near', '--no-progress')"
            ),
            (
                ["scan", "--with", "."],
                "ambiguous option '--with' (could be '--with-gps', '--without-gps', '--within')"
            ),
            (["locate", "--sum", "a"], "ambiguous option '--sum' (could be '--summary', '--summary-file')"),
            (["locate", "--jsonx", "a"], "unknown option '--jsonx'; did you mean '--json'?"),
            (["-V", "x"], "unexpected argument 'x'"),
            // Issue 23, item 19: ExifTool's habits get what phototag calls them.
            (["locate", "-csv", "a"], "unknown option '-csv'; did you mean '--format csv'? (ExifTool's -csv)"),
            (["locate", "-json", "a"], "unknown option '-json'; did you mean '--json'? (ExifTool's -json)"),
            (
                ["locate", "-r", "a"],
                "unknown option '-r'; to read the photos under a folder, recursively, run: phototag scan FOLDER (ExifTool's -r)"
            ),
            (
                ["scan", "-r", "."],
                "unknown option '-r'; scan walks folders recursively already (ExifTool's -r); --max-depth N limits it"
            ),
            (
                ["geocode", "-n", "1,2"],
                "unknown option '-n'; coordinates are already signed decimal degrees (ExifTool's -n)"
            ),
            (["locate", "-qx", "a"], "unknown option '-qx'"),
        ] as [([String], String)])
    func badCommandLinesAreUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try Invocation.parse(arguments) }
        do {
            _ = try Invocation.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }

    /// Issue 23, item 19: short flags together (`-q0`), as getopt takes them; and `locate` takes
    /// the filters of `scan`.
    @Test func shortFlagsCombineAndLocateTakesTheFilters() throws {
        let combined = try #require(Invocation.parse(["locate", "-q0", "--files-from", "-"]).locateOptions)
        let apart = try #require(Invocation.parse(["locate", "-q", "-0", "--files-from", "-"]).locateOptions)
        #expect(combined == apart && combined.output.quiet && combined.selection.nullSeparated)
        #expect(try Invocation.parse(["scan", "-hq"]) == Invocation.parse(["scan", "--help"]))
        let filtered = try #require(Invocation.parse(["locate", "--with-gps", "a.jpg"]).locateOptions)
        #expect(filtered.selection.gpsFilter == .withGPS)
        let near = try #require(Invocation.parse(["locate", "--near", "1,2", "--within", "3", "a.jpg"]).locateOptions)
        #expect(near.selection.within == 3)
    }

    @Test(arguments: [
        ("48.858222,2.2945", 48.858222, 2.2945),
        ("48.858222\t2.2945", 48.858222, 2.2945),
        ("48.858222 2.2945", 48.858222, 2.2945),
        ("  -33.9 ,  151.2  ", -33.9, 151.2),
        ("-90,-180", -90, -180),
        ("+1.5e1,.5", 15, 0.5),
        ("12.3456789012345678901,0", 12.3456789012345678901, 0),
        ("0.000001,-0.0000001\r", 0.000001, -0.0000001),
        // A semicolon, as Wikipedia and GeoHack print it (rejected before issue 21).
        ("1;2", 1, 2),
        ("48.85806; 2.29444", 48.85806, 2.29444),
    ])
    func coordinatesParseInEveryLayout(text: String, latitude: Double, longitude: Double) throws {
        let coordinate = try parseCoordinate(Array(text.utf8)[...]).get()
        #expect(coordinate.latitude == latitude)
        #expect(coordinate.longitude == longitude)
    }

    @Test(arguments: [
        "", "1", "1,2,3", "1,,2", "a,b", "nan,1", "inf,1", "0x10,1", "1 2 3", "1;2;3", "1,2;3", "1e,2", "--1,2",
        "1.2.3,4",
    ])
    func malformedCoordinatesAreRejected(text: String) {
        #expect(throws: CoordinateProblem.self) { try parseCoordinate(Array(text.utf8)[...]).get() }
    }

    /// The coordinate parser reads its numbers with the package's one decimal grammar (exponent
    /// allowed), rounded like the standard library.
    @Test func coordinatesRoundLikeTheStandardLibrary() throws {
        var random = SeededGenerator(state: 3)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...20, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &random)
            for index in 0..<digits {
                if index == point, index > 0 { text += "." }
                text += String(Int.random(in: 0...9, using: &random))
            }
            if Int.random(in: 0..<5, using: &random) == 0 { text += "e\(Int.random(in: -30...30, using: &random))" }
            let expected = try #require(Double(text))
            guard abs(expected) < 180 else { continue }
            #expect(try parseCoordinate(Array("0,\(text)".utf8)[...]).get().longitude == expected, "\(text)")
        }
    }
}

/// ``splitFields(_:)``, read in place by index, splits every line as the slice-by-slice version
/// it replaced did (kept here as the reference), on random lines of digits, separators, spaces,
/// tabs and carriage returns, and on a slice that does not start at its array's start.
@Suite struct SplitFieldsTests {
    static func reference(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>)? {
        var first: ArraySlice<UInt8>, second: ArraySlice<UInt8>
        if let split = line.firstIndex(of: UInt8(ascii: ",")) ?? line.firstIndex(of: 0x09) {
            let separator = line[split]
            first = trimmed(line[..<split])
            second = trimmed(line[(split + 1)...])
            guard !second.contains(separator) else { return nil }
        } else if let split = line.firstIndex(of: 0x20) {
            first = line[..<split]
            second = trimmed(line[split...])
            guard !second.contains(0x20) else { return nil }
        } else {
            return nil
        }
        guard !first.isEmpty, !second.isEmpty else { return nil }
        return (first, second)
    }

    @Test func splitsAsTheSliceBySliceVersionDid() {
        var random = SeededGenerator(state: 31)
        let alphabet = Array("1.-,\t \r,  a".utf8)
        for _ in 0..<200_000 {
            let prefix = (0..<Int.random(in: 0..<3, using: &random)).map { _ in UInt8(ascii: "x") }
            let body = (0..<Int.random(in: 0..<12, using: &random)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            }
            let bytes = prefix + body
            // As parseCoordinate gives it: a trimmed slice, here of an array with bytes before it.
            let line = trimmed(bytes[prefix.count...])
            let expected = Self.reference(line), found = splitFields(line)
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(body)")
            #expect(found?.0.startIndex == expected?.0.startIndex && found?.1.startIndex == expected?.1.startIndex)
        }
    }
}
