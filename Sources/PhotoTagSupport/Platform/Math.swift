// The C library's math functions that phototag uses (libm), for every module: a file that
// computes a distance, a bearing or a projection imports PhotoTagSupport, not Glibc or Darwin.
//
// Each is `@inlinable` and only calls libm, so a caller in another module (the nearest-place
// search, the haversine distance) calls libm directly, as it did when it imported Glibc itself.
// A caller that also imports Glibc or Darwin (a test) gets these: a module's declarations shadow
// those of the modules it imports.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sine of `x` radians.
@inlinable package func sin(_ x: Double) -> Double {
    #if canImport(Glibc)
        return Glibc.sin(x)
    #else
        return Darwin.sin(x)
    #endif
}

/// The cosine of `x` radians.
@inlinable package func cos(_ x: Double) -> Double {
    #if canImport(Glibc)
        return Glibc.cos(x)
    #else
        return Darwin.cos(x)
    #endif
}

/// The arc sine of `x`, in radians (-π/2...π/2).
@inlinable package func asin(_ x: Double) -> Double {
    #if canImport(Glibc)
        return Glibc.asin(x)
    #else
        return Darwin.asin(x)
    #endif
}

/// The angle of the point (`x`, `y`) from the x axis, in radians (-π...π).
@inlinable package func atan2(_ y: Double, _ x: Double) -> Double {
    #if canImport(Glibc)
        return Glibc.atan2(y, x)
    #else
        return Darwin.atan2(y, x)
    #endif
}

/// `x` to the power `y`.
@inlinable package func pow(_ x: Double, _ y: Double) -> Double {
    #if canImport(Glibc)
        return Glibc.pow(x, y)
    #else
        return Darwin.pow(x, y)
    #endif
}

/// The base-2 logarithm of `x`.
@inlinable package func log2(_ x: Double) -> Double {
    #if canImport(Glibc)
        return Glibc.log2(x)
    #else
        return Darwin.log2(x)
    #endif
}

/// The great-circle distance in metres between two points given in degrees (haversine, on the
/// mean Earth radius of 6,371,008.8 m): the track matcher's and the command line's one formula.
package func greatCircleMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radians = Double.pi / 180
    let a = lat1 * radians, b = lat2 * radians
    let sinLat = sin((b - a) / 2), sinLon = sin((lon2 - lon1) * radians / 2)
    let h = sinLat * sinLat + cos(a) * cos(b) * sinLon * sinLon
    return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
}
