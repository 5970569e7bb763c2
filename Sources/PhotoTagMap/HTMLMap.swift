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

    static let style = """
        body { margin: 0; font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif; color: #222; background: #fff; }
        #layout { display: flex; flex-wrap: wrap; gap: 16px; padding: 12px; align-items: flex-start; }
        #mapbox { position: relative; flex: 3 1 640px; max-width: 100%; }
        #map { display: block; width: 100%; height: auto; border: 1px solid #ccc; touch-action: none; }
        #view { cursor: grab; }
        #view.dragging { cursor: grabbing; }
        #borders { vector-effect: non-scaling-stroke; stroke-width: 0.7px; }
        .marker { cursor: pointer; vector-effect: non-scaling-stroke; }
        .marker:hover, .marker.pinned { stroke: #222; }
        .marker.highlight { fill: \(MapColours.highlight); stroke: #222; }
        #counts, #labels { pointer-events: none; }
        #zoom { position: absolute; top: 44px; right: 10px; display: flex; flex-direction: column; gap: 4px; }
        #zoom button { width: 32px; height: 32px; font-size: 18px; border: 1px solid #999; border-radius: 4px; background: #fff; cursor: pointer; }
        #tip { position: absolute; max-width: 420px; max-height: 320px; overflow: auto; background: #fff; border: 1px solid #888; border-radius: 4px; padding: 6px 8px; font-size: 12px; box-shadow: 0 2px 6px rgba(0,0,0,.25); z-index: 2; }
        #tip ul { margin: 4px 0 0; padding-left: 16px; }
        #tip a { word-break: break-all; }
        #places { flex: 2 1 480px; max-width: 100%; max-height: 92vh; overflow: auto; }
        #places h2 { font-size: 16px; margin: 0 0 6px; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; }
        th, td { padding: 3px 6px; border-bottom: 1px solid #e4e4e4; text-align: left; }
        th, td:nth-child(n+4) { white-space: nowrap; }
        th { background: #f4f4f4; cursor: pointer; user-select: none; position: sticky; top: 0; }
        th.sorted-up::after { content: " \\25B2"; }
        th.sorted-down::after { content: " \\25BC"; }
        td.number, th.number { text-align: right; }
        tr.country td { font-weight: bold; background: #fafafa; }
        tr.region td:nth-child(2) { font-style: italic; }
        tbody tr { cursor: pointer; }
        tbody tr:hover { background: #fff3d6; }
        tr.selected td { background: #ffe2a0; }

        """

    static let script = """
        "use strict";
        (function () {
          var data = JSON.parse(document.getElementById("photo-data").textContent);
          var svg = document.getElementById("map");
          var view = document.getElementById("view");
          var tip = document.getElementById("tip");
          var box = document.getElementById("mapbox");
          var base = view.viewBox.baseVal;
          var home = { x: base.x, y: base.y, w: base.width, h: base.height };
          var current = { x: home.x, y: home.y, w: home.w, h: home.h };
          var markers = [];
          for (var i = 0; i < data.markers.length; i++) {
            var circle = document.getElementById("m" + i);
            markers.push({ circle: circle, x: +circle.getAttribute("cx"), y: +circle.getAttribute("cy"),
                           r: +circle.getAttribute("r"), count: document.getElementById("c" + i),
                           label: document.getElementById("l" + i), halo: document.getElementById("h" + i) });
          }
          markers.forEach(function (m) {
            // The tooltip below replaces the SVG's own titles (kept for readers without script).
            var title = m.circle.querySelector("title");
            if (title) { title.remove(); }
            [m.label, m.halo].forEach(function (text) {
              if (text) { text.dx0 = +text.getAttribute("x") - m.x; text.dy0 = +text.getAttribute("y") - m.y; }
            });
          });
          var labels = document.getElementById("labels");
          var countsGroup = document.getElementById("counts");

          function apply() {
            view.setAttribute("viewBox", [current.x, current.y, current.w, current.h].join(" "));
            var zoom = home.w / current.w;
            markers.forEach(function (m) {
              m.circle.setAttribute("r", m.r / zoom);
              if (m.count) { m.count.setAttribute("y", m.y + 3.5 / zoom); }
              [m.label, m.halo].forEach(function (text) {
                if (text) {
                  text.setAttribute("x", m.x + text.dx0 / zoom);
                  text.setAttribute("y", m.y + text.dy0 / zoom);
                  text.setAttribute("stroke-width", text === m.halo ? 3 / zoom : 0);
                }
              });
            });
            labels.setAttribute("font-size", 12 / zoom);
            countsGroup.setAttribute("font-size", 10 / zoom);
          }

          function clamp() {
            current.w = Math.min(home.w, Math.max(home.w / 256, current.w));
            current.h = current.w * home.h / home.w;
            current.x = Math.min(home.x + home.w - current.w, Math.max(home.x, current.x));
            current.y = Math.min(home.y + home.h - current.h, Math.max(home.y, current.y));
          }

          function toView(clientX, clientY) {
            var rect = view.getBoundingClientRect();
            return { x: current.x + (clientX - rect.left) / rect.width * current.w,
                     y: current.y + (clientY - rect.top) / rect.height * current.h };
          }

          function zoomAt(factor, point) {
            var w = current.w / factor;
            var h = current.h / factor;
            current.x = point.x - (point.x - current.x) * w / current.w;
            current.y = point.y - (point.y - current.y) * h / current.h;
            current.w = w;
            current.h = h;
            clamp();
            apply();
          }

          function centre() { return { x: current.x + current.w / 2, y: current.y + current.h / 2 }; }
          document.getElementById("zoom").hidden = false;
          document.getElementById("zoom-in").addEventListener("click", function () { zoomAt(2, centre()); });
          document.getElementById("zoom-out").addEventListener("click", function () { zoomAt(0.5, centre()); });
          document.getElementById("zoom-reset").addEventListener("click", function () {
            current = { x: home.x, y: home.y, w: home.w, h: home.h };
            apply();
          });

          view.addEventListener("wheel", function (event) {
            event.preventDefault();
            var step = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
            zoomAt(Math.exp(-step * 0.002), toView(event.clientX, event.clientY));
          }, { passive: false });

          var pointers = new Map();
          var gesture = null;
          var moved = false;
          function startGesture() {
            var list = Array.from(pointers.values());
            if (list.length === 1) {
              gesture = { x: list[0].x, y: list[0].y, start: { x: current.x, y: current.y } };
            } else if (list.length === 2) {
              var mid = { x: (list[0].x + list[1].x) / 2, y: (list[0].y + list[1].y) / 2 };
              gesture = { distance: Math.hypot(list[0].x - list[1].x, list[0].y - list[1].y), mid: mid,
                          anchor: toView(mid.x, mid.y), w: current.w };
            } else {
              gesture = null;
            }
          }
          view.addEventListener("pointerdown", function (event) {
            pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
            moved = false;
            startGesture();
          });
          view.addEventListener("pointermove", function (event) {
            if (!pointers.has(event.pointerId) || !gesture) { return; }
            pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
            var list = Array.from(pointers.values());
            var rect = view.getBoundingClientRect();
            if (list.length === 1 && gesture.start) {
              var dx = list[0].x - gesture.x, dy = list[0].y - gesture.y;
              if (!moved && Math.hypot(dx, dy) < 4) { return; }
              if (!moved) {
                try { view.setPointerCapture(event.pointerId); } catch (error) { /* a pointer already gone */ }
              }
              moved = true;
              view.classList.add("dragging");
              current.x = gesture.start.x - dx / rect.width * current.w;
              current.y = gesture.start.y - dy / rect.height * current.h;
              clamp();
              apply();
            } else if (list.length === 2 && gesture.distance) {
              moved = true;
              var distance = Math.hypot(list[0].x - list[1].x, list[0].y - list[1].y);
              var mid = { x: (list[0].x + list[1].x) / 2, y: (list[0].y + list[1].y) / 2 };
              current.w = gesture.w * gesture.distance / Math.max(distance, 1);
              current.h = current.w * home.h / home.w;
              current.x = gesture.anchor.x - (mid.x - rect.left) / rect.width * current.w;
              current.y = gesture.anchor.y - (mid.y - rect.top) / rect.height * current.h;
              clamp();
              apply();
            }
          });
          function endPointer(event) {
            pointers.delete(event.pointerId);
            view.classList.remove("dragging");
            startGesture();
          }
          view.addEventListener("pointerup", endPointer);
          view.addEventListener("pointercancel", endPointer);

          var pinned = null;
          function add(parent, tag, text) {
            var element = document.createElement(tag);
            if (text !== undefined) { element.textContent = text; }
            parent.appendChild(element);
            return element;
          }
          function show(index, clientX, clientY) {
            var marker = data.markers[index];
            tip.textContent = "";
            var count = marker.points.length;
            add(tip, "strong", (marker.name || "No place") + " \\u00b7 " + count + (count === 1 ? " photo" : " photos"));
            var list = add(tip, "ul");
            var shown = Math.min(count, 200);
            for (var i = 0; i < shown; i++) {
              var point = data.points[marker.points[i]];
              var item = add(list, "li");
              if (point[1]) { add(item, "a", point[0]).href = point[1]; } else { add(item, "span", point[0]); }
              var details = [point[2], point[3], point[4]].filter(function (part) { return part; });
              if (details.length) { add(item, "span", " \\u2014 " + details.join(" \\u00b7 ")); }
            }
            if (count > shown) { add(tip, "div", "\\u2026 and " + (count - shown) + " more"); }
            tip.hidden = false;
            var area = box.getBoundingClientRect();
            var left = Math.min(clientX - area.left + 12, Math.max(0, area.width - tip.offsetWidth - 4));
            tip.style.left = left + "px";
            tip.style.top = (clientY - area.top + 12) + "px";
          }
          markers.forEach(function (m, index) {
            m.circle.addEventListener("pointerenter", function (event) {
              if (pinned === null) { show(index, event.clientX, event.clientY); }
            });
            m.circle.addEventListener("pointerleave", function () { if (pinned === null) { tip.hidden = true; } });
            m.circle.addEventListener("click", function (event) {
              if (moved) { return; }
              event.stopPropagation();
              if (pinned !== null) { markers[pinned].circle.classList.remove("pinned"); }
              pinned = index;
              m.circle.classList.add("pinned");
              show(index, event.clientX, event.clientY);
            });
          });
          document.addEventListener("click", function (event) {
            if (pinned !== null && !tip.contains(event.target)) {
              markers[pinned].circle.classList.remove("pinned");
              pinned = null;
              tip.hidden = true;
            }
          });

          // The table: sorting by any column (within each level), and highlighting a row's markers.
          var tbody = document.querySelector("#table tbody");
          var headings = document.querySelectorAll("#table th");
          var sortColumn = -1, ascending = true;
          function key(group, column, level) {
            if (column === 3) { return group.count; }
            if (column === 4) { return group.first || "\\uffff"; }
            if (column === 5) { return group.last || ""; }
            if (column === level) { return group.name; }
            return group.first || "\\uffff";
          }
          function compare(column, level) {
            return function (a, b) {
              var x = key(a, column, level), y = key(b, column, level);
              var order = x < y ? -1 : x > y ? 1 : (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
              return ascending ? order : -order;
            };
          }
          function rowFor(group, level) {
            var tr = document.createElement("tr");
            tr.className = ["country", "region", "place"][level];
            tr.setAttribute("data-markers", group.markers.join(" "));
            for (var column = 0; column < 3; column++) {
              tr.appendChild(document.createElement("td")).textContent = column === level ? group.name : "";
            }
            var number = tr.appendChild(document.createElement("td"));
            number.className = "number";
            number.textContent = group.count;
            tr.appendChild(document.createElement("td")).textContent = group.first;
            tr.appendChild(document.createElement("td")).textContent = group.last;
            return tr;
          }
          function render() {
            var rows = document.createDocumentFragment();
            (function walk(groups, level) {
              groups.slice().sort(compare(sortColumn, level)).forEach(function (group) {
                rows.appendChild(rowFor(group, level));
                if (level < 2) { walk(group.children, level + 1); }
              });
            })(data.places, 0);
            tbody.textContent = "";
            tbody.appendChild(rows);
          }
          headings.forEach(function (th, column) {
            th.addEventListener("click", function () {
              ascending = sortColumn === column ? !ascending : column !== 3;
              sortColumn = column;
              headings.forEach(function (other) { other.classList.remove("sorted-up", "sorted-down"); });
              th.classList.add(ascending ? "sorted-up" : "sorted-down");
              render();
            });
          });
          var selected = null;
          tbody.addEventListener("click", function (event) {
            var tr = event.target.closest("tr");
            if (!tr) { return; }
            markers.forEach(function (m) { m.circle.classList.remove("highlight"); });
            if (selected) { selected.classList.remove("selected"); }
            if (selected === tr) { selected = null; return; }
            selected = tr;
            tr.classList.add("selected");
            tr.getAttribute("data-markers").split(" ").forEach(function (index) {
              if (index !== "" && markers[+index]) { markers[+index].circle.classList.add("highlight"); }
            });
          });
          document.documentElement.setAttribute("data-ready", "true");
        })();

        """
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
