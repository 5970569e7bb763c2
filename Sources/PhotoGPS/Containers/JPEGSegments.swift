import PhotoTagSupport

/// One marker segment of a JPEG file's header.
struct JPEGSegment: Hashable, Sendable {
    /// The marker byte (`0xE1` for APP1).
    var marker: UInt8
    /// Where the segment's `FF` marker starts.
    var offset: Int
    /// Where its payload starts (after the 2-byte length).
    var payloadOffset: Int { offset + 4 }
    /// The payload length the segment declares (its length field minus 2).
    var payloadLength: Int
}

/// Walks the marker segments of a JPEG from SOI to the first SOS, reading 4 bytes per segment
/// header and nothing of a segment's payload unless asked.
///
/// The walk never reads past the start-of-scan marker, so the entropy-coded image data (the bulk
/// of the file) is never touched. Fill bytes (`FF FF …`) and standalone markers (RSTn, TEM) are
/// skipped as the JPEG standard allows.
struct JPEGSegments<Source: ByteSource> {
    let source: Source
    /// Where the next marker is expected.
    private(set) var offset = 2
    private var done = false

    /// Whether `prefix` starts like a JPEG file (SOI followed by a marker).
    static func matches(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF
    }

    init(source: Source) {
        self.source = source
    }

    /// The next segment before the image data, or `nil` at SOS or EOI.
    ///
    /// - Throws: ``PhotoGPSError/truncated(_:)`` when the file ends before SOS, and
    ///   ``PhotoGPSError/malformedJPEG(_:)`` when the bytes where a marker must be are not one.
    mutating func next() throws(PhotoGPSError) -> JPEGSegment? {
        while !done {
            let header = try source.withBytes(at: offset, length: 4) { EntryBytes($0) }
            guard header.count >= 2 else {
                throw .truncated("the file ends at byte \(source.count) before the image data")
            }
            guard header[0] == 0xFF else {
                throw .malformedJPEG(
                    "expected a marker at byte \(offset), found 0x\(hex(header[0]))")
            }
            let marker = header[1]
            switch marker {
            case 0xFF:  // fill bytes before the marker
                offset = try endOfFill(after: offset, header: header)
                continue
            case 0xD9, 0xDA:  // EOI, SOS: the header is over
                done = true
                return nil
            case 0x01, 0xD0...0xD8:  // TEM, RSTn and a stray SOI stand alone
                offset += 2
                continue
            default:
                break
            }
            guard header.count == 4 else {
                throw .truncated("the file ends at byte \(source.count) inside a marker")
            }
            let length = Int(ByteOrder.bigEndian.read(UInt16.self, header, at: 2))
            guard length >= 2 else {
                throw .malformedJPEG("segment 0x\(hex(marker)) at byte \(offset) has length \(length)")
            }
            let segment = JPEGSegment(marker: marker, offset: offset, payloadLength: length - 2)
            offset += 2 + length
            return segment
        }
        return nil
    }

    /// Where the last `FF` of the run of fill bytes starting at `start` is (the `FF` of the
    /// marker that follows them, or the last byte of the file when they run to its end).
    ///
    /// A run of fill can be megabytes long (an erased flash area, a copy cut short), so it is
    /// scanned in windows growing from 64 bytes to 64 KiB: a few reads per 64 KiB, not one a byte.
    private func endOfFill(after start: Int, header: EntryBytes) throws(PhotoGPSError) -> Int {
        // The header read already holds the first bytes of the run.
        if let end = header.indices.dropFirst().first(where: { header[$0] != 0xFF }) { return start + end - 1 }
        var at = start + header.count, window = 64
        while true {
            let (count, end) = try source.withBytes(at: at, length: window) { ($0.count, $0.firstIndex { $0 != 0xFF }) }
            if let end { return at + end - 1 }
            if count < window { return at + count - 1 }
            at += count
            window = min(window * 16, 1 << 16)
        }
    }

    /// Reads a segment's payload; the result is shorter than declared only if the file ends first.
    func payload(of segment: JPEGSegment) throws(PhotoGPSError) -> [UInt8] {
        try source.bytes(at: segment.payloadOffset, length: segment.payloadLength)
    }

    /// Calls `body` with the bytes ``payload(of:)`` returns, without an array where the source can
    /// (``ByteSource/withBytes(at:length:_:)``); they live only for the call.
    func withPayload<Result>(
        of segment: JPEGSegment, _ body: (UnsafeBufferPointer<UInt8>) throws(PhotoGPSError) -> Result
    ) throws(PhotoGPSError) -> Result {
        try source.withBytes(at: segment.payloadOffset, length: segment.payloadLength, body)
    }
}

/// Two uppercase hexadecimal digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
