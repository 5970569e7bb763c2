/// A TIFF RATIONAL or SRATIONAL value exactly as stored: numerator over denominator.
///
/// Both kinds fit in `Int64` without loss (an unsigned 32-bit numerator and a signed one alike),
/// so one type carries both and arithmetic on them cannot overflow before it is converted.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    /// The stored numerator.
    public var numerator: Int64
    /// The stored denominator; zero is representable, because files contain it.
    public var denominator: Int64

    /// Creates a rational from its stored parts.
    public init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value as a `Double`, or `nil` when the denominator is zero.
    public var doubleValue: Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }

    /// The stored parts as `numerator/denominator`, e.g. `355/10`.
    public var description: String { "\(numerator)/\(denominator)" }
}
