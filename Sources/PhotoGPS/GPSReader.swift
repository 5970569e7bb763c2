import PhotoTagSupport

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

    /// Which of the four outcomes this is.
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
/// under the GPS policy documented in README.md, "How GPS is read".
///
/// `GPSReader` holds no state; one value can read files on many threads at once.
public struct GPSReader: Sendable {
    /// A reader; it has no options.
    public init() {}

    /// Reads the photo at `path`.
    ///
    /// A directory, FIFO or device is reported as an error without being opened for reading.
    public func read(path: String) -> GPSReading {
        do {
            return read(source: try FileSource(path: path))
        } catch {
            return .failure(error)
        }
    }

    /// Reads the photo at a path given as bytes: file names on Linux need not be valid UTF-8.
    ///
    /// With `streamLimit`, a FIFO or character device (`/dev/stdin`, a shell's `<(…)`) is read
    /// into memory, up to that many bytes, and parsed from there; without it, it is an error
    /// and is never opened.
    public func read(path: [UInt8], streamLimit: Int? = nil) -> GPSReading {
        guard !path.contains(0) else { return .failure(.cannotOpen(errno: SystemError.invalidArgument.code)) }
        return withCPath(path) { cPath in
            // Only opening throws: read(source:) reports what goes wrong later in its reading.
            // The file's bookkeeping is on the stack (FileBytes), not in an object.
            do throws(PhotoGPSError) {
                return try FileBytes.withOpenedFile(cPath: cPath) { file in read(source: file) }
            } catch {
                if case .notARegularFile(let kind) = error, let streamLimit, StreamReading.reads(kind) {
                    return readStream(cPath: cPath, kind: kind, limit: streamLimit)
                }
                return .failure(error)
            }
        }
    }

    /// Reads the regular file open at `descriptor` (the caller opened it and closes it) as
    /// ``read(path:streamLimit:)`` reads a file once it has opened it: with `pread(2)`, from
    /// offset 0. For a scan that opens files ahead of parsing them.
    package func read(openedFile descriptor: Int32) -> GPSReading {
        do {
            return try FileBytes.withOpenedFile(descriptor: descriptor) { file in read(source: file) }
        } catch {
            return .failure(error)
        }
    }

    /// Reads a photo from a descriptor open for reading (standard input, a pipe) to its end, up to
    /// `limit` bytes; `name` says what it is in the error past the limit (`standard input`).
    public func read(descriptor: Int32, limit: Int, name: String) -> GPSReading {
        do {
            return read(bytes: try StreamReading.readAll(descriptor, limit: limit, name: name))
        } catch {
            return .failure(error)
        }
    }

    /// Opens a FIFO or character device (blocking until a FIFO has a writer) and reads it.
    private func readStream(cPath: UnsafePointer<CChar>, kind: String, limit: Int) -> GPSReading {
        let descriptor: Int32
        do { descriptor = try openForReading(cPath) } catch { return .failure(.cannotOpen(errno: error.code)) }
        defer { closeFile(descriptor) }
        return read(descriptor: descriptor, limit: limit, name: "the \(kind)")
    }

    /// Reads a photo already in memory.
    public func read(bytes: [UInt8]) -> GPSReading {
        read(source: MemorySource(storage: bytes))
    }

    func read(source: some ByteSource) -> GPSReading {
        do {
            return try readContainer(source)
        } catch {
            return .failure(error)
        }
    }

