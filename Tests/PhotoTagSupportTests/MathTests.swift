import Testing

@testable import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Platform/Math.swift forwards to libm: the same bits for the same arguments.
@Suite struct MathTests {
    @Test(arguments: [0, 1e-9, 0.5, 1, -1, .pi / 3, 3, 1e6, -.infinity, .nan])
    func theFunctionsAreLibm(x: Double) {
        #if canImport(Glibc)
            #expect(PhotoTagSupport.sin(x).bitPattern == Glibc.sin(x).bitPattern)
            #expect(PhotoTagSupport.cos(x).bitPattern == Glibc.cos(x).bitPattern)
            #expect(PhotoTagSupport.asin(x).bitPattern == Glibc.asin(x).bitPattern)
            #expect(PhotoTagSupport.atan2(x, 0.75).bitPattern == Glibc.atan2(x, 0.75).bitPattern)
            #expect(PhotoTagSupport.pow(x, 0.6).bitPattern == Glibc.pow(x, 0.6).bitPattern)
            #expect(PhotoTagSupport.log2(x).bitPattern == Glibc.log2(x).bitPattern)
        #endif
    }
}
