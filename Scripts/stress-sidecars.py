#!/usr/bin/env python3
"""Sidecar pairing at scale: `phototag scan` and `phototag locate` over a generated library of
many photos with XMP sidecars and Google Takeout JSON, named the ways that went wrong before,
and a checked expectation for every file.

    Scripts/stress-sidecars.py [--photos 20000] [--binary .build/release/phototag] [--keep]

Each group of files is laid out so that its right answer is known by construction (docs/gps.md,
"Names"), not worked out again here:

  exact        P.jpg + P.jpg.xmp                      P.jpg has the sidecar's position
  case twins   K.jpg + K.jpg.xmp, k.jpg + k.jpg.xmp   each its own, never the other's
  folded       C.JPG + c.jpg.xmp                      the only name that differs in case: used
  owner        a.jpg, A.JPG, a.jpg.xmp                a.jpg's only; A.JPG has no position
  ambiguous    M.JPG + m.jpg.xmp + M.jpg.xmp          no position and a warning; two sidecar records
  bytes        c<FE>.jpg + c<FF>.jpg.xmp              no position; the sidecar a record of its own
  hidden       H.jpg + H.jpg.xmp + H.xmp              H.jpg.xmp's position, a warning, no H.xmp record
  takeout      T.jpg + T.jpg.json                     the JSON's position
  json twins   J.jpg + J.jpg.json, j.jpg + j.jpg.json each its own
  cut json     orphan x.jpg.json cut short            an error record
  twice json   orphan y.jpg.json with a repeated key  an error record
  orphan       o.xmp alone                            a record of its own, located

Every position is distinct, so a record with another file's position is caught. Checks: one
record per photo and per unclaimed sidecar (nothing lost, nothing twice), each record's status,
position and warnings as expected, and `locate` of every photo of a sample of folders agrees
with `scan`. Exit status 0 when every check passes.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS_PER_FOLDER = 10


def bare_jpeg():
    with open(os.path.join(ROOT, "Fixtures", "photos", "no-exif.jpg"), "rb") as handle:
        return handle.read()


def xmp(latitude):
    return (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" '
        f'exif:GPSLatitude="{latitude:.6f}" exif:GPSLatitudeRef="N" '
        'exif:GPSLongitude="1.0" exif:GPSLongitudeRef="E"/></rdf:RDF></x:xmpmeta>'
    ).encode()


def takeout(latitude):
    return json.dumps(
        {"title": "x", "geoData": {"latitude": latitude, "longitude": 1.0, "altitude": 0.0}}
    ).encode()


class Library:
    """Writes the files and keeps the expected record of each, by path (bytes)."""

    def __init__(self, base):
        self.base = base
        self.expected = {}  # path -> (status, latitude or None, warning substring or None)
        self.photos = 0
        self.next_latitude = 0
        self.jpeg = bare_jpeg()

    def latitude(self):
        # Distinct positions, six decimals apart: 0.000100, 0.000200, ...
        self.next_latitude += 1
        return round(self.next_latitude * 0.0001, 6)

    def write(self, folder, name, data):
        path = os.path.join(folder, name)
        with open(path, "wb") as handle:
            handle.write(data)
        return path

    def photo(self, folder, name, status, latitude=None, warning=None):
        path = self.write(folder, name, self.jpeg)
        self.expected[path] = (status, latitude, warning)
        self.photos += 1

    def group(self, kind, folder, n):
        stem = f"g{n}".encode()
        if kind == "exact":
            latitude = self.latitude()
            self.write(folder, stem + b"P.jpg.xmp", xmp(latitude))
            self.photo(folder, stem + b"P.jpg", "located", latitude)
        elif kind == "case twins":
            a, b = self.latitude(), self.latitude()
            self.write(folder, stem + b"K.jpg.xmp", xmp(a))
            self.write(folder, stem + b"k.jpg.xmp", xmp(b))
            self.photo(folder, stem + b"K.jpg", "located", a)
            self.photo(folder, stem + b"k.jpg", "located", b)
        elif kind == "folded":
            latitude = self.latitude()
            self.write(folder, stem + b"c.jpg.xmp", xmp(latitude))
            self.photo(folder, stem + b"C.JPG", "located", latitude)
        elif kind == "owner":
            latitude = self.latitude()
            self.write(folder, stem + b"a.jpg.xmp", xmp(latitude))
            self.photo(folder, stem + b"a.jpg", "located", latitude)
            self.photo(folder, stem + b"A.JPG", "no-gps")
        elif kind == "ambiguous":
            a, b = self.latitude(), self.latitude()
            self.expected[self.write(folder, stem + b"m.jpg.xmp", xmp(a))] = ("located", a, None)
            self.expected[self.write(folder, stem + b"M.jpg.xmp", xmp(b))] = ("located", b, None)
            self.photo(folder, stem + b"M.JPG", "no-gps", None, "differ only in case")
        elif kind == "bytes":
            latitude = self.latitude()
            self.expected[self.write(folder, stem + b"c\xff.jpg.xmp", xmp(latitude))] = ("located", latitude, None)
            self.photo(folder, stem + b"c\xfe.jpg", "no-gps")
        elif kind == "hidden":
            a, b = self.latitude(), self.latitude()
            self.write(folder, stem + b"H.jpg.xmp", xmp(a))
            self.write(folder, stem + b"H.xmp", xmp(b))
            self.photo(folder, stem + b"H.jpg", "located", a, "is not read")
        elif kind == "takeout":
            latitude = self.latitude()
            self.write(folder, stem + b"T.jpg.json", takeout(latitude))
            self.photo(folder, stem + b"T.jpg", "located", latitude)
        elif kind == "json twins":
            a, b = self.latitude(), self.latitude()
            self.write(folder, stem + b"J.jpg.json", takeout(a))
            self.write(folder, stem + b"j.jpg.json", takeout(b))
            self.photo(folder, stem + b"J.jpg", "located", a)
            self.photo(folder, stem + b"j.jpg", "located", b)
        elif kind == "cut json":
            path = self.write(folder, stem + b"x.jpg.json", takeout(self.latitude())[:25])
            self.expected[path] = ("error", None, None)
        elif kind == "twice json":
            data = b'{"geoData": {"latitude": 1, "longitude": 2}, "geoData": {"latitude": 3}}'
            self.expected[self.write(folder, stem + b"y.jpg.json", data)] = ("error", None, None)
        elif kind == "orphan":
            latitude = self.latitude()
            self.expected[self.write(folder, stem + b"o.xmp", xmp(latitude))] = ("located", latitude, None)
        else:
            raise ValueError(kind)


KINDS = [
    "exact", "case twins", "folded", "owner", "ambiguous", "bytes", "hidden", "takeout", "json twins",
    "cut json", "twice json", "orphan",
]


def build(base, photos):
    library = Library(base)
    n = 0
    while library.photos < photos:
        folder = os.path.join(base.encode(), b"f%05d" % (n // GROUPS_PER_FOLDER))
        os.makedirs(folder, exist_ok=True)
        library.group(KINDS[n % len(KINDS)], folder, n)
        n += 1
    return library, n


def check(records, library, label):
    """Compares records (decoded NDJSON, `file` as written) with the expectations; returns problems."""
    problems = []
    seen = {}
    for record in records:
        seen.setdefault(record["file"], []).append(record)
    expected = {shown(path): value for path, value in library.expected.items()}
    if len(expected) != len(library.expected):
        problems.append(f"{label}: two expected paths show the same")
    for path, (status, latitude, warning) in expected.items():
        got = seen.get(path)
        if not got:
            problems.append(f"{label}: {path!r}: no record")
            continue
        if len(got) > 1:
            problems.append(f"{label}: {path!r}: {len(got)} records")
        record = got[0]
        if record["status"] != status:
            problems.append(f"{label}: {path!r}: status {record['status']}, expected {status}")
        gps = record.get("gps") or {}
        if latitude is not None and abs(gps.get("latitude", -1) - latitude) > 1e-9:
            problems.append(f"{label}: {path!r}: latitude {gps.get('latitude')}, expected {latitude}")
        if warning is not None and not any(warning in w for w in record.get("warnings", [])):
            problems.append(f"{label}: {path!r}: no warning with {warning!r}: {record.get('warnings')}")
    for path in seen:
        if path not in expected:
            problems.append(f"{label}: {path!r}: a record nobody expected")
    return problems


def decode(stdout):
    """The records, `file` as bytes of its text: names that are not UTF-8 are shown with U+FFFD
    for each invalid byte (docs/output.md), as `shown` makes the expected paths."""
    records = []
    for line in stdout.splitlines():
        record = json.loads(line)
        record["file"] = record["file"].encode()
        records.append(record)
    return records


def shown(path):
    """A path (bytes) as records show it: each byte that is not UTF-8 as U+FFFD."""
    return path.decode("utf-8", "replace").encode()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=20000)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "phototag"))
    parser.add_argument("--keep", action="store_true", help="keep the generated library")
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="phototag-sidecars-")
    try:
        library, groups = build(base, args.photos)
        sidecars = sum(1 for _, _, files in os.walk(base) for f in files if f.endswith((".xmp", ".json")))
        print(f"{library.photos} photos and {sidecars} sidecars in {groups} groups, {len(library.expected)} expected records")
        scan = subprocess.run(
            [args.binary, "scan", "--format", "ndjson", "--no-place", "--no-progress", base],
            capture_output=True, timeout=1800)
        problems = []
        if scan.returncode != 2:  # the broken JSON orphans are errors
            problems.append(f"scan: exit status {scan.returncode}, expected 2")
        records = decode(scan.stdout)
        problems += check(records, library, "scan")
        stderr_lines = scan.stderr.decode("utf-8", "replace").splitlines()
        errors = sum(1 for (status, _, _) in library.expected.values() if status == "error")
        if len([line for line in stderr_lines if "malformed" in line or "not JSON" in line]) < errors:
            problems.append(f"scan: {len(stderr_lines)} stderr lines for {errors} broken sidecars")
        # locate of every photo in every tenth folder, one folder at a time: the same answers.
        sample = {}
        for path in library.expected:
            folder = os.path.dirname(path)
            if int(os.path.basename(folder)[1:]) % 10 == 0 and not path.endswith((b".xmp", b".json")):
                sample.setdefault(folder, []).append(path)
        located = []
        for folder, paths in sorted(sample.items()):
            run = subprocess.run(
                [args.binary, "locate", "--format", "ndjson", "--no-place"] + sorted(paths),
                capture_output=True, timeout=600)
            located += decode(run.stdout)
        subset = Library(base)
        subset.expected = {p: library.expected[p] for paths in sample.values() for p in paths}
        problems += check(located, subset, "locate")
        print(f"scan: {len(records)} records; locate: {len(located)} records of {len(sample)} folders")
        for problem in problems[:50]:
            print(problem)
        if problems:
            print(f"{len(problems)} problems")
            return 1
        print("every file has its expected record")
        return 0
    finally:
        if args.keep:
            print(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
