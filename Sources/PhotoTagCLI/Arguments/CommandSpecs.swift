import ReverseGeocoding

/// The specifications of every command: parsing, help, completions and the man page all come
/// from these, so they cannot drift apart.
/// Every option of every command, once: the specs below list them, the parser matches them,
/// and each command reads its settings through these constants (never through a name written
/// as a string), so a misspelt option does not compile. Options that share a name but not a
/// meaning (`--from` of the two imports) are separate constants.
enum Options {
    static let help = OptionSpec(name: "--help", short: "-h", help: "Show this help")
    static let format = OptionSpec(
        name: "--format", value: "<format>",
        help: "Output: text (default), json, ndjson, csv, exiftool-csv, geojson, or a map: svg or html",
        choices: OutputFormat.allCases.map(\.rawValue))
    static let json = OptionSpec(name: "--json", help: "Same as --format json")
    static let bom = OptionSpec(name: "--bom", help: "CSV: start with a UTF-8 byte order mark, for Excel")
    static let noFormulaGuard = OptionSpec(
        name: "--no-formula-guard", help: "CSV: keep text cells that start with = + - @ as they are (no ')")
    static let csvt = OptionSpec(
        name: "--csvt", value: "<file>", help: "CSV: also write the columns' types to this file (GDAL's .csvt)")
    static let places = OptionSpec(
        name: "--places", value: "<file>",
        help: "Use this place table instead of the bundled one (answers by its nearest place)")
    static let nearest = OptionSpec(
        name: "--nearest", value: "<k>", help: "Also list the k nearest places (nearby)")
    static let maxDistance = OptionSpec(
        name: "--max-distance", value: "<km>", help: "Name no place farther away than this")
    static let minPopulation = OptionSpec(
        name: "--min-population", value: "<n>", help: "Name only places with at least n people")
    static let noPlace = OptionSpec(name: "--no-place", help: "Skip the place lookup")
    static let lang = OptionSpec(
        name: "--lang", value: "<lang>",
        help: "Also name places in this language (de, pt-BR, zh-Hant…; auto: the locale's)")

    /// What the completions offer for `--lang` (any tag is taken): `auto` and the languages of the
    /// bundled names. Not the option's `choices`, which every command line would then read from
    /// the names table, with or without `--lang`.
    static var languageWords: [String] { ["auto"] + PlaceNames.bundled.languages.filter { !$0.contains("-") } }
    static let quiet = OptionSpec(
        name: "--quiet", short: "-q", help: "No warnings, per-file errors or progress on stderr")
    static let progress = OptionSpec(
        name: "--progress", help: "Show a progress bar on stderr (default: on a terminal; erased around records)")
    static let noProgress = OptionSpec(name: "--no-progress", help: "Never show a progress bar")
    static let warnings = OptionSpec(
        name: "--warnings", value: "<mode>",
        help: "Warnings on stderr: all (default), summary (counts per kind at the end) or none",
        choices: WarningMode.allCases.map(\.rawValue))
    static let summary = OptionSpec(
        name: "--summary",
        help: "Count files per status, country, place (text: the whole output; json, ndjson: JSON)")
    static let summaryFile = OptionSpec(
        name: "--summary-file", value: "<file>",
        help: "Write the summary to this file instead (implies --summary; -: stdout, in place of the records)")

    static let version = OptionSpec(
        name: "--version", short: "-V", help: "Show the version and the place data's source")

    static let coordinates = OptionSpec(
        name: "--coordinates", value: "<style>",
        help: "Coordinates as decimal (default) or dms, in text output only",
        choices: CoordinateStyle.allCases.map(\.rawValue))

    static let filesFrom = OptionSpec(
        name: "--files-from", value: "<file>", help: "Also read the paths listed in this file, one a line (-: stdin)")
    static let null = OptionSpec(
        name: "--null", short: "-0", help: "The --files-from list is NUL-separated (find -print0)")
    static let jobs = OptionSpec(
        name: "--jobs", value: "<n>", help: "Read n files at once (default: scan 32, locate one per core)")
    static let columns = OptionSpec(
        name: "--columns", value: "<order>",
        help: "Input without a header: lat,lon (default) or lon,lat", choices: ["lat,lon", "lon,lat"])
    static let allRecords = OptionSpec(
        name: "--all-records", help: "GeoJSON: also write features without a position (null geometry)")
    static let allPositions = OptionSpec(
        name: "--all-positions",
        help: "tag, exiftool-csv: also write the positions photos hold already (not only sidecars', tracks')")
    static let preferSidecar = OptionSpec(
        name: "--prefer-sidecar", help: "Take an XMP/Takeout sidecar's position over the file's own")

