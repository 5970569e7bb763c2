import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`, for state shared with worker threads.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The number of processors online (at least 1).
func processorCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

/// Runs `work` on items in parallel and hands the results to `deliver` in submission order.
///
/// At most `window` items are in flight: `submit` blocks until the oldest ones are delivered,
/// so memory stays flat however many items there are, and output streams in a deterministic
/// order. `deliver` runs under a lock, one result at a time. With one worker everything runs on
/// the submitting thread (no threads are started for a single file).
final class OrderedPipeline<Item: Sendable, Output: Sendable>: @unchecked Sendable {
    private let work: @Sendable (Item) -> Output
    private let deliver: (Output) -> Void
    private let workers: Int
    private let lock = Lock()
    private let slots: DispatchSemaphore
    private let available = DispatchSemaphore(value: 0)
    private let group = DispatchGroup()
    // Guarded by `lock`:
    private var queue: [(Int, Item)] = []
    private var queueHead = 0
    private var closed = false
    private var finished: [Int: Output] = [:]
    private var nextToDeliver = 0
    private var nextToSubmit = 0

    init(
        workers: Int, window: Int = 256, work: @escaping @Sendable (Item) -> Output,
        deliver: @escaping (Output) -> Void
    ) {
        self.workers = max(1, workers)
        self.work = work
        self.deliver = deliver
        slots = DispatchSemaphore(value: max(1, window))
        guard self.workers > 1 else { return }
        for _ in 0..<self.workers {
            group.enter()
            DispatchQueue.global().async { [self] in
                defer { group.leave() }
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
        lock.withLock {
            queue.append((nextToSubmit, item))
            nextToSubmit += 1
        }
        available.signal()
    }

    /// Waits until every submitted item has been delivered.
    func finish() {
        guard workers > 1 else { return }
        lock.withLock { closed = true }
        for _ in 0..<workers { available.signal() }
        group.wait()
    }

    private func runWorker() {
        while true {
            available.wait()
            let next: (Int, Item)? = lock.withLock {
                guard queueHead < queue.count else { return nil }
                let item = queue[queueHead]
                queueHead += 1
                if queueHead > 1024, queueHead * 2 > queue.count {  // drop delivered slots
                    queue.removeFirst(queueHead)
                    queueHead = 0
                }
                return item
            }
            guard let (sequence, item) = next else {
                if lock.withLock({ closed }) { return }
                continue
            }
            let output = work(item)
            var released = 0
            lock.withLock {
                finished[sequence] = output
                while let ready = finished.removeValue(forKey: nextToDeliver) {
                    deliver(ready)
                    nextToDeliver += 1
                    released += 1
                }
            }
            for _ in 0..<released { slots.signal() }
        }
    }
}
