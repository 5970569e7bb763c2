import PhotoGPS
import PhotoTagSupport
import ReverseGeocoding

/// `--track` and the options that go with it, for `locate` and `scan`.
struct TrackOptions: Equatable, Sendable {
    /// The track files and folders given, in order.
    var files: [Argument] = []
    /// `--prefer-track`: the track's position wins over the photo's own.
    var preferTrack = false
    /// `--max-gap`, `--max-extrapolation`.
    var limits = TrackLimits()
    /// `--time-zone`: the zone the camera's clock was set to.
    var cameraZone: CameraZone? = nil
    /// `--clock-offset`: seconds to add to the camera's clock to make it right.
    var clockOffset = 0.0
    /// `--sync-with`: a photo whose GPS time and camera clock give the camera's offset from UTC.
    var syncWith: Argument? = nil
    /// `--from-photos`: photos without a position take one from the photos of the run with one.
    var fromPhotos = false

    /// Whether photos are matched with anything at all.
    var isActive: Bool { !files.isEmpty || fromPhotos }

    /// The camera's zone: a zone of the tz database, or a fixed offset.
    enum CameraZone: Equatable, Sendable {
        case named(String)
        /// Seconds east of UTC.
        case fixed(Int)
    }
}

/// How a track placed a photo: the record's `track` object.
struct TrackMatch: Sendable {
    /// The track file of the fix nearest in time (with `--from-photos`, the photo used).
    var file: String
    var interpolated: Bool
    /// The time between the two fixes around the photo's instant, and the distance between them.
    var gapSeconds: Double?
    var gapMeters: Double?
    /// The time from the photo's instant to the nearest fix.
    var nearestPointSeconds: Double
}

/// The capture time a photo was matched at, for ``PhotoRecord/resolveTime()``: its clock as
/// corrected and the offset found or given.
struct MatchedTime: Sendable {
    /// `YYYY-MM-DDTHH:MM:SS`, the camera's clock with `--clock-offset` applied.
    var dateTimeOriginal: String
    /// `±HH:MM`.
    var offset: String
    var source: CaptureTime.OffsetSource
}

extension OptionReader {
    /// The track options of `locate` and `scan`.
    func tracks() throws(UsageError) -> TrackOptions {
        var options = TrackOptions()
        options.files = (parsed.all(Options.track) ?? []).map(Argument.init)
        if options.files.contains(where: { $0.bytes.isEmpty }) {
            throw error("option '\(Options.track.name)' needs a file or folder name")
        }
        options.fromPhotos = has(Options.fromPhotos)
        options.preferTrack = has(Options.preferTrack)
        if let value = value(Options.maxGap) { options.limits.maximumGap = try seconds(value, Options.maxGap) }
        if let value = value(Options.maxExtrapolation) {
            options.limits.maximumExtrapolation = try seconds(value, Options.maxExtrapolation)
        }
        if let zone = value(Options.timeZone) {
            if let offset = TrackPlacer.parseOffset(zone) {
                options.cameraZone = .fixed(offset)
            } else if BoundaryTable.bundled.rules?.zone(named: zone) != nil {
                options.cameraZone = .named(zone)
            } else {
                throw error(
                    "option '\(Options.timeZone.name)' needs a zone of the tz database (Europe/Paris) or an offset (+02:00), not '\(zone)'"
                )
            }
        }
        if let value = value(Options.clockOffset) {
            guard let seconds = TrackPlacer.parseClockOffset(value) else {
                throw error(
                    "option '\(Options.clockOffset.name)' needs ±[D ]HH:MM[:SS] (such as +01:30:00 or -1 02:00:00), not '\(value)'"
                )
            }
            options.clockOffset = seconds
        }
        if let photo = value(Options.syncWith) {
            guard !photo.isEmpty else { throw error("option '\(Options.syncWith.name)' needs a photo") }
            options.syncWith = Argument(photo)
        }
        for option in [
            Options.preferTrack, Options.maxGap, Options.maxExtrapolation, Options.timeZone, Options.clockOffset,
            Options.syncWith,
        ] where has(option) && !options.isActive {
            throw error("'\(option.name)' needs '\(Options.track.name) FILE' or '\(Options.fromPhotos.name)'")
        }
        if options.syncWith != nil, has(Options.timeZone) || has(Options.clockOffset) {
            throw error(
                "'\(Options.syncWith.name)' finds the camera's offset itself: give it without '\(Options.timeZone.name)' and '\(Options.clockOffset.name)'"
            )
        }
        return options
    }

