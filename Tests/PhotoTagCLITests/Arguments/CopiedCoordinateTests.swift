import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI
@testable import ReverseGeocoding

/// The Eiffel Tower's coordinate as five sites print it, copied with the invisible characters
/// they hide in it: every form gives the same point (48.85806, 2.29444) within 1e-4°, through
/// the parser, as `geocode` arguments and as lines of its standard input.
///
/// Invisible characters are written as escapes, so that this file shows them.
@Suite struct CopiedCoordinateTests {
    static let eiffelTower = (latitude: 48.85806, longitude: 2.29444)

    /// (where it is printed, the text as copied)
    static let copied: [(String, String)] = [
        // Wikipedia's {{coord}}: the DMS form, the decimal forms, the whole line with its label
        // and the U+FEFF around each " / " (the third form is hidden on the page, but copied
        // from its source), and the parts of it a selection takes.
        ("Wikipedia DMS", "48°51′29″N 2°17′40″E"),
        ("Wikipedia decimal", "48.85806°N 2.29444°E"),
        ("Wikipedia geo", "48.85806; 2.29444"),
        (
            "Wikipedia, the whole line",
            "Coordinates: 48°51′29″N 2°17′40″E\u{FEFF} / \u{FEFF}48.85806°N 2.29444°E\u{FEFF} / 48.85806; 2.29444"
        ),
        ("Wikipedia, the visible line", "Coordinates: 48°51′29″N 2°17′40″E\u{FEFF} / \u{FEFF}48.85806°N 2.29444°E"),
        ("Wikipedia, a selection from the middle", "\u{FEFF}48.85806°N 2.29444°E\u{FEFF}"),
        ("Wikipedia, the two forms", "48°51′29″N 2°17′40″E\u{FEFF} / \u{FEFF}48.85806°N 2.29444°E"),
        ("Wikipedia, no-break space", "48°51′29″N\u{A0}2°17′40″E"),
        ("Wikipedia, narrow no-break space", "48.85806°N\u{202F}2.29444°E"),
        ("zero-width space and word joiner", "\u{200B}48.85806; 2.29444\u{2060}"),
        // OpenStreetMap: the search box and "Show address", its geo: URI, its URL fragment.
        ("OpenStreetMap", "48.85806, 2.29444"),
        ("OpenStreetMap geo URI", "geo:48.85806,2.29444"),
        ("OpenStreetMap geo URI with zoom", "geo:48.85806,2.29444?z=17"),
        ("OpenStreetMap URL", "https://www.openstreetmap.org/#map=17/48.85806/2.29444"),
        ("OpenStreetMap URL fragment", "#map=17/48.85806/2.29444"),
        (
            "OpenStreetMap marker URL",
            "https://www.openstreetmap.org/?mlat=48.85806&mlon=2.29444#map=17/48.85806/2.29444&layers=N"
        ),
        // Google Maps: the right-click menu (six decimals) and the place panel (DMS, ASCII marks).
        ("Google Maps", "48.858060, 2.294440"),
        ("Google Maps DMS", #"48°51'29.0"N 2°17'40.0"E"#),
        // Apple Maps: the place card.
        ("Apple Maps", "48.85806° N, 2.29444° E"),
        ("Apple Maps, no-break spaces", "48.85806°\u{A0}N, 2.29444°\u{A0}E"),
        // GeoHack: its decimal, DMS and lettered decimal lines.
        ("GeoHack", "48.858056; 2.294444"),
        ("GeoHack DMS", "48° 51′ 29″ N, 2° 17′ 40″ E"),
        ("GeoHack decimal with letters", "48.858056 N 2.294444 E"),
        ("GeoHack decimal with degrees", "48.858056°N 2.294444°E"),
    ]

    @Test(arguments: copied)
    func aCoordinateCopiedFromAWebPageIsRead(site: String, text: String) throws {
        let coordinate = try parseCoordinate(Array(text.utf8)[...]).get()
        #expect(abs(coordinate.latitude - Self.eiffelTower.latitude) < 1e-4, "\(site): \(coordinate)")
        #expect(abs(coordinate.longitude - Self.eiffelTower.longitude) < 1e-4, "\(site): \(coordinate)")
    }

    @Test func geocodeReadsThemAsArgumentsAndAsLines() throws {
        let texts = Self.copied.map(\.1)
        for run in [
            GeocodeInputTests.run(["geocode", "--no-place", "--format", "ndjson"] + texts),
            GeocodeInputTests.run(
                ["geocode", "--no-place", "--format", "ndjson"], input: texts.joined(separator: "\n") + "\n"),
        ] {
            #expect(run.status == PhotoTag.ExitStatus.success, "\(run.errors)")
            #expect(run.errors == "")
            let records = try GeocodeInputTests.records(run)
            #expect(records.count == texts.count)
            for (record, text) in zip(records, texts) {
                let latitude = try #require(record["latitude"] as? Double, "\(text.debugDescription)")
                let longitude = try #require(record["longitude"] as? Double, "\(text.debugDescription)")
                #expect(abs(latitude - Self.eiffelTower.latitude) < 1e-4, "\(text.debugDescription)")
                #expect(abs(longitude - Self.eiffelTower.longitude) < 1e-4, "\(text.debugDescription)")
            }
        }
    }

    /// The whole Wikipedia line gives its last form exactly; the DMS form, to the second.
    @Test func theFormsOfOneLineAgreeAndTheLastIsTaken() throws {
        let whole = try parseCoordinate(Array(Self.copied[3].1.utf8)[...]).get()
        #expect(whole.latitude == 48.85806 && whole.longitude == 2.29444)
        let dms = try parseCoordinate(Array(Self.copied[0].1.utf8)[...]).get()
        #expect(abs(dms.latitude - (48 + 51 / 60 + 29 / 3600)) < 1e-12)
        #expect(abs(dms.longitude - (2 + 17 / 60 + 40 / 3600)) < 1e-12)
        #expect(try parseCoordinate(Array("1;2".utf8)[...]).get() == Coordinate(latitude: 1, longitude: 2))
    }

    /// What cannot be read as one point is still refused, and says why.
    @Test(
        arguments: [
            // Decimal commas and a semicolon (a European spreadsheet): refused, not guessed at,
            // since a comma separates the two values everywhere else; the message shows the
            // reading meant.
            (
                "48,85806;2,29444",
                "'48,85806;2,29444': decimal commas are not read (a comma separates the values); did you mean '48.85806; 2.29444'?"
            ),
            (
                "48,85806; 2,29444",
                "'48,85806; 2,29444': decimal commas are not read (a comma separates the values); did you mean '48.85806; 2.29444'?"
            ),
            // Without the semicolon it is truly ambiguous (48 and 85806, or 48.85806?): refused.
            (
                "48,85806 2,29444",
                "expected 'latitude,longitude' (or separated by a tab or spaces), got '48,85806 2,29444'"
            ),
            (
                "48,85806 ; 2,29444",
                "'48,85806 ; 2,29444': decimal commas are not read (a comma separates the values); did you mean '48.85806; 2.29444'?"
            ),
            // Two different points in forms of one.
            (
                "48.85806, 2.29444 / 40.68925, -74.0445",
                "'48.85806, 2.29444 / 40.68925, -74.0445': the forms separated by '/' are different points; give one of them"
            ),
            (
                "48.85806, 2.29444 /  / 48.85806, 2.29444",
                "'48.85806, 2.29444 /  / 48.85806, 2.29444': a '/' with no coordinate on one side"
            ),
            ("Coordinates: 48°51′29″N", "'48°51′29″N': expected a latitude and a longitude, found 1 value"),
            (
                "geo:48.85806",
                "'geo:48.85806': a geo: URI holds a latitude, a longitude and maybe an altitude: geo:48.85806,2.29444"
            ),
            (
                "geo:48.85806,2.29444;crs=epsg3857",
                "'geo:48.85806,2.29444;crs=epsg3857': only geo: URIs in WGS 84 are read (crs=wgs84)"
            ),
            ("geo:91,2", "latitude 91 is out of range (-90 to 90)"),
            (
                "#map=48.85806/2.29444",
                "'#map=48.85806/2.29444': a map URL holds #map=zoom/latitude/longitude: #map=17/48.85806/2.29444"
            ),
            // Numbers without marks or letters are as ambiguous with invisible characters as without.
            ("48 51 29\u{FEFF}, 2 17 40", "'48 51 29' is not a number"),
            // Invisible characters do not join two numbers into one.
            (
                "48.85\u{200B}806 2.29444 1",
                "expected 'latitude,longitude' (or separated by a tab or spaces), got '48.85806 2.29444 1'"
            ),
        ] as [(String, String)])
    func whatIsNotOnePointIsRefused(text: String, message: String) {
        switch parseCoordinate(Array(text.utf8)[...]) {
        case .success(let coordinate): Issue.record("\(text.debugDescription) read as \(coordinate)")
        case .failure(let problem): #expect(problem.description == message, "\(text.debugDescription)")
        }
    }
}
