import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

/// `phototag tag`'s own settings; the rest are `scan`'s (``ScanOptions/tag``).
struct TagOptions: Equatable, Sendable {
    /// `--dry-run`: say what would be written, write nothing.
    var dryRun = false
    /// `--overwrite`: replace values already in a sidecar.
    var overwrite = false
    /// `--sidecar-name`: the form of a new sidecar's name, and which to update when both exist.
    var sidecarName: SidecarName? = nil

    /// The two names a photo's XMP sidecar goes by.
    enum SidecarName: String, CaseIterable, Sendable {
        /// `NAME.EXT.xmp`: darktable, digiKam, ExifTool's `%d%f.%e.xmp`.
        case ext
        /// `NAME.xmp`: Lightroom, Capture One, ExifTool's `%d%f.xmp`.
        case stem
    }
}

extension TagOptions {
    /// The tag settings of a parsed command line.
    init(_ reader: OptionReader) throws(UsageError) {
        if let format = reader.value(Options.format), let chosen = OutputFormat(rawValue: format), chosen.isMap {
            throw reader.error(
                "tag writes records, not maps: '\(Options.format.name) \(format)' is for locate and scan")
        }
        // The CSV is for ExifTool to write the photos: with tag, instead of the sidecars.
        if reader.value(Options.format) == OutputFormat.exiftoolCSV.rawValue, !reader.has(Options.dryRun) {
            throw reader.error(
                "'\(Options.format.name) exiftool-csv' with tag needs '\(Options.dryRun.name)': tag writes sidecars, "
                    + "the CSV is for exiftool to write the photos")
        }
        dryRun = reader.has(Options.dryRun)
        overwrite = reader.has(Options.overwrite)
        if let text = reader.value(Options.sidecarName) {
            guard let name = SidecarName(rawValue: text) else {
                throw reader.error("unknown sidecar name '\(text)' (choose from ext, stem)")
            }
            sidecarName = name
        }
    }
}

/// What `tag` did with one photo's sidecar, for its record.
struct SidecarTagging: Sendable {
    enum Action: String, Sendable {
        /// A new sidecar was written.
        case created
        /// An existing sidecar was written.
        case updated
        /// The sidecar has every property already (or keeps its own values): nothing written.
        case unchanged
        /// `--dry-run`: a new sidecar would be written.
        case wouldCreate = "would-create"
        /// `--dry-run`: an existing sidecar would be written.
        case wouldUpdate = "would-update"
        /// phototag found nothing to write (no position, place or time of its own finding).
        case nothing
        /// The sidecar could not be read, is not XMP, or could not be written: it is as it was.
        case failed
    }

    /// The sidecar's path; `nil` when none was chosen (two candidates, nothing to write).
    var path: String?
    var action: Action
    /// Each property phototag would set, with what became of it.
    var properties: [XMPPropertyOutcome] = []
    /// Why it failed.
    var error: String? = nil

    /// Whether a file was (or, in a dry run, would be) written.
    var writes: Bool { [.created, .updated, .wouldCreate, .wouldUpdate].contains(action) }
}

/// The XMP properties phototag sets for a photo's record, under their standard names.
enum SidecarProperties {
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    static let iptcExt = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
    /// phototag's own namespace, for where the position came from and which phototag wrote it.
    static let phototag = "urn:phototag:xmp:1.0#"

    static func text(_ namespace: String, _ prefix: String, _ name: String, _ value: String) -> XMPProperty {
        XMPProperty(namespace: namespace, prefix: prefix, name: name, value: .text(value))
    }

    /// Degrees as XMP's `DDD,MM.mmmmmmmmK`: whole degrees, minutes with 8 decimals (1e-10°).
    static func coordinate(_ degrees: Double, positive: String, negative: String) -> String {
        let magnitude = abs(degrees)
        var whole = Int(magnitude)
        var minutes = ((magnitude - Double(whole)) * 60 * 1e8).rounded() / 1e8
        if minutes >= 60 {
            whole += 1
            minutes -= 60
        }
        return "\(whole),\(fixed(minutes, decimals: 8))\(degrees < 0 ? negative : positive)"
    }

