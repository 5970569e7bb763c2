/// `scan --shard K/N`: the share of the files one run takes, so that N runs (on N machines, say)
/// split one scan between them without talking to each other.
///
/// A file belongs to share `FNV-1a-64(path) mod N + 1`, where `path` is the file's path below the
/// path given, as bytes, without a leading `/` (`a/b.jpg` for `photos/a/b.jpg` found under
/// `photos` or `photos/`); a path given that is itself a file is hashed as given. FNV-1a 64 is
/// the Fowler–Noll–Vo hash: start from 14695981039346656037, then for each byte, XOR it in and
/// multiply by 1099511628211, modulo 2^64. The share depends on nothing but those bytes and N:
/// not on the machine, where the tree is mounted, or the order of the walk, so the N runs
/// together print exactly the records of one scan, each once.
struct Shard: Equatable, Sendable {
    /// K: which share this run takes, from 1 to ``count``.
    var index: Int
    /// N: how many shares there are.
    var count: Int

    /// What is wrong with the text of a `--shard` value.
    enum ParseError: Error, Equatable {
        /// Not two whole numbers separated by `/`.
        case notAFraction
        /// N is 0, or K is 0 or more than N.
        case outOfRange
    }

    /// The shard written `K/N` (decimal digits only), with 1 ≤ K ≤ N.
    static func parse(_ text: String) throws(ParseError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ part in !part.isEmpty && part.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { throw .notAFraction }
        guard count >= 1, index >= 1, index <= count else { throw .outOfRange }
        return Shard(index: index, count: count)
    }

    /// The 64-bit FNV-1a hash of some bytes.
    static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 1_099_511_628_211
        }
        return hash
    }

    /// The part of `path` that names it below `root`, the path given it was found under: what
    /// follows `root` and the `/` after it, or the whole path when it is `root` itself (a path
    /// given that is a file).
    static func relativePath(of path: [UInt8], under root: [UInt8]) -> ArraySlice<UInt8> {
        guard path.count > root.count, path.starts(with: root) else { return path[...] }
        var rest = path[root.count...]
        while rest.first == UInt8(ascii: "/") { rest = rest.dropFirst() }
        return rest
    }

    /// The share, from 1 to `count`, of a path below `root`.
    static func share(of path: [UInt8], under root: [UInt8], count: Int) -> Int {
        Int(fnv1a64(relativePath(of: path, under: root)) % UInt64(count)) + 1
    }

    /// Whether this run takes the file at `path`, found under the path given `root`.
    func takes(_ path: [UInt8], under root: [UInt8]) -> Bool {
        count == 1 || Shard.share(of: path, under: root, count: count) == index
    }
}

extension FileWalker.Found {
    /// The path of what was found.
    var path: [UInt8] {
        switch self {
        case .file(let path), .regular(let path), .paired(let path, _), .sidecar(let path), .candidate(let path),
            .unreadable(let path, _), .skipped(let path, _):
            return path
        }
    }
}
