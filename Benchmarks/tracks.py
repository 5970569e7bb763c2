"""A big Google location history for the `tracks` section of Benchmarks/bench.py, built from the
shapes of a real Records.json (the entries of Google Takeout until 2024: `latitudeE7`,
`longitudeE7`, `accuracy`, sometimes `altitude` and `verticalAccuracy`, nested `activity` records
with their own timestamps, `source`, `deviceTag`, `platformType`, and an ISO `timestamp`, or for
one entry in ten a `timestampMs` string), pretty-printed with two spaces as Takeout writes it.

The walk starts in Lisbon on 2021-05-05T00:00:00Z with an entry every 5 to 20 s, so that
Fixtures/photos/exif-without-gps.jpg (2021-05-06 07:08:09 on a clock without an offset) falls on
it. Seeded, and cached under the benchmark's cache folder by size and seed.
"""
import datetime
import os
import random

START = datetime.datetime(2021, 5, 5, tzinfo=datetime.timezone.utc)


def iso(milliseconds):
    moment = START + datetime.timedelta(milliseconds=milliseconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def write_records(path, megabytes, seed=1):
    """Writes a Records.json of about `megabytes` MB; returns the number of entries."""
    rng = random.Random(seed)
    target = megabytes * 1_000_000
    latitude, longitude = 387_075_000, -91_365_000
    elapsed = 0
    entries = 0
    written = 0
    with open(path + ".part", "w") as handle:
        handle.write('{\n  "locations": [')
        chunk = []
        while written < target:
            elapsed += rng.randint(5_000, 20_000)
            latitude += rng.randint(-300, 300)
            longitude += rng.randint(-300, 300)
            fields = [f'"latitudeE7": {latitude}', f'"longitudeE7": {longitude}', f'"accuracy": {rng.randint(3, 60)}']
            if rng.random() < 0.3:
                fields += [f'"altitude": {rng.randint(0, 200)}', f'"verticalAccuracy": {rng.randint(2, 30)}']
            if rng.random() < 0.4:
                fields.append(
                    '"activity": [{\n        "activity": [{\n          "type": "STILL",\n          "confidence": '
                    f'{rng.randint(10, 100)}\n        }}],\n        "timestamp": "{iso(elapsed + 1500)}"\n      }}]')
            fields += ['"source": "WIFI"', '"deviceTag": 1433424142', '"platformType": "ANDROID"']
            if rng.random() < 0.1:
                fields.append(f'"timestampMs": "{int(START.timestamp() * 1000) + elapsed}"')
            else:
                fields.append(f'"timestamp": "{iso(elapsed)}"')
            text = ("" if entries == 0 else ",") + " {\n    " + ",\n    ".join(fields) + "\n  }"
            chunk.append(text)
            written += len(text)
            entries += 1
            if len(chunk) >= 10_000:
                handle.write("".join(chunk))
                chunk = []
        handle.write("".join(chunk))
        handle.write("]\n}\n")
    os.replace(path + ".part", path)
    return entries


def cached_records(cache, megabytes, seed=1):
    """The path of the cached Records.json of `megabytes` MB and its number of entries."""
    folder = os.path.join(cache, "tracks")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"Records-{megabytes}MB-{seed}.json")
    count_path = path + ".count"
    if not os.path.exists(path) or not os.path.exists(count_path):
        entries = write_records(path, megabytes, seed)
        with open(count_path, "w") as handle:
            handle.write(str(entries))
    with open(count_path) as handle:
        return path, int(handle.read())
