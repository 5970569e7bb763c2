#!/usr/bin/env python3
"""Where a scan's time goes, per file: callgrind instruction and allocation counts, and a perf
profile. `make bench-profile` runs it; `bench.py alloc` prints the same counts in the benchmark.

    python3 Benchmarks/profile_scan.py                        # callgrind counts per file + top functions
    python3 Benchmarks/profile_scan.py --perf                 # and a perf profile of a real-photo scan
    python3 Benchmarks/profile_scan.py --binary OTHER/phototag --top 40

**Per file, by difference.** `phototag scan --jobs 1 --format ndjson` runs under `valgrind
--tool=callgrind` twice: over 4 × P and over 40 × P hard links to the P valid-GPS camera JPEGs of
the shared dev corpus (see realphotos.py; 208 and 2,080 files with the 52 of the dev set, every
photo equally often). The difference of the two runs divided by the difference of the file
counts is the cost of one more file, without the process's start-up, place table and exit:

- **instructions/file**: callgrind's instruction count (Ir). It does not depend on the machine's
  load or its clock, unlike any timing on a shared 2-core VM, so it is what to compare before and
  after a change (a change of 1% is real).
- **allocations/file**: calls of malloc, calloc, realloc, posix_memalign, aligned_alloc and
  memalign (callgrind counts every call, from the Swift runtime, libexif and libc alike);
  **frees/file** the calls of free. The target is 0 in the steady state.
- **Swift objects/file**: calls of swift_allocObject (class instances, closures' contexts,
  array and string storage); **retains+releases/file**: swift_retain, swift_release and their
  _n variants.

One worker (`--jobs 1`) keeps the run on one thread, so the counts are exact and repeatable.
The binary is .build/release/phototag (as `make bench` builds it); valgrind 3.19 cannot read the
DWARF 5 debug information of the Swift toolchain, so a copy without it (`strip --strip-debug`,
the symbols stay) is what runs, with `SWIFT_DETERMINISTIC_HASHING=1`: a Swift process seeds its
hashing at random, which moved the count of the same binary by up to ±800 instructions per file
from run to run. The larger run's callgrind file is kept in
Benchmarks/results/profiles/ (`callgrind_annotate FILE | swift demangle --simplified`).

**geocode** (`--geocode`, and in `bench.py alloc`): the same difference for `phototag geocode
--format ndjson` of 20,000 and 200,000 of the benchmark's random points (the first lines of
its 1,000,000-point file, same seed): instructions and allocations per point, and the top
functions.

**perf** (`--perf`): `perf record -F 4999 -e cpu-clock` of `phototag scan --format ndjson` over
20,000 links, on every core, and the top symbols by self time (`perf report --no-children`),
demangled. The VM has no hardware counters, hence the cpu-clock event.
"""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import corpus  # noqa: E402  (Benchmarks/corpus.py)
import realphotos  # noqa: E402  (Benchmarks/realphotos.py)

ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "__libc_malloc",
              "__libc_calloc", "__libc_realloc", "__libc_memalign", "__posix_memalign"}
FREES = {"free", "__libc_free", "cfree"}
SWIFT_OBJECTS = {"swift_allocObject"}
REFCOUNTS = {"swift_retain", "swift_release", "swift_retain_n", "swift_release_n", "swift_bridgeObjectRetain",
             "swift_bridgeObjectRelease"}
COST_LINE = re.compile(r"^[-+*0-9]")


def parse_callgrind(path):
    """(total Ir, {function: self Ir}, {function: calls}) of a callgrind output file (Ir only)."""
    names, self_cost, calls = {}, {}, {}
    total = 0
    function = None
    callee = None
    after_calls = False

    def name(text):
        match = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not match:
            return text
        if match.group(2) is not None:
            names[match.group(1)] = match.group(2)
        return names.get(match.group(1), match.group(1))

    with open(path, errors="replace") as handle:
        for line in handle:
            if COST_LINE.match(line):
                fields = line.split()
                cost = int(fields[-1]) if len(fields) > 1 else 0
                if after_calls:
                    after_calls = False  # the inclusive cost of the call just counted
                elif function is not None:
                    self_cost[function] = self_cost.get(function, 0) + cost
                continue
            if line.startswith("fn="):
                function = name(line[3:].strip())
            elif line.startswith("cfn="):
                callee = name(line[4:].strip())
            elif line.startswith("calls="):
                calls[callee] = calls.get(callee, 0) + int(line[6:].split()[0])
                after_calls = True
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return total or sum(self_cost.values()), self_cost, calls


