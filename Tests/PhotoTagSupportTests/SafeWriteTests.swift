import Foundation
import TestSupport
import Testing

@testable import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#endif

/// SafeFile (Platform/SafeWrite.swift): a replaced file is the new bytes, complete, or the old
/// ones, untouched, and no temporary file is left behind, whatever goes wrong: a file changed or
/// created by another program, a symbolic link, a read-only folder or file system, a full disk.
@Suite struct SafeWriteTests {
    // MARK: helpers

    /// A path as bytes.
    static func bytes(_ path: String) -> [UInt8] { Array(path.utf8) }

    /// Writes a file of `bytes` with exactly `mode` (set after the umask).
    static func makeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        #expect(descriptor >= 0, "cannot create \(path): \(errnoText())")
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        #expect(bytes.withUnsafeBytes { writeAll(descriptor, $0) } == 0)
        #expect(fchmod(descriptor, mode) == 0)
    }

    /// What `lstat(2)` says of `path`.
    static func status(_ path: String) -> stat {
        var info = stat()
        #expect(lstat(path, &info) == 0, "cannot lstat \(path): \(errnoText())")
        return info
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t { status(path).st_mode & 0o7777 }

    /// The names in `folder`, without `.` and `..`.
    static func names(_ folder: String) -> Set<String> { Set((try? listDirectory(folder)) ?? ["(unlistable)"]) }

    /// The process's umask, from /proc (asking `umask(2)` would change it for the other tests).
    static func currentUmask() throws -> mode_t {
        let text = String(decoding: try readWholeFile("/proc/self/status"), as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    /// `count` bytes of the seeded generator.
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The error `body` throws, or `nil`.
    static func error(_ body: () throws(SafeWriteError) -> Void) -> SafeWriteError? {
        do throws(SafeWriteError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// A fresh folder, removed (with everything in it) at the end of the test.
    final class Folder {
        let path: String
        init() throws { path = try makeTemporaryDirectory() }
        deinit {
            chmod(path, 0o700)
            try? FileManager.default.removeItem(atPath: path)
        }
        /// The path of `name` in the folder.
        func callAsFunction(_ name: String) -> String { path + "/" + name }
    }

    // MARK: replacing

    @Test func aNewFileIsCreatedWithItsBytesAndTheUmasksMode() throws {
        let folder = try Folder()
        let path = folder("photo.xmp")
        let content = Self.bytes("<x:xmpmeta/>\n")
        try SafeFile.replace(Self.bytes(path), with: content, expected: nil)
        #expect(try readWholeFile(path) == content)
        #expect(Self.mode(path) == 0o666 & ~(try Self.currentUmask()))
        #expect(Self.names(folder.path) == ["photo.xmp"])
        // An empty file too.
        try SafeFile.replace(Self.bytes(folder("empty.xmp")), with: [], expected: nil)
        #expect(try readWholeFile(folder("empty.xmp")) == [])
        #expect(Self.names(folder.path) == ["photo.xmp", "empty.xmp"])
    }

    @Test(arguments: [0o640, 0o600, 0o444, 0o755] as [mode_t])
    func anExistingFileIsReplacedKeepingItsMode(mode: mode_t) throws {
        let folder = try Folder()
        let path = folder("photo.xmp")
        Self.makeFile(path, Self.bytes("old sidecar, rather longer than the new one"), mode: mode)
        let old = try #require(try SafeFile.read(Self.bytes(path), limit: 1 << 20))
        #expect(old.bytes == Self.bytes("old sidecar, rather longer than the new one"))
        #expect(old.snapshot.permissions == Int(mode))
        #expect(old.snapshot.size == old.bytes.count)
        try SafeFile.replace(Self.bytes(path), with: Self.bytes("new"), expected: old.snapshot)
        #expect(try readWholeFile(path) == Self.bytes("new"))
        #expect(Self.mode(path) == mode)
        #expect(Self.status(path).st_uid == old.snapshot.owner)
        #expect(UInt64(Self.status(path).st_ino) != old.snapshot.inode)  // a new file, renamed over
        #expect(Self.names(folder.path) == ["photo.xmp"])
        // The old snapshot is stale now; a new read's is not.
        #expect(throws: SafeWriteError.changedSinceRead) {
            try SafeFile.replace(Self.bytes(path), with: [1], expected: old.snapshot)
        }
        #expect(try readWholeFile(path) == Self.bytes("new"))
        let again = try #require(try SafeFile.read(Self.bytes(path), limit: 1 << 20))
        try SafeFile.replace(Self.bytes(path), with: Self.bytes("newer"), expected: again.snapshot)
        #expect(try readWholeFile(path) == Self.bytes("newer"))
        #expect(Self.names(folder.path) == ["photo.xmp"])
    }

    @Test func aFiveMegabyteFileRoundTrips() throws {
        let folder = try Folder()
        let path = Self.bytes(folder("large.xmp"))
        let first = Self.randomBytes(5 << 20, seed: 1), second = Self.randomBytes(5 << 20 + 3, seed: 2)
        try SafeFile.replace(path, with: first, expected: nil)
        let read = try #require(try SafeFile.read(path, limit: 8 << 20))
        #expect(read.bytes == first)
        try SafeFile.replace(path, with: second, expected: read.snapshot)
        #expect(try SafeFile.read(path, limit: 8 << 20)?.bytes == second)
        #expect(throws: SafeWriteError.tooLarge(limit: 5 << 20)) { _ = try SafeFile.read(path, limit: 5 << 20) }
        #expect(Self.names(folder.path) == ["large.xmp"])
    }

    @Test func oddNamesWork() throws {
        let folder = try Folder()
        // Bytes that are not UTF-8, and the longest name a file may have (255 bytes), whose
        // temporary file's name is cut to fit.
        for name in [[0xFF, 0xFE, 0x20, 0x0A] + Self.bytes(".xmp"), [UInt8](repeating: UInt8(ascii: "n"), count: 255)] {
            let path = Self.bytes(folder.path + "/") + name
            try SafeFile.replace(path, with: name, expected: nil)
            let read = try #require(try SafeFile.read(path, limit: 1024))
            #expect(read.bytes == name)
            try SafeFile.replace(path, with: name + name, expected: read.snapshot)
            #expect(try SafeFile.read(path, limit: 1024)?.bytes == name + name)
            let temporary = SafeFile.temporaryName(for: name, number: .max)
            #expect(temporary.count <= 255 && temporary.first == UInt8(ascii: "."))
            #expect(temporary.starts(with: Self.bytes(".") + name.prefix(10)))
        }
        #expect(Self.names(folder.path).count == 2)
    }

    @Test func aRelativePathAndALinkedFolderAreFollowed() throws {
        let folder = try Folder()
        #expect(mkdir(folder("real"), 0o700) == 0)
        #expect(symlink("real", folder("linked")) == 0)
        // The folders before the last component may be links.
        try SafeFile.replace(Self.bytes(folder("linked/photo.xmp")), with: [1, 2, 3], expected: nil)
        #expect(try readWholeFile(folder("real/photo.xmp")) == [1, 2, 3])
        #expect(SafeFile.splitPath(Self.bytes("photo.xmp")) == (Self.bytes("."), Self.bytes("photo.xmp")))
        #expect(SafeFile.splitPath(Self.bytes("/photo.xmp")) == (Self.bytes("/"), Self.bytes("photo.xmp")))
        #expect(SafeFile.splitPath(Self.bytes("a/b/c.xmp")) == (Self.bytes("a/b"), Self.bytes("c.xmp")))
        #expect(SafeFile.splitPath(Self.bytes("a/")) == (Self.bytes("a"), []))
    }

    // MARK: what changed since the read

    @Test func aFileWhereNoneWasExpectedIsLeftAlone() throws {
        let folder = try Folder()
        let path = folder("photo.xmp")
        Self.makeFile(path, Self.bytes("someone else's"), mode: 0o600)
        #expect(throws: SafeWriteError.changedSinceRead) {
            try SafeFile.replace(Self.bytes(path), with: [1, 2], expected: nil)
        }
        #expect(try readWholeFile(path) == Self.bytes("someone else's"))
        #expect(Self.mode(path) == 0o600)
        #expect(Self.names(folder.path) == ["photo.xmp"])
    }

    /// Each change another program could make between the read and the write.
    enum Change: String, CaseIterable {
        case rewrittenLonger, rewrittenSameSizeNewTime, touched, replacedBySameSizeAndTime, removed, madeReadOnly
    }

    @Test(arguments: Change.allCases)
    func aFileChangedSinceTheReadIsLeftAsTheOtherProgramLeftIt(change: Change) throws {
        let folder = try Folder()
        let path = folder("photo.xmp")
        Self.makeFile(path, Self.bytes("as read"), mode: 0o644)
        let read = try #require(try SafeFile.read(Self.bytes(path), limit: 1024))
        var expected: [UInt8]? = Self.bytes("as read")
        let sameTime = [timespec(tv_sec: 1_500_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        switch change {
        case .rewrittenLonger:
            expected = Self.bytes("as rewritten by another program")
            Self.makeFile(path, expected!)
        case .rewrittenSameSizeNewTime:
            expected = Self.bytes("AS READ")
            Self.makeFile(path, expected!)
            let later = [timespec(tv_sec: 2_000_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, later, 0) == 0)
        case .touched:
            #expect(utimensat(AT_FDCWD, path, sameTime, 0) == 0)
        case .replacedBySameSizeAndTime:
            // Another file of the same size and times renamed over it: only the inode differs.
            #expect(utimensat(AT_FDCWD, path, sameTime, 0) == 0)
            let replaced = try #require(try SafeFile.read(Self.bytes(path), limit: 1024))
            expected = Self.bytes("AS READ")
            Self.makeFile(folder("other"), expected!)
            #expect(utimensat(AT_FDCWD, folder("other"), sameTime, 0) == 0)
            #expect(rename(folder("other"), path) == 0)
            #expect(throws: SafeWriteError.changedSinceRead) {
                try SafeFile.replace(Self.bytes(path), with: [1], expected: replaced.snapshot)
            }
        case .removed:
            expected = nil
            #expect(unlink(path) == 0)
        case .madeReadOnly:
            #expect(chmod(path, 0o444) == 0)
        }
        #expect(throws: SafeWriteError.changedSinceRead) {
            try SafeFile.replace(Self.bytes(path), with: Self.bytes("new"), expected: read.snapshot)
        }
        if let expected {
            #expect(try readWholeFile(path) == expected)
            #expect(Self.names(folder.path) == ["photo.xmp"])
        } else {
            #expect(Self.names(folder.path) == [])
        }
    }

    /// A change made while the new bytes are written (another thread rewrites the file as soon as
    /// the temporary file appears) is seen by the check just before the rename.
    @Test func aFileChangedWhileTheNewOneIsWrittenIsLeftAlone() throws {
        let folder = try Folder()
        let path = folder("photo.xmp"), folderPath = folder.path
        Self.makeFile(path, Self.bytes("as read"))
        let read = try #require(try SafeFile.read(Self.bytes(path), limit: 1024))
        // Long enough to write (milliseconds) that the other thread sees the temporary file.
        let large = [UInt8](repeating: 1, count: 16 << 20)
        let outcome = Locked<SafeWriteError??>(nil)
        let changed = Locked(false)
        onThreads(2) { thread in
            if thread == 0 {
                let error = Self.error { () throws(SafeWriteError) in
                    try SafeFile.replace(Self.bytes(path), with: large, expected: read.snapshot)
                }
                outcome.withLock { $0 = .some(error) }
            } else {
                while outcome.withLock({ $0 == nil }) {
                    guard Self.names(folderPath).contains(where: { $0.hasSuffix(".tmp") }) else { continue }
                    Self.makeFile(path, Self.bytes("written meanwhile"))
                    changed.withLock { $0 = true }
                    break
                }
            }
        }
        try #require(changed.withLock { $0 }, "the replacement was over before the other thread saw it")
        #expect(outcome.withLock { $0 } == .some(.changedSinceRead))
        #expect(try readWholeFile(path) == Self.bytes("written meanwhile"))
        #expect(Self.names(folder.path) == ["photo.xmp"])
    }

    /// As root, the replacement keeps the old file's owner and group.
    @Test(.enabled(if: geteuid() == 0, "only root may give a file to another user"))
    func theOwnerIsKeptAsRoot() throws {
        let folder = try Folder()
        let path = folder("photo.xmp")
        Self.makeFile(path, Self.bytes("old"), mode: 0o640)
        #expect(chown(path, 65534, 65534) == 0)
        let read = try #require(try SafeFile.read(Self.bytes(path), limit: 1024))
        try SafeFile.replace(Self.bytes(path), with: Self.bytes("new"), expected: read.snapshot)
        let info = Self.status(path)
        #expect(info.st_uid == 65534 && info.st_gid == 65534)
        #expect(info.st_mode & 0o7777 == 0o640)
        #expect(try readWholeFile(path) == Self.bytes("new"))
    }

    /// Threads that each create the same new file at once: `RENAME_NOREPLACE` lets exactly one
    /// through, whole, and every other fails without touching it.
    @Test func ofManyWritersOfANewFileExactlyOneWins() throws {
        let folder = try Folder()
        for round in 0..<20 {
            let path = folder("race-\(round).xmp")
            let outcomes = Locked([Int: SafeWriteError?]())
            onThreads(8) { thread in
                let content = [UInt8](repeating: UInt8(thread), count: 10_000 + thread)
                let error = Self.error { () throws(SafeWriteError) in
                    try SafeFile.replace(Self.bytes(path), with: content, expected: nil)
                }
                outcomes.withLock { $0[thread] = error }
            }
            let all = outcomes.withLock { $0 }
            let winners = all.filter { $0.value == nil }.map(\.key)
            #expect(winners.count == 1)
            #expect(all.values.allSatisfy { $0 == nil || $0 == .changedSinceRead })
            if let winner = winners.first {
                #expect(try readWholeFile(path) == [UInt8](repeating: UInt8(winner), count: 10_000 + winner))
            }
        }
        #expect(Self.names(folder.path) == Set((0..<20).map { "race-\($0).xmp" }))
    }

    /// The move that never replaces, and its fallback for file systems without `RENAME_NOREPLACE`.
    @Test func theMoveThatPutsANewFileInPlaceNeverReplacesOne() throws {
        let folder = try Folder()
        Self.makeFile(folder("a"), [1])
        Self.makeFile(folder("b"), [2])
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        #expect(SafeFile.moveWithoutReplacing(Self.bytes("a"), to: Self.bytes("b"), in: descriptor) == EEXIST)
        #expect(try readWholeFile(folder("a")) == [1] && readWholeFile(folder("b")) == [2])
        #expect(SafeFile.linkThenRemove("a", to: "b", in: descriptor) == EEXIST)
        #expect(try readWholeFile(folder("a")) == [1] && readWholeFile(folder("b")) == [2])
        #expect(SafeFile.moveWithoutReplacing(Self.bytes("a"), to: Self.bytes("c"), in: descriptor) == 0)
        #expect(SafeFile.linkThenRemove("b", to: "d", in: descriptor) == 0)
        #expect(Self.names(folder.path) == ["c", "d"])
        #expect(try readWholeFile(folder("c")) == [1] && readWholeFile(folder("d")) == [2])
    }

    // MARK: what is never read or written

    @Test func aSymbolicLinkIsNeitherReadNorWrittenThrough() throws {
        let folder = try Folder()
        Self.makeFile(folder("target.xmp"), Self.bytes("target"), mode: 0o644)
        #expect(symlink("target.xmp", folder("link.xmp")) == 0)
        #expect(symlink("missing.xmp", folder("dangling.xmp")) == 0)
        let target = try #require(try SafeFile.read(Self.bytes(folder("target.xmp")), limit: 1024))
        for name in ["link.xmp", "dangling.xmp"] {
            let path = Self.bytes(folder(name))
            #expect(throws: SafeWriteError.symbolicLink) { _ = try SafeFile.read(path, limit: 1024) }
            #expect(throws: SafeWriteError.symbolicLink) { _ = try SafeFile.snapshot(path) }
            #expect(throws: SafeWriteError.symbolicLink) { try SafeFile.replace(path, with: [1], expected: nil) }
            #expect(throws: SafeWriteError.symbolicLink) {
                try SafeFile.replace(path, with: [1], expected: target.snapshot)
            }
        }
        #expect(try readWholeFile(folder("target.xmp")) == Self.bytes("target"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder("link.xmp")) == "target.xmp")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder("dangling.xmp")) == "missing.xmp")
        #expect(Self.names(folder.path) == ["target.xmp", "link.xmp", "dangling.xmp"])
        #expect(SafeWriteError.symbolicLink.description.contains("does not read or write through links"))
    }

    @Test func foldersAndFIFOsAreNotRegularFiles() throws {
        let folder = try Folder()
        #expect(mkdir(folder("sub"), 0o700) == 0)
        #expect(mkfifo(folder("fifo"), 0o600) == 0)
        for name in ["sub", "fifo"] {
            let path = Self.bytes(folder(name))
            // The FIFO is never opened: a read would block.
            #expect(throws: SafeWriteError.notARegularFile) { _ = try SafeFile.read(path, limit: 1024) }
            #expect(throws: SafeWriteError.notARegularFile) { try SafeFile.replace(path, with: [1], expected: nil) }
        }
        #expect(throws: SafeWriteError.notARegularFile) {
            try SafeFile.replace(Self.bytes(folder("sub/")), with: [1], expected: nil)
        }
        #expect(try SafeFile.read(Self.bytes(folder("missing")), limit: 1024) == nil)
        #expect(try SafeFile.snapshot(Self.bytes(folder("missing"))) == nil)
        #expect(Self.names(folder.path) == ["sub", "fifo"])
        #expect(try listDirectory(folder("sub")) == [])
    }

    // MARK: failures of the system

    @Test func errorsNameTheOperationAndTheCause() {
        #expect(
            SafeWriteError.system(operation: "write the temporary file", errno: ENOSPC).description
                == "cannot write the temporary file: no space left on device")
        #expect(SafeWriteError.tooLarge(limit: 1 << 20).description == "larger than 1 MiB")
        #expect(SafeWriteError.tooLarge(limit: 1000).description == "larger than 1000 bytes")
        #expect(
            SafeWriteError.changedSinceRead.description == "changed since phototag read it, so it was left as it is")
    }

    @Test(.enabled(if: geteuid() != 0, "root writes in every folder; the read-only tmpfs test covers this as root"))
    func aReadOnlyFolderIsAnErrorAndTheFileStays() throws {
        let folder = try Folder()
        let path = folder("photo.xmp")
        Self.makeFile(path, Self.bytes("old"), mode: 0o644)
        let read = try #require(try SafeFile.read(Self.bytes(path), limit: 1024))
        #expect(chmod(folder.path, 0o555) == 0)
        defer { chmod(folder.path, 0o700) }
        let creating = SafeWriteError.system(operation: "create a temporary file in the folder", errno: EACCES)
        #expect(throws: creating) { try SafeFile.replace(Self.bytes(path), with: [1], expected: read.snapshot) }
        #expect(throws: creating) { try SafeFile.replace(Self.bytes(folder("new.xmp")), with: [1], expected: nil) }
        #expect(try readWholeFile(path) == Self.bytes("old"))
        #expect(Self.names(folder.path) == ["photo.xmp"])
    }

    static let tmpfsMountable = Tmpfs.mountable

    @Test(.enabled(if: tmpfsMountable, "mounting a tmpfs needs root (and a system that allows it)"))
    func aReadOnlyFileSystemIsAnErrorAndTheFileStays() throws {
        let tmpfs = try Tmpfs(size: 64 << 10)
        let path = tmpfs.path + "/photo.xmp"
        Self.makeFile(path, Self.bytes("old"), mode: 0o640)
        let read = try #require(try SafeFile.read(Self.bytes(path), limit: 1024))
        try #require(tmpfs.remountReadOnly(), "mount -o remount,ro failed: \(errnoText())")
        // Still readable; never written.
        #expect(try SafeFile.read(Self.bytes(path), limit: 1024)?.snapshot == read.snapshot)
        let creating = SafeWriteError.system(operation: "create a temporary file in the folder", errno: EROFS)
        #expect(throws: creating) { try SafeFile.replace(Self.bytes(path), with: [1], expected: read.snapshot) }
        #expect(throws: creating) {
            try SafeFile.replace(Self.bytes(tmpfs.path + "/new.xmp"), with: [1], expected: nil)
        }
        #expect(creating.description == "cannot create a temporary file in the folder: read-only file system")
        #expect(try readWholeFile(path) == Self.bytes("old"))
        #expect(Self.mode(path) == 0o640)
        #expect(Self.names(tmpfs.path) == ["photo.xmp"])
    }

    @Test(.enabled(if: tmpfsMountable, "mounting a tmpfs needs root (and a system that allows it)"))
    func aFullDiskIsAnErrorAndTheFileStaysByteForByte() throws {
        let tmpfs = try Tmpfs(size: 64 << 10)
        let path = tmpfs.path + "/photo.xmp"
        let old = Self.randomBytes(1000, seed: 3)
        Self.makeFile(path, old, mode: 0o600)
        // Fill the file system to its last byte.
        let filler = open(tmpfs.path + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(filler >= 0)
        let chunk = [UInt8](repeating: 7, count: 4096)
        var status: Int32 = 0
        for _ in 0..<1000 where status == 0 { status = chunk.withUnsafeBytes { writeAll(filler, $0) } }
        close(filler)
        try #require(status == ENOSPC, "the 64 KiB tmpfs did not fill up: \(errnoText(status))")
        let read = try #require(try SafeFile.read(Self.bytes(path), limit: 1 << 20))
        let error = Self.error { () throws(SafeWriteError) in
            try SafeFile.replace(Self.bytes(path), with: Self.randomBytes(200_000, seed: 4), expected: read.snapshot)
        }
        #expect(error == .system(operation: "write the temporary file", errno: ENOSPC))
        #expect(error?.description == "cannot write the temporary file: no space left on device")
        #expect(try readWholeFile(path) == old)
        #expect(Self.mode(path) == 0o600)
        #expect(Self.names(tmpfs.path) == ["photo.xmp", "filler"])
        // The space the temporary file took is back: with the filler gone, the write succeeds.
        #expect(unlink(tmpfs.path + "/filler") == 0)
        let fits = Self.randomBytes(40_000, seed: 5)
        try SafeFile.replace(Self.bytes(path), with: fits, expected: read.snapshot)
        #expect(try readWholeFile(path) == fits)
        #expect(Self.names(tmpfs.path) == ["photo.xmp"])
    }
}
