import Foundation
import PhotoGPS
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Which files `locate` and `scan` read, and which records they write: `--all-files`, the
/// filters and GeoJSON, standard input and FIFOs, `--files-from`, `--jobs`, `--exclude`,
/// `--max-depth` and `--no-follow`.
@Suite struct FileSelectionTests {
    /// A located JPEG.
    static let photo = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))

    /// A BigTIFF header: a real photo container that phototag cannot read.
    static let bigTIFF = Data("II+\0".utf8) + Data([8, 0, 0, 0]) + Data(count: 16)

    /// A folder holding the files of issue 10's defect 5: text, a GIF, a BigTIFF and a photo,
    /// and a QuickTime movie without a location (read since videos are: a no-gps record); plus,
    /// with `extra`, more files named by path.
    static func makeMixedFolder(_ extra: [String: Data] = [:]) throws -> String {
        let root = try makeTemporaryDirectory()
        let files: [String: Data] = [
            "notes.txt": Data("just text\n".utf8),
            "clip.mov": Data([0, 0, 0, 0x14]) + Data("ftypqt  ".utf8) + Data(count: 4) + Data("qt  ".utf8)
                + Data([0, 0, 0, 0x10]) + Data("moov".utf8) + Data([0, 0, 0, 8]) + Data("free".utf8),
            "anim.gif": Data("GIF89a".utf8) + Data([1, 0, 1, 0, 0, 0, 0, 0x3B]),
            "big.tif": bigTIFF,
            "p.jpg": photo,
        ].merging(extra) { $1 }
        for (name, bytes) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    /// The records of NDJSON output.
    static func records(_ result: Binary.Result) throws -> [[String: Any]] {
        try ScanTreeTests.records(result.output)
    }

    /// The `file` of each record.
    static func files(_ result: Binary.Result) throws -> [String] {
        try records(result).map { $0["file"] as? String ?? "?" }
    }

    /// The stderr lines that error records must have, one each, in record order.
    static func errorLines(_ records: [[String: Any]]) -> [String] {
        records.compactMap { record in
            guard let error = record["error"] as? String, let file = record["file"] as? String else { return nil }
            return "phototag: \(file): \(error)"
        }
    }

    // MARK: Names

    @Test func aPathIsItsFolderASlashAndItsNameWithoutADoubledSlash() {
        func joined(_ folder: String, _ name: String) -> String {
            String(decoding: join(Array(folder.utf8), Array(name.utf8)), as: UTF8.self)
        }
        #expect(joined("photos", "a.jpg") == "photos/a.jpg")
        #expect(joined("photos/", "a.jpg") == "photos/a.jpg")
        #expect(joined("/", "tmp") == "/tmp")
        #expect(joined("", "a.jpg") == "/a.jpg")
        #expect(joined("a/b", "") == "a/b/")
        #expect(joined("ä/ß", "日本.jpg") == "ä/ß/日本.jpg")
    }

    @Test func photoExtensionsAndSidecarKindsIgnoreCaseAndNothingElse() {
        func photo(_ name: String) -> Bool { PhotoFiles.hasPhotoExtension(Array(name.utf8)[...]) }
        // Issue 23, item 13: .jxl, .x3f (and .raf) were skipped by a scan without a word.
        for name in ["a.jpg", "B.JPG", "c.JpEg", "d.tiff", "e.3gp", "f.x.HEIC", ".png", "g.jxl", "h.X3F", "i.raf"] {
            #expect(photo(name), "\(name)")
        }
        for name in ["a.jpgx", "b.jp", "c.", "jpg", "d.jpg.txt", "e.ｊpg", "f.tiffff", "g.j\u{0}pg"] {
            #expect(!photo(name), "\(name)")
        }
        #expect(!PhotoFiles.hasPhotoExtension([0x61, 0x2E, 0, 0x6A, 0x70, 0x67][...]))  // a NUL before jpg
        for name in ["a.xmp", "B.XMP", "c.jpg.Xmp", ".xmp", "x.xmp"] {
            #expect(Sidecar.kind(ofName: Array(name.utf8)) == .xmp)
        }
        for name in ["a.json", "B.JSON", "c.jpg.supplemental-metadata.Json", ".json"] {
            #expect(Sidecar.kind(ofName: Array(name.utf8)) == .takeout)
        }
        for name in ["a.xmpp", "xmp", "a.jso", "ajson", "a.json ", "a.jpg", "", "p"] {
            #expect(Sidecar.kind(ofName: Array(name.utf8)) == nil, "\(name)")
        }
    }

    // MARK: --all-files (defect 5)

    @Test func allFilesSkipsWhatIsNotAPhotoAndKeepsThePhotoItCannotRead() throws {
        let root = try Self.makeMixedFolder(["sub/bigtiff-without-extension": Self.bigTIFF, "sub/empty": Data()])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let all = try Binary.run(["scan", "--no-place", "--all-files", "--format", "ndjson", "."], directory: root)
        #expect(
            try Self.files(all) == ["./big.tif", "./clip.mov", "./p.jpg", "./sub/bigtiff-without-extension"])
        let errors = Self.errorLines(try Self.records(all))
        #expect(errors.count == 2)
        #expect(errors.first == "phototag: ./big.tif: unsupported file format: BigTIFF")
        // One stderr line for every error record, and nothing else.
        #expect(all.errors == Data(errors.map { $0 + "\n" }.joined().utf8))
        #expect(all.status == 2)  // a photo could not be read
        // The default mode has the same BigTIFF record.
        let plain = try Binary.run(["scan", "--no-place", "--format", "ndjson", "."], directory: root)
        #expect(try Self.files(plain) == ["./big.tif", "./clip.mov", "./p.jpg"])
        #expect(plain.errors == Data("phototag: ./big.tif: unsupported file format: BigTIFF\n".utf8))
    }

    @Test func filesThatAreNotPhotosNeverFailTheRunAndAreCountedInTheSummary() throws {
        let root = try Self.makeMixedFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: root + "/big.tif")
        let result = try Binary.run(["scan", "--no-place", "--all-files", "--summary", "."], directory: root)
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
        #expect(result.text.contains("  1  located\n"))
        #expect(result.text.contains("  1  no GPS\n"))  // the movie
        #expect(result.text.contains("  2  skipped, not photos\n"))
    }

    /// The invariant of defect 5 on the messy tree of ``ScanTreeTests``: every stderr error has
    /// its record, in both modes.
    @Test(arguments: [[], ["--all-files"], ["--all-files", "--hidden"]])
    func everyErrorOnStderrHasItsRecord(options: [String]) throws {
        let root = try ScanTreeTests.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["scan", "--no-place", "--format", "ndjson"] + options + ["."], directory: root)
        let stderr = String(decoding: result.errors, as: UTF8.self).split(separator: "\n").map(String.init)
        // Notes of what was not read again (a loop, a link to a file read already) are not
        // errors: the folder or file they name has its records.
        let errors = stderr.filter { !$0.contains(": already scanned") }
        let expected = Self.errorLines(try Self.records(result))
        #expect(!expected.isEmpty)
        #expect(errors == expected)
    }

    @Test func onlyPhotoContainersThatCannotBeReadAreRealErrors() {
        #expect(PhotoGPSError.emptyFile.meansNotAPhoto)
        #expect(PhotoGPSError.unsupportedFormat(nil).meansNotAPhoto)
        for kind in ["GIF", "BMP", "MP4 video", "QuickTime movie", "RIFF (AVI )"] {
            #expect(PhotoGPSError.unsupportedFormat(kind).meansNotAPhoto, "\(kind)")
        }
        for kind in ["BigTIFF"] {
            #expect(!PhotoGPSError.unsupportedFormat(kind).meansNotAPhoto, "\(kind)")
        }
        #expect(!PhotoGPSError.truncated("x").meansNotAPhoto)
        // The names are the reader's own.
        #expect(GPSReader().read(bytes: Array(Self.bigTIFF)).error == .unsupportedFormat("BigTIFF"))
    }

    // MARK: --with-gps and GeoJSON (defect 9)

    @Test func withGPSPrintsOnlyLocatedPhotosAndStillReportsErrors() throws {
        let root = try Self.makeMixedFolder([
            "no-gps.jpg": try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("no-exif.jpg")))
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["scan", "--no-place", "--with-gps", "--format", "ndjson", "."], directory: root)
        #expect(try Self.files(result) == ["./p.jpg"])
        #expect(result.errors == Data("phototag: ./big.tif: unsupported file format: BigTIFF\n".utf8))
        #expect(result.status == 2)
        let near = try Binary.run(
            ["scan", "--no-place", "--near", "48.85,2.29", "--within", "10", "--format", "ndjson", "."],
            directory: root)
        #expect(try Self.files(near) == ["./p.jpg"])
        #expect(near.status == 2)
        #expect(!near.errors.isEmpty)
        // --without-gps: errors have no usable position either, so they are printed.
        let without = try Binary.run(
            ["scan", "--no-place", "--without-gps", "--format", "ndjson", "."], directory: root)
        #expect(try Self.files(without) == ["./big.tif", "./clip.mov", "./no-gps.jpg"])
    }

    /// The features of a GeoJSON run.
    static func features(_ result: Binary.Result) throws -> [[String: Any]] {
        let collection = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        return try #require(collection["features"] as? [[String: Any]])
    }

    @Test(arguments: ["locate", "scan"])
    func geoJSONHoldsOnlyLocatedFeaturesUnlessAllRecords(command: String) throws {
        let files = [
            Fixtures.photo("ne-little-endian.jpg"), Fixtures.photo("empty.jpg"), Fixtures.photo("no-exif.jpg"),
        ]
        let map = try Binary.run([command, "--no-place", "--format", "geojson"] + files)
        let features = try Self.features(map)
        #expect(features.count == 1)
        #expect((features.first?["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect(map.errors == Data("phototag: \(files[1]): file is empty\n".utf8))
        #expect(map.status == 2)
        let all = try Binary.run([command, "--no-place", "--format", "geojson", "--all-records"] + files)
        #expect(try Self.features(all).count == 3)
        #expect(all.status == 2)
    }

    @Test func allRecordsIsOnlyForGeoJSON() {
        let result = run("locate", "--all-records", "--json", "x.jpg")
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("Error: '--all-records' is for --format geojson"))
    }

    // MARK: standard input and FIFOs (defect 10)

    @Test func locateReadsThePhotoOnStandardInput() throws {
        let result = try Binary.run(["locate", "--no-place", "--format", "ndjson", "-"], input: Self.photo)
        let records = try Self.records(result)
        #expect(records.count == 1)
        #expect(records.first?["file"] as? String == "-")
        #expect(records.first?["status"] as? String == "located")
        #expect(result.status == 0)
        // /dev/stdin, a pipe here, is read the same way.
        let named = try Binary.run(["locate", "--no-place", "--format", "ndjson", "/dev/stdin"], input: Self.photo)
        #expect(try Self.records(named).first?["status"] as? String == "located")
        #expect(named.status == 0)
    }

    /// Runs phototag with standard input read from the file at `input` (so that a phototag that
    /// stops reading cannot make a writer here die of SIGPIPE).
    static func runWithInput(_ arguments: [String], fromFile input: String) throws -> Binary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Binary.Result(status: process.terminationStatus, output: outputData, errors: errorData)
    }

    @Test func standardInputPastTheLimitIsAClearError() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/big"
        try Data(count: Context.streamLimit + 1).write(to: URL(fileURLWithPath: input))
        let result = try Self.runWithInput(["locate", "--no-place", "-"], fromFile: input)
        #expect(result.status == 2)
        #expect(result.errors == Data("phototag: -: standard input is larger than 64 MiB\n".utf8))
        let fits = Array(Self.photo) + [UInt8](repeating: 0, count: Context.streamLimit - Self.photo.count)
        #expect(GPSReader().read(bytes: fits).status == .located)
    }

    @Test func locateReadsAFIFOGivenByName() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/photo.jpg"
        #expect(mkfifo(fifo, 0o644) == 0)
        // The writer waits (without blocking forever) for phototag to open the FIFO.
        let done = Flag()
        let writer = Thread {
            let photo = Self.photo
            while !done.isSet {
                let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
                guard descriptor >= 0 else {
                    usleep(10_000)  // ENXIO: no reader yet
                    continue
                }
                _ = fcntl(descriptor, F_SETFL, 0)
                _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
                return
            }
        }
        writer.start()
        let result = try Binary.run(["locate", "--no-place", "--format", "ndjson", fifo])
        done.set()
        let records = try Self.records(result)
        #expect(records.first?["file"] as? String == fifo)
        #expect(records.first?["status"] as? String == "located")
        #expect(result.status == 0)
    }

    /// Issue 23, item 12: `cat x.xmp | phototag locate -` said "unsupported": a sidecar on
    /// standard input is told by its content, and a UTF-16 sidecar beside a photo is read.
    @Test func aSidecarIsToldByItsContentAndReadInUTF16() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let xmp = SidecarText.xmp(#"exif:GPSLatitude="48,51.4933N" exif:GPSLongitude="2,17.67E""#)
        try Data(xmp.utf8).write(to: URL(fileURLWithPath: root + "/x.xmp"))
        let piped = try Self.runWithInput(
            ["locate", "--no-place", "--format", "ndjson", "-"], fromFile: root + "/x.xmp")
        let record = try #require(try Self.records(piped).first)
        #expect(record["status"] as? String == "located")
        #expect((record["gps"] as? [String: Any])?["source"] as? String == "xmp-sidecar")
        #expect(piped.status == 0)
        // A UTF-16 sidecar (with a BOM, as Windows tools write it) beside a photo without GPS.
        try FileManager.default.copyItem(atPath: Fixtures.photo("no-exif.jpg"), toPath: root + "/p.jpg")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in xmp.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(utf16).write(to: URL(fileURLWithPath: root + "/p.jpg.xmp"))
        let scan = try Binary.run(["scan", "--no-place", "--format", "ndjson", root + "/p.jpg"])
        let paired = try #require(try Self.records(scan).first)
        #expect(paired["status"] as? String == "located", "\(paired)")
        #expect(scan.status == 0)
    }

    @Test func standardInputIsReadOnce() {
        #expect(run("locate", "-", "-").errors.hasPrefix("Error: '-' (standard input) can be given only once"))
        let both = run("locate", "--files-from", "-", "-")
        #expect(both.status == 64)
        #expect(both.errors.hasPrefix("Error: '-' and '--files-from -' both read standard input"))
    }

    // MARK: --files-from

    @Test func filesFromAddsTheListedPathsAfterTheArgumentsInOneArray() throws {
        let first = Fixtures.photo("no-exif.jpg"), listed = Fixtures.photo("ne-little-endian.jpg")
        let list = "\(listed)\n\n/nonexistent/x.jpg\n\(first)"  // an empty line; no final newline
        let result = try Binary.run(
            ["locate", "--no-place", "--json", first, "--files-from", "-"], input: Data(list.utf8))
        let array = try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]])
        #expect(array.map { $0["file"] as? String } == [first, listed, "/nonexistent/x.jpg", first])
        #expect(array[2]["error"] as? String == "cannot open: no such file or directory")
        #expect(result.status == 2)
    }

    /// Issue 23, item 14: a list written on Windows (CRLF line ends, a byte order mark) named
    /// files that do not exist, `a.jpg\r`.
    @Test(arguments: ["locate", "scan"])
    func aListWithCRLFLineEndsAndAByteOrderMarkIsRead(command: String) throws {
        let first = Fixtures.photo("no-exif.jpg"), second = Fixtures.photo("ne-little-endian.jpg")
        let list = Data([0xEF, 0xBB, 0xBF]) + Data("\(first)\r\n\(second)\r\n\r\n".utf8)
        let result = try Binary.run([command, "--no-place", "--format", "ndjson", "--files-from", "-"], input: list)
        let records = try Self.records(result)
        #expect(records.map { $0["file"] as? String } == [first, second])
        #expect(records.allSatisfy { $0["error"] is NSNull })
        #expect(result.status == (command == "locate" ? 1 : 0))  // locate: no-exif.jpg has no position
    }

    @Test(arguments: ["locate", "scan"])
    func aNULSeparatedListKeepsEveryByteOfItsNames(command: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A name with a newline, and one that is not UTF-8 (FF FE).
        try Self.photo.write(to: URL(fileURLWithPath: directory + "/new\nline.jpg"))
        let raw = Array(directory.utf8) + Array("/".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)
        let descriptor = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        _ = Self.photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let listFile = directory + "/list"
        try Data(Array((directory + "/new\nline.jpg").utf8) + [0] + raw + [0, 0]).write(
            to: URL(fileURLWithPath: listFile))
        let result = try Binary.run([command, "--no-place", "--format", "ndjson", "--files-from", listFile, "-0"])
        let records = try Self.records(result)
        #expect(
            records.map { $0["file"] as? String } == [
                directory + "/new\nline.jpg", directory + "/\u{FFFD}\u{FFFD}.jpg",
            ])
        #expect(records.allSatisfy { $0["status"] as? String == "located" })
        #expect(result.status == 0)
    }

    @Test func scanWalksEachListedPath() throws {
        let root = try Self.makeMixedFolder(["sub/deep.jpg": Self.photo])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(
            ["scan", "--no-place", "--format", "ndjson", "--files-from", "-", "p.jpg"], input: Data("sub\n".utf8),
            directory: root)
        #expect(try Self.files(result) == ["p.jpg", "sub/deep.jpg"])
        #expect(result.status == 0)
    }

    @Test func aListThatCannotBeOpenedIsAnError() {
        let result = run("scan", "--files-from", "/nonexistent/list", ".")
        #expect(result.status == 2)
        #expect(result.errors == "phototag: /nonexistent/list: cannot open: no such file or directory\n")
        #expect(result.output == "")
        let folder = run("locate", "--files-from", Fixtures.root)
        #expect(folder.errors == "phototag: \(Fixtures.root): cannot open: is a directory\n")
        #expect(run("locate", "--null", "x.jpg").status == 64)  // --null without a list
    }

    // MARK: --jobs

    @Test func jobsIsValidatedAndGivesTheSameOutput() throws {
        #expect(run("scan", "--jobs", "0", ".").status == 64)
        #expect(
            run("locate", "--jobs", "many", "x.jpg").errors.hasPrefix("Error: option '--jobs' needs a whole number"))
        let options = try #require(Invocation.parse(["scan", "--jobs", "3", "."]).scanOptions, "not a scan")
        #expect(options.selection.workers == 3)
        let one = try Binary.run(["scan", "--no-place", "--format", "ndjson", "--jobs", "1", "Fixtures/photos"])
        let every = try Binary.run(["scan", "--no-place", "--format", "ndjson", "Fixtures/photos"])
        #expect(one.output == every.output)
        #expect(!one.output.isEmpty)
    }

    // MARK: --exclude, --max-depth, --no-follow

    /// A tree for the walk options, in `tree/` of a temporary folder that the caller removes
    /// (→ is a symbolic link):
    ///
    ///     top.jpg   a/keep.jpg   a/skip.jpg   a/b/deep.jpg   node_modules/x.jpg
    ///     c/node_modules/y.jpg   link.jpg → top.jpg   linkdir → ../outside (outside/o.jpg)
    static func makeWalkTree() throws -> (base: String, root: String) {
        let base = try makeTemporaryDirectory()
        let root = base + "/tree"
        for name in [
            "tree/top.jpg", "tree/a/keep.jpg", "tree/a/skip.jpg", "tree/a/b/deep.jpg", "tree/node_modules/x.jpg",
            "tree/c/node_modules/y.jpg", "outside/o.jpg",
        ] {
            let path = base + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Self.photo.write(to: URL(fileURLWithPath: path))
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/link.jpg", withDestinationPath: "top.jpg")
        try FileManager.default.createSymbolicLink(atPath: root + "/linkdir", withDestinationPath: "../outside")
        return (base, root)
    }

    /// The files `scan` reads in `root` with `options`, relative to it.
    static func scanned(_ root: String, _ options: [String], paths: [String] = ["."]) throws -> [String] {
        let result = try Binary.run(
            ["scan", "--no-place", "--format", "ndjson", "-q"] + options + paths, directory: root)
        return try files(result).map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
    }

    @Test func excludeMatchesNamesAndRelativePaths() throws {
        let (base, root) = try Self.makeWalkTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        // By name, at any depth; an excluded folder is not entered.
        #expect(
            try Self.scanned(root, ["--exclude", "node_modules", "--exclude", "link*"])
                == ["a/b/deep.jpg", "a/keep.jpg", "a/skip.jpg", "top.jpg"])
        // By path below the root: '*' does not cross '/', but an excluded folder takes its files.
        #expect(
            try Self.scanned(root, ["--exclude", "a/*", "--exclude", "*/node_modules"])
                == ["link.jpg", "linkdir/o.jpg", "node_modules/x.jpg"])  // top.jpg: read as link.jpg
        #expect(
            try Self.scanned(root, ["--exclude", "a/s*", "--exclude", "l*", "--exclude", "*modules"])
                == ["a/b/deep.jpg", "a/keep.jpg", "top.jpg"])
        // A path given is always read.
        #expect(try Self.scanned(root, ["--exclude", "*.jpg"], paths: ["top.jpg", "."]) == ["top.jpg"])
    }

    /// Issue 23, item 14: --exclude matched in one case only, while the photo extensions are
    /// matched in any: `--exclude '*.JPG'` now leaves out `top.jpg` too, by name and by path.
    @Test func excludeMatchesInAnyCaseAsExtensionsDo() throws {
        let (base, root) = try Self.makeWalkTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(
            try Self.scanned(root, ["--exclude", "NODE_MODULES", "--exclude", "LINK*", "--exclude", "A/SKIP.JPG"])
                == ["a/b/deep.jpg", "a/keep.jpg", "top.jpg"])
        #expect(try Self.scanned(root, ["--exclude", "*.JPG"]).isEmpty)
    }

    @Test func maxDepthCountsLikeFind() throws {
        let (base, root) = try Self.makeWalkTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let options = ["--exclude", "link*"]
        #expect(try Self.scanned(root, options + ["--max-depth", "0"], paths: ["top.jpg", "."]) == ["top.jpg"])
        #expect(try Self.scanned(root, options + ["--max-depth", "1"]) == ["top.jpg"])
        #expect(
            try Self.scanned(root, options + ["--max-depth", "2"])
                == ["a/keep.jpg", "a/skip.jpg", "node_modules/x.jpg", "top.jpg"])
        #expect(try Self.scanned(root, options + ["--max-depth", "3"]).count == 6)
        #expect(run("scan", "--max-depth", "-1", ".").status == 64)
    }

    @Test func noFollowSkipsLinksInsideFoldersButFollowsThoseGiven() throws {
        let (base, root) = try Self.makeWalkTree()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let followed = try Self.scanned(root, [])
        #expect(followed.contains("link.jpg"))
        #expect(followed.contains("linkdir/o.jpg"))
        let notFollowed = try Self.scanned(root, ["--no-follow"])
        #expect(
            notFollowed == [
                "a/b/deep.jpg", "a/keep.jpg", "a/skip.jpg", "c/node_modules/y.jpg", "node_modules/x.jpg", "top.jpg",
            ])
        // Like find -H: the links given are followed.
        #expect(
            try Self.scanned(root, ["--no-follow"], paths: ["link.jpg", "linkdir"])
                == ["link.jpg", "linkdir/o.jpg"])
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
