// The libFuzzer entry point for the sidecar editor (`phototag tag`): one input is the bytes of
// one sidecar to update. The first byte's low bit says whether to overwrite; the rest is the
// sidecar. Besides crashes, it traps on a broken promise of XMPEditor:
//
// - the edited sidecar is well-formed: editing it again with the same properties writes nothing,
//   and with --overwrite finds every property unchanged;
// - without --overwrite, every byte of a UTF-8 sidecar is in the edited one, in order;
// - a position it says it wrote is the one phototag's own XMP reader reads from it.
//
// Built with `-sanitize=fuzzer -DFUZZING` (FUZZ_TARGET=XMPEditorFuzzer ../../run), libFuzzer
// supplies `main`. Built without FUZZING, this is a small replay tool: `XMPEditorFuzzer FILE...`
// edits each file both ways and prints what became of it.
import PhotoGPS

#if canImport(Glibc)
    import Glibc
#endif

let exif = "http://ns.adobe.com/exif/1.0/"
let properties: [XMPProperty] = [
    XMPProperty(
        namespace: exif, prefix: "exif", name: "GPSLatitude", value: .text("48,51.49800000N"), comparison: .coordinate,
        group: 1),
    XMPProperty(
        namespace: exif, prefix: "exif", name: "GPSLongitude", value: .text("2,21.36600000E"), comparison: .coordinate,
        group: 1),
    XMPProperty(
        namespace: "http://ns.adobe.com/photoshop/1.0/", prefix: "photoshop", name: "City", value: .text("Paris & <Co>")
    ),
    XMPProperty(
        namespace: "http://iptc.org/std/Iptc4xmpExt/2008-02-29/", prefix: "Iptc4xmpExt", name: "LocationCreated",
        value: .bagOfStructure([.init("City", "Paris"), .init("CountryCode", "FR")])),
]
let companions = [
    XMPProperty(namespace: "urn:phototag:xmp:1.0#", prefix: "phototag", name: "Version", value: .text("fuzz"))
]

/// Edits `sidecar`; traps when a promise is broken. The outcome, for the replay tool.
@discardableResult
func check(_ sidecar: [UInt8], overwrite: Bool) -> String {
    let edit: XMPEdit
    do throws(XMPEditError) {
        edit = try XMPEditor.edit(sidecar, setting: properties, companions: companions, overwrite: overwrite)
    } catch {
        return "refused: \(error)"
    }
    guard let document = edit.document else { return "nothing to write" }
    // Well-formed and idempotent: a second edit writes nothing.
    let again: XMPEdit
    do throws(XMPEditError) {
        again = try XMPEditor.edit(document, setting: properties, companions: companions, overwrite: overwrite)
    } catch {
        #if !FUZZING
            _ = document.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        #endif
        fatalError("the edited sidecar is refused by the editor: \(error)")
    }
    precondition(again.document == nil, "a second edit writes again")
    if overwrite {
        precondition(again.outcomes.allSatisfy { $0.status == .unchanged }, "overwritten but not unchanged")
    }
    // Nothing lost: a UTF-8 sidecar's bytes are all in the edited one, in order.
    // (One in UTF-16 or UTF-32 is written back as UTF-8: its characters are kept, not its bytes.)
    let utf8 =
        !sidecar.prefix(4).contains(0) && !sidecar.starts(with: [0xFE, 0xFF]) && !sidecar.starts(with: [0xFF, 0xFE])
    if !overwrite, utf8 {
        var iterator = document.makeIterator()
        let kept = sidecar.allSatisfy { byte in
            while let next = iterator.next() { if next == byte { return true } }
            return false
        }
        precondition(kept, "a byte of the sidecar is lost")
    }
    // A position written is the position read.
    if edit.outcomes.contains(where: { $0.property.name == "GPSLatitude" && $0.status == .written }) {
        let fix = Sidecar.read(bytes: document, kind: .xmp).fix
        precondition(fix != nil, "the position written is not read")
        precondition(
            abs(fix!.latitude - 48.8583) < 1e-9 && abs(fix!.longitude - 2.3561) < 1e-9, "another position is read")
    }
    return "written (\(edit.outcomes.filter { $0.status == .written }.count) properties)"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    check(Array(UnsafeBufferPointer(start: data + 1, count: size - 1)), overwrite: data[0] & 1 == 1)
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
                print("\(path): \(check(bytes, overwrite: false)); overwrite: \(check(bytes, overwrite: true))")
            }
        }
    }
#endif