    /// The `Exif\0\0` identifier that starts an EXIF APP1 payload.
    static let exifIdentifier: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// Identifies the container by its first bytes (never by the file's name) and reads it.
    private func readContainer(_ source: some ByteSource) throws(PhotoGPSError) -> GPSReading {
        guard source.count > 0 else { throw .emptyFile }
        switch try Container.identify(source) {
        case .jpeg:
            return try readJPEG(source)
        case .tiff:
            let block = try CompactTIFF.block(from: TIFFReader(source: source))
            return try decodeExif(block, declaredLength: block.count)
        case .png:
            return try readChunks { wantXMP throws(PhotoGPSError) in try PNGChunks.read(source, wantXMP: wantXMP) }
        case .webp:
            return try readChunks { wantXMP throws(PhotoGPSError) in try WebPChunks.read(source, wantXMP: wantXMP) }
        case .heif:
            guard let items = try HEIFItems(source: source) else { return GPSReading(status: .noGPS) }
            var reading: GPSReading? = nil
            if let item = try items.exif() {
                let block = try exifPayload(fromTIFF: try tiffInExifItem(item))
                reading = try decodeExif(block, declaredLength: block.count)
            }
            return try withXMPFallback(reading) { () throws(PhotoGPSError) in try items.xmp() }
        case .cr3:
            guard let block = try CR3.exifBlock(in: source) else { return GPSReading(status: .noGPS) }
            return try decodeExif(block, declaredLength: block.count)
        case .jpegXL:
            let found = try JPEGXL.metadata(in: source)
            var reading: GPSReading? = nil
            if let item = found.exif {
                let block = try exifPayload(fromTIFF: try tiffInExifItem(item))
                reading = try decodeExif(block, declaredLength: block.count)
            }
            var result = try withXMPFallback(reading) { found.xmp }
            result.warnings += found.warnings
            return result
        case .raf:
            return try readEmbeddedJPEG(WindowSource(source, try RawPreview.rafJPEG(in: source)))
        case .x3f:
            // The first preview whose EXIF gives a reading; none (the SD9, SD10): no GPS.
            var last: GPSReading? = nil
            for range in try RawPreview.x3fJPEGs(in: source) {
                let reading = try readEmbeddedJPEG(WindowSource(source, range))
                if reading.status == .located { return reading }
                if last == nil || reading.camera != nil { last = reading }
            }
            return last ?? GPSReading(status: .noGPS)
        case .movie:
            return try Movie.read(source)
        case .unsupported(nil):
            // No photo format: a sidecar's content (XMP, Takeout JSON) is read as a sidecar, as
            // its name would have it read.
            let head = try source.bytes(at: 0, length: 4096)
            guard let kind = Sidecar.kind(ofContent: head) else { throw .unsupportedFormat(nil) }
            guard source.count <= Sidecar.sizeLimit else {
                throw .tooLarge(source: "the sidecar", limit: Sidecar.sizeLimit)
            }
            return Sidecar.read(bytes: try source.bytes(at: 0, length: source.count), kind: kind)
        case .unsupported(let kind):
            throw .unsupportedFormat(kind)
        }
    }

    /// Reads a chunked container (PNG, WebP): its EXIF chunk first, and only when that gives no
    /// usable position a second walk that also collects the XMP chunk.
    private func readChunks(
        _ walk: (_ wantXMP: Bool) throws(PhotoGPSError) -> ChunkMetadata
    ) throws(PhotoGPSError) -> GPSReading {
        var reading: GPSReading? = nil
        let found = try walk(false)
        if let exif = found.exif {
            let block = try exifPayload(fromTIFF: exif)
            reading = try decodeExif(block, declaredLength: block.count)
        } else if !found.warnings.isEmpty {
            // A damaged EXIF chunk: its position is unusable, as an invalid GPS block's is.
            reading = GPSReading(status: .invalidGPS, warnings: found.warnings)
        }
        var xmpWarnings: [GPSWarning] = []
        var result = try withXMPFallback(reading) { () throws(PhotoGPSError) in
            let again = try walk(true)
            xmpWarnings = again.warnings.filter { !found.warnings.contains($0) }
            return again.xmp
        }
        result.warnings += xmpWarnings
        return result
    }

    /// What an APP1 segment of a JPEG holds, as far as ``readJPEG(_:)`` is concerned.
    private enum JPEGAPP1 {
        /// The EXIF block, decoded.
        case exif(GPSReading)
        /// An XMP packet, copied.
        case xmp([UInt8])
        /// Something else.
        case other
    }

