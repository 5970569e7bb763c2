// Files and folders through the C library: opening, `stat(2)`, closing, renaming and removing,
// listing a folder, the working directory, and the terminal test. Each call is wrapped once here
// (see Syscalls.swift for the conventions): paths are C strings (a `String` converts on the
// call) or bytes (names need not be UTF-8), failures come back as ``SystemError`` or as an
// `errno`, and what the C library describes in a struct comes back as a Swift value.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat(2)` says about a file, as Swift values.
package struct FileStatus: Sendable, Equatable {
    /// The type of file (the `S_IFMT` bits of the mode).
    package enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown
    }

    /// The type of file.
    package var kind: Kind
    /// The size in bytes (of a regular file; what the system says for others).
    package var size: Int
    /// The device the file is on.
    package var device: UInt64
    /// The file's inode on that device: with ``device``, which file it is.
    package var inode: UInt64
    /// The last modification, in whole seconds since 1970-01-01T00:00:00Z.
    package var modified: Int

    /// Whether the file is a folder.
    package var isDirectory: Bool { kind == .directory }
    /// Whether the file is a regular file.
    package var isRegular: Bool { kind == .regular }

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .unknown
        }
        size = Int(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        #if canImport(Glibc)
            modified = Int(info.st_mtim.tv_sec)
        #else
            modified = Int(info.st_mtimespec.tv_sec)
        #endif
    }
}

/// `stat(2)` of `path`, or `lstat(2)` (the symbolic link itself) when not `followingLinks`;
/// retried on EINTR.
package func fileStatus(_ path: UnsafePointer<CChar>, followingLinks: Bool = true) throws(SystemError) -> FileStatus {
    var info = stat()
    while (followingLinks ? stat(path, &info) : lstat(path, &info)) != 0 {
        guard errno == EINTR else { throw SystemError(code: errno) }
    }
    return FileStatus(info)
}

/// ``fileStatus(_:followingLinks:)`` of a path given as bytes.
package func fileStatus(_ path: some Collection<UInt8>, followingLinks: Bool = true) throws(SystemError) -> FileStatus {
    try withCPath(path) { (cPath) throws(SystemError) in try fileStatus(cPath, followingLinks: followingLinks) }
}

/// `fstat(2)` of an open descriptor, retried on EINTR.
package func fileStatus(descriptor: Int32) throws(SystemError) -> FileStatus {
    var info = stat()
    while fstat(descriptor, &info) != 0 {
        guard errno == EINTR else { throw SystemError(code: errno) }
    }
    return FileStatus(info)
}

/// `open(2)` for reading (`O_RDONLY | O_CLOEXEC`, and `O_NONBLOCK` when `nonBlocking`: a FIFO
/// found where a photo was expected does not block the open), retried on EINTR: the descriptor,
/// which the caller closes.
package func openForReading(_ path: UnsafePointer<CChar>, nonBlocking: Bool = false) throws(SystemError) -> Int32 {
    let flags = O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    while true {
        let descriptor = open(path, flags)
        if descriptor >= 0 { return descriptor }
        guard errno == EINTR else { throw SystemError(code: errno) }
    }
}

/// ``openForReading(_:nonBlocking:)`` of a path given as bytes.
package func openForReading(_ path: some Collection<UInt8>, nonBlocking: Bool = false) throws(SystemError) -> Int32 {
    try withCPath(path) { (cPath) throws(SystemError) in try openForReading(cPath, nonBlocking: nonBlocking) }
}

/// `open(2)` for writing, the file created with `permissions` (less the umask) or emptied
/// (`O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC`), retried on EINTR: the descriptor, which the
/// caller closes.
package func openForWriting(_ path: UnsafePointer<CChar>, permissions: Int) throws(SystemError) -> Int32 {
    while true {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions))
        if descriptor >= 0 { return descriptor }
        guard errno == EINTR else { throw SystemError(code: errno) }
    }
}

