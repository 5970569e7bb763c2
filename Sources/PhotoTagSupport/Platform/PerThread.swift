#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One object per thread, made on the thread's first ``current`` and released when the thread
/// ends: memory that a thread reuses from one file to the next (a read buffer, IFD entry arrays,
/// a memo of time zones) without a lock, because no other thread ever sees it.
///
/// Keep a slot in a `static let`: each takes one of the process's pthread keys for good (Linux
/// has 1,024).
package struct PerThread<Object: AnyObject>: @unchecked Sendable {
    // The key and the maker are immutable, and each object is reached only by its own thread.
    // Guarded by PhotoTagSupportTests/ConcurrencyInvariantTests.perThreadObjectsAreEachThreadsOwn.
    /// The thread-specific slot; its destructor releases a thread's object when the thread ends.
    @usableFromInline let key: pthread_key_t
    /// Makes a thread's object.
    @usableFromInline let make: @Sendable () -> Object

    /// A slot whose objects `make` makes, one per thread that asks.
    package init(_ make: @escaping @Sendable () -> Object) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { object in
            #if canImport(Glibc)
                guard let object else { return }
            #endif
            // Retained by `current` as the object it is; released as any object.
            Unmanaged<AnyObject>.fromOpaque(object).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
        self.make = make
    }

    /// The calling thread's object, made on its first call; `nil` when the thread cannot keep one
    /// (`pthread_setspecific` failed for want of memory), and the caller does without.
    @inlinable package var current: Object? {
        if let raw = pthread_getspecific(key) { return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue() }
        let object = make()
        let raw = Unmanaged.passRetained(object).toOpaque()
        guard pthread_setspecific(key, raw) == 0 else {
            Unmanaged<Object>.fromOpaque(raw).release()
            return nil
        }
        return object
    }
}
