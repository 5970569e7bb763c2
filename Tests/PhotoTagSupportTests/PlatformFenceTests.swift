import Foundation
import Testing

/// Raw system calls only in `Sources/PhotoTagSupport/Platform/` (CONTRIBUTING.md, "Layout"): no
/// other source of the package (`Sources`, `Benchmarks`) imports the C library's modules, or
/// Foundation, which re-exports them. Tests may.
@Suite struct PlatformFenceTests {
    /// The repository root, from this file's path (Tests/PhotoTagSupportTests/…).
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The folder whose files may import them.
    static let platform = "Sources/PhotoTagSupport/Platform/"

    /// Files that still import them, each with the reason; one that no longer does must leave
    /// the list.
    static let exceptions: [String: String] = [:]

    /// The modules that must not be imported: the C library's, and Foundation's, which re-export it.
    static let forbidden: Set<Substring> = [
        "Glibc", "Darwin", "Musl", "Bionic", "Android", "WASILibc", "ucrt", "WinSDK", "CRT", "Foundation",
        "FoundationEssentials",
    ]

    /// The module a line of Swift imports (`import Glibc`, `@preconcurrency import Darwin`,
    /// `public import struct Glibc.stat`…), or `nil` for a line that is no import.
    static func importedModule(_ line: Substring) -> Substring? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words = words.dropFirst()
        }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        if let first = words.first,
            ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"].contains(first)
        {
            words = words.dropFirst()
        }
        return words.first?.split(separator: ".").first
    }

    /// Whether a line imports a forbidden module.
    static func isForbidden(_ line: Substring) -> Bool { importedModule(line).map(forbidden.contains) ?? false }

    /// The Swift files of `folder` (relative to the root), relative paths, sorted.
    static func swiftFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder) else { return [] }
        return walker.compactMap { item in
            guard let relative = item as? String, relative.hasSuffix(".swift") else { return nil }
            return folder + "/" + relative
        }.sorted()
    }

    static func importsTheCLibrary(_ path: String) throws -> Bool {
        let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        return text.split(separator: "\n").contains(where: isForbidden)
    }

    @Test func onlyThePlatformFilesImportTheCLibrary() throws {
        let files = Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Benchmarks")
        #expect(files.count > 100, "the sources were not found under \(Self.root)")
        let offenders = try files.filter { path in
            try !path.hasPrefix(Self.platform) && Self.exceptions[path] == nil && Self.importsTheCLibrary(path)
        }
        #expect(
            offenders == [],
            """
            these files import Glibc, Darwin or Foundation: call the C library through a wrapper of \
            \(Self.platform) (add one there if it is missing; CONTRIBUTING.md, "Layout")
            """)
        // The platform files are where the calls are: the fence is in the right place.
        #expect(try files.filter { $0.hasPrefix(Self.platform) }.contains { try Self.importsTheCLibrary($0) })
    }

    @Test func everyExceptionIsStillNeeded() throws {
        for path in Self.exceptions.keys.sorted() {
            let exists = FileManager.default.fileExists(atPath: Self.root + "/" + path)
            let stillImports = try exists && Self.importsTheCLibrary(path)
            #expect(stillImports, "\(path) no longer imports the C library: remove it from the exceptions")
        }
    }

    @Test func theFenceSeesEveryFormOfImport() {
        for line in [
            "import Glibc", "    import Darwin", "@preconcurrency import Glibc", "public import struct Glibc.stat",
            "import func Darwin.sin", "import Foundation", "internal import Musl",
        ] {
            #expect(Self.isForbidden(line[...]), "\(line)")
        }
        for line in ["import PhotoTagSupport", "// import Glibc", "import GlibcExtras", "let x = \"import Glibc\""] {
            #expect(!Self.isForbidden(line[...]), "\(line)")
        }
    }
}
