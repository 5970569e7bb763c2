import Testing

@testable import PhotoTagMap

@Suite struct TripSummaryTests {
    static func day(_ day: Int, _ hour: Int = 12) -> MapTime { MapTime(year: 2019, month: 7, day: day, hour: hour) }

    @Test func countriesAndPlacesComeInTimeOrderWithTheirDates() {
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
                "FR  Paris  3 photos  2019-07-01 – 2019-07-04",
                "FR  Marseille  2 photos  2019-07-03",
                "IT  2 photos  2019-07-07 – 2019-07-08",
                "IT  Rome  2 photos  2019-07-07 – 2019-07-08",
            ])
    }

    @Test func photosWithoutATimeOrAPlaceAreCountedToo() {
        var trip = TripSummary()
        trip.add(countryCode: nil, admin1: nil, place: nil, time: nil)
        trip.add(countryCode: "US", admin1: "Illinois", place: "Springfield", time: nil)
        trip.add(countryCode: "US", admin1: "Missouri", place: "Springfield", time: Self.day(5))
        #expect(
            trip.lines() == [
                "US  2 photos  2019-07-05",
                "US  Springfield, Missouri  1 photo  2019-07-05",
                "US  Springfield, Illinois  1 photo",
                "--  1 photo",
                "--  (no place)  1 photo",
            ])
        #expect(TripSummary().lines().isEmpty && TripSummary().isEmpty)
    }
}