    // scan
    static let allFiles = OptionSpec(
        name: "--all-files", help: "Read every file's first bytes, not only photo extensions")
    static let hidden = OptionSpec(name: "--hidden", help: "Include hidden files and folders")
    static let exclude = OptionSpec(
        name: "--exclude", value: "<glob>", help: "Skip entries whose name or relative path matches")
    static let maxDepth = OptionSpec(
        name: "--max-depth", value: "<n>", help: "Walk at most n levels below each path (1: its entries)")
    static let noFollow = OptionSpec(name: "--no-follow", help: "Skip symbolic links found inside folders")
    static let sort = OptionSpec(name: "--sort", help: "Order everything by path, across the paths given too")
    static let shard = OptionSpec(
        name: "--shard", value: "<k/n>", help: "Take only share k of n of the files, by a hash of each path")
    static let withGPS = OptionSpec(
        name: "--with-gps", help: "Print only located photos (errors: stderr and exit status)")
    static let withoutGPS = OptionSpec(name: "--without-gps", help: "Print only photos without a usable position")
    static let near = OptionSpec(
        name: "--near", value: "<lat,lon>", help: "Print only photos within --within km of here")
    static let within = OptionSpec(name: "--within", value: "<km>", help: "The radius for --near")

    // tracks: locate and scan
    static let track = OptionSpec(
        name: "--track", value: "<file>",
        help: "Place photos without a position on this GPS track or location history (a folder: its tracks)")
    static let preferTrack = OptionSpec(name: "--prefer-track", help: "Take the track's position over the photo's own")
    static let maxGap = OptionSpec(
        name: "--max-gap", value: "<s>", help: "Interpolate between fixes at most s seconds apart (1800)")
    static let maxExtrapolation = OptionSpec(
        name: "--max-extrapolation", value: "<s>",
        help: "Else take the nearest fix when at most s seconds away (1800)")
    static let timeZone = OptionSpec(
        name: "--time-zone", value: "<zone>",
        help: "The camera's clock was on this zone (Europe/Paris, +02:00), whatever the track says")
    static let clockOffset = OptionSpec(
        name: "--clock-offset", value: "<offset>",
        help: "Add ±[D ]HH:MM[:SS] to the camera's clock, which was off (+00:02:30)")
    static let syncWith = OptionSpec(
        name: "--sync-with", value: "<file>",
        help: "Find the camera's offset from UTC from this photo's clock and GPS time")
    static let fromPhotos = OptionSpec(
        name: "--from-photos", help: "Place photos without a position by the run's located photos taken then")

    // tag
    static let dryRun = OptionSpec(
        name: "--dry-run", short: "-n", help: "Write nothing: say per photo what would be written or kept")
    static let overwrite = OptionSpec(
        name: "--overwrite", help: "Replace values a sidecar already has (default: keep them)")
    static let sidecarName = OptionSpec(
        name: "--sidecar-name", value: "<form>",
        help: "Name new sidecars NAME.EXT.xmp (ext, default) or NAME.xmp (stem); picks one when both exist",
        choices: TagOptions.SidecarName.allCases.map(\.rawValue))

