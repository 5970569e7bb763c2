import Foundation
import PhotoGPS
import PhotoTagSupport
import TestSupport
import Testing

@testable import PhotoTagCLI

/// The scan's readers: more files in flight than cores (`--jobs` bounds them), the CPU work on
/// one thread per core, and files opened ahead read exactly as files opened by path.
@Suite struct ReadAheadTests {
    /// A count that threads raise and lower, keeping the highest value it reached.
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        private(set) var highest = 0

        func enter() {
            lock.withLock {
                now += 1
                highest = max(highest, now)
            }
        }

        func leave() { lock.withLock { now -= 1 } }

        var peak: Int { lock.withLock { highest } }
    }

    /// What a pipeline delivered, in order.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Bool] = []

        func append(_ value: Bool) { lock.withLock { values.append(value) } }

        var all: [Bool] { lock.withLock { values } }
    }

    @Test func thePipelineRunsEveryWorkerAtOnceWhenTheyAllWait() {
        // 32 items that each wait, up to 5 s, until all 32 are being worked on: with workers on
        // Dispatch's global queue, Linux starts only a few threads per core and adds more slowly
        // (10 at once after 17 s on a 2-core machine); readers blocked on storage need all of them.
        let gauge = Gauge()
        let results = Results()
        let pipeline = OrderedPipeline<Int, Bool>(
            workers: 32, window: 64,
            work: { _ in
                gauge.enter()
                defer { gauge.leave() }
                let deadline = Date().addingTimeInterval(5)
                while gauge.peak < 32, Date() < deadline { usleep(1000) }
                return gauge.peak >= 32
            },
            deliver: { reached in results.append(reached) })
        for item in 0..<32 { pipeline.submit(item) }
        pipeline.finish()
        #expect(results.all.count == 32)
        #expect(results.all.allSatisfy { $0 }, "at most \(gauge.peak) of 32 workers ran at once")
    }

    @Test func reservedWorkersWaitForTheGateAndEndWithThePipeline() {
        let gauge = Gauge()
        let results = Results()
        let gate = WorkerGate(reserved: 2)
        let pipeline = OrderedPipeline<Int, Bool>(
            workers: 4, window: 32, gate: gate,
            work: { _ in
                gauge.enter()
                defer { gauge.leave() }
                usleep(20_000)
                return true
            },
            deliver: { results.append($0) })
        for item in 0..<8 { pipeline.submit(item) }
        usleep(100_000)
        // Only the two eager workers have run (a warm page cache never needs more).
        #expect(gauge.peak <= 2)
        #expect(!gate.isOpen)
        gate.open()
        for item in 8..<24 { pipeline.submit(item) }
        pipeline.finish()
        #expect(gauge.peak >= 3, "the reserved workers never ran")
        #expect(results.all.count == 24)
        // A gate that never opens: finish lets its workers in to end them (this returns).
        let closed = OrderedPipeline<Int, Bool>(
            workers: 3, window: 8, gate: WorkerGate(reserved: 2), work: { _ in true }, deliver: { _ in })
        for item in 0..<5 { closed.submit(item) }
        closed.finish()
    }

    @Test func cpuSlotsLetOnlyTheirCountComputeAtOnce() {
        let slots = CPUSlots(count: 2, threads: 8)
        let gauge = Gauge()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20 {
                slots.run {
                    gauge.enter()
                    usleep(200)
                    gauge.leave()
                }
            }
        }
        #expect(gauge.peak <= 2)
        // As many slots as threads: none is ever waited for (no semaphore at all).
        let unbounded = CPUSlots(count: 4, threads: 4)
        #expect(unbounded.run { 7 } == 7)
    }

    @Test func readersAreThirtyTwoByDefaultAndJobsWhenGiven() throws {
        let defaults = try #require(Invocation.parse(["scan", "."]).scanOptions, "not a scan")
        #expect(defaults.selection.readers == max(32, processorCount()))
        // locate keeps one worker per core.
        #expect(defaults.selection.workers == processorCount())
        let two = try #require(Invocation.parse(["scan", "--jobs", "2", "."]).scanOptions, "not a scan")
        #expect(two.selection.readers == 2)
    }

    @Test func aFileOpenedAheadIsReadAsByItsPath() throws {
        let folder = Fixtures.root + "/photos"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count > 10)
        for name in names {
            let path = Array((folder + "/" + name).utf8)
            let byPath = GPSReader().read(path: path)
            guard let descriptor = HeadPrefetch.openHead(path) else {
                // Only what is not a regular file is left to the reader (none here).
                Issue.record("\(name) was not opened ahead")
                continue
            }
            defer { close(descriptor) }
            #expect(GPSReader().read(openedFile: descriptor) == byPath, "\(name)")
        }
    }

    @Test func neitherAFIFONorAFolderIsOpenedAhead() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Opening a FIFO without a writer would block the reader for good.
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        #expect(HeadPrefetch.openHead(Array((root + "/pipe.jpg").utf8)) == nil)
        #expect(HeadPrefetch.openHead(Array(root.utf8)) == nil)
        #expect(HeadPrefetch.openHead(Array((root + "/missing.jpg").utf8)) == nil)
    }
}
