import Foundation
import TestSupport
import Testing

@testable import PhotoGPS

/// What a fixture video must yield: the position, its source, the camera and the warnings.
struct VideoExpectation: CustomTestStringConvertible, Sendable {
    var file: String
    var status: GPSReading.Status
    var latitude: Double? = nil
    var longitude: Double? = nil
    var altitude: Double? = nil
    var source: GPSFix.Source? = nil
    var camera: CameraInfo? = nil
    var warnings: [String] = []
    var error: String? = nil

    var testDescription: String { file }
}

/// A `ByteSource` over a file that counts the reads and the bytes they return.
final class CountingSource: ByteSource {
    let file: FileSource
    private(set) var reads = 0
    private(set) var bytesRead = 0

    init(path: String) throws { file = try FileSource(path: path) }

    var count: Int { file.count }

    func bytes(at offset: Int, length: Int) throws(PhotoGPSError) -> [UInt8] {
        let bytes = try file.bytes(at: offset, length: length)
        reads += 1
        bytesRead += bytes.count
        return bytes
    }
}

/// Videos (QuickTime, MP4, M4V, 3GP): every fixture of `Fixtures/videos/` (written by
/// `Fixtures/make_videos.py`) with its exact outcome, the ISO 6709 parser, the capture time, and
/// the read limits on large files built here (a sparse multi-gigabyte `mdat`, a `moov` past 1 MiB).
@Suite struct MovieTests {
    static func video(_ name: String) -> String { "\(Fixtures.root)/videos/\(name)" }

    /// 2019-07-01T12:34:56Z, as `mvhd` gives it: UTC, offset +00:00.
    static let mvhd2019 = CameraInfo(
        dateTimeOriginal: "2019-07-01T12:34:56", offsetTimeOriginal: "+00:00", timeSource: .quicktime)
    /// loci's 16.16 fixed point of -33.8568, 151.2153 (the Sydney Opera House).
    static let sydney = (latitude: -33.85679626464844, longitude: 151.21530151367188)

    static let expectations: [VideoExpectation] = [
        .init(
            file: "keys-iso6709.mov", status: .located, latitude: 48.8583, longitude: 2.2945, altitude: 35,
            source: .quicktimeKeys,
            camera: CameraInfo(
                make: "Apple", model: "iPhone 12", dateTimeOriginal: "2019-07-01T14:34:56",
                offsetTimeOriginal: "+02:00",
                timeSource: .quicktime)
        ),
        .init(
            file: "keys-iso-meta.mp4", status: .located, latitude: 40.6892, longitude: -74.0445, source: .quicktimeKeys,
            camera: CameraInfo(
                dateTimeOriginal: "2019-07-01T14:34:56", offsetTimeOriginal: "+00:00", subSecTimeOriginal: "5",
                timeSource: .quicktime)),
        .init(
            file: "udta-xyz.mp4", status: .located, latitude: 35.6586, longitude: 139.7454, source: .udtaXYZ,
            camera: mvhd2019),
        .init(file: "xyz-minutes.mp4", status: .located, latitude: 48.8583, longitude: 2.2945, source: .udtaXYZ),
        .init(
            file: "xyz-seconds.mp4", status: .located, latitude: 48.8583, longitude: -0.2917222222222222,
            altitude: 35.5, source: .udtaXYZ),
        .init(
            file: "xyz-crs.mp4", status: .located, latitude: 48.8583, longitude: 2.2945, altitude: 35, source: .udtaXYZ
        ),
        .init(file: "xyz-no-slash.mp4", status: .located, latitude: 48.8583, longitude: 2.2945, source: .udtaXYZ),
        .init(
            file: "xyz-missing-sign.mp4", status: .invalidGPS,
            warnings: [
                "the udta ©xyz location '+48.8583002.2945/' is not ISO 6709: the longitude has no sign (+ or -)"
            ]),
        .init(
            file: "xyz-trailing-garbage.mp4", status: .invalidGPS,
            warnings: [
                "the udta ©xyz location '+48.8583+002.2945/abc' is not ISO 6709: unexpected text after the longitude"
            ]),
        .init(file: "xyz-zero-zero.mp4", status: .invalidGPS, warnings: ["position 0, 0 is the no-fix placeholder"]),
        .init(
            file: "xyz-minutes-60.mp4", status: .invalidGPS,
            warnings: [
                "the udta ©xyz location '+4860.000+00217.670/' is not ISO 6709: the latitude's minutes are 60.0, not below 60"
            ]),
        .init(
            file: "xyz-latitude-91.mp4", status: .invalidGPS,
            warnings: [
                "the udta ©xyz location '+91.0000+002.2945/' is not ISO 6709: the latitude 91.0 is out of range (more than 90 degrees)"
            ]),
        .init(
            file: "loci.3gp", status: .located, latitude: sydney.latitude, longitude: sydney.longitude, altitude: 5.5,
            source: .loci, camera: mvhd2019),
        .init(
            file: "loci-utf16-name.3gp", status: .located, latitude: sydney.latitude, longitude: sydney.longitude,
            altitude: 0, source: .loci),
        .init(
            file: "xmp-uuid.mp4", status: .located, latitude: 51.5, longitude: -0.125, source: .xmp, camera: mvhd2019),
        .init(file: "xmp-udta.mov", status: .located, latitude: 41.402, longitude: 2.171, altitude: 12, source: .xmp),
        .init(file: "xmp-uuid-no-gps.m4v", status: .noGPS),
        .init(file: "precedence.mov", status: .located, latitude: 1, longitude: 1, source: .quicktimeKeys),
        .init(
            file: "keys-zero-then-xyz.mov", status: .located, latitude: -22.9519, longitude: -43.2105, source: .udtaXYZ,
            warnings: ["position 0, 0 is the no-fix placeholder"]),
        .init(
            file: "bad-xyz-then-loci.3gp", status: .located, latitude: sydney.latitude, longitude: sydney.longitude,
            altitude: 0, source: .loci,
            warnings: [
                "the udta ©xyz location '48.8583+002.2945/' is not ISO 6709: the latitude has no sign (+ or -)"
            ]),
        .init(file: "mdat-64bit.mp4", status: .located, latitude: 64.1419, longitude: -21.9267, source: .udtaXYZ),
        .init(file: "moov-size-zero.mp4", status: .located, latitude: 55.7539, longitude: 37.6208, source: .udtaXYZ),
        .init(
            file: "truncated-moov.mp4", status: .error, error: "truncated file: the file ends inside the 'moov' box"),
        .init(
            file: "no-ftyp.mov", status: .located, latitude: 37.8199, longitude: -122.4783, altitude: 67,
            source: .quicktimeKeys),
        .init(file: "no-location.mp4", status: .noGPS, camera: mvhd2019),
        .init(file: "no-moov.mp4", status: .error, error: "malformed file: the movie has no 'moov' box"),
    ]

