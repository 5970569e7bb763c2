import PhotoTagSupport

/// Empty arrays for the entries of IFDs, kept per thread with the room they grew to, so that
/// reading photo after photo on one thread reads their IFDs without allocating.
///
/// An array is taken (``take()``), filled, and given back (``recycle(_:)``), which empties it.
/// Nothing goes from one photo to the next: an array is always empty when taken. An array that
/// is not given back (an error on the way) is only a lost reuse.
final class EntryArrays {
    /// The arrays given back, empty; an array without room where there is none. (Four slots, not
    /// an array of arrays: a photo's compact block takes three, and slots cost no bookkeeping.
    /// Only this thread touches them, hence no exclusivity checks.)
    @exclusivity(unchecked) private var first: [TIFFEntry] = []
    @exclusivity(unchecked) private var second: [TIFFEntry] = []
    @exclusivity(unchecked) private var third: [TIFFEntry] = []
    @exclusivity(unchecked) private var fourth: [TIFFEntry] = []

    /// The calling thread's arrays, made on its first call; `nil` when they cannot be kept.
    static var current: EntryArrays? { perThread.current }

    /// Each thread's arrays, released when it ends.
    private static let perThread = PerThread { EntryArrays() }

    /// An empty array, with room when one was given back before.
    func take() -> [TIFFEntry] {
        var taken: [TIFFEntry] = []
        if first.capacity > 0 {
            swap(&taken, &first)
        } else if second.capacity > 0 {
            swap(&taken, &second)
        } else if third.capacity > 0 {
            swap(&taken, &third)
        } else if fourth.capacity > 0 {
            swap(&taken, &fourth)
        }
        return taken
    }

    /// Empties `entries` (keeping its room) and keeps it for the next ``take()`` if a slot is free;
    /// `entries` is left an empty array without room.
    func recycle(_ entries: inout [TIFFEntry]) {
        guard entries.capacity > 0 else { return }
        entries.removeAll(keepingCapacity: true)
        if first.capacity == 0 {
            swap(&entries, &first)
        } else if second.capacity == 0 {
            swap(&entries, &second)
        } else if third.capacity == 0 {
            swap(&entries, &third)
        } else if fourth.capacity == 0 {
            swap(&entries, &fourth)
        } else {
            entries = []
        }
    }
}
