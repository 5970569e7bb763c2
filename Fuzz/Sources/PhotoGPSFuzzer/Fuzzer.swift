// The libFuzzer entry point: one input is the bytes of one photo file.
//
// Built with `-sanitize=fuzzer -DFUZZING` (see ../../run), libFuzzer supplies `main` and calls
// `LLVMFuzzerTestOneInput` for every input. Built without FUZZING, this is a small replay tool:
// `PhotoGPSFuzzer FILE...` reads each file through the same in-memory path and prints the status.
import PhotoGPS

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = GPSReader().read(bytes: bytes)
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
                let reading = GPSReader().read(bytes: bytes)
                print("\(path): \(reading.status.rawValue)\(reading.error.map { " (\($0))" } ?? "")")
            }
        }
    }
#endif