    // places import and boundaries import
    static let geoNamesFolder = OptionSpec(
        name: "--from", value: "<dir>", help: "Folder with the GeoNames dumps (required, or --names)")
    static let namesFolder = OptionSpec(
        name: "--names", value: "<dir>", help: "Build a names table from this folder of name lists instead")
    static let boundaryFolder = OptionSpec(
        name: "--from", value: "<dir>", help: "Folder with the three GeoJSON files (required, or --seas)")
    static let seasFile = OptionSpec(
        name: "--seas", value: "<file>", help: "Build a sea table from this GeoJSON of named seas instead")
    static let countryNames = OptionSpec(
        name: "--country-names", value: "<file>",
        help: "GeoNames countryInfo.txt: the name of every country, for those without a place")
    static let tableOutput = OptionSpec(
        name: "--output", value: "<file>", help: "Where to write the table (required)")
    static let cities = OptionSpec(
        name: "--cities", value: "<name>", help: "The cities file to read (default: the only one)")
    static let importMinPopulation = OptionSpec(
        name: "--min-population", value: "<n>", help: "Leave out places with fewer people")
    static let placesDate = OptionSpec(
        name: "--date", value: "<yyyy-mm-dd>", help: "The data's date (default: the file's)")
    static let allFeatures = OptionSpec(
        name: "--all-features", help: "Keep every feature class, not only populated places")
    static let tzdata = OptionSpec(
        name: "--tzdata", value: "<dir>", help: "A compiled tz database (zoneinfo) whose rules to store for each zone")
    static let boundariesDate = OptionSpec(
        name: "--date", value: "<yyyy-mm-dd>", help: "The data's date (default: the files')")
}

/// The specifications of every command: parsing, help, completions and the man page all come
/// from these, so they cannot drift apart.
enum Commands {
    /// The options the tool itself takes, before any command.
    static let toolOptions = [Options.help, Options.version]

    static let outputOptions = [
        Options.format, Options.json, Options.coordinates, Options.bom, Options.noFormulaGuard, Options.csvt,
        Options.quiet,
    ]
    /// The output options of locate and scan: geocode's, and what only photos have.
    static let photoOutputOptions = [
        Options.format, Options.json, Options.coordinates, Options.bom, Options.noFormulaGuard, Options.csvt,
        Options.allPositions, Options.quiet,
    ]
    static let placeOptions = [
        Options.places, Options.nearest, Options.maxDistance, Options.minPopulation, Options.lang, Options.noPlace,
    ]
    static let trackOptions = [
        Options.track, Options.preferTrack, Options.maxGap, Options.maxExtrapolation, Options.timeZone,
        Options.clockOffset, Options.syncWith, Options.fromPhotos,
    ]
    static let selectionOptions = [
        Options.filesFrom, Options.null, Options.jobs, Options.allRecords, Options.preferSidecar, Options.withGPS,
        Options.withoutGPS, Options.near, Options.within,
    ]

    /// What `--format svg` and `html` write, for the epilogues of locate and scan, whose
    /// markers are files.
    static let mapNote = """
        With --format svg or html, the located records make one map, written when the input
        ends: a standalone SVG, or an HTML page (no network needed) with pan and zoom, each
        marker's files as file:// links and the trip's visits as a sortable table.
        """

    /// The same for geocode, whose markers are coordinates (no files to link).
    static let geocodeMapNote = """
        With --format svg or html, the coordinates read make one map, written when the input
        ends: a standalone SVG, or an HTML page (no network needed) with pan and zoom, each
        marker's coordinates and place, and a sortable table of places.
        """

    /// What `--format exiftool-csv` writes, for the epilogues of locate and scan.
    static let exifToolNote = """
        With --format exiftool-csv, the output is a CSV that exiftool imports as it is
        (exiftool -csv=places.csv PATH...), to write what phototag found into the photos: a row
        per photo with something to write, its position when it came from a sidecar, a track or
        a photo nearby (--all-positions: also those the photos hold already), and its city,
        state, country, country code and sublocation (the named place, when it is not the
        city) as IPTC Core's XMP tags, named as --lang asks. A file with nothing to write has no
        row; its errors and warnings are on stderr.
        """

    /// How `--track` works, for the epilogues of locate and scan.
    static let trackNote = """
        --track FILE (repeatable; a folder: every track in it) places photos without a usable
        position on GPS tracks and Google location history (GPX, KML, KMZ, NMEA, IGC, FIT, CSV,
        Records.json, Semantic Location History, Timeline exports; told by content) at their
        capture time, as exiftool -geotag does: interpolated between fixes at most --max-gap
        seconds apart (1800), else the nearest fix within --max-extrapolation seconds (1800). The
        camera's clock is read with the photo's own offset, else --time-zone's, else the zone of
        the track's position then (time.offsetSource track), never the computer's zone;
        --clock-offset corrects a clock that was off, --sync-with PHOTO takes the offset from a
        photo with a GPS time. The photo's own position wins unless --prefer-track; a warning
        says when the two are over 100 m apart. See docs/tracks.md.
        """

