import Foundation
import PhotoGPS
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `phototag tag`: sidecars written through the command line, their names, what is kept, and
/// that a failed write is an error that leaves the old file as it was.
@Suite struct TagTests {
    /// A folder with `photos` (name → photo) and `files` (name → text), deleted by `remove()`.
    struct Folder {
        let path: String

        init(photos: [String: TimedPhoto] = [:], files: [String: String] = [:]) throws {
            path = try makeTemporaryDirectory()
            for (name, photo) in photos { try Data(photo.jpeg).write(to: URL(fileURLWithPath: path + "/" + name)) }
            for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }
        }

        /// A folder that is there already (not removed by ``remove()``'s caller).
        init(existing path: String) { self.path = path }

        func remove() { try? FileManager.default.removeItem(atPath: path) }

        func file(_ name: String) -> String { path + "/" + name }

        func read(_ name: String) -> String? {
            (try? Data(contentsOf: URL(fileURLWithPath: file(name)))).map { String(decoding: $0, as: UTF8.self) }
        }

        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    /// Runs `phototag tag` with `arguments` (`{}` is the folder), in NDJSON unless a format is given.
    static func tag(
        _ folder: Folder, _ arguments: [String]
    ) throws -> (
        status: Int32, records: [[String: Any]], output: String, errors: String
    ) {
        let resolved = arguments.map { $0.replacingOccurrences(of: "{}", with: folder.path) }
        let format = resolved.contains("--format") ? [] : ["--format", "ndjson"]
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(["tag", "--no-progress"] + format + resolved, output: output, errors: errors)
        let records =
            format.isEmpty
            ? []
            : try output.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        return (status, records, output.text, errors.text.replacingOccurrences(of: folder.path + "/", with: ""))
    }

    static func tagObject(_ record: [String: Any]) -> [String: Any] { record["tag"] as? [String: Any] ?? [:] }

    /// Paris at 12:00 and 12:10 UTC on 2024-05-01; a photo at 14:05 on a clock without offset is
    /// at 12:05Z (Europe/Paris, +02:00), half way.
    static let track = TrackTests.gpx([
        ("2024-05-01T12:00:00Z", 48.8566, 2.3522), ("2024-05-01T12:10:00Z", 48.8600, 2.3600),
    ])