    @Test(arguments: expectations)
    func fixtureVideoHasItsExactOutcome(_ expected: VideoExpectation) throws {
        let path = Self.video(expected.file)
        let reading = GPSReader().read(path: path)
        #expect(reading.status == expected.status)
        #expect(reading.fix?.latitude == expected.latitude)
        #expect(reading.fix?.longitude == expected.longitude)
        #expect(reading.fix?.altitude == expected.altitude)
        #expect(reading.fix?.source == expected.source)
        #expect(reading.camera == expected.camera)
        #expect(reading.warnings.map(\.description) == expected.warnings)
        #expect(reading.error?.description == expected.error)
        // The same from memory, and within the read limits from a file.
        #expect(GPSReader().read(bytes: try readWholeFile(path)) == reading)
        let counted = try CountingSource(path: path)
        #expect(GPSReader().read(source: counted) == reading)
        #expect(counted.reads <= 8, "\(counted.reads) reads")
    }

    @Test func everyFixtureVideoHasAnExpectation() throws {
        #expect(Set(Self.expectations.map(\.file)) == Set(try listDirectory(Fixtures.root + "/videos")))
    }

    // MARK: Identification

    @Test func moviesAreIdentifiedByBrandOrByTheirFirstBox() throws {
        func identify(_ bytes: [UInt8]) throws -> Container { try Container.identify(MemorySource(storage: bytes)) }
        for brand in ["qt  ", "isom", "mp41", "mp42", "M4V ", "3gp5", "3g2a", "XAVC", "avc1"] {
            #expect(try identify(Self.box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array(brand.utf8))) == .movie)
        }
        for first in ["moov", "mdat", "wide", "free", "skip", "pnot"] {
            #expect(try identify(Self.box(first, [UInt8](repeating: 0, count: 8))) == .movie, "\(first)")
        }
        #expect(try identify([0, 0, 0, 4] + Array("moov".utf8)) == .unsupported(nil))  // an impossible size
        #expect(try identify(Self.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8))) == .heif)
        #expect(try identify(Self.box("ftyp", Array("crx ".utf8) + [0, 0, 0, 0] + Array("isom".utf8))) == .cr3)
    }

    // MARK: ISO 6709

