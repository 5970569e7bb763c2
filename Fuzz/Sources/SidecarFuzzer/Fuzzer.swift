// The libFuzzer entry point for sidecars: one input is the bytes of one sidecar file, read both
// as an XMP sidecar and as a Google Takeout JSON file (the XML tokenizer, the XMP GPS and date
// properties, the strict JSON reader and the Takeout keys).
//
// Built with `-sanitize=fuzzer -DFUZZING` (FUZZ_TARGET=SidecarFuzzer ../../run), libFuzzer
// supplies `main`. Built without FUZZING, this is a small replay tool: `SidecarFuzzer FILE...`
// reads each file both ways and prints the two statuses.
import PhotoGPS

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = Sidecar.read(bytes: bytes, kind: .xmp)
    _ = Sidecar.read(bytes: bytes, kind: .takeout)
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
                let xmp = Sidecar.read(bytes: bytes, kind: .xmp)
                let takeout = Sidecar.read(bytes: bytes, kind: .takeout)
                print("\(path): xmp \(xmp.status.rawValue), takeout \(takeout.status.rawValue)")
            }
        }
    }
#endif
