#!/usr/bin/env python3
"""The city of a city section that GeoNames gives no municipality code: a study of the rule in
Sources/ReverseGeocoding/Places/PlaceLocator.swift (``sectionCity``), on two sets built two ways.

    python3 Benchmarks/sections.py                 # both sets, the chosen rule and its neighbours
    python3 Benchmarks/sections.py --binary .build/release/phototag   # and the binary on both

A *section* is a cities500 place with feature code PPLX (a known section) or none (a section or
a village: the shared cities500 has no feature code for 44% of its rows; Gastown and
Hasseldieksdamm are two). Its *candidates* are the places that are not sections, in its country,
with the same admin-1 code when both have one, and more populous than the section (for a place
without a code, at least `factor` times), within `reach` km (10 for PPLX, a parameter for the
others). The rule: the candidate whose influence radius r(p) = clamp(5 km x (p / 1M)^0.8, 0.7 km,
10 km) (the city rule's; Benchmarks/README.md, "The city rule and its tuning"), grown evenly,
reaches the point first (the smallest distance / r), within 3 r. The suburb set of
Benchmarks/accuracy.py measures what the rule costs villages next to a big city.

The sets (one point per section, at the section's own coordinates):

- NAMED: sections whose name starts with the name of a candidate, followed by a space, a hyphen,
  a comma or a bracket ("Zürich (Kreis 11)", "Hamburg-Altona", "Paris 16 Passy"). Truth: that
  candidate. Built from names, in every country.
- CODES: sections of the countries with municipality codes (Place.municipalityLevel) that have
  one, whose municipality's main place (the most populous non-PPLX place of the same code chain)
  is a candidate. Truth: that main place, the answer the binary gives from the codes; the rule is
  replayed here *without* them, as it runs where there are none.

Each set is split in two halves by geonameid (TUNING, CHECK), as Benchmarks/accuracy.py splits
its sets; `k` is chosen on TUNING and reported on CHECK.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
from scipy.spatial import cKDTree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EARTH_RADIUS_KM = 6371.0088
REACH_KM = 20.0  # how far candidates are gathered (the rule's reach is at most 10 km)
STRETCH = 3.0
# Place.municipalityLevel (Sources/ReverseGeocoding/Places/Place.swift).
MUNICIPALITY_LEVEL = {"DE": 4, "FR": 4, "BE": 4, "IT": 3, "ES": 3, "AT": 3, "CH": 3, "PL": 3, "CZ": 3,
                      "GR": 3, "FI": 3, "NL": 2, "SE": 2, "NO": 2, "DK": 2, "HR": 2, "PT": 2}


def load(shared):
    rows = []
    with open(os.path.join(shared, "geonames", "cities500.txt"), encoding="utf-8") as handle:
        for line in handle:
            f = line.rstrip("\n").split("\t")
            rows.append(f)
    return rows


def unit(lat, lon):
    la, lo = np.radians(lat), np.radians(lon)
    return np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=1)


def radius_km(population):
    return np.clip(5.0 * (np.maximum(population, 0) / 1e6) ** 0.8, 0.7, 10.0)


def in_split(geoname_id, split):
    return (geoname_id * 2654435761 >> 7) % 2 == (0 if split == "tuning" else 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="also geocode both sets with this phototag")
    parser.add_argument("--shared", default=os.environ.get("PHOTOTAG_SHARED", os.path.join(ROOT, "..", "shared")))
    args = parser.parse_args()
    rows = load(args.shared)
    n = len(rows)
    ids = np.array([int(f[0]) for f in rows])
    names = [f[1] for f in rows]
    lat = np.array([float(f[4]) for f in rows])
    lon = np.array([float(f[5]) for f in rows])
    code = [f[7] for f in rows]
    country = [f[8] for f in rows]
    admin = [(f[10], f[11], f[12], f[13]) for f in rows]
    population = np.array([int(f[14] or 0) for f in rows])
    section = np.array([c in ("PPLX", "") for c in code])
    xyz = unit(lat, lon)
    tree = cKDTree(xyz)
    chord = 2 * np.sin(REACH_KM / EARTH_RADIUS_KM / 2)

    # Municipal mains by code chain, as PlaceTableBuilder.municipalMains makes them.
    def chain(i):
        level = MUNICIPALITY_LEVEL.get(country[i])
        if not level or not admin[i][level - 1]:
            return None
        return (country[i], admin[i][0], admin[i][1], admin[i][level - 1])
    mains = {}
    for i in range(n):
        if code[i] == "PPLX":
            continue
        key = chain(i)
        if key is None:
            continue
        j = mains.get(key)
        if j is None or population[i] > population[j] or (population[i] == population[j] and ids[i] < ids[j]):
            mains[key] = i

    sections = np.nonzero(section)[0]
    neighbours = tree.query_ball_point(xyz[sections], chord)
    cases = []  # (section, candidates [(index, km)], named truth or -1, codes truth or -1)
    for s, near in zip(sections, neighbours):
        candidates = []
        for j in near:
            if section[j] or country[j] != country[s] or population[j] <= population[s]:
                continue
            if admin[s][0] and admin[j][0] and admin[s][0] != admin[j][0]:
                continue
            d = 2 * np.arcsin(min(1.0, np.linalg.norm(xyz[s] - xyz[j]) / 2)) * EARTH_RADIUS_KM
            candidates.append((j, d))
        if not candidates:
            continue
        named = -1
        for j, _ in sorted(candidates, key=lambda c: -len(names[c[0]])):
            prefix = names[j]
            if names[s].startswith(prefix) and len(names[s]) > len(prefix) and names[s][len(prefix)] in " -,(":
                named = j
                break
        coded = -1
        key = chain(s)
        if key is not None and key in mains and any(j == mains[key] for j, _ in candidates):
            coded = mains[key]
        if named >= 0 or coded >= 0:
            cases.append((s, candidates, named, coded))

    def pick(s, candidates, reach_other, factor):
        reach, size = (10.0, 1) if code[s] == "PPLX" else (reach_other, factor)
        best = None
        for j, d in candidates:
            r = radius_km(population[j])
            if d > reach or d > STRETCH * r or population[j] < size * population[s]:
                continue
            if best is None or d / r < best[0] or (d / r == best[0] and d < best[1]):
                best = (d / r, d, j)
        return best[2] if best else -1

    def score(reach_other, factor, which, split):
        right = answered = total = 0
        for s, candidates, named, coded in cases:
            truth = named if which == "named" else coded
            if truth < 0 or not in_split(int(ids[s]), split):
                continue
            total += 1
            j = pick(s, candidates, reach_other, factor)
            answered += j >= 0
            right += j == truth
        return right, answered, total

    print("the rule replayed without municipality codes: right / answered / total, TUNING | CHECK")
    print("(reach and factor of a place without a feature code; PPLX: 10 km, any larger place)")
    for reach_other, factor in ((3, 1), (3, 5), (5, 1), (5, 5), (5, 10), (10, 1), (10, 5)):
        cells = []
        for which in ("named", "codes"):
            for split in ("tuning", "check"):
                r, a, t = score(reach_other, factor, which, split)
                cells.append(f"{r}/{a}/{t}")
        chosen = "  <- the rule" if (reach_other, factor) == (5, 5) else ""
        print(f"  {reach_other:>2} km x{factor:<3} NAMED {cells[0]:>12} | {cells[1]:>12}"
              f"   CODES {cells[2]:>15} | {cells[3]:>15}{chosen}")

    if args.binary:
        for which in ("named", "codes"):
            chosen = [(s, named if which == "named" else coded) for s, _, named, coded in cases
                      if (named if which == "named" else coded) >= 0]
            text = "".join(f"{lat[s]:.6f},{lon[s]:.6f}\n" for s, _ in chosen)
            done = subprocess.run([args.binary, "geocode", "--format", "ndjson"], input=text.encode(),
                                  capture_output=True, check=True)
            right = 0
            misses = {}
            for (s, truth), line in zip(chosen, done.stdout.decode().splitlines()):
                place = json.loads(line).get("place") or {}
                city = place.get("city") or place
                if city.get("geonameId") == int(ids[truth]):
                    right += 1
                else:
                    misses[country[s]] = misses.get(country[s], 0) + 1
            top = ", ".join(f"{c} {m}" for c, m in sorted(misses.items(), key=lambda x: -x[1])[:8])
            print(f"binary {which.upper()}: {right} of {len(chosen)} ({100 * right / len(chosen):.1f}%); misses {top}")


if __name__ == "__main__":
    main()
