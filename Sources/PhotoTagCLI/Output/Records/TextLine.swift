import ReverseGeocoding

/// `geocode`'s text line for a point that names a place, written from the lookup's borrowed
/// bytes straight into the output (`48.853410, 2.348800        Paris, Île-de-France, FR — 0.0
/// km`), as ``RecordFormatter`` renders it from a record with `placeLabel(_:)` and
/// `coordinateText(_:_:style:)`: the text of a record, built of strings, cost three times its
/// NDJSON.
enum TextLine {
    /// Appends the line (without its newline) and returns true; returns false, writing nothing,
    /// when the line is not the plain case: no place named, or a name with a control character
    /// to escape. The caller then renders the record. With `--lang` (`names`, and the location's
    /// own ``UnsafeLocation/names``), the names are the reader's and the country is named, not
    /// coded (`München, Bayern, Deutschland`), as `placeLabel(_:names:)` has them.
    static func appendPlaced(
        _ coordinate: Coordinate, _ location: borrowing UnsafeLocation, names: LocalNames?, to out: ByteBuffer
    ) -> Bool {
        guard let named = location.nearest else { return false }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let local = location.names
        // The label's parts, as placeLabel(_:names:) takes them.
        var parts: [UnsafeRawBufferPointer] = [local?.place ?? named.view.name]
        if let city = location.city, city.view.geonameId != named.view.geonameId {
            parts.append(local?.city ?? city.view.name)
        }
        var countryCode: String? = nil
        if location.atSea {
            if let names {
                let own = names.placeRegionAndCountry(named.view)
                parts.append(own.admin1 ?? named.view.admin1 ?? empty)
                parts.append(own.country ?? named.view.country ?? named.view.countryCode)
            } else {
                parts.append(named.view.admin1 ?? empty)
                parts.append(named.view.countryCode)
            }
        } else if let local {
            parts.append(local.admin1 ?? empty)
            if let country = local.country { parts.append(country) } else { countryCode = location.countryCode }
        } else {
            parts.append(location.admin1 ?? empty)
            countryCode = location.countryCode
        }
        let sea = location.sea.flatMap { $0.isEmpty ? nil : $0 }
        guard parts.allSatisfy({ !hasControl($0) }), !(countryCode.map { hasControl(Array($0.utf8)) } ?? false),
            !(sea.map(hasControl) ?? false)
        else { return false }
        let start = out.count
        appendFixed(coordinate.latitude, 6, to: out)
        out.append(", ")
        appendFixed(coordinate.longitude, 6, to: out)
        let width = out.count - start
        if width < 23 { out.append(repeating: 0x20, count: 23 - width) }
        out.append("  ")
        if let sea {
            out.append(contentsOf: sea.bindMemory(to: UInt8.self))
            out.append(" \u{2014} nearest place ")
        }
        var first = true
        func part(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            if !first { out.append(", ") }
            first = false
            out.append(contentsOf: bytes.bindMemory(to: UInt8.self))
        }
        for bytes in parts { part(bytes) }
        if let countryCode, !countryCode.isEmpty {
            if !first { out.append(", ") }
            out.append(countryCode)
        }
        out.append(sea == nil ? " \u{2014} " : ", ")
        appendFixed(named.distanceKm, 1, to: out)
        out.append(" km")
        if named.distanceKm >= closeByKm {
            out.append(0x20)
            out.append(compassPoint(named.bearing))
        }
        if location.atSea, sea == nil { out.append(" (at sea)") }
        return true
    }

    /// Whether UTF-8 text holds a C0 or C1 control character or DEL, which text output escapes.
    private static func hasControl(_ bytes: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }

    /// `fixed(value, digits)` appended as bytes, by the same arithmetic.
    static func appendFixed(_ value: Double, _ digits: Int, to out: ByteBuffer) {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 1e18 else { return out.append(fixed(value, digits)) }
        let whole = UInt64(scaled / scale)
        let fraction = UInt64(scaled - Double(whole) * scale)
        if value < 0, scaled != 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(whole, width: 1, to: out)
        guard digits > 0 else { return }
        out.append(UInt8(ascii: "."))
        appendDigits(fraction, width: digits, to: out)
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func appendDigits(_ value: UInt64, width: Int, to out: ByteBuffer) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let total = max(count, width)
        out.write(atMost: total) { start in
            var value = value
            var at = start + total
            while at > start {
                at -= 1
                at.pointee = UInt8(0x30 + value % 10)
                value /= 10
            }
            return start + total
        }
    }
}
