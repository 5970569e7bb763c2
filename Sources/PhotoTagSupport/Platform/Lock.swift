#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// State shared between threads, reachable only through ``withLock(_:)``.
///
/// A pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer understands pthread
/// mutexes but not the futex inside `Mutex`, and the sanitizer runs are part of CI. Because the
/// state is private and `withLock` is the only way in, the compiler (not a comment) makes sure
/// that every access holds the lock.
///
/// The state should not be an empty type such as `Void` (a lock guarding nothing but a section of
/// code): the unoptimised code then marks each `withLock`'s access to it at the object's own
/// address, which another thread's `withLock` reads, unlocked, for the object's type, and
/// ThreadSanitizer reports a race on every pair (the place locator's region maps had one, found
/// by ConcurrencyInvariantTests). Guard the value the section makes, or a `Bool`.
package final class Locked<State>: @unchecked Sendable {
    // Every access to `state` holds `mutex` (see above).
    // Guarded by PhotoTagSupportTests/ConcurrencyInvariantTests.aLockedStateChangedByManyThreadsLosesNothing.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var state: State

    /// A lock around `initial`.
    package init(_ initial: State) {
        state = initial
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
