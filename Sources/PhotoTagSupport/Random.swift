/// Sebastiano Vigna's SplitMix64: a small, fast, seeded generator whose sequence is the same on
/// every platform and Swift release (unlike `SystemRandomNumberGenerator`), for the benchmarks and
/// the tests, so that a run can be repeated exactly.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state; the seed at first.
    package var state: UInt64

    /// A generator seeded with `state`.
    package init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
