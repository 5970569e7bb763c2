/// The path of a trip on the map: the photos with a time, in time order, one line per local day
/// in a colour of its own, so that a reader follows the trip day by day.
///
/// Each day's line starts where the day before ended (its first segment is the move between the
/// two days), so the path is unbroken, except across the frame's edge (the antimeridian of a
/// map that wraps), where it is cut rather than drawn across the whole map.
struct Route {
    /// One day's line: its date (`2019-07-01`), its colour and its points in pixels.
    struct Day {
        var date: String
        var colour: String
        var points: [PlanePoint]
    }

    /// The days, in time order.
    let days: [Day]
    /// Whether the route is shown when the map opens: a trip of at most ``tripDays`` days. A
    /// library of years is a scribble across the world; the HTML page can still show it.
    let shownAtFirst: Bool

    /// The longest time span, in days, whose route is shown at first.
    static let tripDays: Int64 = 60

    /// The day colours, in turn: Tableau's ten, but for the red of the markers and the grey.
    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"]

    /// The route of `points`, at `pixels` (the same order); no days when fewer than two points
    /// have a time.
    init(points: [MapPoint], pixels: [PlanePoint], width: Double) {
        let timed = points.indices.filter { points[$0].time != nil }.sorted {
            let a = points[$0].time!, b = points[$1].time!
            return a != b ? a < b : $0 < $1
        }
        guard timed.count >= 2, let first = timed.first.flatMap({ points[$0].time }),
            let last = timed.last.flatMap({ points[$0].time })
        else {
            days = []
            shownAtFirst = false
            return
        }
        var days: [Day] = []
        var previous: PlanePoint? = nil
        for index in timed {
            let date = points[index].time!.dateText, pixel = pixels[index]
            if days.last?.date != date {
                days.append(Day(date: date, colour: Self.palette[days.count % Self.palette.count], points: []))
                // The move from the day before, unless it crosses the frame's edge.
                if let previous, abs(previous.x - pixel.x) <= width / 2 { days[days.count - 1].points.append(previous) }
            }
            days[days.count - 1].points.append(pixel)
            previous = pixel
        }
        self.days = days
        shownAtFirst = (last.secondsSinceEpoch - first.secondsSinceEpoch) <= Self.tripDays * 86_400
    }

    /// A day's lines as SVG path data: a move to its first point, lines to the others, and a
    /// new move where two points are farther apart than half the frame's width.
    static func pathData(_ points: [PlanePoint], width: Double) -> String {
        var out = ""
        for (index, point) in points.enumerated() {
            let jump = index == 0 || abs(points[index - 1].x - point.x) > width / 2
            out += (jump ? "M" : "L") + MarkupText.pixel(point.x) + " " + MarkupText.pixel(point.y)
        }
        return out
    }
}
