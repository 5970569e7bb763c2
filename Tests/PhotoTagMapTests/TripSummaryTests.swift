import Testing

@testable import PhotoTagMap

@Suite struct TripSummaryTests {
    static func day(_ day: Int, _ hour: Int = 12, _ minute: Int = 0) -> MapTime {
        MapTime(year: 2019, month: 7, day: day, hour: hour, minute: minute)
    }

    /// Issue 23, item 20: Paris, Basel, Zürich and Paris again showed as a France spanning the
    /// days around Switzerland. The trip is consecutive visits, country then place.
    @Test func theTripIsConsecutiveVisitsCountryThenPlace() {
        var trip = TripSummary()
        trip.add(countryCode: "FR", admin1: "Île-de-France", place: "Paris", time: Self.day(1))
        trip.add(countryCode: "CH", admin1: "Basel-City", place: "Basel", time: Self.day(2))
        trip.add(countryCode: "CH", admin1: "Zurich", place: "Zürich", time: Self.day(3))
        trip.add(countryCode: "FR", admin1: "Île-de-France", place: "Paris", time: Self.day(4))
        #expect(
            trip.lines() == [
                "FR  1 photo  2019-07-01",
                "FR  Paris  1 photo  2019-07-01",
                "CH  2 photos  2019-07-02 – 2019-07-03",
                "CH  Basel  1 photo  2019-07-02",
                "CH  Zürich  1 photo  2019-07-03",
                "FR  1 photo  2019-07-04",
                "FR  Paris  1 photo  2019-07-04",
            ])
    }

    @Test func placesAreVisitedInTurnWithinACountrysVisit() {
        var trip = TripSummary()
        trip.add(countryCode: "IT", admin1: "Lazio", place: "Rome", time: Self.day(8))
        for day in [1, 2, 4] {
            trip.add(countryCode: "FR", admin1: "Île-de-France", place: "Paris", time: Self.day(day))
        }
        trip.add(countryCode: "FR", admin1: "Provence", place: "Marseille", time: Self.day(3, 9))
        trip.add(countryCode: "FR", admin1: "Provence", place: "Marseille", time: Self.day(3, 18))
        trip.add(countryCode: "IT", admin1: "Lazio", place: "Rome", time: Self.day(7))
        #expect(
            trip.lines() == [
                "FR  5 photos  2019-07-01 – 2019-07-04",
                "FR  Paris  2 photos  2019-07-01 – 2019-07-02",
                "FR  Marseille  2 photos  2019-07-03",
                "FR  Paris  1 photo  2019-07-04",
                "IT  2 photos  2019-07-07 – 2019-07-08",
                "IT  Rome  2 photos  2019-07-07 – 2019-07-08",
            ])
    }

    /// A photo across the border, or a lunch in the next village, left and come back from within
    /// two hours, does not cut the visit: it follows it as a short hop. Three hours does.
    @Test func aShortHopDoesNotCutTheVisitItInterrupts() {
        var trip = TripSummary()
        trip.add(countryCode: "CH", admin1: "Basel-City", place: "Basel", time: Self.day(2, 10))
        trip.add(countryCode: "DE", admin1: "Baden-Württemberg", place: "Weil am Rhein", time: Self.day(2, 11))
        trip.add(countryCode: "FR", admin1: "Grand Est", place: "Saint-Louis", time: Self.day(2, 11, 30))
        trip.add(countryCode: "CH", admin1: "Basel-City", place: "Basel", time: Self.day(2, 11, 59))
        trip.add(countryCode: "CH", admin1: "Basel-City", place: "Riehen", time: Self.day(2, 13))
        trip.add(countryCode: "CH", admin1: "Basel-City", place: "Basel", time: Self.day(2, 13, 30))
        // Away for three hours: a visit of its own.
        trip.add(countryCode: "DE", admin1: "Baden-Württemberg", place: "Lörrach", time: Self.day(2, 16))
        trip.add(countryCode: "CH", admin1: "Basel-City", place: "Basel", time: Self.day(2, 17))
        #expect(
            trip.lines() == [
                "CH  4 photos  2019-07-02",
                "CH  Basel  3 photos  2019-07-02",
                "CH  Riehen  1 photo  2019-07-02  (short hop)",
                "DE  1 photo  2019-07-02  (short hop)",
                "DE  Weil am Rhein  1 photo  2019-07-02",
                "FR  1 photo  2019-07-02  (short hop)",
                "FR  Saint-Louis  1 photo  2019-07-02",
                "DE  1 photo  2019-07-02",
                "DE  Lörrach  1 photo  2019-07-02",
                "CH  1 photo  2019-07-02",
                "CH  Basel  1 photo  2019-07-02",
            ])
        let stops = trip.itinerary.stops
        #expect(stops.map(\.count).reduce(0, +) == 8, "every photo is in one stop")
        #expect(
            stops[0].members == [0, 3, 4, 5] && stops[0].first == Self.day(2, 10)
                && stops[0].last == Self.day(2, 13, 30))
    }

    @Test func photosWithoutATimeOrAPlaceCloseTheTrip() {
        var trip = TripSummary()
        trip.add(countryCode: nil, admin1: nil, place: nil, time: nil)
        trip.add(countryCode: "US", admin1: "Illinois", place: "Springfield", time: nil)
        trip.add(countryCode: "US", admin1: "Missouri", place: "Springfield", time: Self.day(5))
        #expect(
            trip.lines() == [
                "US  1 photo  2019-07-05",
                "US  Springfield, Missouri  1 photo  2019-07-05",
                "US  1 photo  (no time)",
                "US  Springfield, Illinois  1 photo  (no time)",
                "--  1 photo  (no time)",
                "--  (no place)  1 photo  (no time)",
            ])
        #expect(TripSummary().lines().isEmpty && TripSummary().isEmpty)
    }
}
