import Foundation
import TestSupport
import Testing

@testable import PhotoTagMap

/// The HTML map's CSS and JavaScript, files of their own in `Sources/CMapAssets/` that the build
/// embeds with `#embed`: what the page holds is what the files hold.
@Suite struct MapAssetsTests {
    static let folder = BuiltProducts.root + "/Sources/CMapAssets"

    /// A file's text; the test fails when it cannot be read.
    static func text(_ name: String) throws -> String {
        try String(decoding: readWholeFile(folder + "/" + name), as: UTF8.self)
    }

    /// A build that did not see a change to a file would embed the old text: touch assets.c then.
    @Test func theEmbeddedTextIsTheFiles() throws {
        #expect(MapRenderer.style == (try Self.text("map.css")), "Sources/CMapAssets/map.css is not what is embedded")
        #expect(MapRenderer.script == (try Self.text("map.js")), "Sources/CMapAssets/map.js is not what is embedded")
        #expect(MapRenderer.style.hasPrefix("body {") && MapRenderer.style.hasSuffix("}\n"))
        #expect(MapRenderer.script.hasPrefix("\"use strict\";\n") && MapRenderer.script.hasSuffix("})();\n"))
    }

    /// The page is one piece of HTML: the texts cannot end their own `<style>` or `<script>`
    /// element, and hold nothing a file may not (NUL would end the embedded text early).
    @Test func theTextsStayInsideTheirElements() {
        for text in [MapRenderer.style, MapRenderer.script] {
            #expect(!text.lowercased().contains("</style") && !text.lowercased().contains("</script"))
            #expect(!text.utf8.contains(0))
        }
    }

    /// The style sheet highlights in the colour the SVG map and its legend use.
    @Test func theHighlightIsTheMapsColour() {
        #expect(MapRenderer.style.contains(".marker.highlight { fill: \(MapColours.highlight);"))
    }

    static let node = Tools.find("node", "nodejs")

    /// The script parses as JavaScript (`node --check`), where Node.js is installed.
    @Test(.enabled(if: node != nil, "Node.js (Debian nodejs) is not installed"))
    func theScriptParses() throws {
        let result = try Tools.run(try #require(Self.node), ["--check", Self.folder + "/map.js"])
        #expect(result.status == 0, "\(result.errors)")
    }
}
