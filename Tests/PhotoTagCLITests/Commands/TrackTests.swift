import Foundation
import PhotoGPS
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `--track`: photos without a position placed on GPS tracks, through the command line, on
/// generated tracks and photos with exact expected positions.
@Suite struct TrackTests {
    /// A GPX 1.1 file of `fixes` (ISO time, latitude, longitude).
    static func gpx(_ fixes: [(String, Double, Double)]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="phototag tests" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for (time, latitude, longitude) in fixes {
            text += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><time>\(time)</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// Writes `files` (name → contents) and `photos` into a new folder; runs `locate` with
    /// `arguments` (where `{NAME}` stands for the file's path) on the photos, in NDJSON.
    static func run(
        files: [String: String], photos: [TimedPhoto], _ arguments: [String]
    ) throws -> (status: Int32, records: [[String: Any]], errors: String) {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, contents) in files {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        var paths: [String] = []
        for (index, photo) in photos.enumerated() {
            let path = folder + "/photo\(index).jpg"
            try Data(photo.jpeg).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let resolved = arguments.map { argument in
            files.keys.reduce(argument) { $0.replacingOccurrences(of: "{\($1)}", with: folder + "/" + $1) }
        }
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(
            ["locate", "--format", "ndjson"] + resolved + paths, output: output, errors: errors)
        let records = try output.text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        return (status, records, errors.text.replacingOccurrences(of: folder + "/", with: ""))
    }

    static func gps(_ record: [String: Any]) -> (latitude: Double, longitude: Double, source: String)? {
        guard let gps = record["gps"] as? [String: Any], let latitude = gps["latitude"] as? Double,
            let longitude = gps["longitude"] as? Double, let source = gps["source"] as? String
        else { return nil }
        return (latitude, longitude, source)
    }

    static func time(_ record: [String: Any]) -> [String]? { CaptureTimeRecordTests.time(record) }

    /// Suwałki (Poland, Europe/Warsaw, UTC+1 in winter) until 11:00Z, then Marijampolė
    /// (Lithuania, Europe/Vilnius, UTC+2), one fix every ten minutes.
    static let border = gpx(
        [
            ("2024-01-10T10:00:00Z", 54.10, 22.93), ("2024-01-10T10:10:00Z", 54.10, 22.94),
            ("2024-01-10T10:20:00Z", 54.10, 22.95), ("2024-01-10T10:30:00Z", 54.10, 22.96),
            ("2024-01-10T10:40:00Z", 54.10, 22.97), ("2024-01-10T10:50:00Z", 54.10, 22.98),
            ("2024-01-10T11:00:00Z", 54.10, 22.99), ("2024-01-10T11:10:00Z", 54.56, 23.35),
            ("2024-01-10T11:20:00Z", 54.56, 23.36), ("2024-01-10T11:30:00Z", 54.56, 23.37),
            ("2024-01-10T11:40:00Z", 54.56, 23.38), ("2024-01-10T11:50:00Z", 54.56, 23.39),
            ("2024-01-10T12:00:00Z", 54.56, 23.40),
        ])

    @Test func aClockWithoutAnOffsetIsReadInTheZoneOfTheTracksPosition() throws {
        // 11:25 on the camera is 10:25Z in Poland (+1): half way between two fixes. 13:35 is
        // 11:35Z in Lithuania (+2).
        let run = try Self.run(
            files: ["trip.gpx": Self.border],
            photos: [
                TimedPhoto(dateTimeOriginal: "2024:01:10 11:25:00"),
                TimedPhoto(dateTimeOriginal: "2024:01:10 13:35:00"),
            ], ["--track", "{trip.gpx}"])
        #expect(run.status == 0, "\(run.errors)")
        let first = try #require(Self.gps(run.records[0]))
        #expect(abs(first.latitude - 54.10) < 1e-9 && abs(first.longitude - 22.955) < 1e-9 && first.source == "track")
        #expect(Self.time(run.records[0]) == ["2024-01-10T10:25:00Z", "2024-01-10T11:25:00+01:00", "track"])
        let second = try #require(Self.gps(run.records[1]))
        #expect(abs(second.longitude - 23.375) < 1e-9)
        #expect(Self.time(run.records[1]) == ["2024-01-10T11:35:00Z", "2024-01-10T13:35:00+02:00", "track"])
        let track = try #require(run.records[0]["track"] as? [String: Any])
        #expect(track["file"] as? String != nil && track["interpolated"] as? Bool == true)
        #expect(track["gapSeconds"] as? Double == 600 && track["nearestPointSeconds"] as? Double == 300)
    }

    @Test func aClockThatFitsTwoZonesWarnsAndTakesTheOneNearerAFix() throws {
        // Driving west from Lithuania (+2) into Poland (+1) at about 11:10Z: 12:35 on the camera
        // is 10:35Z in Lithuania (1 min from a fix) and 11:35Z in Poland (15 min from one).
        let westward = Self.gpx(
            [
                ("2024-01-10T10:00:00Z", 54.56, 23.40), ("2024-01-10T10:36:00Z", 54.56, 23.36),
                ("2024-01-10T11:00:00Z", 54.56, 23.35), ("2024-01-10T11:20:00Z", 54.10, 22.99),
                ("2024-01-10T11:50:00Z", 54.10, 22.96),
            ])
        let run = try Self.run(
            files: ["west.gpx": westward], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 12:35:00")],
            ["--track", "{west.gpx}"])
        let record = try #require(run.records.first)
        #expect(Self.time(record) == ["2024-01-10T10:35:00Z", "2024-01-10T12:35:00+02:00", "track"])
        let warnings = record["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("fits the positions at +01:00 and +02:00") }, "\(warnings)")
    }

    @Test func daylightSavingTimeChangesDuringATrip() throws {
        // Paris, 2024-03-31: clocks go from 02:00 (+01:00) to 03:00 (+02:00) at 01:00Z.
        let paris = Self.gpx(
            (0...18).map { step in
                let minutes = step * 10
                let time = String(format: "2024-03-31T%02d:%02d:00Z", minutes / 60, minutes % 60)
                return (time, 48.85, 2.35 + Double(step) / 1000)
            })
        let run = try Self.run(
            files: ["paris.gpx": paris],
            photos: [
                TimedPhoto(dateTimeOriginal: "2024:03:31 01:30:00"),
                TimedPhoto(dateTimeOriginal: "2024:03:31 03:30:00"),
            ], ["--track", "{paris.gpx}"])
        #expect(Self.time(run.records[0]) == ["2024-03-31T00:30:00Z", "2024-03-31T01:30:00+01:00", "track"])
        #expect(abs(try #require(Self.gps(run.records[0])).longitude - 2.353) < 1e-9)
        #expect(Self.time(run.records[1]) == ["2024-03-31T01:30:00Z", "2024-03-31T03:30:00+02:00", "track"])
        #expect(abs(try #require(Self.gps(run.records[1])).longitude - 2.359) < 1e-9)
    }

    @Test func theOffsetOfThePhotoIsUsedAsItIs() throws {
        // OffsetTimeOriginal +05:00 (a camera on another zone's time): 15:25+05:00 is 10:25Z.
        let run = try Self.run(
            files: ["trip.gpx": Self.border],
            photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 15:25:00", offsetTimeOriginal: "+05:00")],
            ["--track", "{trip.gpx}"])
        #expect(abs(try #require(Self.gps(run.records[0])).longitude - 22.955) < 1e-9)
        #expect(Self.time(run.records[0])?.last == "exif")
    }

    @Test func timeZoneAndClockOffsetOverrideTheTrack() throws {
        // A camera on Tokyo time (+09:00) in Poland: 19:25 is 10:25Z.
        let tokyo = try Self.run(
            files: ["trip.gpx": Self.border], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 19:25:00")],
            ["--track", "{trip.gpx}", "--time-zone", "Asia/Tokyo"])
        #expect(abs(try #require(Self.gps(tokyo.records[0])).longitude - 22.955) < 1e-9)
        #expect(Self.time(tokyo.records[0]) == ["2024-01-10T10:25:00Z", "2024-01-10T11:25:00+01:00", "option"])
        // A fixed offset, and a camera clock 1 h 2 min 3 s slow.
        let slow = try Self.run(
            files: ["trip.gpx": Self.border], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 10:22:57")],
            ["--track", "{trip.gpx}", "--time-zone", "+01:00", "--clock-offset", "+01:02:03"])
        #expect(Self.time(slow.records[0]) == ["2024-01-10T10:25:00Z", "2024-01-10T11:25:00+01:00", "option"])
        // Without a zone, the corrected clock is solved against the track.
        let solved = try Self.run(
            files: ["trip.gpx": Self.border], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 10:22:57")],
            ["--track", "{trip.gpx}", "--clock-offset", "+01:02:03"])
        #expect(Self.time(solved.records[0]) == ["2024-01-10T10:25:00Z", "2024-01-10T11:25:00+01:00", "track"])
    }

    @Test func syncWithTakesTheCameraOffsetFromAPhotoWithGPSTime() throws {
        // The reference photo: camera clock 09:00:00, GPS time 07:58:30Z. The camera reads
        // UTC + 1 h 1 min 30 s; a photo at 11:26:30 on it is 10:25Z.
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reference = folder + "/reference.jpg"
        try Data(
            TimedPhoto(
                dateTimeOriginal: "2024:01:10 09:00:00", latitude: 54.1, longitude: 22.9, gpsDate: "2024:01:10",
                gpsTime: (7, 58, 30)
            ).jpeg
        ).write(to: URL(fileURLWithPath: reference))
        let run = try Self.run(
            files: ["trip.gpx": Self.border], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 11:26:30")],
            ["--track", "{trip.gpx}", "--sync-with", reference])
        #expect(abs(try #require(Self.gps(run.records[0])).longitude - 22.955) < 1e-9)
        #expect(Self.time(run.records[0]) == ["2024-01-10T10:25:00Z", "2024-01-10T11:25:00+01:00", "option"])
        // A reference without a GPS time is refused before anything is read.
        let none = try Self.run(
            files: ["trip.gpx": Self.border], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 11:26:30")],
            ["--track", "{trip.gpx}", "--sync-with", Fixtures.photo("exif-without-gps.jpg")])
        #expect(none.status == 2 && none.records.isEmpty)
        #expect(none.errors.contains("has no GPS date and time"), "\(none.errors)")
    }

    @Test func theEmbeddedPositionWinsUnlessPreferTrackAndFarApartWarns() throws {
        // The photo's own position is 1.1 km north of the track's.
        let photo = TimedPhoto(
            dateTimeOriginal: "2024:01:10 15:25:00", offsetTimeOriginal: "+05:00", latitude: 54.11, longitude: 22.955)
        let own = try Self.run(files: ["trip.gpx": Self.border], photos: [photo], ["--track", "{trip.gpx}"])
        #expect(try #require(Self.gps(own.records[0])).source == "exif")
        #expect(own.records[0]["track"] == nil)
        let warnings = own.records[0]["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("from its own position; the photo's own is used") }, "\(warnings)")
        let preferred = try Self.run(
            files: ["trip.gpx": Self.border], photos: [photo], ["--track", "{trip.gpx}", "--prefer-track"])
        #expect(try #require(Self.gps(preferred.records[0])).source == "track")
        #expect(abs(try #require(Self.gps(preferred.records[0])).latitude - 54.10) < 1e-9)
    }

    @Test func aPhotoOutsideTheTrackHasNoPositionAndAReason() throws {
        let run = try Self.run(
            files: ["trip.gpx": Self.border],
            photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 15:00:00", offsetTimeOriginal: "+01:00")],
            ["--track", "{trip.gpx}"])
        #expect(run.status == 1)
        #expect(run.records[0]["status"] as? String == "no-gps")
        #expect(
            run.records[0]["warnings"] as? [String] == [
                "track: no position: the photo was taken 2 h after the track ends"
            ])
        // Without an offset, no zone the track passes through fits.
        let unsolved = try Self.run(
            files: ["trip.gpx": Self.border], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 20:00:00")],
            ["--track", "{trip.gpx}"])
        let warning = try #require((unsolved.records[0]["warnings"] as? [String])?.first)
        #expect(warning.hasPrefix("track: no position: in no zone the positions pass through"), "\(warning)")
        // A wider --max-extrapolation reaches it.
        let reached = try Self.run(
            files: ["trip.gpx": Self.border],
            photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 15:00:00", offsetTimeOriginal: "+01:00")],
            ["--track", "{trip.gpx}", "--max-extrapolation", "7200"])
        #expect(try #require(Self.gps(reached.records[0])).longitude == 23.40)
    }

    @Test func aTrackWithoutTimesOrBrokenIsAnErrorAndTheRunGoesOn() throws {
        let untimed = """
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="54.1" lon="22.9"/><trkpt lat="54.2" lon="22.9"/></trkseg></trk></gpx>
            """
        let broken = String(Self.border.prefix(400))
        let run = try Self.run(
            files: ["trip.gpx": Self.border, "untimed.gpx": untimed, "broken.gpx": broken, "notes.txt": "hello\n"],
            photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 11:25:00")],
            ["--track", "{untimed.gpx}", "--track", "{broken.gpx}", "--track", "{notes.txt}", "--track", "{trip.gpx}"])
        #expect(run.status == 2)
        #expect(try #require(Self.gps(run.records[0])).source == "track")
        let lines = run.errors.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.errors)")
        #expect(lines.contains { $0.hasPrefix("phototag: track 'untimed.gpx': no position with a time in it") })
        #expect(lines.contains { $0.hasPrefix("phototag: track 'broken.gpx': ") })
        #expect(lines.contains { $0.hasPrefix("phototag: track 'notes.txt': not a track file") })
    }

    @Test func aFolderGivesEveryTrackInIt() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/tracks", withIntermediateDirectories: true)
        try Data(Self.border.utf8).write(to: URL(fileURLWithPath: folder + "/tracks/a.gpx"))
        try Data("not a track\n".utf8).write(to: URL(fileURLWithPath: folder + "/tracks/readme.txt"))
        let run = try Self.run(
            files: [:], photos: [TimedPhoto(dateTimeOriginal: "2024:01:10 11:25:00")],
            ["--track", folder + "/tracks"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try #require(Self.gps(run.records[0])).source == "track")
        #expect(run.errors.contains("1 file that is not a track left out"), "\(run.errors)")
    }

    @Test func fromPhotosPlacesAPhotoByTheLocatedPhotosTakenThen() throws {
        // Two phone photos 20 minutes apart in Paris, and a camera photo between them (its clock
        // without an offset: the positions' zone, Europe/Paris, +02:00 in July, gives it).
        let photos = [
            TimedPhoto(
                dateTimeOriginal: "2019:07:01 14:00:00", offsetTimeOriginal: "+02:00", latitude: 48.85,
                longitude: 2.30),
            TimedPhoto(dateTimeOriginal: "2019:07:01 14:05:00"),
            TimedPhoto(
                dateTimeOriginal: "2019:07:01 14:20:00", offsetTimeOriginal: "+02:00", latitude: 48.87,
                longitude: 2.34),
            // Two hours later: no photo near it in time.
            TimedPhoto(dateTimeOriginal: "2019:07:01 17:00:00", offsetTimeOriginal: "+02:00"),
        ]
        let run = try Self.run(files: [:], photos: photos, ["--from-photos"])
        #expect(run.status == 1)
        let placed = try #require(Self.gps(run.records[1]))
        #expect(placed.source == "nearby-photo")
        #expect(abs(placed.latitude - 48.855) < 1e-6 && abs(placed.longitude - 2.31) < 1e-6)
        let track = try #require(run.records[1]["track"] as? [String: Any])
        #expect((track["file"] as? String)?.hasSuffix("photo0.jpg") == true)
        #expect(Self.time(run.records[1]) == ["2019-07-01T12:05:00Z", "2019-07-01T14:05:00+02:00", "track"])
        // The located photos keep their own positions.
        #expect(try #require(Self.gps(run.records[0])).source == "exif")
        #expect(run.records[3]["status"] as? String == "no-gps")
        let warnings = run.records[3]["warnings"] as? [String] ?? []
        #expect(warnings == ["nearby photos: no position: the photo was taken 2.7 h after the track ends"])
        // A track wins over the photos nearby.
        let lisbon = try String(contentsOfFile: Fixtures.root + "/tracks/lisbon-walk.gpx", encoding: .utf8)
        let both = try Self.run(
            files: ["walk.gpx": lisbon],
            photos: [
                TimedPhoto(
                    dateTimeOriginal: "2021:05:06 07:07:00", offsetTimeOriginal: "+01:00", latitude: 48.85,
                    longitude: 2.30),
                TimedPhoto(dateTimeOriginal: "2021:05:06 07:08:09"),
            ], ["--from-photos", "--track", "{walk.gpx}"])
        #expect(try #require(Self.gps(both.records[1])).source == "track")
    }

    @Test func theOptionsAreCheckedBeforeAnythingIsRead() {
        for (arguments, message) in [
            (["--prefer-track"], "'--prefer-track' needs '--track FILE'"),
            (["--track", "x.gpx", "--time-zone", "Mars/Olympus"], "needs a zone of the tz database"),
            (["--track", "x.gpx", "--clock-offset", "1:00"], "needs ±[D ]HH:MM[:SS]"),
            (["--track", "x.gpx", "--clock-offset", "+9999999999999999 00:00"], "needs ±[D ]HH:MM[:SS]"),
            (["--track", "x.gpx", "--max-gap", "soon"], "needs a number of seconds"),
            (["--track", "x.gpx", "--sync-with", "a.jpg", "--time-zone", "UTC"], "finds the camera's offset itself"),
        ] {
            let result = GeocodeInputTests.run(["locate"] + arguments + ["photo.jpg"])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
    }

    @Test func theFlatFormatsHaveTrackColumnsOnlyWithTracks() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.border.utf8).write(to: URL(fileURLWithPath: folder + "/trip.gpx"))
        let photo = folder + "/photo.jpg"
        try Data(TimedPhoto(dateTimeOriginal: "2024:01:10 11:25:00").jpeg).write(to: URL(fileURLWithPath: photo))
        let with = GeocodeInputTests.run(["locate", "--format", "csv", "--track", folder + "/trip.gpx", photo])
        let lines = with.output.split(separator: "\r\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(
            header.filter { $0.hasPrefix("track_") } == [
                "track_file", "track_interpolated", "track_gap_seconds", "track_gap_meters",
                "track_nearest_point_seconds",
            ])
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let column = try #require(header.firstIndex(of: "track_interpolated"))
        #expect(row[column] == "true")
        let without = GeocodeInputTests.run(["locate", "--format", "csv", photo])
        #expect(!without.output.contains("track_"))
        let json = GeocodeInputTests.run(["locate", "--json", photo])
        #expect(!json.output.contains("\"track\""))
    }
}

/// The shared corpus of real tracks and photos (`corpus/tracks-dev`): every photo's position is
/// the one ExifTool 13.58's `-geotag` gives it with the right offset, within 1e-6°.
@Suite struct TrackCorpusTests {
    static let folder = SharedData.path("corpus/tracks-dev")
    static let present = FileManager.default.fileExists(atPath: folder + "/manifest.tsv")

    @Test(.enabled(if: present, "the shared corpus/tracks-dev is not beside the repository"))
    func everyPhotoIsWhereExifToolPutsIt() throws {
        let rows = try SharedData.manifest(in: Self.folder)
        #expect(rows.count >= 50)
        var located = 0, checked = 0
        for row in rows {
            let photo = Self.folder + "/photos/" + row["photo", default: ""]
            let track = Self.folder + "/tracks/" + row["track", default: ""]
            let result = GeocodeInputTests.run(["locate", "--format", "ndjson", "--track", track, photo])
            let record = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let name = row["photo", default: ""]
            checked += 1
            if row["expected_status"] == "located" {
                located += 1
                let gps = try #require(record["gps"] as? [String: Any], "\(name): \(result.errors) \(record)")
                let latitude = try #require(gps["latitude"] as? Double),
                    longitude = try #require(gps["longitude"] as? Double)
                let expectedLatitude = try #require(Double(row["expected_lat", default: ""]))
                let expectedLongitude = try #require(Double(row["expected_lon", default: ""]))
                #expect(
                    abs(latitude - expectedLatitude) <= 1e-6, "\(name): latitude \(latitude) vs \(expectedLatitude)")
                #expect(
                    abs(longitude - expectedLongitude) <= 1e-6,
                    "\(name): longitude \(longitude) vs \(expectedLongitude)")
                if let altitude = Double(row["expected_alt", default: ""]) {
                    let found = gps["altitude"] as? Double
                    #expect(
                        found.map { abs($0 - altitude) <= 0.01 } == true,
                        "\(name): altitude \(String(describing: found)) vs \(altitude)")
                } else {
                    #expect(gps["altitude"] is NSNull, "\(name): an altitude the truth does not have")
                }
                #expect(gps["source"] as? String == "track")
                // The instant matched is the true one, found from the photo's offset or the track.
                let time = try #require(record["time"] as? [String: Any])
                let utc = try #require(time["utc"] as? String)
                #expect(utc == row["true_utc_time"], "\(name): matched at \(utc), truth \(row["true_utc_time"] ?? "")")
                let source = row["offset_in_file"] == "yes" ? "exif" : "track"
                #expect(time["offsetSource"] as? String == source, "\(name)")
            } else {
                #expect(record["status"] as? String == "no-gps", "\(name): \(record)")
                let warnings = record["warnings"] as? [String] ?? []
                #expect(warnings.contains { $0.hasPrefix("track: no position") }, "\(name): \(warnings)")
            }
        }
        #expect(located >= 40 && checked == rows.count)
    }

