import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

/// The sidecars a photo is read with, and what pairing had to say about them.
struct SidecarMatch: Sendable, Equatable {
    /// The sidecars to read, XMP first, then Takeout JSON (names, or full paths once joined).
    var paths: [[UInt8]] = []
    /// Sidecars whose names match the photo's but that are not read, with the photo's record
    /// saying why (a `NAME.xmp` hidden by `NAME.EXT.xmp`; names that differ only in case): they
    /// are no records of their own when hidden, and are when ambiguous.
    var shadowed: [[UInt8]] = []
    /// The warnings for the photo's record.
    var warnings: [String] = []
    /// Whether XMP names differ only in case and none was taken: `phototag tag` writes none.
    var ambiguousXMP = false

    /// No sidecar and nothing to say.
    var isEmpty: Bool { paths.isEmpty && warnings.isEmpty }

    /// Notes names that match the photo's only up to case, none of which is read.
    mutating func note(ambiguous names: [[UInt8]]) {
        let list = names.map { SidecarPairing.text($0) }.joined(separator: ", ")
        warnings.append("sidecars \(list) differ only in case and each could be the photo's; none is read")
        if names.contains(where: { Sidecar.kind(ofName: $0[...]) == .xmp }) { ambiguousXMP = true }
    }

    /// The same match with each name made a path in `folder` (`folder` ends in `/` or is empty).
    func joined(to folder: [UInt8]) -> SidecarMatch {
        SidecarMatch(
            paths: paths.map { folder + $0 }, shadowed: shadowed.map { folder + $0 }, warnings: warnings,
            ambiguousXMP: ambiguousXMP)
    }
}

/// Which sidecar files belong to which photo, by name, among the files of one folder.
///
/// XMP: `NAME.EXT.xmp` (darktable, digiKam) before `NAME.xmp` (Lightroom). Google Takeout:
/// `NAME.EXT.json` or `NAME.EXT.supplemental-metadata.json`; for `NAME(n).EXT`,
/// `NAME.EXT(n).json`; for an edited copy `NAME-edited.EXT` (or `-bearbeitet`, `-modifié`… in
/// the account's language: ``editedSuffixes``), the original's JSON; and names that
/// Takeout cut so that the JSON file's name is at most 51 characters (46 before `.json`). A
/// photo gets at most one XMP and one JSON sidecar; a sidecar may belong to several photos (a
/// raw and its JPEG share `NAME.xmp`).
///
/// Names are compared as bytes (they need not be UTF-8), the sidecar's own extension in any
/// case. A name that matches exactly wins; otherwise one that differs only in the case of ASCII
/// letters, when it is the only such name and no photo of the folder has its exact name (on a
/// case-sensitive file system `k1.jpg.xmp` is `k1.jpg`'s, never `K1.jpg`'s). Two or more such
/// names are ambiguous: none is read, with a warning. So the answer depends on neither the order
/// of the folder's listing nor whether the photo was named by `locate` or found by `scan`.
struct SidecarPairing {
    /// The XMP sidecars by their name less the extension, exactly and with ASCII case folded.
    private var xmp = Index<[UInt8]>()
    /// The Takeout sidecars by their name less `(n).json`, and `n`.
    private var json = Index<JSONKey>()
    /// The photos' names and their stems, exactly: a name that differs from a photo's only in
    /// case is not that photo's sidecar when the photo with the exact name is there too.
    private var photos = Set<[UInt8]>()

    /// A JSON sidecar's name as matched: the part before `(n).json`, and `n` (0 for none).
    private struct JSONKey: Hashable {
        var base: [UInt8]
        var number: Int
    }

    /// Names by exact key and by folded key, each list in byte order.
    private struct Index<Key: Hashable> {
        var exact: [Key: [[UInt8]]] = [:]
        var folded: [Key: [[UInt8]]] = [:]
        var isEmpty: Bool { exact.isEmpty }

        mutating func insert(_ name: [UInt8], exact key: Key, folded foldedKey: Key) {
            exact[key, default: []].append(name)
            folded[foldedKey, default: []].append(name)
        }

