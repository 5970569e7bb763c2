import CMapAssets

extension MapRenderer {
    /// One self-contained HTML page: the map of ``svg(points:counts:)`` inline, with pan and zoom,
    /// a tooltip per marker (files as `file://` links, place, distance, time), and a table of the
    /// places grouped country → admin-1 → place that sorts by any column and highlights a row's
    /// markers. Nothing is loaded from the network; without JavaScript the map and the table
    /// are still there.
    ///
    /// A relative path is linked as `directory/path` (`directory` is the working directory the
    /// paths are relative to; empty leaves them relative). A point without a path (a coordinate)
    /// is listed by its position, without a link.
    ///
    /// The same points, counts and directory always give the same bytes.
    package static func html(points: [MapPoint], counts: MapCounts, directory: [UInt8] = []) -> [UInt8] {
        let picture = MapPicture(points: points, counts: counts)
        var marker = [Int](repeating: 0, count: picture.points.count)
        for (index, cluster) in picture.clusters.enumerated() {
            for member in cluster.members { marker[member] = index }
        }
        let groups = PlaceGroups(picture.points, marker: marker)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(MarkupText.escaped("Photo map: " + picture.title))</title>\n"
        out += "<style>\n\(style)</style>\n</head>\n<body>\n"
        out += "<div id=\"layout\">\n<div id=\"mapbox\">\n"
        out += "<div id=\"zoom\" hidden><button type=\"button\" id=\"zoom-in\" title=\"Zoom in\">+</button>"
        out += "<button type=\"button\" id=\"zoom-out\" title=\"Zoom out\">\u{2212}</button>"
        out += "<button type=\"button\" id=\"zoom-reset\" title=\"Whole map\">\u{2302}</button></div>\n"
        out += svgElement(picture, inline: true)
        out += "<div id=\"tip\" hidden></div>\n</div>\n"
        out += "<section id=\"places\">\n<h2>Places</h2>\n<table id=\"table\">\n<thead><tr>"
        for (index, heading) in ["Country", "Region", "Place", "Photos", "First", "Last"].enumerated() {
            out += "<th data-column=\"\(index)\"\(index == 3 ? " class=\"number\"" : "")>\(heading)</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for country in groups.countries {
            out += row(country, level: "country", cells: [country.name, "", ""])
            for region in country.children {
                out += row(region, level: "region", cells: ["", region.name, ""])
                for place in region.children { out += row(place, level: "place", cells: ["", "", place.name]) }
            }
        }
        out += "</tbody>\n</table>\n</section>\n</div>\n"
        out += "<script type=\"application/json\" id=\"photo-data\">"
        out += data(picture, groups: groups, directory: directory)
        out += "</script>\n<script>\n\(script)</script>\n</body>\n</html>\n"
        return Array(out.utf8)
    }

    /// One table row.
    private static func row(_ group: PlaceGroups.Group, level: String, cells: [String]) -> String {
        var out = "<tr class=\"\(level)\" data-markers=\"\(group.markers.map(String.init).joined(separator: " "))\">"
        for cell in cells { out += "<td>\(MarkupText.escaped(cell))</td>" }
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
        out += "],\n\"markers\":["
        for (index, cluster) in picture.clusters.enumerated() {
            if index > 0 { out += "," }
            out += "{\"name\":" + MarkupText.json(picture.clusterNames[index] ?? "") + ","
            out += "\"points\":[" + cluster.members.map(String.init).joined(separator: ",") + "]}"
        }
        out += "],\n\"places\":" + groupJSON(groups.countries) + "}"
        return out
    }

    /// The place groups and their children as a JSON array, for the script's table.
    private static func groupJSON(_ groups: [PlaceGroups.Group]) -> String {
        "["
            + groups.map { group in
                "{\"name\":\(MarkupText.json(group.name)),\"count\":\(group.count),"
                    + "\"first\":\(MarkupText.json(group.first?.dateText ?? "")),"
                    + "\"last\":\(MarkupText.json(group.last?.dateText ?? "")),"
                    + "\"markers\":[\(group.markers.map(String.init).joined(separator: ","))],"
                    + "\"children\":\(groupJSON(group.children))}"
            }.joined(separator: ",") + "]"
    }

    /// The page's style sheet, `Sources/CMapAssets/map.css`, embedded at build time. Its
    /// highlight colour is ``MapColours/highlight`` (a test checks that they agree).
    static let style = String(cString: CMapAssets_css())

    /// The page's script, `Sources/CMapAssets/map.js`, embedded at build time.
    static let script = String(cString: CMapAssets_js())
}

/// The located photos grouped country → admin-1 region → place, each group with its count, its
/// first and last capture time and the markers that hold its photos; every level in time order
/// (groups without a time last, then by name).
struct PlaceGroups {
    /// One group of the table.
    struct Group {
        var name: String
        var count = 0
        var first: MapTime?
        var last: MapTime?
        var markers: [Int] = []
        var children: [Group] = []
    }

    var countries: [Group]

    /// The text of a missing name.
    static let none = "\u{2014}"

    init(_ points: [MapPoint], marker: [Int]) {
        let order = points.indices.sorted {
            let a = points[$0], b = points[$1]
            let x = (a.countryCode ?? "", a.admin1 ?? "", a.place ?? ""),
                y = (b.countryCode ?? "", b.admin1 ?? "", b.place ?? "")
            return x != y ? x < y : $0 < $1
        }
        var countries: [Group] = []
        for index in order {
            let point = points[index]
            let names = [point.countryCode ?? Self.none, point.admin1 ?? Self.none, point.place ?? Self.none]
            if countries.last?.name != names[0] { countries.append(Group(name: names[0])) }
            let c = countries.count - 1
            if countries[c].children.last?.name != names[1] { countries[c].children.append(Group(name: names[1])) }
            let r = countries[c].children.count - 1
            if countries[c].children[r].children.last?.name != names[2] {
                countries[c].children[r].children.append(Group(name: names[2]))
            }
            let p = countries[c].children[r].children.count - 1
            countries[c].add(point.time, marker[index])
            countries[c].children[r].add(point.time, marker[index])
            countries[c].children[r].children[p].add(point.time, marker[index])
        }
        self.countries = Self.ordered(countries)
    }

    /// Every level in time order.
    private static func ordered(_ groups: [Group]) -> [Group] {
        groups.map { group in
            var group = group
            group.children = ordered(group.children)
            group.markers = Array(Set(group.markers)).sorted()
            return group
        }.sorted {
            switch ($0.first, $1.first) {
            case (let a?, let b?) where a != b: return a < b
            case (.some, .none): return true
            case (.none, .some): return false
            default: return $0.name < $1.name
            }
        }
    }
}

extension PlaceGroups.Group {
    /// Counts one photo.
    mutating func add(_ time: MapTime?, _ marker: Int) {
        count += 1
        if let time {
            if first.map({ time < $0 }) ?? true { first = time }
            if last.map({ time > $0 }) ?? true { last = time }
        }
        if markers.last != marker { markers.append(marker) }
    }
}