/// `close(2)`: 0, or the `errno` of a failed close (a written file's last error may come only
/// now). Never retried: the descriptor is released even when the call fails, and another thread
/// may already have the number again.
@discardableResult
package func closeFile(_ descriptor: Int32) -> Int32 {
    close(descriptor) == 0 ? 0 : errno
}

/// `rename(2)`: 0, or the `errno` of the failure.
package func renameFile(_ path: UnsafePointer<CChar>, to newPath: UnsafePointer<CChar>) -> Int32 {
    rename(path, newPath) == 0 ? 0 : errno
}

/// `unlink(2)`: 0, or the `errno` of the failure.
@discardableResult
package func removeFile(_ path: UnsafePointer<CChar>) -> Int32 {
    unlink(path) == 0 ? 0 : errno
}

/// Asks the storage to bring in the first `byteCount` bytes of the file open at `descriptor`
/// (`posix_fadvise(2)`, `POSIX_FADV_WILLNEED`) without waiting for them; nothing where the
/// system has no such advice (macOS).
package func adviseWillNeed(_ descriptor: Int32, byteCount: Int) {
    #if canImport(Glibc)
        _ = posix_fadvise(descriptor, 0, off_t(byteCount), POSIX_FADV_WILLNEED)
    #endif
}

/// Whether `name` matches the shell pattern `pattern` (`fnmatch(3)`); with `pathName`, a `/` in
/// `name` is matched only by a `/` in the pattern (`FNM_PATHNAME`); with `foldingCase`, letters
/// match in either case (`FNM_CASEFOLD`; ASCII letters, as phototag never sets a locale).
package func fileNameMatches(
    pattern: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, pathName: Bool, foldingCase: Bool = false
) -> Bool {
    fnmatch(pattern, name, (pathName ? FNM_PATHNAME : 0) | (foldingCase ? caseFoldFlag : 0)) == 0
}

/// `FNM_CASEFOLD`, which glibc declares only with `_GNU_SOURCE` (so not to Swift): 1 << 4 in
/// glibc, musl and the BSDs (macOS) alike.
private let caseFoldFlag: Int32 = 1 << 4

/// Whether `descriptor` is a terminal (`isatty(3)`).
package func refersToTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

/// The working directory's path (`getcwd(3)`), as bytes; `nil` when it cannot be read.
package func currentDirectory() -> [UInt8]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
}

#if canImport(Glibc)
    private typealias DirectoryHandle = OpaquePointer
#else
    private typealias DirectoryHandle = UnsafeMutablePointer<DIR>
#endif

/// A folder held open by its descriptor (`open(2)` with `O_DIRECTORY`), closed when the last
/// reference goes. What is opened relative to it (``init(name:in:followingLinks:)``,
/// ``status(ofEntry:followingLinks:)``) is looked up in this very folder, whatever happens to
/// the path it was opened by: a walk that holds its folders cannot be led elsewhere by a folder
/// swapped for a symbolic link after it was listed.
package final class FolderDescriptor {
    /// The descriptor.
    package let descriptor: Int32

    /// Opens the folder at `path`; when not `followingLinks`, a symbolic link as the last
    /// component fails with ``SystemError/symbolicLinkLoop`` (`O_NOFOLLOW`).
    package init(path: some Collection<UInt8>, followingLinks: Bool) throws(SystemError) {
        descriptor = try withCPath(path) { (cPath) throws(SystemError) in
            try Self.open(AT_FDCWD, cPath, followingLinks: followingLinks)
        }
    }

    /// Opens the entry `name` of the folder `parent` (`openat(2)`), as a folder.
    package init(name: some Collection<UInt8>, in parent: FolderDescriptor, followingLinks: Bool) throws(SystemError) {
        descriptor = try withCPath(name) { (cName) throws(SystemError) in
            try Self.open(parent.descriptor, cName, followingLinks: followingLinks)
        }
    }

    private static func open(
        _ folder: Int32, _ path: UnsafePointer<CChar>, followingLinks: Bool
    ) throws(SystemError) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        while true {
            let descriptor = openat(folder, path, flags)
            if descriptor >= 0 { return descriptor }
            guard errno == EINTR else { throw SystemError(code: errno) }
        }
    }

    deinit { closeFile(descriptor) }

    /// `fstat(2)` of the folder itself.
    package func status() throws(SystemError) -> FileStatus { try fileStatus(descriptor: descriptor) }

    /// `fstatat(2)` of the entry `name`, or of the symbolic link itself when not `followingLinks`
    /// (`AT_SYMLINK_NOFOLLOW`); retried on EINTR.
    package func status(ofEntry name: some Collection<UInt8>, followingLinks: Bool) throws(SystemError) -> FileStatus {
        try withCPath(name) { (cName) throws(SystemError) in
            var info = stat()
            while fstatat(descriptor, cName, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) != 0 {
                guard errno == EINTR else { throw SystemError(code: errno) }
            }
            return FileStatus(info)
        }
    }
}

