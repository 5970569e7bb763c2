/// Paths read from a list (`--files-from`): one per line, or separated by NUL bytes (`find
/// -print0`). Paths are bytes, taken as they are (no trimming, no quoting), but for what Windows
/// tools add to a list of lines: a carriage return before each newline, and a UTF-8 byte order
/// mark at the start (a name that really ends in CR needs NUL separators). Empty entries are
/// skipped. The list is read as it is consumed, so a long `find` pipeline streams.
struct PathList {
    private let source: InputSource
    private let separator: UInt8
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    /// Whether the start of the list has been looked at for a byte order mark.
    private var checkedStart = false

    init(source: InputSource, separator: UInt8) {
        self.source = source
        self.separator = separator
    }

    /// The next path, or `nil` at the end of the list.
    mutating func next() -> [UInt8]? {
        while true {
            if !checkedStart, buffer.count >= 3 || ended {
                checkedStart = true
                if separator == 0x0A, buffer.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
            }
            if checkedStart, let end = buffer[start...].firstIndex(of: separator) {
                let path = line(buffer[start..<end])
                start = end + 1
                if path.isEmpty { continue }
                return path
            }
            if ended {
                guard start < buffer.count else { return nil }
                let path = line(buffer[start...])  // the last path need not end in a separator
                start = buffer.count
                return path.isEmpty ? nil : path
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = source.read(upTo: 1 << 16)
            if chunk.isEmpty { ended = true } else { buffer += chunk }
        }
    }

    /// An entry as a path: a line without the carriage return before its newline.
    private func line(_ entry: ArraySlice<UInt8>) -> [UInt8] {
        separator == 0x0A && entry.last == 0x0D ? Array(entry.dropLast()) : Array(entry)
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
