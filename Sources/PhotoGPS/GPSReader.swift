#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What reading one photo found: a position, no GPS, an unusable GPS block, or an error.
public struct GPSReading: Hashable, Sendable {
    /// The four outcomes of reading a photo; the raw values are the `status` field of records.
    public enum Status: String, Hashable, Sendable {
        /// A valid position: ``GPSReading/fix`` is set.
        case located
        /// No GPS position is recorded (no GPS block, or no EXIF at all).
        case noGPS = "no-gps"
        /// A GPS block whose position is unusable; ``GPSReading/warnings`` says why.
        case invalidGPS = "invalid-gps"
        /// The file could not be read or parsed; ``GPSReading/error`` says why.
        case error
    }

    public var status: Status
    /// The position and its companions; set exactly when `status` is `.located`.
    public var fix: GPSFix?
    /// Camera make, model and capture time, when the file has an EXIF block.
    public var camera: CameraInfo?
    /// Why the GPS block is unusable, and anything odd about a usable one.
    public var warnings: [GPSWarning]
    /// Why the file could not be read; set exactly when `status` is `.error`.
    public var error: PhotoGPSError?

    init(
        status: Status, fix: GPSFix? = nil, camera: CameraInfo? = nil, warnings: [GPSWarning] = [],
        error: PhotoGPSError? = nil
    ) {
        self.status = status
        self.fix = fix
        self.camera = camera
        self.warnings = warnings
        self.error = error
    }

    /// A reading that is only an error (a file or folder that could not be read at all).
    public static func failure(_ error: PhotoGPSError, warnings: [GPSWarning] = []) -> GPSReading {
        GPSReading(status: .error, warnings: warnings, error: error)
    }
}

/// Reads the GPS position of photo files.
///
/// Only the head of a file is read: a JPEG's marker segments up to its EXIF APP1 (never past the
/// start of the image data). The EXIF block is handed to libexif, and the GPS IFD is decoded
/// under the policy of DESIGN.md §4.
///
/// `GPSReader` holds no state; one value can read files on many threads at once.
public struct GPSReader: Sendable {
    public init() {}

    /// Reads the photo at `path`.
    ///
    /// A directory, FIFO or device is reported as an error without being opened for reading.
    public func read(file path: String) -> GPSReading {
        do {
            return read(source: try FileSource(path: path))
        } catch {
            return .failure(error)
        }
    }

    /// Reads the photo at a path given as bytes: file names on Linux need not be valid UTF-8.
    public func read(fileAtPath path: [UInt8]) -> GPSReading {
        guard !path.contains(0) else { return .failure(.cannotOpen(errno: EINVAL)) }
        let terminated = path + [0]
        return terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                let source: FileSource
                do throws(PhotoGPSError) {
                    source = try FileSource(cPath: characters.baseAddress!)
                } catch {
                    return .failure(error)
                }
                return read(source: source)
            }
        }
    }

    /// Reads a photo already in memory.
    public func read(bytes: [UInt8]) -> GPSReading {
        read(source: MemorySource(storage: bytes))
    }

    func read(source: some ByteSource) -> GPSReading {
        do {
            return try readJPEG(source)
        } catch {
            return .failure(error)
        }
    }

    /// The `Exif\0\0` identifier that starts an EXIF APP1 payload.
    static let exifIdentifier: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    private func readJPEG(_ source: some ByteSource) throws(PhotoGPSError) -> GPSReading {
        guard source.count > 0 else { throw .emptyFile }
        guard JPEGSegments<MemorySource>.matches(try source.bytes(at: 0, length: 3)) else {
            throw .unsupportedFormat
        }
        var segments = JPEGSegments(source: source)
        while let segment = try segments.next() {
            guard segment.marker == 0xE1, segment.payloadLength >= 6 else { continue }
            let payload = try segments.payload(of: segment)
            guard payload.starts(with: Self.exifIdentifier) else { continue }
            return try decodeExif(payload, declaredLength: segment.payloadLength)
        }
        return GPSReading(status: .noGPS)
    }

    /// Decodes an EXIF block (`Exif\0\0` + TIFF); `declaredLength` is what its segment promised,
    /// which is more than `payload.count` when the file ends inside the block.
    private func decodeExif(_ payload: [UInt8], declaredLength: Int) throws(PhotoGPSError) -> GPSReading {
        let truncated = payload.count < declaredLength
        guard let tiff = TIFFStructure(payload[6...]) else {
            throw truncated
                ? .truncated("the file ends inside the EXIF block, at byte \(payload.count) of \(declaredLength)")
                : .malformedEXIF("the EXIF block has no TIFF header")
        }
        let block = try ExifBlock(payload: payload)
        let camera = block.camera()
        var warnings: [GPSWarning] = truncated ? [.truncatedExif(read: payload.count, declared: declaredLength)] : []
        let gpsOffset: UInt32
        switch tiff.gpsPointer {
        case .found(let offset, let type, let count):
            // An IFD pointer is one LONG (type 4) or IFD (type 13); anything else points nowhere.
            guard count == 1, type == 4 || type == 13 else {
                warnings.append(.badGPSPointer(type: type, count: count))
                return GPSReading(status: .noGPS, camera: camera, warnings: warnings)
            }
            gpsOffset = offset
        case .absent:
            return GPSReading(status: .noGPS, camera: camera, warnings: warnings)
        case .cutShort:
            if truncated {
                throw .truncated("the file ends inside the EXIF block, at byte \(payload.count) of \(declaredLength)")
            }
            warnings.append(.ifd0CutShort)
            return GPSReading(status: .noGPS, camera: camera, warnings: warnings)
        }
        guard tiff.u16(at: Int(gpsOffset)) != nil else {
            if truncated {
                throw .truncated("the file ends inside the EXIF block, before its GPS IFD")
            }
            warnings.append(.gpsIFDOutOfBounds(offset: gpsOffset))
            return GPSReading(status: .invalidGPS, camera: camera, warnings: warnings)
        }
        let decoded = GPSFix.decode(block.gpsTags())
        warnings += decoded.warnings
        if let fix = decoded.fix {
            return GPSReading(status: .located, fix: fix, camera: camera, warnings: warnings)
        }
        return GPSReading(status: .invalidGPS, camera: camera, warnings: warnings)
    }
}
