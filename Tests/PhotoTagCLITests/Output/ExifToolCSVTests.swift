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
                " exif:GPSAltitude=\"\(Int((altitude.magnitude * 10).rounded()))/10\""
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
