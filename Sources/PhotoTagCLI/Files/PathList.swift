/// Paths read from a list (`--files-from`): one per line, or separated by NUL bytes (`find
/// -print0`). Paths are bytes, taken as they are (no trimming, no quoting); empty entries are
/// skipped. The list is read as it is consumed, so a long `find` pipeline streams.
struct PathList {
    private let source: InputSource
    private let separator: UInt8
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(source: InputSource, separator: UInt8) {
        self.source = source
        self.separator = separator
    }

    /// The next path, or `nil` at the end of the list.
    mutating func next() -> [UInt8]? {
        while true {
            if let end = buffer[start...].firstIndex(of: separator) {
                let path = Array(buffer[start..<end])
                start = end + 1
                if path.isEmpty { continue }
                return path
            }
            if ended {
                guard start < buffer.count else { return nil }
                let path = Array(buffer[start...])  // the last path need not end in a separator
                start = buffer.count
                return path
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = source.read(upTo: 1 << 16)
            if chunk.isEmpty { ended = true } else { buffer += chunk }
        }
    }

    /// Every remaining path.
    mutating func all() -> [[UInt8]] {
        var paths: [[UInt8]] = []
        while let path = next() { paths.append(path) }
        return paths
    }
}

/// Why a list file cannot be opened: its `errno`.
struct ListFileError: Error {
    var code: Int32
}
