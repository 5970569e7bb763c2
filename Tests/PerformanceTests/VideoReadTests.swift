import Foundation
import TestSupport
import Testing

/// The read limits of videos, seen from outside: `strace` counts the `pread64` calls the built
/// binary makes on each file and the bytes they return. Skipped (visibly) where strace is absent.
@Suite(.enabled(if: Strace.path != nil, "strace is not installed (apt-get install strace)"))
struct VideoReadTests {
    static let phototag = BuiltProducts.path(of: "phototag")

    /// The `pread64` calls of `phototag locate --no-place FILE`: how many and how many bytes.
    static func preads(_ file: String) throws -> (calls: Int, bytes: Int, output: String) {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trace = folder + "/trace"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Strace.path!)
        process.arguments = [
            "-f", "-xx", "-e", "trace=openat,pread64", "-o", trace, Self.phototag, "locate", "--no-place", file,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Only the reads of the file itself: from its openat(2) on, on the descriptor it returned
        // (the dynamic loader preads libraries before). With -xx strace writes every byte of a
        // string as \xHH, so the path matches whatever bytes it has (strace would otherwise escape
        // the non-ASCII ones of a clone in "ünïcode/" as octal).
        let quoted = "\"" + file.utf8.map { ($0 < 16 ? "\\x0" : "\\x") + String($0, radix: 16) }.joined() + "\""
        var calls = 0, bytes = 0
        var descriptor: Substring? = nil
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            let result = line.split(separator: "=").last?.trimmingCharacters(in: .whitespaces) ?? ""
            if line.contains("openat("), line.contains(quoted) {
                descriptor = Substring(result)
            } else if let descriptor, line.contains("pread64(\(descriptor),") {
                calls += 1
                bytes += Int(result) ?? 0
            }
        }
        return (calls, bytes, text)
    }

    /// Every fixture video, the corpus videos when present, and a 5 GiB sparse `mdat` (64-bit
    /// size) before `moov`: at most 8 reads and 1 MiB (plus the 64 bytes identification reads).
    @Test func everyVideoTakesAtMostEightReadsAndOneMebibyte() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let long = folder + "/long.mov"
        let mdatSize: UInt64 = 5 << 30
        let ftyp: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)
        let mdat: [UInt8] =
            [0, 0, 0, 1] + Array("mdat".utf8) + (0..<8).reversed().map { UInt8(mdatSize >> (8 * $0) & 0xFF) }
        let xyz = Array("+48.8583+002.2945/".utf8)
        let udta: [UInt8] =
            [0, 0, 0, UInt8(20 + xyz.count)] + Array("udta".utf8) + [0, 0, 0, UInt8(12 + xyz.count), 0xA9]
            + Array("xyz".utf8) + [0, UInt8(xyz.count), 0x15, 0xC7] + xyz
        let moov = [0, 0, 0, UInt8(8 + udta.count)] + Array("moov".utf8) + udta
        #expect(FileManager.default.createFile(atPath: long, contents: Data(ftyp + mdat)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: long))
        try handle.truncate(atOffset: UInt64(ftyp.count) + mdatSize)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(moov))
        try handle.close()

        var files = [long]
        files += try listDirectory(Fixtures.root + "/videos").sorted().map { Fixtures.root + "/videos/" + $0 }
        let corpus = SharedData.path("corpus/video-dev")
        if FileManager.default.fileExists(atPath: corpus + "/manifest.tsv") {
            files += try listDirectory(corpus).sorted().filter { !$0.hasSuffix(".xmp") && !$0.hasSuffix(".tsv") }
                .filter { !$0.hasSuffix(".txt") }.map { corpus + "/" + $0 }
        }
        var most = (calls: 0, bytes: 0)
        for file in files {
            let (calls, bytes, _) = try Self.preads(file)
            #expect(calls >= 2 && calls <= 8, "\(file): \(calls) reads")
            #expect(bytes <= (1 << 20) + 64, "\(file): \(bytes) bytes")
            most = (max(most.calls, calls), max(most.bytes, bytes))
        }
        let located = try Self.preads(long)
        #expect(located.output.contains("48.858300, 2.294500"))
        #expect(located.bytes < 300)
        print("video reads (strace): \(files.count) files, at most \(most.calls) reads and \(most.bytes) bytes")
    }
}

/// Where strace is, if it is installed.
enum Strace {
    static let path: String? = ["/usr/bin/strace", "/bin/strace"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
