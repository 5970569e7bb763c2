import PhotoTagSupport
import ReverseGeocoding

/// How records are printed.
enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, ndjson, csv
    /// The CSV `exiftool -csv=FILE` imports (``ExifToolCSV``): photos only.
    case exiftoolCSV = "exiftool-csv"
    case geojson, svg, html

    /// Whether the output is one picture of every located record (``MapOutput``) rather than
    /// records written as they come.
    var isMap: Bool { self == .svg || self == .html }
}

/// How the nearest place is looked up (shared by locate, scan and geocode).
struct PlaceOptions: Equatable, Sendable {
    /// A place table file instead of the bundled one.
    var places: String? = nil
    /// Also list this many nearest places (`nearby`).
    var nearest: Int? = nil
    var filter = PlaceFilter.none
    /// Skip the lookup altogether.
    var skip = false
    /// `--lang`: the language to name places in as well; `nil` for GeoNames' names alone.
    var language: LanguageChoice? = nil
    /// The names of ``language`` (``resolveLanguage(_:)``); `nil` without one.
    var names: LocalNames? = nil

    /// Sets ``names`` from ``language``: `auto` reads the locale of `environment`
    /// (``NameLanguage/fromEnvironment(_:)``).
    mutating func resolveLanguage(_ environment: Environment) {
        switch language {
        case nil: names = nil
        case .auto: names = PlaceNames.bundled.localized(NameLanguage.fromEnvironment(environment.variables))
        case .tag(let language): names = PlaceNames.bundled.localized(language)
        }
    }
}

/// What `--lang` asks for: a language, or the locale's (`auto`).
enum LanguageChoice: Equatable, Sendable {
    case auto
    case tag(NameLanguage)
}

/// How records are written (shared by locate, scan and geocode).
struct OutputOptions: Equatable, Sendable {
    var format = OutputFormat.text
    /// No warnings, per-file errors or progress on standard error.
    var quiet = false
    /// A progress bar on standard error: `nil` means only when it is a terminal.
    var progress: Bool? = nil
    /// `--warnings`: what stderr shows of the warnings (and of a scan's skipped entries).
    var warnings = WarningMode.all
    /// Counts per status, country and place at the end.
    var summary = false
    /// Where the summary goes instead of standard error (or, in text, standard output).
    var summaryFile: String? = nil

    /// Whether the summary is the whole output (`--summary` in text, without a summary file, or
    /// `--summary-file -` in any format): records are counted, not printed.
    var summaryReplacesRecords: Bool {
        summary && ((format == .text && summaryFile == nil) || summaryFile == "-")
    }
    /// How text output shows coordinates (`--coordinates`); the other formats stay decimal.
    var coordinates = CoordinateStyle.decimal
    /// CSV: `--bom`, a UTF-8 byte order mark first, for Excel.
    var csvByteOrderMark = false
    /// CSV: text cells that spreadsheets would run as formulas get a `'` (off with
    /// `--no-formula-guard`).
    var csvFormulaGuard = true
    /// CSV: `--csvt FILE`, where the columns' types go, for GDAL.
    var csvTypesFile: String? = nil
}

/// Where the paths of `locate` and `scan` come from besides the arguments, and how many files
/// are read at once.
struct SelectionOptions: Equatable, Sendable {
    /// `--files-from`: a file listing paths, or `-` for standard input.
    var filesFrom: Argument? = nil
    /// `-0`/`--null`: the list is NUL-separated (`find -print0`), not one path per line.
    var nullSeparated = false
    /// `--jobs`: files read at once; `nil` means the default (``readers``, ``workers``).
    var jobs: Int? = nil
    /// `--all-records`: GeoJSON keeps the features without a position (null geometry).
    var allRecords = false
    /// `--all-positions`: exiftool-csv also writes the positions read from the files themselves
    /// (``PhotoTags``).
    var allPositions = false
    /// `--prefer-sidecar`: a sidecar's valid position wins over the file's own.
    var preferSidecar = false
    /// `--with-gps`, `--without-gps`: which records to print, by whether they are located.
    var gpsFilter = GPSFilter.all
    /// `--near`, `--within`: only located photos within `within` km of `near`.
    var near: Coordinate? = nil
    var within: Double? = nil

    enum GPSFilter: Equatable, Sendable { case all, withGPS, withoutGPS }

    /// Whether the path list is standard input.
    var listIsStandardInput: Bool { filesFrom?.bytes == [UInt8(ascii: "-")] }

    /// The list's separator byte.
    var separator: UInt8 { nullSeparated ? 0 : UInt8(ascii: "\n") }

    /// How many workers `locate` starts: `--jobs`, or every core.
    var workers: Int { jobs ?? processorCount() }

    /// How many files `scan` reads at once: `--jobs`, or ``defaultReaders`` (at least one per
    /// core). Their CPU work runs on at most one thread per core whatever the number.
    var readers: Int { jobs ?? max(Self.defaultReaders, processorCount()) }

    /// The files `scan` keeps opening and reading at once by default: outstanding requests
    /// enough for a cold disk's queue or a network share's round trips (the 32-thread floor of
    /// `make bench`).
    static let defaultReaders = 32
}
