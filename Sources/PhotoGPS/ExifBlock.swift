import CExif

/// One EXIF block loaded by libexif, freed when this object goes away.
///
/// This is the only type that touches libexif. It is created, read and released inside one
/// function call, so no C pointer ever crosses a thread.
final class ExifBlock {
    private let data: UnsafeMutablePointer<ExifData>
    private let bigEndian: Bool

    /// Loads an EXIF block: `Exif\0\0` followed by a TIFF structure of at most 64 KiB
    /// (libexif's own limit), exactly as a JPEG APP1 segment carries it.
    ///
    /// libexif is asked to keep every tag as stored (no FOLLOW_SPECIFICATION repairs, no
    /// dropping of tags it does not know).
    init(payload: [UInt8]) throws(PhotoGPSError) {
        guard let data = CExif_newVerbatimData() else { throw .outOfMemory }
        payload.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(truncatingIfNeeded: buffer.count))
        }
        self.data = data
        bigEndian = exif_data_get_byte_order(data) == EXIF_BYTE_ORDER_MOTOROLA
    }

    deinit { exif_data_unref(data) }

    /// The entries of the GPS IFD that the policy reads.
    func gpsTags() -> GPSTags {
        let ifd = EXIF_IFD_GPS
        typealias Tag = GPSTags.Tag
        return GPSTags(
            latitudeRef: value(Tag.latitudeRef, in: ifd),
            latitude: value(Tag.latitude, in: ifd),
            longitudeRef: value(Tag.longitudeRef, in: ifd),
            longitude: value(Tag.longitude, in: ifd),
            altitudeRef: value(Tag.altitudeRef, in: ifd),
            altitude: value(Tag.altitude, in: ifd),
            timeStamp: value(Tag.timeStamp, in: ifd),
            dateStamp: value(Tag.dateStamp, in: ifd),
            speedRef: value(Tag.speedRef, in: ifd),
            speed: value(Tag.speed, in: ifd),
            imgDirectionRef: value(Tag.imgDirectionRef, in: ifd),
            imgDirection: value(Tag.imgDirection, in: ifd),
            mapDatum: value(Tag.mapDatum, in: ifd),
            horizontalError: value(Tag.horizontalError, in: ifd))
    }

    /// Make and Model (IFD0), DateTimeOriginal, OffsetTimeOriginal and SubSecTimeOriginal (EXIF IFD).
    func camera() -> CameraInfo {
        CameraInfo(
            make: value(0x010F, in: EXIF_IFD_0)?.text,
            model: value(0x0110, in: EXIF_IFD_0)?.text,
            dateTimeOriginal: value(0x9003, in: EXIF_IFD_EXIF)?.text,
            offsetTimeOriginal: value(0x9011, in: EXIF_IFD_EXIF)?.text,
            subSecTimeOriginal: value(0x9291, in: EXIF_IFD_EXIF)?.text)
    }

    /// The entry `tag` of `ifd`, decoded from its raw bytes in the block's byte order.
    func value(_ tag: UInt16, in ifd: ExifIfd) -> ExifValue? {
        guard let content = CExif_content(data, ifd),
            let entry = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag)))
        else { return nil }
        let type = UInt16(truncatingIfNeeded: entry.pointee.format.rawValue)
        let count = CExif_componentCount(entry)
        let size = Int(entry.pointee.size)
        guard let start = entry.pointee.data else { return .other(type: type, count: count) }
        let raw = UnsafeBufferPointer(start: start, count: size)
        func unsigned(_ offset: Int, _ width: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<width {
                let byte = UInt64(raw[offset + (bigEndian ? index : width - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        func items<T>(width: Int, _ read: (Int) -> T) -> [T] {
            (0..<min(count, size / width)).map { read($0 * width) }
        }
        switch type {
        case 1, 6, 7: return .bytes(Array(raw))
        case 2: return .ascii(Array(raw))
        case 3: return .integers(items(width: 2) { Int64(unsigned($0, 2)) })
        case 4: return .integers(items(width: 4) { Int64(unsigned($0, 4)) })
        case 8: return .integers(items(width: 2) { Int64(Int16(truncatingIfNeeded: unsigned($0, 2))) })
        case 9: return .integers(items(width: 4) { Int64(Int32(truncatingIfNeeded: unsigned($0, 4))) })
        case 5:
            return .rationals(
                items(width: 8) { Rational(Int64(unsigned($0, 4)), Int64(unsigned($0 + 4, 4))) })
        case 10:
            return .signedRationals(
                items(width: 8) {
                    Rational(
                        Int64(Int32(truncatingIfNeeded: unsigned($0, 4))),
                        Int64(Int32(truncatingIfNeeded: unsigned($0 + 4, 4))))
                })
        default: return .other(type: type, count: count)
        }
    }
}