    /// A number of seconds, 0 or more.
    private func seconds(_ value: String, _ option: OptionSpec) throws(UsageError) -> Double {
        guard let number = DecimalNumber.parse(value.utf8), number >= 0, number.isFinite else {
            throw error("option '\(option.name)' needs a number of seconds (0 or more), not '\(value)'")
        }
        return number
    }
}

extension Context {
    /// Reads the track files and folders of `options` into one track. Each file that cannot be
    /// read is reported on stderr (`phototag: track 'FILE': why`) and left out, and the run goes
    /// on; `sawError` says so, for the exit status. A folder gives every file in it that is a
    /// track (by content; its other files are counted in a note).
    func loadTracks(_ options: TrackOptions, quiet: Bool) -> (track: Track, sawError: Bool) {
        var track = Track()
        var sawError = false
        for argument in options.files {
            let path = argument.text
            guard let status = try? fileStatus(argument.bytes) else {
                errors.write("phototag: track '\(path)': no such file or folder\n")
                sawError = true
                continue
            }
            guard status.isDirectory else {
                sawError = !read(path, into: &track, quiet: quiet) || sawError
                continue
            }
            var names: [[UInt8]] = []
            do {
                let stream = try DirectoryStream(argument.bytes)
                while let entry = stream.next() {
                    let name = entry.name
                    if name.first == UInt8(ascii: ".") { continue }
                    names.append(name)
                }
            } catch {
                errors.write("phototag: track folder '\(path)': cannot read it: \(error.text)\n")
                sawError = true
                continue
            }
            names.sort { $0.lexicographicallyPrecedes($1) }
            var others = 0
            for name in names {
                let file =
                    path.hasSuffix("/")
                    ? path + String(decoding: name, as: UTF8.self) : path + "/" + String(decoding: name, as: UTF8.self)
                guard let info = try? fileStatus(file), info.isRegular else { continue }
                guard isTrackFile(file) else {
                    others += 1
                    continue
                }
                sawError = !read(file, into: &track, quiet: quiet) || sawError
            }
            if others > 0, !quiet {
                let files = others == 1 ? "1 file that is not a track" : "\(others) files that are not tracks"
                errors.write("phototag: track folder '\(path)': \(files) left out\n")
            }
        }
        return (track, sawError)
    }

    /// Whether the file's first bytes are those of a track format.
    private func isTrackFile(_ path: String) -> Bool {
        guard let descriptor = try? openForReading(Array(path.utf8)) else { return true }
        defer { _ = closeFile(descriptor) }
        var prefix = [UInt8](repeating: 0, count: TrackReader.sniffLength)
        let count = prefix.withUnsafeMutableBytes { (try? readSome(descriptor, into: $0)) ?? 0 }
        return TrackReader.format(of: Array(prefix[..<count])) != nil
    }

    /// Reads one track file into `track`; false after reporting why it cannot be used.
    private func read(_ path: String, into track: inout Track, quiet: Bool) -> Bool {
        do {
            let report = try TrackReader.read(path: path, into: &track)
            if report.skipped > 0, !quiet {
                let first = report.firstSkipReason.map { "; first: \($0)" } ?? ""
                errors.write(
                    "phototag: track '\(path)': \(report.skipped) point\(report.skipped == 1 ? "" : "s") without a usable time or position left out\(first)\n"
                )
            }
            return true
        } catch {
            errors.write("phototag: track '\(path)': \(error.message)\n")
            return false
        }
    }
}

/// Places photos on a track by their capture time (issue: "Positions for photos that have
/// none"): the instant is the camera's clock, corrected by `--clock-offset` (or `--sync-with`),
/// minus its offset from UTC: the photo's own (OffsetTimeOriginal, a video's UTC time, a
/// sidecar's), else `--time-zone`'s, else the one the track itself gives (see ``solve(wall:)``).
/// Never the machine's own zone.
struct TrackPlacer: Sendable {
    let track: Track
    /// With `--from-photos`: the located photos of the run, each a fix at its capture time.
    let nearby: Track?
    let options: TrackOptions
    /// With `--sync-with`: seconds to add to the camera's clock to get UTC.
    let clockToUTC: Double?
    private let rules: TimeZoneRules?
    private let boundaries: BoundaryTable
    /// The rules of each zone of the boundary table, by its index there.
    private let zones: [TimeZoneRules.Zone?]
    private let cameraZone: TimeZoneRules.Zone?

