import PhotoTagSupport

/// The fixes of one or more track files, kept in time order in 12 bytes a fix (16 with an
/// altitude), and the rules that place an instant on them (``position(at:limits:)``).
///
/// Each file's fixes are a *run* of their own, sorted by time; two fixes of one run at the same
/// time keep the one read last. The track is all runs together: the fixes around an instant are
/// the latest fix at or before it and the earliest at or after it over every run (a later file
/// wins a tie), which is what one sorted list of every file's fixes would give, without merging
/// them.
public struct Track: Sendable {
    /// The files' names, as given, in the order they were added; ``TrackPosition/file`` is one.
    public private(set) var files: [String] = []
    private var runs: [Run] = []

    /// An empty track.
    public init() {}

    /// The number of fixes kept (after duplicates in time were dropped).
    public var count: Int { runs.reduce(0) { $0 + $1.count } }

    /// Whether the track has no fix.
    public var isEmpty: Bool { runs.allSatisfy { $0.count == 0 } }

    /// The first and last instants of the track (seconds since 1970-01-01T00:00:00Z).
    public var timeRange: ClosedRange<Double>? {
        var first = Int64.max, last = Int64.min
        for run in runs where run.count > 0 {
            first = min(first, run.time(at: 0))
            last = max(last, run.time(at: run.count - 1))
        }
        return first <= last ? Double(first) / 1000...Double(last) / 1000 : nil
    }

    /// Adds the fixes of one file, named `file`; fixes that are not ``TrackFix/isValid`` are left out.
    public mutating func add(file: String, fixes: some Sequence<TrackFix>) {
        var builder = TrackRunBuilder()
        for fix in fixes where fix.isValid { builder.add(fix) }
        add(file: file, builder)
    }

    /// Adds the run a builder collected, for the file `file` (see ``Run/interpolatesAltitude``
    /// for `interpolatingAltitude`).
    mutating func add(file: String, _ builder: consuming TrackRunBuilder, interpolatingAltitude: Bool = true) {
        files.append(file)
        runs.append(builder.finish(file: files.count - 1, interpolatingAltitude: interpolatingAltitude))
    }

    /// Adds fixes that each come from a file of their own (the located photos of a run, for
    /// `--from-photos`): one run, each fix naming its file in ``TrackPosition/file``.
    public mutating func add(named fixes: [(fix: TrackFix, file: String)]) {
        let valid = fixes.filter { $0.fix.isValid }.enumerated().sorted {
            $0.element.fix.time != $1.element.fix.time
                ? $0.element.fix.time < $1.element.fix.time : $0.offset < $1.offset
        }
        var builder = TrackRunBuilder()
        var names: [Int] = []
        for (_, entry) in valid {
            let before = builder.count
            builder.add(entry.fix)
            // A fix at the time of the one before replaces it, and takes its file.
            if builder.count == before { names.removeLast() }
            names.append(files.count)
            files.append(entry.file)
        }
        var run = builder.finish(file: files.count - 1)
        run.fileOfFix = names
        runs.append(run)
    }

    /// Every fix, in time order (each file's run in turn merged): for tests and small tracks.
    public var fixes: [TrackFix] {
        var all: [(Int64, Int, TrackFix)] = []
        for (order, run) in runs.enumerated() {
            for index in 0..<run.count { all.append((run.time(at: index), order, run.fix(at: index))) }
        }
        all.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var result: [TrackFix] = []
        for entry in all {
            if let last = result.last, last.time == entry.2.time { result.removeLast() }
            result.append(entry.2)
        }
        return result
    }
}

/// How far a photo may be in time from the fixes it is placed by.
public struct TrackLimits: Hashable, Sendable {
    /// Two fixes at most this far apart (seconds) are interpolated between (ExifTool's
    /// GeoMaxIntSecs, 1800 by default).
    public var maximumGap: Double
    /// Across a wider gap, or before or after the track, the nearest fix is taken when it is at
    /// most this far (seconds; ExifTool's GeoMaxExtSecs, 1800 by default). Both limits are
    /// inclusive.
    public var maximumExtrapolation: Double

    /// Limits of `maximumGap` and `maximumExtrapolation` seconds (ExifTool's defaults: 1800 each).
    public init(maximumGap: Double = 1800, maximumExtrapolation: Double = 1800) {
        self.maximumGap = maximumGap
        self.maximumExtrapolation = maximumExtrapolation
    }
}

