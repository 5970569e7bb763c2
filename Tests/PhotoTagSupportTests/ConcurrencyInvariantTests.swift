import TestSupport
import Testing

@testable import PhotoTagSupport

/// A thread's own counter, which it changes without a lock: two threads given the same one
/// would race on it.
private final class ThreadCounter {
    var count = 0
}

/// The slot under test: one pthread key for the test run, as production keeps its slots.
private let counters = PerThread { ThreadCounter() }

/// The invariants behind PhotoTagSupport's `@unchecked Sendable` types, exercised from many
/// threads at once (`onThreads`, as the scan's readers run), with results that must be those of
/// one thread alone. Under ThreadSanitizer a broken invariant is a reported race.
@Suite struct ConcurrencyInvariantTests {
    static let threads = 8
    static let rounds = 20_000

    /// `Locked` (`@unchecked Sendable`): the state is reached only through `withLock`, which
    /// holds the mutex, so increments and appends from many threads lose nothing.
    @Test func aLockedStateChangedByManyThreadsLosesNothing() {
        let state = Locked((count: 0, seen: [Int]()))
        onThreads(Self.threads) { thread in
            for round in 0..<Self.rounds {
                state.withLock { state in
                    state.count += 1
                    if round % 1_000 == 0 { state.seen.append(thread) }
                }
            }
        }
        let final = state.withLock { $0 }
        #expect(final.count == Self.threads * Self.rounds)
        #expect(final.seen.sorted() == (0..<Self.threads).flatMap { Array(repeating: $0, count: Self.rounds / 1_000) })
    }

    /// `PerThread` (`@unchecked Sendable`): the slot is immutable (a pthread key and a maker), and
    /// each object is reached only by the thread that made it, so each thread counts on its own
    /// object without a lock, and the counts add up to the work done.
    @Test func perThreadObjectsAreEachThreadsOwn() {
        let objects = Locked([ObjectIdentifier: ThreadCounter]())
        onThreads(Self.threads) { _ in
            guard let first = counters.current else { return }
            for _ in 0..<Self.rounds {
                // The same object on every call of the thread, changed without a lock.
                counters.current?.count += 1
            }
            #expect(counters.current === first)
            objects.withLock { $0[ObjectIdentifier(first)] = first }
        }
        let all = objects.withLock { $0 }
        #expect(all.count == Self.threads)
        #expect(all.values.map(\.count).reduce(0, +) == Self.threads * Self.rounds)
    }
}