        mutating func sort() {
            for key in exact.keys { exact[key]!.sort(by: SidecarPairing.precedes) }
            for key in folded.keys { folded[key]!.sort(by: SidecarPairing.precedes) }
        }
    }

    /// What one name form finds.
    private enum Found {
        case none
        case one([UInt8])
        /// Several names that differ only in case (or in the case of their extension).
        case ambiguous([[UInt8]])
    }

    /// The lengths, in characters, Takeout cuts the part before `.json` to.
    static let cutLengths = 41...46

    /// Indexes the sidecar names among `names` (the file names of one folder; any other names
    /// are the folder's photos).
    init(names: [[UInt8]]) {
        var others: [[UInt8]] = []
        for name in names {
            switch Sidecar.kind(ofName: name) {
            case .xmp?:
                let base = Array(name.dropLast(4))
                xmp.insert(name, exact: base, folded: Self.folded(base))
            case .takeout?:
                var base = Array(name.dropLast(5)), number = 0
                if let (stem, n) = Self.splitNumber(base) { (base, number) = (stem, n) }
                json.insert(
                    name, exact: JSONKey(base: base, number: number),
                    folded: JSONKey(base: Self.folded(base), number: number))
            case nil: others.append(name)
            }
        }
        xmp.sort()
        json.sort()
        guard !isEmpty else { return }
        addPhotos(others.lazy.map { $0[...] })
    }

    /// Whether the folder has any sidecar at all (most folders have none).
    var isEmpty: Bool { xmp.isEmpty && json.isEmpty }

    /// Adds the photo names of `names` that a folded match must not take a sidecar from (the
    /// walker indexes only the sidecars of a folder and adds its photos when there are any).
    mutating func addPhotos(_ names: some Sequence<ArraySlice<UInt8>>) {
        for name in names {
            photos.insert(Array(name))
            if let dot = name.lastIndex(of: UInt8(ascii: ".")) { photos.insert(Array(name[..<dot])) }
        }
    }

    /// The sidecars of the photo named `photo`: its XMP one first, then its Takeout JSON.
    func sidecars(of photo: [UInt8]) -> SidecarMatch {
        var match = SidecarMatch()
        guard !isEmpty else { return match }
        let stem = photo.lastIndex(of: UInt8(ascii: ".")).map { Array(photo[..<$0]) }
        // NAME.EXT.xmp, then NAME.xmp; an XMP of the stem beside the one read is hidden by it.
        switch lookXMP(photo) {
        case .one(let name):
            match.paths.append(name)
            if let stem {
                let hidden: [[UInt8]]
                switch lookXMP(stem) {
                case .none: hidden = []
                case .one(let other): hidden = [other]
                case .ambiguous(let others): hidden = others
                }
                for other in hidden {
                    match.shadowed.append(other)
                    match.warnings.append("sidecar \(Self.text(other)) is not read: \(Self.text(name)) is the photo's")
                }
            }
        case .ambiguous(let names): match.note(ambiguous: names)
        case .none:
            if let stem {
                switch lookXMP(stem) {
                case .one(let name): match.paths.append(name)
                case .ambiguous(let names): match.note(ambiguous: names)
                case .none: break
                }
            }
        }
        switch takeout(photo) {
        case .one(let name): match.paths.append(name)
        case .ambiguous(let names): match.note(ambiguous: names)
        case .none: break
        }
        return match
    }

    /// The names of `index` for `key`: the exact ones, else the folded ones when no photo is
    /// named `owner` exactly (then the names are another photo's, differing only in case).
    private func look<Key: Hashable>(
        _ index: Index<Key>, _ key: Key, folded: Key, owner: ([UInt8]) -> Bool
    ) -> Found {
        if let names = index.exact[key] { return names.count == 1 ? .one(names[0]) : .ambiguous(names) }
        guard let names = index.folded[folded]?.filter({ !owner($0) }), !names.isEmpty else { return .none }
        return names.count == 1 ? .one(names[0]) : .ambiguous(names)
    }