/// Where a track places an instant, and on what grounds.
public struct TrackPosition: Hashable, Sendable {
    /// Signed decimal degrees.
    public var latitude: Double
    /// Signed decimal degrees, in -180...180.
    public var longitude: Double
    /// Metres, when both fixes used have one (or the one fix used has one).
    public var altitude: Double?
    /// The index in ``Track/files`` of the file of the fix nearest in time.
    public var file: Int
    /// Whether the position lies between two fixes (`false`: exactly on a fix, or the nearest fix
    /// taken across a gap or beyond the track's ends).
    public var interpolated: Bool
    /// The time between the two fixes around the instant (seconds); `nil` before the first or
    /// after the last fix.
    public var gapSeconds: Double?
    /// The great-circle distance between those two fixes (metres); `nil` when ``gapSeconds`` is.
    public var gapMeters: Double?
    /// The time from the instant to the nearest fix (seconds, never negative).
    public var nearestFixSeconds: Double
}

/// Why a track places no position at an instant.
public enum TrackMiss: Error, Hashable, Sendable, CustomStringConvertible {
    /// The track has no fix.
    case empty
    /// Before the first fix by more than the extrapolation limit (seconds).
    case beforeTrack(seconds: Double)
    /// After the last fix by more than the extrapolation limit (seconds).
    case afterTrack(seconds: Double)
    /// In a gap between fixes wider than the interpolation limit, farther than the extrapolation
    /// limit from both (the gap and the time to the nearer fix, in seconds).
    case inGap(gapSeconds: Double, nearestSeconds: Double)

    /// The reason in words, after "the photo was taken": `2 h after the track ends`.
    public var description: String {
        switch self {
        case .empty: "the track has no fix"
        case .beforeTrack(let s): "\(Self.duration(s)) before the track starts"
        case .afterTrack(let s): "\(Self.duration(s)) after the track ends"
        case .inGap(let gap, let nearest):
            "in a gap of \(Self.duration(gap)) in the track, \(Self.duration(nearest)) from the nearest fix"
        }
    }

    /// `45 s`, `12 min`, `3.5 h`, `2.1 d`.
    static func duration(_ seconds: Double) -> String {
        func rounded(_ value: Double) -> String {
            let tenths = (value * 10).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
        }
        if seconds < 120 { return "\(rounded(seconds)) s" }
        if seconds < 3600 { return "\(rounded(seconds / 60)) min" }
        if seconds < 172_800 { return "\(rounded(seconds / 3600)) h" }
        return "\(rounded(seconds / 86_400)) d"
    }
}

extension Track {
    /// The position at `time` (seconds since 1970-01-01T00:00:00Z) by ExifTool's rules: exactly
    /// on a fix, that fix; between two fixes at most ``TrackLimits/maximumGap`` apart, the linear
    /// interpolation of latitude, longitude and altitude (across the antimeridian the short way);
    /// otherwise the nearest fix when it is at most ``TrackLimits/maximumExtrapolation`` away (a
    /// tie goes to the later fix); otherwise none, and why.
    public func position(at time: Double, limits: TrackLimits = TrackLimits()) -> Result<TrackPosition, TrackMiss> {
        let milliseconds = time * 1000
        // The latest fix at or before the instant, and the earliest at or after it, over every run.
        var before: (run: Int, index: Int, time: Int64)? = nil
        var after: (run: Int, index: Int, time: Int64)? = nil
        for (r, run) in runs.enumerated() where run.count > 0 {
            let next = run.firstIndex(notBefore: milliseconds)
            if next < run.count {
                let t = run.time(at: next)
                if after == nil || t <= after!.time { after = (r, next, t) }
            }
            // The latest at or before: the one at `next` when it is exactly the instant, else the one before.
            var previous = next - 1
            if next < run.count, Double(run.time(at: next)) == milliseconds { previous = next }
            if previous >= 0 {
                let t = run.time(at: previous)
                if before == nil || t >= before!.time { before = (r, previous, t) }
            }
        }
        guard before != nil || after != nil else { return .failure(.empty) }
        // Exactly on a fix: that fix, its altitude as an interpolation's would be (ExifTool
        // interpolates there, at a factor of 0).
        if let b = before, Double(b.time) == milliseconds {
            return .success(position(of: b, gap: nil, at: milliseconds, interpolating: true))
        }
        if let a = after, Double(a.time) == milliseconds {
            return .success(position(of: a, gap: nil, at: milliseconds, interpolating: true))
        }
        if let b = before, let a = after {
            let gap = Double(a.time - b.time) / 1000
            if gap <= limits.maximumGap || (b.run == a.run && runs[b.run].sameSpan(b.index, a.index)) {
                return .success(interpolate(b, a, at: milliseconds, gap: gap))
            }
            let toBefore = (milliseconds - Double(b.time)) / 1000, toAfter = (Double(a.time) - milliseconds) / 1000
            // A tie goes to the later fix.
            let (nearest, distance) = toAfter <= toBefore ? (a, toAfter) : (b, toBefore)
            guard distance <= limits.maximumExtrapolation else {
                return .failure(.inGap(gapSeconds: gap, nearestSeconds: distance))
            }
            var result = position(of: nearest, gap: gap, at: milliseconds)
            result.gapMeters = meters(b, a)
            return .success(result)
        }
        if let a = after {
            let distance = (Double(a.time) - milliseconds) / 1000
            guard distance <= limits.maximumExtrapolation else { return .failure(.beforeTrack(seconds: distance)) }
            return .success(position(of: a, gap: nil, at: milliseconds))
        }
        let b = before!
        let distance = (milliseconds - Double(b.time)) / 1000
        guard distance <= limits.maximumExtrapolation else { return .failure(.afterTrack(seconds: distance)) }
        return .success(position(of: b, gap: nil, at: milliseconds))
    }

