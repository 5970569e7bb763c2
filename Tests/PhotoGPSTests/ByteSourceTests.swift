import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// How files are opened and how much of them is read.
@Suite struct ByteSourceTests {
    /// `photo` with its image data replaced by `scanBytes` bytes after the SOS header, like a
    /// camera JPEG of that size. Returns the file's bytes and where its SOS marker starts.
    static func bigJPEG(from photo: String, scanBytes: Int) throws -> (bytes: [UInt8], sos: Int) {
        let original = try readWholeFile(Fixtures.photo(photo))
        var sos = 2
        while !(original[sos] == 0xFF && original[sos + 1] == 0xDA) { sos += 1 }
        var bytes = Array(original[..<sos])
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        bytes += [UInt8](repeating: 0x55, count: scanBytes)
        bytes += [0xFF, 0xD9]
        return (bytes, sos)
    }

    @Test(arguments: ["ne-little-endian.jpg", "no-exif.jpg", "app7-before-app1.jpg"])
    func aFourMegabyteJPEGIsReadOnlyUpToItsFirstSOS(photo: String) throws {
        let (bytes, sos) = try Self.bigJPEG(from: photo, scanBytes: 4 << 20)
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let source = try FileSource(path: path)
        let reading = GPSReader().read(source: source)
        #expect(reading == GPSReader().read(path: Fixtures.photo(photo)))
        // Nothing past the SOS marker and its length field: the 4 MiB of image data is untouched.
        #expect(source.extent <= sos + 4)
        #expect(source.count > 4 << 20)
    }

