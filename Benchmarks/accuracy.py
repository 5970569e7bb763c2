#!/usr/bin/env python3
"""phototag's accuracy benchmark: country, UTC offset and city on seeded point sets whose truth
comes from boundary polygons and from GeoNames cities500, phototag against its peers.

    make bench-accuracy                       # builds the release binary, then the CHECK split
    python3 Benchmarks/accuracy.py --split tuning
    python3 Benchmarks/accuracy.py --help

The first run makes a virtual environment under .build/accuracy-venv with shapely and numpy
(and, when PyPI has it, reverse_geocoder, the peer) and re-runs itself there. The data is read in
place from the shared folder (PHOTOTAG_SHARED, default <repo>/../shared): boundaries/*.geojson,
geonames/cities500.txt and tzdata/zoneinfo. The point sets, their exact definitions and how to
read the table are in Benchmarks/README.md ("Accuracy").
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(ROOT, ".build", "accuracy-venv")
EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE = EARTH_RADIUS_KM * 3.141592653589793 / 180
# Seeds of the two splits. TUNING is the only one the city rule's parameters were chosen on.
SEEDS = {"tuning": 1101, "check": 2202}
# The instants at which UTC offsets are compared (winter and summer in both hemispheres).
INSTANTS = [datetime.datetime(2026, 1, 15, 12, tzinfo=datetime.timezone.utc),
            datetime.datetime(2026, 7, 15, 12, tzinfo=datetime.timezone.utc)]
# Set sizes (points).
SIZES = {"land": 20000, "border20": 20000, "border2": 10000, "tzborder20": 10000,
         "bigcity": 3000, "town": 3000, "suburb": 3000}
BIG_CITY_POPULATION = 1_000_000


# ---------------------------------------------------------------------------------------------
# Environment


def ensure_venv():
    """Re-runs this script inside .build/accuracy-venv, creating it first when needed."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"accuracy: creating {os.path.relpath(VENV, ROOT)} (shapely, numpy, reverse_geocoder)",
              file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    check = subprocess.run([python, "-c", "import shapely, numpy"], capture_output=True)
    if check.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "shapely", "numpy"], check=True)
    peer = subprocess.run([python, "-c", "import reverse_geocoder"], capture_output=True)
    if peer.returncode != 0:
        # The peer is optional: a failed install is reported as a missing peer.
        subprocess.run([python, "-m", "pip", "install", "--quiet", "reverse_geocoder"])
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


# ---------------------------------------------------------------------------------------------
# Data


class Polygons:
    """A GeoJSON layer: its features' geometries, a name per feature, an STR tree over them and
    the segments that two different features share (their common borders)."""

    def __init__(self, path, name_of, skip_border=lambda name: False):
        import shapely
        with open(path) as handle:
            features = json.load(handle)["features"]
        self.names = [name_of(feature["properties"]) for feature in features]
        self.geometries = [shapely.geometry.shape(feature["geometry"]) for feature in features]
        self.tree = shapely.STRtree(self.geometries)
        owners = {}
        for index, feature in enumerate(features):
            geometry = feature["geometry"]
            polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
            for polygon in polygons:
                for ring in polygon:
                    for a, b in zip(ring, ring[1:]):
                        key = (tuple(a), tuple(b)) if tuple(a) < tuple(b) else (tuple(b), tuple(a))
                        owners.setdefault(key, set()).add(index)
        self.borders = sorted(
            key for key, indices in owners.items()
            if len(indices) >= 2 and not any(skip_border(self.names[i]) for i in indices))

    def containing(self, latitudes, longitudes):
        """For each point, the sorted names of the features that contain it (edges included)."""
        import shapely
        points = shapely.points(longitudes, latitudes)
        hits = self.tree.query(points, predicate="intersects")
        result = [[] for _ in range(len(points))]
        for point, feature in zip(hits[0], hits[1]):
            result[point].append(self.names[feature])
        return [sorted(set(names)) for names in result]


