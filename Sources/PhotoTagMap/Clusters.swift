import PhotoTagSupport

/// A marker on the map: one photo's dot, or a cluster of dots that would overlap at the output
/// scale, drawn bigger with its count.
struct Cluster: Sendable {
    /// The centre in pixels (the mean of the members' positions).
    var x: Double
    var y: Double
    /// The indices of the points, in input order.
    var members: [Int]

    /// The marker's radius in pixels: a dot for one photo, growing with the logarithm of the
    /// count.
    var radius: Double { Self.radius(members.count) }

    /// The radius of a marker of `count` photos.
    static func radius(_ count: Int) -> Double {
        count <= 1 ? 4 : min(6 + 2.5 * log2(Double(count)), 22)
    }

    /// Groups points (pixels) so that no two markers overlap at `scale` screen pixels per pixel:
    /// first each point joins a marker within a dot's width of it, then overlapping markers merge
    /// (largest first) until none do. Marker centres stay in the points' pixels; only the test
    /// of overlap is at the scale. Deterministic: it follows the input order and never iterates a
    /// hash table. Markers come back ordered by their first member.
    static func make(_ pixels: [PlanePoint], scale: Double = 1) -> [Cluster] {
        let screen = scale == 1 ? pixels : pixels.map { PlanePoint(x: $0.x * scale, y: $0.y * scale) }
        let cell = 2 * radius(1)
        var clusters: [Cluster] = []
        var seeds: [PlanePoint] = []
        var grid: [Int64: [Int]] = [:]
        for (index, point) in screen.enumerated() {
            let column = Int((point.x / cell).rounded(.down)), row = Int((point.y / cell).rounded(.down))
            var found: Int? = nil
            search: for dy in -1...1 {
                for dx in -1...1 {
                    for candidate in grid[gridKey(column + dx, row + dy)] ?? [] {
                        let seed = seeds[candidate]
                        if (seed.x - point.x) * (seed.x - point.x) + (seed.y - point.y) * (seed.y - point.y) < cell
                            * cell
                        {
                            found = candidate
                            break search
                        }
                    }
                }
            }
            if let found {
                clusters[found].members.append(index)
            } else {
                grid[gridKey(column, row), default: []].append(clusters.count)
                seeds.append(point)
                clusters.append(Cluster(x: point.x, y: point.y, members: [index]))
            }
        }
        for index in clusters.indices { clusters[index].recentre(screen) }
        return merged(clusters, screen).map { $0.scaled(1 / scale) }
    }

    /// The scales of the HTML page's zoom levels, in screen pixels per pixel of the drawn map:
    /// a quarter (a narrow window) to 256 (the deepest zoom).
    static let levelScales: [Double] = (-2...8).map { Double(sign: .plus, exponent: $0, significand: 1) }
    /// The index of scale 1 (the map as drawn) in ``levelScales``.
    static let drawnLevel = 2

    /// The markers at each of ``levelScales``: the finest level is ``make(_:scale:)``'s, and each
    /// coarser one merges the next finer one's markers that overlap at its scale, so that a marker
    /// always holds whole markers of every finer level (zooming in splits markers, never swaps
    /// photos between them).
    static func levels(_ pixels: [PlanePoint]) -> [[Cluster]] {
        var levels = [make(pixels, scale: levelScales[levelScales.count - 1])]
        for scale in levelScales.dropLast().reversed() {
            let screen = pixels.map { PlanePoint(x: $0.x * scale, y: $0.y * scale) }
            levels.append(
                merged(levels[levels.count - 1].map { $0.scaled(scale) }, screen).map { $0.scaled(1 / scale) })
        }
        return levels.reversed()
    }

    /// The marker with its centre multiplied by `factor`.
    private func scaled(_ factor: Double) -> Cluster {
        factor == 1 ? self : Cluster(x: x * factor, y: y * factor, members: members)
    }

    /// The key of a grid cell.
    private static func gridKey(_ column: Int, _ row: Int) -> Int64 {
        Int64(column) << 32 | Int64(UInt32(bitPattern: Int32(clamping: row)))
    }

    /// Moves the centre to the mean of the members.
    mutating func recentre(_ pixels: [PlanePoint]) {
        var sx = 0.0, sy = 0.0
        for member in members {
            sx += pixels[member].x
            sy += pixels[member].y
        }
        x = sx / Double(members.count)
        y = sy / Double(members.count)
    }