    static let exitStatus = """
        Exit status: 0 every file located, 1 some file has no usable position,
        2 some input could not be read (the others are still reported) or the output could
        not be written, 64 usage error, 130 or 143 stopped by SIGINT or SIGTERM (what was
        read is written whole and the output closed; a second signal ends at once).
        """

    static let locate = CommandSpec(
        name: "locate", summary: "Print where each photo was taken", arguments: "<file>...",
        missingArgumentsMessage: "no files given",
        options: photoOutputOptions + placeOptions + selectionOptions + trackOptions + [
            Options.summary, Options.summaryFile, Options.progress, Options.noProgress, Options.warnings, Options.help,
        ],
        epilogue: """
            One record per file, in argument order, then the files of --files-from in list order,
            all in one output (one JSON array). - reads the photo from standard input (its record's
            file is -); a FIFO or character device given by name (/dev/stdin, <(…)) is read too.
            Such a stream is read into memory, up to 64 MiB. A photo's XMP sidecar (NAME.xmp,
            NAME.EXT.xmp) and Google Takeout JSON (NAME.EXT.json…) beside it are read too: the
            position embedded in the file wins when valid (--prefer-sidecar: the sidecar's), and
            the record's sidecar names the one used; a .xmp or .json given alone is read alone.
            With --format geojson, only located photos are written unless --all-records is given;
            every error is still on stderr and in the exit status.

            \(trackNote)

            \(exifToolNote)

            \(mapNote)

            \(exitStatus)

            Example: phototag locate --json IMG_0042.jpg | jq '.[0].place.name'
            """)

    static let scan = CommandSpec(
        name: "scan", summary: "Find the photos under folders and print where each was taken",
        arguments: "<path>...",
        missingArgumentsMessage: "no paths given; to scan the current folder, run: phototag scan .",
        options: photoOutputOptions + placeOptions + selectionOptions + trackOptions + [
            Options.allFiles, Options.hidden, Options.exclude, Options.maxDepth, Options.noFollow, Options.sort,
            Options.shard,
            Options.summary, Options.summaryFile, Options.progress, Options.noProgress, Options.warnings, Options.help,
        ],
        epilogue: """
            Folders are walked recursively, in path order, on every core (or --jobs n); records
            stream out as files finish, in path order. The paths of --files-from are walked after
            the arguments. Photos and videos are chosen by extension (case-insensitive:
            \(photoExtensionList)) unless --all-files is given; then files that are not photos at
            all (empty, text, GIF…) are skipped quietly and counted by --summary, while a
            photo that cannot be read (such as BigTIFF) is an error as without --all-files.
            Symbolic links are followed, but no folder is entered twice, so links cannot loop,
            and no file is read twice: one record per file (by device and inode), the first path
            to it in walk order, and a note on stderr for a path given again, a link to a file
            read already or a hard link; with --no-follow, links inside folders are skipped
            (paths given are still followed, like find -H), and a folder replaced by a link while
            the scan runs is reported, not entered. --exclude (repeatable) is matched with
            fnmatch(3), in any case as the extensions are, against each entry's name and its path
            below the path given; an excluded folder is not entered. A --files-from list may have
            CRLF line ends and a byte order mark (as Windows tools write it). Paths given
            are always read, at depth 0; --max-depth 0 reads only the files given. A path is
            needed, as for locate: give . for the current folder (scan without a path or
            --files-from is a usage error, not a walk of wherever it was started).

            --shard k/n (1 ≤ k ≤ n) splits a scan between n runs, on n machines say, that share
            nothing: a file is in share FNV-1a-64(p) mod n + 1, where p is the bytes of its path
            below the path given (a path given that is a file: as given). That depends neither on
            the machine nor on where the folder is mounted nor on the order of the walk, so the
            n runs together print exactly the records of one scan, each once. Every run still
            walks all the folders.

            Sidecars: NAME.EXT.xmp, else NAME.xmp, and Google Takeout's NAME.EXT.json,
            NAME.EXT.supplemental-metadata.json, NAME.EXT(1).json for NAME(1).EXT and names cut
            at 51 characters, are read with the photo beside them: one record, for the photo. Its
            embedded position wins when valid and the sidecar's fills in (--prefer-sidecar: the
            other way round); gps.source says which, sidecar names the file, and a warning says
            when the two are more than 100 m apart. An exact name wins; one differing only in
            case is used when it is the only one and no photo has its exact name (several: none,
            with a warning). A sidecar without its photo is a record of its own; a .json in a
            folder that is well-formed but not Takeout metadata is skipped quietly, a broken one
            reported.

            Files that cannot be read are reported as error records and on stderr (unless stderr
            is the same terminal, where the record already says it), and the scan goes on. The
            filters --with-gps and --near print only located photos: an error then has no
            record, but it is still on stderr and in the exit status. With --format
            geojson, only located photos are written unless --all-records is given.

            \(trackNote)

            \(exifToolNote)

            \(mapNote)

            With --summary in text, the trip follows the counts: the visits in time order, each
            country's followed by its places' (FR  Paris  142 photos  2019-07-01 – 2019-07-04); a
            stay left and come back from within two hours is a short hop that does not cut the
            visit around it.

            Exit status: 0 done, 2 some file or folder could not be read or the output could not
            be written, 64 usage error, 130 or 143 stopped by SIGINT or SIGTERM (what was read
            is written whole and the output closed; a second signal ends at once).

            Example: phototag scan --with-gps --format csv ~/Pictures > located.csv
            """)

