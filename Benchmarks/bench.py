#!/usr/bin/env python3
"""phototag's benchmark: measures phototag and, where installed, its peers, side by side.

Run it with `make bench` (which builds the release binary the way `make install` does first).
Every timing is a fresh process, repeated; the table shows median (min-max) wall time and the
peak RSS of one run, and ratios against phototag. Absolute times on a shared 2-core machine are
noise; the ratios are what to compare. Results also go to Benchmarks/results/<timestamp>.txt.

Sections:
  locate   cold `phototag locate` of one photo, place lookup included
  queries  in-process nearest-place queries per second (Benchmarks/PlaceQueries)
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release")


def timed_runs(command, runs, stdin_path=None):
    """Wall times in ms of `runs` fresh processes (output discarded), and one run's peak RSS in KiB."""
    times = []
    for _ in range(runs):
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        start = time.perf_counter_ns()
        result = subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter_ns() - start) / 1e6)
        if stdin_path:
            stdin.close()
        if result.returncode not in (0, 1):
            raise RuntimeError(f"{command[0]} exited with {result.returncode}")
    return times, peak_rss(command, stdin_path)


def peak_rss(command, stdin_path=None):
    """Peak resident set size in KiB, from GNU time's %M (None when /usr/bin/time is missing)."""
    if not os.path.exists("/usr/bin/time"):
        return None
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdin=stdin,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if stdin_path:
        stdin.close()
    try:
        return int(result.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


class Table:
    def __init__(self, title):
        self.title = title
        self.rows = []

    def add(self, name, times, rss, base=None):
        median = statistics.median(times)
        self.rows.append((name, median, min(times), max(times), rss, base))
        return median

    def render(self):
        lines = [f"\n## {self.title}", f"{'':34} {'median ms':>10} {'(min-max)':>17} {'peak RSS':>10} {'vs phototag':>12}"]
        reference = self.rows[0][1] if self.rows else None
        for name, median, low, high, rss, _ in self.rows:
            ratio = f"{median / reference:.1f}x" if reference and name != self.rows[0][0] else ""
            memory = f"{rss / 1024:.1f} MB" if rss else "?"
            lines.append(f"{name:34} {median:10.2f} {f'({low:.2f}-{high:.2f})':>17} {memory:>10} {ratio:>12}")
        return "\n".join(lines)


def bench_locate(runs, out):
    photo = os.path.join(ROOT, "Fixtures", "photos", "ne-little-endian.jpg")
    table = Table(f"locate: one photo, fresh process, {runs} runs")
    table.add("phototag locate (with place)", *timed_runs([os.path.join(BIN, "phototag"), "locate", photo], runs))
    table.add("floor: /bin/true", *timed_runs(["/bin/true"], runs))
    out(table.render())


def bench_queries(count, out):
    result = subprocess.run([os.path.join(BIN, "place-queries"), str(count)], capture_output=True, text=True, check=True)
    out(f"\n## queries: nearest place in-process, one core\n{result.stdout.rstrip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=31, help="fresh-process runs per timing (default 31)")
    parser.add_argument("--queries", type=int, default=1_000_000, help="in-process queries (default 1,000,000)")
    parser.add_argument("sections", nargs="*", default=["locate", "queries"])
    args = parser.parse_args()

    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = os.path.join(ROOT, "Benchmarks", "results", f"{stamp}.txt")
    lines = []

    def out(text):
        print(text, flush=True)
        lines.append(text)

    out(f"# phototag benchmark {stamp}: {os.cpu_count()} CPUs, {os.uname().machine}")
    if "locate" in args.sections:
        bench_locate(args.runs, out)
    if "queries" in args.sections:
        bench_queries(args.queries, out)
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"\nresults written to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