/// A folder open for listing (`opendir(3)`), read one entry at a time (`readdir(3)`) and closed
/// when the value goes (`closedir(3)`). `.` and `..` are listed too, as the system lists them.
package struct DirectoryStream: ~Copyable {
    private let stream: DirectoryHandle

    /// Opens the folder at `path`.
    package init(_ path: UnsafePointer<CChar>) throws(SystemError) {
        guard let stream = opendir(path) else { throw SystemError(code: errno) }
        self.stream = stream
    }

    /// Opens the folder at a path given as bytes.
    package init(_ path: some Collection<UInt8>) throws(SystemError) {
        guard let stream = withCPath(path, { opendir($0) }) else { throw SystemError(code: errno) }
        self.stream = stream
    }

    /// Lists the folder held open by `folder` (`fdopendir(3)` of a duplicate of its descriptor,
    /// which the stream owns: `folder` stays usable after the stream is gone).
    package init(_ folder: FolderDescriptor) throws(SystemError) {
        let copy = fcntl(folder.descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw SystemError(code: errno) }
        guard let stream = fdopendir(copy) else {
            let code = errno
            closeFile(copy)
            throw SystemError(code: code)
        }
        // The duplicate shares the original's offset: start from the first entry.
        rewinddir(stream)
        self.stream = stream
    }

    deinit { closedir(stream) }

    /// The next entry, valid until the next call; `nil` at the end (or when reading fails).
    package func next() -> DirectoryEntry? {
        readdir(stream).map(DirectoryEntry.init)
    }
}

/// An entry of a ``DirectoryStream``, borrowed from where `readdir(3)` left it: valid until the
/// stream's next entry is read.
package struct DirectoryEntry {
    /// What the folder's listing says an entry is (`d_type`), without a `stat(2)`.
    package enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink
        /// The file system does not say: ask `stat(2)`.
        case unknown
        /// A FIFO, a device or a socket.
        case other
    }

    private let entry: UnsafeMutablePointer<dirent>

    fileprivate init(_ entry: UnsafeMutablePointer<dirent>) { self.entry = entry }

    /// The name, as bytes.
    package var name: [UInt8] { directoryEntryName(entry) }

    /// Calls `body` with the name, borrowed (see ``withDirectoryEntryName(_:_:)``).
    package func withName<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        withDirectoryEntryName(entry, body)
    }

    /// The entry's inode number (`d_ino`), which with the folder's device says which file it is
    /// without a `stat(2)`.
    package var inode: UInt64 { UInt64(entry.pointee.d_ino) }

    /// What the listing says the entry is.
    package var kind: Kind {
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_REG): .regular
        case Int32(DT_DIR): .directory
        case Int32(DT_LNK): .symbolicLink
        case Int32(DT_UNKNOWN): .unknown
        default: .other
        }
    }
}