    init(track: Track, nearby: Track? = nil, options: TrackOptions, clockToUTC: Double? = nil) {
        self.track = track
        self.nearby = nearby
        self.options = options
        self.clockToUTC = clockToUTC
        boundaries = BoundaryTable.bundled
        rules = boundaries.rules
        let (rules, boundaries) = (rules, boundaries)
        zones = (0..<boundaries.timeZoneCount).map { rules?.zone(named: boundaries.timeZoneName($0)) }
        if case .named(let name) = options.cameraZone {
            cameraZone = rules?.zone(named: name)
        } else {
            cameraZone = nil
        }
    }

    /// `±HH:MM` or `±HHMM` or `Z`/`UTC` → seconds east of UTC; `nil` for anything else.
    static func parseOffset(_ text: String) -> Int? {
        if text == "Z" || text == "UTC" { return 0 }
        var bytes = Array(text.utf8)
        guard bytes.count == 6 || bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-")
        else { return nil }
        if bytes.count == 6 {
            guard bytes[3] == UInt8(ascii: ":") else { return nil }
            bytes.remove(at: 3)
        }
        let digits = bytes[1...].map { Int($0) - 0x30 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let hours = digits[0] * 10 + digits[1], minutes = digits[2] * 10 + digits[3]
        guard hours <= 14, minutes < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `±[D ]HH:MM[:SS]` → seconds (a sign is required: `+01:00:00` makes the camera's times an
    /// hour later).
    static func parseClockOffset(_ text: String) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        var rest = Substring(text.dropFirst())
        var days = 0
        if let space = rest.firstIndex(of: " ") {
            guard let d = Int(rest[..<space]), (0...36_500).contains(d) else { return nil }
            days = d
            rest = rest[rest.index(after: space)...]
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...876_000).contains(hours),
            (0..<60).contains(minutes)
        else { return nil }
        var seconds = 0.0
        if parts.count == 3 {
            guard let s = DecimalNumber.parse(parts[2].utf8), s >= 0, s < 60 else { return nil }
            seconds = s
        }
        let total = Double(days * 86_400 + hours * 3600 + minutes * 60) + seconds
        return sign == "-" ? -total : total
    }

    /// `±HH:MM` of an offset in seconds.
    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        return (seconds < 0 ? "-" : "+") + zeroPadded(magnitude / 3600, 2) + ":" + zeroPadded(magnitude / 60 % 60, 2)
    }

    /// Places `record` on the tracks: a photo without a usable position takes the tracks'
    /// position (with `--prefer-track`, every photo); a photo with one is compared, and a warning
    /// says when the two are more than 100 m apart. With `--from-photos`, a photo the tracks do
    /// not place is placed by the located photos of the run (``nearby``) by the same rules.
    func place(_ record: inout PhotoRecord) {
        guard record.reading.status != .error else { return }
        let own = record.reading.status == .located ? record.reading.fix : nil
        var misses: [String] = []
        if !track.isEmpty {
            switch attempt(record, on: track) {
            case .placed(let found, let moment):
                if let own {
                    let apart = greatCircleMetres(own.latitude, own.longitude, found.latitude, found.longitude)
                    if apart > 100 {
                        let used = options.preferTrack ? "the track's" : "the photo's own"
                        record.trackWarnings.append(
                            "track: the track places the photo \(Int(apart.rounded())) m from its own position; \(used) is used"
                        )
                    }
                    guard options.preferTrack else { return }
                }
                return apply(found, moment, from: track, source: .track, to: &record)
            case .missed(let why):
                misses.append("track: " + why)
            }
        } else if !options.files.isEmpty {
            misses.append("track: no position: no track file could be read")
        }
        guard own == nil else { return }
        if let nearby, !nearby.isEmpty {
            switch attempt(record, on: nearby) {
            case .placed(let found, let moment):
                return apply(found, moment, from: nearby, source: .nearbyPhoto, to: &record)
            case .missed(let why):
                misses.append("nearby photos: " + why)
            }
        }
        record.trackWarnings += misses
    }

    /// What matching a photo with one track gave.
    private enum Attempt {
        case placed(TrackPosition, Moment)
        /// Why not, for the record's warnings (`no position: the photo was taken 2 h after…`).
        case missed(String)
    }

    /// The position of `record` on `track`, at its instant.
    private func attempt(_ record: PhotoRecord, on track: Track) -> Attempt {
        guard let moment = instant(of: record, on: track) else {
            return .missed("the photo has no capture time to match with")
        }
        switch moment.solved {
        case .found(let position):
            return .placed(position, moment)
        case .noFit(let nearest):
            let clock = record.reading.camera?.dateTimeOriginal ?? ""
            let hint = nearest.map { "; at its nearest, the photo was taken \($0)" } ?? ""
            return .missed(
                "no position: in no zone the positions pass through does the camera's clock (\(clock)) fall on them\(hint) (give the camera's zone with --time-zone)"
            )
        case nil:
            switch track.position(at: moment.utc, limits: options.limits) {
            case .success(let position): return .placed(position, moment)
            case .failure(let miss): return .missed("no position: the photo was taken \(miss)")
            }
        }
    }

    /// Gives `record` the position found on `track`.
    private func apply(
        _ found: TrackPosition, _ moment: Moment, from track: Track, source: GPSFix.Source, to record: inout PhotoRecord
    ) {
        guard
            let fix = GPSFix(
                latitude: found.latitude, longitude: found.longitude, altitude: found.altitude, source: source)
        else { return }
        record.reading.fix = fix
        record.reading.status = .located
        // To the millisecond and the decimetre: the fixes' own precision.
        record.track = TrackMatch(
            file: track.files[found.file], interpolated: found.interpolated,
            gapSeconds: found.gapSeconds.map { ($0 * 1000).rounded() / 1000 },
            gapMeters: found.gapMeters.map { ($0 * 10).rounded() / 10 },
            nearestPointSeconds: (found.nearestFixSeconds * 1000).rounded() / 1000)
        record.trackWarnings += moment.warnings.map { (source == .track ? "track: " : "nearby photos: ") + $0 }
        if let matched = moment.matched { record.matchedTime = matched }
    }

    /// The instant a photo is matched at, how it was found, and (when the track itself gave the
    /// offset) the position found with it.
    private struct Moment {
        var utc: Double
        var matched: MatchedTime?
        /// With the offset found from the track: the position, or why there is none.
        var solved: Solved? = nil
        var warnings: [String] = []
    }

    /// What solving a clock without an offset against a track found (``solve(wall:clock:shift:on:)``).
    private enum Solved {
        case found(TrackPosition)
        /// No offset fits; the miss nearest the track in time, if any offset gave one.
        case noFit(nearest: TrackMiss?)
    }

    /// The photo's instant; `nil` when it has no capture time at all.
    private func instant(of record: PhotoRecord, on track: Track) -> Moment? {
        let camera = record.reading.camera
        guard let text = camera?.dateTimeOriginal, let wall = CivilClock(text) else {
            // No camera clock: a GPS time is the instant itself.
            if let timestamp = record.reading.fix?.timestamp {
                let instant = timestamp.instant
                return Moment(utc: Double(instant.seconds) + Double(instant.nanoseconds) / 1e9)
            }
            return nil
        }
        let fraction = camera?.subSecTimeOriginal.flatMap { Double("0." + $0) } ?? 0
        if let clockToUTC {
            let utc = wall.seconds + fraction + clockToUTC
            return Moment(utc: utc, matched: matched(wall, shift: clockToUTC, offset: 0, source: .option))
        }
        let shift = options.clockOffset
        let corrected = wall.seconds + fraction + shift
        let correctedText = shift == 0 ? nil : CivilClock(seconds: wall.seconds + shift).text
        if let own = camera?.offsetTimeOriginal.flatMap(Self.parseOffset) {
            let source = CaptureTime.OffsetSource(camera?.timeSource ?? .exif)
            return Moment(
                utc: corrected - Double(own),
                matched: correctedText.map {
                    MatchedTime(dateTimeOriginal: $0, offset: Self.offsetText(own), source: source)
                })
        }
        switch options.cameraZone {
        case .fixed(let offset):
            return Moment(
                utc: corrected - Double(offset), matched: matched(wall, shift: shift, offset: offset, source: .option))
        case .named:
            guard let cameraZone, let rules else { break }
            let local = CivilDateTime(secondsSinceEpoch: Int64((wall.seconds + shift).rounded(.down)))
            let instant = Double(rules.utc(fromLocal: local, zone: cameraZone).instant) + fraction
            let offset = Int(local.secondsSinceEpoch - Int64(instant.rounded(.down)))
            return Moment(utc: instant, matched: matched(wall, shift: shift, offset: offset, source: .option))
        case nil:
            break
        }
        if let timestamp = record.reading.fix?.timestamp {
            let instant = timestamp.instant
            return Moment(utc: Double(instant.seconds) + Double(instant.nanoseconds) / 1e9)
        }
        return solve(wall: corrected, clock: wall, shift: shift, on: track)
    }

    /// The matched time of a clock shifted by `shift` seconds at `offset`.
    private func matched(
        _ wall: CivilClock, shift: Double, offset: Int, source: CaptureTime.OffsetSource
    )
        -> MatchedTime
    {
        MatchedTime(
            dateTimeOriginal: CivilClock(seconds: wall.seconds + shift).text, offset: Self.offsetText(offset),
            source: source)
    }

    /// The instant of a camera clock that carries no offset, from the track itself: for each
    /// offset of the quarter hours from -12:00 to +14:00, the track's position at the clock
    /// minus that offset; an offset fits when the zone there (or either of two kept zones) has
    /// that very offset at that instant. One fit is the answer; with two (a track that crosses
    /// a zone border, or a clock set back, about then) the one nearer a fix in time wins, with
    /// a warning; with none, no position.
    private func solve(wall corrected: Double, clock: CivilClock, shift: Double, on track: Track) -> Moment {
        var fits: [(offset: Int, position: TrackPosition)] = []
        var nearestMiss: TrackMiss? = nil
        for quarter in -48...56 {
            let offset = quarter * 900
            let utc = corrected - Double(offset)
            let position: TrackPosition
            switch track.position(at: utc, limits: options.limits) {
            case .success(let found): position = found
            case .failure(let miss):
                if nearestMiss == nil || Self.seconds(of: miss) < Self.seconds(of: nearestMiss!) { nearestMiss = miss }
                continue
            }
            if zoneOffsets(position.latitude, position.longitude, at: utc).contains(offset) {
                fits.append((offset, position))
            }
        }
        guard let best = fits.min(by: { $0.position.nearestFixSeconds < $1.position.nearestFixSeconds }) else {
            return Moment(utc: corrected, solved: .noFit(nearest: nearestMiss))
        }
        var moment = Moment(
            utc: corrected - Double(best.offset),
            matched: matched(clock, shift: shift, offset: best.offset, source: .track),
            solved: .found(best.position))
        if fits.count > 1 {
            let offsets = fits.map { Self.offsetText($0.offset) }.joined(separator: " and ")
            moment.warnings.append(
                "the camera's clock fits the positions at \(offsets) (a zone border or a clock change then); "
                    + "\(Self.offsetText(best.offset)), nearer a fix in time, is used")
        }
        return moment
    }

    /// How far in time a miss is from the track, for choosing the nearest.
    private static func seconds(of miss: TrackMiss) -> Double {
        switch miss {
        case .empty: .infinity
        case .beforeTrack(let s), .afterTrack(let s): s
        case .inGap(_, let s): s
        }
    }

    /// The UTC offsets at `utc` of the zone (or the two kept zones) at a position.
    private func zoneOffsets(_ latitude: Double, _ longitude: Double, at utc: Double) -> [Int] {
        guard let rules, let point = Coordinate(latitude: latitude, longitude: longitude) else { return [] }
        let found = boundaries.features(point)
        let instant = Int64(utc.rounded(.down))
        var offsets: [Int] = []
        for index in [found.timeZone, found.secondTimeZone] {
            guard let index, index < zones.count, let zone = zones[index] else { continue }
            offsets.append(rules.offset(zone, atUTC: instant).utcOffset)
        }
        return offsets
    }

}

/// A camera's wall-clock time as seconds since 1970-01-01T00:00:00 read as if it were UTC.
struct CivilClock {
    var seconds: Double

