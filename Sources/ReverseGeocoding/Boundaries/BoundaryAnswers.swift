/// The features of each layer that contain a point, as indices into the layers (allocation-free;
/// see ``BoundaryTable/features(_:fallback:)``); `nil` means none.
public struct BoundaryFeatures: Sendable, Equatable {
    /// The time zone, an index into ``BoundaryTable/timeZoneCount``; `nil` when none.
    public var timeZone: Int? { Self.index(timeZoneIndex) }
    /// A second time zone in a kept overlap (see ``BoundaryTable/preferredZone(_:nearestPlaceZone:)``);
    /// `nil` when none.
    public var secondTimeZone: Int? { Self.index(secondTimeZoneIndex) }
    /// The country, an index into ``BoundaryTable/countryCount``; `nil` when none.
    public var country: Int? { Self.index(countryIndex) }
    /// The admin-1 region, an index into ``BoundaryTable/admin1Count``; `nil` when none.
    public var admin1: Int? { Self.index(admin1Index) }
    /// The smallest sea that contains the point, an index into ``BoundaryTable/seaCount``; `nil`
    /// when none (and always in a table without seas).
    public var sea: Int? { Self.index(seaIndex) }
    /// Whether ``country`` is the nearest country rather than one that contains the point.
    public internal(set) var countryFromFallback = false
    /// Whether ``admin1`` is the nearest admin-1 region rather than one that contains the point.
    public internal(set) var admin1FromFallback = false

    /// The indices as the lookup keeps them, compact and allocation-free: `-1` means none.
    package var timeZoneIndex: Int32 = -1
    package var secondTimeZoneIndex: Int32 = -1
    package var countryIndex: Int32 = -1
    package var admin1Index: Int32 = -1
    package var seaIndex: Int32 = -1

    /// No feature: every index `-1`, no fallback.
    package init() {}

    private static func index(_ stored: Int32) -> Int? { stored < 0 ? nil : Int(stored) }
}

/// What the boundaries say about a point: country, admin-1 region and time zones.
public struct BoundaryHit: Sendable, Equatable {
    /// An admin-1 region: its country and its GeoNames admin-1 code (e.g. `US`, `CA`).
    public struct Admin1: Sendable, Hashable {
        /// The ISO 3166-1 alpha-2 code of the region's country (`FR`).
        public var countryCode: String
        /// The region's admin-1 code within its country, as GeoNames writes it (`11`).
        public var code: String
    }

    /// The country (ISO 3166-1 alpha-2, or `XK`); `nil` at sea.
    public var countryCode: String?
    /// The admin-1 region; `nil` at sea or in a country without admin-1 regions.
    public var admin1: Admin1?
    /// The time zones (tzids): one, or two in a kept overlap (never none for a finite position).
    public var timeZones: [String]
    /// Whether only ocean zones (`Etc/*`) contain the point.
    public var isOcean: Bool
    /// Whether the country came from the nearest-polygon fallback.
    public var countryFromFallback: Bool
    /// Whether the admin-1 region came from the nearest-polygon fallback.
    public var admin1FromFallback: Bool
    /// The same answer as feature indices.
    public var features: BoundaryFeatures
}
