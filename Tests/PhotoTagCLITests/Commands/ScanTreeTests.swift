import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// `scan` over a generated tree with everything that goes wrong in real folders.
@Suite struct ScanTreeTests {
    /// Builds the tree and returns its root. Layout (→ is a symbolic link):
    ///
    ///     a/b/c/deep.jpg            a/x.jpg          a/loop → ..         link.jpg → a/x.jpg
    ///     UPPER.JPEG                noext (a JPEG)   notes.txt           empty.jpeg
    ///     pipe.jpg (a FIFO)         dangling.jpg → nowhere               .hidden.jpg   .hiddendir/h.jpg
    ///     odd names: "with space.jpg", "quote\"s.jpg", "comma,name.jpg", "new\nline.jpg",
    ///                "tab\tname.jpg", "é.jpg", and bytes FF FE + ".jpg" (not UTF-8)
    static func makeTree() throws -> String {
        let fileManager = FileManager.default
        let root = NSTemporaryDirectory() + "phototag-scan-" + UUID().uuidString
        let photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
        let other = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg")))
        try fileManager.createDirectory(atPath: root + "/a/b/c", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: root + "/.hiddendir", withIntermediateDirectories: true)
        for name in ["a/b/c/deep.jpg", "a/x.jpg", "UPPER.JPEG", "noext", ".hidden.jpg", ".hiddendir/h.jpg"] {
            try photo.write(to: URL(fileURLWithPath: root + "/" + name))
        }
        for name in ["with space.jpg", "quote\"s.jpg", "comma,name.jpg", "new\nline.jpg", "tab\tname.jpg", "é.jpg"] {
            try other.write(to: URL(fileURLWithPath: root + "/" + name))
        }
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        try Data().write(to: URL(fileURLWithPath: root + "/empty.jpeg"))
        try fileManager.createSymbolicLink(atPath: root + "/a/loop", withDestinationPath: "..")
        try fileManager.createSymbolicLink(atPath: root + "/link.jpg", withDestinationPath: "a/x.jpg")
        try fileManager.createSymbolicLink(atPath: root + "/dangling.jpg", withDestinationPath: "nowhere")
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        // A name that is not UTF-8: bytes FF FE.
        let raw: [UInt8] = Array((root + "/").utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        _ = other.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        return root
    }

    /// The records of an NDJSON run, decoded with Foundation.
    static func records(_ data: Data) throws -> [[String: Any]] {
        try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func aMessyTreeIsScannedCompletelyInPathOrder() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["scan", "--no-place", "--format", "ndjson", "."], directory: root)
        #expect(result.status == 2)  // the FIFO, the empty file and the dangling link are errors
        let records = try Self.records(result.output)
        let files = records.map { $0["file"] as! String }
        #expect(
            files == [
                "./UPPER.JPEG", "./a/b/c/deep.jpg", "./a/x.jpg", "./comma,name.jpg", "./dangling.jpg", "./empty.jpeg",
                "./new\nline.jpg", "./pipe.jpg", "./quote\"s.jpg", "./tab\tname.jpg", "./with space.jpg",
                "./é.jpg", "./\u{FFFD}\u{FFFD}.jpg",
            ])
        let status = Dictionary(uniqueKeysWithValues: records.map { ($0["file"] as! String, $0["status"] as! String) })
        #expect(status["./a/b/c/deep.jpg"] == "located")
        #expect(status["./link.jpg"] == nil)  // a link to a photo already read: one record per file
        #expect(status["./\u{FFFD}\u{FFFD}.jpg"] == "no-gps")  // opened by its real bytes
        let errors = Dictionary(uniqueKeysWithValues: records.map { ($0["file"] as! String, $0["error"] as? String) })
        #expect(errors["./pipe.jpg"] == "not a regular file (FIFO)")
        #expect(errors["./empty.jpeg"] == "file is empty")
        #expect(errors["./dangling.jpg"] == "cannot open: no such file or directory")
        // The loop a/loop → .. is not followed, and said so once; link.jpg, the same file as
        // a/x.jpg, is not read again, and said so.
        let stderr = String(decoding: result.errors, as: UTF8.self)
        #expect(stderr.contains("phototag: ./a/loop: already scanned (a symbolic link loop or a repeated path)\n"))
        #expect(
            stderr.contains(
                "phototag: ./link.jpg: already scanned: the same file as another path (repeated, linked or hard-linked)\n"
            ))
        #expect(stderr.components(separatedBy: "already scanned").count == 3)
    }

    /// Only what the listing shows to be a regular file (or a link to one) is found as
    /// `.regular`, which the scan opens without a `stat(2)` first; a FIFO named like a photo
    /// stays a `.file`, checked before it could be opened.
    @Test func onlyRegularFilesAreFoundAsRegular() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var walker = FileWalker(hidden: false, allFiles: false)
        var found: [String: String] = [:]
        walker.walk(Array(root.utf8)) { item in
            let name = String(decoding: item.path, as: UTF8.self).replacingOccurrences(of: root + "/", with: "")
            switch item {
            case .regular: found[name] = "regular"
            case .file: found[name] = "file"
            case .unreadable: found[name] = "unreadable"
            default: found[name] = "other"
            }
            return true
        }
        #expect(found["a/x.jpg"] == "regular" && found["UPPER.JPEG"] == "regular")
        #expect(found["link.jpg"] == "other")  // a link to a/x.jpg, found already: skipped
        #expect(found["pipe.jpg"] == "file")
        #expect(found["dangling.jpg"] == "unreadable")
        // Given by path, a file is not typed by a listing (and one already found is skipped).
        var given: [String] = []
        for var walking in [FileWalker(hidden: false, allFiles: false), walker] {
            walking.walk(Array((root + "/a/x.jpg").utf8)) { item in
                switch item {
                case .file: given.append("file")
                case .skipped(_, let reason): given.append(reason)
                default: given.append("other")
                }
                return true
            }
        }
        #expect(
            given == ["file", "already scanned: the same file as another path (repeated, linked or hard-linked)"])
    }

    /// One worker renders a batch's records through one buffer: a shorter record after a longer
    /// one is exactly what it is alone, in every format that renders into it.
    @Test(arguments: ["ndjson", "json", "csv", "geojson"])
    func aRecordAfterALongerOneOnTheSameWorkerIsItsOwn(format: String) throws {
        let root = NSTemporaryDirectory() + "phototag-reuse-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // In one folder, so that the walk hands both to the worker in one batch, the long one first.
        let long = root + "/a-" + String(repeating: "long-name-", count: 20) + ".jpg", short = root + "/b.jpg"
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
            .write(to: URL(fileURLWithPath: long))
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg"))).write(to: URL(fileURLWithPath: short))
        func scan(_ paths: [String]) throws -> String {
            let arguments =
                ["scan", "--jobs", "1", "--format", format, "--places", Fixtures.places]
                + (format == "geojson" ? ["--all-records"] : [])
            return try Binary.run(arguments + paths, directory: root).text
        }
        let both = try scan([root])
        let alone = try scan([short])
        let longAlone = try scan([long])
        #expect(both.count > alone.count + longAlone.count / 2)
        switch format {
        case "ndjson":
            #expect(both == longAlone + alone)
        case "csv":
            let lastRow = { (text: String) in text.components(separatedBy: "\r\n").last { !$0.isEmpty } }
            #expect(lastRow(both) == lastRow(alone))
        default:
            // The short record, decoded, is the same as the one of its own run.
            func last(_ text: String) throws -> NSDictionary? {
                let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
                let list = (value as? [Any]) ?? ((value as? [String: Any])?["features"] as? [Any])
                return list?.last as? NSDictionary
            }
            let expected = try #require(try last(alone))
            #expect(try last(both) == expected)
        }
    }

    @Test func namesSortByTheirBytesAndFoldersAsIfTheyEndedInASlash() throws {
        let root = NSTemporaryDirectory() + "phototag-order-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg")))
        try FileManager.default.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/b", withIntermediateDirectories: true)
        // `-` (2D) < `.` (2E) < `/` (2F) < `0` (30); a name before the longer one it starts.
        let names = ["b/y.jpg", "a0.jpg", "a.jpg.jpg", "b.jpg", "a/z.jpg", "a-b.jpg", "b-c.jpg", "a.jpg", "B.jpg"]
        for name in names { try photo.write(to: URL(fileURLWithPath: root + "/" + name)) }
        let result = try Binary.run(["scan", "--no-place", "--format", "ndjson", "."], directory: root)
        #expect(
            try Self.records(result.output).map { $0["file"] as! String } == [
                "./B.jpg", "./a-b.jpg", "./a.jpg", "./a.jpg.jpg", "./a/z.jpg", "./a0.jpg", "./b-c.jpg", "./b.jpg",
                "./b/y.jpg",
            ])
    }

    /// The walker lists a folder's names into one buffer and builds each path in one reused
    /// array: a long name, then shorter ones, in one folder and in the next, must each come out
    /// whole, with nothing of the one before (and the paths kept stay as they were found).
    @Test func reusedBuffersKeepNothingOfTheEntryBefore() throws {
        let root = NSTemporaryDirectory() + "phototag-reuse-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let long = String(repeating: "l", count: 200)
        let layout = [
            "\(long).jpg", "a.jpg", "ab.jpg", "ab.xmp", "b", "b.xmp",
            "\(long)-folder/\(long)x.jpg", "\(long)-folder/c.jpg", "\(long)-folder/s/\(long).jpg",
            "\(long)-folder/s/d.jpg", "z/e.jpg", "z/\(long).jpg", "z/f.JPG",
        ]
        for path in layout {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0xFF, 0xD8]).write(to: url)
        }
        // A name that is not UTF-8, after the long ones.
        let raw = Array((root + "/z/").utf8) + [0xC3, 0x28, 0xFF] + Array(".jpg".utf8)
        let descriptor = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        var walker = FileWalker(hidden: false, allFiles: true)
        var found: [[UInt8]] = []
        var sidecars: [[UInt8]] = []
        walker.walk(Array(root.utf8)) { item in
            found.append(item.path)
            if case .paired(_, let paired) = item { sidecars += paired.paths }
            return true
        }
        #expect(sidecars == [Array((root + "/ab.xmp").utf8)])
        let expected =
            ([
                "\(long)-folder/\(long)x.jpg", "\(long)-folder/c.jpg", "\(long)-folder/s/\(long).jpg",
                "\(long)-folder/s/d.jpg", "\(long).jpg", "a.jpg", "ab.jpg", "b", "b.xmp", "z/\(long).jpg", "z/e.jpg",
                "z/f.JPG",
            ].map { Array((root + "/" + $0).utf8) } + [raw])
            .sorted { $0.lexicographicallyPrecedes($1) }
        #expect(found == expected)
    }

    @Test func hiddenAndAllFilesWidenTheScan() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hidden = try Self.records(
            Binary.run(["scan", "--no-place", "--hidden", "--format", "ndjson", "-q", "."], directory: root).output)
        let hiddenFiles = Set(hidden.map { $0["file"] as! String })
        #expect(hiddenFiles.isSuperset(of: ["./.hidden.jpg", "./.hiddendir/h.jpg"]))
        let all = try Self.records(
            Binary.run(["scan", "--no-place", "--all-files", "--format", "ndjson", "-q", "."], directory: root).output)
        let allFiles = Set(all.map { $0["file"] as! String })
        #expect(allFiles.contains("./noext"))  // a JPEG without an extension, found by its bytes
        #expect(!allFiles.contains("./notes.txt"))  // not a photo: no record
        // Named like photos: errors, exactly as without --all-files (which only adds files).
        #expect(allFiles.isSuperset(of: ["./empty.jpeg", "./pipe.jpg", "./dangling.jpg"]))
    }

    @Test func everyFormatIsValidForOddFileNames() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let json = try Binary.run(["scan", "--no-place", "--json", "-q", "."], directory: root)
        let array = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        #expect(array.count == 13)
        let geojson = try Binary.run(
            ["scan", "--no-place", "--format", "geojson", "--all-records", "-q", "."], directory: root)
        let collection = try #require(try JSONSerialization.jsonObject(with: geojson.output) as? [String: Any])
        #expect((collection["features"] as? [Any])?.count == 13)
        let csv = try Binary.run(["scan", "--no-place", "--format", "csv", "-q", "."], directory: root)
        let rows = try parseCSV(csv.text)
        #expect(rows.count == 14)
        #expect(rows[0] == CSVColumns.photo)
        #expect(rows.dropFirst().map { $0[0] } == array.map { $0["file"] as! String })  // the CSV round-trips
        #expect(rows.allSatisfy { $0.count == CSVColumns.photo.count })
    }

    @Test(
        .enabled(
            if: Binary.unprivileged != nil,
            "running as root, and nobody cannot run the binary through setpriv: permissions cannot be tested"))
    func unreadableFilesAndFoldersAreReportedAndTheScanGoesOn() throws {
        let root = try Self.makeTree()
        defer {
            chmod(root + "/locked", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        try FileManager.default.createDirectory(atPath: root + "/locked", withIntermediateDirectories: true)
        #expect(chmod(root + "/a/x.jpg", 0) == 0)
        #expect(chmod(root + "/locked", 0) == 0)
        let result = try Binary.run(
            ["scan", "--no-place", "--format", "ndjson", "."], directory: root, unprivileged: true)
        let errors = Dictionary(
            uniqueKeysWithValues: try Self.records(result.output).map {
                ($0["file"] as! String, $0["error"] as? String)
            })
        #expect(errors["./a/x.jpg"] == "cannot open: permission denied")
        #expect(errors["./locked"] == "cannot open: permission denied")
        #expect(errors["./a/b/c/deep.jpg"] == .some(nil))
        // Each error is on stderr too, one line each, and the exit status says a file failed.
        let stderr = String(decoding: result.errors, as: UTF8.self)
        #expect(stderr.contains("phototag: ./a/x.jpg: cannot open: permission denied\n"))
        #expect(stderr.contains("phototag: ./locked: cannot open: permission denied\n"))
        #expect(result.status == 2)
    }

    /// Runs phototag like `phototag … | head -c 100`: reads a little of its output, closes the
    /// reading end, and returns how the process ended and what it wrote on stderr.
    static func runUntilTheReaderLeaves(
        _ arguments: [String], input: String? = nil
    ) throws -> (reason: Process.TerminationReason, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        if let input { process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input)) }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 100)
        try output.fileHandleForReading.close()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationReason, String(decoding: stderr, as: UTF8.self))
    }

    @Test func aClosedPipeEndsTheScanQuietly() throws {
        let root = NSTemporaryDirectory() + "phototag-pipe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
        for index in 0..<3000 { try photo.write(to: URL(fileURLWithPath: root + "/p\(index).jpg")) }
        let result = try Self.runUntilTheReaderLeaves(["scan", "--format", "ndjson", root])
        #expect(result.reason == .exit)  // not killed by SIGPIPE, no crash
        #expect(result.errors == "")
    }

    /// The same for `geocode` reading a big input: the unread rest of a line cut by the 1 MiB
    /// read is not reported as a bad line once the reader has gone.
    @Test func aClosedPipeEndsGeocodeQuietly() throws {
        let input = NSTemporaryDirectory() + "phototag-points-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: input) }
        // 21-byte lines: 1 MiB is not a whole number of them.
        let lines = (0..<150_000).map { index in "12.345678,-98.\(String(100_000 + index).dropFirst())0\n" }
        #expect(lines[0].utf8.count == 21)
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: input))
        let result = try Self.runUntilTheReaderLeaves(["geocode", "--no-place", "--format", "ndjson"], input: input)
        #expect(result.reason == .exit)
        #expect(result.errors == "")
    }
}

/// A small RFC 4180 reader for the round-trip check: quoted fields, doubled quotes, CRLF rows.
func parseCSV(_ text: String) throws -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text.unicodeScalars)[...]
    while let character = characters.popFirst() {
        if quoted {
            if character == "\"" {
                if characters.first == "\"" {
                    field.unicodeScalars.append(characters.removeFirst())
                } else {
                    quoted = false
                }
            } else {
                field.unicodeScalars.append(character)
            }
        } else if character == "\"", field.isEmpty {
            quoted = true
        } else if character == "," {
            row.append(field)
            field = ""
        } else if character == "\r", characters.first == "\n" {
            characters.removeFirst()
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        } else {
            field.unicodeScalars.append(character)
        }
    }
    struct Unterminated: Error {}
    guard row.isEmpty, field.isEmpty, !quoted else { throw Unterminated() }
    return rows
}
