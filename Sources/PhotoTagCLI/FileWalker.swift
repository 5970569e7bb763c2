import PhotoGPS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which files `scan` considers photos.
enum PhotoFiles {
    /// Lowercase extensions of the containers phototag reads.
    static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif",  // JPEG
        "heic", "heif", "hif", "avif",  // ISO BMFF images
        "png", "webp",
        // TIFF and TIFF-based raw, and Canon CR3
        "tif", "tiff", "dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "pef", "srw",
    ]

    /// Whether a file name (bytes) ends in one of ``extensions``, ignoring case.
    static func hasPhotoExtension(_ name: ArraySlice<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot < name.endIndex - 1 else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.count <= 5 else { return false }
        return extensions.contains(String(decoding: suffix.map { $0 | (0x41...0x5A ~= $0 ? 0x20 : 0) }, as: UTF8.self))
    }
}

/// Walks folders depth-first in path order, yielding the files to read.
///
/// Entries of each folder are sorted by name bytes, a folder's name compared as if it ended in
/// `/`, so the walk visits files in exactly the byte order of their full paths: output is
/// deterministic and already sorted. Symbolic links are followed, but a folder (by device and
/// inode) is entered only once, so no link can make the walk loop. Paths are bytes throughout:
/// names need not be UTF-8.
struct FileWalker {
    /// What the walk found.
    enum Found {
        /// A file to read.
        case file([UInt8])
        /// A folder or path that could not be read.
        case unreadable([UInt8], errno: Int32)
        /// Something not walked into, with why (printed on stderr).
        case skipped([UInt8], reason: String)
    }

    /// Include hidden files and folders (names starting with `.`).
    var hidden = false
    /// Yield every regular file, not only those with a photo extension.
    var allFiles = false
    /// Folders entered so far, by (device, inode).
    private var visited = Set<FolderID>()

    private struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    init(hidden: Bool, allFiles: Bool) {
        self.hidden = hidden
        self.allFiles = allFiles
    }

    /// Walks one path given by the user: a file is yielded whatever its name; a folder is walked.
    /// `yield` returns false to stop the walk.
    mutating func walk(_ root: [UInt8], _ yield: (Found) -> Bool) {
        var info = stat()
        guard statPath(root, &info) else {
            let code = errno
            // A dangling symbolic link or a missing path: report it as a file that cannot be read.
            _ = yield(.unreadable(root, errno: code))
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            _ = yield(.file(root))
            return
        }
        walkFolder(root, info, yield)
    }

    private mutating func walkFolder(_ root: [UInt8], _ rootInfo: stat, _ yield: (Found) -> Bool) {
        guard visited.insert(FolderID(device: UInt64(rootInfo.st_dev), inode: UInt64(rootInfo.st_ino))).inserted else {
            _ = yield(.skipped(root, reason: "already scanned (a symbolic link loop or a repeated path)"))
            return
        }
        // Depth-first, with an explicit stack: no recursion limit on deep trees.
        var stack: [(folder: [UInt8], entries: [Entry], next: Int)] = []
        switch list(root) {
        case .success(let entries): stack.append((root, entries, 0))
        case .failure(let error):
            _ = yield(.unreadable(root, errno: error.code))
            return
        }
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            let path = join(stack[top].folder, entry.name)
            switch entry.kind {
            case .folder(let id):
                guard visited.insert(id).inserted else {
                    if !yield(.skipped(path, reason: "already scanned (a symbolic link loop or a repeated path)")) {
                        return
                    }
                    continue
                }
                switch list(path) {
                case .success(let entries): stack.append((path, entries, 0))
                case .failure(let error): if !yield(.unreadable(path, errno: error.code)) { return }
                }
            case .file:
                if allFiles || PhotoFiles.hasPhotoExtension(entry.name[...]), !yield(.file(path)) { return }
            case .special:
                // FIFOs, devices and sockets are never opened; one named like a photo is reported.
                if !allFiles, PhotoFiles.hasPhotoExtension(entry.name[...]), !yield(.file(path)) { return }
            case .broken(let code):
                if allFiles || PhotoFiles.hasPhotoExtension(entry.name[...]), !yield(.unreadable(path, errno: code)) {
                    return
                }
            }
        }
    }

    private struct Entry {
        var name: [UInt8]
        var kind: Kind
        /// The name as sorted: folders as if followed by `/`.
        var sortKey: [UInt8] {
            if case .folder = kind { return name + [UInt8(ascii: "/")] }
            return name
        }
    }

    private enum Kind {
        case folder(FolderID)
        case file
        case special
        case broken(Int32)
    }

    /// The entries of a folder worth walking, sorted; or `errno` when it cannot be opened.
    private func list(_ folder: [UInt8]) -> Result<[Entry], WalkError> {
        let stream: OpaquePointer? = withCString(folder) { opendir($0) }
        guard let stream else { return .failure(WalkError(code: errno)) }
        defer { closedir(stream) }
        var entries: [Entry] = []
        while let raw = readdir(stream) {
            let name = entryName(raw)
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            if !hidden, name.first == 0x2E { continue }
            let type = raw.pointee.d_type
            var kind: Kind
            switch Int32(type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR), Int32(DT_LNK), Int32(DT_UNKNOWN):
                var info = stat()
                if statPath(join(folder, name), &info) {
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR: kind = .folder(FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
                    case S_IFREG: kind = .file
                    default: kind = .special
                    }
                } else {
                    kind = .broken(errno)
                }
            default: kind = .special
            }
            entries.append(Entry(name: name, kind: kind))
        }
        entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        return .success(entries)
    }

    private struct WalkError: Error { var code: Int32 }
}

/// `folder/name`, without doubling a slash the folder already ends in.
func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
    folder.last == UInt8(ascii: "/") ? folder + name : folder + [UInt8(ascii: "/")] + name
}

/// Calls `body` with `bytes` as a NUL-terminated C string.
func withCString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
}

/// `stat(2)` on a byte path (following symbolic links); false on failure, with `errno` set.
func statPath(_ path: [UInt8], _ info: inout stat) -> Bool {
    withCString(path) { stat($0, &info) } == 0
}

/// The name of a directory entry.
///
/// The kernel sizes each entry to its name, so `d_name` must be read up to its NUL only: copying
/// the whole 256-byte array runs past the end of the last entry in readdir's buffer.
func entryName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    let name = (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)
    return Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
}
