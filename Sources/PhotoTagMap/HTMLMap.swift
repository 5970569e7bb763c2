import CMapAssets

extension MapRenderer {
    /// One self-contained HTML page: the map of ``svg(points:counts:)`` inline, with pan and zoom
    /// (its markers clustered again at each zoom level, ``Cluster/levels(_:)``), a tooltip per
    /// marker (files as `file://` links, place, distance, time), and a table of the trip's stops
    /// (country, then its places, in time order; see ``Itinerary``) that sorts by any column and
    /// highlights the markers of a row's photos. Nothing is loaded from the network; without
    /// JavaScript the map and the table are still there.
    ///
    /// A relative path is linked as `directory/path` (`directory` is the working directory the
    /// paths are relative to; empty leaves them relative). A point without a path (a coordinate)
    /// is listed by its position, without a link.
    ///
    /// The same points, counts and directory always give the same bytes.
    package static func html(points: [MapPoint], counts: MapCounts, directory: [UInt8] = []) -> [UInt8] {
        let picture = MapPicture(points: points, counts: counts)
        let groups = PlaceGroups(picture.points)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(MarkupText.escaped("Photo map: " + picture.title))</title>\n"
        out += "<style>\n\(style)</style>\n</head>\n<body>\n"
        out += "<div id=\"layout\">\n<div id=\"mapbox\">\n"
        out += "<div id=\"zoom\" hidden><button type=\"button\" id=\"zoom-in\" title=\"Zoom in\">+</button>"
        out += "<button type=\"button\" id=\"zoom-out\" title=\"Zoom out\">\u{2212}</button>"
        out += "<button type=\"button\" id=\"zoom-reset\" title=\"Whole map\">\u{2302}</button>"
        if !picture.route.days.isEmpty {
            // The route, shown or hidden: a trip's is shown at first, a span of years' is not.
            out += "<button type=\"button\" id=\"route-toggle\" title=\"Route, a colour per day\""
            out += " aria-pressed=\"\(picture.route.shownAtFirst)\">\u{21DD}</button>"
        }
        // Four corners, drawn: the fonts a page may count on have no full-screen sign.
        out += "<button type=\"button\" id=\"full-screen\" title=\"Full screen\" hidden><svg width=\"14\""
        out += " height=\"14\" viewBox=\"0 0 14 14\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\">"
        out += "<path d=\"M1 5V1h4M9 1h4v4M13 9v4H9M5 13H1V9\"/></svg></button>"
        out += "</div>\n"
        out += svgElement(picture, inline: true)
        out += "<div id=\"tip\" hidden></div>\n</div>\n"
        out += "<section id=\"places\">\n<h2>Places</h2>\n<table id=\"table\">\n<thead><tr>"
        for (index, heading) in ["Country", "Region", "Place", "Photos", "First", "Last"].enumerated() {
            out += "<th data-column=\"\(index)\"\(index == 3 ? " class=\"number\"" : "")>\(heading)</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for country in groups.countries {
            out += row(country, level: "country")
            for place in country.children { out += row(place, level: "place") }
        }
        out += "</tbody>\n</table>\n</section>\n</div>\n"
        out += "<script type=\"application/json\" id=\"photo-data\">"
        out += data(picture, groups: groups, directory: directory)
        out += "</script>\n<script>\n\(script)</script>\n</body>\n</html>\n"
        return Array(out.utf8)
    }

    /// One table row.
    private static func row(_ group: PlaceGroups.Group, level: String) -> String {
        var out = "<tr class=\"\(level)\(group.hop ? " hop" : "")\">"
        for cell in group.cells { out += "<td>\(MarkupText.escaped(cell))</td>" }
        out += "<td class=\"number\">\(group.count)</td>"
        out += "<td>\(group.first?.dateText ?? "")</td><td>\(group.last?.dateText ?? "")</td></tr>\n"
        return out
    }

    /// The photos, markers and place groups as JSON for the script.
    private static func data(_ picture: MapPicture, groups: PlaceGroups, directory: [UInt8]) -> String {
        var base = directory
        if !base.isEmpty, base.last != UInt8(ascii: "/") { base.append(UInt8(ascii: "/")) }
        var out = "{\"points\":["
        for (index, point) in picture.points.enumerated() {
            if index > 0 { out += "," }
            var place: [String] = []
            if let name = point.place { place.append(name) }
            if let admin1 = point.admin1 { place.append(admin1) }
            if let code = point.countryCode { place.append(code) }
            let distance = point.distanceKm.map { MarkupText.fixed($0, $0 < 10 ? 2 : 1) + " km" } ?? ""
            if point.path.isEmpty {
                let position = MarkupText.fixed(point.latitude, 5) + ", " + MarkupText.fixed(point.longitude, 5)
                out += "[" + MarkupText.json(position) + ",\"\","
            } else {
                let absolute = point.path.first == UInt8(ascii: "/") ? point.path : base + point.path
                out += "[" + MarkupText.json(MarkupText.shown(point.path)) + ","
                out += MarkupText.json(MarkupText.fileURL(absolute)) + ","
            }
            out += MarkupText.json(place.joined(separator: ", ")) + "," + MarkupText.json(distance) + ","
            out += MarkupText.json(point.time?.text ?? "") + "]"
        }
        out += "],\n\"levels\":" + levelJSON(picture)
        out += ",\n\"places\":" + groupJSON(groups.countries) + "}"
        return out
    }