def load_places(shared):
    """cities500 rows: id, name, asciiname, latitude, longitude, feature code, country, population."""
    places = []
    with open(os.path.join(shared, "geonames", "cities500.txt"), encoding="utf-8") as handle:
        for line in handle:
            f = line.rstrip("\n").split("\t")
            places.append((int(f[0]), f[1], f[2], float(f[4]), float(f[5]), f[7], f[8], int(f[14] or 0)))
    return places


def offsets_of(zone, cache={}):
    """The zone's UTC offsets in minutes at INSTANTS (None for an unknown zone)."""
    if zone not in cache:
        import zoneinfo
        try:
            info = zoneinfo.ZoneInfo(zone)
            cache[zone] = tuple(int(t.astimezone(info).utcoffset().total_seconds()) // 60 for t in INSTANTS)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            cache[zone] = None
    return cache[zone]


# ---------------------------------------------------------------------------------------------
# Point sets


def disk_offsets(rng, count, radius_km):
    """`count` (north, east) offsets in km, uniform in a disk of `radius_km`."""
    import numpy as np
    r = radius_km * np.sqrt(rng.random(count))
    theta = 2 * np.pi * rng.random(count)
    return r * np.cos(theta), r * np.sin(theta)


def displace(latitudes, longitudes, north_km, east_km):
    """Points moved by (north, east) km on a local flat approximation (errors < 0.1% at 20 km)."""
    import numpy as np
    lat = np.clip(latitudes + north_km / KM_PER_DEGREE, -89.999, 89.999)
    lon = longitudes + east_km / (KM_PER_DEGREE * np.maximum(np.cos(np.radians(latitudes)), 1e-6))
    lon = (lon + 180) % 360 - 180
    return lat, lon


def haversine_km(lat1, lon1, lat2, lon2):
    import numpy as np
    p1, p2 = np.radians(lat1), np.radians(lat2)
    a = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.minimum(a, 1)))


def land_points(rng, countries, count):
    """Uniform on the sphere, kept when inside a country polygon."""
    import numpy as np
    lats, lons, truths = [], [], []
    while len(lats) < count:
        z = rng.uniform(-1, 1, 4 * count)
        lat, lon = np.degrees(np.arcsin(z)), rng.uniform(-180, 180, 4 * count)
        for la, lo, inside in zip(lat, lon, countries.containing(lat, lon)):
            if inside and len(lats) < count:
                lats.append(la), lons.append(lo), truths.append(inside)
    return lats, lons, truths


def border_points(rng, layer, count, radius_km, keep):
    """A point on a shared border (length-weighted), moved uniformly within a disk of
    `radius_km`; kept when `keep(point)` holds. Truth: the layer's features containing it."""
    import numpy as np
    segments = np.array(layer.borders, dtype=float).reshape(-1, 4)  # lon1, lat1, lon2, lat2
    mid = np.radians((segments[:, 1] + segments[:, 3]) / 2)
    lengths = np.hypot(segments[:, 3] - segments[:, 1], (segments[:, 2] - segments[:, 0]) * np.cos(mid))
    cumulative = np.cumsum(lengths) / lengths.sum()
    lats, lons, truths = [], [], []
    while len(lats) < count:
        n = 2 * count
        chosen = np.minimum(np.searchsorted(cumulative, rng.random(n)), len(segments) - 1)
        t = rng.random(n)
        s = segments[chosen]
        lat0, lon0 = s[:, 1] + t * (s[:, 3] - s[:, 1]), s[:, 0] + t * (s[:, 2] - s[:, 0])
        lat, lon = displace(lat0, lon0, *disk_offsets(rng, n, radius_km))
        for la, lo, inside in zip(lat, lon, layer.containing(lat, lon)):
            if inside and keep(la, lo) and len(lats) < count:
                lats.append(la), lons.append(lo), truths.append(inside)
    return lats, lons, truths


