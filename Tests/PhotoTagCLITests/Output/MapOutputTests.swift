import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import PhotoTagMap

/// `--format svg` and `--format html` in the commands: what each record gives the map.
@Suite struct MapOutputTests {
    @Test func theLocalTimeIsTheWallClockWhereThePhotoWasTaken() {
        #expect(
            MapOutput.mapTime("2019-07-01T14:34:56.24+02:00")
                == MapTime(year: 2019, month: 7, day: 1, hour: 14, minute: 34, second: 56))
        #expect(
            MapOutput.mapTime("2019-07-01T14:34:56")
                == MapTime(year: 2019, month: 7, day: 1, hour: 14, minute: 34, second: 56))
        #expect(MapOutput.mapTime("2019-07-01") == nil)
        #expect(MapOutput.mapTime("2019-07-01T1x:34:56") == nil)
        #expect(MapOutput.mapTime("") == nil)
    }

    /// Runs phototag in-process.
    static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, output: output, errors: errors)
        return (status, output.text)
    }

    @Test func geocodeMapsTheCoordinatesAndLeavesOutTheLinesThatAreNot() {
        let result = Self.run(["geocode", "--format", "svg", "48.8582,2.2945", "-33.8688,151.2093", "nowhere"])
        #expect(result.status == PhotoTag.ExitStatus.unreadable)
        #expect(result.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<svg "))
        #expect(result.output.contains(">2 coordinates, 2 located</text>"))
        #expect(result.output.components(separatedBy: "class=\"marker\"").count == 3)
        let html = Self.run(["geocode", "--format", "html", "48.8582,2.2945"])
        #expect(html.status == PhotoTag.ExitStatus.success)
        #expect(html.output.hasPrefix("<!DOCTYPE html>\n") && html.output.hasSuffix("</html>\n"))
        // A coordinate is listed by its position, without a file link.
        #expect(html.output.contains("[\"48.85820, 2.29450\",\"\","))
    }

    @Test func locateAndScanMapTheirLocatedPhotosWithFileLinks() throws {
        let photo = Fixtures.photo("ne-little-endian.jpg"), unlocated = Fixtures.photo("no-exif.jpg")
        let result = Self.run(["locate", "--format", "html", "--places", Fixtures.places, photo, unlocated])
        #expect(result.status == PhotoTag.ExitStatus.notLocated)
        #expect(result.output.contains("2 files, 1 located, 2019-07-01"))
        #expect(result.output.contains("\"file://\(MarkupText.fileURL(Array(photo.utf8)).dropFirst(7))\""))
        #expect(result.output.components(separatedBy: "class=\"marker\"").count == 2)
        let scan = Self.run(["scan", "--format", "svg", "--places", Fixtures.places, photo])
        #expect(scan.status == PhotoTag.ExitStatus.success)
        #expect(scan.output.contains(">1 file, 1 located, 2019-07-01</text>"))
        // A filter leaves photos off the map, not out of the title's count.
        let filtered = Self.run([
            "scan", "--format", "svg", "--with-gps", "--places", Fixtures.places, photo, unlocated,
        ])
        #expect(filtered.output.contains(">2 files, 1 located, 2019-07-01</text>"))
        // Issue 23, item 6: `--near` kept fewer located photos than were read, and the title
        // said "164 files, 4 located". It says both counts.
        let other = Fixtures.photo("sw-big-endian.jpg")
        let near = Self.run([
            "scan", "--format", "svg", "--near", "48.8566,2.3522", "--within", "50", "--places", Fixtures.places,
            photo, unlocated, other,
        ])
        #expect(near.output.contains(">3 files, 2 located, 1 shown, 2019-07-01</text>"), "\(near.output.prefix(3000))")
        // Nothing but the map: no records, no JSON or CSV framing.
        #expect(scan.output.hasSuffix("</svg>\n") && !scan.output.contains("ne-little-endian.jpg"))
    }

    @Test func theWorkingDirectoryMakesRelativePathsLinkable() {
        #expect(MapOutput.workingDirectory() == Array(FileManager.default.currentDirectoryPath.utf8))
    }
}
