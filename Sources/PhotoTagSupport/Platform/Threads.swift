// Threads through POSIX: starting one, telling which one is running, and how many processors
// there are to run them. (The lock and the per-thread objects are in Lock.swift and
// PerThread.swift.)

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` on a new detached POSIX thread of its own (`pthread_create(3)`), which ends when
/// `body` returns; false, without running `body`, when no thread can be had (a limit reached).
@discardableResult
package func spawnDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let start = Unmanaged.passRetained(Start(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let result = pthread_create(
        &thread, &attributes,
        { raw in
            Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, start)
    guard result == 0 else {
        Unmanaged<Start>.fromOpaque(start).release()
        return false
    }
    return true
}

/// The calling thread, as a number that no other running thread has and that is never 0
/// (`pthread_self(3)`): async-signal-safe.
package func currentThreadID() -> UInt {
    #if canImport(Glibc)
        UInt(pthread_self())
    #else
        UInt(bitPattern: pthread_self())
    #endif
}

/// The number of processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
package func processorCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
