import Testing

@testable import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Counts the objects made and the ones released, across threads.
private let counts = Locked((made: 0, released: 0))

/// An object that says when it is made and released.
private final class Counted {
    init() { counts.withLock { $0.made += 1 } }
    deinit { counts.withLock { $0.released += 1 } }
}

/// The slot under test (one pthread key for the whole test run, as a slot is meant to be kept).
private let slot = PerThread { Counted() }

@Suite(.serialized) struct PerThreadTests {
    /// Runs `body` on a new thread and waits for the thread to end.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        #expect(status == 0)
        pthread_join(thread, nil)
    }

    @Test func aThreadKeepsItsOwnObjectAndItIsReleasedWhenTheThreadEnds() {
        let before = counts.withLock { $0 }
        let seen = Locked<[ObjectIdentifier]>([])
        for _ in 0..<3 {
            Self.onNewThread {
                let first = slot.current, second = slot.current
                #expect(first != nil && first === second)
                if let first { seen.withLock { $0.append(ObjectIdentifier(first)) } }
            }
        }
        let after = counts.withLock { $0 }
        // One object per thread, each released as its thread ended (identities may repeat, as
        // a released object's memory can be reused: the counts tell the objects apart).
        #expect(after.made - before.made == 3)
        #expect(after.released - before.released == 3)
        #expect(seen.withLock { $0.count } == 3)
    }

    @Test func twoThreadsAtOnceHaveTwoObjects() {
        // Both threads hold their object until both have one, so they cannot share one.
        let objects = Locked<[ObjectIdentifier]>([])
        let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
        pthread_barrier_init(barrier, nil, 2)
        defer {
            pthread_barrier_destroy(barrier)
            barrier.deallocate()
        }
        let address = Int(bitPattern: barrier)
        var threads: [pthread_t] = []
        for _ in 0..<2 {
            final class Box {
                let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body }
            }
            let box = Unmanaged.passRetained(
                Box {
                    let object = slot.current
                    if let object { objects.withLock { $0.append(ObjectIdentifier(object)) } }
                    pthread_barrier_wait(UnsafeMutablePointer(bitPattern: address)!)
                    withExtendedLifetime(object) {}
                }
            ).toOpaque()
            var thread = pthread_t()
            #expect(
                pthread_create(
                    &thread, nil,
                    { raw in
                        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                        return nil
                    }, box) == 0)
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        let seen = objects.withLock { $0 }
        #expect(seen.count == 2 && seen[0] != seen[1])
    }
}
