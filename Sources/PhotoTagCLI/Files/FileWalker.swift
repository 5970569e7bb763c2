import PhotoGPS
import PhotoTagSupport

/// Walks folders depth-first in path order, yielding the files to read.
///
/// Entries of each folder are sorted by name bytes, a folder's name compared as if it ended in
/// `/`, so the walk visits files in exactly the byte order of their full paths: output is
/// deterministic and already sorted. Symbolic links are followed (unless ``noFollow``), but a
/// folder (by device and inode) is entered only once, so no link can make the walk loop, and a
/// file is yielded only once however many paths lead to it (a path given twice, a file given and
/// reached again through a link, hard links): the others are skipped with why. Paths are bytes
/// throughout: names need not be UTF-8.
///
/// Folders are opened relative to their parent's descriptor (`openat(2)`, with `O_NOFOLLOW`
/// under ``noFollow``), which the walk holds while it goes through the parent's entries, and
/// each is checked to be the very folder (device and inode) the parent's listing showed: a
/// folder swapped for a symbolic link, or for another folder, while the scan runs is reported,
/// not entered. Only the descriptors of the first ``heldDepth`` levels are held (a tree can be
/// deeper than a process may have files open); a deeper folder is opened by its path and still
/// checked to be the one listed.
struct FileWalker {
    /// What the walk found.
    enum Found {
        /// A file to read.
        case file([UInt8])
        /// A file to read that the folder's listing shows to be a regular file (not a FIFO or a
        /// device, which must never be opened): it can be opened without a `stat(2)` first.
        case regular([UInt8])
        /// A photo to read with its sidecars (see ``SidecarPairing``), full paths.
        case paired([UInt8], sidecars: SidecarMatch)
        /// A sidecar file that belongs to no photo of its folder: read alone.
        case sidecar([UInt8])
        /// A file without a photo extension, yielded only because of ``allFiles``: when its bytes
        /// are not a photo at all, it is skipped, not reported.
        case candidate([UInt8])
        /// A folder or path that could not be read.
        case unreadable([UInt8], errno: Int32)
        /// Something not walked into, with why (printed on stderr).
        case skipped([UInt8], reason: String)
    }

    /// Include hidden files and folders (names starting with `.`).
    var hidden = false
    /// Yield every regular file, not only those with a photo extension.
    var allFiles = false
    /// Entries not walked: fnmatch(3) patterns, NUL-terminated, matched against an entry's name
    /// and against its path relative to the root (with `FNM_PATHNAME`).
    private var exclude: [[UInt8]] = []
    /// How deep to go: a root's entries are at depth 1; `nil` is no limit.
    var maxDepth: Int? = nil
    /// Skip symbolic links found inside folders (the roots given are still followed).
    var noFollow = false
    /// How many levels of folders keep their descriptor open while their entries are walked.
    static let heldDepth = 64
    /// Folders entered so far, by (device, inode).
    private var visited = Set<FileID>()
    /// Files yielded so far, by (device, inode): a folder's entries by the folder's device and
    /// their `d_ino`, with no `stat(2)`.
    private var yielded = Set<FileID>()
    /// The pairing of the folder of the last path given that is a file (see ``walk(_:_:)``).
    private var rootPairing: (folder: [UInt8], pairing: SidecarPairing)? = nil

    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    init(hidden: Bool, allFiles: Bool, exclude: [String] = [], maxDepth: Int? = nil, noFollow: Bool = false) {
        self.hidden = hidden
        self.allFiles = allFiles
        self.exclude = exclude.map { Array($0.utf8) + [0] }
        self.maxDepth = maxDepth
        self.noFollow = noFollow
    }