    @Test(
        arguments: [
            ("+48.8583+002.2945/", 48.8583, 2.2945, nil),
            ("-33.8568+151.2153+005.5/", -33.8568, 151.2153, 5.5),
            ("+4851.498+00217.670/", 48.8583, 2.2945, nil),
            ("-3351.408+15112.918-10/", -33.8568, 151.21530000000001, -10),
            ("+485129.88+0021740.2/", 48.8583, 2.2944999999999998, nil),
            ("+48+002/", 48, 2, nil),
            ("+4851+00217/", 48.85, 2.283333333333333, nil),
            ("+48.8583+002.2945+35CRSWGS_84/", 48.8583, 2.2945, 35),
            ("+48.8583+002.2945CRSEPSG:4326/", 48.8583, 2.2945, nil),
            ("+48.8583+002.2945", 48.8583, 2.2945, nil),
            ("+48.8583+002.2945/\0\0", 48.8583, 2.2945, nil),
            ("-00.0000+036.8167/", 0, 36.8167, nil),
            ("+90.0000-180.0000/", 90, -180, nil),
        ] as [(String, Double, Double, Double?)])
    func iso6709ParsesEveryPrecision(text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
        let point = try ISO6709.parse(Array(text.utf8))
        #expect(point.latitude == latitude)
        #expect(point.longitude == longitude)
        #expect(point.altitude == altitude)
        #expect(point.latitude.sign == .plus || point.latitude != 0)  // never -0
    }

    @Test(arguments: [
        ("", "the latitude is missing"),
        ("48.8583+002.2945/", "the latitude has no sign (+ or -)"),
        ("+48.8583002.2945/", "the longitude has no sign (+ or -)"),
        ("+48.8583/", "the longitude has no sign (+ or -)"),
        ("+48.8583", "the longitude is missing"),
        ("+48.8583+002.2945/abc", "unexpected text after the longitude"),
        ("+48.8583+002.2945+35/x", "unexpected text after the altitude"),
        ("+48.8583+002.2945 /", "unexpected text after the longitude"),
        ("+48.8583+002.2945//", "unexpected text after the longitude"),
        ("+488.583+002.2945/", "the latitude has 3 digits before its point, expected 2, 4 or 6"),
        ("+48.8583+02.2945/", "the longitude has 2 digits before its point, expected 3, 5 or 7"),
        ("+48485129.8+002.2945/", "the latitude has 8 digits before its point, expected 2, 4 or 6"),
        ("+48.+002.2945/", "the latitude has no digits after its point"),
        ("+.5+002.2945/", "the latitude has no digits"),
        ("+4899.000+00217.670/", "the latitude's minutes are 99.0, not below 60"),
        ("+485160+0021740/", "the latitude's seconds are 60.0, not below 60"),
        ("+90.0001+002.2945/", "the latitude 90.0001 is out of range (more than 90 degrees)"),
        ("+48.8583+180.5/", "the longitude 180.5 is out of range (more than 180 degrees)"),
        ("+48.8583+002.2945+/", "the altitude has no digits"),
        ("+48.8583+002.2945CRS/", "'CRS' names no reference system"),
        // Found in review: 400 digits made an infinite altitude, which JSON cannot hold.
        ("+48.8583+002.2945+" + String(repeating: "9", count: 400) + "/", "the altitude is out of range"),
    ])
    func iso6709RejectsWhatTheStandardDoesNotAllow(text: String, reason: String) {
        #expect(throws: ISO6709.Failure(description: reason)) { try ISO6709.parse(Array(text.utf8)) }
    }

    // MARK: Capture time

    @Test func creationDatesGiveLocalTimeAndOffset() {
        func parse(_ text: String) -> [String?]? {
            Movie.creationDate(Array(text.utf8)).map { [$0.0, $0.1, $0.2] }
        }
        #expect(parse("2019-07-01T14:34:56+0200") == ["2019-07-01T14:34:56", "+02:00", nil])
        #expect(parse("2019-07-01T14:34:56-05:30") == ["2019-07-01T14:34:56", "-05:30", nil])
        #expect(parse("2019-07-01T14:34:56.250Z") == ["2019-07-01T14:34:56", "+00:00", "250"])
        #expect(parse("2019-07-01T14:34:56\0") == ["2019-07-01T14:34:56", nil, nil])
        #expect(parse("2019-07-01T14:34:56+2500") == nil)
        #expect(parse("2019-02-30T14:34:56+0200") == nil)
        #expect(parse("2019-07-01T14:34:56 garbage") == nil)
        #expect(parse("2019-07-01") == nil)
    }

