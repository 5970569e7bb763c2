// The clocks, the pause and the calendar of the C library.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on the monotonic clock (`CLOCK_MONOTONIC`), for timing: progress rates, benchmarks.
package func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`), for timing short waits (an open).
package func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// One `nanosleep(2)` of `nanoseconds` (below one second), not resumed when a signal cuts it
/// short: async-signal-safe, for a signal handler's wait.
package func sleep(nanoseconds: Int) {
    var pause = timespec(tv_sec: 0, tv_nsec: nanoseconds)
    nanosleep(&pause, nil)
}

/// The UTC calendar date of `seconds` since 1970-01-01T00:00:00Z (`gmtime_r(3)`); `nil` when the
/// C library cannot represent it.
package func utcCalendarDate(secondsSince1970 seconds: Int) -> (year: Int, month: Int, day: Int)? {
    var time = time_t(seconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return nil }
    return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
}