    /// The position of one fix, as the answer at `milliseconds`; with `interpolating`, its
    /// altitude only when its file's altitudes are interpolated (``Run/interpolatesAltitude``).
    private func position(
        of fix: (run: Int, index: Int, time: Int64), gap: Double?, at milliseconds: Double, interpolating: Bool = false
    ) -> TrackPosition {
        let run = runs[fix.run]
        return TrackPosition(
            latitude: run.latitude(at: fix.index), longitude: run.longitude(at: fix.index),
            altitude: interpolating && !run.interpolatesAltitude ? nil : run.altitude(at: fix.index),
            file: run.file(at: fix.index), interpolated: false, gapSeconds: gap,
            gapMeters: nil, nearestFixSeconds: abs(milliseconds - Double(fix.time)) / 1000)
    }

    /// The linear interpolation between two fixes at `milliseconds`, strictly between them.
    private func interpolate(
        _ b: (run: Int, index: Int, time: Int64), _ a: (run: Int, index: Int, time: Int64), at milliseconds: Double,
        gap: Double
    ) -> TrackPosition {
        let first = runs[b.run], second = runs[a.run]
        let f = (milliseconds - Double(b.time)) / Double(a.time - b.time)
        let lat1 = first.latitude(at: b.index), lat2 = second.latitude(at: a.index)
        let lon1 = first.longitude(at: b.index)
        var dlon = second.longitude(at: a.index) - lon1
        if dlon > 180 { dlon -= 360 } else if dlon < -180 { dlon += 360 }
        var longitude = lon1 + f * dlon
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        var altitude: Double? = nil
        if first.interpolatesAltitude, second.interpolatesAltitude, let alt1 = first.altitude(at: b.index),
            let alt2 = second.altitude(at: a.index)
        {
            altitude = alt1 + f * (alt2 - alt1)
        }
        let toBefore = milliseconds - Double(b.time), toAfter = Double(a.time) - milliseconds
        return TrackPosition(
            latitude: lat1 + f * (lat2 - lat1), longitude: longitude, altitude: altitude,
            file: toAfter <= toBefore ? second.file(at: a.index) : first.file(at: b.index), interpolated: true,
            gapSeconds: gap,
            gapMeters: meters(b, a), nearestFixSeconds: min(toBefore, toAfter) / 1000)
    }

    /// The great-circle distance between two fixes, in metres.
    private func meters(_ b: (run: Int, index: Int, time: Int64), _ a: (run: Int, index: Int, time: Int64)) -> Double {
        let first = runs[b.run], second = runs[a.run]
        return greatCircleMetres(
            first.latitude(at: b.index), first.longitude(at: b.index), second.latitude(at: a.index),
            second.longitude(at: a.index))
    }
}

