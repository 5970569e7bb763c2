import PhotoTagSupport

/// A place of the table seen in place: numbers read directly and text fields as UTF-8 bytes
/// borrowed from the table (valid UTF-8, checked when the table was opened), with no `String`
/// made. The bytes stay valid for as long as the ``ReverseGeocoder`` it came from.
///
/// `package`, not `public`: nothing but the caller's care keeps the geocoder alive while its views
/// and their bytes are used, which is fine inside this package (the CLI holds its geocoder for the
/// whole run) but not a promise a public API can make. The public API gives ``Place``s, whose
/// strings are their own.
package struct PlaceView: Sendable {
    /// A view and where the query point lies from it.
    package struct Match: Sendable {
        package let view: PlaceView
        package let distanceKm: Double
        package let bearing: Double

        /// The same result as a ``PlaceMatch``, with its strings made.
        package var placeMatch: PlaceMatch {
            PlaceMatch(place: view.place, distanceKm: distanceKm, bearing: bearing)
        }
    }

    /// Not retained: a view is only valid while its geocoder lives (its text is the geocoder's
    /// bytes), and geocode makes millions of views, whose reference counting would be a large
    /// part of its time.
    private unowned(unsafe) let geocoder: ReverseGeocoder
    /// Where the place is in its geocoder's table: one place per slot, so a key for what is
    /// worked out from the place alone (`geocode` keeps its JSON by slot).
    package let slot: Int

    init(geocoder: ReverseGeocoder, slot: Int) {
        self.geocoder = geocoder
        self.slot = slot
    }

    private var table: UnsafePlaceTable { geocoder.table }
    func region(_ field: Int) -> UnsafeRawBufferPointer? {
        table.regionIndex(at: slot).flatMap { table.utf8(at: table.regionString($0, field: field)) }
    }

    /// Every field at once: one call and one read of the row, for callers that write them all
    /// (each property below is a call of its own).
    package var fields: Fields {
        let table = table, slot = slot
        let strings = table.stringOffsets(at: slot), (latitude, longitude) = table.coordinate(at: slot)
        let region = table.regionIndex(at: slot)
        func regionString(_ field: Int) -> UnsafeRawBufferPointer? {
            region.flatMap { table.utf8(at: table.regionString($0, field: field)) }
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return Fields(
            geonameId: Int(table.geonameId(at: slot)), name: table.utf8(at: strings.name) ?? empty,
            asciiName: table.utf8(at: strings.asciiName) ?? empty, admin1: regionString(3), admin2: regionString(5),
            countryCode: regionString(0) ?? empty, country: regionString(1), timeZone: table.utf8(at: strings.timezone),
            population: Int(clamping: table.population(at: slot)), featureCode: table.utf8(at: strings.featureCode),
            latitude: latitude, longitude: longitude)
    }

    /// The fields that are the place's own rather than its region's, from one read of the row:
    /// what `geocode` writes of the named place and the city (the region's names are the point's).
    package var ownFields:
        (
            geonameId: Int, name: UnsafeRawBufferPointer, asciiName: UnsafeRawBufferPointer, population: Int,
            featureCode: UnsafeRawBufferPointer?, latitude: Double, longitude: Double
        )
    {
        let table = table, slot = slot
        let strings = table.stringOffsets(at: slot), (latitude, longitude) = table.coordinate(at: slot)
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return (
            Int(table.geonameId(at: slot)), table.utf8(at: strings.name) ?? empty,
            table.utf8(at: strings.asciiName) ?? empty, Int(clamping: table.population(at: slot)),
            table.utf8(at: strings.featureCode), latitude, longitude
        )
    }

    /// A place's fields, its text borrowed from the table (see ``PlaceView``).
    package struct Fields {
        package let geonameId: Int
        package let name: UnsafeRawBufferPointer
        package let asciiName: UnsafeRawBufferPointer
        package let admin1: UnsafeRawBufferPointer?
        package let admin2: UnsafeRawBufferPointer?
        package let countryCode: UnsafeRawBufferPointer
        package let country: UnsafeRawBufferPointer?
        package let timeZone: UnsafeRawBufferPointer?
        package let population: Int
        package let featureCode: UnsafeRawBufferPointer?
        package let latitude: Double
        package let longitude: Double
    }

    package var geonameId: Int { Int(table.geonameId(at: slot)) }
    package var population: Int { Int(clamping: table.population(at: slot)) }
    package var latitude: Double { table.coordinate(at: slot).latitude }
    package var longitude: Double { table.coordinate(at: slot).longitude }
    package var name: UnsafeRawBufferPointer {
        table.utf8(at: table.stringOffsets(at: slot).name) ?? .init(start: nil, count: 0)
    }
    package var asciiName: UnsafeRawBufferPointer {
        table.utf8(at: table.stringOffsets(at: slot).asciiName) ?? .init(start: nil, count: 0)
    }
    package var featureCode: UnsafeRawBufferPointer? { table.utf8(at: table.stringOffsets(at: slot).featureCode) }
    package var timeZone: UnsafeRawBufferPointer? { table.utf8(at: table.stringOffsets(at: slot).timezone) }
    package var countryCode: UnsafeRawBufferPointer { region(0) ?? .init(start: nil, count: 0) }
    package var country: UnsafeRawBufferPointer? { region(1) }
    package var admin1: UnsafeRawBufferPointer? { region(3) }
    package var admin2: UnsafeRawBufferPointer? { region(5) }

    /// The place with its strings made (as ``ReverseGeocoder/nearestPlace(to:filter:)`` gives it).
    package var place: Place { geocoder.place(at: slot) }
}

extension PlaceView {
    /// ``Place/municipalityCode`` as UTF-8 borrowed from the table, with no `String` made.
    package var municipalityCode: UnsafeRawBufferPointer? {
        let table = table, slot = slot
        guard let region = table.regionIndex(at: slot),
            let country = table.utf8(at: table.regionString(region, field: 0))
        else { return nil }
        switch Place.municipalityLevel(country) {
        case 2: return table.utf8(at: table.regionString(region, field: 4))
        case 3: return table.utf8(at: table.lowerAdminCodes(at: slot).admin3)
        case 4: return table.utf8(at: table.lowerAdminCodes(at: slot).admin4)
        default: return nil
        }
    }
}

extension Place {
    /// ``municipalityLevel`` by the two letters of a country code, 0 for none: a table of
    /// 26 × 26 entries made from it once, so that a borrowed code needs no `String`.
    private static let levelsByLetters: [UInt8] = {
        var levels = [UInt8](repeating: 0, count: 26 * 26)
        for (code, level) in municipalityLevel {
            let letters = Array(code.utf8)
            levels[Int(letters[0] - 0x41) * 26 + Int(letters[1] - 0x41)] = UInt8(level)
        }
        return levels
    }()

    /// ``municipalityLevel`` of a country code given as UTF-8; 0 for a country without one.
    package static func municipalityLevel(_ code: UnsafeRawBufferPointer) -> Int {
        guard code.count == 2, (0x41...0x5A).contains(code[0]), (0x41...0x5A).contains(code[1]) else { return 0 }
        return Int(levelsByLetters[Int(code[0] - 0x41) * 26 + Int(code[1] - 0x41)])
    }
}
