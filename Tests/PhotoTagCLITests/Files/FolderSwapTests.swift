import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Folders swapped while the walk runs (issue 26, item 9): the walk opens each subfolder
/// relative to its parent's descriptor, with `O_NOFOLLOW` under `--no-follow`, and enters only
/// the folder its parent's listing showed.
@Suite struct FolderSwapTests {
    /// What a walk of `root` found, paths relative to it: "file NAME", or "skipped NAME: REASON";
    /// `during` is called with each path found, relative, before the walk goes on.
    static func walk(
        _ root: String, noFollow: Bool, during: (String) throws -> Void = { _ in }
    ) throws
        -> [String]
    {
        var walker = FileWalker(hidden: false, allFiles: false, noFollow: noFollow)
        var found: [String] = []
        var failure: (any Error)?
        walker.walk(Array(root.utf8)) { item in
            let name = String(decoding: item.path, as: UTF8.self).replacingOccurrences(of: root + "/", with: "")
            switch item {
            case .skipped(_, let reason): found.append("skipped \(name): \(reason)")
            case .unreadable(_, let code): found.append("unreadable \(name): \(code)")
            default: found.append("file \(name)")
            }
            do { try during(name) } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        return found
    }

    static let photo = Data([0xFF, 0xD8, 0xFF, 0xD9])

    /// `root/a.jpg`, `root/<chain>/a.jpg` for every folder of the chain, and `elsewhere/e.jpg`
    /// beside the root: the base folder, which the caller removes.
    static func makeTree(chain: [String]) throws -> (base: String, root: String) {
        let base = try makeTemporaryDirectory()
        let root = base + "/root"
        var folder = root
        try FileManager.default.createDirectory(atPath: base + "/elsewhere", withIntermediateDirectories: true)
        try photo.write(to: URL(fileURLWithPath: base + "/elsewhere/e.jpg"))
        for name in [""] + chain {
            if !name.isEmpty { folder += "/" + name }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try photo.write(to: URL(fileURLWithPath: folder + "/a.jpg"))
        }
        return (base, root)
    }

    /// Replaces the folder `path` by a symbolic link to `target` (the folder is kept, renamed).
    static func swapForLink(_ path: String, to target: String) throws {
        try FileManager.default.moveItem(atPath: path, toPath: path + ".old")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    @Test func aFolderSwappedForALinkAfterItsParentWasListedIsNotEnteredUnderNoFollow() throws {
        let (base, root) = try Self.makeTree(chain: ["b"])
        defer { try? FileManager.default.removeItem(atPath: base) }
        // The root is listed (a.jpg, then b/) before a.jpg is found: b is swapped then.
        let found = try Self.walk(root, noFollow: true) { name in
            if name == "a.jpg" { try Self.swapForLink(root + "/b", to: base + "/elsewhere") }
        }
        #expect(
            found == [
                "file a.jpg",
                "skipped b: replaced by a symbolic link while scanned: not followed (--no-follow)",
            ])
    }

    @Test func withoutNoFollowTheLinkPutInPlaceIsFollowedAsALinkWouldBe() throws {
        let (base, root) = try Self.makeTree(chain: ["b"])
        defer { try? FileManager.default.removeItem(atPath: base) }
        let found = try Self.walk(root, noFollow: false) { name in
            if name == "a.jpg" { try Self.swapForLink(root + "/b", to: base + "/elsewhere") }
        }
        #expect(found == ["file a.jpg", "file b/e.jpg"])
    }

    @Test func aFolderSwappedForAFileIsReportedNotRead() throws {
        let (base, root) = try Self.makeTree(chain: ["b"])
        defer { try? FileManager.default.removeItem(atPath: base) }
        let found = try Self.walk(root, noFollow: true) { name in
            guard name == "a.jpg" else { return }
            try FileManager.default.moveItem(atPath: root + "/b", toPath: root + "/b.old")
            try Self.photo.write(to: URL(fileURLWithPath: root + "/b"))
        }
        #expect(found == ["file a.jpg", "skipped b: no longer a folder: replaced while scanned"])
    }

    /// Below the levels whose descriptors are held, a folder is opened by its path: the link
    /// put in place of it is still refused, and so is another folder put in place of a folder
    /// above it (the path now leads to a folder that is not the one listed).
    @Test func belowTheHeldLevelsFoldersAreStillCheckedToBeTheOnesListed() throws {
        let depth = FileWalker.heldDepth + 4
        let chain = (1...depth).map { "d\($0)" }
        func path(_ level: Int) -> String { chain.prefix(level).joined(separator: "/") }
        let (base, root) = try Self.makeTree(chain: chain)
        defer { try? FileManager.default.removeItem(atPath: base) }
        // The last folder swapped for a link once its parent is listed.
        let last = try Self.walk(root, noFollow: true) { name in
            if name == path(depth - 1) + "/a.jpg" {
                try Self.swapForLink(root + "/" + path(depth), to: base + "/elsewhere")
            }
        }
        #expect(last.count == depth + 1)
        #expect(
            last.last == "skipped \(path(depth)): replaced by a symbolic link while scanned: not followed (--no-follow)"
        )
        // A folder above, at a held level, replaced by a copy of the same chain: the next folder
        // opened by path is another one, not entered.
        let deep = FileWalker.heldDepth + 1
        let copy = base + "/copy"
        let found = try Self.walk(root, noFollow: true) { name in
            guard name == path(deep - 1) + "/a.jpg" else { return }
            try FileManager.default.copyItem(atPath: root + "/" + path(2), toPath: copy)
            try FileManager.default.moveItem(atPath: root + "/" + path(2), toPath: root + "/" + path(2) + ".old")
            try FileManager.default.moveItem(atPath: copy, toPath: root + "/" + path(2))
        }
        #expect(found.count == deep + 1)
        #expect(
            found.last == "skipped \(path(deep)): replaced by another folder while scanned: not entered (--no-follow)")
    }
}