/// One file's fixes in time order, compact: the time in milliseconds as an offset of 32 bits from
/// its block's base (a block is up to 4,096 fixes within 49 days), latitude and longitude in
/// units of 1e-7° (about 1 cm), and altitude as a `Float` only when the file has one.
struct Run: Sendable {
    let file: Int
    /// The file of each fix, when the run's fixes come from files of their own
    /// (``Track/add(named:)``); empty when they are all ``file``'s.
    var fileOfFix: [Int] = []
    /// Whether an interpolated position takes its altitude from the run's fixes: only when some
    /// fix has an altitude other than 0, and never from KML's coordinates, whose altitude is
    /// clamped to the ground unless an altitude mode says otherwise. A fix taken alone (the
    /// nearest, across a gap or beyond an end) gives its own altitude all the same. These are
    /// ExifTool's rules, and so is the answer on the development set: a KML track with
    /// altitudes of 0 gives none between fixes, and 0 from its nearest fix.
    var interpolatesAltitude = true
    /// The time span of each fix (``TrackSink/add(_:span:)``), 0 for none; empty when the file
    /// has none.
    var spans: [UInt32] = []

    /// Whether fixes `a` and `b` of the run belong to one time span: they are then interpolated
    /// between however far apart (a KML `<TimeSpan>`, as ExifTool reads it).
    func sameSpan(_ a: Int, _ b: Int) -> Bool { !spans.isEmpty && spans[a] != 0 && spans[a] == spans[b] }
    /// The base time of each block (ms since the epoch) and the index of its first fix.
    private let blockBases: [Int64]
    private let blockStarts: [Int]
    private let offsets: [UInt32]
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    /// Metres, NaN for a fix without one; empty when no fix of the file has one.
    private let altitudes: [Float]

    init(
        file: Int, blockBases: [Int64], blockStarts: [Int], offsets: [UInt32], latitudes: [Int32],
        longitudes: [Int32], altitudes: [Float]
    ) {
        self.file = file
        self.blockBases = blockBases
        self.blockStarts = blockStarts
        self.offsets = offsets
        self.latitudes = latitudes
        self.longitudes = longitudes
        self.altitudes = altitudes
    }

    var count: Int { offsets.count }

    /// The file of fix `index`.
    func file(at index: Int) -> Int { fileOfFix.isEmpty ? file : fileOfFix[index] }

    /// The block that holds fix `index`.
    private func block(of index: Int) -> Int {
        var low = 0, high = blockStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if blockStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The time of fix `index`, in milliseconds since the epoch.
    func time(at index: Int) -> Int64 { blockBases[block(of: index)] + Int64(offsets[index]) }

    func latitude(at index: Int) -> Double { Double(latitudes[index]) / 1e7 }
    func longitude(at index: Int) -> Double { Double(longitudes[index]) / 1e7 }
    func altitude(at index: Int) -> Double? {
        guard !altitudes.isEmpty, !altitudes[index].isNaN else { return nil }
        return Double(altitudes[index])
    }

    func fix(at index: Int) -> TrackFix {
        TrackFix(
            time: Double(time(at: index)) / 1000, latitude: latitude(at: index), longitude: longitude(at: index),
            altitude: altitude(at: index))
    }

    /// The index of the first fix whose time is at or after `milliseconds` (`count` for none).
    func firstIndex(notBefore milliseconds: Double) -> Int {
        guard count > 0 else { return 0 }
        // The last block whose base is at or before the instant, then the fixes in it.
        var low = 0, high = blockBases.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Double(blockBases[middle]) <= milliseconds { low = middle } else { high = middle - 1 }
        }
        let base = blockBases[low]
        var first = blockStarts[low]
        var last = low + 1 < blockStarts.count ? blockStarts[low + 1] : count
        while first < last {
            let middle = (first + last) / 2
            if Double(base + Int64(offsets[middle])) < milliseconds { first = middle + 1 } else { last = middle }
        }
        return first
    }
}

/// Collects one file's fixes into a ``Run``: straight into the compact form while they come in
/// time order (as Google, GPS loggers and watches write them), else into a plain list that is
/// sorted at the end (a stable sort: of two fixes at the same time, the one read last is kept).
struct TrackRunBuilder: TrackSink {
    private var blockBases: [Int64] = []
    private var blockStarts: [Int] = []
    private var offsets: [UInt32] = []
    private var latitudes: [Int32] = []
    private var longitudes: [Int32] = []
    /// `nil` until a fix with an altitude comes; then NaN for the fixes without one.
    private var altitudes: [Float]? = nil
    /// `nil` until a fix of a time span comes (``TrackSink/add(_:span:)``); then each fix's span,
    /// 0 for none.
    private var spans: [UInt32]? = nil
    private var lastTime = Int64.min
    /// The fixes once one came out of order: (time, latitude, longitude, altitude, span).
    private var unordered: [(Int64, Int32, Int32, Float, UInt32)]? = nil
    /// Whether some fix has an altitude other than 0.
    private var hasAltitude = false
    /// Points the reader skipped, and the first reason.
    private(set) var skippedCount = 0
    private(set) var firstSkipReason: String? = nil

