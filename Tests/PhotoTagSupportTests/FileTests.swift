import Testing

@testable import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The wrappers of Platform/Files.swift and Platform/Memory.swift, on a scratch folder.
@Suite struct FileTests {
    /// A fresh folder with a file `photo.jpg` holding `abcdef` and a symbolic link `link` to it.
    func makeFolder(_ name: String) -> String {
        let folder = "/tmp/phototag-support-files-\(name)-\(getpid())"
        removeFolder(folder)
        #expect(mkdir(folder, 0o700) == 0)
        let descriptor = try? openForWriting(folder + "/photo.jpg", permissions: 0o600)
        #expect(descriptor != nil)
        if let descriptor {
            #expect(Array("abcdef".utf8).withUnsafeBytes { writeAll(descriptor, $0) } == 0)
            #expect(closeFile(descriptor) == 0)
        }
        #expect(symlink("photo.jpg", folder + "/link") == 0)
        return folder
    }

    func removeFolder(_ folder: String) {
        for name in ["photo.jpg", "link", "renamed.jpg"] { removeFile(folder + "/" + name) }
        rmdir(folder)
    }

    @Test func fileStatusSaysWhatAPathIs() throws {
        let folder = makeFolder("status")
        defer { removeFolder(folder) }
        let file = try fileStatus(folder + "/photo.jpg")
        #expect(file.kind == .regular && file.isRegular && !file.isDirectory)
        #expect(file.size == 6)
        #expect(file.modified > 1_600_000_000)
        #expect(try fileStatus(folder).isDirectory)
        // Followed, the link is its file (the same device and inode); not followed, a link.
        let followed = try fileStatus(Array((folder + "/link").utf8))
        #expect(followed == file)
        #expect(try fileStatus(folder + "/link", followingLinks: false).kind == .symbolicLink)
        #expect(try fileStatus("/dev/null").kind == .characterDevice)
        #expect(throws: SystemError(code: ENOENT)) { try fileStatus(folder + "/missing") }
        let descriptor = try openForReading(folder + "/photo.jpg")
        defer { closeFile(descriptor) }
        #expect(try fileStatus(descriptor: descriptor) == file)
        #expect(throws: SystemError(code: EBADF)) { try fileStatus(descriptor: -1) }
    }

    @Test func openingRenamingAndRemovingReportErrno() throws {
        let folder = makeFolder("rename")
        defer { removeFolder(folder) }
        #expect(throws: SystemError(code: ENOENT)) { try openForReading(folder + "/missing", nonBlocking: true) }
        #expect(renameFile(folder + "/photo.jpg", to: folder + "/renamed.jpg") == 0)
        #expect(renameFile(folder + "/photo.jpg", to: folder + "/renamed.jpg") == ENOENT)
        let descriptor = try openForReading(Array((folder + "/renamed.jpg").utf8))
        var bytes = [UInt8](repeating: 0, count: 8)
        #expect(try bytes.withUnsafeMutableBytes { try readSome(descriptor, into: $0) } == 6)
        #expect(closeFile(descriptor) == 0)
        #expect(closeFile(descriptor) == EBADF)
        #expect(removeFile(folder + "/renamed.jpg") == 0)
        #expect(removeFile(folder + "/renamed.jpg") == ENOENT)
    }

    @Test func aDirectoryStreamListsNamesAndKinds() throws {
        let folder = makeFolder("list")
        defer { removeFolder(folder) }
        var found: [String: DirectoryEntry.Kind] = [:]
        let stream = try DirectoryStream(Array(folder.utf8))
        while let entry = stream.next() {
            let name = String(decoding: entry.name, as: UTF8.self)
            #expect(entry.withName { Array($0) } == entry.name)
            found[name] = entry.kind
        }
        #expect(found.keys.sorted() == [".", "..", "link", "photo.jpg"])
        // tmpfs and ext4 fill in d_type; a file system that does not says unknown.
        #expect([.regular, .unknown].contains(found["photo.jpg"]))
        #expect([.symbolicLink, .unknown].contains(found["link"]))
        #expect([.directory, .unknown].contains(found["."]))
        #expect(throws: SystemError(code: ENOTDIR)) { _ = try DirectoryStream(folder + "/photo.jpg") }
    }

    @Test func aMappedFileIsItsBytesAndZeroedPagesAreZeros() throws {
        let folder = makeFolder("map")
        defer { removeFolder(folder) }
        let descriptor = try openForReading(folder + "/photo.jpg")
        let mapped = try mapReadOnly(descriptor: descriptor, byteCount: 6)
        closeFile(descriptor)  // the mapping stays
        #expect(Array(mapped) == Array("abcdef".utf8))
        unmap(mapped.baseAddress!, byteCount: 6)
        let pages = try #require(mapZeroedPages(byteCount: 1 << 16))
        #expect(UnsafeRawBufferPointer(start: pages, count: 1 << 16).allSatisfy { $0 == 0 })
        pages.storeBytes(of: 7, toByteOffset: 4096, as: UInt8.self)
        unmap(pages, byteCount: 1 << 16)
    }

    @Test func bytesCompareAsMemcmpDoes() {
        let a: [UInt8] = [1, 2, 3], b: [UInt8] = [1, 2, 4]
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                #expect(compareBytes(a.baseAddress!, b.baseAddress!, count: 3) < 0)
                #expect(compareBytes(b.baseAddress!, a.baseAddress!, count: 3) > 0)
                #expect(compareBytes(a.baseAddress!, b.baseAddress!, count: 2) == 0)
            }
        }
    }

    @Test func patternsMatchNamesAndPaths() {
        #expect(fileNameMatches(pattern: "*.jpg", "photo.jpg", pathName: false))
        #expect(!fileNameMatches(pattern: "*.jpg", "photo.png", pathName: false))
        #expect(fileNameMatches(pattern: "*.jpg", "a/photo.jpg", pathName: false))
        #expect(!fileNameMatches(pattern: "*.jpg", "a/photo.jpg", pathName: true))
        #expect(fileNameMatches(pattern: "a/*.jpg", "a/photo.jpg", pathName: true))
    }

    @Test func theWorkingDirectoryAndTerminalsAreAsTheCLibrarySays() {
        var buffer = [CChar](repeating: 0, count: 4097)
        #expect(getcwd(&buffer, buffer.count) != nil)
        #expect(currentDirectory() == buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        #expect(!refersToTerminal(null))
        #expect(refersToTerminal(STDERR_FILENO) == (isatty(STDERR_FILENO) == 1))
    }

    @Test func utcCalendarDatesAreGmtimes() {
        #expect(utcCalendarDate(secondsSince1970: 0)! == (1970, 1, 1))
        #expect(utcCalendarDate(secondsSince1970: 951_782_400)! == (2000, 2, 29))
        #expect(utcCalendarDate(secondsSince1970: -1)! == (1969, 12, 31))
    }
}