    /// Merges overlapping markers until none overlap (at most a few rounds in practice).
    private static func merged(_ start: [Cluster], _ pixels: [PlanePoint]) -> [Cluster] {
        var clusters = start
        for _ in 0..<64 {
            let cell = 2 * radius(pixels.count)
            var grid: [Int64: [Int]] = [:]
            let key = gridKey
            for (index, cluster) in clusters.enumerated() {
                grid[key(Int((cluster.x / cell).rounded(.down)), Int((cluster.y / cell).rounded(.down))), default: []]
                    .append(index)
            }
            let order = clusters.indices.sorted {
                clusters[$0].members.count != clusters[$1].members.count
                    ? clusters[$0].members.count > clusters[$1].members.count : $0 < $1
            }
            var absorbed = [Bool](repeating: false, count: clusters.count)
            var changed = false
            for index in order where !absorbed[index] {
                let cluster = clusters[index]
                let column = Int((cluster.x / cell).rounded(.down)), row = Int((cluster.y / cell).rounded(.down))
                var partners: [Int] = []
                for dy in -1...1 {
                    for dx in -1...1 {
                        for other in grid[key(column + dx, row + dy)] ?? [] where other != index && !absorbed[other] {
                            let o = clusters[other]
                            let reach = cluster.radius + o.radius
                            if (o.x - cluster.x) * (o.x - cluster.x) + (o.y - cluster.y) * (o.y - cluster.y) < reach
                                * reach
                            {
                                partners.append(other)
                            }
                        }
                    }
                }
                guard !partners.isEmpty else { continue }
                changed = true
                for other in partners.sorted() {
                    absorbed[other] = true
                    clusters[index].members += clusters[other].members
                }
                clusters[index].members.sort()
                clusters[index].recentre(pixels)
            }
            clusters = clusters.indices.filter { !absorbed[$0] }.map { clusters[$0] }
            clusters.sort { $0.members[0] < $1.members[0] }
            if !changed { break }
        }
        return clusters
    }
}

/// A label placed on the map: its text, where it is anchored and its estimated box.
struct Label: Sendable {
    var text: String
    var x: Double
    var y: Double
    /// `start` or `end` (SVG text-anchor).
    var anchor: String
    var box: PlaneRect
    /// The marker it belongs to.
    var cluster: Int

    /// The font size of labels, in pixels.
    static let fontSize = 12.0
    /// How many of the biggest markers get a label.
    static let most = 16

    /// An estimate of the width of a text at ``fontSize`` (wide for non-Latin scripts).
    static func width(_ text: String) -> Double {
        text.unicodeScalars.reduce(0) { $0 + ($1.value < 0x0370 ? 0.62 : 1.0) } * fontSize
    }

    /// Labels for the places with most photos: the markers are grouped by their place name
    /// (``MapPicture/name(of:in:)``), and each of the ``most`` biggest groups gets one label,
    /// `name (photos)`, beside its biggest marker. A label tries the right, the left, above and
    /// below the marker and takes the first place inside the map that overlaps no label placed
    /// before it and no other marker, else the first that overlaps no label; a group with no such
    /// place, or markers without a name, get none.
    static func place(_ clusters: [Cluster], names: [String?], width: Double, height: Double) -> [Label] {
        // The groups, by name (sorted, never hashed, so the order is fixed).
        let named = clusters.indices.compactMap { index in names[index].map { (name: $0, index: index) } }.sorted {
            $0.name != $1.name ? $0.name < $1.name : $0.index < $1.index
        }
        var groups: [(name: String, total: Int, anchor: Int)] = []
        for (name, index) in named {
            let count = clusters[index].members.count
            if let last = groups.last, last.name == name {
                groups[groups.count - 1].total += count
                if count > clusters[last.anchor].members.count { groups[groups.count - 1].anchor = index }
            } else {
                groups.append((name, count, index))
            }
        }
        groups.sort { $0.total != $1.total ? $0.total > $1.total : $0.name < $1.name }
        let markerBoxes = clusters.map {
            PlaneRect(minX: $0.x - $0.radius, minY: $0.y - $0.radius, maxX: $0.x + $0.radius, maxY: $0.y + $0.radius)
        }
        var labels: [Label] = []
        for group in groups.prefix(most) {
            let cluster = clusters[group.anchor]
            let text = "\(group.name) (\(group.total))"
            let w = Self.width(text), h = fontSize + 2, r = cluster.radius + 3
            let candidates: [(Double, Double, String)] = [
                (cluster.x + r, cluster.y + fontSize / 3, "start"), (cluster.x - r, cluster.y + fontSize / 3, "end"),
                (cluster.x - w / 2, cluster.y - r - 2, "start"), (cluster.x - w / 2, cluster.y + r + fontSize, "start"),
            ]
            var boxes: [(Double, Double, String, PlaneRect)] = []
            for (x, y, anchor) in candidates {
                let left = anchor == "start" ? x : x - w
                let box = PlaneRect(minX: left - 1, minY: y - fontSize, maxX: left + w + 1, maxY: y - fontSize + h)
                guard box.minX >= 2, box.maxX <= width - 2, box.minY >= 2, box.maxY <= height - 2 else { continue }
                guard !labels.contains(where: { $0.box.meets(box) }) else { continue }
                boxes.append((x, y, anchor, box))
            }
            let clear = boxes.first { candidate in
                !markerBoxes.indices.contains { $0 != group.anchor && markerBoxes[$0].meets(candidate.3) }
            }
            guard let (x, y, anchor, box) = clear ?? boxes.first else { continue }
            labels.append(Label(text: text, x: x, y: y, anchor: anchor, box: box, cluster: group.anchor))
        }
        return labels
    }
}
