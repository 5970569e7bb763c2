#!/usr/bin/env python3
"""The data and the checks of `make test-spark` (Scripts/test-spark runs this).

    spark-check.py points COUNT SEED OUT.csv
        writes COUNT seeded coordinates as `id,lat,lon` (a header row, then rows 0…COUNT-1):
        uniform on the sphere, with a few bad rows (a latitude out of range, a missing
        longitude, text) so that error records go through the same path as places.
    spark-check.py geocode POINTS.csv EXPECTED.ndjson RESULT.parquet
        checks the Parquet written by Examples/spark/geocode.py against one phototag geocode run
        on the same points (EXPECTED: its records, one per row in input order).
    spark-check.py scan LIST EXPECTED.ndjson RESULT [--ndjson]
        checks the output of Examples/spark/scan.py (Parquet, or NDJSON records with --ndjson)
        against one `phototag locate --files-from LIST` run (EXPECTED: its records).
    spark-check.py all WORK
        the three checks of Scripts/test-spark on the files it leaves in WORK.

A record is compared as canonical JSON (keys sorted, numbers as Python reads them) per input row,
without geocode's `line`, which counts the lines of each partition's stream. The same input row
must have exactly one record on each side: none missing, none twice. Reading Parquet needs
pyspark: run the checks with the Python of the Spark virtualenv.
"""
import collections
import json
import math
import random
import sys


def canonical(text, drop=()):
    """The record as canonical JSON text, without the keys in `drop`."""
    record = json.loads(text)
    for key in drop:
        record.pop(key, None)
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def write_points(count, seed, path):
    """COUNT rows `id,lat,lon`, uniform on the sphere, six decimals; every 9,973rd row is bad."""
    generator = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        out.write("id,lat,lon\n")
        for index in range(count):
            latitude = math.degrees(math.asin(generator.uniform(-1.0, 1.0)))
            longitude = generator.uniform(-180.0, 180.0)
            row = f"{latitude:.6f},{longitude:.6f}"
            if index % 9973 == 17:
                row = ["91.5,10.0", f"{latitude:.6f},", "north,east"][(index // 9973) % 3]
            out.write(f"{index},{row}\n")


def read_parquet(path, columns):
    """The rows of a Parquet folder (only `columns`), read with a local Spark session (one for
    the whole run: it is stopped when the process ends)."""
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").appName("spark-check").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return [tuple(row) for row in spark.read.parquet(path).select(*columns).collect()]


def read_lines(path):
    """The lines of a text file (or of every part-* file in a Spark output folder)."""
    import glob
    import os

    files = sorted(glob.glob(os.path.join(path, "part-*"))) if os.path.isdir(path) else [path]
    lines = []
    for name in files:
        with open(name, encoding="utf-8") as handle:
            lines.extend(line.rstrip("\n") for line in handle if line.strip())
    return lines


def fail(message):
    print(f"spark-check: {message}")  # stdout: stderr holds Spark's own messages
    sys.exit(1)


def check_geocode(points_path, expected_path, result_path):
    with open(points_path, encoding="utf-8") as handle:
        count = sum(1 for _ in handle) - 1
    expected = read_lines(expected_path)
    if len(expected) != count:
        fail(f"the single run printed {len(expected)} records for {count} rows")
    rows = read_parquet(result_path, ["id", "lat", "lon", "place_name", "country_code", "error", "record"])
    if len(rows) != count:
        fail(f"the Spark job wrote {len(rows)} rows for {count}")
    seen = set()
    errors = 0
    for identifier, _latitude, _longitude, name, country_code, error, record in rows:
        index = int(identifier)
        if index in seen:
            fail(f"row {index} is in the output twice")
        seen.add(index)
        if canonical(record, ("line",)) != canonical(expected[index], ("line",)):
            fail(f"row {index}: Spark gave\n  {record}\nphototag alone gave\n  {expected[index]}")
        parsed = json.loads(record)
        place = parsed.get("place") or {}
        if (name, country_code, error) != (place.get("name"), place.get("countryCode"), parsed.get("error")):
            fail(f"row {index}: the place columns do not match the record")
        errors += error is not None
    print(f"geocode: {count} rows, each the same record as phototag alone gives ({errors} error records)")


def check_scan(list_path, expected_path, result_path, ndjson):
    with open(list_path, "rb") as handle:
        paths = [line.decode("utf-8") for line in handle.read().split(b"\n") if line]
    expected = read_lines(expected_path)
    if len(expected) != len(paths):
        fail(f"the single run printed {len(expected)} records for {len(paths)} paths")
    want = collections.Counter()
    for path, text in zip(paths, expected):
        if json.loads(text)["file"] != path:
            fail(f"the single run's record for {path!r} names another file")
        want[canonical(text)] += 1
    if ndjson:
        records = read_lines(result_path)
    else:
        rows = read_parquet(result_path, ["path", "status", "error", "record"])
        records = []
        for path, status, error, text in rows:
            parsed = json.loads(text)
            if (path, status, error) != (parsed["file"], parsed["status"], parsed["error"]):
                fail(f"{path!r}: the columns do not match the record")
            records.append(text)
    got = collections.Counter(canonical(text) for text in records)
    if got != want:
        missing, extra = want - got, got - want
        fail(f"{sum(missing.values())} records missing, {sum(extra.values())} unexpected: "
             f"{list(missing)[:2]} {list(extra)[:2]}")
    statuses = collections.Counter(json.loads(text)["status"] for text in records)
    summary = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
    print(f"scan: {len(records)} files, each the same record as phototag alone gives ({summary})")


def main(arguments):
    if arguments[:1] == ["points"] and len(arguments) == 4:
        write_points(int(arguments[1]), int(arguments[2]), arguments[3])
    elif arguments[:1] == ["geocode"] and len(arguments) == 4:
        check_geocode(*arguments[1:])
    elif arguments[:1] == ["scan"] and len(arguments) in (4, 5):
        check_scan(*arguments[1:4], ndjson=arguments[4:] == ["--ndjson"])
    elif arguments[:1] == ["all"] and len(arguments) == 2:
        work = arguments[1].rstrip("/") + "/"
        check_geocode(work + "points.csv", work + "points.expected", work + "places.parquet")
        check_scan(work + "photos.txt", work + "photos.expected", work + "photos.parquet", ndjson=False)
        check_scan(work + "photos.txt", work + "photos.expected", work + "photos.ndjson", ndjson=True)
    else:
        fail("usage: see the top of Scripts/spark-check.py")


if __name__ == "__main__":
    main(sys.argv[1:])
