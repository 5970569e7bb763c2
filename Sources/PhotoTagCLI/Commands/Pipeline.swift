import Dispatch
import PhotoTagSupport

/// Runs `body` on a new POSIX thread of its own.
///
/// Not on Dispatch's global queue: on Linux its pool grows past the number of cores only slowly
/// when threads block, and the scan's readers spend most of their time blocked in `open` and
/// `read` on slow storage.
func startThread(_ body: @escaping @Sendable () -> Void) {
    // No thread to be had (a limit reached): run it on Dispatch's pool instead.
    if !spawnDetachedThread(body) { DispatchQueue.global().async(execute: body) }
}

/// A bound on how many threads do CPU work at once, while more of them wait for storage.
///
/// The scan's readers are many more than the cores (an open or a read on a cold disk or a
/// network share waits for the device, not the CPU); each takes a slot here only for the part
/// of its work that computes (parsing, the place, rendering), so the CPU work runs on one
/// thread per core, as with no extra readers.
final class CPUSlots: Sendable {
    private let slots: DispatchSemaphore?

    /// `count` threads at once; none is ever kept waiting when `count` is at least `threads`.
    init(count: Int, threads: Int) {
        slots = count < threads ? DispatchSemaphore(value: max(1, count)) : nil
    }

    func run<T>(_ body: () -> T) -> T {
        guard let slots else { return body() }
        slots.wait()
        defer { slots.signal() }
        return body()
    }
}

/// Workers held back until they are needed: the scan's extra readers, which only help when
/// the storage is slow.
///
/// With a warm page cache, 32 readers on 2 cores only cost wake-ups of cold threads; so the
/// pipeline starts with one worker per core, and the rest wait here until ``open()`` (the scan
/// calls it when opening files turns out to take storage time, and ``OrderedPipeline/finish()``
/// calls it so that they can end).
final class WorkerGate: Sendable {
    /// How many workers wait behind the gate.
    let reserved: Int
    private let opened = Locked(false)
    private let semaphore = DispatchSemaphore(value: 0)

    init(reserved: Int) { self.reserved = max(0, reserved) }

    /// Blocks a reserved worker until the gate opens.
    func wait() { semaphore.wait() }

    /// Lets every reserved worker in (once; later calls do nothing).
    func open() {
        let first = opened.withLock { opened in
            defer { opened = true }
            return !opened
        }
        guard first else { return }
        for _ in 0..<reserved { semaphore.signal() }
    }

    /// Whether the gate has opened.
    var isOpen: Bool { opened.withLock { $0 } }
}

/// Runs `work` on items in parallel and hands the results to `deliver` in submission order.
///
/// At most `window` items are in flight: `submit` blocks until the oldest ones are delivered,
/// so memory stays flat however many items there are, and output streams in a deterministic
/// order. `deliver` runs under the lock, one result at a time. With one worker everything runs on
/// the submitting thread (no threads are started for a single file).
final class OrderedPipeline<Item: Sendable, Output: Sendable>: Sendable {
    private let work: @Sendable (Item) -> Output
    private let deliver: @Sendable (Output) -> Void
    private let workers: Int
    private let gate: WorkerGate?
    private let slots: DispatchSemaphore
    private let available = DispatchSemaphore(value: 0)
    private let group = DispatchGroup()
    /// The queue and the results waiting for their turn, shared by the submitter and the workers.
    private let state = Locked(State())

    /// What the lock guards.
    private struct State {
        var queue: [(Int, Item)] = []
        var queueHead = 0
        var closed = false
        var finished: [Int: Output] = [:]
        var nextToDeliver = 0
        var nextToSubmit = 0
    }

    /// - Parameter gate: holds back its `reserved` workers (the last ones) until it opens.
    init(
        workers: Int, window: Int = 256, gate: WorkerGate? = nil, work: @escaping @Sendable (Item) -> Output,
        deliver: @escaping @Sendable (Output) -> Void
    ) {
        self.workers = max(1, workers)
        self.work = work
        self.deliver = deliver
        self.gate = gate
        slots = DispatchSemaphore(value: max(1, window))
        guard self.workers > 1 else { return }
        let eager = self.workers - min(gate?.reserved ?? 0, self.workers - 1)
        for index in 0..<self.workers {
            group.enter()
            startThread { [self] in
                defer { group.leave() }
                if index >= eager { gate?.wait() }
                runWorker()
            }
        }
    }

    /// Queues an item (blocking while `window` items are in flight).
    func submit(_ item: Item) {
        guard workers > 1 else {
            deliver(work(item))
            return
        }
        slots.wait()
        state.withLock { state in
            state.queue.append((state.nextToSubmit, item))
            state.nextToSubmit += 1
        }
        available.signal()
    }

    /// Waits until every submitted item has been delivered.
    func finish() {
        guard workers > 1 else { return }
        state.withLock { $0.closed = true }
        gate?.open()  // the reserved workers end too
        for _ in 0..<workers { available.signal() }
        group.wait()
    }

    /// Takes items from the queue until it is closed and empty.
    private func runWorker() {
        while true {
            available.wait()
            let next: (Int, Item)? = state.withLock { state in
                guard state.queueHead < state.queue.count else { return nil }
                let item = state.queue[state.queueHead]
                state.queueHead += 1
                if state.queueHead > 1024, state.queueHead * 2 > state.queue.count {  // drop delivered slots
                    state.queue.removeFirst(state.queueHead)
                    state.queueHead = 0
                }
                return item
            }
            guard let (sequence, item) = next else {
                if state.withLock({ $0.closed }) { return }
                continue
            }
            let output = work(item)
            let released = state.withLock { state in
                var released = 0
                state.finished[sequence] = output
                while let ready = state.finished.removeValue(forKey: state.nextToDeliver) {
                    deliver(ready)
                    state.nextToDeliver += 1
                    released += 1
                }
                return released
            }
            for _ in 0..<released { slots.signal() }
        }
    }
}
