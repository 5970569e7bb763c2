import Foundation
import TestSupport
import Testing

@testable import PhotoGPS
@testable import PhotoTagCLI

/// XMP sidecars and Google Takeout JSON through `scan` and `locate`, on folders laid out as
/// real libraries and exports are.
@Suite struct SidecarTests {
    /// A JPEG at 48.858222, 2.2945 (Paris) and one with no EXIF at all.
    static let located = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
    static let bare = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg")))

    /// An XMP sidecar's text with these `rdf:Description` attributes.
    static func xmp(_ attributes: String) -> String { SidecarText.xmp(attributes) }

    /// A Takeout JSON file's text with this `geoData` and `photoTakenTime`.
    static func takeout(_ latitude: Double, _ longitude: Double, taken: String = "1562250000") -> String {
        """
        {"title": "x.jpg", "photoTakenTime": {"timestamp": "\(taken)", "formatted": ""},
         "geoData": {"latitude": \(latitude), "longitude": \(longitude), "altitude": 12.5,
                     "latitudeSpan": 0.0, "longitudeSpan": 0.0},
         "geoDataExif": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0}}
        """
    }

    /// A fresh folder holding `files` (name → contents).
    static func folder(_ files: [String: Any]) throws -> String {
        let root = try makeTemporaryDirectory()
        for (name, contents) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let data = contents as? Data ?? Data((contents as! String).utf8)
            try data.write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    /// `phototag ARGS --no-place --format ndjson` in-process: the records by file name (the
    /// last path component), in output order, and the exit status.
    static func records(
        _ arguments: [String]
    ) throws -> (
        status: Int32, records: [(name: String, record: [String: Any])], errors: String
    ) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments + ["--no-place", "--format", "ndjson"], output: output, errors: errors)
        var records: [(String, [String: Any])] = []
        for line in output.text.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            records.append((String((record["file"] as! String).split(separator: "/").last!), record))
        }
        return (status, records, errors.text)
    }

    static func name(_ value: Any?) -> String? {
        (value as? String).map { String($0.split(separator: "/").last!) }
    }

    static func gps(_ record: [String: Any]) -> (Double, Double, String)? {
        guard let gps = record["gps"] as? [String: Any] else { return nil }
        return (gps["latitude"] as! Double, gps["longitude"] as! Double, gps["source"] as! String)
    }

    @Test func oneStemWithAPhotoAnXMPAndAJSONIsOneRecordForThePhoto() throws {
        let root = try Self.folder([
            "IMG_0001.jpg": Self.bare,
            "IMG_0001.xmp": Self.xmp(#"exif:GPSLatitude="52,30.978N" exif:GPSLongitude="13,22.662E""#),
            "IMG_0001.jpg.json": Self.takeout(41.8902, 12.4922),
            "IMG_0002.jpg": Self.bare,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.records(["scan", root])
        #expect(result.records.map(\.name) == ["IMG_0001.jpg", "IMG_0002.jpg"])
        let record = result.records[0].record
        #expect(Self.name(record["sidecar"]) == "IMG_0001.xmp")  // XMP before Takeout
        let (latitude, longitude, source) = try #require(Self.gps(record))
        #expect(abs(latitude - 52.5163) < 1e-9 && abs(longitude - 13.3777) < 1e-9)
        #expect(source == "xmp-sidecar")
        #expect(result.records[1].record["sidecar"] is NSNull)
        // With only the JSON, the JSON fills in, and its capture time is the record's.
        try FileManager.default.removeItem(atPath: root + "/IMG_0001.xmp")
        let json = try Self.records(["scan", root]).records[0].record
        #expect(Self.name(json["sidecar"]) == "IMG_0001.jpg.json")
        #expect(Self.gps(json)?.2 == "takeout")
        #expect((json["time"] as? [String: Any])?["utc"] as? String == "2019-07-04T14:20:00Z")
    }

    /// Issue 23, item 10: an edited copy named in the account's language (`-bearbeitet`,
    /// `-modifié`, `-編集済み`…) takes the original's JSON, as `-edited` did; in NFC and, as
    /// macOS writes names, NFD; ASCII letters in any case.
    @Test func editedCopiesInEveryLanguageTakeTheOriginalsJSON() throws {
        var files: [String: Any] = [:]
        var expected: [String: (String, Double)] = [:]
        let suffixes = SidecarPairing.editedSuffixes.map { String(decoding: $0, as: UTF8.self) }
        #expect(suffixes.count > 25)  // 22 suffixes, 6 of them with an NFD form of their own
        for (index, suffix) in suffixes.enumerated() {
            let latitude = 10.0 + Double(index)
            // Every third with its ASCII letters in upper case (-EDITED, -MODIFIé).
            let asciiUpper = String(
                suffix.unicodeScalars.map { ("a"..."z").contains($0) ? Character($0).uppercased() : String($0) }
                    .joined())
            let photo = "p\(index)\(index % 3 == 0 ? asciiUpper : suffix).jpg"
            files["p\(index).jpg.json"] = Self.takeout(latitude, 1)
            files[photo] = Self.bare
            expected[photo] = ("p\(index).jpg.json", latitude)
        }
        // Not a suffix: a word that only ends like one, and one without its dash.
        files["q.jpg.json"] = Self.takeout(5, 1)
        files["qedited.jpg"] = Self.bare
        let root = try Self.folder(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.records(["scan", root])
        let byName = Dictionary(uniqueKeysWithValues: result.records.map { ($0.name, $0.record) })
        for (photo, (sidecar, latitude)) in expected {
            let record = try #require(byName[photo], "\(photo) has no record")
            #expect(Self.name(record["sidecar"]) == sidecar, "\(photo)")
            #expect(Self.gps(record)?.0 == latitude, "\(photo)")
        }
        #expect(byName["qedited.jpg"]?["status"] as? String == "no-gps")
        #expect(SidecarPairing.decomposed("-modifi\u{E9}").unicodeScalars.count == 9)
        #expect(SidecarPairing.decomposed("\u{D3B8}").unicodeScalars.map(\.value) == [0x1111, 0x1167, 0x11AB])
    }

    /// Issue 23, item 11: text showed a broken sidecar beside a photo without GPS nowhere, only
    /// JSON and CSV had it; it is now a warning line on stderr, as a located photo's are.
    @Test func textSaysWhyANoGPSPhotoHasNoPosition() throws {
        let root = try Self.folder(["a.jpg": Self.bare, "a.jpg.xmp": Data("<x:xmpmeta><rdf:RDF".utf8)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let text = try Binary.run(["locate", "a.jpg"], directory: root)
        #expect(text.text == "a.jpg  no GPS\n")
        #expect(
            String(decoding: text.errors, as: UTF8.self)
                == "phototag: a.jpg: warning: sidecar a.jpg.xmp: malformed file: the XMP sidecar is not well-formed XML\n"
        )
        let plain = try Self.folder(["b.jpg": Self.bare])
        defer { try? FileManager.default.removeItem(atPath: plain) }
        let quiet = try Binary.run(["locate", "b.jpg"], directory: plain)
        #expect(quiet.text == "b.jpg  no GPS\n" && quiet.errors.isEmpty)
    }

    @Test func everyNamingRulePairsThePhotoWithItsSidecar() throws {
        let long = "PXL_20190704_183015123.PORTRAIT-01.COVER_Family.jpg"
        let medium = "IMG_20190705_101010_top_of_hill.jpg"
        // photo → its sidecar, each with its own latitude
        let pairs: [(String, String)] = [
            ("a.jpg", "a.jpg.xmp"), ("b.CR2", "b.xmp"), ("C.JPG", "c.XMP"), ("d.jpg", "d.jpg.json"),
            ("e.jpg", "e.jpg.supplemental-metadata.json"), ("f(1).jpg", "f.jpg(1).json"),
            ("g.jpg", "g.jpg.supplemental-metadata(2).json"), ("h-edited.jpg", "h.jpg.json"),
            (long, String(long.prefix(46)) + ".json"),
            (medium, String((medium + ".supplemental-metadata").prefix(46)) + ".json"),
        ]
        var files: [String: Any] = [:]
        for (index, (photo, sidecar)) in pairs.enumerated() {
            files[photo] = Self.bare
            let latitude = 10.0 + Double(index)
            files[sidecar] =
                sidecar.lowercased().hasSuffix(".xmp")
                ? Self.xmp(#"exif:GPSLatitude="\#(Int(latitude)),0N" exif:GPSLongitude="1,0E""#)
                : Self.takeout(latitude, 1)
        }
        files["g(2).jpg"] = Self.bare  // the (2) JSON is g(2)'s, not g's
        files["f.jpg"] = Self.bare  // f.jpg(1).json is f(1)'s, not f's
        let root = try Self.folder(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.records(["scan", root])
        let byName = Dictionary(uniqueKeysWithValues: result.records.map { ($0.name, $0.record) })
        for (index, (photo, sidecar)) in pairs.enumerated() where photo != "g.jpg" {
            let record = try #require(byName[photo], "\(photo) has no record")
            #expect(Self.name(record["sidecar"]) == sidecar, "\(photo)")
            #expect(Self.gps(record)?.0 == 10.0 + Double(index), "\(photo)")
        }
        #expect(byName["g.jpg"]?["status"] as? String == "no-gps")
        #expect(Self.name(byName["g(2).jpg"]?["sidecar"]) == "g.jpg.supplemental-metadata(2).json")
        #expect(byName["f.jpg"]?["status"] as? String == "no-gps")
        // No sidecar is a record of its own: each belongs to a photo.
        #expect(result.records.count == pairs.count + 2)
    }

    @Test func aSidecarWithoutItsPhotoIsARecordOfItsOwn() throws {
        let root = try Self.folder([
            "lost.jpg.json": Self.takeout(48.8583, 2.2945),
            "lost.xmp": Self.xmp(#"exif:GPSLatitude="33,51.5S" exif:GPSLongitude="151,12.9E""#),
            "metadata.json": #"{"title": "Album", "description": ""}"#,
            "package.json": "{ not json",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        // JSON without Takeout metadata is no sidecar and is skipped; a .json that is not JSON
        // is a broken file, reported like any other.
        let result = try Self.records(["scan", root])
        #expect(result.records.map(\.name) == ["lost.jpg.json", "lost.xmp", "package.json"])
        #expect(result.status == 2)
        for (name, record) in result.records.prefix(2) {
            #expect(Self.name(record["sidecar"]) == name)
            #expect(record["status"] as? String == "located")
        }
        #expect(result.records[2].record["status"] as? String == "error")
        #expect(Self.gps(result.records[1].record)?.0 == -(33 + 51.5 / 60))
        // Named by path, a .json that is not JSON is an error too.
        let given = try Self.records(["scan", root + "/package.json"])
        #expect(given.records.map { $0.record["status"] as? String } == ["error"])
        #expect(given.status == 2)
    }

    @Test func theEmbeddedPositionWinsUnlessTheSidecarIsPreferred() throws {
        let root = try Self.folder([
            "p.jpg": Self.located,
            "p.jpg.xmp": Self.xmp(#"exif:GPSLatitude="52,30.978N" exif:GPSLongitude="13,22.662E""#),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let embedded = try Self.records(["scan", root]).records[0].record
        #expect(Self.gps(embedded)?.2 == "exif")
        #expect(Self.name(embedded["sidecar"]) == "p.jpg.xmp")
        let preferred = try Self.records(["scan", "--prefer-sidecar", root]).records[0].record
        #expect(Self.gps(preferred)?.2 == "xmp-sidecar")
        #expect(Self.gps(preferred)?.0 == 52.5163)
    }

    @Test func positionsMoreThan100MetresApartGetAWarning() throws {
        // Paris and Berlin: a warning. The same place to within ~10 m: none.
        let far = try Self.folder([
            "p.jpg": Self.located, "p.jpg.json": Self.takeout(52.5163, 13.3777),
        ])
        let near = try Self.folder([
            "p.jpg": Self.located, "p.jpg.json": Self.takeout(48.8583, 2.2945),
        ])
        defer {
            try? FileManager.default.removeItem(atPath: far)
            try? FileManager.default.removeItem(atPath: near)
        }
        let warned = try Self.records(["scan", far]).records[0].record
        let warnings = try #require(warned["warnings"] as? [String])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("879 km apart; the file's is used") == true, "\(warnings)")
        #expect(Self.gps(warned)?.2 == "exif")
        let quiet = try Self.records(["scan", near]).records[0].record
        #expect((quiet["warnings"] as? [String]) == [])
    }

    @Test func aBrokenSidecarIsAWarningOnThePhotosRecord() throws {
        let root = try Self.folder(["p.jpg": Self.located, "p.jpg.json": #"{"geoData": {"latitude": 1,}}"#])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.records(["scan", root])
        let record = result.records[0].record
        #expect(record["status"] as? String == "located")
        #expect(
            (record["warnings"] as? [String])?.first?.hasSuffix(
                "p.jpg.json: malformed file: the JSON sidecar is not JSON: expected a key at byte 27") == true,
            "\(record["warnings"] ?? "")")
    }

    @Test func locateOfAPhotoFindsItsSidecar() throws {
        let root = try Self.folder([
            "IMG_1234(1).jpg": Self.bare, "IMG_1234.jpg(1).json": Self.takeout(41.8902, 12.4922),
            "other.jpg": Self.bare,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.records(["locate", root + "/IMG_1234(1).jpg", root + "/other.jpg"])
        #expect(result.records.map(\.name) == ["IMG_1234(1).jpg", "other.jpg"])
        #expect(Self.name(result.records[0].record["sidecar"]) == "IMG_1234.jpg(1).json")
        #expect(Self.gps(result.records[0].record)?.0 == 41.8902)
        #expect(result.status == 1)  // other.jpg has no position
        // scan of the photo by path does the same.
        let scanned = try Self.records(["scan", root + "/IMG_1234(1).jpg"])
        #expect(Self.name(scanned.records[0].record["sidecar"]) == "IMG_1234.jpg(1).json")
    }

    @Test func locateOfASidecarReadsItAlone() throws {
        let root = try Self.folder([
            "x.jpg": Self.located,
            "x.xmp": Self.xmp(
                #"exif:GPSLatitude="40.4169" exif:GPSLatitudeRef="N" exif:GPSLongitude="3.7035" exif:GPSLongitudeRef="W""#
            ),
            "bad.json": "[1, 2",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.records(["locate", root + "/x.xmp", root + "/bad.json"])
        let record = result.records[0].record
        #expect(record["status"] as? String == "located")
        #expect(Self.gps(record)?.0 == 40.4169)
        #expect(Self.gps(record)?.1 == -3.7035)  // the Ref W signs the decimal
        #expect(Self.name(record["sidecar"]) == "x.xmp")
        // A broken JSON named by itself is a clear error.
        #expect(result.records[1].record["status"] as? String == "error")
        #expect(result.status == 2)
        #expect(result.errors.contains("bad.json: malformed file: the JSON sidecar is not JSON"))
    }

    @Test func theSidecarColumnIsInCSVAndGeoJSON() throws {
        let root = try Self.folder([
            "p.jpg": Self.bare, "p.xmp": Self.xmp(#"exif:GPSLatitude="1,0N" exif:GPSLongitude="2,0E""#),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let csv = run("scan", "--no-place", "--format", "csv", root)
        let lines = csv.output.split(separator: "\r\n")
        #expect(lines[0].hasPrefix("file,sidecar,status,"))
        #expect(lines[1].hasPrefix("\(root)/p.jpg,\(root)/p.xmp,located,1.0,2.0,"))
        let geojson = run("scan", "--no-place", "--format", "geojson", root)
        #expect(geojson.output.contains(#""file":"\#(root)/p.jpg","sidecar":"\#(root)/p.xmp","status":"located""#))
    }

    /// The Takeout fixture export (Fixtures/make_sidecars.py): every photo paired, the orphan
    /// alone, the album's metadata.json skipped.
    @Test func theFixtureExportPairsEveryPhoto() throws {
        let result = try Self.records(["scan", Fixtures.root + "/sidecars/takeout"])
        let expected: [(String, String?, Double?)] = [
            ("IMG_0001.jpg", "IMG_0001.jpg.json", 48.8583),
            ("IMG_0002.jpg", "IMG_0002.jpg.supplemental-metadata.json", 52.5163),  // geoData 0/0: geoDataExif
            ("IMG_0003(1).jpg", "IMG_0003.jpg(1).json", 41.8902), ("IMG_0003.jpg", "IMG_0003.jpg.json", 40.4169),
            ("IMG_0004-edited.jpg", "IMG_0004.jpg.json", 40.4169), ("IMG_0004.jpg", "IMG_0004.jpg.json", 40.4169),
            ("IMG_0005.jpg", "IMG_0005.jpg.json", nil),  // 0/0 in both: no position
            ("IMG_0006.jpg.json", "IMG_0006.jpg.json", 48.8583),
            ("IMG_20190705_101010_top_of_hill.jpg", "IMG_20190705_101010_top_of_hill.jpg.supplement.json", 41.8902),
            (
                "PXL_20190704_183015123.PORTRAIT-01.COVER_Family.jpg",
                "PXL_20190704_183015123.PORTRAIT-01.COVER_Famil.json", 52.5163
            ),
        ]
        #expect(result.records.map(\.name) == expected.map(\.0))
        for ((name, record), (_, sidecar, latitude)) in zip(result.records, expected) {
            #expect(Self.name(record["sidecar"]) == sidecar, "\(name)")
            #expect(Self.gps(record)?.0 == latitude, "\(name)")
        }
        #expect(result.records[6].record["status"] as? String == "no-gps")
    }
}

/// The `.xmp` rows of the shared video corpus (`PHOTOTAG_SHARED`, or `../shared` beside the
/// repository): real sidecars from digiKam, photoprism, exiftool and others, with ExifTool's
/// positions in `manifest.tsv`.
enum SidecarCorpus {
    static let directory = SharedData.path("corpus/video-dev")

    /// Whether the corpus is there, looked up once: the suite's condition below is evaluated
    /// more than once per run, and the note of a computed property printed as many times.
    static let available: Bool = {
        let present = FileManager.default.fileExists(atPath: directory + "/manifest.tsv")
        if !present {
            SharedData.note("SidecarCorpus: \(directory)/manifest.tsv is not present; the .xmp conformance test skips")
        }
        return present
    }()
}

/// The note about a missing video corpus is printed once per run, however often the corpus is
/// asked about (`make test` used to print it twice).
@Suite struct SharedCorpusNoteTests {
    @Test func theMissingCorpusNoteIsPrintedAtMostOnce() {
        for _ in 0..<3 { _ = SidecarCorpus.available }
        let notes = SharedData.printedNotes.filter { $0.hasPrefix("SidecarCorpus:") }
        #expect(notes.count == (SidecarCorpus.available ? 0 : 1), "\(notes)")
    }
}

@Suite(
    .enabled(if: SidecarCorpus.available, "the video corpus (../shared/corpus/video-dev/manifest.tsv) is not present"))
struct SidecarConformanceTests {
    /// Every `valid` sidecar located within 1e-5°, every `none` one without a position (no-gps or
    /// an error); read through `locate`, a sidecar named by itself.
    @Test func xmpRowsOfTheVideoCorpusMatchTheManifest() throws {
        var rows: [String: [String: String]] = [:]
        for row in try SharedData.manifest(in: SidecarCorpus.directory)
        where row["file"]?.lowercased().hasSuffix(".xmp") == true {
            rows[row["file"]!] = row
        }
        #expect(rows.count >= 20)
        let files = rows.keys.sorted()
        let result = try SidecarTests.records(["locate"] + files.map { SidecarCorpus.directory + "/" + $0 })
        #expect(result.records.map(\.name) == files)
        var valid = 0
        for (name, record) in result.records {
            let row = rows[name]!
            switch row["gps_status"] {
            case "valid":
                valid += 1
                let gps = try #require(SidecarTests.gps(record), "\(name): \(record["status"] ?? "")")
                #expect(abs(gps.0 - Double(row["lat"]!)!) < 1e-5, "\(name)")
                #expect(abs(gps.1 - Double(row["lon"]!)!) < 1e-5, "\(name)")
                #expect(gps.2 == "xmp-sidecar")
                if let altitude = Double(row["alt"] ?? "") {
                    let gpsObject = record["gps"] as! [String: Any]
                    #expect(abs((gpsObject["altitude"] as? Double ?? .nan) - altitude) < 0.01, "\(name)")
                }
            case "none":
                #expect(["no-gps", "error"].contains(record["status"] as? String), "\(name)")
            default:
                Issue.record("\(name): unexpected gps_status \(row["gps_status"] ?? "")")
            }
        }
        #expect(valid >= 7)
        print("SidecarConformance: \(rows.count) .xmp sidecars, \(valid) located as ExifTool does")
    }
}