    static let tag = CommandSpec(
        name: "tag", summary: "Write where each photo was taken into its XMP sidecar",
        arguments: "<path>...",
        missingArgumentsMessage: "no paths given; to tag the photos of the current folder, run: phototag tag .",
        options: photoOutputOptions + placeOptions + selectionOptions + trackOptions + [
            Options.dryRun, Options.overwrite, Options.sidecarName,
            Options.allFiles, Options.hidden, Options.exclude, Options.maxDepth, Options.noFollow, Options.sort,
            Options.shard,
            Options.summary, Options.summaryFile, Options.progress, Options.noProgress, Options.warnings, Options.help,
        ],
        epilogue: """
            Reads photos as scan does (the same paths, walk and options) and writes what it found
            into each photo's XMP sidecar, which Lightroom, darktable, digiKam, Capture One,
            Immich and PhotoPrism read. The photo or video itself is never written.

            What is written, each under its standard name: the position (exif:GPSLatitude and
            exif:GPSLongitude as DDD,MM.mmmmmmmmK, exif:GPSAltitude and GPSAltitudeRef,
            exif:GPSMapDatum WGS-84), only when it did not come from the photo itself (a Takeout
            JSON, a track, a photo nearby, another sidecar) unless --all-positions; the place
            (photoshop:City, State, Country; Iptc4xmpCore:CountryCode and Location, the named
            place when it is not the city; Iptc4xmpExt:LocationCreated with the same), in the
            language of --lang; the capture time with its offset (exif:DateTimeOriginal and
            photoshop:DateCreated), only when phototag found the offset the photo lacks (from
            the place's zone, a track, the GPS time, --time-zone). Beside them, phototag:Version
            and phototag:PositionSource (where the position came from) in phototag's namespace
            urn:phototag:xmp:1.0#.

            Sidecars: an existing NAME.EXT.xmp (darktable, digiKam) or NAME.xmp (Lightroom,
            Capture One) is updated; when both exist, --sidecar-name ext or stem says which, else
            the photo is an error. A new one is NAME.EXT.xmp unless --sidecar-name stem. A value
            the sidecar has already is kept unless --overwrite (the record says written, kept or
            unchanged per property); every other element, attribute, namespace, comment and
            byte is kept as it was, in the sidecar's own encoding (UTF-8, UTF-16 or UTF-32). A
            sidecar that is not well-formed XMP is left as it is, with an error. A second run
            writes nothing.

            Writes are atomic: a temporary file in the same folder, flushed to the disk, renamed
            over the old one, and the folder flushed. The old file's mode is kept. A sidecar that
            is a symbolic link, that changed since it was read, or that cannot be written (a
            read-only folder, a full disk) is an error and stays as it was; none is ever deleted.

            Each record has a tag object (tag_ columns in csv): the sidecar, its action
            (created, updated, unchanged, would-create, would-update, nothing, failed), the
            properties written, kept and unchanged, and the error. --dry-run writes nothing and
            says what would be written, in every format (text: each property). With --summary,
            the counts of sidecars written, unchanged and failed, and of properties.

            \(trackNote)

            Exit status: 0 done, 2 some file could not be read or some sidecar could not be
            written (the others are still written), 64 usage error, 130 or 143 stopped by SIGINT
            or SIGTERM.

            Example: phototag tag --track trip.gpx --dry-run ~/Pictures/Trip
            """)

