import Foundation
import TestSupport
import Testing

@testable import PhotoTagCLI

/// Write errors, live diagnostics, and the progress bar on a terminal shared with the records.
@Suite struct OutputErrorTests {
    static let photo = Fixtures.photo("ne-little-endian.jpg")

    /// Runs phototag with standard output written to `path` (a file or a device), standard error
    /// into a pipe; `shell` is run by `/bin/sh` first (`ulimit`, `trap`).
    static func runWithOutput(
        to path: String, _ arguments: [String], input: String? = nil, shell: String = ""
    ) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(shell) exec \"$0\" \"$@\" > \"$PHOTOTAG_OUTPUT\"", Binary.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["PHOTOTAG_OUTPUT": path]) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: Binary.root)
        let errors = Pipe(), stdin = Pipe()
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `count` copies of a located photo in a new folder (the caller removes it).
    static func folderOfPhotos(_ count: Int, plus extra: [String: Data] = [:]) throws -> String {
        let root = try makeTemporaryDirectory()
        let photo = try Data(contentsOf: URL(fileURLWithPath: Self.photo))
        for index in 0..<count { try photo.write(to: URL(fileURLWithPath: root + "/p\(index).jpg")) }
        for (name, data) in extra { try data.write(to: URL(fileURLWithPath: root + "/" + name)) }
        return root
    }

    static let writeErrorCases: [[String]] = [
        ["locate", photo],
        ["scan", "Fixtures/photos/ne-little-endian.jpg"],
        ["geocode", "48.8,2.3"],
        ["geocode"],  // from standard input
        ["--help"],
        ["--version"],
        ["completions", "bash"],
        ["manpage"],
        ["places", "info"],
    ]

    @Test(arguments: writeErrorCases) func aWriteErrorOnStandardOutputIsReportedWithStatus2(arguments: [String]) throws
    {
        // Only geocode reads standard input (writing to a pipe nobody reads would end the tests).
        let input = arguments == ["geocode"] ? "48.8,2.3\n" : nil
        // Each succeeds when its output can be written.
        #expect(try Binary.run(arguments, input: input.map { Data($0.utf8) }).status == 0)
        let result = try Self.runWithOutput(to: "/dev/full", arguments, input: input)
        #expect(result.status == 2)
        #expect(result.errors.hasSuffix("phototag: write error: no space left on device\n"))
    }

    @Test func aWriteErrorOnStandardErrorGivesStatus2() throws {
        // Located, with a warning on stderr: 0 when stderr takes it.
        let arguments = ["locate", Fixtures.photo("altitude-wrapped.jpg")]
        #expect(try Binary.run(arguments).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" 2>/dev/full", Binary.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
    }

    /// The output of a scan of 400 photos (~300 KB of NDJSON) does not fit in `directory`: the
    /// run fails with the message and claims no success (no summary, status 2).
    static func expectAFailedScan(into directory: String, shell: String = "") throws {
        let root = try Self.folderOfPhotos(400)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.runWithOutput(
            to: directory + "/out.ndjson", ["scan", "--format", "ndjson", "--summary", root], shell: shell)
        #expect(result.status == 2)
        // The message, and nothing else: no summary counting records that were lost.
        #expect(result.errors.hasPrefix("phototag: write error: "))
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        let size = try FileManager.default.attributesOfItem(atPath: directory + "/out.ndjson")[.size] as? Int ?? 0
        #expect(size > 0 && size < 300_000)
    }

    /// A 64 KiB tmpfs, which only root may mount (CI runs as root; elsewhere the file-size limit
    /// test below covers the same path). As root, a mount that fails fails the test.
    @Test(.enabled(if: geteuid() == 0, "mounting a 64 KiB tmpfs needs root; the ulimit test covers this path"))
    func aScanIntoAFullFileSystemFails() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]
        let errors = Pipe()
        mount.standardError = errors
        try mount.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -t tmpfs failed as root: \(message)")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [directory]
            if (try? unmount.run()) != nil { unmount.waitUntilExit() }
        }
        try Self.expectAFailedScan(into: directory)
    }

    /// ThreadSanitizer's runtime itself dies under a file-size limit (it maps files of its own),
    /// so `make check` skips this one under TSan; the tmpfs test above covers the same path there.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["PHOTOTAG_SANITIZER"] == "thread",
            "ThreadSanitizer's runtime cannot run under ulimit -f; the tmpfs test covers this path"))
    func aScanPastTheFileSizeLimitFails() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // SIGXFSZ ignored (inherited through exec): write(2) fails with EFBIG instead.
        try Self.expectAFailedScan(into: directory, shell: "trap '' XFSZ; ulimit -f 128;")
    }

    // MARK: the progress bar on a terminal

    /// What a terminal shows for `text`: `\r` goes back to the start of the line, `ESC [ K`
    /// erases to its end, colours show nothing, other characters overwrite.
    static func screen(_ text: String) -> [String] {
        var lines: [String] = []
        var line: [Character] = []
        var cursor = 0
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\n":
                lines.append(String(line))
                line = []
                cursor = 0
            case "\r":
                cursor = 0
            case "\u{1B}":
                // ESC [ parameters final: K erases, m (colours) shows nothing.
                #expect(characters.popFirst() == "[")
                let final = characters.first { !$0.isNumber && $0 != ";" }
                characters = characters.drop { $0.isNumber || $0 == ";" }.dropFirst()
                #expect(final == "K" || final == "m")
                if final == "K" { line.removeSubrange(min(cursor, line.count)...) }
            default:
                if cursor < line.count { line[cursor] = character } else { line.append(character) }
                cursor += 1
            }
        }
        if !line.isEmpty { lines.append(String(line)) }
        return lines
    }

    /// The fixture photos, by absolute path.
    static let photos = EndToEndTests.photos.map { Binary.root + "/" + $0 }

    /// Runs phototag in-process with its bar drawn from the first file on.
    static func run(
        _ arguments: [String], output: OutputSink, errors: OutputSink, environment: [String: String] = [:]
    ) -> Int32 {
        PhotoTag.run(
            arguments.map(Argument.init), input: MemoryInput(""), output: output, errors: errors,
            environment: Environment(environment), progressDelay: 0)
    }

    @Test func recordsOnATerminalThatShowsTheBarHoldNoProgressText() throws {
        // One sink for both streams: the same terminal.
        let terminal = MemorySink(isTerminal: true)
        _ = Self.run(
            ["scan", "--places", Fixtures.places, Fixtures.root + "/photos"], output: terminal, errors: terminal)
        #expect(terminal.text.contains(" files  "))  // the bar was drawn
        let lines = Self.screen(terminal.text)
        #expect(lines.count > 30)
        for line in lines {
            #expect(line.hasPrefix(Fixtures.root + "/photos/") || line.hasPrefix("phototag: "), "\(line)")
            #expect(!line.contains(" files  "), "\(line)")
        }
        #expect(!terminal.text.hasSuffix("/s"))  // erased at the end
    }

    @Test func diagnosticsOnTheBarsTerminalHoldNoProgressText() throws {
        let output = MemorySink(), errors = MemorySink(isTerminal: true)
        _ = Self.run(["locate", "--places", Fixtures.places] + Self.photos, output: output, errors: errors)
        #expect(errors.text.contains(" files  "))
        let lines = Self.screen(errors.text)
        #expect(lines.count >= 9)
        for line in lines { #expect(line.hasPrefix("phototag: \(Fixtures.root)/photos/"), "\(line)") }
    }

    @Test func aDumbTerminalGetsPlainProgress() throws {
        let output = MemorySink(), errors = MemorySink(isTerminal: true)
        _ = Self.run(
            ["locate", "--places", Fixtures.places] + Self.photos, output: output, errors: errors,
            environment: ["TERM": "dumb"])
        #expect(errors.text.contains(" files  "))
        #expect(!errors.text.contains("\u{1B}"))
        // Spaces, not escapes, erase the bar: the screen holds the diagnostics alone, trailing
        // spaces aside.
        for line in Self.screen(errors.text) {
            #expect(line.hasPrefix("phototag: \(Fixtures.root)/photos/"), "\(line)")
            #expect(!line.contains(" files  "), "\(line)")
        }
    }

    @Test func anErrorIsShownOnceOnATerminalThatShowsBothStreams() {
        let terminal = MemorySink(isTerminal: true)
        let status = Self.run(
            ["locate", "--no-place", Fixtures.photo("empty.jpg"), Self.photo], output: terminal, errors: terminal)
        #expect(status == 2)
        #expect(terminal.text.components(separatedBy: "file is empty").count == 2)
        let geocode = MemorySink(isTerminal: true)
        _ = PhotoTag.run(["geocode", "--no-place", "1,2", "95,0"], output: geocode, errors: geocode)
        #expect(geocode.text.components(separatedBy: "out of range").count == 2)
        // Apart, each stream still has it.
        let output = MemorySink(), errors = MemorySink(isTerminal: true)
        _ = Self.run(["locate", "--no-place", Fixtures.photo("empty.jpg")], output: output, errors: errors)
        #expect(output.text.contains("file is empty") && errors.text.contains("file is empty"))
    }

    // MARK: live diagnostics

    /// A phototag process whose standard error is collected as it comes.
    ///
    /// Started with `posix_spawn` and an empty signal mask: Foundation's `Process` passes on the
    /// mask of the thread that starts it, and the test threads block `SIGINT`.
    final class LiveProcess: @unchecked Sendable {
        let pid: pid_t
        /// Standard input, output and error, from the test's side.
        let input: FileHandle, output: FileHandle
        private let errorPipe: FileHandle
        private let lock = NSLock()
        private var collected = Data()
        private let done = DispatchSemaphore(value: 0)
        /// The wait status, once the process has ended.
        private(set) var status: Int32 = 0

        init(_ arguments: [String]) throws {
            var pipes: [[Int32]] = []
            for _ in 0..<3 {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
                pipes.append(ends)
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
            posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
            for ends in pipes { for end in ends { posix_spawn_file_actions_addclose(&actions, end) } }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var empty = sigset_t()
            sigemptyset(&empty)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGINT)
            sigaddset(&defaults, SIGTERM)
            posix_spawnattr_setsigmask(&attributes, &empty)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let argv = ([Binary.path] + arguments).map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, Binary.path, &actions, &attributes, argv, environ)
            close(pipes[0][0])
            close(pipes[1][1])
            close(pipes[2][1])
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
            self.pid = pid
            input = FileHandle(fileDescriptor: pipes[0][1], closeOnDealloc: true)
            output = FileHandle(fileDescriptor: pipes[1][0], closeOnDealloc: true)
            errorPipe = FileHandle(fileDescriptor: pipes[2][0], closeOnDealloc: true)
            DispatchQueue.global().async { [self] in
                while case let data = errorPipe.availableData, !data.isEmpty {
                    lock.withLock { collected += data }
                }
                done.signal()
            }
        }

        /// Standard error so far.
        var errors: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

        /// Waits up to `seconds` for standard error to contain `text`.
        func waitForErrors(containing text: String, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if errors.contains(text) { return true }
                usleep(20_000)
            }
            return errors.contains(text)
        }

        /// Waits for the end; returns standard error to its end.
        func finish() -> String {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            self.status = status
            done.wait()
            return errors
        }

        /// The exit status, or `nil` when a signal ended the process.
        var exitStatus: Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }
        /// The signal that ended the process, if one did.
        var signal: Int32? { status & 0x7F == 0 ? nil : status & 0x7F }
    }

    @Test func geocodeReportsABadLineBeforeTheInputEnds() throws {
        let live = try LiveProcess(["geocode", "--no-place"])
        live.input.write(Data("1,2\n999,999\n".utf8))
        // Standard input stays open: phototag is waiting for more.
        #expect(live.waitForErrors(containing: "phototag: line 2: latitude 999 is out of range"))
        try live.input.close()
        _ = live.output.readDataToEndOfFile()
        _ = live.finish()
        #expect(live.exitStatus == 2)
    }

    /// Issue 23, item 7: Control-C left a JSON array without its `]`. The first `SIGINT` or
    /// `SIGTERM` stops in order: what was read is written whole, the array closed, and the
    /// process still ends by the signal. Here the scan waits on its `--files-from -` list, the
    /// read that the signal must interrupt.
    @Test(arguments: [SIGINT, SIGTERM])
    func aStoppedScanClosesItsJSONArrayAndEndsByTheSignal(_ number: Int32) throws {
        let root = try Self.folderOfPhotos(2, plus: ["a-empty.jpg": Data()])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let live = try LiveProcess(["scan", "--json", "--summary", "--files-from", "-"])
        live.input.write(Data("\(root)/p0.jpg\n\(root)/p1.jpg\n\(root)/a-empty.jpg\n".utf8))
        // The list stays open: phototag has read the three and waits for more.
        #expect(live.waitForErrors(containing: "a-empty.jpg: file is empty\n"))
        usleep(100_000)
        kill(live.pid, number)
        let output = live.output.readDataToEndOfFile()
        let errors = live.finish()
        #expect(live.signal == number, "\(errors)")
        let records = try #require(
            JSONSerialization.jsonObject(with: output) as? [[String: Any]],
            "a whole JSON array: \(String(decoding: output, as: UTF8.self))")
        #expect(
            records.map { ($0["file"] as? String ?? "").split(separator: "/").last } == [
                "p0.jpg", "p1.jpg", "a-empty.jpg",
            ])
        // The summary counts what was read.
        #expect(errors.contains(#"{"files":3,"#), "\(errors)")
    }

    /// `geocode` waiting for its next line on standard input: the signal ends the wait.
    @Test func aStoppedGeocodeClosesItsJSONArray() throws {
        let live = try LiveProcess(["geocode", "--json", "--no-place"])
        live.input.write(Data("1,2\n999,999\n".utf8))
        #expect(live.waitForErrors(containing: "phototag: line 2: latitude 999 is out of range"))
        usleep(100_000)
        kill(live.pid, SIGINT)
        let output = live.output.readDataToEndOfFile()
        _ = live.finish()
        #expect(live.signal == SIGINT)
        let records = try #require(
            JSONSerialization.jsonObject(with: output) as? [[String: Any]],
            "a whole JSON array: \(String(decoding: output, as: UTF8.self))")
        #expect(records.count == 2)
    }

    @Test func anInterruptedScanHasReportedItsErrorsAndErasedItsBar() throws {
        // An error first (names sort before p…), then more records than the pipe holds.
        let root = try Self.folderOfPhotos(1200, plus: ["a-empty.jpg": Data()])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let live = try LiveProcess(["scan", "--progress", "--format", "ndjson", root])
        // Standard output is not read: the scan waits on the full pipe, its error reported.
        #expect(live.waitForErrors(containing: "phototag: \(root)/a-empty.jpg: file is empty\n"))
        // Past the bar's half second, let some records through: the bar is drawn.
        usleep(700_000)
        _ = live.output.readData(ofLength: 1 << 16)
        #expect(live.waitForErrors(containing: " files  "))
        kill(live.pid, SIGINT)
        // Standard output is drained from here on. Without a sanitizer the handler runs at once,
        // interrupting the blocked write(2); ThreadSanitizer defers a signal that lands in a
        // blocked write until the call returns, which a full pipe that nobody reads never lets
        // happen (seen when the reading threads moved off Dispatch onto their own pthreads).
        let output = live.output
        DispatchQueue.global().async { _ = output.readDataToEndOfFile() }
        let errors = live.finish()
        #expect(live.signal == SIGINT)
        #expect(errors.hasPrefix("phototag: \(root)/a-empty.jpg: file is empty\n"))
        #expect(errors.hasSuffix("\r\u{1B}[K"))
    }
}