    /// The markers of each zoom level for the script, coarsest first, leaving out a level that
    /// is the same as the one before it: `{"scale", "markers": [[x, y, radius, name, count text]],
    /// "of"}`, where `of` gives each photo's marker on the finest level, and on every other level
    /// the marker that holds each marker of the next finer one. Centres are in pixels of the map
    /// as drawn, to a thousandth (a quarter of a screen pixel at the deepest zoom).
    private static func levelJSON(_ picture: MapPicture) -> String {
        let kept = picture.levels.indices.filter { $0 == 0 || picture.levels[$0].count != picture.levels[$0 - 1].count }
        // Each kept level's marker of every photo.
        let owner: [[Int]] = kept.map { level in
            var owner = [Int](repeating: 0, count: picture.points.count)
            for (index, cluster) in picture.levels[level].enumerated() {
                for member in cluster.members { owner[member] = index }
            }
            return owner
        }
        var parts: [String] = []
        for (position, level) in kept.enumerated() {
            let clusters = picture.levels[level], names = picture.levelNames[level]
            var out = "{\"scale\":\(Cluster.levelScales[level]),\"markers\":["
            out += clusters.indices.map { index in
                let cluster = clusters[index]
                return "[" + MarkupText.fixed(cluster.x, 3) + "," + MarkupText.fixed(cluster.y, 3) + ","
                    + MarkupText.fixed(cluster.radius, 2) + "," + MarkupText.json(names[index] ?? "") + ","
                    + MarkupText.json(cluster.members.count > 1 ? MarkupText.short(cluster.members.count) : "") + "]"
            }.joined(separator: ",")
            let of: [Int]
            if position == kept.count - 1 {
                of = owner[position]
            } else {
                of = picture.levels[kept[position + 1]].map { owner[position][$0.members[0]] }
            }
            out += "],\"of\":[" + of.map(String.init).joined(separator: ",") + "]}"
            parts.append(out)
        }
        return "[" + parts.joined(separator: ",\n") + "]"
    }

    /// The place groups and their children as a JSON array, for the script's table.
    private static func groupJSON(_ groups: [PlaceGroups.Group]) -> String {
        "["
            + groups.map { group in
                "{\"cells\":[\(group.cells.map(MarkupText.json).joined(separator: ","))],"
                    + "\"order\":\(group.order),\"hop\":\(group.hop),\"count\":\(group.count),"
                    + "\"first\":\(MarkupText.json(group.first?.dateText ?? "")),"
                    + "\"last\":\(MarkupText.json(group.last?.dateText ?? "")),"
                    + "\"points\":[\(group.points.map(String.init).joined(separator: ","))],"
                    + "\"children\":\(groupJSON(group.children))}"
            }.joined(separator: ",") + "]"
    }

    /// The page's style sheet, `Sources/CMapAssets/map.css`, embedded at build time. Its
    /// highlight colour is ``MapColours/highlight`` (a test checks that they agree).
    static let style = String(cString: CMapAssets_css())

    /// The page's script, `Sources/CMapAssets/map.js`, embedded at build time.
    static let script = String(cString: CMapAssets_js())
}

/// The table's rows: the trip's stops (an ``Itinerary``), each country's followed by its
/// places', with their counts, first and last capture times and photos.
struct PlaceGroups {
    /// One row of the table.
    struct Group {
        /// Country, region and place (the country's row fills only the first, a place's the
        /// others); a short hop's name says so.
        var cells: [String]
        /// The row's place in the trip's order, among its level.
        var order: Int
        var hop: Bool
        var count: Int
        var first: MapTime?
        var last: MapTime?
        /// The indices of its photos, ascending.
        var points: [Int]
        var children: [Group] = []
    }

    var countries: [Group]

    /// The text of a missing name.
    static let none = "\u{2014}"

    init(_ points: [MapPoint]) {
        let itinerary = Itinerary(
            points.map {
                Itinerary.Photo(countryCode: $0.countryCode, admin1: $0.admin1, place: $0.place, time: $0.time)
            })
        func group(_ stop: Itinerary.Stop, order: Int, cells: [String]) -> Group {
            var cells = cells
            if stop.hop, let named = cells.lastIndex(where: { !$0.isEmpty }) { cells[named] += " (short hop)" }
            return Group(
                cells: cells, order: order, hop: stop.hop, count: stop.count, first: stop.first, last: stop.last,
                points: stop.members.sorted())
        }
        countries = itinerary.stops.enumerated().map { index, country in
            var row = group(country, order: index, cells: [country.countryCode ?? Self.none, "", ""])
            row.children = country.places.enumerated().map {
                group($1, order: $0, cells: ["", $1.admin1 ?? Self.none, $1.place ?? Self.none])
            }
            return row
        }
    }
}