    /// How many fixes a block holds at most.
    static let blockSize = 4096

    init() {}

    /// The number of fixes so far (before duplicates of unordered input are dropped).
    var count: Int { unordered?.count ?? offsets.count }

    mutating func skip(_ reason: String) {
        skippedCount += 1
        if firstSkipReason == nil { firstSkipReason = reason }
    }

    mutating func add(_ fix: TrackFix) { add(fix, span: 0) }

    mutating func add(_ fix: TrackFix, span: Int) {
        let span = UInt32(clamping: max(0, span))
        guard fix.isValid else {
            skip("a fix out of range")
            return
        }
        let time = Int64((fix.time * 1000).rounded())
        let latitude = Int32((fix.latitude * 1e7).rounded()), longitude = Int32((fix.longitude * 1e7).rounded())
        let altitude = fix.altitude.map { Float($0) } ?? .nan
        if !altitude.isNaN, altitude != 0 { hasAltitude = true }
        if unordered != nil {
            unordered!.append((time, latitude, longitude, altitude, span))
            return
        }
        if time < lastTime {
            // Out of order: everything so far into the plain list, sorted at the end.
            var list: [(Int64, Int32, Int32, Float, UInt32)] = []
            list.reserveCapacity(offsets.count + 1)
            var block = 0
            for index in 0..<offsets.count {
                while block + 1 < blockStarts.count, blockStarts[block + 1] <= index { block += 1 }
                list.append(
                    (
                        blockBases[block] + Int64(offsets[index]), latitudes[index], longitudes[index],
                        altitudes?[index] ?? .nan, spans?[index] ?? 0
                    ))
            }
            list.append((time, latitude, longitude, altitude, span))
            (blockBases, blockStarts, offsets, latitudes, longitudes, altitudes) = ([], [], [], [], [], nil)
            spans = nil
            unordered = list
            return
        }
        append(time, latitude, longitude, altitude, span)
    }

    /// Appends a fix no earlier than the last; one at the same time replaces it (the one read last wins).
    private mutating func append(
        _ time: Int64, _ latitude: Int32, _ longitude: Int32, _ altitude: Float, _ span: UInt32
    ) {
        if time == lastTime, !offsets.isEmpty {
            latitudes[latitudes.count - 1] = latitude
            longitudes[longitudes.count - 1] = longitude
            if altitudes == nil, !altitude.isNaN { altitudes = [Float](repeating: .nan, count: offsets.count) }
            altitudes?[offsets.count - 1] = altitude
            if spans == nil, span != 0 { spans = [UInt32](repeating: 0, count: offsets.count) }
            spans?[offsets.count - 1] = span
            return
        }
        let index = offsets.count
        if let base = blockBases.last, index - blockStarts[blockStarts.count - 1] < Self.blockSize,
            time - base <= Int64(UInt32.max)
        {
            offsets.append(UInt32(time - base))
        } else {
            blockBases.append(time)
            blockStarts.append(index)
            offsets.append(0)
        }
        latitudes.append(latitude)
        longitudes.append(longitude)
        if altitudes == nil, !altitude.isNaN { altitudes = [Float](repeating: .nan, count: index) }
        altitudes?.append(altitude)
        if spans == nil, span != 0 { spans = [UInt32](repeating: 0, count: index) }
        spans?.append(span)
        lastTime = time
    }

    /// The run of the fixes collected; `interpolatingAltitude` false when the format's altitudes
    /// are never interpolated (KML), whatever they are (see ``Run/interpolatesAltitude``).
    consuming func finish(file: Int, interpolatingAltitude: Bool = true) -> Run {
        if var list = unordered {
            unordered = nil
            // A stable sort by time keeps the order of reading among equal times.
            list = list.enumerated().sorted {
                $0.element.0 != $1.element.0 ? $0.element.0 < $1.element.0 : $0.offset < $1.offset
            }
            .map(\.element)
            lastTime = .min
            for (time, latitude, longitude, altitude, span) in list {
                append(time, latitude, longitude, altitude, span)
            }
        }
        var run = Run(
            file: file, blockBases: blockBases, blockStarts: blockStarts, offsets: offsets, latitudes: latitudes,
            longitudes: longitudes, altitudes: altitudes ?? [])
        run.spans = spans ?? []
        run.interpolatesAltitude = interpolatingAltitude && hasAltitude
        return run
    }
}