    /// `value` with exactly `decimals` decimals, whatever the locale.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return (value < 0 && scaled != 0 ? "-" : "") + String(scaled / scale) + "."
            + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// The properties to set for `record` and phototag's provenance beside them: the position
    /// and place of ``PhotoTags`` (what `--format exiftool-csv` writes, from the same rules), and
    /// the capture time when phototag found the offset the photo lacks.
    static func of(_ record: PhotoRecord, allPositions: Bool) -> (set: [XMPProperty], provenance: [XMPProperty]) {
        var properties: [XMPProperty] = []
        let tags = PhotoTags(record, allPositions: allPositions)
        if let position = tags?.position {
            properties.append(
                XMPProperty(
                    namespace: exif, prefix: "exif", name: "GPSLatitude",
                    value: .text(coordinate(position.latitude, positive: "N", negative: "S")),
                    comparison: .coordinate, group: 1))
            properties.append(
                XMPProperty(
                    namespace: exif, prefix: "exif", name: "GPSLongitude",
                    value: .text(coordinate(position.longitude, positive: "E", negative: "W")),
                    comparison: .coordinate, group: 1))
            if let altitude = position.altitude {
                let centimetres = Int64((abs(altitude) * 100).rounded())
                properties.append(
                    XMPProperty(
                        namespace: exif, prefix: "exif", name: "GPSAltitude", value: .text("\(centimetres)/100"),
                        comparison: .rational, group: 2))
                properties.append(
                    XMPProperty(
                        namespace: exif, prefix: "exif", name: "GPSAltitudeRef", value: .text(altitude < 0 ? "1" : "0"),
                        group: 2))
            }
            properties.append(text(exif, "exif", "GPSMapDatum", "WGS-84"))
        }
        if let tags {
            if let city = tags.city { properties.append(text(photoshop, "photoshop", "City", city)) }
            if let state = tags.state { properties.append(text(photoshop, "photoshop", "State", state)) }
            if let country = tags.country { properties.append(text(photoshop, "photoshop", "Country", country)) }
            if let code = tags.countryCode { properties.append(text(iptcCore, "Iptc4xmpCore", "CountryCode", code)) }
            if let sublocation = tags.sublocation {
                properties.append(text(iptcCore, "Iptc4xmpCore", "Location", sublocation))
            }
            var fields: [XMPProperty.Field] = []
            if let sublocation = tags.sublocation { fields.append(.init("Sublocation", sublocation)) }
            if let city = tags.city { fields.append(.init("City", city)) }
            if let state = tags.state { fields.append(.init("ProvinceState", state)) }
            if let country = tags.country { fields.append(.init("CountryName", country)) }
            if let code = tags.countryCode { fields.append(.init("CountryCode", code)) }
            if !fields.isEmpty {
                properties.append(
                    XMPProperty(
                        namespace: iptcExt, prefix: "Iptc4xmpExt", name: "LocationCreated",
                        value: .bagOfStructure(fields)))
            }
        }
        // The capture time, when phototag found the offset the photo lacks.
        if let time = record.time, let local = time.local, let source = time.offsetSource, !source.isThePhotosOwn {
            properties.append(
                XMPProperty(namespace: exif, prefix: "exif", name: "DateTimeOriginal", value: .text(local), group: 3))
            properties.append(
                XMPProperty(
                    namespace: photoshop, prefix: "photoshop", name: "DateCreated", value: .text(local), group: 3))
        }
        var provenance: [XMPProperty] = []
        if !properties.isEmpty {
            if let fix = record.reading.fix {
                provenance.append(text(phototag, "phototag", "PositionSource", fix.source.rawValue))
            }
            provenance.append(text(phototag, "phototag", "Version", Help.toolVersion))
        }
        return (properties, provenance)
    }
}

extension CaptureTime.OffsetSource {
    /// Whether the offset was the photo's own (or its sidecar's), not found by phototag.
    var isThePhotosOwn: Bool {
        switch self {
        case .exif, .quicktime, .xmp: return true
        case .takeout, .gps, .timeZone, .track, .option: return false
        }
    }
}

/// Writes (or, in a dry run, plans) the XMP sidecar of each photo of a `tag` run; shared by its
/// workers.
final class SidecarTagger: Sendable {
    let options: TagOptions
    /// `--all-positions`: write the position also when it came from the photo itself.
    let allPositions: Bool
    /// One lock per stripe of sidecar paths: two photos that share `NAME.xmp` (a raw and its
    /// JPEG) never read and write it at once.
    private let stripes: [Locked<Int>] = (0..<64).map { _ in Locked(0) }
    /// The largest sidecar read; a larger one is an error, not read into memory.
    static let sidecarLimit = 16 << 20

    init(_ options: TagOptions, allPositions: Bool) {
        self.options = options
        self.allPositions = allPositions
    }