    /// Walks one path given by the user: a file is yielded whatever its name; a folder is walked.
    /// `yield` returns false to stop the walk.
    mutating func walk(_ root: [UInt8], _ yield: (Found) -> Bool) {
        let info: FileStatus
        do {
            info = try fileStatus(root)
        } catch {
            // A dangling symbolic link or a missing path: report it as a file that cannot be read.
            _ = yield(.unreadable(root, errno: error.code))
            return
        }
        guard info.isDirectory else {
            guard yielded.insert(FileID(device: info.device, inode: info.inode)).inserted else {
                _ = yield(.skipped(root, reason: Self.repeatedFileReason))
                return
            }
            // A file given by path: a sidecar is read alone, a photo with the sidecars beside it.
            let name = root.lastIndex(of: UInt8(ascii: "/")).map { root[($0 + 1)...] } ?? root[...]
            if Sidecar.kind(ofName: name) != nil {
                _ = yield(.sidecar(root))
            } else {
                let sidecars =
                    info.isRegular ? SidecarPairing.sidecars(ofPath: root, cache: &rootPairing) : SidecarMatch()
                _ = yield(sidecars.isEmpty ? .file(root) : .paired(root, sidecars: sidecars))
            }
            return
        }
        walkFolder(root, info, yield)
    }

    /// One folder being listed: its path, its path below the root, its depth (the root's is 0),
    /// its entries' names (one after the other in ``names``), its sorted entries and the next one
    /// to visit.
    private struct Frame {
        var folder: [UInt8]
        /// The device the folder is on, and so its files.
        var device: UInt64
        /// The folder, open: its subfolders are opened relative to it (`nil` below ``heldDepth``).
        var handle: FolderDescriptor?
        var relative: [UInt8]
        var depth: Int
        var names: [UInt8]
        var entries: [Entry]
        var next = 0
        /// The sidecars of the folder's photos, and which sidecar names belong to some photo.
        var sidecars: [Int: SidecarMatch] = [:]
        var claimed = Set<[UInt8]>()

        init(
            folder: [UInt8], device: UInt64, handle: FolderDescriptor, relative: [UInt8], depth: Int, listing: Listing
        ) {
            self.folder = folder
            self.device = device
            self.handle = depth < FileWalker.heldDepth ? handle : nil
            self.relative = relative
            self.depth = depth
            names = listing.names
            entries = listing.entries
            // Only sidecars are indexed, so only their names (a few folders have any) become arrays.
            let names = self.names
            var pairing = SidecarPairing(
                names: entries.compactMap { entry in
                    guard case .file = entry.kind, Sidecar.kind(ofName: names[entry.range]) != nil else { return nil }
                    return Array(names[entry.range])
                })
            guard !pairing.isEmpty else { return }
            // Every other entry is a name a sidecar differing only in case must not be taken from.
            pairing.addPhotos(
                entries.lazy.filter { Sidecar.kind(ofName: names[$0.range]) == nil }.map { names[$0.range] })
            for (index, entry) in entries.enumerated() where PhotoFiles.hasPhotoExtension(names[entry.range]) {
                let found = pairing.sidecars(of: Array(names[entry.range]))
                guard !found.isEmpty else { continue }
                sidecars[index] = found
                claimed.formUnion(found.paths)
                claimed.formUnion(found.shadowed)
            }
        }
    }

    private static let loopReason = "already scanned (a symbolic link loop or a repeated path)"
    private static let repeatedFileReason =
        "already scanned: the same file as another path (repeated, linked or hard-linked)"

