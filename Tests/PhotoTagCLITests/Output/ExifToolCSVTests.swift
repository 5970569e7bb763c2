import Foundation
import PhotoGPS
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `--format exiftool-csv`: the CSV `exiftool -csv=FILE` imports, through `locate` and `scan`
/// in-process, on fixtures and on photos and sidecars made by the tests.
@Suite struct ExifToolCSVTests {
    static let header =
        "SourceFile,GPSLatitude,GPSLatitudeRef,GPSLongitude,GPSLongitudeRef,GPSAltitude,GPSAltitudeRef,"
        + "XMP-photoshop:City,XMP-photoshop:State,XMP-photoshop:Country,XMP-iptcCore:CountryCode,"
        + "XMP-iptcCore:Location"

    /// One in-process run.
    static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, output: output, errors: errors)
        return (status, output.text, errors.text)
    }

    /// The cells of each line of CSV text (RFC 4180: quoted cells, quotes doubled, CRLF).
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], cell = ""
        var quoted = false, wasQuoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if characters.first == "\"" {
                        cell.unicodeScalars.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"", cell.isEmpty, !wasQuoted {
                (quoted, wasQuoted) = (true, true)
            } else if scalar == "," {
                row.append(cell)
                (cell, wasQuoted) = ("", false)
            } else if scalar == "\r", characters.first == "\n" {
                characters.removeFirst()
                rows.append(row + [cell])
                (row, cell, wasQuoted) = ([], "", false)
            } else {
                cell.unicodeScalars.append(scalar)
            }
        }
        #expect(cell.isEmpty && row.isEmpty, "the last line has no CRLF")
        return rows
    }

    /// The rows after the header, by file name (the path's last component), checking the header.
    static func rowsByName(_ text: String) -> [String: [String]] {
        var rows = Self.rows(text)
        #expect(rows.first?.joined(separator: ",") == header)
        rows.removeFirst()
        var byName: [String: [String]] = [:]
        for row in rows {
            #expect(row.count == 12, "\(row)")
            byName[String(row[0].split(separator: "/").last ?? "")] = row
        }
        return byName
    }

    /// A fresh folder holding `files` (name → `Data` or `String`).
    static func folder(_ files: [String: Any]) throws -> String {
        let root = try makeTemporaryDirectory()
        for (name, contents) in files {
            let data = contents as? Data ?? Data((contents as! String).utf8)
            try data.write(to: URL(fileURLWithPath: root + "/" + name))
        }
        return root
    }

    /// An XMP sidecar with this position (`exif:GPSLatitude="33,26.934S"`) and altitude.
    static func xmp(_ latitude: Double, _ longitude: Double, altitude: Double? = nil) -> String {
        func coordinate(_ value: Double, _ positive: String, _ negative: String) -> String {
            let whole = Int(value.magnitude)
            let minutes = (value.magnitude - Double(whole)) * 60
            return "\(whole),\(fixed(minutes, 8))\(value < 0 ? negative : positive)"
        }
        var attributes =
            "exif:GPSLatitude=\"\(coordinate(latitude, "N", "S"))\" "
            + "exif:GPSLongitude=\"\(coordinate(longitude, "E", "W"))\""
        if let altitude {
            attributes +=
                " exif:GPSAltitude=\"\(Int((altitude.magnitude * 1000).rounded()))/1000\""
                + " exif:GPSAltitudeRef=\"\(altitude < 0 ? 1 : 0)\""
        }
        return SidecarText.xmp(attributes)
    }

    static let bare = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg")))
    static let paris = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))

    // MARK: - The header and the cells

    @Test func theHeaderNamesExifToolsTagsAndEndsInCRLF() {
        #expect(ExifToolCSV.header == Array((Self.header + "\r\n").utf8))
        let run = Self.run(["locate", "--format", "exiftool-csv", Fixtures.photo("no-exif.jpg")])
        #expect(run.output == Self.header + "\r\n")
        #expect(run.status == PhotoTag.ExitStatus.notLocated)
    }

    /// RFC 4180 as the CSV format quotes, plus what exiftool's reader needs: spaces at either end
    /// kept by quotes, a file named `*` (exiftool's "every file") written `./*`, no formula guard.
    @Test func cellsAreQuotedWhereExifToolWouldMisreadThem() {
        func row(_ path: String, city: String? = nil) -> String {
            var tags = PhotoTags(path: ArraySlice(path.utf8))
            tags.city = city
            let out = ByteBuffer(capacity: 16)
            ExifToolCSV.append(tags, to: out)
            return String(decoding: out.bytes, as: UTF8.self)
        }
        #expect(row("a.jpg") == "a.jpg,,,,,,,,,,,\r\n")
        #expect(row("my, photo.jpg") == "\"my, photo.jpg\",,,,,,,,,,,\r\n")
        #expect(row("say \"cheese\".jpg") == "\"say \"\"cheese\"\".jpg\",,,,,,,,,,,\r\n")
        #expect(row("two\nlines.jpg") == "\"two\nlines.jpg\",,,,,,,,,,,\r\n")
        #expect(row("cr\r.jpg") == "\"cr\r.jpg\",,,,,,,,,,,\r\n")
        #expect(row(" lead.jpg") == "\" lead.jpg\",,,,,,,,,,,\r\n")
        #expect(row("trail.jpg ") == "\"trail.jpg \",,,,,,,,,,,\r\n")
        #expect(row("*") == "./*,,,,,,,,,,,\r\n")
        #expect(row("a.jpg", city: "=SUM(A1), \"x\"") == "a.jpg,,,,,,,\"=SUM(A1), \"\"x\"\"\",,,,\r\n")
        #expect(row("a.jpg", city: "-Dash") == "a.jpg,,,,,,,-Dash,,,,\r\n")
        // Read back as RFC 4180 says.
        #expect(Self.rows(row("say \"cheese\", two\nlines.jpg"))[0][0] == "say \"cheese\", two\nlines.jpg")
    }

    /// A path that is not UTF-8 is written as its bytes, so that exiftool still finds the file.
    @Test func aPathThatIsNotUTF8IsWrittenAsItsBytes() {
        let path: [UInt8] = Array("a/".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)
        let out = ByteBuffer(capacity: 16)
        ExifToolCSV.append(PhotoTags(path: path[...]), to: out)
        #expect(out.bytes == path + Array(",,,,,,,,,,,\r\n".utf8))
    }

    @Test func numbersAreFixedDecimalsWithAPoint() {
        var tags = PhotoTags(path: ArraySlice("x.jpg".utf8))
        tags.position = .init(latitude: -0.000_000_04, longitude: 179.999_999_999, altitude: -0.5)
        let out = ByteBuffer(capacity: 16)
        ExifToolCSV.append(tags, to: out)
        #expect(
            String(decoding: out.bytes, as: UTF8.self)
                == "x.jpg,-0.00000004,S,180.00000000,E,0.5,Below Sea Level,,,,,\r\n")
        #expect(
            ExifToolCSV.metres(1e-9) == "0" && ExifToolCSV.metres(12) == "12" && ExifToolCSV.metres(0.125) == "0.125")
        #expect(ExifToolCSV.metres(8848.8604) == "8848.86")
    }

    // MARK: - Which positions, which places

    /// A photo's own EXIF position is not written back, but where it is taken is.
    @Test func aPhotosOwnPositionIsLeftOutButItsPlaceIsWritten() throws {
        let run = Self.run(["locate", "--format", "exiftool-csv", Fixtures.photo("ne-little-endian.jpg")])
        #expect(run.status == PhotoTag.ExitStatus.success && run.errors == "")
        let row = try #require(Self.rowsByName(run.output)["ne-little-endian.jpg"])
        #expect(row[0] == Fixtures.photo("ne-little-endian.jpg"))
        #expect(Array(row[1...6]) == ["", "", "", "", "", ""])
        #expect(Array(row[7...]) == ["Paris", "Île-de-France", "France", "FR", "Paris 16 Passy"])
    }

    @Test func allPositionsWritesThePhotosOwnPositionToo() throws {
        let run = Self.run([
            "locate", "--format", "exiftool-csv", "--all-positions", Fixtures.photo("ne-little-endian.jpg"),
            Fixtures.photo("sw-big-endian.jpg"), Fixtures.photo("altitude-below-sea-level.jpg"),
        ])
        let rows = Self.rowsByName(run.output)
        #expect(
            rows["ne-little-endian.jpg"].map { Array($0[1...6]) }
                == ["48.85822222", "N", "2.29450000", "E", "35.5", "Above Sea Level"])
        #expect(
            rows["sw-big-endian.jpg"].map { Array($0[1...4]) } == ["-22.95186944", "S", "-43.21048611", "W"])
        #expect(rows["altitude-below-sea-level.jpg"].map { Array($0[5...6]) } == ["430.5", "Below Sea Level"])
        // Without a place either, the position alone is the row.
        let bare = Self.run([
            "locate", "--format", "exiftool-csv", "--all-positions", "--no-place",
            Fixtures.photo("ne-little-endian.jpg"),
        ])
        #expect(
            Self.rowsByName(bare.output)["ne-little-endian.jpg"].map { Array($0[1...]) }
                == ["48.85822222", "N", "2.29450000", "E", "35.5", "Above Sea Level", "", "", "", "", ""])
        #expect(
            Self.rows(
                Self.run(["locate", "--format", "exiftool-csv", "--no-place", Fixtures.photo("ne-little-endian.jpg")])
                    .output
            ).count == 1)
    }

    /// The position of an XMP sidecar is written into its photo: south and west as signed degrees
    /// with S and W, the altitude below sea level as its magnitude.
    @Test func aSidecarsPositionIsWrittenSouthWestAndBelowSeaLevel() throws {
        let root = try Self.folder([
            "santiago.jpg": Self.bare, "santiago.jpg.xmp": Self.xmp(-33.4489, -70.6693, altitude: -12.5),
            "paris.jpg": Self.paris, "paris.jpg.xmp": Self.xmp(48.8583, 2.2945),
            "nothing.jpg": Self.bare,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = Self.run(["scan", "--format", "exiftool-csv", root])
        #expect(run.status == PhotoTag.ExitStatus.success)
        let rows = Self.rowsByName(run.output)
        #expect(rows.keys.sorted() == ["paris.jpg", "santiago.jpg"])  // nothing to write into nothing.jpg
        #expect(
            rows["santiago.jpg"]
                == [
                    root + "/santiago.jpg", "-33.44890000", "S", "-70.66930000", "W", "12.5", "Below Sea Level",
                    "Santiago", "Región Metropolitana de Santiago", "Chile", "CL", "",
                ])
        // The photo's own EXIF position wins over the sidecar's: it is not written back.
        #expect(rows["paris.jpg"].map { Array($0[1...6]) } == ["", "", "", "", "", ""])
        // Unless the sidecar's is preferred.
        let preferred = Self.rowsByName(
            Self.run(["scan", "--format", "exiftool-csv", "--prefer-sidecar", root]).output)
        #expect(preferred["paris.jpg"].map { Array($0[1...4]) } == ["48.85830000", "N", "2.29450000", "E"])
    }

    /// A position from a GPS track is written into the photo.
    @Test func aTracksPositionIsWritten() throws {
        let track = TrackTests.gpx([
            ("2024-03-01T15:00:00Z", -34.6037, -58.3816), ("2024-03-01T15:10:00Z", -34.6047, -58.3826),
        ])
        let root = try Self.folder([
            "walk.gpx": track,
            "camera.jpg": Data(TimedPhoto(dateTimeOriginal: "2024:03:01 12:05:00", offsetTimeOriginal: "-03:00").jpeg),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = Self.run([
            "locate", "--format", "exiftool-csv", "--track", root + "/walk.gpx", root + "/camera.jpg",
        ])
        #expect(run.status == PhotoTag.ExitStatus.success, "\(run.errors)")
        let row = try #require(Self.rowsByName(run.output)["camera.jpg"])
        #expect(Array(row[1...6]) == ["-34.60420000", "S", "-58.38210000", "W", "", ""])
        #expect(row[7] == "Buenos Aires" && row[10] == "AR")
    }

    /// `--lang de`: the city, region and country as a German reader names them.
    @Test func langNamesThePlacesInTheReadersLanguage() throws {
        let root = try Self.folder([
            "munich.jpg": Data(TimedPhoto(latitude: 48.1374, longitude: 11.5755).jpeg),
            "paris.jpg": Self.paris,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let english = Self.rowsByName(Self.run(["scan", "--format", "exiftool-csv", root]).output)
        #expect(english["munich.jpg"].map { Array($0[7...]) } == ["Munich", "Bayern", "Germany", "DE", ""])
        let german = Self.rowsByName(Self.run(["scan", "--format", "exiftool-csv", "--lang", "de", root]).output)
        #expect(german["munich.jpg"].map { Array($0[7...]) } == ["München", "Bayern", "Deutschland", "DE", ""])
        #expect(
            german["paris.jpg"].map { Array($0[7...]) }
                == ["Paris", "Île-de-France", "Frankreich", "FR", "Paris 16 Passy"])
    }

    /// Files with an error or nothing to write have no row; their diagnostics are on stderr, and
    /// the exit status is what the other formats give.
    @Test func filesWithNothingToWriteHaveNoRowButTheirDiagnostics() throws {
        let files = ["empty.jpg", "no-exif.jpg", "zero-zero.jpg", "ne-little-endian.jpg"].map(Fixtures.photo)
        let run = Self.run(["locate", "--format", "exiftool-csv"] + files)
        let csv = Self.run(["locate", "--format", "csv"] + files)
        #expect(run.status == csv.status && run.status == PhotoTag.ExitStatus.unreadable)
        #expect(Self.rowsByName(run.output).keys.sorted() == ["ne-little-endian.jpg"])
        #expect(run.errors.contains("empty.jpg: file is empty\n"))
        // A warning has no column to go in: it is on stderr, as in text.
        #expect(run.errors.contains("zero-zero.jpg: warning: position 0, 0 is the no-fix placeholder\n"))
        #expect(!csv.errors.contains("warning"))
    }

    /// A sidecar read alone: an XMP file takes the place (its position is its own); a Takeout
    /// JSON, which exiftool cannot write, has no row.
    @Test func aSidecarAloneIsWrittenOnlyWhenExifToolCanWriteIt() throws {
        let root = try Self.folder([
            "lonely.xmp": Self.xmp(48.8583, 2.2945), "IMG_0006.jpg.json": SidecarTests.takeout(52.5163, 13.3777),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let rows = Self.rowsByName(Self.run(["scan", "--format", "exiftool-csv", "--all-positions", root]).output)
        #expect(rows.keys.sorted() == ["lonely.xmp"])
        let own = Self.rowsByName(Self.run(["scan", "--format", "exiftool-csv", root]).output)
        #expect(
            own["lonely.xmp"].map { Array($0[1...]) } == [
                "", "", "", "", "", "", "Paris", "Île-de-France", "France", "FR", "Paris 16 Passy",
            ])
    }

    // MARK: - Scan, summary, usage

    /// `scan` writes what `locate` writes, in path order, whatever the number of readers; the
    /// summary counts every file and says how many have a row.
    @Test func scanWritesWhatLocateWritesWithTheSummary() throws {
        let folder = Fixtures.root + "/photos"
        let names = try listDirectory(folder).filter { $0.hasSuffix(".jpg") }.sorted()
        let locate = Self.run(
            ["locate", "--format", "exiftool-csv", "-q", "--all-positions"] + names.map(Fixtures.photo))
        for jobs in ["1", "8"] {
            let scan = Self.run([
                "scan", "--format", "exiftool-csv", "-q", "--all-positions", "--jobs", jobs, "--exclude", "*.[!j]*",
                folder,
            ])
            #expect(scan.output == locate.output, "--jobs \(jobs)")
        }
        let summary = Self.run(["scan", "--format", "exiftool-csv", "--summary", "-q", "--exclude", "*.[!j]*", folder])
        let rows = Self.rows(summary.output).count - 1
        #expect(summary.errors.contains("\(rows) of them kept by the filters\n"), "\(summary.errors)")
        #expect(summary.errors.hasPrefix("\(names.count) files\n"))
    }

    @Test(arguments: [
        (
            ["geocode", "--format", "exiftool-csv", "1,2"],
            "'--format exiftool-csv' is for photos (locate, scan): a coordinate has no file to write to"
        ),
        (
            ["locate", "--format", "exiftool-csv", "-"],
            "'-' (standard input) has no file name for --format exiftool-csv; give the photo's path"
        ),
        (
            ["scan", "--all-positions", "--format", "csv", "."],
            "'--all-positions' is for --format exiftool-csv and for tag"
        ),
        (["locate", "--all-positions", "x.jpg"], "'--all-positions' is for --format exiftool-csv and for tag"),
        (
            ["scan", "--format", "exiftool-csv", "--without-gps", "."],
            "'--without-gps' leaves nothing for --format exiftool-csv to write"
        ),
        (
            ["scan", "--format", "exiftool-csv", "--nearest", "3", "."],
            "'--nearest' has no column in --format exiftool-csv"
        ),
        (["locate", "--format", "exiftool-csv", "--bom", "x.jpg"], "'--bom' is for --format csv"),
    ])
    func combinationsThatMakeNoSenseAreUsageErrors(arguments: [String], message: String) {
        let run = Self.run(arguments)
        #expect(run.status == PhotoTag.ExitStatus.usage)
        #expect(run.output == "")
        #expect(run.errors.hasPrefix("Error: \(message)\n"), "\(run.errors)")
    }

    /// What a command that tags photos reuses: the same row from the record as the format's.
    @Test func theRowOfARecordIsTheFormatsRow() throws {
        var record = PhotoRecord(
            file: Fixtures.photo("ne-little-endian.jpg"),
            reading: GPSReader().read(path: Fixtures.photo("ne-little-endian.jpg")))
        record.place = PlaceOptions().lookUp(.init(latitude: 48.858222, longitude: 2.2945)!, in: .bundled)
        record.resolveTime()
        let formatter = RecordFormatter(
            format: .exiftoolCSV, nearby: false, style: TextStyle(enabled: false), photos: true)
        #expect(ExifToolCSV.row(record, allPositions: false) == formatter.render(.photo(record)).bytes)
        var all = formatter
        all.allPositions = true
        #expect(ExifToolCSV.row(record, allPositions: true) == all.render(.photo(record)).bytes)
        #expect(formatter.header() == ExifToolCSV.header)
        let tags = try #require(PhotoTags(record, allPositions: true))
        #expect(tags.position?.altitude == 35.5 && tags.city == "Paris" && tags.sublocation == "Paris 16 Passy")
        #expect(PhotoTags(PhotoRecord(file: "x.jpg", reading: .failure(.emptyFile)), allPositions: true) == nil)
    }
}

/// The readers the round trip uses, found on `PATH`.
enum ReaderTools {
    static let exiftool = find("exiftool")
    static let exiv2 = find("exiv2")

    /// `name` on `PATH`, as a full path.
    static func find(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The proof with the real reader: photos of the dev corpus and of `Fixtures/` lose their GPS
/// (exiftool strips it), get their positions back through XMP sidecars and Takeout JSON beside
/// them, `phototag scan --format exiftool-csv` writes the CSV, `exiftool -csv=` imports it into
/// the photos, and exiftool, exiv2 (where installed) and phototag read back what was written.
@Suite(
    .enabled(
        if: ReaderTools.exiftool != nil && Corpus.available,
        "exiftool (Debian libimage-exiftool-perl: Scripts/install-test-tools) or the dev corpus (../shared/corpus/dev) is missing"
    ))
struct ExifToolRoundTripTests {
    static let exiftool = ReaderTools.exiftool
    static let exiv2 = ReaderTools.exiv2

    /// What a program printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `program` in `directory` to its end: its status, standard output and error.
    static func run(_ program: String, _ arguments: [String], in directory: String) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: output) }
        // Files, not pipes: exiftool's output on hundreds of photos fills a pipe.
        FileManager.default.createFile(atPath: output + "/out", contents: nil)
        FileManager.default.createFile(atPath: output + "/err", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output + "/out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output + "/err"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        func text(_ name: String) throws -> String {
            String(decoding: try readWholeFile(output + "/" + name), as: UTF8.self)
        }
        return Run(status: process.terminationStatus, output: try text("out"), errors: try text("err"))
    }

    /// A Takeout JSON sidecar with this position.
    static func takeout(_ latitude: Double, _ longitude: Double, altitude: Double?) -> String {
        """
        {"title": "x", "photoTakenTime": {"timestamp": "1562250000", "formatted": ""},
         "geoData": {"latitude": \(latitude), "longitude": \(longitude)\(altitude.map { ", \"altitude\": \($0)" } ?? ""),
                     "latitudeSpan": 0.0, "longitudeSpan": 0.0}}
        """
    }

    /// The NDJSON records of `phototag scan ARGS lib`, run in `root`, by file name.
    static func records(_ arguments: [String], in root: String) throws -> [String: [String: Any]] {
        let scan = try Binary.run(["scan", "--format", "ndjson", "-q"] + arguments + ["lib"], directory: root)
        var records: [String: [String: Any]] = [:]
        for line in scan.text.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            records[String((record["file"] as! String).dropFirst("lib/".count))] = record
        }
        return records
    }

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test func exifToolImportsTheCSVAndReadsBackWhatPhototagFound() throws {
        let exiftool = try #require(Self.exiftool)
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lib = root + "/lib"
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        // Real positions: every corpus photo whose GPS the manifest calls valid, each given back
        // the position exiftool read from it.
        var positions: [String: (latitude: Double, longitude: Double, altitude: Double?)] = [:]
        for row in try Corpus.manifest() where row["gps_status"] == "valid" {
            guard let name = row["file"], let latitude = Double(row["lat"] ?? ""),
                let longitude = Double(row["lon"] ?? "")
            else { continue }
            try FileManager.default.copyItem(atPath: Corpus.directory + "/" + name, toPath: lib + "/" + name)
            positions[name] = (latitude, longitude, Double(row["alt"] ?? ""))
        }
        // Fixtures in every hemisphere, below sea level, in other containers, and a video, whose
        // position exiftool writes into XMP (no reference tags: the sign alone).
        let fixtures: [(String, Double, Double, Double?)] = [
            ("photos/no-exif.jpg", -33.4489, -70.6693, -12.5), ("photos/webp-exif.webp", -54.8019, -68.303, 3),
            ("photos/png-exif-before-idat.png", 64.1466, -21.9426, nil), ("photos/tiff-le.tif", -8.65, 115.2167, 7.25),
            ("photos/ne-little-endian.jpg", 35.6895, 139.6917, 40), ("videos/no-location.mp4", -22.9519, -43.2105, -2),
        ]
        for (path, latitude, longitude, altitude) in fixtures {
            let name = "fixture-" + String(path.split(separator: "/").last!)
            try FileManager.default.copyItem(atPath: Fixtures.root + "/" + path, toPath: lib + "/" + name)
            positions[name] = (latitude, longitude, altitude)
        }
        // The copies lose their GPS: EXIF's, and XMP's.
        _ = try Self.run(
            exiftool, ["-q", "-q", "-gps:all=", "-xmp-exif:gps*=", "-overwrite_original", "lib"], in: root)
        // Only the copies that phototag now reads without a position go on: exiftool 12.57
        // refuses to rewrite a few corpus files (a PNG with a bad CRC, JPEGs it calls corrupted)
        // and leaves one HEIC "unchanged", which keep their GPS.
        let stripped = try Self.records(["--no-place"], in: root)
        for (name, _) in positions where stripped[name]?["status"] as? String != "no-gps" {
            positions[name] = nil
            try FileManager.default.removeItem(atPath: lib + "/" + name)
        }
        let corpusCount = positions.keys.filter { !$0.hasPrefix("fixture-") }.count
        #expect(corpusCount >= 50, "\(corpusCount) corpus photos left")
        #expect(positions.count == corpusCount + fixtures.count, "a fixture kept its GPS: \(positions.keys.sorted())")
        // Their positions come back through sidecars: XMP for one half, Takeout JSON for the other.
        for (index, name) in positions.keys.sorted().enumerated() {
            let (latitude, longitude, altitude) = positions[name]!
            if index % 2 == 0 {
                try Data(ExifToolCSVTests.xmp(latitude, longitude, altitude: altitude).utf8)
                    .write(to: URL(fileURLWithPath: lib + "/" + name + ".xmp"))
            } else {
                try Data(Self.takeout(latitude, longitude, altitude: altitude).utf8)
                    .write(to: URL(fileURLWithPath: lib + "/" + name + ".json"))
            }
        }
        // What phototag finds (Japanese names where it has them: non-Latin script, kept whole),
        // and the CSV of it, with the paths relative to the folder both tools run in.
        let expected = try Self.records(["--lang", "ja"], in: root)
        let csv = try Binary.run(["scan", "--format", "exiftool-csv", "-q", "--lang", "ja", "lib"], directory: root)
        #expect(csv.status == 0)
        try csv.output.write(to: URL(fileURLWithPath: root + "/places.csv"))
        var rows: [String: [String]] = [:]
        for row in ExifToolCSVTests.rows(csv.text).dropFirst() { rows[String(row[0].dropFirst("lib/".count))] = row }
        #expect(rows.keys.sorted() == positions.keys.sorted())
        for (name, row) in rows {
            let gps = try #require(expected[name]?["gps"] as? [String: Any])
            #expect(["xmp-sidecar", "takeout"].contains(gps["source"] as? String), "\(name)")
            #expect(!row[1].isEmpty && !row[3].isEmpty, "\(name): no position in \(row)")
            #expect(row[5].isEmpty == (gps["altitude"] == nil || gps["altitude"] is NSNull), "\(name): \(row)")
        }

        // exiftool writes it.
        let imported = try Self.run(exiftool, ["-csv=places.csv", "-overwrite_original", "lib"], in: root)
        // With -csv=, exiftool's counts and messages are on stderr: a note for each sidecar it
        // finds no row for, a minor warning on odd maker notes, and no error.
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.errors.contains(" \(rows.count) image files updated\n"), "\(imported.errors)")
        #expect(
            !imported.errors.contains("Error") && !imported.errors.contains("weren't updated"), "\(imported.errors)")

        // exiftool reads it back.
        let tags = [
            "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSLatitudeRef", "-GPSLongitudeRef", "-GPSAltitudeRef",
            "-XMP-photoshop:City", "-XMP-photoshop:State", "-XMP-photoshop:Country", "-XMP-iptcCore:CountryCode",
            "-XMP-iptcCore:Location", "-IPTC:City", "-IPTC:Sub-location",
        ]
        let read = try Self.run(
            exiftool, ["-j", "-n", "-G1", "-a", "--ext", "xmp", "--ext", "json"] + tags + ["lib"], in: root)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [[String: Any]])
        var maxError = 0.0, maxAltitudeError = 0.0, placesChecked = 0
        var groups: Set<String> = []
        for object in objects {
            let name = String((object["SourceFile"] as! String).dropFirst("lib/".count))
            guard let row = rows[name], let (latitude, longitude, altitude) = positions[name] else { continue }
            groups.formUnion(object.keys.filter { $0.contains(":") }.map { String($0.split(separator: ":")[0]) })
            let gps = expected[name]?["gps"] as? [String: Any]
            // The signed position: EXIF's Composite, or XMP's own (a video's).
            let readLatitude = Self.number(object["Composite:GPSLatitude"] ?? object["XMP-exif:GPSLatitude"])
            let readLongitude = Self.number(object["Composite:GPSLongitude"] ?? object["XMP-exif:GPSLongitude"])
            let foundLatitude = try #require(Self.number(gps?["latitude"])),
                foundLongitude = try #require(Self.number(gps?["longitude"]))
            let error = max(abs((readLatitude ?? .nan) - foundLatitude), abs((readLongitude ?? .nan) - foundLongitude))
            #expect(error <= 1e-6, "\(name): exiftool reads \(readLatitude ?? .nan), \(readLongitude ?? .nan)")
            maxError = max(maxError, error.isNaN ? .infinity : error)
            #expect(abs(foundLatitude - latitude) < 1e-7 && abs(foundLongitude - longitude) < 1e-7, "\(name)")
            if object["GPS:GPSLatitudeRef"] != nil {
                #expect(object["GPS:GPSLatitudeRef"] as? String == (latitude < 0 ? "S" : "N"), "\(name)")
                #expect(object["GPS:GPSLongitudeRef"] as? String == (longitude < 0 ? "W" : "E"), "\(name)")
            }
            if let found = Self.number(gps?["altitude"]) {
                let readAltitude = Self.number(object["Composite:GPSAltitude"] ?? object["XMP-exif:GPSAltitude"])
                let error = abs((readAltitude ?? .nan) - found)
                #expect(error <= 0.001, "\(name): altitude \(readAltitude ?? .nan), phototag \(found)")
                maxAltitudeError = max(maxAltitudeError, error.isNaN ? .infinity : error)
                if let altitude, altitude != 0 { #expect(abs(found - altitude) < 0.01, "\(name)") }
            }
            // The places, as phototag wrote them, in XMP (an empty cell writes nothing: what the
            // photo had there stays); no IPTC written.
            let place = [
                "XMP-photoshop:City", "XMP-photoshop:State", "XMP-photoshop:Country", "XMP-iptcCore:CountryCode",
                "XMP-iptcCore:Location",
            ].map { object[$0] as? String ?? "" }
            for (read, written) in zip(place, row[7...]) where !written.isEmpty {
                #expect(read == written, "\(name): \(place) for \(Array(row[7...]))")
                placesChecked += 1
            }
            #expect(object["IPTC:City"] == nil || name.contains("iptc"), "\(name)")
        }
        #expect(
            Set(objects.compactMap { ($0["SourceFile"] as? String).map { String($0.dropFirst("lib/".count)) } })
                .isSuperset(of: rows.keys))
        // The names came out whole, in another script too.
        let cities = rows.values.map { $0[7] }.filter { $0.unicodeScalars.contains { $0.value > 0x3000 } }
        #expect(!cities.isEmpty, "no city in Japanese script: \(rows.values.map { $0[7] })")

        // phototag reads the positions from the photos themselves now (the sidecars gone).
        for name in try listDirectory(lib) where name.hasSuffix(".xmp") || name.hasSuffix(".json") {
            try FileManager.default.removeItem(atPath: lib + "/" + name)
        }
        let own = try Self.records(["--no-place"], in: root)
        for (name, (latitude, longitude, _)) in positions {
            let gps = own[name]?["gps"] as? [String: Any]
            #expect(["exif", "xmp"].contains(gps?["source"] as? String), "\(name): \(own[name] ?? [:])")
            let error = max(
                abs((Self.number(gps?["latitude"]) ?? .nan) - latitude),
                abs((Self.number(gps?["longitude"]) ?? .nan) - longitude))
            #expect(error <= 1e-6, "\(name): phototag reads \(gps ?? [:])")
        }

        // exiv2, another reader, sees the same XMP names in the JPEGs.
        var exiv2Checked = 0
        if let exiv2 = Self.exiv2 {
            for (name, row) in rows where name.lowercased().hasSuffix(".jpg") && !row[7].isEmpty {
                let shown = try Self.run(exiv2, ["-q", "-Pv", "-K", "Xmp.photoshop.City", "lib/" + name], in: root)
                #expect(shown.output == row[7] + "\n", "\(name): exiv2 says \(shown.output)")
                exiv2Checked += 1
            }
        }
        print(
            "exiftool round trip: \(rows.count) photos (\(corpusCount) of the dev corpus, \(fixtures.count) fixtures), "
                + "max position error \(maxError)°, max altitude error \(maxAltitudeError) m, \(placesChecked) names, "
                + "groups \(groups.sorted().joined(separator: " ")), exiv2 checked \(exiv2Checked)")
    }
}