    /// Reads a JPEG's marker segments up to the EXIF APP1; only when EXIF has no usable position
    /// does the walk go on (never past SOS) for an XMP APP1.
    private func readJPEG(_ source: some ByteSource) throws(PhotoGPSError) -> GPSReading {
        var segments = JPEGSegments(source: source)
        var xmp: [UInt8]? = nil
        var exifReading: GPSReading? = nil
        do {
            while let segment = try segments.next() {
                guard segment.marker == 0xE1, segment.payloadLength >= 6 else { continue }
                // The payload lives only for the call (in the thread's ReadBuffer when read from
                // a file): the EXIF block is decoded and an XMP packet copied inside it.
                let app1 = try segments.withPayload(of: segment) { (payload) throws(PhotoGPSError) -> JPEGAPP1 in
                    if exifReading == nil, payload.starts(with: Self.exifIdentifier) {
                        return .exif(try decodeExif(payload, declaredLength: segment.payloadLength))
                    } else if xmp == nil, payload.starts(with: XMP.jpegIdentifier) {
                        return .xmp(Array(payload[XMP.jpegIdentifier.count...]))
                    }
                    return .other
                }
                switch app1 {
                case .exif(let reading):
                    // A position is final (withXMPFallback would return it as it is).
                    if reading.status == .located { return reading }
                    if xmp != nil { return try withXMPFallback(reading) { xmp } }
                    exifReading = reading
                case .xmp(let packet):
                    xmp = packet
                case .other:
                    continue
                }
                if exifReading != nil, xmp != nil { break }
            }
        } catch {
            // Past a decoded EXIF block, a broken tail only ends the search for XMP.
            guard exifReading != nil else { throw error }
        }
        return try withXMPFallback(exifReading) { xmp }
    }

    /// A raw file's embedded JPEG preview, read as a JPEG; one that is not a JPEG has no EXIF.
    private func readEmbeddedJPEG(_ preview: WindowSource<some ByteSource>) throws(PhotoGPSError) -> GPSReading {
        let head = try preview.bytes(at: 0, length: 3)
        guard head == [0xFF, 0xD8, 0xFF] else { return GPSReading(status: .noGPS) }
        return try readJPEG(preview)
    }

    /// The EXIF reading, or the XMP packet's position when EXIF has none that is usable (EXIF
    /// wins whenever it is valid). Warnings of both are kept.
    private func withXMPFallback(
        _ exif: GPSReading?, xmp: () throws(PhotoGPSError) -> [UInt8]?
    ) throws(PhotoGPSError) -> GPSReading {
        var reading = exif ?? GPSReading(status: .noGPS)
        guard reading.status != .located, let packet = try xmp() else { return reading }
        let decoded = XMP.decode(packet)
        reading.warnings += decoded.warnings
        if let fix = decoded.fix {
            reading.status = .located
            reading.fix = fix
        } else if reading.status == .noGPS, decoded.warnings.contains(where: { $0 != .xmpNotWellFormed }) {
            reading.status = .invalidGPS
        }
        return reading
    }

    /// The TIFF in a HEIF `Exif` item: a 4-byte big-endian offset to the TIFF header, then the
    /// data (writers put `Exif\0\0` in between, or not). When the offset does not lead to a TIFF
    /// header, the first bytes are searched for one.
    private func tiffInExifItem(_ item: [UInt8]) throws(PhotoGPSError) -> ArraySlice<UInt8> {
        guard item.count >= 12 else { throw .malformedEXIF("the Exif item has \(item.count) bytes") }
        let offset = Int(ByteOrder.bigEndian.read(UInt32.self, item, at: 0))
        let candidates = [4 + offset] + Array(4..<min(item.count - 4, 80))
        for start in candidates where start >= 4 && start + 4 <= item.count {
            let head = item[start..<start + 4]
            if head.elementsEqual(TIFFHeader.intel) || head.elementsEqual(TIFFHeader.motorola) {
                return item[start...]
            }
        }
        throw .malformedEXIF("the Exif item has no TIFF header")
    }

