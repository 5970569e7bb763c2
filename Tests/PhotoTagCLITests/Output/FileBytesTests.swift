import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Names that are not UTF-8 (issue 23, item 2): `file` shows them with U+FFFD, which no script
/// can open; `fileBytes` (JSON) and `file_bytes` (CSV, GeoJSON) give the bytes, in base64.
@Suite struct FileBytesTests {
    /// A folder with photos named `ok.jpg`, `é.jpg`, bytes FF FE + `.jpg` and `c` FE `.jpg`.
    static func makeFolder() throws -> String {
        let root = try makeTemporaryDirectory()
        let photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
        for name in [
            Array("ok.jpg".utf8), Array("é.jpg".utf8), [0xFF, 0xFE] + Array(".jpg".utf8),
            [0x63, 0xFE] + Array(".jpg".utf8),
        ] {
            let path = Array(root.utf8) + [0x2F] + name + [0]
            let descriptor = path.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
            }
            try #require(descriptor >= 0)
            _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        return root
    }

    /// Whether the file at `path` (bytes) opens.
    static func opens(_ path: [UInt8]) -> Bool {
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) }
        }
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// A script's way: the bytes of `fileBytes` when there, else `file`; every record opens.
    @Test func aScriptCanOpenEveryFileOfAScanFromItsRecord() throws {
        let root = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["scan", "--no-place", "--format", "ndjson", root])
        let records = try ScanTreeTests.records(result.output)
        #expect(records.count == 4)
        for record in records {
            let file = try #require(record["file"] as? String)
            let bytes: [UInt8]
            if let encoded = record["fileBytes"] as? String {
                #expect(file.contains("\u{FFFD}"))
                bytes = try #require(Data(base64Encoded: encoded)).map { $0 }
            } else {
                #expect(!file.contains("\u{FFFD}"))
                bytes = Array(file.utf8)
            }
            #expect(Self.opens(bytes), "\(file)")
        }
        #expect(records.filter { $0["fileBytes"] != nil }.count == 2)
        #expect(
            records.first { ($0["file"] as? String)?.hasSuffix("/c\u{FFFD}.jpg") == true }?["fileBytes"] as? String
                == Data(Array(root.utf8) + [0x2F, 0x63, 0xFE] + Array(".jpg".utf8)).base64EncodedString())
    }

    @Test func csvAndGeoJSONHaveTheBytesInAColumnOfTheirOwn() throws {
        let root = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let csv = try parseCSV(try Binary.run(["scan", "--no-place", "--format", "csv", root]).text)
        let column = try #require(csv[0].firstIndex(of: "file_bytes"))
        let opened = try csv.dropFirst().map { row in
            row[column].isEmpty ? Array(row[0].utf8) : try #require(Data(base64Encoded: row[column])).map { $0 }
        }
        #expect(opened.count == 4 && opened.allSatisfy(Self.opens))
        #expect(csv.dropFirst().filter { !$0[column].isEmpty }.count == 2)
        let geojson = try Binary.run(["scan", "--no-place", "--format", "geojson", root])
        let collection = try #require(try JSONSerialization.jsonObject(with: geojson.output) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.count == 4)
        #expect(properties.filter { $0["file_bytes"] is String }.count == 2)
        #expect(properties.filter { $0["file_bytes"] is NSNull }.count == 2)
    }
}