    @Test func movieTimesAreSecondsSince1904() {
        #expect(Movie.civilTime(secondsSince1970: 0) == "1970-01-01T00:00:00")
        #expect(Movie.civilTime(secondsSince1970: 1_561_984_496) == "2019-07-01T12:34:56")
        #expect(Movie.civilTime(secondsSince1970: 951_782_400) == "2000-02-29T00:00:00")
        #expect(Movie.civilTime(secondsSince1970: 253_402_300_799) == "9999-12-31T23:59:59")
        #expect(Movie.civilTime(secondsSince1970: 253_402_300_800) == nil)
        // mvhd 0 means unset: no camera time (version 0 and version 1).
        for version: UInt8 in [0, 1] {
            let movie = Self.movie(moov: Self.mvhd(seconds: 0, version: version))
            #expect(GPSReader().read(bytes: movie).camera == nil)
            let set = Self.movie(moov: Self.mvhd(seconds: 1_561_984_496 + 2_082_844_800, version: version))
            #expect(GPSReader().read(bytes: set).camera == Self.mvhd2019)
        }
        // A time before 1970 (a clock never set counts from 1904) or past the year 9999 is dropped.
        let early = Self.movie(moov: Self.mvhd(seconds: 86_400, version: 0))
        #expect(GPSReader().read(bytes: early).camera == nil)
        // Nor 1970-01-01T00:00:00 itself: a Unix time of 0 written by a muxer (tika's
        // testVideoMp4.mp4, which ExifTool shows as 0000:00:00 00:00:00), not a capture time.
        for version: UInt8 in [0, 1] {
            let unixZero = Self.movie(moov: Self.mvhd(seconds: 2_082_844_800, version: version))
            #expect(GPSReader().read(bytes: unixZero).camera == nil)
            let second = Self.movie(moov: Self.mvhd(seconds: 2_082_844_801, version: version))
            #expect(GPSReader().read(bytes: second).camera?.dateTimeOriginal == "1970-01-01T00:00:01")
        }
        let late = Self.movie(moov: Self.mvhd(seconds: UInt64.max, version: 1))
        #expect(GPSReader().read(bytes: late).camera == nil)
    }

    // MARK: Read limits

