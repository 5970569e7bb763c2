// Replacing a file without ever losing a byte, for the sidecars `phototag tag` writes next to
// photos. The new bytes go to a temporary file in the same folder, which is flushed to disk, and
// only then renamed over the old file, once phototag has checked that the old file is still the
// one it read. A failure at any step removes the temporary file and leaves the old file exactly
// as it was; a crash at any step leaves either the old file or the complete new one (and perhaps
// a stray hidden temporary file, never a half-written sidecar). The one race left is the moment
// between the last check and the rename, which POSIX has no way to close for a file that exists;
// a new file is put in place with `renameat2(2)`'s `RENAME_NOREPLACE`, so one that another
// program creates meanwhile is never overwritten.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a read saw of a file: enough to tell that it changed since (another program wrote it,
/// renamed another file over it, or changed its permissions or owner), and what its replacement
/// keeps of it (the permissions and, when the system allows, the owner).
package struct FileSnapshot: Equatable, Sendable {
    /// The device the file is on.
    package var device: UInt64
    /// The file's inode on that device: another file renamed over it has another.
    package var inode: UInt64
    /// The size in bytes.
    package var size: Int
    /// The last modification, in whole seconds since 1970-01-01T00:00:00Z…
    package var modifiedSeconds: Int
    /// … and the nanoseconds past that second.
    package var modifiedNanoseconds: Int
    /// The permission bits (`st_mode & 0o777`; the set-ID and sticky bits are not kept).
    package var permissions: Int
    /// The owner's user ID.
    package var owner: UInt32
    /// The group's ID.
    package var group: UInt32

    /// The snapshot of what `stat(2)` says.
    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int(info.st_size)
        #if canImport(Glibc)
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #else
            modifiedSeconds = Int(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
        permissions = Int(info.st_mode & 0o777)
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
    }
}

/// Why ``SafeFile`` did not read or replace a file. Every case prints as one lowercase line
/// without a final period, to follow the path in a message (`photo.xmp: a symbolic link…`).
package enum SafeWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path is a symbolic link: phototag neither reads nor writes through one, so that a link
    /// put where a sidecar is expected cannot lead a write to another file.
    case symbolicLink
    /// The path names a folder, FIFO, device or socket.
    case notARegularFile
    /// The file holds more than the `limit` bytes that a read takes.
    case tooLarge(limit: Int)
    /// The file is not as it was read (its size, modification time, inode, permissions or owner
    /// differ from the snapshot, or it is gone), or a file is where there was none: another
    /// program wrote it meanwhile, and it is left as it is.
    case changedSinceRead
    /// A system call failed: `operation` says what phototag was doing (`write the temporary
    /// file`), `errno` why (`ENOSPC`, `EACCES`, `EROFS`…).
    case system(operation: String, errno: Int32)

    /// The error as one lowercase line without a final period.
    package var description: String {
        switch self {
        case .symbolicLink: "a symbolic link: phototag does not read or write through links"
        case .notARegularFile: "not a regular file"
        case .tooLarge(let limit):
            "larger than " + (limit > 0 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")
        case .changedSinceRead: "changed since phototag read it, so it was left as it is"
        case .system(let operation, let code): "cannot \(operation): \(errnoText(code))"
        }
    }
}

