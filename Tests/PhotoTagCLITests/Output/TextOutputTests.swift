import Foundation
import ReverseGeocoding
import TestSupport
import Testing

@testable import PhotoTagCLI

/// The `text` format as a terminal shows it: stable columns measured in cells, names that cannot
/// break a line or send escape sequences, and no blank or meaningless fields.
@Suite struct TextOutputTests {
    /// File names (relative to a scratch folder) and the terminal cells each takes, counted by
    /// hand: wide CJK, Hangul syllables precomposed and decomposed, accents precomposed and
    /// combining, a combining mark of the symbol block, an emoji.
    static let names: [(name: String, cells: Int)] = [
        ("a.jpg", 5),
        ("deep/nested/folder/caf\u{E9}.jpg", 27),
        ("e\u{301}t.jpg", 6),
        ("写真/東京タワー.jpg", 19),
        ("한국.jpg", 8),
        ("\u{1112}\u{1161}\u{11AB}.jpg", 6),  // 한, decomposed as macOS writes it
        ("x\u{20D7}y\u{1AB0}z\u{1DC0}w\u{FE20}.jpg", 8),
        ("\u{1F30D}.jpg", 6),
    ]
    static let longName = "a-folder-with-a-rather-long-name/and-an-even-longer-file-name.jpg"

