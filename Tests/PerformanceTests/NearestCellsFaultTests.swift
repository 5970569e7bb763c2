import Foundation
import Testing

@testable import ReverseGeocoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What making the grid of nearest cells costs in page faults (``NearestCells`` is correct either
/// way: NearestCellsTests in ReverseGeocodingTests checks its answers).
@Suite struct NearestCellsFaultTests {
    /// A sanitizer's shadow memory faults in with fresh allocations (the grid's candidates), so
    /// under one the count says nothing about the grid; `make check` names the sanitizer it runs.
    static let sanitized = ProcessInfo.processInfo.environment["PHOTOTAG_SANITIZER"] != nil

    @Test(.disabled(if: sanitized, "a sanitizer's shadow memory faults in with each allocation"))
    func makingTheGridTouchesNoneOfItsPages() {
        // 64,800 states of 8 bytes are 127 pages: stored one by one, each would fault in. Made
        // from the kernel's zero pages, making a grid faults in none of them, and every cell
        // still reads as not worked out. Other faults come with it (the allocator's, and a
        // sanitizer's shadow memory: 41 under ThreadSanitizer, under 32 otherwise), so the
        // bound is half the states' pages.
        func minorFaults() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD: this test's thread only
            return usage.ru_minflt
        }
        let before = minorFaults()
        let cells = NearestCells()
        let faults = minorFaults() - before
        #expect(faults < 64, "\(faults) page faults")
        #expect((0..<64_800).allSatisfy { cells.entry($0) == nil })
    }
}
