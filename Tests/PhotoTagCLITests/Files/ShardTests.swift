import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `scan --shard K/N`: N runs together hold exactly the records of one scan.
@Suite struct ShardTests {
    /// Runs phototag in-process and returns (status, stdout bytes, stderr).
    static func scan(_ arguments: [String]) -> (status: Int32, output: [UInt8], errors: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(["scan"] + arguments, output: output, errors: errors)
        return (status, output.bytes, errors.text)
    }

    /// The lines of some output, each with its newline.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Array($0) + [0x0A] }
    }

    /// A generated tree of 151 files in nested folders: located and bare JPEGs, empty ones
    /// (errors), and odd names (spaces, a newline, bytes that are not UTF-8). Returns its root and
    /// the files' paths below it, as bytes.
    static func makeTree() throws -> (root: String, files: [[UInt8]]) {
        let root = NSTemporaryDirectory() + "phototag-shard-" + UUID().uuidString
        let located = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
        let bare = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg")))
        var files: [[UInt8]] = []
        for index in 0..<150 {
            let folder = "y\(2015 + index % 4)/m\(index % 12 + 1)" + (index % 5 == 0 ? "/deeper/still" : "")
            let names = ["IMG_\(index).jpg", "with space \(index).JPG", "new\nline \(index).jpeg", "DSC \(index).jpg"]
            let name = names[index % names.count]
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            let data = index % 7 == 3 ? Data() : index % 2 == 0 ? located : bare
            try data.write(to: URL(fileURLWithPath: root + "/" + folder + "/" + name))
            files.append(Array((folder + "/" + name).utf8))
        }
        // A name that is not UTF-8 (bytes FF FE), written through open(2).
        let raw = Array((root + "/y2015/").utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = located.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        files.append(Array("y2015/".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8))
        return (root, files)
    }

    @Test func fnv1a64GivesTheReferenceValues() {
        #expect(Shard.fnv1a64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    /// The documented rule, pinned: a change of hash would move files between machines of a
    /// scan already under way.
    @Test func theShareOfAPathIsTheDocumentedOne() {
        let expected: [(String, [Int])] = [
            ("a/b.jpg", [1, 1, 6]), ("IMG_0001.JPG", [1, 1, 4]), ("2019/07/01/IMG_0042.heic", [1, 2, 1]),
        ]
        for (path, shares) in expected {
            for (count, share) in zip([1, 3, 7], shares) {
                #expect(
                    Shard.share(of: Array(("photos/" + path).utf8), under: Array("photos".utf8), count: count) == share)
            }
        }
    }

    @Test func theRelativePathIgnoresHowTheRootIsWritten() {
        let path = Array("photos/a/b.jpg".utf8)
        #expect(Array(Shard.relativePath(of: path, under: Array("photos".utf8))) == Array("a/b.jpg".utf8))
        #expect(Array(Shard.relativePath(of: path, under: Array("photos/".utf8))) == Array("a/b.jpg".utf8))
        #expect(
            Array(Shard.relativePath(of: Array("./a/b.jpg".utf8), under: Array(".".utf8))) == Array("a/b.jpg".utf8))
        #expect(
            Array(Shard.relativePath(of: Array("/etc/x.jpg".utf8), under: Array("/".utf8))) == Array("etc/x.jpg".utf8))
        // A path given that is a file is hashed as given.
        #expect(Array(Shard.relativePath(of: path, under: path)) == path)
    }

    @Test(arguments: [1, 3, 7])
    func theSharesTogetherHoldExactlyTheRecordsOfOneScan(count: Int) throws {
        let (root, files) = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = Self.scan(["--no-place", "--format", "ndjson", root])
        #expect(whole.status == 2)  // the empty files
        let records = Self.lines(whole.output)
        #expect(records.count == files.count)
        var union: [[UInt8]: Int] = [:]
        var sizes: [Int] = []
        for index in 1...count {
            let share = Self.scan(["--no-place", "--format", "ndjson", "--shard", "\(index)/\(count)", root])
            let lines = Self.lines(share.output)
            sizes.append(lines.count)
            // Each share comes out in path order: the records of the whole scan, in its order.
            let positions = lines.compactMap { records.firstIndex(of: $0) }
            #expect(positions.count == lines.count)
            #expect(positions == positions.sorted())
            for line in lines { union[line, default: 0] += 1 }
            // Every file of this share is the one the documented rule puts there.
            let expected = files.filter {
                Shard.share(of: Array(root.utf8) + [UInt8(ascii: "/")] + $0, under: Array(root.utf8), count: count)
                    == index
            }
            #expect(lines.count == expected.count)
            if count == 1 { #expect(share.output == whole.output && share.status == whole.status) }
        }
        // Same bytes per record, none twice, none missing.
        #expect(union.values.allSatisfy { $0 == 1 })
        #expect(Set(union.keys) == Set(records))
        #expect(sizes.reduce(0, +) == records.count)
        #expect(sizes.allSatisfy { $0 > 0 })  // 151 files do reach every share
    }

    /// The same tree reached through another path (a symbolic link, a trailing slash, the folder
    /// itself as `.`) splits the same way: the share depends on the path below the root only.
    @Test func theSharesDoNotDependOnWhereTheTreeIs() throws {
        let (root, _) = try Self.makeTree()
        let link = root + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root)
        defer {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.removeItem(atPath: root)
        }
        func files(_ path: String, share: Int) throws -> Set<String> {
            let result = Self.scan(["--no-place", "--format", "ndjson", "--shard", "\(share)/3", path])
            return Set(
                try Self.lines(result.output).map { line in
                    let record = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
                    let file = try #require(record["file"] as? String)
                    return String(file.dropFirst(path.count).drop { $0 == "/" })
                })
        }
        for share in 1...3 {
            let direct = try files(root, share: share)
            #expect(!direct.isEmpty)
            #expect(try files(link, share: share) == direct)
            #expect(try files(root + "/", share: share) == direct)
        }
    }

    @Test(arguments: ["0/3", "4/3", "3", "1/0", "0/0", "a/b", "1/3/5", "", "-1/3", "+1/3", " 1/3", "1/", "/3"])
    func aBadShardIsAUsageError(value: String) {
        let result = Self.scan(["--shard", value, "."])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("option '--shard' needs"))
        #expect(result.errors.contains("'\(value)'"))
    }
}
