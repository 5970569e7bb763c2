import Dispatch
import Testing

@testable import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SyscallTests {
    /// A pipe: (read end, write end).
    func makePipe() -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func writeAllThenReadToEndRoundTrips() throws {
        let (reader, writer) = makePipe()
        defer { close(reader) }
        let payload = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        // Larger than a pipe's buffer, so the writer must run beside the reader.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var status: Int32 = -1
        DispatchQueue.global().async {
            status = payload.withUnsafeBytes { writeAll(writer, $0) }
            close(writer)
            done.signal()
        }
        let read = try readToEnd(reader)
        done.wait()
        #expect(status == 0)
        #expect(read.bytes == payload)
        #expect(!read.truncated)
    }

    @Test func readToEndStopsAtItsLimit() throws {
        let (reader, writer) = makePipe()
        defer { close(reader) }
        let status = Array("0123456789".utf8).withUnsafeBytes { writeAll(writer, $0) }
        close(writer)
        #expect(status == 0)
        let read = try readToEnd(reader, limit: 4)
        #expect(read.bytes == Array("0123".utf8))
        #expect(read.truncated)
    }

    @Test func aWriteToAClosedPipeReportsEPIPE() {
        signal(SIGPIPE, SIG_IGN)
        let (reader, writer) = makePipe()
        close(reader)
        defer { close(writer) }
        #expect([UInt8(1)].withUnsafeBytes { writeAll(writer, $0) } == EPIPE)
    }

    @Test func aReadErrorIsThrownWithItsErrno() {
        #expect(throws: SystemError(code: EBADF)) { try readToEnd(-1) }
        #expect(readRetrying(-1, nil, 0) == -1)
    }

    @Test func preadFullyReadsFromAnOffsetAndStopsAtTheEnd() {
        let path = "/tmp/phototag-support-\(getpid())"
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        defer {
            close(file)
            unlink(path)
        }
        #expect(Array("abcdef".utf8).withUnsafeBytes { writeAll(file, $0) } == 0)
        var buffer = [UInt8](repeating: 0, count: 8)
        let result = buffer.withUnsafeMutableBytes { preadFully(file, $0.baseAddress!, 8, at: 2) }
        #expect(result.count == 4 && result.error == 0)
        #expect(buffer.prefix(4) == ArraySlice("cdef".utf8))
    }

    @Test func errnoTextIsLowercased() {
        #expect(errnoText(ENOENT) == "no such file or directory")
        #expect(SystemError(code: EACCES).text == "permission denied")
    }

    @Test(arguments: [0, 1, 255, 4_096, 70_000])
    func aCPathIsItsBytesAndOneNUL(length: Int) {
        // Any collection of bytes (here a slice of a larger array, as a path below a root is),
        // from empty to far beyond the stack's usual allotment; the bytes after it are not read.
        let bytes = (0..<length + 7).map { UInt8(truncatingIfNeeded: 1 + $0 % 250) }
        let path = bytes[3..<length + 3]
        let copied = withCPath(path) { cPath -> [UInt8] in
            #expect(strlen(cPath) == length)
            return Array(UnsafeRawBufferPointer(start: cPath, count: length + 1))
        }
        #expect(copied == Array(path) + [0])
    }

    @Test func pathsAreNULTerminatedAndDirectoryNamesReadWhole() throws {
        let folder = "/tmp/phototag-support-dir-\(getpid())"
        #expect(withCPath(Array(folder.utf8)) { mkdir($0, 0o700) } == 0)
        let name = "a name with spaces and é"
        let file = withCPath(Array((folder + "/" + name).utf8)) { open($0, O_CREAT | O_WRONLY, 0o600) }
        #expect(file >= 0)
        close(file)
        var names: [[UInt8]] = []
        // Borrowed, the same names go one after the other into one buffer, NUL-separated.
        var joined: [UInt8] = []
        let stream = try #require(opendir(folder))
        while let entry = readdir(stream) {
            names.append(directoryEntryName(entry))
            withDirectoryEntryName(entry) { joined += $0 + [0] }
        }
        closedir(stream)
        #expect(
            names.sorted { $0.lexicographicallyPrecedes($1) } == [Array(".".utf8), Array("..".utf8), Array(name.utf8)])
        #expect(joined == names.flatMap { $0 + [0] })
        unlink(folder + "/" + name)
        rmdir(folder)
    }
}

@Suite struct LockedTests {
    @Test func everyIncrementFromManyThreadsCounts() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func withLockRethrowsTypedErrors() {
        let state = Locked([1, 2])
        #expect(throws: SystemError(code: EIO)) {
            try state.withLock { (value: inout [Int]) throws(SystemError) in
                value.append(3)
                throw SystemError(code: EIO)
            }
        }
        #expect(state.withLock { $0 } == [1, 2, 3])
    }
}
