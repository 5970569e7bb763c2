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
    // A short input is also a video's location: the string of a udta ©xyz box (the ISO 6709
    // parser), a QuickTime keys value, and the payload of a 3GPP loci box.
    if size <= 256 {
        for movie in VideoWrapping.movies(around: bytes) { _ = GPSReader().read(bytes: movie) }
    }
    return 0
}

/// Minimal MP4 files around a fuzz input, so that the ISO 6709 parser and the `loci` decoder get
/// arbitrary bytes without a container in the way.
enum VideoWrapping {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { box(Array(type.utf8), payload) }

    static func box(_ type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + type
            + payload
    }

    static func movies(around input: [UInt8]) -> [[UInt8]] {
        let ftyp = box("ftyp", Array("mp42".utf8) + [0, 0, 0, 0] + Array("mp42".utf8))
        let length = UInt16(input.count)
        let xyz = box([0xA9, 0x78, 0x79, 0x7A], [UInt8(length >> 8), UInt8(length & 0xFF), 0x15, 0xC7] + input)
        let keys =
            box("hdlr", [UInt8](repeating: 0, count: 8) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
            + box(
                "keys", [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 44] + Array("mdtacom.apple.quicktime.location.ISO6709".utf8))
            + box("ilst", box([0, 0, 0, 1], box("data", [0, 0, 0, 1, 0, 0, 0, 0] + input)))
        return [
            ftyp + box("moov", box("udta", xyz)),
            ftyp + box("moov", box("udta", box("loci", input))),
            ftyp + box("moov", box("meta", keys)),
        ]
    }
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
                if bytes.count <= 256 {
                    let wrapped = VideoWrapping.movies(around: bytes).map {
                        GPSReader().read(bytes: $0).status.rawValue
                    }
                    print("  as ©xyz, loci, keys: \(wrapped.joined(separator: ", "))")
                }
            }
        }
    }
#endif
