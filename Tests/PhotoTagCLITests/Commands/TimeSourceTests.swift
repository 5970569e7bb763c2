import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Where a capture time was read, as `time.offsetSource` says (issue 23, item 5): a Takeout
/// sidecar's `photoTakenTime` is `takeout`, a video's QuickTime time `quicktime`, an XMP
/// sidecar's date `xmp`; only EXIF's own OffsetTimeOriginal is `exif`.
@Suite struct TimeSourceTests {
    static func offsetSources(_ paths: [String]) throws -> [String: String?] {
        let result = try Binary.run(["locate", "--no-place", "--format", "ndjson"] + paths)
        var sources: [String: String?] = [:]
        for record in try ScanTreeTests.records(result.output) {
            let file = record["file"] as! String
            sources[(file as NSString).lastPathComponent] =
                (record["time"] as? [String: Any])?["offsetSource"] as? String
        }
        return sources
    }

    @Test func sidecarAndVideoTimesSayWhereTheyWereRead() throws {
        let sources = try Self.offsetSources([
            Fixtures.root + "/sidecars/takeout/Photos from 2019/IMG_0002.jpg",
            Fixtures.root + "/sidecars/xmp/DSC_0001.jpg",
            Fixtures.root + "/videos/udta-xyz.mp4",
            Fixtures.root + "/videos/keys-iso6709.mov",
            Fixtures.photo("ne-little-endian.jpg"),
        ])
        #expect(sources["IMG_0002.jpg"] == "takeout")
        #expect(sources["DSC_0001.jpg"] == "xmp")
        #expect(sources["udta-xyz.mp4"] == "quicktime")
        #expect(sources["keys-iso6709.mov"] == "quicktime")
        #expect(sources["ne-little-endian.jpg"] != "takeout" && sources["ne-little-endian.jpg"] != "quicktime")
    }

    /// The issue's case: a PNG with no EXIF at all, its time from its Takeout JSON, was
    /// labelled `exif`.
    @Test func aPNGWithoutEXIFTakesItsTimeFromTakeoutAndSaysSo() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A real PNG with its eXIf chunk (which gives a time of its own) left out.
        let png = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: Fixtures.root + "/photos/png-exif-before-idat.png")))
        var plain = Array(png[0..<8]), at = 8
        while at + 12 <= png.count {
            let length = png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[at + 4..<at + 8].elementsEqual("eXIf".utf8) == false { plain += png[at..<at + 12 + length] }
            at += 12 + length
        }
        #expect(plain.count < png.count)
        try Data(plain).write(to: URL(fileURLWithPath: folder + "/shot.png"))
        let json =
            #"{"title":"shot.png","photoTakenTime":{"timestamp":"1562000000"},"geoData":{"latitude":48.8584,"longitude":2.2945,"altitude":0}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/shot.png.json"))
        let result = try Binary.run(["locate", "--format", "ndjson", "shot.png"], directory: folder)
        let record = try #require(try ScanTreeTests.records(result.output).first)
        let time = try #require(record["time"] as? [String: Any])
        #expect(time["offsetSource"] as? String == "takeout")
        #expect(time["utc"] as? String == "2019-07-01T16:53:20Z")
        #expect((record["camera"] as? [String: Any])?["make"] is NSNull)
    }
}
