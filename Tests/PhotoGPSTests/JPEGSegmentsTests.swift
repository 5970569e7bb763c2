import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// The JPEG marker walk (JPEGSegments.swift) on small byte arrays.
@Suite struct JPEGSegmentsTests {
    /// A segment: marker, 2-byte length (payload + 2), payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func walk(_ bytes: [UInt8]) throws(PhotoGPSError) -> [JPEGSegment] {
        var segments = JPEGSegments(source: MemorySource(storage: bytes))
        var found: [JPEGSegment] = []
        while let segment = try segments.next() { found.append(segment) }
        return found
    }

    @Test func theWalkStopsAtSOSAndNeverReadsPastIt() throws {
        let bytes =
            [0xFF, 0xD8] + Self.segment(0xE0, [1, 2, 3]) + Self.segment(0xE1, Array("Exif".utf8) + [0, 0])
            + [0xFF, 0xDA, 0x00, 0x02] + [0xFF, 0x00, 0x12]
        let segments = try Self.walk(bytes)
        #expect(segments.map(\.marker) == [0xE0, 0xE1])
        #expect(segments.map(\.offset) == [2, 9])
        #expect(segments.map(\.payloadLength) == [3, 6])
        var walker = JPEGSegments(source: MemorySource(storage: bytes))
        _ = try walker.next()
        #expect(try walker.payload(of: try #require(try walker.next())) == Array("Exif".utf8) + [0, 0])
    }

    @Test func fillBytesAndStandaloneMarkersAreSkipped() throws {
        let bytes =
            [0xFF, 0xD8, 0xFF, 0xFF, 0xFF] + [0xE1, 0x00, 0x03, 0x07] + [0xFF, 0xD0, 0xFF, 0x01]
            + Self.segment(0xE2, [9]) + [0xFF, 0xD9]
        let segments = try Self.walk(bytes)
        #expect(segments.map(\.marker) == [0xE1, 0xE2])
        #expect(segments.map(\.offset) == [4, 13])
    }

    /// A run of fill bytes of any length ends at its marker, found in a few reads per 64 KiB.
    @Test(arguments: [1, 2, 3, 63, 64, 65, 4_095, 70_000, 1 << 20])
    func aRunOfFillOfAnyLengthIsSkippedInAFewReads(fill: Int) throws {
        let bytes = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: fill) + Self.segment(0xE1, [7, 8]) + [0xFF, 0xD9]
        let segments = try Self.walk(bytes)
        #expect(segments.map(\.marker) == [0xE1])
        #expect(segments.map(\.offset) == [2 + fill])
        #expect(segments.map(\.payloadLength) == [2])
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/fill.jpg"))
        let file = try FileSource(path: directory + "/fill.jpg")
        var walker = JPEGSegments(source: file)
        #expect(try walker.next()?.offset == 2 + fill)
        #expect(try walker.next() == nil)
        #expect(file.fileReads <= 6 + fill / 65_536 * 2, "\(file.fileReads) reads for \(fill) fill bytes")
    }

    @Test func aPhotoWithMegabytesOfFillBeforeItsEXIFIsStillRead() throws {
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg"))))
        let filled = Array(photo[..<2]) + [UInt8](repeating: 0xFF, count: 4 << 20) + Array(photo[2...])
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/filled.jpg"
        try Data(filled).write(to: URL(fileURLWithPath: path))
        let reading = GPSReader().read(path: Array(path.utf8))
        #expect(reading.status == .located)
        #expect(reading.fix == GPSReader().read(path: Array(Fixtures.photo("ne-little-endian.jpg").utf8)).fix)
    }

    @Test func aFileThatEndsInFillIsCutShort() throws {
        let bytes = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 200_000)
        #expect(throws: PhotoGPSError.truncated("the file ends at byte 200002 before the image data")) {
            try Self.walk(bytes)
        }
    }

    @Test(
        arguments: [
            ([0xFF, 0xD8, 0x12, 0x34], PhotoGPSError.malformedJPEG("expected a marker at byte 2, found 0x12")),
            ([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01], .malformedJPEG("segment 0xE1 at byte 2 has length 1")),
            ([0xFF, 0xD8, 0xFF, 0xE1, 0x00], .truncated("the file ends at byte 5 inside a marker")),
            (
                [0xFF, 0xD8] + JPEGSegmentsTests.segment(0xE0, [1]),
                .truncated("the file ends at byte 7 before the image data")
            ),
        ] as [([UInt8], PhotoGPSError)])
    func aBrokenHeaderIsAnError(bytes: [UInt8], error: PhotoGPSError) {
        #expect(throws: error) { try Self.walk(bytes) }
    }

    @Test func aPayloadCutShortByTheEndOfTheFileIsWhatThereIs() throws {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 1, 2, 3]
        var walker = JPEGSegments(source: MemorySource(storage: bytes))
        let segment = try #require(try walker.next())
        #expect(segment.payloadLength == 14)
        #expect(try walker.payload(of: segment) == [1, 2, 3])
    }

    @Test func onlySOIFollowedByAMarkerIsAJPEG() {
        #expect(JPEGSegments<MemorySource>.matches([0xFF, 0xD8, 0xFF]))
        #expect(!JPEGSegments<MemorySource>.matches([0xFF, 0xD8]))
        #expect(!JPEGSegments<MemorySource>.matches([0xFF, 0xD8, 0x00]))
    }
}
