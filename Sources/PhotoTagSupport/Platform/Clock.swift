// The clocks and the calendar of the C library.

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

/// The UTC calendar date of `seconds` since 1970-01-01T00:00:00Z (`gmtime_r(3)`); `nil` when the
/// C library cannot represent it.
package func utcCalendarDate(secondsSince1970 seconds: Int) -> (year: Int, month: Int, day: Int)? {
    var time = time_t(seconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return nil }
    return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
}
