import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Issue 23, item 16: CSV for spreadsheets and GIS tools. `--bom` for Excel; text cells that a
/// spreadsheet would run as formulas defused (OWASP's CSV injection advice); `--csvt` for the
/// columns' types, which GDAL keeps even when every value is empty; GeoJSON's `warnings` never
/// `null`.
@Suite struct SpreadsheetCSVTests {
    static func run(_ arguments: [String], input: String = "") -> (status: Int32, output: String, errors: String) {
        let output = MemorySink(), errors = MemorySink()
        let status = PhotoTag.run(arguments, input: MemoryInput(input), output: output, errors: errors)
        return (status, output.text, errors.text)
    }

    static let table =
        "id,lat,lon,note\n=1+1,48.85,2.35,=HYPERLINK(\"http://x\")\n2,-33.86,151.2,-12\n3,1,2,@SUM(A1)\n4,1,2,+x\n"

    static func rows(_ csv: String) throws -> [[String]] { try parseCSV(csv) }

    @Test func textCellsThatWouldBeFormulasGetAQuoteAndNumbersDoNot() throws {
        let guarded = try Self.rows(Self.run(["geocode", "--format", "csv", "--no-place"], input: Self.table).output)
        let header = guarded[0]
        let id = try #require(header.firstIndex(of: "input_id")),
            note = try #require(header.firstIndex(of: "input_note"))
        #expect(guarded.dropFirst().map { $0[id] } == ["'=1+1", "2", "3", "4"])
        #expect(guarded.dropFirst().map { $0[note] } == [#"'=HYPERLINK("http://x")"#, "-12", "'@SUM(A1)", "'+x"])
        let latitude = try #require(header.firstIndex(of: "latitude"))
        #expect(guarded[2][latitude] == "-33.86", "numbers are never touched")
        let raw = try Self.rows(
            Self.run(["geocode", "--format", "csv", "--no-place", "--no-formula-guard"], input: Self.table).output)
        #expect(raw.dropFirst().map { $0[note] } == [#"=HYPERLINK("http://x")"#, "-12", "@SUM(A1)", "+x"])
        #expect(CSVFormulaGuard.defused("\tx") == "'\tx" && CSVFormulaGuard.defused("Paris") == "Paris")
        #expect(CSVFormulaGuard.defused("+02:00") == "+02:00" && CSVFormulaGuard.defused("-1+1") == "-1+1")
        #expect(CSVFormulaGuard.defused("-1+cmd") == "'-1+cmd")
    }

    @Test func aFileNamedAsAFormulaIsDefusedInCSVAndExactInJSON() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: Fixtures.photo("ne-little-endian.jpg"), toPath: root + "/=cmd.jpg")
        let csv = try Self.rows(Self.run(["scan", "--format", "csv", "--no-place", "--max-depth", "1", root]).output)
        // The path given is the folder, so the file column starts with it: only a cell that starts
        // with a formula character is defused.
        #expect(csv[1][0] == root + "/=cmd.jpg")
        // Named from its own folder, the cell starts with `=`.
        let relative = try Binary.run(["locate", "--format", "csv", "--no-place", "=cmd.jpg"], directory: root)
        #expect(try Self.rows(relative.text)[1][0] == "'=cmd.jpg")
        let exact = try Binary.run(["locate", "--json", "--no-place", "=cmd.jpg"], directory: root)
        #expect(exact.text.contains(#""file": "=cmd.jpg""#))
    }
    @Test func bomStartsTheHeaderOnlyWhenAsked() {
        let plain = Self.run(["geocode", "--format", "csv", "--no-place", "1,2"]).output
        let marked = Self.run(["geocode", "--format", "csv", "--no-place", "--bom", "1,2"]).output
        #expect(Array(marked.utf8) == [0xEF, 0xBB, 0xBF] + Array(plain.utf8))
        #expect(!plain.hasPrefix("\u{FEFF}"))
        let refused = Self.run(["geocode", "--json", "--bom", "1,2"])
        #expect(refused.status == 64 && refused.errors.hasPrefix("Error: '--bom' is for --format csv"))
    }

    @Test func csvtGivesOneTypeForEachColumnInEveryShape() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let types = directory + "/out.csvt"
        for (arguments, input) in [
            (["locate", "--format", "csv", "--places", Fixtures.places, Fixtures.photo("no-exif.jpg")], ""),
            (
                [
                    "locate", "--format", "csv", "--nearest", "2", "--places", Fixtures.places,
                    Fixtures.photo("no-exif.jpg"),
                ], ""
            ),
            (["geocode", "--format", "csv", "--places", Fixtures.places], Self.table),
            (["geocode", "--format", "csv", "--nearest", "3", "--places", Fixtures.places, "1,2"], ""),
        ] {
            let result = Self.run(arguments + ["--csvt", types], input: input)
            let header = try Self.rows(result.output)[0]
            let line = try String(contentsOfFile: types, encoding: .utf8)
            let fields = try Self.rows(line)[0]
            #expect(fields.count == header.count, "\(arguments)")
            #expect(Set(fields).isSubset(of: ["Integer", "Real", "String"]))
            for (name, type) in [("latitude", "Real"), ("place_population", "Integer"), ("place_name", "String")] {
                if let index = header.firstIndex(of: name) { #expect(fields[index] == type, "\(name)") }
            }
        }
        let failed = Self.run(["geocode", "--format", "csv", "--no-place", "--csvt", "/nonexistent/x.csvt", "1,2"])
        #expect(failed.status == 2)
        #expect(failed.errors == "phototag: column types file '/nonexistent/x.csvt': no such file or directory\n")
    }

    /// GDAL reads a column that is empty in every row as text, unless a `.csvt` says its type.
    @Test(.enabled(if: ManualTests.available("ogrinfo"), "ogrinfo (Debian gdal-bin) is not installed"))
    func gdalKeepsTheTypeOfAColumnThatIsEmptyInEveryRow() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = Self.run([
            "locate", "--format", "csv", "--places", Fixtures.places, "--csvt", directory + "/photos.csvt",
            Fixtures.photo("no-exif.jpg"), Fixtures.photo("decimal-degrees.jpg"),
        ])
        try Data(result.output.utf8).write(to: URL(fileURLWithPath: directory + "/photos.csv"))
        let summary = try FormatTests.tool("ogrinfo", ["-ro", "-al", "-so", directory + "/photos.csv"])
        for (field, type) in [
            ("altitude", "Real"), ("speed", "Real"), ("latitude", "Real"), ("place_population", "Integer"),
        ] {
            #expect(summary.contains("\n\(field): \(type) "), "\(field) is not \(type): \(summary)")
        }
    }

    @Test func geoJSONWarningsAreEmptyNotNull() throws {
        let output = Self.run(["locate", "--format", "geojson", "--no-place", Fixtures.photo("decimal-degrees.jpg")])
            .output
        #expect(output.contains(#""warnings":"","#), "\(output)")
        #expect(!output.contains(#""warnings":null"#))
    }
}