    /// A 5 GiB sparse `mdat` with a 64-bit size, `moov` after it: read in a few small reads.
    @Test func moovAfterAMultiGigabyteMdatIsReadWithoutReadingTheMdat() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/long.mp4"
        let mdatSize: UInt64 = 5 << 30
        let head =
            Self.box("ftyp", Array("isom".utf8) + [0, 0, 0, 0] + Array("isom".utf8)) + [0, 0, 0, 1]
            + Array("mdat".utf8) + Self.bigEndian(mdatSize, bytes: 8)
        let moov = Self.box("moov", Self.mvhd(seconds: 0, version: 0) + Self.udta(xyz: "+48.8583+002.2945/"))
        try Self.writeSparse(path, head: head, tailAt: UInt64(head.count - 16) + mdatSize, tail: moov)
        let counted = try CountingSource(path: path)
        let reading = GPSReader().read(source: counted)
        #expect(reading.status == .located)
        #expect(reading.fix?.latitude == 48.8583)
        #expect(counted.reads <= 8)
        #expect(counted.bytesRead < 1024)
    }

    /// A `moov` of 2 MiB (a large track) is walked by its children; only `mvhd` and `udta` are read.
    @Test func aMoovPastTheLimitIsWalkedAndOnlyItsMetadataIsRead() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big-moov.mov"
        let trak = Self.box("trak", Self.box("free", [UInt8](repeating: 0, count: 2 << 20)))
        let bytes = Self.movie(moov: Self.mvhd(seconds: 0, version: 0) + trak + Self.udta(xyz: "+35.6586+139.7454/"))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let counted = try CountingSource(path: path)
        let reading = GPSReader().read(source: counted)
        #expect(reading.status == .located)
        #expect(reading.fix?.source == .udtaXYZ)
        #expect(counted.reads <= 8)
        #expect(counted.bytesRead < 4096)
        #expect(GPSReader().read(bytes: bytes) == reading)
    }

    /// A fragmented movie without a location: the walk stops at the first `moof` after `moov`
    /// instead of reading the header of every fragment (found in review: one read per fragment).
    @Test func theFragmentsOfAFragmentedMovieAreNotWalked() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/fragmented.mp4"
        let fragment = Self.box("moof", [UInt8](repeating: 0, count: 8)) + Self.box("mdat", [1, 2, 3, 4])
        let bytes =
            Self.box("ftyp", Array("iso6".utf8) + [0, 0, 0, 0] + Array("iso6".utf8))
            + Self.box("moov", Self.mvhd(seconds: 0, version: 0))
            + Array([[UInt8]](repeating: fragment, count: 100).joined())
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let counted = try CountingSource(path: path)
        #expect(GPSReader().read(source: counted).status == .noGPS)
        #expect(counted.reads <= 8, "\(counted.reads) reads")
    }

    /// A `udta` that declares more bytes than its `moov` holds is the same error whether `moov`
    /// is read whole or walked (found in review: the walk clipped it and read on).
    @Test(arguments: [0, 2 << 20])
    func aChildThatOverrunsMoovIsAnError(trackBytes: Int) {
        var udta = Self.udta(xyz: "+35.6586+139.7454/")
        udta[3] += 20  // 20 bytes past the end of moov, into mdat (still inside the file)
        let track = trackBytes == 0 ? [] : Self.box("trak", [UInt8](repeating: 0, count: trackBytes))
        let reading = GPSReader().read(bytes: Self.movie(moov: Self.mvhd(seconds: 0, version: 0) + track + udta))
        #expect(reading.error?.description == "malformed file: the 'udta' box runs past the end of 'moov'")
    }

    /// A metadata box larger than the 1 MiB read limit is a clear error.
    @Test func aMetadataBoxPastTheLimitIsAnError() throws {
        let padding = Self.box("free", [UInt8](repeating: 0, count: (1 << 20) + 1))
        let bytes = Self.movie(moov: Self.mvhd(seconds: 0, version: 0) + Self.box("udta", padding))
        let reading = GPSReader().read(bytes: bytes)
        #expect(reading.status == .error)
        #expect(
            reading.error?.description
                == "malformed file: the 'udta' box is 1048585 bytes; a movie's metadata is read up to 1 MiB")
    }

    /// Every real video of the shared corpus within the limits: at most 8 reads and 1 MiB.
    @Test(.enabled(if: VideoCorpus.available, "the video corpus (../shared/corpus/video-dev) is not present"))
    func realVideosAreReadWithinTheLimits() throws {
        for name in try listDirectory(VideoCorpus.directory).sorted() where VideoCorpus.isVideo(name) {
            let counted = try CountingSource(path: VideoCorpus.directory + "/" + name)
            _ = GPSReader().read(source: counted)
            #expect(counted.reads <= 8, "\(name): \(counted.reads) reads")
            #expect(counted.bytesRead <= (1 << 20) + 64, "\(name): \(counted.bytesRead) bytes")
        }
    }

    // MARK: Building movies

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        bigEndian(UInt64(8 + payload.count), bytes: 4) + Array(type.utf8) + payload
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func mvhd(seconds: UInt64, version: UInt8) -> [UInt8] {
        let times =
            version == 0
            ? bigEndian(seconds, bytes: 4) + bigEndian(seconds, bytes: 4) + bigEndian(1000, bytes: 4)
                + bigEndian(0, bytes: 4)
            : bigEndian(seconds, bytes: 8) + bigEndian(seconds, bytes: 8) + bigEndian(1000, bytes: 4)
                + bigEndian(0, bytes: 8)
        return box("mvhd", [version, 0, 0, 0] + times + [UInt8](repeating: 0, count: 80))
    }

    static func udta(xyz text: String) -> [UInt8] {
        let string = Array(text.utf8)
        let xyz =
            bigEndian(UInt64(12 + string.count), bytes: 4) + [0xA9, 0x78, 0x79, 0x7A]
            + bigEndian(UInt64(string.count), bytes: 2) + [0x15, 0xC7] + string
        return box("udta", xyz)
    }

    static func movie(moov: [UInt8]) -> [UInt8] {
        box("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)) + box("moov", moov)
            + box("mdat", [UInt8](repeating: 0, count: 16))
    }

    /// Writes `head` at the start and `tail` at `tailAt`, leaving a hole in between.
    static func writeSparse(_ path: String, head: [UInt8], tailAt offset: UInt64, tail: [UInt8]) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(head)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: offset)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(tail))
    }
}

/// The shared corpus of real videos and sidecars (`../shared/corpus/video-dev`, or
/// `$PHOTOTAG_SHARED/corpus/video-dev`); users' clones do not have it, and then its tests skip.
enum VideoCorpus {
    static let directory = SharedData.path("corpus/video-dev")

    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/manifest.tsv") }

    /// Whether a file name is a video (the corpus also holds `.xmp` sidecars, which are not read here).
    static func isVideo(_ name: String) -> Bool {
        ["mov", "mp4", "m4v", "3gp"].contains((name as NSString).pathExtension.lowercased())
    }
}
