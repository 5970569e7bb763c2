import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

/// Which sidecar files belong to which photo, by name, among the files of one folder.
///
/// XMP: `NAME.EXT.xmp` (darktable, digiKam) before `NAME.xmp` (Lightroom), any case. Google
/// Takeout: `NAME.EXT.json` or `NAME.EXT.supplemental-metadata.json`; for `NAME(n).EXT`,
/// `NAME.EXT(n).json`; for an edited copy `NAME-edited.EXT`, the original's JSON; and names that
/// Takeout cut so that the JSON file's name is at most 51 characters (46 before `.json`). A
/// photo gets at most one XMP and one JSON sidecar; a sidecar may belong to several photos (a
/// raw and its JPEG share `NAME.xmp`).
struct SidecarPairing {
    /// The sidecars of the folder by their lowercased name (without `.json` and `(n)` for JSON).
    private var xmp: [String: [UInt8]] = [:]
    private var json: [JSONKey: [UInt8]] = [:]

    /// A JSON sidecar's name as matched: the part before `(n).json`, lowercased, and `n` (0 for none).
    private struct JSONKey: Hashable {
        var base: String
        var number: Int
    }

    /// The lengths, in characters, Takeout cuts the part before `.json` to.
    static let cutLengths = 41...46

    /// Indexes the sidecar names among `names` (the file names of one folder).
    init(names: [[UInt8]]) {
        for name in names {
            switch Sidecar.kind(ofName: name) {
            case .xmp?: xmp[Self.lowercased(name)] = name
            case .takeout?:
                let lower = Self.lowercased(name)
                var base = String(lower.dropLast(5))
                var number = 0
                if let (stem, n) = Self.splitNumber(base) { (base, number) = (stem, n) }
                json[JSONKey(base: base, number: number)] = json[JSONKey(base: base, number: number)] ?? name
            case nil: break
            }
        }
    }

    /// Whether the folder has any sidecar at all (most folders have none).
    var isEmpty: Bool { xmp.isEmpty && json.isEmpty }