    /// An EXIF block for libexif from TIFF bytes (with or without an `Exif\0\0` prefix): as is
    /// when it fits libexif's 64 KiB, else rebuilt compactly.
    private func exifPayload(fromTIFF bytes: some Collection<UInt8>) throws(PhotoGPSError) -> [UInt8] {
        var tiff = Array(bytes)
        if tiff.starts(with: Self.exifIdentifier) { tiff.removeFirst(6) }
        guard tiff.count > 0xFFF0 else { return Self.exifIdentifier + tiff }
        return try CompactTIFF.block(from: TIFFReader(source: MemorySource(storage: tiff)))
    }

    /// Decodes an EXIF block (`Exif\0\0` + TIFF); `declaredLength` is what its segment promised,
    /// which is more than `payload.count` when the file ends inside the block.
    private func decodeExif(_ payload: [UInt8], declaredLength: Int) throws(PhotoGPSError) -> GPSReading {
        try payload.withUnsafeBufferPointer { (bytes) throws(PhotoGPSError) in
            try decodeExif(bytes, declaredLength: declaredLength)
        }
    }

    /// ``decodeExif(_:declaredLength:)`` of a block in memory that only needs to live for the
    /// call (libexif copies what it keeps; the reading holds nothing of it).
    private func decodeExif(
        _ payload: UnsafeBufferPointer<UInt8>, declaredLength: Int
    ) throws(PhotoGPSError) -> GPSReading {
        let truncated = payload.count < declaredLength
        let tiff: TIFFReader<BufferSource>
        do {
            tiff = try TIFFReader(source: BufferSource(buffer: payload), base: 6)
        } catch {
            throw truncated
                ? .truncated("the file ends inside the EXIF block, at byte \(payload.count) of \(declaredLength)")
                : .malformedEXIF("the EXIF block has no TIFF header")
        }
        // libexif gets only the tags phototag reads (IFD0's Make and Model, three EXIF tags, the GPS
        // IFD), rebuilt compactly, not the APP1 as is: loading the APP1 as is costs libexif much
        // more (it parses maker notes and copies thumbnails, and looks up the name of every entry),
        // and libexif drops the EXIF and GPS IFDs that compaction finds in the APP1 of one file of
        // the development corpus, pillow__Tests__images__exif_gps.jpg (CompactBlockCorpusTests).
        // A block whose IFD0 cannot be read goes as is. The compact block is written in temporary
        // memory, which libexif copies what it keeps from.
        // The entries are read into the thread's arrays, given back once libexif has the block.
        let block: ExifBlock
        let arrays = EntryArrays.current
        if var parts = try? CompactTIFF.parts(from: tiff, reusing: arrays) {
            block = try parts.withBlock { (bytes) throws(PhotoGPSError) in try ExifBlock(bytes: bytes) }
            if let arrays { parts.recycle(into: arrays) }
        } else {
            block = try ExifBlock(bytes: payload)
        }
        let camera = block.camera()
        var warnings: [GPSWarning] = truncated ? [.truncatedExif(read: payload.count, declared: declaredLength)] : []
        let gpsOffset: UInt32
        switch try tiff.lookup(ExifTag.gpsIFDPointer, inIFDAt: tiff.firstIFD) {
        case .found(let offset, let type, let count):
            // An IFD pointer is one LONG or IFD; anything else points nowhere.
            guard count == 1, TIFFType(rawValue: type)?.isPointer == true else {
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
        guard tiff.contains(ifdAt: gpsOffset) else {
            if truncated {
                throw .truncated("the file ends inside the EXIF block, before its GPS IFD")
            }
            warnings.append(.gpsIFDOutOfBounds(offset: gpsOffset))
            return GPSReading(status: .invalidGPS, camera: camera, warnings: warnings)
        }
        let decoded = GPSFix.decode(block.gpsTags())
        // Most blocks have no warning before these: take the decoder's array as it is (appending
        // to an empty one makes a copy).
        if warnings.isEmpty { warnings = decoded.warnings } else { warnings += decoded.warnings }
        if let fix = decoded.fix {
            return GPSReading(status: .located, fix: fix, camera: camera, warnings: warnings)
        }
        return GPSReading(status: .invalidGPS, camera: camera, warnings: warnings)
    }
}
