import PhotoTagSupport

/// Why a photo file could not be read or parsed at all.
///
/// Every case prints as one lowercase line without a final period; it becomes the `error` field of
/// the file's record.
public enum PhotoGPSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `open(2)` failed; the payload is `errno`.
    case cannotOpen(errno: Int32)
    /// `pread(2)` or `fstat(2)` failed; the payload is `errno`.
    case cannotRead(errno: Int32)
    /// The path names a directory, FIFO, device or socket, which is never opened for reading.
    case notARegularFile(kind: String)
    /// The file has no bytes.
    case emptyFile
    /// The file is not in a container phototag reads; the payload names it when it is known
    /// (`JPEG XL`, `BigTIFF`, `GIF`…).
    case unsupportedFormat(String?)
    /// An ISO BMFF, PNG or WebP structure is broken.
    case malformedContainer(String)
    /// The file ends before the structure being read does.
    case truncated(String)
    /// The JPEG marker structure is broken.
    case malformedJPEG(String)
    /// The EXIF block is not a TIFF structure.
    case malformedEXIF(String)
    /// libexif could not allocate its data.
    case outOfMemory
    /// A stream (standard input, a FIFO, a character device) holds more than the most that is read
    /// into memory; `source` names it (`standard input`, `the FIFO`), `limit` is in bytes.
    case tooLarge(source: String, limit: Int)

    /// The error as one lowercase line without a final period, as records print it.
    public var description: String {
        switch self {
        case .cannotOpen(let code): "cannot open: \(errnoText(code))"
        case .cannotRead(let code): "cannot read: \(errnoText(code))"
        case .notARegularFile(let kind): "not a regular file (\(kind))"
        case .emptyFile: "file is empty"
        case .unsupportedFormat(let kind?): "unsupported file format: \(kind)"
        case .unsupportedFormat(nil): "unsupported file format"
        case .malformedContainer(let detail): "malformed file: \(detail)"
        case .truncated(let detail): "truncated file: \(detail)"
        case .malformedJPEG(let detail): "malformed JPEG: \(detail)"
        case .malformedEXIF(let detail): "malformed EXIF: \(detail)"
        case .outOfMemory: "out of memory"
        case .tooLarge(let source, let limit):
            "\(source) is larger than "
                + (limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")
        }
    }

    /// The formats phototag recognises as photo containers but cannot read (see
    /// ``unsupportedFormat(_:)``): a file in one of them is a photo whose position is unknown.
    public static let unreadPhotoFormats: Set<String> = ["BigTIFF"]

    /// Whether the error only says the file holds no photo at all: it is empty, or in a format
    /// that is not a photo or video container (a GIF, text, or unknown). A photo container that
    /// cannot be read, such as BigTIFF, is not this: it is a real failure.
    public var meansNotAPhoto: Bool {
        switch self {
        case .emptyFile: true
        case .unsupportedFormat(let kind?): !Self.unreadPhotoFormats.contains(kind)
        case .unsupportedFormat(nil): true
        default: false
        }
    }
}
