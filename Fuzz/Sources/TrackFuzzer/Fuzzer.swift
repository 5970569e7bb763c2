// The libFuzzer entry point for track files: one input is the bytes of one track file (GPX, KML,
// KMZ, NMEA, IGC, FIT, CSV, Google location history). With TRACK_FORMAT set to a format's name
// (gpx, kml, kmz, nmea, igc, fit, csv, google-records, google-semantic, google-timeline), every
// input goes to that reader whatever its content, so a campaign can drive one reader; without
// it, the format is told by the content, as `phototag --track` does. Each input is read whole,
// then again in chunks of 1 to 64 bytes (the size taken from the input's length), and the two
// readings must agree: a reader that depends on where its chunks end is a finding too.
//
// Built with `-sanitize=fuzzer -DFUZZING` (FUZZ_TARGET=TrackFuzzer ../../run), libFuzzer supplies
// `main`. Built without FUZZING, this is a small replay tool: `TrackFuzzer FILE...` reads each
// file and prints its format and fixes, or the error.
import PhotoGPS

#if canImport(Glibc)
    import Glibc
#endif

/// The reader TRACK_FORMAT names, once.
let forcedFormat: TrackFormat? = getenv("TRACK_FORMAT").flatMap { TrackFormat(rawValue: String(cString: $0)) }

/// What reading gives, for comparing two readings.
func outcome(_ bytes: [UInt8], chunk: Int?) -> String {
    var track = Track()
    do {
        let report = try TrackReader.read(bytes: bytes, format: forcedFormat, name: "input", chunkSize: chunk, into: &track)
        return "\(report.format.rawValue) \(report.fixes) \(report.skipped) \(track.fixes.hashValue)"
    } catch {
        return "error \(error.message)"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = outcome(bytes, chunk: nil)
    let chunked = outcome(bytes, chunk: 1 + size % 64)
    if whole != chunked {
        print("read whole: \(whole)\nread in chunks of \(1 + size % 64): \(chunked)")
        abort()
    }
    return 0
}

#if !FUZZING
    @main
    enum Replay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let file = fopen(path, "rb") else {
                    print("\(path): cannot open")
                    continue
                }
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let got = fread(&chunk, 1, chunk.count, file)
                    if got <= 0 { break }
                    bytes += chunk[..<got]
                }
                fclose(file)
                print("\(path): \(outcome(bytes, chunk: nil)); in chunks of 7: \(outcome(bytes, chunk: 7))")
            }
        }
    }
#endif