    /// The XMP names for `key` (a photo's name or stem); one that differs only in case is
    /// another photo's when a photo has its exact base name.
    private func lookXMP(_ key: [UInt8]) -> Found {
        look(xmp, key, folded: Self.folded(key)) { name in photos.contains(Array(name.dropLast(4))) }
    }

    private func look(_ key: JSONKey) -> Found {
        look(json, key, folded: JSONKey(base: Self.folded(key.base), number: key.number)) { name in
            // The photo a JSON name is exactly for: its base, less `.supplemental-metadata`.
            var base = Array(name.dropLast(5))
            if let (stem, _) = Self.splitNumber(base) { base = stem }
            if base.count > Self.supplemental.count,
                Self.folded(Array(base.suffix(Self.supplemental.count))) == Self.supplemental
            {
                base.removeLast(Self.supplemental.count)
            }
            return photos.contains(base)
        }
    }

    private static let supplemental = Array(".supplemental-metadata".utf8)

    /// The suffixes Google Photos gives the name of an edited copy, in the account's language
    /// (`IMG_1234-bearbeitet.jpg` beside `IMG_1234.jpg`): the original's JSON is the copy's. As
    /// the public Takeout tools collect them (GooglePhotosTakeoutHelper and its forks,
    /// google-photos-migrate, PhotoMigrator and others), lower case, each in NFC and,
    /// for names written on macOS, NFD (accents and Hangul decomposed). ASCII letters are matched
    /// in any case.
    static let editedSuffixes: [[UInt8]] = {
        let suffixes = [
            "-edited",  // English
            "-bearbeitet",  // German
            "-modifi\u{E9}",  // French: modifié
            "-modificato",  // Italian
            "-bewerkt",  // Dutch
            "-edytowane",  // Polish
            "-editado",  // Spanish, Portuguese
            "-ha editado",  // Spanish
            "-editat",  // Catalan
            "-muokattu",  // Finnish
            "-redigerad",  // Swedish
            "-redigert",  // Norwegian
            "-redigeret",  // Danish
            "-upraven\u{E9}",  // Slovak: upravené
            "-d\u{FC}zenlendi",  // Turkish: düzenlendi
            "-\u{438}\u{437}\u{43C}\u{435}\u{43D}\u{435}\u{43D}\u{43D}\u{44B}\u{439}",  // Russian: измененный
            // Ukrainian: відредаговано
            "-\u{432}\u{456}\u{434}\u{440}\u{435}\u{434}\u{430}\u{433}\u{43E}\u{432}\u{430}\u{43D}\u{43E}",
            "-\u{7DE8}\u{96C6}\u{6E08}\u{307F}",  // Japanese: 編集済み
            "-\u{7F16}\u{8F91}",  // Chinese (simplified): 编辑
            "-\u{5DF2}\u{4FEE}\u{6539}",  // Chinese (simplified): 已修改
            "-\u{5DF2}\u{7DE8}\u{8F2F}",  // Chinese (traditional): 已編輯
            "-\u{D3B8}\u{C9D1}\u{B428}",  // Korean: 편집됨
        ]
        var forms: [[UInt8]] = []
        for suffix in suffixes {
            for form in [Array(suffix.utf8), Array(decomposed(suffix).utf8)] where !forms.contains(form) {
                forms.append(form)
            }
        }
        // Longest first: a suffix that ends another is tried after it.
        return forms.sorted { $0.count > $1.count }
    }()

