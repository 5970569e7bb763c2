// What every test target shares: where the fixtures are, a seeded random generator, files.
import Foundation
import PhotoTagSupport

/// The project's own fixtures, found from this file's path (no SwiftPM resources).
public enum Fixtures {
    /// The `Fixtures` folder.
    public static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TestSupport/TestSupport.swift
        return parts.joined(separator: "/") + "/Fixtures"
    }()

    /// A photo of `Fixtures/photos/`.
    public static func photo(_ name: String) -> String { "\(root)/photos/\(name)" }

    /// The tiny GeoNames dumps of `Fixtures/geonames/`.
    public static let geonames = root + "/geonames"

    /// The eight-place table built from them (see `Fixtures/README.md`).
    public static let places = root + "/geonames/test.places"
}

/// The products of the build the tests run from, found beside the test bundle.
public enum BuiltProducts {
    /// The repository root.
    public static let root = String(Fixtures.root.dropLast("/Fixtures".count))

    /// The executable `name` beside the test bundle in the build folder (or in the folder above
    /// it), else in `.build/debug`.
    public static func path(of name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root + "/.build/debug/" + name
    }
}

/// Sidecar texts the PhotoGPS and CLI tests both write.
public enum SidecarText {
    /// An XMP sidecar's text with these `rdf:Description` attributes.
    public static func xmp(_ attributes: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
          xmlns:xmp="http://ns.adobe.com/xap/1.0/" \(attributes)/>
        </rdf:RDF></x:xmpmeta>
        """
    }
}

/// A seeded generator (PhotoTagSupport's SplitMix64), so every run tests the same values.
package typealias SeededGenerator = SplitMix64

/// A fresh temporary directory; the caller removes it.
public func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "phototag-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A whole file's bytes.
public func readWholeFile(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The names in a directory.
public func listDirectory(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path)
}

/// The shared data beside the repository (`../shared`, or the folder named by `PHOTOTAG_SHARED`):
/// the real-file corpora, GeoNames dumps, boundaries and tzdata. Users' clones do not have it;
/// the tests that need it then skip with a visible reason.
public enum SharedData {
    /// The shared folder.
    public static let root: String =
        ProcessInfo.processInfo.environment["PHOTOTAG_SHARED"]
        ?? (Fixtures.root as NSString).deletingLastPathComponent + "/../shared"

    /// `path` below the shared folder.
    public static func path(_ path: String) -> String { root + "/" + path }

    /// The rows of a corpus's `manifest.tsv` (tab-separated, a header line) as column → value.
    public static func manifest(in directory: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: directory + "/manifest.tsv", encoding: .utf8)
        var lines = text.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines.removeFirst()
        return lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// Prints a note about missing shared data on the test output, and keeps it in
    /// ``printedNotes``, so that a test can check that a note is printed once per run.
    public static func note(_ text: String) {
        notes.withLock { $0.append(text) }
        print(text)
    }

    /// The notes printed so far, in order.
    public static var printedNotes: [String] { notes.withLock { $0 } }

    private static let notes = LockedNotes()
}

/// The notes of ``SharedData/note(_:)``, behind a lock (tests run in parallel).
private final class LockedNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []

    func withLock<T>(_ body: (inout [String]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&notes)
    }
}

/// Runs `body(0)` … `body(count - 1)`, each on a POSIX thread of its own started as the scan
/// starts its readers (PhotoTagSupport's `spawnDetachedThread`), and returns once every one has
/// run: what the concurrency tests use to reach one shared object from many threads at once.
///
/// Every thread is started and waiting before any is let go, so that they overlap; the only
/// ordering between them is that start, so ThreadSanitizer still sees any two of them race.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        let started = spawnDetachedThread {
            ready.signal()
            go.wait()
            body(index)
            done.signal()
        }
        precondition(started, "no thread to be had")
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    for _ in 0..<count { done.wait() }
}

/// A tmpfs mounted (mount(2)) on a fresh folder, for the tests that need a file system of
/// their own: read-only, or full. Only root may mount one.
public final class Tmpfs {
    /// Where it is mounted.
    public let path: String

    /// Mounts a tmpfs of `size` bytes, or throws the `errno` of the failed mount.
    public init(size: Int) throws {
        path = try makeTemporaryDirectory()
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0755") == 0 else {
            let code = errno
            rmdir(path)
            throw SystemError(code: code)
        }
    }

    /// Makes the file system read-only (`MS_REMOUNT | MS_RDONLY`).
    public func remountReadOnly() -> Bool { mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 }

    deinit {
        if umount2(path, 0) != 0 { _ = umount2(path, Int32(MNT_DETACH)) }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Whether a tmpfs can be mounted here: as root, tried once (a container may forbid it).
    public static let mountable: Bool = {
        guard geteuid() == 0 else { return false }
        return (try? Tmpfs(size: 64 << 10)) != nil
    }()

    /// Fills the file system to its last byte with a file named `filler`; the `errno` that
    /// stopped it (`ENOSPC`).
    public func fill() -> Int32 {
        let filler = open(path + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard filler >= 0 else { return errno }
        defer { close(filler) }
        let chunk = [UInt8](repeating: 7, count: 4096)
        while true {
            let written = chunk.withUnsafeBytes { write(filler, $0.baseAddress, $0.count) }
            if written < 0 { return errno }
        }
    }
}