/// Reads a whole file, and replaces it atomically if it is still as it was read.
///
/// ```swift
/// let old = try SafeFile.read(path, limit: 1 << 20)
/// try SafeFile.replace(path, with: newBytes, expected: old?.snapshot)
/// ```
///
/// Neither follows a symbolic link as the path's last component (the folders before it may be
/// links). The replacement is a new file: it gets the old file's permissions and, when the system
/// allows (as root), its owner and group, but not its extended attributes or ACLs, and other hard
/// links to the old file keep the old bytes.
package enum SafeFile {
    /// Reads the whole regular file at `path`, at most `limit` bytes, with the snapshot to pass to
    /// ``replace(_:with:expected:)``; `nil` when there is no file there.
    ///
    /// Throws ``SafeWriteError/symbolicLink`` for a symbolic link (`O_NOFOLLOW`),
    /// ``SafeWriteError/notARegularFile`` for a folder, FIFO, device or socket (never opened),
    /// ``SafeWriteError/tooLarge(limit:)`` past `limit`, ``SafeWriteError/changedSinceRead`` when
    /// the file changed while it was read, and ``SafeWriteError/system(operation:errno:)``.
    package static func read(
        _ path: [UInt8], limit: Int
    ) throws(SafeWriteError) -> (bytes: [UInt8], snapshot: FileSnapshot)? {
        guard let found = try snapshot(path) else { return nil }
        let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        var descriptor: Int32 = -1
        while descriptor < 0 {
            descriptor = withCPath(path) { open($0, flags) }
            if descriptor < 0 {
                let code = errno
                switch code {
                case EINTR: continue
                case ENOENT: return nil  // removed since the lstat
                case ELOOP: throw .symbolicLink  // put there since the lstat
                default: throw .system(operation: "open the file", errno: code)
                }
            }
        }
        defer { closeFile(descriptor) }
        let opened = try status(descriptor: descriptor)
        guard opened.device == found.device, opened.inode == found.inode else { throw .changedSinceRead }
        let read: (bytes: [UInt8], truncated: Bool)
        do throws(SystemError) {
            read = try readToEnd(descriptor, limit: limit)
        } catch {
            throw .system(operation: "read the file", errno: error.code)
        }
        guard !read.truncated else { throw .tooLarge(limit: limit) }
        let after = try status(descriptor: descriptor)
        guard after == opened, after.size == read.bytes.count else { throw .changedSinceRead }
        return (read.bytes, after)
    }

    /// The snapshot of the regular file at `path` (`lstat(2)`), without reading it: what
    /// ``replace(_:with:expected:)`` expects of a file whose bytes do not matter; `nil` when there
    /// is no file there.
    ///
    /// Throws ``SafeWriteError/symbolicLink``, ``SafeWriteError/notARegularFile`` or
    /// ``SafeWriteError/system(operation:errno:)``.
    package static func snapshot(_ path: [UInt8]) throws(SafeWriteError) -> FileSnapshot? {
        try withCPath(path) { (cPath) throws(SafeWriteError) in try status(of: cPath, in: AT_FDCWD) }
    }

    /// Writes `bytes` to `path` atomically: afterwards the file holds exactly `bytes`, or, when
    /// this throws, the file is exactly as it was (or absent, as it was).
    ///
    /// `expected` is the snapshot of the file as it was read (``read(_:limit:)``,
    /// ``snapshot(_:)``), or `nil` when no file was there. The bytes are written to a hidden
    /// temporary file in the same folder (`.NAME.phototag-PID-N.tmp`), with the old file's
    /// permissions (a new file gets 0o666 less the umask), flushed to disk (`fsync(2)`), and
    /// renamed over the file once it is checked to be still as expected; then the folder is
    /// flushed too. Every failure before the rename removes the temporary file.
    ///
    /// Throws ``SafeWriteError/changedSinceRead`` when the file is not as expected (it changed,
    /// it is gone, or one appeared where none was expected), ``SafeWriteError/symbolicLink`` and
    /// ``SafeWriteError/notARegularFile`` for what is never replaced, and
    /// ``SafeWriteError/system(operation:errno:)`` for a failed call (a full disk is `ENOSPC` in
    /// `write the temporary file`, a read-only folder `EACCES` or `EROFS` in `create a temporary
    /// file in the folder`). The one error thrown after the file was replaced is a failure to
    /// flush the folder (`flush the folder to disk after replacing the file`): the new file is in
    /// place but may not survive a crash.
    package static func replace(
        _ path: [UInt8], with bytes: [UInt8], expected: FileSnapshot?
    ) throws(SafeWriteError) {
        let (folderPath, name) = splitPath(path)
        guard !name.isEmpty, name != Array(".".utf8), name != Array("..".utf8) else { throw .notARegularFile }
        let folder: FolderDescriptor
        do throws(SystemError) {
            folder = try FolderDescriptor(path: folderPath, followingLinks: true)
        } catch {
            throw .system(operation: "open the folder", errno: error.code)
        }
        // Before writing anything: a file already changed is not worth a temporary copy.
        try check(name, in: folder.descriptor, against: expected)
        let temporary = try createTemporaryFile(
            beside: name, in: folder.descriptor, permissions: expected == nil ? 0o666 : 0o600)
        do throws(SafeWriteError) {
            do throws(SafeWriteError) {
                try fill(temporary.descriptor, with: bytes, keeping: expected)
            } catch {
                closeFile(temporary.descriptor)
                throw error
            }
            let closed = closeFile(temporary.descriptor)
            guard closed == 0 else { throw .system(operation: "close the temporary file", errno: closed) }
            // Just before the rename: still the file that was read, or still no file.
            try check(name, in: folder.descriptor, against: expected)
            if expected != nil {
                let code = withCPath(temporary.name) { (from) in
                    withCPath(name) { renameat(folder.descriptor, from, folder.descriptor, $0) == 0 ? 0 : errno }
                }
                guard code == 0 else {
                    throw .system(operation: "rename the temporary file over the file", errno: code)
                }
            } else {
                let code = moveWithoutReplacing(temporary.name, to: name, in: folder.descriptor)
                guard code != EEXIST else { throw .changedSinceRead }
                guard code == 0 else { throw .system(operation: "rename the temporary file to the file", errno: code) }
            }
        } catch {
            _ = withCPath(temporary.name) { unlinkat(folder.descriptor, $0, 0) }
            throw error
        }
        try flushFolder(folder.descriptor)
    }

    // MARK: the steps

    /// The folder and the last component of `path`: `.` for a path without a slash, `/` for
    /// `/name`. The name is empty when the path ends with a slash.
    static func splitPath(_ path: [UInt8]) -> (folder: [UInt8], name: [UInt8]) {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return (Array(".".utf8), path) }
        let folder = slash == 0 ? Array("/".utf8) : Array(path[..<slash])
        return (folder, Array(path[(slash + 1)...]))
    }

    /// The snapshot of the regular file `name` in `folder` (`fstatat(2)` without following a
    /// link), `nil` when there is none; throws for a symbolic link or another kind of file.
    private static func status(
        of name: UnsafePointer<CChar>, in folder: Int32
    ) throws(SafeWriteError) -> FileSnapshot? {
        var info = stat()
        while fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT { return nil }
            throw .system(operation: "look at the file", errno: code)
        }
        return try regular(info)
    }

    /// The snapshot of the file open at `descriptor` (`fstat(2)`).
    private static func status(descriptor: Int32) throws(SafeWriteError) -> FileSnapshot {
        var info = stat()
        while fstat(descriptor, &info) != 0 {
            guard errno == EINTR else { throw .system(operation: "look at the file", errno: errno) }
        }
        return try regular(info)
    }

    /// The snapshot of what `stat(2)` says, when it is of a regular file.
    private static func regular(_ info: stat) throws(SafeWriteError) -> FileSnapshot {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return FileSnapshot(info)
        case S_IFLNK: throw .symbolicLink
        default: throw .notARegularFile
        }
    }

    /// Throws unless `name` in `folder` is as `expected`: the same regular file, unchanged, or
    /// still absent when `expected` is `nil`.
    private static func check(_ name: [UInt8], in folder: Int32, against expected: FileSnapshot?) throws(SafeWriteError)
    {
        let current = try withCPath(name) { (cName) throws(SafeWriteError) in try status(of: cName, in: folder) }
        guard current == expected else { throw .changedSinceRead }
    }

    /// The number of the next temporary file, shared by every thread of the process.
    private static let temporaryCounter = Locked<UInt64>(0)

    /// The hidden name of a temporary file for `name`: `.NAME.phototag-PID-N.tmp`, the name cut
    /// so that the whole fits in the 255 bytes a file name may have.
    static func temporaryName(for name: [UInt8], number: UInt64) -> [UInt8] {
        let suffix = Array(".phototag-\(getpid())-\(number).tmp".utf8)
        return Array(".".utf8) + name.prefix(255 - 1 - suffix.count) + suffix
    }

    /// Creates a new temporary file beside `name` in `folder` (`O_CREAT | O_EXCL | O_NOFOLLOW`,
    /// `permissions` less the umask), under the first free name of ``temporaryName(for:number:)``:
    /// its name and descriptor, which the caller closes.
    private static func createTemporaryFile(
        beside name: [UInt8], in folder: Int32, permissions: Int
    ) throws(SafeWriteError) -> (name: [UInt8], descriptor: Int32) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var code = EEXIST
        // A name is taken only by a file a crashed run of the same process ID left behind.
        for _ in 0..<100 {
            let number = temporaryCounter.withLock { (counter) -> UInt64 in
                counter += 1
                return counter
            }
            let temporary = temporaryName(for: name, number: number)
            let descriptor = withCPath(temporary) { openat(folder, $0, flags, mode_t(permissions)) }
            if descriptor >= 0 { return (temporary, descriptor) }
            code = errno
            guard code == EEXIST || code == EINTR else { break }
        }
        throw .system(operation: "create a temporary file in the folder", errno: code)
    }

    /// Gives the temporary file open at `descriptor` the owner (when the system allows) and the
    /// permissions of `old`, writes `bytes` to it, and flushes it to disk.
    private static func fill(
        _ descriptor: Int32, with bytes: [UInt8], keeping old: FileSnapshot?
    ) throws(SafeWriteError) {
        if let old {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                throw .system(operation: "look at the temporary file", errno: errno)
            }
            // Only root may give a file away; a user may still give it a group of theirs. Failing
            // both is not an error: the file is the user's, as any file they write.
            if UInt32(info.st_uid) != old.owner || UInt32(info.st_gid) != old.group,
                fchown(descriptor, uid_t(old.owner), gid_t(old.group)) != 0
            {
                _ = fchown(descriptor, uid_t.max, gid_t(old.group))
            }
            // Set after the owner, whose change may clear bits; only when they differ, as a file
            // system without permissions (FAT) refuses any other.
            if Int(info.st_mode & 0o777) != old.permissions, fchmod(descriptor, mode_t(old.permissions)) != 0 {
                throw .system(operation: "set the temporary file's permissions", errno: errno)
            }
        }
        let written = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        guard written == 0 else { throw .system(operation: "write the temporary file", errno: written) }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw .system(operation: "flush the temporary file to disk", errno: errno) }
        }
    }

    /// Renames `source` to `target`, both in `folder`, unless `target` exists: 0, or the `errno`
    /// of the failure (`EEXIST` when `target` exists, and then nothing moved).
    ///
    /// `renameat2(2)` with `RENAME_NOREPLACE` (`renameatx_np` with `RENAME_EXCL` on macOS); where
    /// the file system has no such rename (NFS says `EINVAL`), a hard link `target` to `source`,
    /// which does not replace a file either, then the removal of `source`.
    static func moveWithoutReplacing(_ source: [UInt8], to target: [UInt8], in folder: Int32) -> Int32 {
        withCPath(source) { (from) in
            withCPath(target) { (to) in
                #if canImport(Glibc)
                    let moved = renameat2(folder, from, folder, to, renameNoReplace)
                #else
                    let moved = renameatx_np(folder, from, folder, to, UInt32(RENAME_EXCL))
                #endif
                if moved == 0 { return 0 }
                let code = errno
                guard [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(code) else { return code }
                return linkThenRemove(from, to: to, in: folder)
            }
        }
    }

    /// Links `target` to `source` in `folder` (`linkat(2)`, which fails with `EEXIST` rather than
    /// replace a file), then removes `source`: 0, or the `errno` of the failed link. A failure to
    /// remove `source` leaves a second name of the file in place, which is not an error.
    static func linkThenRemove(
        _ source: UnsafePointer<CChar>, to target: UnsafePointer<CChar>, in folder: Int32
    ) -> Int32 {
        guard linkat(folder, source, folder, target, 0) == 0 else { return errno }
        _ = unlinkat(folder, source, 0)
        return 0
    }

    /// Flushes `folder` to disk (`fsync(2)`), so that the rename survives a crash; nothing for a
    /// file system that cannot flush a folder (`EINVAL`).
    private static func flushFolder(_ folder: Int32) throws(SafeWriteError) {
        while fsync(folder) != 0 {
            let code = errno
            if code == EINTR { continue }
            if [EINVAL, ENOTSUP, EOPNOTSUPP].contains(code) { return }
            throw .system(operation: "flush the folder to disk after replacing the file", errno: code)
        }
    }
}

#if canImport(Glibc)
    /// glibc's `renameat2(2)` (glibc 2.28 and later), which its headers declare only with
    /// `_GNU_SOURCE`, so not to Swift; `@_extern(c)` (the `Extern` feature, enabled for this
    /// target in Package.swift) declares it with C's calling convention.
    @_extern(c, "renameat2")
    private func renameat2(
        _ oldFolder: Int32, _ oldName: UnsafePointer<CChar>, _ newFolder: Int32, _ newName: UnsafePointer<CChar>,
        _ flags: UInt32
    ) -> Int32

    /// `RENAME_NOREPLACE` (linux/fs.h), which the Glibc module does not have either.
    private let renameNoReplace: UInt32 = 1 << 0
#endif
