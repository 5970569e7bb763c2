"use strict";
(function () {
  var data = JSON.parse(document.getElementById("photo-data").textContent);
  var svg = document.getElementById("map");
  var view = document.getElementById("view");
  var tip = document.getElementById("tip");
  var box = document.getElementById("mapbox");
  var base = view.viewBox.baseVal;
  // The map as drawn, in its own units (a pixel of the 960-pixel picture).
  var drawn = { x: base.x, y: base.y, w: base.width, h: base.height };
  var outer = svg.viewBox.baseVal;
  var design = { w: outer.width, h: outer.height, header: +view.getAttribute("y") };
  var home = { x: drawn.x, y: drawn.y, w: drawn.w, h: drawn.h };
  var current = { x: home.x, y: home.y, w: home.w, h: home.h };
  // The markers at each zoom level, coarsest first (Cluster.levels in Sources/PhotoTagMap):
  // the page shows the level made for the scale it is shown at, so markers split as the map
  // zooms in. `of` maps the finest level's photos, and each other level's finer markers, to its
  // markers; each marker gets the list of its photos.
  var levels = data.levels.map(function (level) {
    return { scale: level.scale, of: level.of, markers: level.markers.map(function (m) {
      return { x: m[0], y: m[1], r: m[2], name: m[3], countText: m[4], points: [] };
    }) };
  });
  (function () {
    var last = levels.length - 1, owner = levels[last].of.slice();
    for (var k = last; k >= 0; k--) {
      if (k < last) { owner = owner.map(function (marker) { return levels[k].of[marker]; }); }
      owner.forEach(function (marker, point) { levels[k].markers[marker].points.push(point); });
    }
  })();
  var markersGroup = document.getElementById("markers");
  var level = -1, markers = [];
  var labels = document.getElementById("labels");
  // A city-scale map's place names for orientation: their dots and text keep their pixel size.
  var context = document.getElementById("context");
  var contextDots = context ? Array.from(context.querySelectorAll("circle")) : [];
  var contextNames = context ? Array.from(context.querySelectorAll("text")) : [];
  contextNames.forEach(function (name, index) {
    var dot = contextDots[index];
    name.x0 = +dot.getAttribute("cx");
    name.y0 = +dot.getAttribute("cy");
    name.dx0 = +name.getAttribute("x") - name.x0;
    name.dy0 = +name.getAttribute("y") - name.y0;
  });
  var countsGroup = document.getElementById("counts");
  var svgNS = "http://www.w3.org/2000/svg";
  function element(parent, tag, attributes, text) {
    var node = document.createElementNS(svgNS, tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = text; }
    parent.appendChild(node);
    return node;
  }

  // The page fills the window with the map: the picture is laid out again in CSS pixels (its
  // viewBox the size it is shown at), the map area takes what the title and the footer leave,
  // and the view box grows to the area's shape around the map as drawn. Markers and text keep
  // their size in pixels whatever the window and the zoom, so labels are as legible at 400
  // pixels wide as at 1,920; a label that would then overlap one before it is hidden.
  var title = document.querySelector("#map > text");
  var footer = document.getElementById("footer");
  var credits = document.getElementById("credits");
  var sea = document.getElementById("sea");
  var seaIsRect = sea && sea.tagName.toLowerCase() === "rect";
  var area = { w: drawn.w, h: drawn.h };
  function fit() {
    var width = Math.max(1, svg.clientWidth), height = Math.max(1, svg.clientHeight);
    svg.setAttribute("viewBox", [0, 0, width, height].join(" "));
    // A title longer than the window is narrow gets a smaller font (11 px at the least).
    title.setAttribute("font-size", 16);
    var long = title.getBBox().width;
    if (long > width - 24) { title.setAttribute("font-size", Math.max(11, 16 * (width - 24) / long)); }
    // In a narrow window the credits go on rows of their own under the scale bar, made smaller
    // if they still do not fit.
    var extra = 0;
    if (credits) {
      var said = credits.getBBox(), scale = document.getElementById("scale");
      var beside = width - (scale ? scale.getBBox().width : 0) - 36;
      if (said.width > beside) {
        extra = 26;
        var shrink = Math.min(1, (width - 16) / said.width), right = design.w - 8;
        credits.setAttribute("transform", "translate(" + (width - 8) + " " + (said.y + extra) + ") scale(" + shrink +
                             ") translate(" + (-right) + " " + (-said.y) + ")");
      } else {
        credits.setAttribute("transform", "translate(" + (width - design.w) + " 0)");
      }
    }
    area = { w: width, h: Math.max(1, height - design.header - (design.h - design.header - drawn.h) - extra) };
    view.setAttribute("width", area.w);
    view.setAttribute("height", area.h);
    if (footer) { footer.setAttribute("transform", "translate(0 " + (height - design.h - extra) + ")"); }
    // The view box: the map as drawn, grown to the area's shape about its centre.
    var w = drawn.w, h = drawn.h;
    if (area.w / area.h > w / h) { w = h * area.w / area.h; } else { h = w * area.h / area.w; }
    home = { x: drawn.x - (w - drawn.w) / 2, y: drawn.y - (h - drawn.h) / 2, w: w, h: h };
    if (seaIsRect) {
      sea.setAttribute("x", home.x); sea.setAttribute("y", home.y);
      sea.setAttribute("width", home.w); sea.setAttribute("height", home.h);
    }
    current = { x: home.x, y: home.y, w: home.w, h: home.h };
    apply();
  }

  // The level for `px` screen pixels per unit: the finest whose scale is at most that.
  function levelFor(px) {
    var chosen = 0;
    levels.forEach(function (candidate, index) { if (candidate.scale <= px * 1.000001) { chosen = index; } });
    return chosen;
  }

  // Draws the markers of level `k` in place of those shown (the page's own SVG markers first).
  function build(k) {
    level = k;
    unpin();
    markersGroup.textContent = "";
    countsGroup.textContent = "";
    markers = levels[k].markers.map(function (data, index) {
      var circle = element(markersGroup, "circle", { "class": "marker", id: "m" + index, cx: data.x, cy: data.y });
      var count = data.countText ? element(countsGroup, "text", { id: "c" + index, x: data.x }, data.countText) : null;
      var m = { circle: circle, count: count, x: data.x, y: data.y, r: data.r, data: data };
      listen(m, index);
      return m;
    });
    highlight();
  }

  function apply() {
    view.setAttribute("viewBox", [current.x, current.y, current.w, current.h].join(" "));
    // Screen pixels per unit of the view box: sizes divided by it stay the same on screen.
    var px = area.w / current.w;
    var k = levelFor(px);
    if (k !== level) { build(k); }
    markers.forEach(function (m) {
      m.circle.setAttribute("r", m.r / px);
      if (m.count) { m.count.setAttribute("y", m.y + 3.5 / px); }
    });
    labels.setAttribute("font-size", 12 / px);
    countsGroup.setAttribute("font-size", 10 / px);
    if (context) {
      context.setAttribute("font-size", 11 / px);
      contextDots.forEach(function (dot) { dot.setAttribute("r", 2 / px); });
      contextNames.forEach(function (name) {
        name.setAttribute("x", name.x0 + name.dx0 / px);
        name.setAttribute("y", name.y0 + name.dy0 / px);
      });
    }
    placeLabels(px);
  }

  // Text widths at the labels' 12 px, measured once per text in the outer picture (whose unit
  // is a screen pixel).
  var widths = new Map();
  var probe = element(svg, "text", { "font-size": 12, visibility: "hidden", x: 0, y: -20 });
  function textWidth(text) {
    if (!widths.has(text)) {
      probe.textContent = text;
      widths.set(text, probe.getComputedTextLength());
    }
    return widths.get(text);
  }

  // Labels for the places with most photos among the markers in view, as the SVG's labels are
  // placed for the whole map (Label.place in Sources/PhotoTagMap/Clusters.swift): the markers
  // are grouped by name, and each of the 16 biggest groups gets `name (photos)` beside its
  // biggest marker, on the right, the left, above or below, at the first place inside the frame
  // that meets no label placed before it and no other marker, else the first that meets no
  // label; a group with no such place gets none. Worked out in screen pixels at each change of
  // view, so that labels neither overlap nor are cut at any zoom.
  function placeLabels(px) {
    labels.textContent = "";
    var width = area.w, height = area.h, visible = [];
    markers.forEach(function (m, index) {
      var x = (m.x - current.x) * px, y = (m.y - current.y) * px;
      if (x < -m.r || x > width + m.r || y < -m.r || y > height + m.r) { return; }
      visible.push({ index: index, x: x, y: y, r: m.r, name: m.data.name, count: m.data.points.length });
    });
    var groups = new Map(), list = [];
    visible.forEach(function (v) {
      if (!v.name) { return; }
      var group = groups.get(v.name);
      if (!group) { group = { name: v.name, total: 0, anchor: v }; groups.set(v.name, group); list.push(group); }
      group.total += v.count;
      if (v.count > group.anchor.count) { group.anchor = v; }
    });
    list.sort(function (a, b) { return b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0); });
    function meets(a, b) { return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }
    var boxes = visible.map(function (v) {
      return { left: v.x - v.r, top: v.y - v.r, right: v.x + v.r, bottom: v.y + v.r, index: v.index };
    });
    var placed = [];
    list.slice(0, 16).forEach(function (group) {
      var a = group.anchor, text = group.name + " (" + group.total + ")", w = textWidth(text), r = a.r + 3;
      var options = [[a.x + r, a.y + 4, "start"], [a.x - r, a.y + 4, "end"], [a.x - w / 2, a.y - r - 2, "start"],
                     [a.x - w / 2, a.y + r + 12, "start"]].map(function (candidate) {
        var left = candidate[2] === "start" ? candidate[0] : candidate[0] - w;
        return { x: candidate[0], y: candidate[1], anchor: candidate[2],
                 box: { left: left - 1, top: candidate[1] - 12, right: left + w + 1, bottom: candidate[1] + 3.5 } };
      }).filter(function (option) {
        var box = option.box;
        return box.left >= 2 && box.right <= width - 2 && box.top >= 2 && box.bottom <= height - 2 &&
          !placed.some(function (other) { return meets(other, box); });
      });
      var choice = options.filter(function (option) {
        return !boxes.some(function (box) { return box.index !== a.index && meets(box, option.box); });
      })[0] || options[0];
      if (!choice) { return; }
      placed.push(choice.box);
      var at = { x: current.x + choice.x / px, y: current.y + choice.y / px };
      if (choice.anchor === "end") { at["text-anchor"] = "end"; }
      var halo = { fill: "none", stroke: "#ffffff", "stroke-width": 3 / px, "stroke-linejoin": "round",
                   "stroke-opacity": 0.85, id: "h" + a.index };
      Object.keys(at).forEach(function (name) { halo[name] = at[name]; });
      element(labels, "text", halo, text);
      at.id = "l" + a.index;
      element(labels, "text", at, text);
    });
  }

  function clamp() {
    current.w = Math.min(home.w, Math.max(home.w / 256, current.w));
    current.h = current.w * home.h / home.w;
    current.x = Math.min(home.x + home.w - current.w, Math.max(home.x, current.x));
    current.y = Math.min(home.y + home.h - current.h, Math.max(home.y, current.y));
  }

  // Where the view box is on screen, in client pixels. The view box keeps its aspect, so it
  // always fills the same rectangle of the frame; measured through the view's screen matrix, not
  // getBoundingClientRect(), which gives the box of what is drawn (the land and the markers),
  // not of the frame, and so drifted from the cursor at every wheel notch.
  function frame() {
    var ctm = view.getScreenCTM();
    return { left: ctm.a * current.x + ctm.e, top: ctm.d * current.y + ctm.f,
             width: ctm.a * current.w, height: ctm.d * current.h };
  }

  function toView(clientX, clientY) {
    var rect = frame();
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
  var full = document.getElementById("full-screen");
  if (full && box.requestFullscreen) {
    full.hidden = false;
    full.addEventListener("click", function () {
      if (document.fullscreenElement) { document.exitFullscreen(); } else { box.requestFullscreen(); }
    });
  }
  document.addEventListener("fullscreenchange", fit);
  window.addEventListener("resize", fit);

  var routeToggle = document.getElementById("route-toggle");
  if (routeToggle) {
    routeToggle.addEventListener("click", function () {
      var shown = routeToggle.getAttribute("aria-pressed") !== "true";
      routeToggle.setAttribute("aria-pressed", String(shown));
      document.getElementById("route").setAttribute("display", shown ? "inline" : "none");
    });
  }

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
    var rect = frame();
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
    var marker = markers[index].data;
    tip.textContent = "";
    var count = marker.points.length;
    add(tip, "strong", (marker.name || "No place") + " \u00b7 " + count + (count === 1 ? " photo" : " photos"));
    var list = add(tip, "ul");
    var shown = Math.min(count, 200);
    for (var i = 0; i < shown; i++) {
      var point = data.points[marker.points[i]];
      var item = add(list, "li");
      if (point[1]) { add(item, "a", point[0]).href = point[1]; } else { add(item, "span", point[0]); }
      var details = [point[2], point[3], point[4]].filter(function (part) { return part; });
      if (details.length) { add(item, "span", " \u2014 " + details.join(" \u00b7 ")); }
    }
    if (count > shown) { add(tip, "div", "\u2026 and " + (count - shown) + " more"); }
    tip.hidden = false;
    var area = box.getBoundingClientRect();
    var left = Math.min(clientX - area.left + 12, Math.max(0, area.width - tip.offsetWidth - 4));
    tip.style.left = left + "px";
    tip.style.top = (clientY - area.top + 12) + "px";
  }
  function listen(m, index) {
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
  }
  function unpin() {
    if (pinned !== null && markers[pinned]) { markers[pinned].circle.classList.remove("pinned"); }
    pinned = null;
    tip.hidden = true;
  }
  document.addEventListener("click", function (event) {
    if (pinned !== null && !tip.contains(event.target)) { unpin(); }
  });

  // The table: the trip's stops (countries, each followed by its places), sorting by any column
  // (within each level; unsorted, in the trip's order), and highlighting a row's markers.
  var tbody = document.querySelector("#table tbody");
  var headings = document.querySelectorAll("#table th");
  var sortColumn = -1, ascending = true;
  function key(group, column) {
    if (column === 3) { return group.count; }
    if (column === 4) { return group.first || "\uffff"; }
    if (column === 5) { return group.last || ""; }
    if (column >= 0 && group.cells[column] !== "") { return group.cells[column]; }
    return group.order;
  }
  function compare(column) {
    return function (a, b) {
      var x = key(a, column), y = key(b, column);
      var order = x < y ? -1 : x > y ? 1 : a.order - b.order;
      return ascending ? order : -order;
    };
  }
  function rowFor(group, level) {
    var tr = document.createElement("tr");
    tr.className = ["country", "place"][level] + (group.hop ? " hop" : "");
    tr.group = group;
    for (var column = 0; column < 3; column++) {
      tr.appendChild(document.createElement("td")).textContent = group.cells[column];
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
      groups.slice().sort(compare(sortColumn)).forEach(function (group) {
        rows.appendChild(rowFor(group, level));
        if (level < 1) { walk(group.children, level + 1); }
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
  // A row's photos, highlighted on whatever markers of the level shown hold them.
  var selected = null, chosen = null;
  function highlight() {
    markers.forEach(function (m) {
      var on = chosen !== null && m.data.points.some(function (point) { return chosen[point]; });
      m.circle.classList.toggle("highlight", on);
    });
  }
  tbody.addEventListener("click", function (event) {
    var tr = event.target.closest("tr");
    if (!tr || !tr.group) { return; }
    if (selected) { selected.classList.remove("selected"); }
    chosen = null;
    if (selected === tr) {
      selected = null;
    } else {
      selected = tr;
      tr.classList.add("selected");
      chosen = new Uint8Array(data.points.length);
      tr.group.points.forEach(function (point) { chosen[point] = 1; });
    }
    highlight();
  });
  render();
  document.documentElement.classList.add("fills");
  fit();
  document.documentElement.setAttribute("data-ready", "true");
})();