    @Test func aPhotoPlacedOnATrackGetsItsPositionPlaceAndTimeInANewSidecar() throws {
        let folder = try Folder(
            photos: ["IMG_1.jpg": TimedPhoto(dateTimeOriginal: "2024:05:01 14:05:00")], files: ["trip.gpx": Self.track])
        defer { folder.remove() }
        let run = try Self.tag(folder, ["--track", "{}/trip.gpx", "{}/IMG_1.jpg"])
        #expect(run.status == 0, "\(run.errors)")
        let tag = Self.tagObject(run.records[0])
        #expect(tag["action"] as? String == "created")
        #expect((tag["sidecar"] as? String)?.hasSuffix("/IMG_1.jpg.xmp") == true)
        let sidecar = try #require(folder.read("IMG_1.jpg.xmp"))
        #expect(sidecar.contains("<exif:GPSLatitude>48,51.49800000N</exif:GPSLatitude>"))
        #expect(sidecar.contains("<exif:GPSLongitude>2,21.36600000E</exif:GPSLongitude>"))
        #expect(sidecar.contains("<exif:GPSMapDatum>WGS-84</exif:GPSMapDatum>"))
        #expect(sidecar.contains("<photoshop:City>Paris</photoshop:City>"))
        #expect(sidecar.contains("<Iptc4xmpCore:CountryCode>FR</Iptc4xmpCore:CountryCode>"))
        #expect(sidecar.contains("<exif:DateTimeOriginal>2024-05-01T14:05:00+02:00</exif:DateTimeOriginal>"))
        #expect(sidecar.contains("<photoshop:DateCreated>2024-05-01T14:05:00+02:00</photoshop:DateCreated>"))
        #expect(sidecar.contains("<phototag:PositionSource>track</phototag:PositionSource>"))
        // phototag reads the sidecar it wrote back to the same position.
        let output = MemorySink()
        #expect(
            PhotoTag.run(
                ["locate", "--format", "ndjson", folder.file("IMG_1.jpg.xmp")], output: output, errors: MemorySink())
                == 0)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let fix = try #require(TrackTests.gps(read))
        #expect(abs(fix.latitude - 48.8583) < 1e-9 && abs(fix.longitude - 2.3561) < 1e-9)
        // A second run writes nothing and says so; the file is the same, to the byte and time.
        let before = try FileManager.default.attributesOfItem(atPath: folder.file("IMG_1.jpg.xmp"))
        let again = try Self.tag(folder, ["--track", "{}/trip.gpx", "{}/IMG_1.jpg"])
        #expect(Self.tagObject(again.records[0])["action"] as? String == "unchanged")
        #expect(
            Self.tagObject(again.records[0])["written"] == nil || Self.tagObject(again.records[0])["written"] is NSNull)
        #expect(folder.read("IMG_1.jpg.xmp") == sidecar)
        let after = try FileManager.default.attributesOfItem(atPath: folder.file("IMG_1.jpg.xmp"))
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(folder.names == ["IMG_1.jpg", "IMG_1.jpg.xmp", "trip.gpx"])
    }

    @Test func aPositionFromThePhotoItselfIsWrittenOnlyWithAllPositions() throws {
        let photo = TimedPhoto(
            dateTimeOriginal: "2024:05:01 14:05:00", offsetTimeOriginal: "+02:00", latitude: 48.8566, longitude: 2.3522)
        let folder = try Folder(photos: ["a.jpg": photo])
        defer { folder.remove() }
        let run = try Self.tag(folder, ["{}"])
        #expect(run.status == 0, "\(run.errors)")
        let sidecar = try #require(folder.read("a.jpg.xmp"))
        #expect(!sidecar.contains("GPSLatitude"))
        // The photo has its offset: no time is written either.
        #expect(!sidecar.contains("DateTimeOriginal"))
        #expect(sidecar.contains("<photoshop:City>Paris</photoshop:City>"))
        let all = try Self.tag(folder, ["--all-positions", "{}"])
        #expect(Self.tagObject(all.records[0])["action"] as? String == "updated")
        #expect(folder.read("a.jpg.xmp")?.contains("<exif:GPSLatitude>48,51.39600000N</exif:GPSLatitude>") == true)
    }

    static let sidecarWithCity = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
         xmlns:lr="http://ns.adobe.com/lightroom/1.0/" photoshop:City="Lutèce">
        <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Paris</rdf:li></rdf:Bag></lr:hierarchicalSubject>
        </rdf:Description></rdf:RDF></x:xmpmeta>

        """

    static let paris = TimedPhoto(latitude: 48.8566, longitude: 2.3522)

    @Test func aValueThereIsKeptUnlessOverwriteAndTheRestIsKeptAlways() throws {
        let folder = try Folder(photos: ["a.jpg": Self.paris], files: ["a.xmp": Self.sidecarWithCity])
        defer { folder.remove() }
        let run = try Self.tag(folder, ["{}"])
        #expect(run.status == 0, "\(run.errors)")
        let tag = Self.tagObject(run.records[0])
        // The Lightroom form NAME.xmp is there: it is updated, no NAME.EXT.xmp is made.
        #expect(tag["action"] as? String == "updated")
        #expect((tag["sidecar"] as? String)?.hasSuffix("/a.xmp") == true)
        #expect(tag["kept"] as? String == "photoshop:City=Lutèce")
        #expect(folder.names == ["a.jpg", "a.xmp"])
        let updated = try #require(folder.read("a.xmp"))
        #expect(updated.contains("photoshop:City=\"Lutèce\""))
        #expect(updated.contains("<rdf:li>Places|Paris</rdf:li>"))
        #expect(updated.contains("<photoshop:Country>France</photoshop:Country>"))
        let overwritten = try Self.tag(folder, ["--overwrite", "{}"])
        // phototag's provenance goes with what it writes.
        #expect(
            Self.tagObject(overwritten.records[0])["written"] as? String
                == "photoshop:City=Paris; phototag:PositionSource=exif; phototag:Version=\(Help.toolVersion)")
        let final = try #require(folder.read("a.xmp"))
        #expect(!final.contains("Lutèce") && final.contains("<photoshop:City>Paris</photoshop:City>"))
        #expect(final.contains("<rdf:li>Places|Paris</rdf:li>"))
    }

    @Test func bothSidecarNamesAreRefusedUnlessSidecarNameSaysWhich() throws {
        let empty =
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/></x:xmpmeta>\n"
        let folder = try Folder(photos: ["a.jpg": Self.paris], files: ["a.xmp": empty, "a.jpg.xmp": empty])
        defer { folder.remove() }
        let refused = try Self.tag(folder, ["{}"])
        #expect(refused.status == 2)
        #expect(Self.tagObject(refused.records[0])["action"] as? String == "failed")
        #expect(refused.errors.contains("say which to write with --sidecar-name ext or stem"), "\(refused.errors)")
        #expect(folder.read("a.xmp") == empty && folder.read("a.jpg.xmp") == empty)
        let stem = try Self.tag(folder, ["--sidecar-name", "stem", "{}"])
        #expect(stem.status == 0, "\(stem.errors)")
        #expect(folder.read("a.xmp")?.contains("Paris") == true && folder.read("a.jpg.xmp") == empty)
    }

    /// XMP names that differ from the photo's only in case, two or more: none is the photo's
    /// for sure, so none is written (nor a new one beside them). Takeout JSON twins do not stop it.
    @Test func sidecarsThatDifferOnlyInCaseAreNotGuessedAt() throws {
        let xmp = try Folder(
            photos: ["a.jpg": Self.paris],
            files: ["A.JPG.xmp": Self.sidecarWithCity, "a.JPG.xmp": Self.sidecarWithCity])
        defer { xmp.remove() }
        let refused = try Self.tag(xmp, ["{}"])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("differ only in case"), "\(refused.errors)")
        #expect(xmp.names == ["A.JPG.xmp", "a.JPG.xmp", "a.jpg"])
        let json = try Folder(photos: ["a.jpg": Self.paris], files: ["A.JPG.json": "{}", "a.JPG.json": "{}"])
        defer { json.remove() }
        let written = try Self.tag(json, ["{}"])
        #expect(Self.tagObject(written.records[0])["action"] as? String == "created", "\(written.errors)")
    }

    @Test func aNewSidecarIsNamedAsSidecarNameSays() throws {
        let folder = try Folder(photos: ["a.jpg": Self.paris, "b.jpg": Self.paris])
        defer { folder.remove() }
        #expect(try Self.tag(folder, ["--sidecar-name", "stem", "{}/a.jpg"]).status == 0)
        #expect(try Self.tag(folder, ["{}/b.jpg"]).status == 0)
        #expect(folder.names == ["a.jpg", "a.xmp", "b.jpg", "b.jpg.xmp"])
    }

    @Test(arguments: ["json", "ndjson", "csv", "text", "geojson"])
    func aDryRunWritesNothingAndSaysWhatItWouldInEveryFormat(_ format: String) throws {
        let folder = try Folder(photos: ["a.jpg": Self.paris], files: ["b.jpg.xmp": Self.sidecarWithCity])
        try Data(TimedPhoto(latitude: 35.6895, longitude: 139.6917).jpeg).write(
            to: URL(fileURLWithPath: folder.file("b.jpg")))
        defer { folder.remove() }
        let run = try Self.tag(folder, ["--dry-run", "--format", format, "{}"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(folder.names == ["a.jpg", "b.jpg", "b.jpg.xmp"])
        #expect(folder.read("b.jpg.xmp") == Self.sidecarWithCity)
        #expect(run.output.contains("would-create") && run.output.contains("would-update"), "\(run.output)")
        #expect(run.output.contains("Tokyo"))
        #expect(run.output.contains("Lutèce"), "the value kept is shown")
    }

    @Test func aSidecarThatIsNotWellFormedIsAnErrorAndLeftAsItIs() throws {
        let broken = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF>\n"
        let folder = try Folder(photos: ["a.jpg": Self.paris, "b.jpg": Self.paris], files: ["a.jpg.xmp": broken])
        defer { folder.remove() }
        let run = try Self.tag(folder, ["{}"])
        #expect(run.status == 2)
        #expect(Self.tagObject(run.records[0])["action"] as? String == "failed")
        #expect(run.errors == "phototag: a.jpg.xmp: the sidecar is not well-formed XML; it is left as it is\n")
        #expect(folder.read("a.jpg.xmp") == broken)
        // The run goes on.
        #expect(Self.tagObject(run.records[1])["action"] as? String == "created")
    }

    @Test func aSymbolicLinkIsNotWrittenThrough() throws {
        let folder = try Folder(photos: ["a.jpg": Self.paris], files: ["elsewhere.xml": Self.sidecarWithCity])
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("a.jpg.xmp"), withDestinationPath: "elsewhere.xml")
        let run = try Self.tag(folder, ["{}/a.jpg"])
        #expect(run.status == 2)
        #expect(run.errors.contains("a symbolic link"), "\(run.errors)")
        #expect(folder.read("elsewhere.xml") == Self.sidecarWithCity)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("a.jpg.xmp")) == "elsewhere.xml")
    }

    @Test func theOldModeIsKept() throws {
        let folder = try Folder(photos: ["a.jpg": Self.paris], files: ["a.jpg.xmp": Self.sidecarWithCity])
        defer { folder.remove() }
        #expect(chmod(folder.file("a.jpg.xmp"), 0o640) == 0)
        #expect(try Self.tag(folder, ["{}"]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.file("a.jpg.xmp"))[.posixPermissions]
        #expect(mode as? Int == 0o640)
    }

    /// A full disk and a read-only file system (small tmpfs mounts, as root): an error record,
    /// exit status 2, the old sidecar as it was, no temporary file left, and the run goes on.
    @Test(.enabled(if: Tmpfs.mountable, "mounting a tmpfs needs root (and a system that allows it)"))
    func aFullDiskOrAReadOnlyFolderIsAnErrorAndTheSidecarStays() throws {
        for readOnly in [false, true] {
            let tmpfs = try Tmpfs(size: 64 << 10)
            try Data(Self.paris.jpeg).write(to: URL(fileURLWithPath: tmpfs.path + "/a.jpg"))
            try Data(Self.sidecarWithCity.utf8).write(to: URL(fileURLWithPath: tmpfs.path + "/a.jpg.xmp"))
            let folder = Folder(existing: tmpfs.path)
            if readOnly {
                try #require(tmpfs.remountReadOnly())
            } else {
                try #require(tmpfs.fill() == ENOSPC)
            }
            let run = try Self.tag(folder, ["{}/a.jpg"])
            #expect(run.status == 2)
            let tag = Self.tagObject(run.records[0])
            #expect(tag["action"] as? String == "failed")
            let expected =
                readOnly
                ? "cannot create a temporary file in the folder: read-only file system"
                : "cannot write the temporary file: no space left on device"
            #expect(run.errors == "phototag: a.jpg.xmp: cannot write the sidecar: \(expected)\n")
            #expect(folder.read("a.jpg.xmp") == Self.sidecarWithCity)
            #expect(folder.names == (readOnly ? ["a.jpg", "a.jpg.xmp"] : ["a.jpg", "a.jpg.xmp", "filler"]))
        }
    }

    @Test func theSummaryCountsSidecarsAndProperties() throws {
        let folder = try Folder(photos: ["a.jpg": Self.paris, "b.jpg": Self.paris, "c.jpg": TimedPhoto()])
        defer { folder.remove() }
        let first = try Self.tag(folder, ["--summary", "--format", "text", "{}"])
        #expect(first.status == 1 || first.status == 0)
        #expect(
            first.output.contains(
                "sidecars:\n   2  created\n   0  updated\n   0  unchanged\n   1  nothing\n   0  failed\nproperties:\n  16  written\n"
            ), "\(first.output)")
        let second = try Self.tag(folder, ["--summary", "--format", "json", "{}"])
        let summary = try #require(second.errors.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        let sidecars = try #require(json["sidecars"] as? [String: Int])
        #expect(sidecars["unchanged"] == 2 && sidecars["created"] == 0 && sidecars["failed"] == 0)
        let properties = try #require(json["properties"] as? [String: Int])
        #expect(properties["written"] == 0 && (properties["unchanged"] ?? 0) >= 10)
    }

    /// `tag --dry-run --format exiftool-csv`: the same values, for exiftool to write into the
    /// photos instead; without --dry-run it is a usage error (tag would write the sidecars too).
    @Test func aDryRunGivesTheCSVForExifTool() throws {
        let folder = try Folder(
            photos: ["IMG_1.jpg": TimedPhoto(dateTimeOriginal: "2024:05:01 14:05:00")], files: ["trip.gpx": Self.track])
        defer { folder.remove() }
        let run = try Self.tag(folder, ["--dry-run", "--format", "exiftool-csv", "--track", "{}/trip.gpx", "{}"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("SourceFile,GPSLatitude,GPSLatitudeRef,"), "\(run.output)")
        #expect(lines[1].hasPrefix(folder.path + "/IMG_1.jpg,48.85830000,N,2.35610000,E,"), "\(lines)")
        #expect(folder.names == ["IMG_1.jpg", "trip.gpx"])
        let refused = try Self.tag(folder, ["--format", "exiftool-csv", "{}"])
        #expect(refused.status == 64)
        #expect(folder.names == ["IMG_1.jpg", "trip.gpx"])
    }

    @Test func tagWritesRecordsNotMaps() throws {
        let errors = MemorySink()
        #expect(PhotoTag.run(["tag", "--format", "svg", "."], output: MemorySink(), errors: errors) == 64)
        #expect(errors.text.contains("tag writes records, not maps"))
    }
}
