/// Writes a map as SVG 1.1: the standalone file of `--format svg`, and the inline figure of the
/// HTML page.
package enum MapRenderer {
    /// One standalone SVG 1.1 file of the points (see ``MapPicture`` for what it shows).
    ///
    /// The same points and counts always give the same bytes.
    package static func svg(points: [MapPoint], counts: MapCounts) -> [UInt8] {
        let picture = MapPicture(points: points, counts: counts)
        return Array(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n" + svgElement(picture)).utf8)
    }

    /// The `<svg>` element (for a file or inline in HTML).
    static func svgElement(_ picture: MapPicture, inline: Bool = false) -> String {
        let frame = picture.frame
        let width = MarkupText.pixel(frame.width), total = MarkupText.pixel(picture.totalHeight)
        let mapHeight = MarkupText.pixel(frame.height)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
        if inline { out += " id=\"map\"" }
        out += " width=\"\(width)\" height=\"\(total)\" viewBox=\"0 0 \(width) \(total)\""
        out += " font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n"
        out += "<title>\(MarkupText.escaped("Photo map: " + picture.title))</title>\n"
        out += "<rect width=\"\(width)\" height=\"\(total)\" fill=\"\(MapColours.background)\"/>\n"
        out += "<text x=\"12\" y=\"23\" font-size=\"16\" font-weight=\"bold\" fill=\"\(MapColours.text)\">"
        out += MarkupText.escaped(picture.title) + "</text>\n"
        // The map area: a nested viewport, which clips, and which the HTML page pans and zooms.
        out += "<svg id=\"view\" x=\"0\" y=\"\(MarkupText.pixel(MapPicture.header))\" width=\"\(width)\""
        out += " height=\"\(mapHeight)\" viewBox=\"0 0 \(width) \(mapHeight)\">\n"
        if frame.isWorld {
            out += "<rect width=\"\(width)\" height=\"\(mapHeight)\" fill=\"\(MapColours.background)\"/>\n"
            var globe = PathData()
            globe.append(OutlineDrawing.globe(frame: frame), closed: true)
            out += "<g transform=\"scale(0.1)\"><path id=\"sea\" fill=\"\(MapColours.sea)\" d=\""
            out += String(decoding: globe.bytes, as: UTF8.self) + "\"/></g>\n"
        } else {
            out += "<rect id=\"sea\" width=\"\(width)\" height=\"\(mapHeight)\" fill=\"\(MapColours.sea)\"/>\n"
        }
        out += "<g transform=\"scale(0.1)\">\n"
        out += "<path id=\"land\" fill=\"\(MapColours.land)\" fill-rule=\"evenodd\" d=\""
        out += String(decoding: picture.land, as: UTF8.self) + "\"/>\n"
        if !picture.regionBorders.isEmpty {
            out += "<path id=\"regions\" fill=\"none\" stroke=\"\(MapColours.regionBorder)\" stroke-width=\"7\""
            out += " stroke-dasharray=\"30 20\" stroke-linejoin=\"round\" d=\""
            out += String(decoding: picture.regionBorders, as: UTF8.self) + "\"/>\n"
        }
        out += "<path id=\"borders\" fill=\"none\" stroke=\"\(MapColours.border)\" stroke-width=\"7\""
        out += " stroke-linejoin=\"round\" d=\"" + String(decoding: picture.borders, as: UTF8.self) + "\"/>\n"
        out += "</g>\n"
        // On a city-scale map, the largest places around, small and grey, under everything else.
        if !picture.context.isEmpty {
            out += "<g id=\"context\" font-size=\"\(MarkupText.pixel(ContextLabel.fontSize))\" fill=\"#6b6b6b\">\n"
            for label in picture.context {
                out += "<circle cx=\"\(MarkupText.pixel(label.x))\" cy=\"\(MarkupText.pixel(label.y))\" r=\"2\"/>"
                out += "<text x=\"\(MarkupText.pixel(label.textX))\" y=\"\(MarkupText.pixel(label.y + 4))\">"
                out += MarkupText.escaped(label.name) + "</text>\n"
            }
            out += "</g>\n"
        }
        // The route under the markers, a line per day; hidden at first for a span of years.
        if !picture.route.days.isEmpty {
            out += "<g id=\"route\" fill=\"none\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\""
            out += " stroke-opacity=\"0.8\"\(picture.route.shownAtFirst ? "" : " display=\"none\"")>\n"
            for day in picture.route.days {
                out += "<path class=\"day\" stroke=\"\(day.colour)\" d=\""
                out += Route.pathData(day.points, width: frame.width) + "\"><title>\(day.date)</title></path>\n"
            }
            out += "</g>\n"
        }
        out += "<g id=\"markers\" fill=\"\(MapColours.marker)\" stroke=\"#ffffff\" stroke-width=\"1.2\">\n"
        for (index, cluster) in picture.clusters.enumerated() {
            out += "<circle class=\"marker\" id=\"m\(index)\" cx=\"\(MarkupText.pixel(cluster.x))\""
            out += " cy=\"\(MarkupText.pixel(cluster.y))\" r=\"\(MarkupText.pixel(cluster.radius))\">"
            out += "<title>\(MarkupText.escaped(picture.summary(of: index)))</title></circle>\n"
        }
        out += "</g>\n"
        out += "<g id=\"counts\" font-size=\"10\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\">\n"
        for (index, cluster) in picture.clusters.enumerated() where cluster.members.count > 1 {
            out += "<text id=\"c\(index)\" x=\"\(MarkupText.pixel(cluster.x))\""
            out += " y=\"\(MarkupText.pixel(cluster.y + 3.5))\">"
            out += MarkupText.short(cluster.members.count) + "</text>\n"
        }
        out += "</g>\n"
        out += "<g id=\"labels\" font-size=\"\(MarkupText.pixel(Label.fontSize))\" fill=\"\(MapColours.text)\">\n"
        for label in picture.labels {
            let position = "x=\"\(MarkupText.pixel(label.x))\" y=\"\(MarkupText.pixel(label.y))\""
            let anchor = label.anchor == "end" ? " text-anchor=\"end\"" : ""
            let text = MarkupText.escaped(label.text)
            out += "<text id=\"h\(label.cluster)\" \(position)\(anchor) fill=\"none\" stroke=\"#ffffff\""
            out += " stroke-width=\"3\" stroke-linejoin=\"round\" stroke-opacity=\"0.85\">\(text)</text>"
            out += "<text id=\"l\(label.cluster)\" \(position)\(anchor)>\(text)</text>\n"
        }
        out += "</g>\n"
        out += "</svg>\n"
        // The footer: the scale bar on the left, the credits on the right (a group, which the
        // HTML page moves to the bottom of the window).
        let base = MapPicture.header + frame.height
        out += "<g id=\"footer\">\n"
        if picture.scaleBar.pixels > 0 {
            let y = base + 22, length = MarkupText.pixel(picture.scaleBar.pixels)
            out += "<g id=\"scale\"><path d=\"M12 \(MarkupText.pixel(y - 5))v5h\(length)v-5\" fill=\"none\""
            out += " stroke=\"\(MapColours.text)\" stroke-width=\"1.5\"/>"
            out += "<text x=\"\(MarkupText.pixel(12 + picture.scaleBar.pixels + 6))\" y=\"\(MarkupText.pixel(y))\""
            out +=
                " font-size=\"11\" fill=\"\(MapColours.text)\">\(MarkupText.escaped(picture.scaleBar.text))</text></g>\n"
        }
        out += "<g id=\"credits\" font-size=\"9\" fill=\"#555555\" text-anchor=\"end\">"
        for (line, credit) in MapPicture.credits.enumerated() {
            out +=
                "<text x=\"\(MarkupText.pixel(frame.width - 8))\" y=\"\(MarkupText.pixel(base + 16 + 13 * Double(line)))\">"
            out += MarkupText.escaped(credit) + "</text>"
        }
        out += "</g>\n</g>\n</svg>\n"
        return out
    }
}
