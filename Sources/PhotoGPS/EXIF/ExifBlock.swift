import CExif
import CExifShim

/// One EXIF block loaded and decoded by libexif, freed when this value goes away.
///
/// This is the only type that touches libexif. libexif parses the TIFF structure, indexes the
/// entries and decodes every number with its own accessors (`exif_get_short`, `exif_get_long`,
/// `exif_get_rational`… in the byte order `exif_data_get_byte_order` reports); this type only
/// turns the result into ``ExifValue``s (kept inline, not in arrays) and texts. It is created, read and released inside one function
/// call, so no C pointer ever crosses a thread: libexif allocates from the thread's arena
/// (`CExif_newArenaData`), emptied when the thread's last block is released, so a scan's steady
/// state loads EXIF blocks without a single malloc. A noncopyable struct, not a class: one owner
/// frees the block, and reading a photo allocates no object for it.
struct ExifBlock: ~Copyable {
    private let data: UnsafeMutablePointer<ExifData>
    private let order: ExifByteOrder

    /// Loads an EXIF block: `Exif\0\0` followed by a TIFF structure of at most 64 KiB
    /// (libexif's own limit), exactly as a JPEG APP1 segment carries it.
    ///
    /// libexif is asked to keep every tag as stored (no FOLLOW_SPECIFICATION repairs, no
    /// dropping of tags it does not know).
    init(payload: [UInt8]) throws(PhotoGPSError) {
        data = try payload.withUnsafeBufferPointer { (bytes) throws(PhotoGPSError) in try Self.load(bytes) }
        order = exif_data_get_byte_order(data)
    }

    /// Loads an EXIF block from memory that only needs to live for the call: libexif copies what
    /// it keeps.
    init(bytes: UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) {
        data = try Self.load(bytes)
        order = exif_data_get_byte_order(data)
    }

    /// A new ExifData of the thread's arena with `bytes` loaded.
    private static func load(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) throws(PhotoGPSError) -> UnsafeMutablePointer<ExifData> {
        guard let data = CExif_newArenaData() else { throw .outOfMemory }
        exif_data_load_data(data, bytes.baseAddress, UInt32(truncatingIfNeeded: bytes.count))
        return data
    }

    deinit { CExif_releaseArenaData(data) }

    /// The size of the calling thread's arena, in bytes (0 before its first block).
    static var threadArenaCapacity: Int { CExif_threadArenaCapacity() }

    /// The entries of the GPS IFD that the policy reads.
    func gpsTags() -> GPSTags {
        let ifd = EXIF_IFD_GPS
        return GPSTags(
            latitudeRef: value(GPSTag.latitudeRef, in: ifd),
            latitude: value(GPSTag.latitude, in: ifd),
            longitudeRef: value(GPSTag.longitudeRef, in: ifd),
            longitude: value(GPSTag.longitude, in: ifd),
            altitudeRef: value(GPSTag.altitudeRef, in: ifd),
            altitude: value(GPSTag.altitude, in: ifd),
            timeStamp: value(GPSTag.timeStamp, in: ifd),
            dateStamp: value(GPSTag.dateStamp, in: ifd),
            speedRef: value(GPSTag.speedRef, in: ifd),
            speed: value(GPSTag.speed, in: ifd),
            imgDirectionRef: value(GPSTag.imgDirectionRef, in: ifd),
            imgDirection: value(GPSTag.imgDirection, in: ifd),
            mapDatum: value(GPSTag.mapDatum, in: ifd),
            horizontalError: value(GPSTag.horizontalError, in: ifd))
    }