def counters(total, calls):
    def summed(group):
        return sum(count for function, count in calls.items() if function in group)

    return {"instructions": total, "allocations": summed(ALLOCATORS), "frees": summed(FREES),
            "swift objects": summed(SWIFT_OBJECTS), "retains+releases": summed(REFCOUNTS)}


def debugless_copy(binary, folder):
    """A copy of `binary` without DWARF (valgrind 3.19 cannot read the Swift toolchain's)."""
    copy = os.path.join(folder, "phototag-nodebug")
    subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
    return copy


# The same hash seed in every run, so that the same binary counts the same instructions.
DETERMINISTIC = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")


def callgrind_run(binary, folder, output):
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", binary, "scan", "--jobs", "1",
                    "--format", "ndjson", "."], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True, env=DETERMINISTIC)
    return parse_callgrind(output)


def per_extra(small, large, extra):
    """What one more file or point costs: the difference of two callgrind runs (each `(total, self
    instructions by function, calls)` as parse_callgrind gives) over `extra` more of them; the
    counters, and the self instructions by function."""
    (small_total, small_self, small_calls), (large_total, large_self, large_calls) = small, large
    before, after = counters(small_total, small_calls), counters(large_total, large_calls)
    values = {key: (after[key] - before[key]) / extra for key in after}
    functions = {name: (large_self.get(name, 0) - small_self.get(name, 0)) / extra
                 for name in set(large_self) | set(small_self)}
    return values, functions


def per_file(binary, cache, keep=None, small_sets=4, large_sets=40):
    """The callgrind counts of one more file (see the module's doc): a dict of per-file values,
    the two file counts, and the per-file self instructions of every function. Raises
    RuntimeError when valgrind or the corpus is missing (the message says which)."""
    if not shutil.which("valgrind"):
        raise RuntimeError("valgrind is not installed (apt-get install valgrind)")
    folder, photos = realphotos.corpus_photos()
    if folder is None:
        raise RuntimeError(photos)
    small_count, large_count = small_sets * len(photos), large_sets * len(photos)
    small, _ = realphotos.links(cache, small_count)
    large, _ = realphotos.links(cache, large_count)
    with tempfile.TemporaryDirectory() as scratch:
        copy = debugless_copy(binary, scratch)
        small_total, small_self, small_calls = callgrind_run(copy, small, os.path.join(scratch, "small.out"))
        large_out = os.path.join(scratch, "large.out")
        large_total, large_self, large_calls = callgrind_run(copy, large, large_out)
        if keep:
            os.makedirs(os.path.dirname(keep), exist_ok=True)
            shutil.copyfile(large_out, keep)
    values, functions = per_extra((small_total, small_self, small_calls), (large_total, large_self, large_calls),
                                  large_count - small_count)
    return values, (small_count, large_count), functions


def geocode_per_point(binary, cache, keep=None, small=20_000, large=200_000):
    """The callgrind counts of one more point of `phototag geocode --format ndjson` (see the
    module's doc): per-point values, the two point counts, per-point self instructions."""
    if not shutil.which("valgrind"):
        raise RuntimeError("valgrind is not installed (apt-get install valgrind)")
    points = corpus.cached_points(cache, 1_000_000, 1)
    with open(points) as handle:
        lines = handle.readlines()[:large]
    with tempfile.TemporaryDirectory() as scratch:
        copy = debugless_copy(binary, scratch)
        results = []
        for count in (small, large):
            path = os.path.join(scratch, f"points-{count}.txt")
            with open(path, "w") as handle:
                handle.writelines(lines[:count])
            output = os.path.join(scratch, f"geocode-{count}.out")
            with open(path) as stdin:
                # Exit status 1: some points (at sea, far from any place) have no place.
                run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", copy,
                                      "geocode", "--format", "ndjson"], stdin=stdin, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, env=DETERMINISTIC)
                if run.returncode not in (0, 1):
                    raise RuntimeError(f"phototag geocode under callgrind exited with {run.returncode}")
            results.append(parse_callgrind(output))
        if keep:
            os.makedirs(os.path.dirname(keep), exist_ok=True)
            shutil.copyfile(output, keep)
    values, functions = per_extra(results[0], results[1], large - small)
    return values, (small, large), functions