    /// A broken file of every format (cut at 60%, and with bytes garbled in the middle) is
    /// reported on stderr, by an error or by the points it leaves out, unless the damage hit
    /// nothing that is read (its fixes are then the whole file's, or a first part of them when
    /// cut); and the run goes on: the photo is still placed by the good track given after it.
    @Test(.enabled(if: present, "the shared corpus/tracks-dev is not beside the repository"))
    func aBrokenTrackOfEveryFormatIsReportedAndTheRunGoesOn() throws {
        let names = try listDirectory(Self.folder + "/tracks").sorted()
        #expect(names.count >= 20)
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = Fixtures.photo("exif-without-gps.jpg")
        let good = Fixtures.root + "/tracks/lisbon-walk.gpx"
        for name in names {
            let bytes = try readWholeFile(Self.folder + "/tracks/" + name)
            var garbled = bytes
            for index in stride(from: bytes.count / 2, to: min(bytes.count, bytes.count / 2 + 64), by: 1) {
                garbled[index] = 0xFF
            }
            for (kind, broken) in [("cut", Array(bytes.prefix(bytes.count * 6 / 10))), ("garbled", garbled)] {
                let path = folder + "/\(kind)-" + name
                try Data(broken).write(to: URL(fileURLWithPath: path))
                let result = GeocodeInputTests.run([
                    "locate", "--format", "ndjson", "--track", path, "--track", good, photo,
                ])
                if !result.errors.contains("phototag: track '\(path)': ") {
                    var whole = Track(), damaged = Track()
                    _ = try TrackReader.read(bytes: bytes, name: name, into: &whole)
                    _ = try TrackReader.read(bytes: broken, name: name, into: &damaged)
                    let expected = kind == "cut" ? Array(whole.fixes.prefix(damaged.fixes.count)) : whole.fixes
                    #expect(damaged.fixes == expected, "\(kind) \(name): fixes lost without a word")
                }
                #expect(result.output.contains("\"source\":\"track\""), "\(kind) \(name): \(result.output)")
                #expect(result.status == 0 || result.status == 2, "\(kind) \(name)")
            }
        }
    }
}