    /// The first 64 bytes are read once, to identify the container, and the marker segments
    /// among them are found there: a JPEG whose EXIF segment starts in them (as a camera's
    /// does) costs two reads of the file, its head and the EXIF block; one with APP7, APP8 and
    /// APP9 first, a third for the EXIF segment's header at byte 74.
    @Test(arguments: [("ne-little-endian.jpg", 2), ("app7-before-app1.jpg", 3)])
    func aJPEGsFirstSegmentsAreReadWithItsHead(photo: String, reads: Int) throws {
        let source = try FileSource(path: Fixtures.photo(photo))
        let reading = GPSReader().read(source: source)
        #expect(reading.status == .located)
        #expect(source.fileReads == reads)
        // Read again at other offsets, the head is the file's.
        let file = try readWholeFile(Fixtures.photo(photo))
        for (offset, length) in [(0, 64), (2, 4), (60, 4), (61, 4), (63, 1), (64, 4)] {
            #expect(
                try source.withBytes(at: offset, length: length) { Array($0) } == Array(file[offset..<offset + length]))
        }
        #expect(source.fileReads == reads + 2)  // (61, 4) and (64, 4) reach past the head
    }

    /// `withBytes` hands over exactly what `bytes(at:length:)` returns, from a file (a stack
    /// buffer up to 64 bytes, an array past that) and from memory (the stored bytes in place),
    /// and a file counts the bytes read and how far they reach as `bytes(at:length:)` does.
    @Test(arguments: [(0, 4), (0, 64), (0, 65), (90, 4), (90, 64), (97, 8), (100, 4), (150, 4), (-1, 4), (3, 0)])
    func withBytesSeesWhatBytesReturns(offset: Int, length: Int) throws {
        let stored = (0..<100).map { UInt8(truncatingIfNeeded: 3 * $0 + 1) }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bytes"
        try Data(stored).write(to: URL(fileURLWithPath: path))
        let file = try FileSource(path: path)
        let expected = try file.bytes(at: offset, length: length)
        let (extent, bytesRead) = (file.extent, file.bytesRead)
        let fresh = try FileSource(path: path)
        #expect(try fresh.withBytes(at: offset, length: length) { Array($0) } == expected)
        #expect(fresh.extent == extent)
        #expect(fresh.bytesRead == bytesRead)
        let memory = MemorySource(storage: stored)
        #expect(
            try memory.withBytes(at: offset, length: length) { Array($0) } == memory.bytes(at: offset, length: length))
        #expect(memory.bytes(at: offset, length: length) == expected)
    }

    /// The file `GPSReader.read(path:)` reads, its bookkeeping on the stack (FileBytes),
    /// reads exactly as a FileSource does, and is refused as FileSource refuses what is not a
    /// regular file.
    @Test(arguments: ["ne-little-endian.jpg", "app7-before-app1.jpg", "no-exif.jpg", "heic-iloc-v1-idat.heic"])
    func aFileOpenedForOneCallReadsAsAFileSourceDoes(photo: String) throws {
        let path = Fixtures.photo(photo)
        let source = try FileSource(path: path)
        let expected = GPSReader().read(source: source)
        let (reading, reads, extent, bytesRead) = try FileBytes.withOpenedFile(cPath: path) { file in
            let reading = GPSReader().read(source: file)
            return (reading, file.state.pointee.fileReads, file.state.pointee.extent, file.state.pointee.bytesRead)
        }
        #expect(reading == expected)
        #expect(reads == source.fileReads && extent == source.extent && bytesRead == source.bytesRead)
        #expect(GPSReader().read(path: Array(path.utf8)) == expected)
        #expect(throws: PhotoGPSError.notARegularFile(kind: "directory")) {
            try FileBytes.withOpenedFile(cPath: Fixtures.root) { _ in 0 }
        }
    }

    /// Reads of more than 64 bytes go into the thread's ReadBuffer: one read inside another (the
    /// buffer in use), reads one after another of different lengths (what a longer read left in
    /// it), and reads past its 64 KiB each see exactly the file's bytes, counted as
    /// `bytes(at:length:)` counts them; a BufferSource over them reads as a MemorySource does.
    @Test func largerReadsFromTheThreadsBufferSeeOnlyTheirOwnBytes() throws {
        let stored = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bytes"
        try Data(stored).write(to: URL(fileURLWithPath: path))
        let file = try FileSource(path: path)
        let ranges = [(100, 30_000), (5_000, 65), (0, 65_536), (69_000, 5_000), (1, 69_999), (300, 200)]
        for (offset, length) in ranges {
            let expected = Array(stored[offset..<min(stored.count, offset + length)])
            let (reads, bytesRead) = (file.fileReads, file.bytesRead)
            let outer = try file.withBytes(at: offset, length: length) { (outer) throws(PhotoGPSError) in
                let inner = try file.withBytes(at: 1_000, length: 2_000) { Array($0) }
                #expect(inner == Array(stored[1_000..<3_000]))
                let source = BufferSource(buffer: outer)
                #expect(try source.withBytes(at: 10, length: 50) { Array($0) } == Array(expected[10..<60]))
                #expect(source.bytes(at: expected.count - 5, length: 50) == Array(expected.suffix(5)))
                #expect(source.bytes(at: expected.count, length: 1).isEmpty)
                return Array(outer)
            }
            #expect(outer == expected)
            #expect(file.fileReads == reads + 2)
            #expect(file.bytesRead == bytesRead + expected.count + 2_000)
        }
    }

    /// Writes `bytes` to a temporary file and reads it, returning the reading and the source.
    static func readFromDisk(_ bytes: [UInt8]) throws -> (GPSReading, FileSource) {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let source = try FileSource(path: path)
        return (GPSReader().read(source: source), source)
    }

    @Test func aHEICWithFourMegabytesOfImageDataIsReadOnlyWhereItsMetadataIs() throws {
        // An unreferenced 4 MiB 'mdat' box after the photo: the image data of a real file.
        var bytes = try readWholeFile(Fixtures.photo("heic-iloc-v0.heic"))
        let size = 8 + (4 << 20)
        bytes += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        bytes += Array("mdat".utf8) + [UInt8](repeating: 0x55, count: 4 << 20)
        let (reading, source) = try Self.readFromDisk(bytes)
        #expect(reading == GPSReader().read(path: Fixtures.photo("heic-iloc-v0.heic")))
        #expect(source.bytesRead < 2048)
        #expect(source.extent < 2048)
    }

    @Test func aPNGWithFourMegabytesOfImageDataBeforeItsEXIFSkipsIt() throws {
        // A 4 MiB IDAT chunk inserted right after IHDR (its CRC is not checked by readers here).
        let original = try readWholeFile(Fixtures.photo("png-exif-after-idat.png"))
        let ihdrEnd = 8 + 8 + 13 + 4
        let length = 4 << 20
        let chunk =
            [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + Array("IDAT".utf8) + [UInt8](repeating: 0, count: length) + [0, 0, 0, 0]
        let bytes = Array(original[..<ihdrEnd]) + chunk + Array(original[ihdrEnd...])
        let (reading, source) = try Self.readFromDisk(bytes)
        #expect(reading == GPSReader().read(path: Fixtures.photo("png-exif-after-idat.png")))
        #expect(source.bytesRead < 2048)
    }

    @Test func aTIFFIsReadOnlyWhereItsIFDsAre() throws {
        let path = Fixtures.photo("tiff-be-gps-beyond-64k.tif")
        let source = try FileSource(path: path)
        #expect(GPSReader().read(source: source).status == .located)
        #expect(source.count > 70_000)
        #expect(source.bytesRead < 1024)  // the 70,000-byte strip is never read
    }

    @Test func aMissingFileIsAnError() {
        let reading = GPSReader().read(path: Fixtures.root + "/photos/does-not-exist.jpg")
        #expect(reading.status == .error)
        #expect(reading.error?.description == "cannot open: no such file or directory")
    }

    @Test func aDirectoryIsAnErrorNotARead() {
        let reading = GPSReader().read(path: Fixtures.root + "/photos")
        #expect(reading.error?.description == "not a regular file (directory)")
    }

    @Test func aFIFOIsNeverOpened() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/pipe.jpg"
        #expect(mkfifo(path, 0o600) == 0)
        // Opening a FIFO for reading would block this test forever; the type check comes first.
        let reading = GPSReader().read(path: path)
        #expect(reading.error?.description == "not a regular file (FIFO)")
    }

    @Test func aDeviceIsNeverOpened() {
        let reading = GPSReader().read(path: "/dev/null")
        #expect(reading.error?.description == "not a regular file (character device)")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every file, so permissions cannot be tested"))
    func anUnreadableFileIsAnError() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/secret.jpg"
        try Data(try readWholeFile(Fixtures.photo("ne-little-endian.jpg"))).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0) == 0)
        #expect(GPSReader().read(path: path).error?.description == "cannot open: permission denied")
    }

    @Test func everyPrefixOfAPhotoIsReadWithoutCrashing() throws {
        let bytes = try readWholeFile(Fixtures.photo("ne-little-endian.jpg"))
        for length in 0...bytes.count {
            let reading = GPSReader().read(bytes: Array(bytes[..<length]))
            // Until the GPS IFD is complete the file is an error; after it, the fix is whole.
            #expect(reading.status == .error || reading.status == .located || reading.status == .invalidGPS)
            if reading.status == .located {
                #expect(reading.fix?.latitude == 48.858222222222224)
            }
        }
    }
}
