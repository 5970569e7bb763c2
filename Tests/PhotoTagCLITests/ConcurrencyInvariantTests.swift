import Foundation
import PhotoTagSupport
import TestSupport
import Testing

@testable import PhotoTagCLI

/// The invariants behind the CLI's `@unchecked Sendable` and `nonisolated(unsafe)` declarations,
/// exercised through the in-process entry (`PhotoTag.run`) exactly as the command line runs:
/// geocode's parts rendered on every core, and scans with several workers. A parallel run must
/// write what a serial one writes, byte for byte; under ThreadSanitizer
/// (`PHOTOTAG_SANITIZER=thread swift test --sanitize=thread --filter Concurrency`) a broken
/// invariant is also a reported race.
@Suite struct ConcurrencyInvariantTests {
    /// One in-process run: exit status, standard output and standard error.
    struct Run: Equatable {
        var status: Int32
        var output: [UInt8]
        var errors: String
    }

    static func run(_ arguments: [String], input: String = "", chunk: Int = .max) -> Run {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, input: MemoryInput(input, chunk: chunk), output: output, errors: errors)
        return Run(status: status, output: output.bytes, errors: errors.text)
    }

    /// 12,000 lines: coordinates all over the world (sea included), and a bad line now and then.
    static let geocodeInput: String = {
        var random = SeededGenerator(state: 61)
        return (0..<12_000).map { index in
            index % 97 == 5
                ? "not a coordinate \(index)"
                : "\(Double.random(in: -90...90, using: &random)),\(Double.random(in: -180...180, using: &random))"
        }.joined(separator: "\n") + "\n"
    }()

    /// `GeocodeRun.Part` and `PartBuffers` (`@unchecked Sendable`): a batch of 12,000 lines is
    /// split into four parts per core, each rendered by one thread into its own buffer (and with
    /// a fragments table that no other part holds meanwhile), then read by the thread that
    /// writes them out. Read 16 KiB at a time, every batch is under the 2,048 lines that make
    /// parts, so the same input is rendered on one thread: the two outputs are the same bytes.
    @Test(
        .enabled(if: processorCount() > 1, "one core: geocode renders every batch as one part"),
        arguments: [["--format", "ndjson"], ["--format", "geojson"], ["--format", "csv", "--nearest", "2"]])
    func geocodesPartsOnEveryCoreWriteWhatOneThreadWrites(format: [String]) {
        let parallel = Self.run(["geocode"] + format, input: Self.geocodeInput)
        let serial = Self.run(["geocode"] + format, input: Self.geocodeInput, chunk: 16 << 10)
        #expect(parallel.output.count > 1 << 20)
        #expect(parallel == serial)
    }

    /// A tree of `copies` copies of every fixture photo (good, broken and not photos at all), so
    /// that a scan has a dozen batches of 32 files to hand out.
    static func photoTree(copies: Int) throws -> String {
        let root = try makeTemporaryDirectory()
        let photos = try listDirectory(Fixtures.root + "/photos")
        for copy in 0..<copies {
            let folder = root + "/copy\(copy)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in photos {
                try FileManager.default.copyItem(atPath: Fixtures.photo(name), toPath: folder + "/" + name)
            }
        }
        return root
    }

    /// `Context.ProcessedBatch` (`@unchecked Sendable`): a worker hands its batch's rendered
    /// buffer over and never touches it again, so only the delivering thread reads it. Eight
    /// workers write what one writes, records and diagnostics alike.
    @Test func aScanWithEightWorkersWritesWhatOneWorkerWrites() throws {
        let root = try Self.photoTree(copies: 6)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for format in ["ndjson", "json", "csv"] {
            let serial = Self.run(["scan", "--jobs", "1", "--format", format, root])
            let parallel = Self.run(["scan", "--jobs", "8", "--format", format, root])
            #expect(serial.output.count > 10_000)
            #expect(parallel == serial, "--format \(format)")
        }
    }

    /// `InterruptEraser`'s `nonisolated(unsafe)` state and `installed` flag: armed and disarmed
    /// only while the bar is drawn or erased, which the run does under its lock, whichever
    /// worker delivers. A scan with eight workers and a bar on a file descriptor (drawn at once:
    /// no delay) arms it from several threads; the records are those of a run without a bar.
    @Test func aProgressBarDrawnByEightWorkersKeepsItsEraserConsistent() throws {
        let root = try Self.photoTree(copies: 6)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let serial = Self.run(["scan", "--jobs", "1", "--format", "ndjson", root])
        let barFolder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: barFolder) }
        let barPath = barFolder + "/bar.txt"
        let descriptor = open(barPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let output = MemorySink(), errors = FileSink(descriptor: descriptor)
        let status = PhotoTag.run(
            ["scan", "--jobs", "8", "--progress", "--format", "ndjson", root].map(Argument.init),
            input: MemoryInput(""), output: output, errors: errors, environment: Environment(), progressDelay: 0)
        close(descriptor)
        #expect(status == serial.status)
        #expect(output.bytes == serial.output)
        // The bar was drawn, and erased (`\r ESC [ K`) around the diagnostics and at the end.
        let bar = try String(contentsOfFile: barPath, encoding: .utf8)
        #expect(bar.contains(" files") && bar.contains("\r\u{1B}[K"))
    }
}