    static let geocode = CommandSpec(
        name: "geocode", summary: "Name the places nearest to coordinates", arguments: "[<lat,lon>...]",
        options: outputOptions + placeOptions + [Options.columns, Options.allRecords, Options.help],
        epilogue: """
            Coordinates come from the arguments or, without any, from standard input: one per
            line as lat,lon or lat;lon or lat<TAB>lon or lat lon in decimal degrees, or in
            degrees, minutes and seconds as map sites print them: 48°51'29.6"N 2°17'40.2"E (or
            with ′ ″), 48 51 29.6 N, 2 17 40.2 E, N48.8582 E2.2945, 48.8582° N, 2.2945° E. With
            hemisphere letters, both values have one (N/S for the latitude, E/W for the
            longitude, in either order) and no minus sign. What web pages add is read too:
            invisible characters, a label (Coordinates: …), forms of one point separated by /
            (as Wikipedia prints them; they must agree), geo:lat,lon and OpenStreetMap's
            #map=zoom/lat/lon. Decimal commas are refused. With --nearest k, csv adds the
            columns nearby_1_geoname_id … nearby_k_bearing: geoname_id, name, admin1,
            country_code, distance_km and bearing of each of the k nearest places.

            Blank lines are skipped. A first line that names a latitude column (lat, latitude,
            y) and a longitude column (lon, lng, long, longitude, x), in any case and order, is a
            header: the lines after it are rows of that table, separated as it is (a tab, else
            a semicolon when it has no comma, else a comma; fields may be quoted as in CSV, and
            with ; or tab a decimal comma is read), and their other columns are passed through:
            an "input" object in json and ndjson, input_NAME columns in csv and geojson (so
            id,lat,lon,alt gives input_id and input_alt). Without a header, --columns lon,lat
            reads two-field lines longitude first (as GIS tools write x,y). Any other line that
            is not a coordinate is reported with its number and gives an error record (quoting
            at most 80 characters of it); a line over 64 KiB is not read, and is reported the
            same way. One record per coordinate, in input order; standard input with no
            coordinate at all is an error.

            \(geocodeMapNote)

            Exit status: 0 every coordinate has a place (or, in a country without any, such as
            Antarctica, its country), 1 some has none within the filters,
            2 some line was not a coordinate, there were none, or the output could not be
            written, 64 usage error, 130 or 143 stopped by SIGINT or SIGTERM (what was read is
            written whole and the output closed; a second signal ends at once).

            Example: cut -f2,3 points.tsv | phototag geocode --format ndjson
            """)

    static let placesImport = CommandSpec(
        name: "places import", summary: "Build a place table from GeoNames dump files", arguments: "",
        maximumArguments: 0,
        options: [
            Options.geoNamesFolder, Options.namesFolder, Options.tableOutput, Options.cities,
            Options.importMinPopulation, Options.placesDate, Options.allFeatures,
            Options.help,
        ],
        epilogue: """
            The folder holds a cities file (cities500.txt, cities1000.txt… or allCountries.txt)
            and, for names of regions and countries, admin1CodesASCII.txt, admin2Codes.txt and
            countryInfo.txt, as published at https://download.geonames.org/export/dump/.
            Rows with bad fields are skipped and counted. Use the table with --places <file>.

            With --names instead of --from, the table holds the names --lang reads: the folder
            holds places.tsv (geonameid, lang, name: GeoNames alternate names), admin1.tsv
            (CC.ADM1, lang, name), subdivisions.tsv (ISO 3166-2 code, lang, name: Unicode CLDR),
            admin1-iso3166-2.tsv (CC.ADM1, ISO 3166-2 code) and countries.tsv (country code,
            lang, name: CLDR), each tab-separated with a header line. A region is named by
            GeoNames where it has the language, else by CLDR; CLDR names marked as shared with
            another subdivision (a superscript digit) are left out, and a disambiguation in
            brackets at the end is dropped.
            """)