    /// Tags the photo of `record`, whose sidecars beside it are `sidecars`.
    func tag(_ record: PhotoRecord, sidecars: SidecarMatch) -> SidecarTagging {
        let (properties, provenance) = SidecarProperties.of(record, allPositions: allPositions)
        guard !properties.isEmpty else { return SidecarTagging(path: nil, action: .nothing) }
        let photo = Array(record.path)
        let path: [UInt8]
        switch chooseSidecar(photo: photo, sidecars: sidecars) {
        case .success(let chosen): path = chosen
        case .failure(let reason): return SidecarTagging(path: nil, action: .failed, error: reason.message)
        }
        let shown = String(decoding: path, as: UTF8.self)
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in path { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return stripes[Int(hash % UInt64(stripes.count))].withLock { _ in
            var tagging = SidecarTagging(path: shown, action: .failed)
            let existing: (bytes: [UInt8], snapshot: FileSnapshot)?
            do throws(SafeWriteError) {
                existing = try SafeFile.read(path, limit: Self.sidecarLimit)
            } catch {
                tagging.error = "cannot read the sidecar: \(error)"
                return tagging
            }
            let edit: XMPEdit
            do throws(XMPEditError) {
                edit = try XMPEditor.edit(
                    existing?.bytes, setting: properties, companions: provenance, overwrite: options.overwrite,
                    toolkit: "phototag \(Help.toolVersion)")
            } catch {
                tagging.error = error.description
                return tagging
            }
            tagging.properties = edit.outcomes
            guard let document = edit.document else {
                tagging.action = .unchanged
                return tagging
            }
            if options.dryRun {
                tagging.action = existing == nil ? .wouldCreate : .wouldUpdate
                return tagging
            }
            do throws(SafeWriteError) {
                try SafeFile.replace(path, with: document, expected: existing?.snapshot)
            } catch {
                tagging.error = "cannot write the sidecar: \(error)"
                return tagging
            }
            tagging.action = existing == nil ? .created : .updated
            return tagging
        }
    }

    struct Refusal: Error {
        var message: String
    }

    /// The sidecar to write: the one there (`NAME.EXT.xmp` or `NAME.xmp`), the one
    /// `--sidecar-name` names when both are, else a new one named as `--sidecar-name` says
    /// (`NAME.EXT.xmp` by default).
    func chooseSidecar(photo: [UInt8], sidecars: SidecarMatch) -> Result<[UInt8], Refusal> {
        let slash = photo.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        let nameLength = photo.count - slash
        let dot = photo[slash...].lastIndex(of: UInt8(ascii: "."))
        let stem = dot.map { Array(photo[..<$0]) } ?? photo
        var ext: [UInt8]? = nil
        var plain: [[UInt8]] = []
        for candidate in sidecars.paths + sidecars.shadowed {
            guard Sidecar.kind(ofName: candidate[...]) == .xmp else { continue }
            let candidateName = candidate.count - (candidate.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)
            if candidateName == nameLength + 4 { ext = candidate } else { plain.append(candidate) }
        }
        // Names that differ only in case: which one is the photo's is not phototag's to guess.
        guard !sidecars.ambiguousXMP, plain.count <= 1 else {
            return .failure(
                Refusal(message: "several sidecars differ only in case and each could be the photo's; none is written"))
        }
        switch (ext, plain.first, options.sidecarName) {
        case (let ext?, let plain?, nil):
            let names = [ext, plain].map { quotedForTerminal(String(decoding: $0, as: UTF8.self)) }
            return .failure(
                Refusal(
                    message:
                        "both \(names[0]) and \(names[1]) are the photo's sidecars; say which to write with --sidecar-name ext or stem"
                ))
        case (let ext?, _, .ext), (let ext?, nil, _): return .success(ext)
        case (_, let plain?, _): return .success(plain)
        case (nil, nil, .stem): return .success(stem + Array(".xmp".utf8))
        case (nil, nil, _): return .success(photo + Array(".xmp".utf8))
        }
    }
}

extension SidecarTagging {
    /// The properties of one status, as `name=value` joined by `; ` (the value kept, for
    /// `kept`); `nil` when there is none.
    func listed(_ status: XMPPropertyStatus) -> String? {
        let matching = properties.filter { $0.status == status }
        guard !matching.isEmpty else { return nil }
        return matching.map { outcome in
            let value = status == .kept ? (outcome.existing ?? "…") : outcome.property.displayValue
            return outcome.property.qualifiedName + "=" + value
        }.joined(separator: "; ")
    }
}

extension RecordFormatter {
    /// Text's lines under a photo's record in `tag`: the sidecar and what became of it, and with
    /// `--dry-run` each property.
    func taggingLines(_ tagging: SidecarTagging) -> [String] {
        let path = tagging.path.map { quotedForTerminal($0) } ?? "sidecar"
        var head = "  → \(path): \(tagging.action.rawValue)"
        if let error = tagging.error {
            head += ": " + style.paint(escapingControls(error), "31")
        } else if !tagging.properties.isEmpty {
            let counts = [XMPPropertyStatus.written, .kept, .unchanged].compactMap { status -> String? in
                let count = tagging.properties.count { $0.status == status }
                return count == 0 ? nil : "\(count) \(status.rawValue)"
            }
            head += " (" + counts.joined(separator: ", ") + ")"
        }
        guard tagDetails else { return [head] }
        return [head]
            + tagging.properties.map { outcome in
                let name = outcome.property.qualifiedName, value = outcome.property.displayValue
                switch outcome.status {
                case .written: return "      write \(name) = \(escapingControls(value))"
                case .unchanged: return "      same  \(name) = \(escapingControls(value))"
                case .kept:
                    return
                        "      keep  \(name) = \(escapingControls(outcome.existing ?? "…")) (not \(escapingControls(value)))"
                }
            }
    }
}