class Gazetteer:
    """cities500 as arrays, with neighbour queries within a distance (an STR tree in degrees,
    then the exact great-circle distance)."""

    def __init__(self, places):
        import numpy as np
        import shapely
        self.places = places
        self.ids = np.array([p[0] for p in places])
        self.lat = np.array([p[3] for p in places])
        self.lon = np.array([p[4] for p in places])
        self.code = np.array([p[5] for p in places])
        self.population = np.array([p[7] for p in places])
        self.tree = shapely.STRtree(shapely.points(self.lon, self.lat))

    def within(self, indices, km):
        """For each index, the indices of the other places within `km` of it, and their distances."""
        import numpy as np
        import shapely
        indices = np.asarray(indices)
        lat = self.lat[indices]
        degrees = km / KM_PER_DEGREE / np.maximum(np.cos(np.radians(np.minimum(np.abs(lat) + 1, 89.9))), 0.01)
        hits = self.tree.query(shapely.points(self.lon[indices], lat), predicate="dwithin", distance=degrees)
        d = haversine_km(lat[hits[0]], self.lon[indices][hits[0]], self.lat[hits[1]], self.lon[hits[1]])
        keep = (d <= km) & (indices[hits[0]] != hits[1])
        result = [[] for _ in indices]
        for q, other, distance in zip(hits[0][keep], hits[1][keep], d[keep]):
            result[q].append((other, distance))
        return result


def in_split(geoname_id, split):
    """Places are split by id so that TUNING and CHECK name different towns and suburbs."""
    return (geoname_id * 2654435761 >> 7) % 2 == (0 if split == "tuning" else 1)


def big_cities(gazetteer):
    """Indices of the big cities: population > 1M, not PPLX, and no more populous place within
    15 km (the main entry of a cluster such as New York City / Brooklyn)."""
    import numpy as np
    candidates = np.nonzero((gazetteer.population > BIG_CITY_POPULATION) & (gazetteer.code != "PPLX"))[0]
    result = []
    for index, neighbours in zip(candidates, gazetteer.within(candidates, 15)):
        if all(gazetteer.population[o] < gazetteer.population[index] for o, _ in neighbours):
            result.append(int(index))
    return result


