#!/usr/bin/env python3
"""phototag's admin-1 answers against GeoNames, per country.

    make bench-accuracy                         # runs this after accuracy.py
    python3 Benchmarks/admin1_agreement.py [--binary B] [--shared DIR] [--all]

Every place of cities500.txt (PHOTOTAG_SHARED, default <repo>/../shared/geonames) is geocoded at
its own coordinates with `phototag geocode --format ndjson`; a place agrees when the answer's
country and admin1Code are the place's own. The misses are counted by reason: at sea (no region
within the coastal fallback), no code (GeoNames gives none, or 00), neighbour (another region of
the same country), other country. Prints the countries with at least 30 places that agree less
than 95 % (every country with --all) and the overall share. The same rule is a test:
Tests/ReverseGeocodingTests/Admin1AgreementTests.swift.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "phototag"))
    parser.add_argument("--shared", default=os.environ.get("PHOTOTAG_SHARED", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--all", action="store_true", help="print every country with 30 places or more")
    args = parser.parse_args()
    cities = os.path.join(args.shared, "geonames", "cities500.txt")
    if not os.path.exists(cities):
        sys.exit(f"admin1_agreement: no {cities} (set PHOTOTAG_SHARED)")
    places = []
    with open(cities, encoding="utf-8") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            places.append((fields[4], fields[5], fields[8], fields[10]))
    text = "".join(f"{lat},{lon}\n" for lat, lon, _, _ in places).encode()
    done = subprocess.run([args.binary, "geocode", "--format", "ndjson"], input=text, capture_output=True)
    if done.returncode not in (0, 1):
        sys.exit(f"admin1_agreement: phototag geocode exited {done.returncode}: {done.stderr.decode()[:500]}")
    answers = done.stdout.decode().splitlines()
    if len(answers) != len(places):
        sys.exit(f"admin1_agreement: {len(answers)} answers for {len(places)} places")
    tally = collections.defaultdict(collections.Counter)
    for (_, _, country, code), answer in zip(places, answers):
        place = json.loads(answer).get("place") or {}
        got_country, got_code = place.get("countryCode"), place.get("admin1Code")
        counts = tally[country]
        counts["places"] += 1
        if got_country == country and got_code == code and code:
            counts["agree"] += 1
        elif code in ("", "00"):
            counts["no code"] += 1
        elif got_country != country:
            counts["other country"] += 1
        elif got_code is None:
            counts["at sea"] += 1
        else:
            counts["neighbour"] += 1
    rows = sorted((c, t) for c, t in tally.items() if t["places"] >= 30)
    shown = [(c, t) for c, t in rows if args.all or t["agree"] / t["places"] < 0.95]
    shown.sort(key=lambda row: row[1]["agree"] / row[1]["places"])
    print("| country | places | agree | at sea | no code | neighbour | other country |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for country, t in shown:
        share = 100 * t["agree"] / t["places"]
        print(f"| {country} | {t['places']} | {share:.2f} % | {t['at sea']} | {t['no code']} | {t['neighbour']} | "
              f"{t['other country']} |")
    total = sum(t["places"] for t in tally.values())
    agree = sum(t["agree"] for t in tally.values())
    below = sum(1 for _, t in rows if t["agree"] / t["places"] < 0.95)
    print(f"\nadmin-1 agreement with GeoNames: {agree} of {total} places ({100 * agree / total:.2f} %); "
          f"{below} of {len(rows)} countries with 30 places or more below 95 %")


if __name__ == "__main__":
    main()