def demangled(names):
    tool = shutil.which("swift-demangle") or (
        "/opt/swift/usr/bin/swift-demangle" if os.path.exists("/opt/swift/usr/bin/swift-demangle") else None)
    if not tool or not names:
        return names
    result = subprocess.run([tool, "--simplified"], input="\n".join(names), capture_output=True, text=True)
    lines = result.stdout.splitlines()
    return lines if len(lines) == len(names) else names


def short(name, width=110):
    return name if len(name) <= width else name[:width - 3] + "..."


def report_callgrind(values, counts, functions, top, what="phototag scan --jobs 1 --format ndjson", unit="file",
                     items="files of real photos"):
    lines = [f"callgrind, {what}, {counts[1]:,} minus {counts[0]:,} {items} (per {unit}):"]
    for key, value in values.items():
        lines.append(f"  {key + '/' + unit:24} {value:>12,.1f}")
    ranked = sorted(functions.items(), key=lambda item: -item[1])[:top]
    names = demangled([name for name, _ in ranked])
    total = values["instructions"]
    lines.append(f"\ntop {top} functions by self instructions per {unit}:")
    for (name, cost), readable in zip(ranked, names):
        lines.append(f"  {cost:>10,.0f} {cost / total:>6.1%}  {short(readable)}")
    return "\n".join(lines)


def perf_profile(binary, cache, top, keep):
    if not shutil.which("perf"):
        return "perf: not installed (apt-get install linux-perf)"
    folder, _ = realphotos.links(cache, 20000)
    if folder is None:
        return f"perf: skipped: {_}"
    binary = os.path.abspath(binary)
    subprocess.run(["perf", "record", "-q", "-F", "4999", "-e", "cpu-clock", "-g", "-o", keep, "--", binary, "scan",
                    "--format", "ndjson", "."], cwd=folder, stdout=subprocess.DEVNULL, check=True)
    report = subprocess.run(["perf", "report", "-i", keep, "--stdio", "--no-children", "--sort", "symbol", "-g",
                             "none", "--percent-limit", "0.5"], capture_output=True, text=True)
    rows = []
    for line in report.stdout.splitlines():
        # "  6.12%  [.] swift_release      -  -": the share, user [.] or kernel [k], the symbol.
        match = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+(?: \S+)*)", line)
        if match:
            rows.append((match.group(1), match.group(2).strip()))
    rows = rows[:top]
    names = demangled([name for _, name in rows])
    lines = [f"perf (cpu-clock), phototag scan --format ndjson of 20,000 real-photo links, every core; top {top} "
             f"symbols by self time:"]
    lines += [f"  {share:>6}%  {short(name)}" for (share, _), name in zip(rows, names)]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "phototag"))
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    parser.add_argument("--perf", action="store_true", help="also a perf profile of a 20,000-file scan")
    parser.add_argument("--geocode", action="store_true", help="also callgrind counts per point of `geocode`")
    parser.add_argument("--cache", default=os.environ.get("PHOTOTAG_BENCH_CACHE", os.path.join(HERE, ".cache")))
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    if not os.path.exists(args.binary):
        sys.exit(f"profile: {args.binary} is missing; `make build` builds it")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    profiles = os.path.join(HERE, "results", "profiles")
    try:
        values, counts, functions = per_file(args.binary, args.cache, keep=os.path.join(profiles, f"{stamp}-callgrind.out"))
        print(report_callgrind(values, counts, functions, args.top))
        print(f"(callgrind file: {os.path.relpath(os.path.join(profiles, stamp + '-callgrind.out'), ROOT)})")
    except RuntimeError as error:
        print(f"callgrind: skipped: {error}")
    if args.geocode:
        print()
        try:
            keep = os.path.join(profiles, f"{stamp}-geocode-callgrind.out")
            values, counts, functions = geocode_per_point(args.binary, args.cache, keep=keep)
            print(report_callgrind(values, counts, functions, args.top, what="phototag geocode --format ndjson",
                                   unit="point", items="random points"))
            print(f"(callgrind file: {os.path.relpath(keep, ROOT)})")
        except RuntimeError as error:
            print(f"callgrind geocode: skipped: {error}")
    if args.perf:
        os.makedirs(profiles, exist_ok=True)
        print()
        print(perf_profile(args.binary, args.cache, args.top, os.path.join(profiles, f"{stamp}-perf.data")))


if __name__ == "__main__":
    main()