    /// A scratch folder holding a copy of a located photo under each of `names`.
    static func folder(_ names: [String]) throws -> String {
        let root = try makeTemporaryDirectory()
        let photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.photo("ne-little-endian.jpg")))
        for name in names {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: photo))
        }
        return root
    }

    /// The record lines of `output`, each as the cell where its second column starts (the
    /// name's cells plus the spaces after it), given the names it shows and their cells.
    static func secondColumnCells(_ output: Data, names: [(name: String, cells: Int)]) -> [String: Int] {
        var cells: [String: Int] = [:]
        for line in output.split(separator: 0x0A) {
            let bytes = Array(line)
            // The longest name the line starts with, compared as bytes (not as canonically
            // equivalent strings).
            guard
                let (name, width) = names.filter({ bytes.starts(with: Array($0.name.utf8)) }).max(by: {
                    $0.name.utf8.count < $1.name.utf8.count
                })
            else {
                Issue.record("a line starts with no known name: \(String(decoding: bytes, as: UTF8.self))")
                continue
            }
            let rest = bytes.dropFirst(name.utf8.count)
            cells[name] = width + rest.prefix(while: { $0 == 0x20 }).count
        }
        return cells
    }

    @Test func scanColumnsStartInTheSameCellOnEveryLine() throws {
        let root = try Self.folder(Self.names.map(\.name) + [Self.longName])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["scan", "--no-place", "--sort", "."], directory: root)
        #expect(result.status == 0)
        let shown = Self.names.map { (name: "./" + $0.name, cells: $0.cells + 2) }
        let long = (name: "./" + Self.longName, cells: Self.longName.count + 2)
        let cells = Self.secondColumnCells(result.output, names: shown + [long])
        #expect(cells.count == Self.names.count + 1)
        // Every name that fits: the coordinates start in one cell, fixed for the run.
        for (name, _) in shown {
            #expect(cells[name] == RecordEmitter.maximumColumnWidth + 2, "\(name)")
        }
        // A longer name pushes its own line only, by the two spaces between columns.
        #expect(cells[long.name] == long.cells + 2)
    }

    @Test func locateColumnIsAsWideAsTheLongestNameInCells() throws {
        let root = try Self.folder(Self.names.map(\.name))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["locate", "--no-place"] + Self.names.map(\.name), directory: root)
        #expect(result.status == 0)
        let cells = Self.secondColumnCells(result.output, names: Self.names)
        #expect(cells.count == Self.names.count)
        let widest = Self.names.map(\.cells).max() ?? 0
        for (name, _) in Self.names { #expect(cells[name] == widest + 2, "\(name)") }
    }

    @Test func locateColumnIsCappedAndALongNamePushesOnlyItsLine() throws {
        let names = ["a.jpg", Self.longName]
        let root = try Self.folder(names)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Binary.run(["locate", "--no-place"] + names, directory: root)
        let cells = Self.secondColumnCells(result.output, names: [("a.jpg", 5), (Self.longName, Self.longName.count)])
        #expect(cells["a.jpg"] == RecordEmitter.maximumColumnWidth + 2)
        #expect(cells[Self.longName] == Self.longName.count + 2)
    }

    @Test func displayWidthCountsTerminalCells() {
        for (name, cells) in Self.names { #expect(displayWidth(name) == cells, "\(name)") }
        #expect(displayWidth("\u{200D}\u{200C}\u{FE0F}\u{E0101}") == 0)  // joiners, variation selectors
        #expect(displayWidth("\u{5D0}\u{5B8}") == 1)  // a Hebrew letter and its point
        #expect(displayWidth("ｶﾀｶﾅ") == 4)  // halfwidth forms
        #expect(displayWidth("ＡＢ") == 4)  // fullwidth forms
        #expect(displayWidth("\u{303F}\u{4DC0}") == 2)  // narrow, next to wide blocks
        #expect(displayWidth("\u{20000}\u{1F600}\u{1F9D0}") == 6)
    }

    // MARK: Control characters

    @Test func namesWithControlCharactersStayOnOneLineAndSendNoEscapes() throws {
        let names = ["new\nline.jpg", "tab\there.jpg", "esc\u{1B}[31mred.jpg", "c1\u{85}x.jpg", "it's\\\r.jpg"]
        let root = try Self.folder(names)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/empty\nfile.jpg", contents: Data()))
        let result = try Binary.run(["scan", "--no-place", "--sort", "."], directory: root)
        #expect(result.status == 2)
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == names.count + 1)  // one line per record
        for stream in [result.output, result.errors] {
            #expect(!stream.contains(0x1B))
            #expect(!stream.contains(0x0D))
            #expect(!stream.contains(0x09))
            let bytes = Array(stream)
            #expect(!zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && $1 == 0x85 })  // U+0085
        }
        for shown in [
            #"$'./new\nline.jpg'"#, #"$'./tab\there.jpg'"#, #"$'./esc\x1b[31mred.jpg'"#, #"$'./c1\u0085x.jpg'"#,
            #"$'./it\'s\\\r.jpg'"#, #"$'./empty\nfile.jpg'"#,
        ] {
            #expect(lines.contains { $0.hasPrefix(shown) }, "\(shown)")
        }
        #expect(
            String(decoding: result.errors, as: UTF8.self) == #"phototag: $'./empty\nfile.jpg': file is empty"# + "\n")
        // JSON keeps the real name (escaped the JSON way).
        let json = try Binary.run(["scan", "--no-place", "--sort", "--json", "-q", "."], directory: root)
        let records = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        #expect(
            Set(records.compactMap { $0["file"] as? String }) == Set((names + ["empty\nfile.jpg"]).map { "./" + $0 }))
    }

    @Test func quotingLeavesOrdinaryNamesAlone() {
        for name in ["a.jpg", "it's here.jpg", #"back\slash.jpg"#, "東京.jpg", "caf\u{E9}.jpg", "\u{FFFD}.jpg"] {
            #expect(quotedForTerminal(name) == name)
        }
        #expect(quotedForTerminal("a\u{7F}\u{1}\u{9F}") == #"$'a\x7f\x01\u009f'"#)
        #expect(escapingControls("got '1\u{1B}[2J'") == #"got '1\x1b[2J'"#)
    }

    @Test func rejectedInputIsEchoedWithoutControlCharacters() {
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(
            ["geocode", "--no-place"], input: MemoryInput("1,2\n1\u{1B}[2J,2\n"), output: output, errors: errors)
        #expect(output.text.contains(#"line 2: '1\x1b[2J' is not a number"#))
        #expect(!output.bytes.contains(0x1B))
    }

    // MARK: No place, nearby places

    static func text(_ arguments: [String], input: String = "") -> String {
        let output = MemorySink(), errors = MemorySink()
        _ = PhotoTag.run(arguments, input: MemoryInput(input), output: output, errors: errors)
        return output.text
    }

    @Test func noPlaceWithinTheMaximumDistanceIsSaid() {
        let photo = Fixtures.photo("ne-little-endian.jpg")  // 4 km from Paris, the nearest place
        let places = ["--places", Fixtures.places]
        #expect(
            Self.text(["locate", "--max-distance", "1"] + places + [photo])
                == "\(photo)  48.858222, 2.294500      no place within 1 km\n")
        #expect(
            Self.text(["locate", "--max-distance", "0.5"] + places + [photo]).hasSuffix("no place within 0.5 km\n"))
        #expect(
            Self.text(["geocode", "--max-distance", "1"] + places + ["48.85,2.29"])
                == "48.850000, 2.290000      no place within 1 km\n")
        #expect(
            Self.text(["geocode", "--min-population", "100000000"] + places + ["48.85,2.29"])
                == "48.850000, 2.290000      no place\n")
        #expect(Self.text(["locate", "--no-place", photo]) == "\(photo)  48.858222, 2.294500\n")
    }

    @Test func noTextLineEndsInASpace() throws {
        let photos = ["ne-little-endian.jpg", "no-exif.jpg", "empty.jpg", "gps-ifd-empty.jpg"].map(Fixtures.photo)
        let places = ["--places", Fixtures.places]
        var outputs = [
            Self.text(["locate", "--max-distance", "1"] + places + photos),
            Self.text(["locate", "--no-place"] + photos),
            Self.text(["locate", "--nearest", "3"] + places + photos),
            Self.text(["geocode", "--max-distance", "1"] + places + ["48.85,2.29", "x"]),
            Self.text(["geocode", "--no-place", "48.85,2.29"]),
        ]
        let expected = Fixtures.root + "/expected/"
        for name in try listDirectory(expected) where name.hasSuffix(".text.out") {
            outputs.append(try String(contentsOfFile: expected + name, encoding: .utf8))
        }
        for output in outputs {
            for line in output.split(separator: "\n") { #expect(line.last != " ", "\(line)") }
        }
    }

    @Test func aPlaceWithinFiftyMetresHasNoDirection() {
        let place = Place(
            geonameId: 1, name: "Paris", asciiName: "Paris", admin1: "Île-de-France", admin2: nil, countryCode: "FR",
            country: nil, timeZone: nil, population: 1, featureCode: nil, latitude: 48.85, longitude: 2.35)
        #expect(
            placeLabel(PlaceMatch(place: place, distanceKm: 0, bearing: 270)) == "Paris, Île-de-France, FR — 0.0 km")
        #expect(placeLabel(PlaceMatch(place: place, distanceKm: 0.049, bearing: 270)).hasSuffix("— 0.0 km"))
        #expect(placeLabel(PlaceMatch(place: place, distanceKm: 0.05, bearing: 270)).hasSuffix("— 0.1 km W"))
        #expect(placeLabel(PlaceMatch(place: place, distanceKm: 4.009, bearing: 278)).hasSuffix("— 4.0 km W"))
    }
}