    /// The sidecars of the photo named `photo`: its XMP one first, then its Takeout JSON.
    func sidecars(of photo: [UInt8]) -> [[UInt8]] {
        guard !isEmpty else { return [] }
        let name = Self.lowercased(photo)
        var found: [[UInt8]] = []
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) }
        if let match = xmp[name + ".xmp"] ?? stem.flatMap({ xmp[$0 + ".xmp"] }) { found.append(match) }
        if let match = takeout(name) { found.append(match) }
        return found
    }

    /// The Takeout JSON of a photo name (lowercased): exact names, then the `(n)` and `-edited`
    /// forms, then names cut at 46 characters.
    private func takeout(_ name: String) -> [UInt8]? {
        var forms = [JSONKey(base: name, number: 0)]
        if let dot = name.lastIndex(of: ".") {
            let stem = String(name[..<dot]), suffix = String(name[dot...])
            if let (original, n) = Self.splitNumber(stem) { forms.append(JSONKey(base: original + suffix, number: n)) }
            if stem.hasSuffix("-edited") { forms.append(JSONKey(base: String(stem.dropLast(7)) + suffix, number: 0)) }
        }
        for form in forms {
            for base in [form.base, form.base + ".supplemental-metadata"] {
                if let match = json[JSONKey(base: base, number: form.number)] { return match }
            }
        }
        for form in forms {
            for base in [form.base, form.base + ".supplemental-metadata"] {
                let characters = Array(base)
                for length in Self.cutLengths.reversed() where length < characters.count {
                    if let match = json[JSONKey(base: String(characters[..<length]), number: form.number)] {
                        return match
                    }
                }
            }
        }
        return nil
    }

    /// `name(3)` → (`name`, 3); `nil` without a number in parentheses at the end.
    private static func splitNumber(_ text: String) -> (String, Int)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard (1...4).contains(digits.count), digits.allSatisfy(\.isASCII), let number = Int(digits) else {
            return nil
        }
        return (String(text[..<open]), number)
    }

    /// A name with ASCII letters lowercased, as text (bytes that are not UTF-8 become U+FFFD).
    static func lowercased(_ name: [UInt8]) -> String {
        String(decoding: name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The sidecars of one photo given by path, found by listing its folder; `cache` keeps the
    /// last folder's pairing, so a list of many photos of one folder lists it once.
    static func sidecars(ofPath path: [UInt8], cache: inout (folder: [UInt8], pairing: SidecarPairing)?) -> [[UInt8]] {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { Array(path[...$0]) } ?? []
        let name = slash.map { Array(path[($0 + 1)...]) } ?? path
        if cache?.folder != folder {
            cache = (folder, SidecarPairing(names: listNames(folder.isEmpty ? [UInt8(ascii: ".")] : folder)))
        }
        return cache!.pairing.sidecars(of: name).map { folder + $0 }
    }

    /// The names in a folder (all of them; an unreadable folder has none).
    static func listNames(_ folder: [UInt8]) -> [[UInt8]] {
        let stream: DirectoryStream
        do { stream = try DirectoryStream(folder) } catch { return [] }
        var names: [[UInt8]] = []
        while let entry = stream.next() { names.append(entry.name) }
        return names
    }
}

/// How a photo's own reading and its sidecars' become one record.
enum SidecarMerge {
    /// Two positions further apart than this, in km, get a warning.
    static let disagreementKm = 0.1

    /// The record of a photo read with its sidecars (paths). The position embedded in the file
    /// wins when valid, and the first sidecar's valid one fills in; `preferSidecar` reverses the
    /// order. The capture time follows the same order.
    static func record(
        path: ArraySlice<UInt8>, reading embedded: GPSReading, sidecars: [[UInt8]], preferSidecar: Bool
    ) -> PhotoRecord {
        var record = PhotoRecord(path: path, reading: embedded)
        guard !sidecars.isEmpty else { return record }
        var read: [(name: String, reading: GPSReading)] = []
        for path in sidecars {
            guard let kind = Sidecar.kind(ofName: path) else { continue }
            let name = String(decoding: path, as: UTF8.self)
            let reading = Sidecar.read(path: path, kind: kind)
            if let error = reading.error {
                record.sidecarWarnings.append("sidecar \(name): \(error)")
            } else {
                read.append((name, reading))
            }
        }
        let located = read.first { $0.reading.status == .located }
        guard let chosen = located ?? read.first else { return record }
        record.sidecar = chosen.name
        let sidecar = chosen.reading
        if let own = embedded.fix, let other = sidecar.fix,
            let a = Coordinate(latitude: own.latitude, longitude: own.longitude),
            let b = Coordinate(latitude: other.latitude, longitude: other.longitude)
        {
            let km = a.distanceKm(to: b)
            if km > disagreementKm {
                let distance = km < 10 ? "\(Int(km * 1000)) m" : "\(Int(km.rounded())) km"
                record.sidecarWarnings.append(
                    "the position in the file and the one in \(chosen.name) are \(distance) apart; "
                        + "the \(preferSidecar ? "sidecar's" : "file's") is used")
            }
        }
        let useSidecar = sidecar.status == .located && (preferSidecar || embedded.status != .located)
        var reading = embedded
        if useSidecar {
            if let error = embedded.error { record.sidecarWarnings.append("the file itself: \(error)") }
            reading = sidecar
            reading.warnings = embedded.warnings + sidecar.warnings
        } else if embedded.status == .noGPS, sidecar.status == .invalidGPS {
            reading.status = .invalidGPS
            reading.warnings += sidecar.warnings
        } else if embedded.status != .located {
            reading.warnings += sidecar.warnings
        }
        // The capture time: the camera's own clock first, unless the sidecar is preferred.
        let sidecarTime = read.lazy.compactMap { $0.reading.camera }.first { $0.dateTimeOriginal != nil }
        if let sidecarTime, preferSidecar || embedded.camera?.dateTimeOriginal == nil {
            var camera = embedded.camera ?? CameraInfo()
            camera.dateTimeOriginal = sidecarTime.dateTimeOriginal
            camera.offsetTimeOriginal = sidecarTime.offsetTimeOriginal
            camera.subSecTimeOriginal = sidecarTime.subSecTimeOriginal
            reading.camera = camera
        } else {
            reading.camera = embedded.camera
        }
        record.reading = reading
        return record
    }

    /// The record of a sidecar read alone (no photo beside it, or named by itself).
    static func record(sidecar path: [UInt8], kind: Sidecar.Kind) -> PhotoRecord {
        var record = PhotoRecord(path: path[...], reading: Sidecar.read(path: path, kind: kind))
        record.sidecar = String(decoding: path, as: UTF8.self)
        return record
    }
}
