import ReverseGeocoding

// Numbers and labels shared by the formats: rounding, compass points, the text format's place
// and coordinate labels.

/// Distances are given to the metre: `0.724`.
func roundedDistance(_ km: Double) -> Double { (km * 1000).rounded() / 1000 }

/// Bearings are given in whole degrees, `0...359`.
func roundedBearing(_ degrees: Double) -> Int { Int(degrees.rounded()) % 360 }

/// The eight compass points, for a bearing in degrees.
func compassPoint(_ degrees: Double) -> String {
    ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][Int((degrees / 45).rounded()) % 8]
}

/// `Paris, Île-de-France, FR — 4.0 km W`: the place, and where the point lies from it; under
/// ``closeByKm`` (`0.0 km`), no compass point, since the bearing of a few metres says nothing.
/// With `--lang` (`names`), in the reader's language, the country named (`München, Bayern,
/// Deutschland — 0.0 km`), each name falling back to GeoNames'.
func placeLabel(_ match: PlaceMatch, names: LocalNames? = nil) -> String {
    let place = match.place
    var parts = [place.name, place.admin1, place.countryCode]
    if let names {
        let admin1 = place.admin1Code.flatMap { names.regionName(countryCode: place.countryCode, admin1Code: $0) }
        parts = [
            names.placeName(geonameId: place.geonameId) ?? place.name, admin1 ?? place.admin1,
            names.countryName(countryCode: place.countryCode) ?? place.country ?? place.countryCode,
        ]
    }
    let shown = parts.compactMap { $0 }.filter { !$0.isEmpty }
    let direction = match.distanceKm < closeByKm ? "" : " " + compassPoint(match.bearing)
    return shown.joined(separator: ", ") + " — \(fixed(match.distanceKm, 1)) km" + direction
}

/// How text names where a point is: `Passy, Paris, Île-de-France, FR — 1.4 km SE`, the named
/// place, the city when it is another place, the region and country that contain the point, and
/// where the point lies from the named place. At sea, the sea and then the nearest place with its
/// own region and country (`English Channel — nearest place Niton, England, GB, 45.7 km S`), or
/// outside every named sea the nearest place, then `(at sea)`. `nil` when no place is named.
/// With `--lang` (`names`, and the answer's own ``PlaceAnswer/names``), the names are the
/// reader's, each falling back to GeoNames', and the country is named, not coded (`München,
/// Bayern, Deutschland — 0.3 km`).
func placeLabel(_ answer: PlaceAnswer, names: LocalNames? = nil) -> String? {
    guard let named = answer.nearest else { return nil }
    let local = answer.names
    var parts = [local?.place ?? named.place.name]
    if let city = answer.distinctCity { parts.append(local?.city ?? city.place.name) }
    if answer.atSea {
        if let names {
            let place = named.place
            let admin1 = place.admin1Code.flatMap { names.regionName(countryCode: place.countryCode, admin1Code: $0) }
            parts += [admin1 ?? place.admin1, names.countryName(countryCode: place.countryCode) ?? place.country]
                .compactMap { $0 }
        } else {
            parts += [named.place.admin1, named.place.countryCode].compactMap { $0 }
        }
    } else if let local {
        parts += [local.admin1, local.country ?? answer.countryCode].compactMap { $0 }
    } else {
        parts += [answer.admin1, answer.countryCode].compactMap { $0 }
    }
    let direction = named.distanceKm < closeByKm ? "" : " " + compassPoint(named.bearing)
    let place = parts.filter { !$0.isEmpty }.joined(separator: ", ")
    if let sea = answer.sea, !sea.isEmpty {
        return sea + " — nearest place " + place + ", \(fixed(named.distanceKm, 1)) km" + direction
    }
    return place + " — \(fixed(named.distanceKm, 1)) km" + direction + (answer.atSea ? " (at sea)" : "")
}

/// `Île-de-France, FR`: the region and country that contain a point no place is named for; with
/// `--lang`, in the reader's language (`Île-de-France, Frankreich`).
func regionLabel(_ answer: PlaceAnswer) -> String? {
    let local = answer.names
    let parts = [local?.admin1 ?? answer.admin1, local?.country ?? answer.countryCode].compactMap { $0 }.filter {
        !$0.isEmpty
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
}

/// Under this distance (50 m, which text rounds to `0.0 km`), text gives no direction.
let closeByKm = 0.05

/// `value` rounded to `digits` decimals, without exponent notation: `fixed(2.2945, 6)` is
/// `2.294500`.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value.magnitude * scale).rounded()
    let whole = UInt64(scaled / scale)
    let fraction = UInt64(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fractionText = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}

/// How text output shows a coordinate (`--coordinates`).
enum CoordinateStyle: String, CaseIterable, Sendable {
    /// `48.858222, 2.294500`: decimal degrees to 6 places (about 0.1 m).
    case decimal
    /// `48°51'29.60"N   2°17'40.20"E`: degrees, minutes and seconds to 0.01" (about 0.3 m).
    case dms
}

/// `48.858222, 2.294500`, or with `.dms` `48°51'29.60"N   2°17'40.20"E` (always 28 columns:
/// the degrees right-aligned, minutes and seconds with two digits, so that lines line up; read
/// back by `geocode` as it is).
func coordinateText(_ latitude: Double, _ longitude: Double, style: CoordinateStyle = .decimal) -> String {
    switch style {
    case .decimal: "\(fixed(latitude, 6)), \(fixed(longitude, 6))"
    case .dms: "\(dmsText(latitude, width: 2, "N", "S")) \(dmsText(longitude, width: 3, "E", "W"))"
    }
}

/// One value in degrees, minutes and seconds to 0.01", with its hemisphere letter: `2°17'40.20"E`,
/// the degrees padded with spaces to `width` digits.
private func dmsText(_ degrees: Double, width: Int, _ positive: String, _ negative: String) -> String {
    let hundredths = Int((degrees.magnitude * 360_000).rounded())  // of a second of arc
    let whole = String(hundredths / 360_000)
    let minutes = hundredths / 6000 % 60
    let seconds = hundredths % 6000
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    return String(repeating: " ", count: max(0, width - whole.count)) + whole + "°" + twoDigits(minutes) + "'"
        + twoDigits(seconds / 100) + "." + twoDigits(seconds % 100) + "\""
        + (degrees < 0 && hundredths != 0 ? negative : positive)
}
