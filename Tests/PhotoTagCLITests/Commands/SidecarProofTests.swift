import Foundation
import TestSupport
import Testing

/// `phototag tag`'s sidecars read by the real readers on the shared corpus, and nothing lost when
/// a corpus sidecar is updated: `Scripts/check-sidecars` (docs/sidecars.md, "Proof with real
/// readers"), run on the binary these tests were built with.
@Suite struct SidecarProofTests {
    static let toolsInstalled = ["exiftool", "exiv2", "xmllint", "python3"].allSatisfy(ManualTests.available)
    static let corpusPresent = ["corpus/dev", "corpus/video-dev", "corpus/tracks-dev"].allSatisfy {
        FileManager.default.fileExists(atPath: SharedData.path($0 + "/manifest.tsv"))
    }

    @Test(
        .enabled(if: toolsInstalled, "exiftool, exiv2 or xmllint is not installed (Scripts/install-test-tools)"),
        .enabled(if: corpusPresent, "the shared corpus (../shared/corpus) is not here"))
    func everySidecarReadsBackAndUpdatesLoseNothing() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", BuiltProducts.root + "/Scripts/check-sidecars", "--phototag", BuiltProducts.path(of: "phototag"),
            "--shared", SharedData.root,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.hasSuffix("check-sidecars: every check passed\n"), "\(text)")
    }
}
