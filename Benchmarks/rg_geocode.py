#!/usr/bin/env python3
"""The reverse_geocoder side of `make bench`'s geocode section: a whole Python process that does
what `phototag geocode --format ndjson < POINTS` does.

    python3 Benchmarks/rg_geocode.py MODE POINTS [--ndjson]

Reads POINTS (one `lat,lon` line each) and looks them all up with `reverse_geocoder.search(points,
mode=MODE)` (1: one process, scipy's cKDTree; 2: its multi-process cKDTree over every core).
By default it writes nothing: the benchmark compares phototag with the least a program using the
library has to do. With --ndjson, it also writes one JSON object per point on standard output (the
point and the place reverse_geocoder returns: name, admin1, admin2, cc and the place's lat/lon),
like `phototag geocode --format ndjson`; with json.dumps that adds ~9 µs a point.
On standard error, one line: the seconds spent importing, reading, searching and writing.
"""
import json
import sys
import time


def main():
    mode, path = int(sys.argv[1]), sys.argv[2]
    ndjson = "--ndjson" in sys.argv[3:]
    start = time.perf_counter()
    import reverse_geocoder

    imported = time.perf_counter()
    points = []
    with open(path) as handle:
        for line in handle:
            latitude, _, longitude = line.partition(",")
            points.append((float(latitude), float(longitude)))
    read = time.perf_counter()
    places = reverse_geocoder.search(points, mode=mode, verbose=False)
    searched = time.perf_counter()
    dumps = json.dumps
    if ndjson:
        sys.stdout.writelines(
            dumps({"latitude": latitude, "longitude": longitude, "place": place}, ensure_ascii=False) + "\n"
            for (latitude, longitude), place in zip(points, places))
    sys.stdout.flush()
    written = time.perf_counter()
    print(f"import {imported - start:.3f} read {read - imported:.3f} search {searched - read:.3f} "
          f"write {written - searched:.3f}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