    /// `YYYY-MM-DDTHH:MM:SS` (``CameraInfo/dateTimeOriginal``'s form).
    init?(_ text: String) {
        guard let time = CaptureTime.parseDateTime(text) else { return nil }
        seconds = Double(time.secondsSinceEpoch)
    }

    init(seconds: Double) { self.seconds = seconds }

    /// `YYYY-MM-DDTHH:MM:SS` of the whole second.
    var text: String {
        let civil = CivilDateTime(secondsSinceEpoch: Int64(seconds.rounded(.down)))
        return zeroPadded(civil.year, 4) + "-" + zeroPadded(civil.month, 2) + "-" + zeroPadded(civil.day, 2) + "T"
            + zeroPadded(civil.hour, 2) + ":" + zeroPadded(civil.minute, 2) + ":" + zeroPadded(civil.second, 2)
    }
}

extension Context {
    /// The placer of a run with `--track` or `--from-photos`: the tracks read (each file that
    /// cannot be read reported, and `sawError` set), and with `--sync-with` the camera's offset
    /// from UTC. `nil` placer when the run cannot go on (a `--sync-with` photo without a GPS time
    /// or a clock; already reported).
    func trackPlacer(
        _ options: TrackOptions, nearby: Track? = nil, quiet: Bool
    ) -> (placer: TrackPlacer?, sawError: Bool) {
        var clockToUTC: Double? = nil
        if let photo = options.syncWith {
            let reading = GPSReader().read(path: photo.bytes)
            let name = photo.text
            guard reading.status != .error else {
                errors.write("phototag: --sync-with '\(name)': \(reading.error?.description ?? "cannot read it")\n")
                return (nil, true)
            }
            guard let timestamp = reading.fix?.timestamp else {
                errors.write("phototag: --sync-with '\(name)': it has no GPS date and time to take UTC from\n")
                return (nil, true)
            }
            guard let text = reading.camera?.dateTimeOriginal, let clock = CivilClock(text) else {
                errors.write("phototag: --sync-with '\(name)': it has no DateTimeOriginal (the camera's clock)\n")
                return (nil, true)
            }
            let fraction = reading.camera?.subSecTimeOriginal.flatMap { Double("0." + $0) } ?? 0
            let instant = timestamp.instant
            clockToUTC = Double(instant.seconds) + Double(instant.nanoseconds) / 1e9 - (clock.seconds + fraction)
        }
        let (track, sawError) = loadTracks(options, quiet: quiet)
        return (TrackPlacer(track: track, nearby: nearby, options: options, clockToUTC: clockToUTC), sawError)
    }
}

extension Context {
    /// With `--from-photos`: the located photos among `items` (each read with its sidecars, as
    /// the run reads it), each a fix at its capture time, named by its path. A photo whose
    /// instant is not known (no clock, or neither an offset nor a zone) is left out.
    func nearbyPhotos(_ items: [(path: [UInt8], sidecars: SidecarMatch)], preferSidecar: Bool) -> Track {
        let boundaries = BoundaryTable.bundled
        var fixes: [(fix: TrackFix, file: String)] = []
        for (path, sidecars) in items where Sidecar.kind(ofName: path) == nil {
            let reading = GPSReader().read(path: path)
            guard reading.status != .error else { continue }
            let record =
                sidecars.isEmpty
                ? PhotoRecord(path: path[...], reading: reading)
                : SidecarMerge.record(
                    path: path[...], reading: reading, sidecars: sidecars, preferSidecar: preferSidecar)
            guard record.reading.status == .located, let fix = record.reading.fix,
                let point = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
            else { continue }
            let zone = boundaries.lookup(point).timeZones.first
            let camera = record.reading.camera
            guard
                let time = CaptureTime.resolve(
                    dateTimeOriginal: camera?.dateTimeOriginal, subSeconds: camera?.subSecTimeOriginal,
                    offsetTimeOriginal: camera?.offsetTimeOriginal,
                    offsetSource: CaptureTime.OffsetSource(camera?.timeSource ?? .exif),
                    gpsTimestamp: fix.timestamp?.description, zone: zone, rules: boundaries.rules),
                let utc = time.utcSeconds
            else { continue }
            fixes.append(
                (
                    TrackFix(
                        time: Double(utc) + Double(time.nanoseconds) / 1e9, latitude: fix.latitude,
                        longitude: fix.longitude, altitude: fix.altitude),
                    String(decoding: path, as: UTF8.self)
                ))
        }
        var track = Track()
        track.add(named: fixes)
        return track
    }
}