    /// `text` in NFD as far as the suffixes above need it: é and ü decomposed, and Hangul
    /// syllables into their jamo (the algorithm of Unicode's chapter 3.12).
    static func decomposed(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xE9: scalars += ["e", "\u{301}"]
            case 0xFC: scalars += ["u", "\u{308}"]
            case 0xAC00...0xD7A3:
                let index = scalar.value - 0xAC00
                scalars.append(Unicode.Scalar(0x1100 + index / 588)!)
                scalars.append(Unicode.Scalar(0x1161 + index % 588 / 28)!)
                if index % 28 != 0 { scalars.append(Unicode.Scalar(0x11A7 + index % 28)!) }
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The Takeout JSON of a photo name: exact names, then the `(n)` and `-edited` forms, then
    /// names cut at 46 characters.
    private func takeout(_ name: [UInt8]) -> Found {
        var forms = [JSONKey(base: name, number: 0)]
        if let dot = name.lastIndex(of: UInt8(ascii: ".")) {
            let stem = Array(name[..<dot]), suffix = Array(name[dot...])
            if let (original, n) = Self.splitNumber(stem) { forms.append(JSONKey(base: original + suffix, number: n)) }
            for edited in Self.editedSuffixes
            where stem.count > edited.count && Self.folded(Array(stem.suffix(edited.count))) == edited {
                forms.append(JSONKey(base: Array(stem.dropLast(edited.count)) + suffix, number: 0))
                break
            }
        }
        for form in forms {
            for base in [form.base, form.base + Self.supplemental] {
                let found = look(JSONKey(base: base, number: form.number))
                if case .none = found { continue }
                return found
            }
        }
        for form in forms {
            for base in [form.base, form.base + Self.supplemental] {
                for length in Self.cutLengths.reversed() {
                    guard let cut = Self.prefix(base, characters: length) else { continue }
                    let found = look(JSONKey(base: cut, number: form.number))
                    if case .none = found { continue }
                    return found
                }
            }
        }
        return .none
    }

    /// The first `count` characters of `name` as bytes, when it has more: characters of UTF-8
    /// text, or bytes of a name that is not UTF-8.
    static func prefix(_ name: [UInt8], characters count: Int) -> [UInt8]? {
        guard name.count > count else { return nil }
        guard name.withUnsafeBytes({ isValidUTF8($0) }) else { return Array(name.prefix(count)) }
        let characters = Array(String(decoding: name, as: UTF8.self))
        guard characters.count > count else { return nil }
        return Array(String(characters[..<count]).utf8)
    }

    /// `name(3)` → (`name`, 3); `nil` without a number in parentheses at the end.
    private static func splitNumber(_ text: [UInt8]) -> ([UInt8], Int)? {
        guard text.last == UInt8(ascii: ")"), let open = text.lastIndex(of: UInt8(ascii: "(")) else { return nil }
        let digits = text[(open + 1)..<(text.count - 1)]
        guard (1...4).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return (Array(text[..<open]), digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }

    /// A name with ASCII letters lowercased, bytes otherwise as they are.
    static func folded(_ name: [UInt8]) -> [UInt8] {
        name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    /// Byte order, for lists of names that must not depend on the order of a listing.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool { a.lexicographicallyPrecedes(b) }

    /// A name as text for a warning (bytes that are not UTF-8 become U+FFFD).
    static func text(_ name: [UInt8]) -> String { String(decoding: name, as: UTF8.self) }

    /// The sidecars of one photo given by path, found by listing its folder; `cache` keeps the
    /// last folder's pairing, so a list of many photos of one folder lists it once.
    static func sidecars(ofPath path: [UInt8], cache: inout (folder: [UInt8], pairing: SidecarPairing)?) -> SidecarMatch
    {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { Array(path[...$0]) } ?? []
        let name = slash.map { Array(path[($0 + 1)...]) } ?? path
        if cache?.folder != folder {
            cache = (folder, SidecarPairing(names: listNames(folder.isEmpty ? [UInt8(ascii: ".")] : folder)))
        }
        return cache!.pairing.sidecars(of: name).joined(to: folder)
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
        path: ArraySlice<UInt8>, reading embedded: GPSReading, sidecars match: SidecarMatch, preferSidecar: Bool
    ) -> PhotoRecord {
        var record = PhotoRecord(path: path, reading: embedded)
        record.sidecarWarnings = match.warnings
        guard !match.paths.isEmpty else { return record }
        var read: [(name: String, reading: GPSReading)] = []
        for path in match.paths {
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
            camera.timeSource = sidecarTime.timeSource
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