def city_points(rng, gazetteer, countries, split, kind, count):
    """Points for the city sets, each with the geonameid that should be named (see the README)."""
    import numpy as np
    g = gazetteer
    bigs = big_cities(g)
    if kind == "bigcity":
        chosen = [i for i in bigs if in_split(int(g.ids[i]), split)]
        radius = 5.0
    else:
        order = rng.permutation(len(g.ids))
        eligible = order[(g.population[order] >= 1000) & (g.code[order] != "PPLX")
                         & (g.population[order] <= BIG_CITY_POPULATION)]
        eligible = np.array([i for i in eligible if in_split(int(g.ids[i]), split)])
        chosen, start = [], 0
        big_set = set(bigs)
        all_big = np.nonzero((g.population > BIG_CITY_POPULATION) & (g.code != "PPLX"))[0]
        while len(chosen) < count and start < len(eligible):
            batch = eligible[start:start + 4 * count]
            start += len(batch)
            if kind == "town":
                for index, neighbours in zip(batch, g.within(batch, 20)):
                    if all(g.population[o] < g.population[index] for o, _ in neighbours) and len(chosen) < count:
                        chosen.append(int(index))
                continue
            d = haversine_km(g.lat[batch][:, None], g.lon[batch][:, None], g.lat[all_big][None, :],
                             g.lon[all_big][None, :])
            main = np.array([i in big_set for i in all_big])
            for row, index in enumerate(batch):
                # The nearest big city (any entry) 12-40 km away, and a main entry within 40 km.
                if 12 <= d[row].min() <= 40 and (d[row][main] <= 40).any() and len(chosen) < count:
                    chosen.append(int(index))
        radius = 0.7
    if not chosen:
        return [], [], []
    per = max(1, -(-count // len(chosen)))
    lats, lons, truths = [], [], []
    countries_of = {}
    for attempt in range(20):
        index = np.repeat(np.array(chosen), per)
        lat, lon = displace(g.lat[index], g.lon[index], *disk_offsets(rng, len(index), radius))
        for i, la, lo, inside in zip(index, lat, lon, countries.containing(lat, lon)):
            country = g.places[i][6]
            # On land (or territorial water) of the place's own country: the city is then in the
            # country the point is in.
            if country in inside and countries_of.get(i, 0) < per and len(lats) < count:
                countries_of[i] = countries_of.get(i, 0) + 1
                lats.append(la), lons.append(lo), truths.append(int(g.ids[i]))
        if len(lats) >= count:
            break
    return lats, lons, truths


# ---------------------------------------------------------------------------------------------
# The tools


def run_phototag(binary, lats, lons):
    """phototag's (countryCode, timezone, city geonameid, name) for each point."""
    text = "".join(f"{la:.6f},{lo:.6f}\n" for la, lo in zip(lats, lons))
    done = subprocess.run([binary, "geocode", "--format", "ndjson"], input=text.encode(),
                          capture_output=True, check=False)
    answers = []
    for line in done.stdout.decode().splitlines():
        place = json.loads(line).get("place") or {}
        city = place.get("city") or place
        answers.append((place.get("countryCode"), place.get("timezone"), city.get("geonameId"),
                        city.get("name")))
    if len(answers) != len(lats):
        sys.exit(f"accuracy: phototag answered {len(answers)} of {len(lats)} points: {done.stderr.decode()[:400]}")
    return answers


def run_reverse_geocoder(lats, lons):
    """reverse_geocoder's (cc, None, None, name) for each point; None when it is not installed."""
    try:
        import reverse_geocoder
    except ImportError:
        return None
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        places = reverse_geocoder.search(list(zip(lats, lons)), mode=1, verbose=False)
    return [(p["cc"], None, None, p["name"]) for p in places]


# ---------------------------------------------------------------------------------------------
# Scoring


def score(kind, truths, answers, gazetteer_names):
    """(right, total, misses) where misses counts (truth -> answer) labels."""
    right, misses = 0, {}
    for truth, answer in zip(truths, answers):
        if kind == "country":
            ok, label = answer[0] in truth, f"{'/'.join(truth)}->{answer[0]}"
        elif kind == "offset":
            wanted = {offsets_of(zone) for zone in truth}
            got = offsets_of(answer[1]) if answer[1] else None
            ok = got is not None and got in wanted
            label = f"{truth[0]}->{answer[1]}"
        else:
            name = gazetteer_names[truth]
            if answer[2] is not None:
                ok = answer[2] == truth
            else:  # a peer without geonameids: the same name (or ASCII name)
                ok = answer[3] in (name[0], name[1])
            label = f"{name[0]} ({name[2]})->{answer[3]}"
        if ok:
            right += 1
        else:
            misses[label] = misses.get(label, 0) + 1
    return right, len(truths), misses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["tuning", "check"], default="check",
                        help="which seeded split to build (default: check; tune only on tuning)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "phototag"))
    parser.add_argument("--shared", default=os.environ.get("PHOTOTAG_SHARED", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--sets", default=",".join(SIZES), help="comma-separated sets (default: all)")
    parser.add_argument("--no-peers", action="store_true", help="phototag only")
    parser.add_argument("--misses", type=int, default=6, help="most common misses to show per set")
    parser.add_argument("--dump", help="write the point sets as JSON to this file (for tuning)")
    args = parser.parse_args()
    ensure_venv()
    import numpy as np
    import zoneinfo

    started = time.time()
    shared = os.path.abspath(args.shared)
    if not os.path.isdir(os.path.join(shared, "boundaries")):
        sys.exit(f"accuracy: no shared data at {shared} (set PHOTOTAG_SHARED)")
    zoneinfo.reset_tzpath([os.path.join(shared, "tzdata", "zoneinfo")])
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"accuracy: no phototag binary at {args.binary} (make build, or --binary)")
    wanted = args.sets.split(",")
    seed = SEEDS[args.split]

    boundaries = os.path.join(shared, "boundaries")
    countries = Polygons(os.path.join(boundaries, "countries.geojson"), lambda p: p["countryCode"])
    zones = None
    if any(s in wanted for s in ("border20", "border2", "tzborder20")):
        zones = Polygons(os.path.join(boundaries, "timezones.geojson"), lambda p: p["tzid"],
                         skip_border=lambda name: name.startswith("Etc/"))
    places = load_places(shared)
    gazetteer = Gazetteer(places)
    names = {p[0]: (p[1], p[2], p[6]) for p in places}
    on_land = lambda la, lo: True  # noqa: E731  (border_points keeps only points in a feature)

    sets = []  # (name, description, [(score kind)], lats, lons, truths per kind)
    for index, name in enumerate(wanted):
        rng = np.random.default_rng([seed, index])
        size = SIZES[name]
        if name == "land":
            lat, lon, inside = land_points(rng, countries, size)
            sets.append((name, "uniform on land", {"country": inside}, lat, lon))
        elif name in ("border20", "border2"):
            radius = 20 if name == "border20" else 2
            lat, lon, inside = border_points(rng, countries, size, radius, on_land)
            sets.append((name, f"land within {radius} km of a country border",
                         {"country": inside, "offset": zones.containing(lat, lon)}, lat, lon))
        elif name == "tzborder20":
            lat, lon, _ = border_points(rng, zones, size, 20, on_land)
            inside = countries.containing(lat, lon)
            keep = [i for i, c in enumerate(inside) if c]
            lat, lon = [lat[i] for i in keep], [lon[i] for i in keep]
            sets.append((name, "land within 20 km of a time-zone border",
                         {"offset": zones.containing(lat, lon)}, lat, lon))
        else:
            lat, lon, truth = city_points(rng, gazetteer, countries, args.split, name, size)
            description = {"bigcity": "within 5 km of a big city's centre",
                           "town": "within 0.7 km of an isolated town",
                           "suburb": "within 0.7 km of a suburb 12-40 km from a big city"}[name]
            sets.append((name, description, {"city": truth}, lat, lon))
    built = time.time()
    if args.dump:
        with open(args.dump, "w") as handle:
            json.dump([{"set": s[0], "latitudes": list(map(float, s[3])), "longitudes": list(map(float, s[4])),
                        "truth": s[2].get("city")} for s in sets], handle)

    tools = [("phototag", lambda la, lo: run_phototag(args.binary, la, lo))]
    if not args.no_peers:
        tools.append(("reverse_geocoder", run_reverse_geocoder))
    columns = [t[0] for t in tools]
    lines = []
    out = lambda text="": (print(text), lines.append(text))  # noqa: E731
    version = subprocess.run([args.binary, "--version"], capture_output=True, text=True).stdout.splitlines()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    out(f"phototag accuracy, split {args.split} (seed {seed}), commit {commit}, "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}")
    out(f"binary: {args.binary} ({version[0] if version else '?'}); shared data: {shared}")
    out(f"exiftool: {'installed, not measured' if shutil.which('exiftool') else 'missing (skipped)'}")
    out()
    header = f"{'set':<11} {'measure':<8} {'n':>6}  " + "  ".join(f"{c + ' %':>18}" for c in columns)
    out(header)
    out("-" * len(header))
    details = []
    for name, description, kinds, lat, lon in sets:
        answers = {}
        for tool, run in tools:
            answers[tool] = run(lat, lon)
        for kind, truths in kinds.items():
            cells = []
            for tool in columns:
                got = answers[tool]
                if got is None or (tool != "phototag" and kind == "offset"):
                    cells.append(f"{'n/a':>18}")
                    continue
                right, total, misses = score(kind, truths, got, names)
                cells.append(f"{100.0 * right / max(total, 1):>17.2f}%")
                if tool == "phototag":
                    top = sorted(misses.items(), key=lambda item: (-item[1], item[0]))[:args.misses]
                    details.append(f"{name} {kind} ({description}): {total - right} wrong of {total}; "
                                   + ", ".join(f"{label} {n}" for label, n in top))
            out(f"{name:<11} {kind:<8} {len(lat):>6}  " + "  ".join(cells))
    out()
    out("phototag's most common misses (truth->answer count):")
    for line in details:
        out("  " + line)
    out()
    out(f"built the sets in {built - started:.1f} s, whole run {time.time() - started:.1f} s")
    results = os.path.join(HERE, "results")
    os.makedirs(results, exist_ok=True)
    path = os.path.join(results, f"accuracy-{datetime.date.today():%Y%m%d}-{args.split}.txt")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"written to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