    static let placesInfo = CommandSpec(
        name: "places info", summary: "Describe the place table in use", arguments: "", maximumArguments: 0,
        options: [Options.places, Options.help])

    static let boundariesImport = CommandSpec(
        name: "boundaries import", summary: "Build a boundary table from GeoJSON polygons", arguments: "",
        maximumArguments: 0,
        options: [
            Options.boundaryFolder, Options.seasFile, Options.tableOutput, Options.tzdata, Options.countryNames,
            Options.boundariesDate, Options.help,
        ],
        epilogue: """
            The folder holds timezones.geojson (properties tzid, country), countries.geojson
            (countryCode) and admin1.geojson (countryCode, admin1Code): FeatureCollections of
            Polygons and MultiPolygons with 5-decimal coordinates. A file that is not exactly
            that is an error naming the file and line; so is a ring that is not closed, has
            fewer than 4 positions, or crosses or runs along itself (it is named by its
            feature's first properties, with where: rings that only touch themselves at a point
            are accepted). With --tzdata, the UTC offset rules of
            every zone of timezones.geojson are read from that compiled IANA tz database (TZif
            files, e.g. /usr/share/zoneinfo) and stored in the table, for local capture times;
            the binary never reads the machine's own tz files. With --country-names, each
            country is stored with its name from GeoNames' countryInfo.txt (ISO code, column 1;
            name, column 5), so that a point in a country without any place (Antarctica) is
            still answered by the country's name.

            With --seas instead of --from, the table holds only seas: a FeatureCollection of
            Polygons and MultiPolygons with the property name (Natural Earth's marine polygons,
            which may overlap: a point is then in the smallest). Their coordinates are rounded
            to 5 decimals; a ring that rounding leaves narrower than that is dropped. A feature
            without a name is left out, and a name in capitals only (INDIAN OCEAN) is written
            as the others are (Indian Ocean). The bundled sea table names the water of a point
            that no country contains.
            """)

    static let boundariesInfo = CommandSpec(
        name: "boundaries info", summary: "Describe the bundled boundary table", arguments: "",
        maximumArguments: 0, options: [Options.help])

    static let completions = CommandSpec(
        name: "completions", summary: "Print a shell completion script", arguments: "<bash|zsh|fish>",
        minimumArguments: 1, missingArgumentsMessage: "no shell given (bash, zsh or fish)", maximumArguments: 1,
        options: [Options.help],
        epilogue: """
            Commands and their options complete, then option values (formats, files, folders)
            and file names for locate and scan. To install:

              bash:  phototag completions bash > /etc/bash_completion.d/phototag
              zsh:   phototag completions zsh > "${fpath[1]}/_phototag"
              fish:  phototag completions fish > ~/.config/fish/completions/phototag.fish
            """)

    /// `phototag help`, which is not a ``Command`` (it runs none): its spec gives its own help
    /// and parses its arguments.
    static let help = CommandSpec(
        name: "help", summary: "Show help for commands", arguments: "[<command>...]", options: [Options.help],
        epilogue: """
            Without a command, shows the tool's help: its commands and options. With commands,
            shows the help of each in turn: its usage, options and notes. 'places' and
            'boundaries' alone stand for both of their subcommands. 'phototag COMMAND --help'
            and 'phototag --help COMMAND' are the same as 'phototag help COMMAND'.

            Example: phototag help places import
            """)

    static let manpage = CommandSpec(
        name: "manpage", summary: "Print the manual page (roff), as installed by make install",
        arguments: "", maximumArguments: 0, options: [Options.help])

    /// The extensions `scan` picks by default, as shown in help.
    static var photoExtensionList: String { PhotoFiles.extensions.sorted().joined(separator: ", ") }
}
