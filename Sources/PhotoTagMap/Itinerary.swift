/// A trip as consecutive visits: the photos in time order, cut where the country changes, each
/// country visit cut again where the place changes. Paris on the 1st, Basel on the 2nd, Zürich on
/// the 3rd and Paris on the 4th are four stops (FR, CH with Basel and Zürich, FR), not a France
/// that spans the week around Switzerland.
///
/// **Short hops.** A stay elsewhere that the photos leave and come back from within
/// ``shortHop`` seconds (the last photo before it to the first photo after it) does not cut the
/// visit: a photo taken across a border from a lake shore, or a lunch in the next village, is a
/// *hop*. The visit it interrupts is one stop holding the photos on both sides, and the hop
/// follows it as a stop of its own, marked ``Stop/hop``, so its photos are still counted and
/// named. The rule is the same for countries and for places.
///
/// Times are the photos' local wall clocks (all a map point has); photos without a time cannot be
/// put in the sequence and close it, one stop per country and place, by name.
package struct Itinerary: Sendable {
    /// One photo, as the itinerary needs it.
    package struct Photo: Sendable {
        package var countryCode: String?
        package var admin1: String?
        package var place: String?
        package var time: MapTime?

        package init(countryCode: String?, admin1: String?, place: String?, time: MapTime?) {
            self.countryCode = countryCode
            self.admin1 = admin1
            self.place = place
            self.time = time
        }
    }

    /// A visit to a country, or to a place within a country's visit.
    package struct Stop: Sendable, Equatable {
        /// The country's code; `nil` for a position in no country.
        package var countryCode: String?
        /// The place's region; `nil` for a country's stop, or when unknown.
        package var admin1: String?
        /// The place's name; `nil` for a country's stop, or a position with no named place.
        package var place: String?
        /// The indices (in the photos given) of the stop's photos, in time order.
        package var members: [Int] = []
        /// The first and last photo's time; `nil` for the stop of photos without a time.
        package var first: MapTime?
        package var last: MapTime?
        /// A short stay inside the stop before it (see ``Itinerary``).
        package var hop = false
        /// A country's stop: its places' stops, in the same sense.
        package var places: [Stop] = []

        /// How many photos the stop holds.
        package var count: Int { members.count }
    }

    /// The longest interruption, in seconds, that does not cut a visit: 2 hours.
    package static let shortHop: Int64 = 2 * 3600

    /// The country stops, in time order, then the stops of photos without a time.
    package private(set) var stops: [Stop] = []

    /// The itinerary of `photos`.
    package init(_ photos: [Photo]) {
        // Time order; ties (and photos without a time) by the order given.
        let timed = photos.indices.filter { photos[$0].time != nil }.sorted {
            let a = photos[$0].time!, b = photos[$1].time!
            return a != b ? a < b : $0 < $1
        }
        stops = Self.visits(timed, photos, places: false) { CountryKey(code: photos[$0].countryCode) }.map {
            var stop = $0
            stop.places = Self.visits(stop.members, photos, places: true) {
                PlaceKey(admin1: photos[$0].admin1, place: photos[$0].place)
            }
            return stop
        }
        // Photos without a time: one stop per country, and per place within it, by name.
        let untimed = photos.indices.filter { photos[$0].time == nil }
        let byCountry = Dictionary(grouping: untimed) { CountryKey(code: photos[$0].countryCode) }
        for country in byCountry.keys.sorted() {
            var stop = Stop(countryCode: country.code, members: byCountry[country]!)
            let byPlace = Dictionary(grouping: stop.members) {
                PlaceKey(admin1: photos[$0].admin1, place: photos[$0].place)
            }
            stop.places = byPlace.keys.sorted().map {
                Stop(countryCode: country.code, admin1: $0.admin1, place: $0.place, members: byPlace[$0]!)
            }
            stops.append(stop)
        }
    }

    private struct CountryKey: Hashable, Comparable {
        var code: String?
        /// No country last.
        static func < (a: Self, b: Self) -> Bool { (a.code ?? "\u{10FFFF}") < (b.code ?? "\u{10FFFF}") }
    }

    private struct PlaceKey: Hashable, Comparable {
        var admin1: String?
        var place: String?
        static func < (a: Self, b: Self) -> Bool {
            (a.place ?? "\u{10FFFF}", a.admin1 ?? "") < (b.place ?? "\u{10FFFF}", b.admin1 ?? "")
        }
    }

    /// The visits of the photos `order` (indices into `photos`, in time order), cut where `key`
    /// changes, with short hops folded (see ``Itinerary``); `places` says whether the stops are
    /// places (named) or countries.
    private static func visits<Key: Hashable>(
        _ order: [Int], _ photos: [Photo], places: Bool, key: (Int) -> Key
    ) -> [Stop] {
        // The runs: consecutive photos of one key.
        var runs: [(key: Key, members: [Int])] = []
        for index in order {
            let value = key(index)
            if runs.last?.key == value {
                runs[runs.count - 1].members.append(index)
            } else {
                runs.append((value, [index]))
            }
        }
        func seconds(_ index: Int) -> Int64 { photos[index].time!.secondsSinceEpoch }
        func stop(_ members: [Int], hop: Bool) -> Stop {
            let first = photos[members[0]]
            return Stop(
                countryCode: first.countryCode, admin1: places ? first.admin1 : nil, place: places ? first.place : nil,
                members: members, first: first.time, last: photos[members[members.count - 1]].time, hop: hop)
        }
        var stops: [Stop] = []
        var next = 0
        while next < runs.count {
            let visit = runs[next].key
            var members = runs[next].members
            var hops: [Int] = []
            next += 1
            // A return to the same key within the limit makes the runs in between hops. The run
            // at `next` is of another key (runs are maximal), so a return is at least one run on.
            while next < runs.count {
                let left = seconds(members[members.count - 1])
                var back = next
                while back < runs.count, runs[back].key != visit,
                    seconds(runs[back].members[0]) - left <= shortHop
                {
                    back += 1
                }
                guard back < runs.count, runs[back].key == visit, seconds(runs[back].members[0]) - left <= shortHop
                else { break }
                hops += next..<back
                members += runs[back].members
                next = back + 1
            }
            // The interrupted visit's photos stay in time order, with the hops' taken out.
            stops.append(stop(members, hop: false))
            for run in hops { stops.append(stop(runs[run].members, hop: true)) }
        }
        return stops
    }
}