    /// Make and Model (IFD0), DateTimeOriginal, OffsetTimeOriginal and SubSecTimeOriginal (EXIF IFD).
    ///
    /// DateTimeOriginal goes from libexif's bytes straight to its ISO 8601 form, as
    /// ``CameraInfo/init(make:model:dateTimeOriginal:offsetTimeOriginal:subSecTimeOriginal:timeSource:)``
    /// would make it from the text: one string, not two.
    func camera() -> CameraInfo {
        var camera = CameraInfo(
            make: text(ExifTag.make, in: EXIF_IFD_0),
            model: text(ExifTag.model, in: EXIF_IFD_0),
            offsetTimeOriginal: text(ExifTag.offsetTimeOriginal, in: EXIF_IFD_EXIF),
            subSecTimeOriginal: text(ExifTag.subSecTimeOriginal, in: EXIF_IFD_EXIF))
        camera.dateTimeOriginal = withText(ExifTag.dateTimeOriginal, in: EXIF_IFD_EXIF) { bytes in
            bytes.flatMap(CameraInfo.isoDateTime(utf8:))
        }
        return camera
    }

    /// The entry `tag` of `ifd` read as text, as `value(tag, in: ifd)?.text` reads it, straight
    /// from libexif's copy of the entry's data; `nil` when it is absent or numeric.
    func text(_ tag: UInt16, in ifd: ExifIfd) -> String? {
        withText(tag, in: ifd) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the UTF-8 bytes ``text(_:in:)`` would decode (up to the first NUL, without
    /// trailing spaces, in libexif's copy of the entry), or with `nil` when it would be `nil`.
    func withText<Result>(
        _ tag: UInt16, in ifd: ExifIfd, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
    ) -> Result {
        guard let entry = entry(tag, in: ifd), let bytes = entry.pointee.data else { return body(nil) }
        switch TIFFType(rawValue: UInt16(truncatingIfNeeded: entry.pointee.format.rawValue)) {
        case .byte, .sbyte, .undefined, .ascii:
            return body(ExifValue.textBytes(of: UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))))
        default:
            return body(nil)
        }
    }

    /// libexif's entry `tag` of `ifd`, borrowed from this block; `nil` when it holds none.
    private func entry(_ tag: UInt16, in ifd: ExifIfd) -> UnsafeMutablePointer<ExifEntry>? {
        guard let content = CExif_content(data, ifd) else { return nil }
        return exif_content_get_entry(content, CExif.ExifTag(rawValue: UInt32(tag)))
    }

    /// The entry `tag` of `ifd` as libexif decoded it; `nil` when libexif holds no such entry
    /// (it is absent, or libexif dropped it, for instance because its value lies outside the block).
    ///
    /// Numbers come from libexif's typed accessors, as many as the entry's data holds (never more
    /// than its component count); bytes and text are the entry's data as stored.
    func value(_ tag: UInt16, in ifd: ExifIfd) -> ExifValue? {
        guard let entry = entry(tag, in: ifd) else { return nil }
        let rawType = UInt16(truncatingIfNeeded: entry.pointee.format.rawValue)
        guard let bytes = entry.pointee.data, let type = TIFFType(rawValue: rawType) else {
            return .other(type: rawType, count: CExif_componentCount(entry))
        }
        let readable = CExif_readableComponents(entry)
        func components<T>(_ read: (Int) -> T) -> EntryComponents<T> { EntryComponents(count: readable, element: read) }
        switch type {
        case .byte, .sbyte, .undefined:
            return .bytes(EntryBytes(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))))
        case .ascii:
            return .ascii(EntryBytes(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))))
        case .short: return .integers(components { Int64(CExif_short(entry, $0, order)) })
        case .long: return .integers(components { Int64(CExif_long(entry, $0, order)) })
        case .sshort: return .integers(components { Int64(CExif_sshort(entry, $0, order)) })
        case .slong: return .integers(components { Int64(CExif_slong(entry, $0, order)) })
        case .rational:
            return .rationals(
                components {
                    let part = CExif_rational(entry, $0, order)
                    return Rational(Int64(part.numerator), Int64(part.denominator))
                })
        case .srational:
            return .signedRationals(
                components {
                    let part = CExif_srational(entry, $0, order)
                    return Rational(Int64(part.numerator), Int64(part.denominator))
                })
        case .float, .double, .ifd:
            return .other(type: rawType, count: CExif_componentCount(entry))
        }
    }
}