    private mutating func walkFolder(_ root: [UInt8], _ rootInfo: FileStatus, _ yield: (Found) -> Bool) {
        // The folder given is followed even under --no-follow (like find -H); it is the folder
        // opened, not the one stat(2) saw a moment before, that counts as visited.
        let handle: FolderDescriptor
        let info: FileStatus
        do {
            handle = try FolderDescriptor(path: root, followingLinks: true)
            info = try handle.status()
        } catch {
            _ = yield(.unreadable(root, errno: error.code))
            return
        }
        guard visited.insert(FileID(device: info.device, inode: info.inode)).inserted else {
            _ = yield(.skipped(root, reason: Self.loopReason))
            return
        }
        // With --max-depth 0, a folder given is not entered (like find -maxdepth 0).
        if let maxDepth, maxDepth < 1 { return }
        // Depth-first, with an explicit stack: no recursion limit on deep trees.
        var stack: [Frame] = []
        switch list(handle, device: info.device, relative: []) {
        case .success(let listing):
            stack.append(
                Frame(folder: root, device: info.device, handle: handle, relative: [], depth: 0, listing: listing))
        case .failure(let error):
            _ = yield(.unreadable(root, errno: error.code))
            return
        }
        // Each entry's full path is made in this one array, which what is yielded borrows: a
        // consumer that copies the bytes and lets go of it leaves it to be reused for the next.
        var path: [UInt8] = []
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                stack.removeLast()
                continue
            }
            let index = stack[top].next
            let entry = stack[top].entries[index]
            stack[top].next += 1
            path.removeAll(keepingCapacity: true)
            Self.append(stack[top].folder, stack[top].names[entry.range], to: &path)
            let photoName = PhotoFiles.hasPhotoExtension(stack[top].names[entry.range])
            switch entry.kind {
            case .folder(let id):
                let depth = stack[top].depth + 1
                if let maxDepth, depth >= maxDepth { continue }  // its entries would be too deep
                guard visited.insert(id).inserted else {
                    if !yield(.skipped(path, reason: Self.loopReason)) { return }
                    continue
                }
                let name = Array(stack[top].names[entry.range])
                let handle: FolderDescriptor, device: UInt64
                switch enter(name, of: stack[top].handle, at: path, listed: id) {
                case .success(let opened): (handle, device) = opened
                case .failure(let failure):
                    if !yield(failure.found(path)) { return }
                    continue
                }
                let relative = stack[top].relative.isEmpty ? name : join(stack[top].relative, name)
                switch list(handle, device: device, relative: relative) {
                case .success(let listing):
                    stack.append(
                        Frame(
                            folder: Array(path), device: device, handle: handle, relative: relative, depth: depth,
                            listing: listing))
                case .failure(let error): if !yield(.unreadable(path, errno: error.code)) { return }
                }
            case .file(let id):
                let sidecar = !photoName && Sidecar.kind(ofName: stack[top].names[entry.range]) != nil
                // A file reached again (a link, a hard link, a folder given after a file in it).
                if photoName || (sidecar && !stack[top].claimed.contains(Array(stack[top].names[entry.range])))
                    || (!photoName && !sidecar && allFiles),
                    !yielded.insert(id).inserted
                {
                    if !yield(.skipped(path, reason: Self.repeatedFileReason)) { return }
                    continue
                }
                if photoName {
                    let found = stack[top].sidecars[index].map { $0.joined(to: Self.folderPrefix(stack[top].folder)) }
                    if !yield(found.map { .paired(path, sidecars: $0) } ?? .regular(path)) { return }
                } else if Sidecar.kind(ofName: stack[top].names[entry.range]) != nil {
                    if !stack[top].claimed.contains(Array(stack[top].names[entry.range])), !yield(.sidecar(path)) {
                        return
                    }
                } else if allFiles, !yield(.candidate(path)) {
                    return
                }
            case .special:
                // FIFOs, devices and sockets are never opened; one named like a photo is reported.
                if photoName, !yield(.file(path)) { return }
            case .broken(let code):
                if allFiles || photoName, !yield(.unreadable(path, errno: code)) { return }
            }
        }
    }

    /// Why a subfolder was not entered.
    private enum EnterFailure: Error {
        /// It could not be opened.
        case unreadable(Int32)
        /// It is no longer the folder its parent's listing showed.
        case changed(String)
        /// It is now a folder the walk has been through.
        case loop

        func found(_ path: [UInt8]) -> Found {
            switch self {
            case .unreadable(let code): .unreadable(path, errno: code)
            case .changed(let reason): .skipped(path, reason: reason)
            case .loop: .skipped(path, reason: FileWalker.loopReason)
            }
        }
    }

    /// Opens the subfolder `name` of the folder open as `parent` (by its full `path` when the
    /// parent is not held open), and checks that it is still the folder `listed`.
    private mutating func enter(
        _ name: [UInt8], of parent: FolderDescriptor?, at path: [UInt8], listed: FileID
    ) -> Result<(FolderDescriptor, device: UInt64), EnterFailure> {
        let handle: FolderDescriptor
        let info: FileStatus
        do {
            if let parent {
                handle = try FolderDescriptor(name: name, in: parent, followingLinks: !noFollow)
            } else {
                handle = try FolderDescriptor(path: path, followingLinks: !noFollow)
            }
            info = try handle.status()
        } catch {
            guard error == .symbolicLinkLoop || error == .notADirectory else {
                return .failure(.unreadable(error.code))
            }
            // O_NOFOLLOW with O_DIRECTORY fails on a link with ELOOP or ENOTDIR, as systems differ.
            let now = try? parent.map { try $0.status(ofEntry: name, followingLinks: false) }
            if noFollow, (now ?? (try? fileStatus(path, followingLinks: false)))?.kind == .symbolicLink {
                return .failure(.changed("replaced by a symbolic link while scanned: not followed (--no-follow)"))
            }
            return .failure(.changed("no longer a folder: replaced while scanned"))
        }
        let id = FileID(device: info.device, inode: info.inode)
        guard id != listed else { return .success((handle, id.device)) }
        // Under --no-follow a folder opened by path may have been reached through a link put
        // in place of a folder above it: only the folder listed may be entered. Otherwise the
        // new folder is walked, as a link to it would be, once.
        if noFollow { return .failure(.changed("replaced by another folder while scanned: not entered (--no-follow)")) }
        return visited.insert(id).inserted ? .success((handle, id.device)) : .failure(.loop)
    }

    /// `folder` ending in one `/`, for names to be appended to.
    private static func folderPrefix(_ folder: [UInt8]) -> [UInt8] {
        folder.last == UInt8(ascii: "/") ? folder : folder + [UInt8(ascii: "/")]
    }

    /// Appends `folder/name` to `path`, without doubling a slash the folder already ends in.
    private static func append(_ folder: [UInt8], _ name: ArraySlice<UInt8>, to path: inout [UInt8]) {
        path.append(contentsOf: folder)
        if folder.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name)
    }

    /// A folder's entry: where its name is in the folder's ``Listing/names``, and what it is.
    private struct Entry {
        var start: Int
        var count: Int
        var kind: Kind

        /// The name's place in ``Listing/names``.
        var range: Range<Int> { start..<(start + count) }

        /// Whether `a` comes before `b` in byte order of their names (`names` holds both), a
        /// folder's name compared as if it ended in `/`. Names that differ within the shorter
        /// one's length (nearly all of a folder's) are told apart by `memcmp` alone.
        static func precedes(_ a: Entry, _ b: Entry, in names: UnsafeBufferPointer<UInt8>) -> Bool {
            let common = min(a.count, b.count)
            let base = names.baseAddress!
            let order = common == 0 ? 0 : compareBytes(base + a.start, base + b.start, count: common)
            if order != 0 { return order < 0 }
            // One name is the other's beginning: the next byte of each sort key decides (a
            // folder's key goes on with `/`; a key that has ended comes first).
            func byte(_ entry: Entry, at offset: Int) -> Int {
                if offset < entry.count { return Int(names[entry.start + offset]) }
                if offset == entry.count, case .folder = entry.kind { return Int(UInt8(ascii: "/")) }
                return -1
            }
            return byte(a, at: common) < byte(b, at: common)
        }
    }

    /// A folder's entries worth walking, sorted, and their names one after the other.
    private struct Listing {
        var names: [UInt8] = []
        var entries: [Entry] = []
    }

    private enum Kind {
        case folder(FileID)
        /// A regular file (or a link to one), and which.
        case file(FileID)
        case special
        case broken(Int32)
    }

    /// Whether an entry is left out by ``exclude``: its name or its path below the root matches.
    private func isExcluded(name: ArraySlice<UInt8>, relative: [UInt8]) -> Bool {
        guard !exclude.isEmpty else { return false }
        let path = relative.isEmpty ? Array(name) : join(relative, Array(name))
        return withCPath(name) { name in
            withCPath(path) { path in
                exclude.contains { pattern in
                    pattern.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { pattern in
                            // In any case, as the photo extensions are matched: --exclude '*.MOV'
                            // leaves out clip.mov.
                            fileNameMatches(pattern: pattern.baseAddress!, name, pathName: false, foldingCase: true)
                                || fileNameMatches(
                                    pattern: pattern.baseAddress!, path, pathName: true, foldingCase: true)
                        }
                    }
                }
            }
        }
    }

    /// The entries of a folder worth walking, sorted; or `errno` when it cannot be opened.
    /// `relative` is the folder's path below the root, for ``exclude``.
    ///
    /// The names are read into one array (not an array each), and the entries sorted by where
    /// their names are.
    private func list(_ folder: FolderDescriptor, device: UInt64, relative: [UInt8]) -> Result<Listing, WalkError> {
        let stream: DirectoryStream
        do { stream = try DirectoryStream(folder) } catch { return .failure(WalkError(code: error.code)) }
        var listing = Listing()
        while let entry = stream.next() {
            let start = listing.names.count
            entry.withName { listing.names.append(contentsOf: $0) }
            let count = listing.names.count - start
            let first = count > 0 ? listing.names[start] : 0
            // `.` and `..`, and hidden entries unless asked for, are not kept.
            let dots = first == 0x2E && (count == 1 || (count == 2 && listing.names[start + 1] == 0x2E))
            if dots || (!hidden && first == 0x2E) || isExcluded(name: listing.names[start...], relative: relative) {
                listing.names.removeSubrange(start...)
                continue
            }
            let type = entry.kind
            if noFollow, type == .symbolicLink {
                listing.names.removeSubrange(start...)
                continue
            }
            var kind: Kind
            switch type {
            case .regular: kind = .file(FileID(device: device, inode: entry.inode))
            case .directory, .symbolicLink, .unknown:
                // Looked up in the folder open, not by path; under --no-follow, the entry
                // itself: a link found only now (the listing did not say) is left out too.
                do {
                    let info = try folder.status(ofEntry: listing.names[start...], followingLinks: !noFollow)
                    switch info.kind {
                    case .directory: kind = .folder(FileID(device: info.device, inode: info.inode))
                    case .regular: kind = .file(FileID(device: info.device, inode: info.inode))
                    case .symbolicLink:
                        listing.names.removeSubrange(start...)
                        continue
                    default: kind = .special
                    }
                } catch {
                    kind = .broken(error.code)
                }
            case .other: kind = .special
            }
            listing.entries.append(Entry(start: start, count: count, kind: kind))
        }
        let names = listing.names
        names.withUnsafeBufferPointer { names in listing.entries.sort { Entry.precedes($0, $1, in: names) } }
        return .success(listing)
    }

    private struct WalkError: Error { var code: Int32 }
}

/// `folder/name`, without doubling a slash the folder already ends in; made in one array of
/// the right size (joined with `+`, it took two or three).
func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
    let slash = folder.last == UInt8(ascii: "/") ? 0 : 1
    return [UInt8](unsafeUninitializedCapacity: folder.count + slash + name.count) { path, count in
        var at = path.baseAddress!
        folder.withUnsafeBufferPointer { folder in
            if let start = folder.baseAddress { at.initialize(from: start, count: folder.count) }
            at += folder.count
        }
        if slash == 1 {
            at.initialize(to: UInt8(ascii: "/"))
            at += 1
        }
        name.withUnsafeBufferPointer { name in
            if let start = name.baseAddress { at.initialize(from: start, count: name.count) }
        }
        count = folder.count + slash + name.count
    }
}
