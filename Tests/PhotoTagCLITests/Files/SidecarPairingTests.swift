import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Sidecar names that differ only in case or in bytes that are not UTF-8, hidden sidecars and
/// broken orphans: pairing must give the same answer in `scan` and `locate`, whatever the order
/// of the folder's listing, and lose no file.
@Suite struct SidecarPairingTests {
    /// Whether the temporary folder tells `a` from `A` (Linux file systems do; macOS's default
    /// does not, and there two names that differ only in case cannot both exist).
    static let caseSensitive: Bool = {
        guard let root = try? makeTemporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard FileManager.default.createFile(atPath: root + "/a", contents: Data()) else { return false }
        return !FileManager.default.fileExists(atPath: root + "/A")
    }()

    /// An XMP sidecar at `latitude`, 1°E.
    static func xmp(_ latitude: Int) -> String {
        SidecarText.xmp(#"exif:GPSLatitude="\#(latitude),0N" exif:GPSLongitude="1,0E""#)
    }

    /// A Takeout JSON sidecar at `latitude`, 1°E.
    static func takeout(_ latitude: Double) -> String {
        SidecarTests.takeout(latitude, 1)
    }

    /// Writes a file whose name is `name`'s bytes (which need not be UTF-8) in `folder`.
    static func write(_ folder: String, _ name: [UInt8], _ contents: some DataProtocol) throws {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let bytes = Array(contents)
        #expect(Glibc.write(descriptor, bytes, bytes.count) == bytes.count)
    }

    /// `name` → latitude of its record (`nil` without a position), and the records' warnings.
    static func latitudes(
        _ result: (status: Int32, records: [(name: String, record: [String: Any])], errors: String)
    )
        -> [String: Double?]
    {
        Dictionary(uniqueKeysWithValues: result.records.map { ($0.name, SidecarTests.gps($0.record)?.0) })
    }

    static func warnings(_ record: [String: Any]?) -> [String] { record?["warnings"] as? [String] ?? [] }

    @Test(.enabled(if: caseSensitive, "the temporary folder's file system ignores case"))
    func namesThatDifferOnlyInCasePairExactlyInScanAndLocate() throws {
        let root = try SidecarTests.folder([
            "K1.jpg": SidecarTests.bare, "K1.jpg.xmp": Self.xmp(10),
            "k1.jpg": SidecarTests.bare, "k1.jpg.xmp": Self.xmp(20),
            "T1.jpg": SidecarTests.bare, "T1.jpg.json": Self.takeout(30),
            "t1.jpg": SidecarTests.bare, "t1.jpg.json": Self.takeout(40),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let expected: [String: Double?] = ["K1.jpg": 10, "k1.jpg": 20, "T1.jpg": 30, "t1.jpg": 40]
        let scanned = try SidecarTests.records(["scan", root])
        #expect(Self.latitudes(scanned) == expected)  // four records: no sidecar is an orphan
        #expect(scanned.errors == "")
        let located = try SidecarTests.records(
            ["locate"] + ["K1.jpg", "k1.jpg", "T1.jpg", "t1.jpg"].map { root + "/" + $0 })
        #expect(Self.latitudes(located) == expected)
    }

    @Test(.enabled(if: caseSensitive, "the temporary folder's file system ignores case"))
    func aNameDifferingInCaseIsUsedOnlyWhenItIsTheOnlyOneAndNoPhotoHasItExactly() throws {
        let root = try SidecarTests.folder([
            // One sidecar differing in case, no photo of its exact name: used.
            "C.JPG": SidecarTests.bare, "c.jpg.xmp": Self.xmp(10),
            // Two such names: ambiguous, neither is read, each is a record of its own.
            "M.JPG": SidecarTests.bare, "m.jpg.xmp": Self.xmp(20), "M.jpg.xmp": Self.xmp(21),
            // The sidecar's exact photo is there: it is that photo's only.
            "a.jpg": SidecarTests.bare, "A.JPG": SidecarTests.bare, "a.jpg.xmp": Self.xmp(30),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        for command in ["scan", "locate"] {
            let arguments =
                command == "scan" ? [root] : ["C.JPG", "M.JPG", "a.jpg", "A.JPG"].map { root + "/" + $0 }
            let result = try SidecarTests.records([command] + arguments)
            let byName = Dictionary(uniqueKeysWithValues: result.records.map { ($0.name, $0.record) })
            #expect(SidecarTests.gps(byName["C.JPG"] ?? [:])?.0 == 10, "\(command)")
            #expect(SidecarTests.gps(byName["a.jpg"] ?? [:])?.0 == 30, "\(command)")
            #expect(byName["A.JPG"]?["status"] as? String == "no-gps", "\(command)")
            #expect(byName["M.JPG"]?["status"] as? String == "no-gps", "\(command)")
            #expect(
                Self.warnings(byName["M.JPG"])
                    == [
                        "sidecars M.jpg.xmp, m.jpg.xmp differ only in case and each could be the photo's; none is read"
                    ],
                "\(command)")
            if command == "scan" {
                // The ambiguous two are read alone, as sidecars of no photo.
                #expect(SidecarTests.gps(byName["m.jpg.xmp"] ?? [:])?.0 == 20)
                #expect(SidecarTests.gps(byName["M.jpg.xmp"] ?? [:])?.0 == 21)
                #expect(result.records.count == 6)
            }
        }
    }

    @Test func namesThatAreNotUTF8AreComparedAsBytes() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // c\xFE.jpg has no sidecar; c\xFF.jpg.xmp is another photo's (absent), and d\xFF.jpg's
        // own sidecar is found byte for byte.
        try Self.write(root, Array("c".utf8) + [0xFE] + Array(".jpg".utf8), SidecarTests.bare)
        try Self.write(root, Array("c".utf8) + [0xFF] + Array(".jpg.xmp".utf8), Data(Self.xmp(10).utf8))
        try Self.write(root, Array("d".utf8) + [0xFF] + Array(".jpg".utf8), SidecarTests.bare)
        try Self.write(root, Array("D".utf8) + [0xFF] + Array(".JPG.xmp".utf8), Data(Self.xmp(20).utf8))
        let result = try SidecarTests.records(["scan", root])
        // Three records: c\xFE.jpg without a position, the orphan sidecar, and d\xFF.jpg with D\xFF's.
        #expect(result.records.count == 3)
        let latitudes = result.records.map { SidecarTests.gps($0.record)?.0 }
        let statuses = result.records.map { $0.record["status"] as? String }
        #expect(statuses.filter { $0 == "no-gps" }.count == 1)
        #expect(Set(latitudes.compactMap { $0 }) == [10, 20])
        let orphan = try #require(result.records.first { SidecarTests.gps($0.record)?.0 == 10 })
        #expect(orphan.record["sidecar"] as? String == orphan.record["file"] as? String)
    }

    @Test func anOrphanTakeoutFileThatIsBrokenIsARecordWithAnError() throws {
        let big = #"{"title": "x", "description": ""# + String(repeating: " ", count: 4 << 20) + #""}"#
        let root = try SidecarTests.folder([
            "big.jpg.json": big,
            "cut.jpg.json": String(Self.takeout(10).prefix(60)),
            "twice.jpg.json": #"{"geoData": {"latitude": 1, "longitude": 2}, "geoData": {"latitude": 3}}"#,
            // Well-formed JSON that is no Takeout metadata is no sidecar: skipped, as before.
            "metadata.json": #"{"title": "Album"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try SidecarTests.records(["scan", root])
        #expect(result.records.map(\.name) == ["big.jpg.json", "cut.jpg.json", "twice.jpg.json"])
        #expect(result.records.allSatisfy { $0.record["status"] as? String == "error" })
        #expect(result.status == 2)
        // One stderr line per record.
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 3, "\(result.errors)")
        #expect(lines.contains { $0.contains("big.jpg.json") && $0.contains("the sidecar is larger than 4 MiB") })
        #expect(lines.contains { $0.contains("twice.jpg.json") && $0.contains("repeated key") })
    }

    @Test func aStemXMPHiddenByTheFullNameOneIsAWarningNotASecondRecord() throws {
        let root = try SidecarTests.folder([
            "IMG.jpg": SidecarTests.bare, "IMG.jpg.xmp": Self.xmp(10), "IMG.xmp": Self.xmp(20),
            // A raw and its JPEG: the raw reads R.xmp, the JPEG its own R.JPG.xmp.
            "R.CR2": SidecarTests.bare, "R.JPG": SidecarTests.bare, "R.JPG.xmp": Self.xmp(30), "R.xmp": Self.xmp(40),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scanned = try SidecarTests.records(["scan", root])
        #expect(Self.latitudes(scanned) == ["IMG.jpg": 10, "R.CR2": 40, "R.JPG": 30])
        let located = try SidecarTests.records(["locate"] + ["IMG.jpg", "R.CR2", "R.JPG"].map { root + "/" + $0 })
        // In text, the warning is on standard error with the photo's path.
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(["locate", "--no-place", root + "/IMG.jpg"], output: output, errors: errors)
        #expect(
            errors.text
                == "phototag: \(root)/IMG.jpg: warning: sidecar IMG.xmp is not read: IMG.jpg.xmp is the photo's\n")
        #expect(Self.latitudes(located) == ["IMG.jpg": 10, "R.CR2": 40, "R.JPG": 30])
        for result in [scanned, located] {
            let byName = Dictionary(uniqueKeysWithValues: result.records.map { ($0.name, $0.record) })
            #expect(Self.warnings(byName["IMG.jpg"]) == ["sidecar IMG.xmp is not read: IMG.jpg.xmp is the photo's"])
            #expect(Self.warnings(byName["R.JPG"]) == ["sidecar R.xmp is not read: R.JPG.xmp is the photo's"])
            #expect(Self.warnings(byName["R.CR2"]) == [])
        }
    }
}
