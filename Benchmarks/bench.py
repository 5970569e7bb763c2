#!/usr/bin/env python3
"""phototag's benchmark: phototag and, where installed, its peers, side by side, in one run.

Run it with `make bench` (which first builds the release binary the way `make install` does);
`make bench-peers` installs the peers (ExifTool, Exiv2, GNU time, Python's reverse_geocoder). A
missing peer is reported as missing, never an error. See Benchmarks/README.md.

Every timing is a whole fresh process, started by Benchmarks/runner.c (fork + exec + wait4, the
way GNU time does it), with its output going to /dev/null; the same runs give the peak RSS
(ru_maxrss, what `/usr/bin/time -f %M` prints; the largest of the runs). Tables show the median
(min-max) wall time over the runs and ratios: "vs phototag" is this row's median over
phototag's (3.0x: three times phototag's time), "vs floor" is this row's median over the 64 KiB
floor's. Results also go to Benchmarks/results/<timestamp>.txt.

Sections (all by default, in this order):
  tiny     cold `phototag locate` of the tiny fixture photo, against /bin/true
  locate   cold `phototag locate` of one ~4 MB camera-like JPEG with its place, against
           `exiftool -n -json`, `exiv2 -g Exif.GPSInfo -Pkv pr` and the 64 KiB read floor
  scan     `phototag scan` of 2,000 camera-like JPEGs (generated once, cached), warm page cache,
           against `exiftool -r -n -json`, exiv2 over the same files and the 64 KiB floor
  geocode  `phototag geocode --format ndjson` of 1,000,000 random points on stdin, against
           Python's reverse_geocoder mode 1 and mode 2 on the same points (whole processes)
  queries  in-process nearest-place queries per second (Benchmarks/PlaceQueries)
  real     `phototag scan` of 20,000 hard links to the real valid-GPS camera JPEGs of the shared
           dev corpus (Benchmarks/realphotos.py), warm page cache, against the 64 KiB floor on one
           thread and on 32, and ExifTool and Exiv2 on the first 1,000 of them
  cold     the same scan of 8,000 distinct 200 KB photo heads with the page cache dropped before
           every run (root only), against the floor on one thread and on 32
  fuse     the same scan of 1,000 links through a FUSE passthrough that answers every open and
           read after 2 ms (Benchmarks/latencyfs.c, a stand-in for a NAS), against the 32-thread
           floor, ExifTool and Exiv2 on the same mount
  alloc    instructions, allocations and Swift objects per file of the real-photo scan, counted
           by callgrind (Benchmarks/profile_scan.py)
  videos   `phototag scan` of 2,000 phone-like videos (Benchmarks/videos.py: a small real moov
           after a sparse 0.1-6 GB mdat), against `exiftool -r -n -json`; with strace installed,
           also the reads and bytes phototag reads per video
  memory   peak RSS of `phototag scan` over 1,000,000 links to the real photos, against 100,000
  tracks   `phototag locate --track` of a generated 1.5 GB Google Records.json (Benchmarks/tracks.py;
           150 MB with --quick) and one photo, against `exiftool -geotag` on the same file and
           photo; then 100,000 instants placed on 10M fixes in-process (Benchmarks/TrackQueries)
Then the issue's targets, each with the measured value and PASS or MISS.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, ".build", "release")
PHOTOTAG = os.path.join(BIN, "phototag")  # replaced by its copy in the cache (see snapshot())
QUERIES = os.path.join(BIN, "place-queries")
TRACK_QUERIES = os.path.join(BIN, "track-queries")
sys.path.insert(0, HERE)
import corpus  # noqa: E402  (Benchmarks/corpus.py)
import profile_scan  # noqa: E402  (Benchmarks/profile_scan.py)
import realphotos  # noqa: E402  (Benchmarks/realphotos.py)
import tracks  # noqa: E402  (Benchmarks/tracks.py)
import videos  # noqa: E402  (Benchmarks/videos.py)

SECTIONS = ["tiny", "locate", "scan", "real", "cold", "fuse", "alloc", "geocode", "queries", "videos", "memory",
            "tracks", "tag"]
# The reader threads of the multi-threaded floor: more reads in flight than any disk queue or
# network share needs to be busy, and than phototag's default number of workers on most machines.
FLOOR_THREADS = 32


# ---------------------------------------------------------------------------------------------
# Measuring


class Tools:
    """The compiled helpers (runner, floor, and latencyfs where libfuse3 is installed), built with
    `cc -O2` into the cache when their source changed."""

    def __init__(self, cache):
        self.dir = os.path.join(cache, "bin")
        os.makedirs(self.dir, exist_ok=True)
        compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
        if not compiler:
            sys.exit("bench: a C compiler (cc) is needed for Benchmarks/runner.c and Benchmarks/floor.c")
        self.compiler = compiler
        self.runner = self.build("runner")
        self.floor = self.build("floor", ["-pthread"])
        self._latencyfs = None

    def build(self, name, flags=()):
        source = os.path.join(HERE, f"{name}.c")
        target = os.path.join(self.dir, name)
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source):
            subprocess.run([self.compiler, "-O2", "-o", target, source] + list(flags), check=True)
        return target

    def latencyfs(self):
        """The FUSE passthrough with injected latency: its path, or (None, why it cannot be built)."""
        if self._latencyfs is None:
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", "fuse3"], capture_output=True, text=True)
            if flags.returncode != 0:
                self._latencyfs = (None, "libfuse3 is not installed (`make bench-peers` installs fuse3 and libfuse3-dev)")
            else:
                try:
                    self._latencyfs = (self.build("latencyfs", flags.stdout.split()), None)
                except subprocess.CalledProcessError as error:
                    self._latencyfs = (None, f"Benchmarks/latencyfs.c did not compile ({error})")
        return self._latencyfs


class Row:
    def __init__(self, name, runs=0, times=None, rss=None, missing=None, count=None, note=""):
        self.name, self.runs, self.times, self.rss, self.missing, self.count, self.note = (
            name, runs, times or [], rss, missing, count, note)

    @property
    def median(self):
        return statistics.median(self.times) if self.times else None


def measure(tools, name, command, runs, stdin=None, stderr=None, cwd=None, ok=(0, 1), count=None, note="", warmup=1):
    """`runs` fresh processes of `command`, after `warmup` untimed ones (which bring what it reads
    into the page cache); a Row with wall times in ms and the largest peak RSS of the timed runs."""
    result = subprocess.run([tools.runner, str(warmup + runs), stdin or "-", stderr or "-", "--"] + command,
                            capture_output=True, text=True, cwd=cwd)
    if result.returncode != 0:
        raise RuntimeError(f"runner failed: {result.stderr.strip()}")
    times, rss = [], []
    for index, line in enumerate(result.stdout.splitlines()):
        wall, peak, status = (int(field) for field in line.split())
        if status not in ok:
            raise RuntimeError(f"{' '.join(command[:4])}... exited with {status}")
        if index >= warmup:
            times.append(wall / 1e6)
            rss.append(peak)
    return Row(name, runs, times, max(rss), count=count, note=note)


class CpuWatch:
    """How busy the rest of the machine was while a section ran: the CPU time /proc/stat counts
    for everyone (steal included), less this script's and its children's own."""

    def __init__(self):
        self.start = self.sample()

    @staticmethod
    def sample():
        try:
            with open("/proc/stat") as handle:
                values = [int(v) for v in handle.readline().split()[1:9]]
        except (OSError, ValueError):
            return None
        busy = (sum(values[0:3]) + sum(values[5:8])) / os.sysconf("SC_CLK_TCK")  # user nice system irq softirq steal
        own = os.times()
        return busy, own.user + own.system + own.children_user + own.children_system, time.monotonic()

    def others(self):
        """The fraction of all CPUs that other processes used since the start (None if unknown)."""
        end = self.sample()
        if not self.start or not end or end[2] - self.start[2] < 0.2:
            return None
        other = (end[0] - self.start[0]) - (end[1] - self.start[1])
        return max(0.0, other / ((end[2] - self.start[2]) * (os.cpu_count() or 1)))

    def report(self, busy):
        share = self.others()
        if share is None:
            return ""
        busy.append(share)
        text = f"(other processes used {share:.0%} of the CPUs meanwhile)"
        if share > 0.10:
            text += " WARNING: the machine was busy; these timings are not reliable"
        return text


def missing(name, what):
    return Row(name, missing=f"missing ({what}; `make bench-peers` installs it)")


def have_reverse_geocoder():
    return subprocess.run([sys.executable, "-c", "import reverse_geocoder"], capture_output=True).returncode == 0


# ---------------------------------------------------------------------------------------------
# Reporting


def fmt_ms(value):
    return f"{value:.0f}" if value >= 1000 else f"{value:.1f}" if value >= 100 else f"{value:.2f}"


def fmt_rate(value):
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value:,.0f}"


def relative(row, other):
    """`row`'s median over `other`'s; per item when both count items and the counts differ (a slow
    peer timed on the first 1,000 files of a larger folder)."""
    if row.count and other.count and row.count != other.count:
        return (row.median / row.count) / (other.median / other.count)
    return row.median / other.median


def render(title, rows, unit=None, floor=None):
    """A table: rows[0] is phototag (the reference of "vs phototag"); `unit` names the rate column
    (items per second, for rows with a count); `floor` is the row that "vs floor" divides by.
    Rows over fewer items than phototag's are compared per item."""
    header = f"{'':46} {'runs':>4} {'median ms':>10} {'(min-max)':>19}"
    if unit:
        header += f" {unit:>12}"
    header += f" {'peak RSS':>10} {'vs phototag':>11}"
    if floor:
        header += f" {'vs floor':>9}"
    lines = [f"\n## {title}", header]
    for row in rows:
        if row.missing:
            lines.append(f"{row.name:46} {row.missing}")
            continue
        text = f"{row.name:46} {row.runs:>4} {fmt_ms(row.median):>10} " \
               f"{'(' + fmt_ms(min(row.times)) + '-' + fmt_ms(max(row.times)) + ')':>19}"
        if unit:
            text += f" {fmt_rate(row.count / (row.median / 1000)) if row.count else '':>12}"
        text += f" {row.rss / 1024:>7.1f} MB" if row.rss else f" {'?':>10}"
        text += f" {'' if row is rows[0] else f'{relative(row, rows[0]):.1f}x':>11}"
        if floor:
            text += f" {relative(row, floor):>8.2f}x" if floor.median else ""
        lines.append(text)
    for row in rows:
        if row.note and not row.missing:
            lines.append(f"  {row.name.split(' (')[0]}: {row.note}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Sections


def bench_tiny(tools, plan, out, results):
    photo = os.path.join(ROOT, "Fixtures", "photos", "ne-little-endian.jpg")
    runs = plan["fast"]
    rows = [measure(tools, "phototag locate (with place)", [PHOTOTAG, "locate", photo], runs),
            measure(tools, "floor: /bin/true", ["/bin/true"], runs)]
    out(render(f"tiny: locate the {os.path.getsize(photo)}-byte fixture photo, fresh process", rows))
    results["tiny"] = rows


def bench_locate(tools, plan, photos, manifest, out, results):
    entry = next(p for p in manifest["photos"] if p["position"] and p["size"] >= 3_500_000)
    photo = os.path.join(photos, entry["file"])
    runs, slow = plan["fast"], plan["exiftool-one"]
    rows = [measure(tools, "phototag locate (with place)", [PHOTOTAG, "locate", photo], runs)]
    if shutil.which("exiftool"):
        rows.append(measure(tools, "exiftool -n -json (no place)", ["exiftool", "-n", "-json", photo], slow))
        rows.append(measure(tools, "exiftool -fast2 -n -json -GPS:all (no place)",
                            ["exiftool", "-fast2", "-n", "-json", "-GPS:all", photo], slow))
    else:
        rows.append(missing("exiftool -n -json (no place)", "libimage-exiftool-perl"))
    if shutil.which("exiv2"):
        rows.append(measure(tools, "exiv2 -g Exif.GPSInfo -Pkv pr (no place)",
                            ["exiv2", "-g", "Exif.GPSInfo", "-Pkv", "pr", photo], runs))
    else:
        rows.append(missing("exiv2 -g Exif.GPSInfo -Pkv pr", "exiv2"))
    floor = measure(tools, "floor: read 64 KiB (Benchmarks/floor.c)", [tools.floor, photo], runs)
    rows.append(floor)
    rows.append(measure(tools, "floor: head -c 65536 > /dev/null", ["head", "-c", "65536", photo], runs))
    out(render(f"locate: one camera-like photo ({entry['size'] / 1e6:.1f} MB, {entry['make']}, "
               f"APP1 {entry['app1'] / 1024:.0f} KiB), fresh process", rows, floor=floor))
    results["locate"] = rows


def check_scan(tools, photos, manifest, out):
    """Untimed runs that check the inputs: phototag and the floor see every photo, phototag reads
    every position the generator wrote, and Exiv2 gets through every photo. Returns a note for the
    exiv2 row when it did not."""
    expected = {p["file"]: p["position"] for p in manifest["photos"]}
    result = subprocess.run([PHOTOTAG, "scan", "--format", "ndjson", "."], cwd=photos, capture_output=True, text=True)
    records = [json.loads(line) for line in result.stdout.splitlines() if line]
    located = 0
    wrong = []
    for record in records:
        name = os.path.relpath(record["file"], ".")
        want = expected.get(name)
        if record["status"] == "located":
            located += 1
            got = (record["gps"]["latitude"], record["gps"]["longitude"])
            if not want or abs(got[0] - want[0]) > 1e-5 or abs(got[1] - want[1]) > 1e-5:
                wrong.append(name)
        elif want:
            wrong.append(name)
    with_gps = sum(1 for p in expected.values() if p)
    floor = subprocess.run([tools.floor, "."], cwd=photos, capture_output=True, text=True).stdout.split()
    out(f"check: phototag scan gave {len(records)} records, {located} located "
        f"(the generator wrote {len(expected)} photos, {with_gps} with GPS)"
        f"{', MISMATCHES: ' + ', '.join(wrong[:5]) if wrong else ', all positions as written'}; "
        f"floor read {floor[1]} files, {int(floor[3]) / 1e6:.1f} MB")
    exiv2_note = ""
    if shutil.which("exiv2"):
        # Exiv2 stops at the first photo it throws on: make sure it got through all of them.
        result = subprocess.run(["exiv2", "-g", "Exif.GPSInfo", "-Pkv", "pr"] + sorted(expected), cwd=photos,
                                capture_output=True, text=True, errors="replace")
        seen = {line.split()[0] for line in result.stdout.splitlines() if " Exif.GPSInfo.GPSLatitude " in line}
        out(f"check: exiv2 printed GPSLatitude for {len(seen)} photos")
        if len(seen) != with_gps:
            problem = result.stderr.strip().splitlines()[-1:] or ["no message"]
            exiv2_note = f"INCOMPLETE: it printed positions for {len(seen)} of {with_gps} photos ({problem[0]})"
    return exiv2_note


def bench_scan(tools, plan, photos, manifest, out, results):
    count = len(manifest["photos"])
    files = sorted(p["file"] for p in manifest["photos"])
    # The check's runs read every photo's head, and each timed command gets one untimed warm-up run
    # (except ExifTool): the heads are in the page cache. (Reading the whole 5.8 GB first would not
    # help: on a machine whose host reclaims cold page cache, most of it would be gone again.)
    out("")
    exiv2_note = check_scan(tools, photos, manifest, out)
    runs = plan["scan"]
    rows = [measure(tools, "phototag scan --format ndjson (with place)", [PHOTOTAG, "scan", "--format", "ndjson", "."],
                    runs, cwd=photos, count=count, ok=(0,))]
    floor = measure(tools, "floor: 64 KiB of each, 1 process (floor.c)", [tools.floor, "."], runs, cwd=photos,
                    count=count, ok=(0,))
    rows.append(floor)
    if shutil.which("exiftool"):
        # No warm-up run: ExifTool spends ~13 ms of CPU a photo, page-cache misses are noise to it.
        rows.append(measure(tools, "exiftool -r -n -json (no place)", ["exiftool", "-r", "-n", "-json", "."],
                            plan["exiftool-scan"], cwd=photos, count=count, warmup=0))
        if plan["exiftool-fast2"]:
            rows.append(measure(tools, "exiftool -r -fast2 -n -json -GPS:all",
                                ["exiftool", "-r", "-fast2", "-n", "-json", "-GPS:all", "."],
                                plan["exiftool-fast2"], cwd=photos, count=count, warmup=0))
    else:
        rows.append(missing("exiftool -r -n -json", "libimage-exiftool-perl"))
    if shutil.which("exiv2"):
        # One process over every file (exit status 1 when some photo has no GPS tag to print).
        rows.append(measure(tools, "exiv2 -g Exif.GPSInfo -Pkv pr FILES (no place)",
                            ["exiv2", "-g", "Exif.GPSInfo", "-Pkv", "pr"] + files, plan["exiv2-scan"], cwd=photos,
                            count=count, note=exiv2_note))
    else:
        rows.append(missing("exiv2 -g Exif.GPSInfo -Pkv pr FILES", "exiv2"))
    sizes = sorted(p["size"] for p in manifest["photos"])
    app1 = sorted(p["app1"] for p in manifest["photos"])
    large = sum(1 for s in sizes if s >= 3_000_000)
    out(render(f"scan: {count} camera-like JPEGs ({large} of 3-5 MB, {count - large} of 80-600 KB; "
               f"APP1 {app1[0] / 1024:.0f}-{app1[-1] / 1024:.0f} KiB, median {statistics.median(app1) / 1024:.0f}), "
               f"warm page cache, {os.cpu_count()} cores", rows, unit="files/s", floor=floor))
    results["scan"] = rows


def bench_videos(tools, plan, folder, manifest, out, results):
    """`phototag scan` of the generated videos: checked (every position as written), measured
    against ExifTool, and traced for the reads per video."""
    count = len(manifest["videos"])
    expected = {v["file"]: v["position"] for v in manifest["videos"]}
    result = subprocess.run([PHOTOTAG, "scan", "--no-place", "--format", "ndjson", "."], cwd=folder,
                            capture_output=True, text=True)
    records = [json.loads(line) for line in result.stdout.splitlines() if line]
    wrong = [r["file"] for r in records if r["status"] != "located" or max(
        abs(r["gps"]["latitude"] - expected[os.path.relpath(r["file"], ".")][0]),
        abs(r["gps"]["longitude"] - expected[os.path.relpath(r["file"], ".")][1])) > 1e-9]
    apparent = sum(v["size"] for v in manifest["videos"])
    out("")
    out(f"check: phototag scan gave {len(records)} records for {count} videos "
        f"({apparent / 1e12:.1f} TB apparent, moov {min(v['moov'] for v in manifest['videos']) // 1024}-"
        f"{max(v['moov'] for v in manifest['videos']) // 1024} KiB at the end)"
        f"{', MISMATCHES: ' + ', '.join(wrong[:5]) if wrong else ', every position as written'}")
    strace = shutil.which("strace")
    if strace:
        trace = os.path.join(os.path.dirname(folder), "strace.txt")
        subprocess.run([strace, "-f", "-e", "trace=pread64", "-o", trace, PHOTOTAG, "scan", "--no-place", "--format",
                        "ndjson", "."], cwd=folder, capture_output=True, check=False)
        calls = total = 0
        with open(trace) as handle:
            for line in handle:
                # A call split across threads is "pread64(... <unfinished ...>", then
                # "<... pread64 resumed>... = N": the line with the result counts it once.
                result = line.rstrip().rsplit(" = ", 1)
                if "pread64" in line and len(result) == 2 and result[1].isdigit():
                    calls += 1
                    total += int(result[1])
        out(f"reads (strace, whole scan): {calls / count:.1f} pread64 calls and {total / count / 1024:.1f} KiB "
            f"per video ({total / 1e6:.1f} MB for {count} videos)")
    else:
        out("reads: strace is not installed (apt-get install strace); reads per video not measured")
    runs = plan["scan"]
    rows = [measure(tools, "phototag scan --format ndjson (with place)", [PHOTOTAG, "scan", "--format", "ndjson", "."],
                    runs, cwd=folder, count=count, ok=(0,))]
    if shutil.which("exiftool"):
        rows.append(measure(tools, "exiftool -r -n -json (no place)", ["exiftool", "-r", "-n", "-json", "."],
                            plan["exiftool-scan"], cwd=folder, count=count, warmup=0))
    else:
        rows.append(missing("exiftool -r -n -json", "libimage-exiftool-perl"))
    out(render(f"videos: {count} phone-like videos (.MOV keys and .mp4 ©xyz, moov after a sparse mdat), "
               f"warm page cache, {os.cpu_count()} cores", rows, unit="files/s"))
    results["videos"] = rows

def check_real(folder, manifest, out, what, cwd_label="."):
    """An untimed `phototag scan` of a real-photo folder: every file located at its corpus photo's
    position. Prints the check line."""
    expected = {path: (lat, lon) for path, _, lat, lon in realphotos.entries(manifest)}
    result = subprocess.run([PHOTOTAG, "scan", "--format", "ndjson", "."], cwd=folder, capture_output=True, text=True)
    located, wrong = 0, []
    for line in result.stdout.splitlines():
        record = json.loads(line)
        name = os.path.relpath(record["file"], ".")
        want = expected.get(name)
        if record["status"] == "located" and want and max(abs(record["gps"]["latitude"] - want[0]),
                                                          abs(record["gps"]["longitude"] - want[1])) <= 1e-5:
            located += 1
        else:
            wrong.append(name)
    photos = len(manifest["photos"])
    out(f"check: phototag scan of the {what} located {located} of {len(expected)} files "
        f"({photos} distinct corpus photos){', MISMATCHES: ' + ', '.join(wrong[:5]) if wrong else ', every position as the corpus manifest has it'}")


def peers(tools, plan, folder, files, label, runs_exiv2):
    """ExifTool and Exiv2 rows over `files` (paths in `folder`): one process each over them all."""
    rows = []
    if shutil.which("exiftool"):
        rows.append(measure(tools, f"exiftool -n -json ({label}, no place)", ["exiftool", "-n", "-json"] + files,
                            plan["exiftool-scan"], cwd=folder, count=len(files), warmup=0))
    else:
        rows.append(missing("exiftool -n -json", "libimage-exiftool-perl"))
    if shutil.which("exiv2"):
        rows.append(measure(tools, f"exiv2 -g Exif.GPSInfo -Pkv pr ({label})", ["exiv2", "-g", "Exif.GPSInfo", "-Pkv",
                                                                              "pr"] + files,
                            runs_exiv2, cwd=folder, count=len(files), warmup=0))
    else:
        rows.append(missing("exiv2 -g Exif.GPSInfo -Pkv pr", "exiv2"))
    return rows


def progress_line(what):
    return lambda done, total: print(f"\r{what}: {done}/{total}", end="", file=sys.stderr, flush=True)


def bench_real(tools, plan, cache, count, peer_count, out, results):
    """The warm-cache scan of real camera photos: hard links to the dev corpus's valid-GPS JPEGs."""
    folder, manifest = realphotos.links(cache, count, progress=progress_line("linking real photos"))
    if folder is None:
        out(f"\n## real: skipped: {manifest}")
        return
    out("")
    check_real(folder, manifest, out, f"{count:,} links")
    runs = plan["scan"]
    rows = [measure(tools, "phototag scan --format ndjson (with place)", [PHOTOTAG, "scan", "--format", "ndjson", "."],
                    runs, cwd=folder, count=count, ok=(0,))]
    floor = measure(tools, "floor: 64 KiB of each, 1 thread (floor.c)", [tools.floor, "."], runs, cwd=folder,
                    count=count, ok=(0,))
    rows.append(floor)
    rows.append(measure(tools, f"floor: 64 KiB of each, {FLOOR_THREADS} threads", [tools.floor, "-j", str(FLOOR_THREADS),
                                                                                   "."],
                        runs, cwd=folder, count=count, ok=(0,)))
    files = [path for path, _, _, _ in realphotos.entries(manifest)][:peer_count]
    rows += peers(tools, plan, folder, files, f"first {len(files):,}", plan["exiv2-scan"])
    sizes = sorted(os.path.getsize(os.path.join(folder, path)) for path in files[:len(manifest["photos"])])
    out(render(f"real: {count:,} hard links to {len(manifest['photos'])} real camera JPEGs with valid GPS "
               f"({sizes[0] / 1024:.0f} KiB-{sizes[-1] / 1e6:.1f} MB; shared dev corpus), warm page cache, "
               f"{os.cpu_count()} cores; peers per file over the first {len(files):,}", rows, unit="files/s",
               floor=floor))
    results["real"] = rows


def drop_caches():
    """Empties the page cache (and dentries and inodes): `sync; echo 3 > /proc/sys/vm/drop_caches`."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as handle:
        handle.write("3\n")


def cannot_drop_caches():
    """Why the page cache cannot be dropped here, or None when it can."""
    if not sys.platform.startswith("linux"):
        return "dropping the page cache is done through Linux's /proc/sys/vm/drop_caches"
    if os.geteuid() != 0:
        return "not run as root: dropping the page cache (echo 3 > /proc/sys/vm/drop_caches) needs root"
    try:
        drop_caches()
    except OSError as error:
        return f"/proc/sys/vm/drop_caches cannot be written here ({error.strerror})"
    return None


def read_whole(path):
    with open(path, "rb") as handle:
        while handle.read(1 << 20):
            pass


def bench_cold(tools, plan, cache, count, out, results):
    """The scan of distinct photo heads, each run after dropping the page cache."""
    reason = cannot_drop_caches()
    if reason:
        out(f"\n## cold: skipped: {reason}")
        return
    folder, manifest = realphotos.heads(cache, count, progress=progress_line("writing photo heads"))
    if folder is None:
        out(f"\n## cold: skipped: {manifest}")
        return
    out("")
    check_real(folder, manifest, out, f"{count:,} distinct photo heads")
    commands = [("phototag scan --format ndjson (with place)", [PHOTOTAG, "scan", "--format", "ndjson", "."]),
                ("floor: 64 KiB of each, 1 thread (floor.c)", [tools.floor, "."]),
                (f"floor: 64 KiB of each, {FLOOR_THREADS} threads", [tools.floor, "-j", str(FLOOR_THREADS), "."])]
    rows = [Row(name, count=count) for name, _ in commands]
    # Round after round, each command after its own drop; the binaries themselves are read back
    # into the cache right after the drop (a 50 MB static phototag would otherwise be timed
    # loading its own pages).
    for _ in range(plan["cold"]):
        for row, (_, command) in zip(rows, commands):
            drop_caches()
            for binary in (tools.runner, command[0]):
                read_whole(binary)
            timed = measure(tools, row.name, command, 1, cwd=folder, count=count, ok=(0,), warmup=0)
            row.times += timed.times
            row.runs += 1
            row.rss = max(row.rss or 0, timed.rss)
    rows[2], rows[1] = rows[1], rows[2]  # phototag, the 32-thread floor, then the single thread
    out(render(f"cold: {count:,} distinct {realphotos.HEAD_BYTES // 1000} KB photo heads (real camera JPEGs), page "
               f"cache dropped before every run, {os.cpu_count()} cores; vs floor = vs the {FLOOR_THREADS}-thread "
               f"floor", rows, unit="files/s", floor=rows[1]))
    results["cold"] = rows


def bench_fuse(tools, plan, cache, count, latency_ms, peer_count, out, results):
    """The scan through a FUSE passthrough that answers every open and read after `latency_ms`."""
    title = f"\n## fuse: {count:,} real photos through a {latency_ms:g} ms-per-open-and-read FUSE mount"
    if not os.path.exists("/dev/fuse"):
        out(f"{title}: skipped: there is no /dev/fuse (a container without FUSE, or not Linux)")
        return
    if not os.access("/dev/fuse", os.R_OK | os.W_OK):
        out(f"{title}: skipped: /dev/fuse is not usable by this user")
        return
    if not (shutil.which("fusermount3") or os.geteuid() == 0):
        out(f"{title}: skipped: fusermount3 is not installed (`make bench-peers` installs fuse3)")
        return
    binary, why = tools.latencyfs()
    if not binary:
        out(f"{title}: skipped: {why}")
        return
    folder, manifest = realphotos.links(cache, count, progress=progress_line("linking real photos"))
    if folder is None:
        out(f"{title}: skipped: {manifest}")
        return
    mount = tempfile.mkdtemp(prefix="phototag-latencyfs-")
    server = subprocess.Popen([binary, folder, str(int(latency_ms * 1000)), mount, "-f", "-o", "max_threads=128"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 10
        while not os.path.ismount(mount) and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if not os.path.ismount(mount):
            server.kill()
            problem = (server.communicate()[1] or "it did not mount within 10 s").strip().splitlines()
            out(f"{title}: skipped: Benchmarks/latencyfs.c could not mount ({problem[-1] if problem else '?'})")
            return
        out("")
        check_real(mount, manifest, out, f"{count:,} links through the FUSE mount")
        rows = [measure(tools, "phototag scan --format ndjson (with place)",
                        [PHOTOTAG, "scan", "--format", "ndjson", "."], plan["fuse"], cwd=mount, count=count, ok=(0,),
                        warmup=0)]
        floor = measure(tools, f"floor: 64 KiB of each, {FLOOR_THREADS} threads",
                        [tools.floor, "-j", str(FLOOR_THREADS), "."], plan["fuse"], cwd=mount, count=count, ok=(0,),
                        warmup=0)
        rows.append(floor)
        files = [path for path, _, _, _ in realphotos.entries(manifest)][:peer_count]
        rows.append(measure(tools, f"floor: 64 KiB of each, 1 thread (first {len(files)})", [tools.floor] + files,
                            plan["fuse"], cwd=mount, count=len(files), ok=(0,), warmup=0))
        rows += peers(tools, plan, mount, files, f"first {len(files)}", plan["fuse"])
        out(render(f"fuse: {count:,} links to real camera JPEGs through Benchmarks/latencyfs.c ({latency_ms:g} ms "
                   f"per open and per read, page cache dropped at every open: a stand-in for a NAS), "
                   f"{os.cpu_count()} cores; vs floor = vs the {FLOOR_THREADS}-thread floor; single thread and "
                   f"peers per file over the first {len(files)}", rows, unit="files/s", floor=floor))
        results["fuse"] = rows
    finally:
        if os.path.ismount(mount):
            unmount = ["fusermount3", "-u", mount] if shutil.which("fusermount3") else ["umount", mount]
            subprocess.run(unmount, capture_output=True)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        os.rmdir(mount)


def bench_alloc(cache, out, results):
    """Instructions, allocations and Swift objects per file of the real-photo scan (callgrind)."""
    try:
        values, counts, functions = profile_scan.per_file(PHOTOTAG, cache)
    except (RuntimeError, subprocess.CalledProcessError) as error:
        out(f"\n## alloc: skipped: {error}")
        return
    out(f"\n## alloc: per file of `phototag scan --jobs 1 --format ndjson` of real photos, counted by callgrind")
    out(profile_scan.report_callgrind(values, counts, functions, 12))
    results["alloc"] = values


def bench_memory(tools, cache, count, out, results):
    """Peak RSS of a scan of `count` links against one of a tenth as many."""
    rows = []
    for files in (count // 10, count):
        folder, manifest = realphotos.links(cache, files, progress=progress_line("linking real photos"))
        if folder is None:
            out(f"\n## memory: skipped: {manifest}")
            return
        rows.append(measure(tools, f"phototag scan --format ndjson, {files:,} files",
                            [PHOTOTAG, "scan", "--format", "ndjson", "."], 1, cwd=folder, count=files, ok=(0,),
                            warmup=0))
    rows.reverse()
    out(render(f"memory: peak RSS of one `phototag scan` of {count:,} links to real photos and of {count // 10:,}",
               rows, unit="files/s"))
    results["memory"] = rows


def bench_geocode(tools, plan, points, count, out, results):
    rows = [measure(tools, "phototag geocode --format ndjson", [PHOTOTAG, "geocode", "--format", "ndjson"],
                    plan["geocode"], stdin=points, count=count, ok=(0, 1))]
    # The other record formats on the same points: "vs phototag" is their time over NDJSON's
    # (issue 23 asked for CSV and text within 1.3 times).
    for form in ("csv", "text"):
        rows.append(measure(tools, f"phototag geocode --format {form}", [PHOTOTAG, "geocode", "--format", form],
                            plan["geocode"], stdin=points, count=count, ok=(0, 1)))
    if have_reverse_geocoder():
        for mode in (2, 1):
            log = os.path.join(os.path.dirname(points), f"rg-mode{mode}.log")
            if os.path.exists(log):
                os.remove(log)
            row = measure(tools, f"reverse_geocoder mode {mode} (Python, no output)",
                          [sys.executable, os.path.join(HERE, "rg_geocode.py"), str(mode), points],
                          plan["rg"], stderr=log, count=count, ok=(0,), warmup=0)
            with open(log) as handle:
                phases = [line.strip() for line in handle if line.startswith("import ")]
            if phases:
                row.note = f"seconds, last run: {phases[-1]}"
            rows.append(row)
    else:
        rows.append(missing("reverse_geocoder mode 2", "pip install reverse_geocoder"))
        rows.append(missing("reverse_geocoder mode 1", "pip install reverse_geocoder"))
    out(render(f"geocode: {count:,} random points (uniform on the sphere), whole process; phototag reads them "
               f"on stdin and writes NDJSON (CSV and text too), reverse_geocoder reads the same file and writes nothing",
               rows, unit="points/s"))
    results["geocode"] = rows


def bench_queries(count, out):
    tool = QUERIES
    if not tool or not os.path.exists(tool):
        out("\n## queries: skipped (.build/release/place-queries is not built; `make bench` builds it)")
        return
    result = subprocess.run([tool, str(count)], capture_output=True, text=True, check=True)
    out(f"\n## queries: nearest place in-process, one core\n{result.stdout.rstrip()}")


def bench_tracks(tools, plan, cache, megabytes, out, results):
    """A big Records.json read by `locate --track` (one photo: the time is the reading's), against
    `exiftool -geotag` on the same file and photo; then in-process matching of 100,000 instants
    against 10M fixes (Benchmarks/TrackQueries)."""
    started = time.perf_counter()
    path, entries = tracks.cached_records(cache, megabytes)
    if time.perf_counter() - started > 1:
        out(f"(generated a {megabytes} MB Records.json of {entries:,} entries in {time.perf_counter() - started:.0f} s)")
    size = os.path.getsize(path)
    photo = os.path.join(ROOT, "Fixtures", "photos", "exif-without-gps.jpg")
    rows = [measure(tools, "phototag locate --track Records.json", [PHOTOTAG, "locate", "--format", "ndjson", "--track",
                                                                      path, photo], plan["tracks"], ok=(0,),
                    count=size / 1e6, note="the photo placed on it")]
    exiftool = shutil.which("exiftool")
    if exiftool:
        scratch = tempfile.mkdtemp(prefix="phototag-bench-geotag-")
        copy = os.path.join(scratch, "photo.jpg")
        shutil.copyfile(photo, copy)
        rows.append(measure(tools, "exiftool -geotag Records.json", [exiftool, "-q", "-q", "-overwrite_original",
                                                                     "-geotag", path, "-geotime<${DateTimeOriginal}+01:00",
                                                                     copy], plan["exiftool-tracks"], ok=(0, 1),
                            count=size / 1e6, warmup=0))
        shutil.rmtree(scratch, ignore_errors=True)
    else:
        rows.append(missing("exiftool -geotag Records.json", "apt-get install libimage-exiftool-perl"))
    out(render(f"tracks: a {size / 1e6:,.0f} MB Records.json ({entries:,} entries) read whole, one photo placed on it",
               rows, unit="MB/s"))
    results["tracks"] = rows
    if os.path.exists(TRACK_QUERIES):
        result = subprocess.run([TRACK_QUERIES, "10000000", "100000"], capture_output=True, text=True, check=True)
        out(f"\n## track queries: 100,000 instants against 10M fixes in-process, one core\n{result.stdout.rstrip()}")
        for line in result.stdout.splitlines():
            if line.startswith("placed "):
                results["track-queries"] = float(line.split(" in ")[1].split(" s")[0])
            if line.startswith("built "):
                results["track-bytes"] = float(line.split("about ")[1].split(" bytes")[0])
    else:
        out("\n## track queries: skipped (.build/release/track-queries is not built; `make bench` builds it)")


def bench_tag(tools, plan, cache, count, seed, out, results):
    """`phototag tag` against `phototag scan` over the same COUNT photos (the generated corpus of
    the scan section, copied to a folder of its own: each a file of its own, where hard links
    would be one file read once). Each round, in turn: scan; tag, which writes a new sidecar for
    each photo with a place (a temporary file fsync'd, renamed, the folder fsync'd); scan again,
    now with every sidecar there (it reads them); tag again (reads, compares, writes nothing);
    then the write floor (Benchmarks/writefloor.c: the same safe write of as many files, in C, no
    reading); the sidecars are removed between steps that need it (not timed). An untimed tag at
    the end checks its summary: no sidecar failed, every one unchanged."""
    source, manifest = corpus.cached_photos(cache, count, seed)
    folder = os.path.join(cache, f"tag-photos-n{count}-s{seed}")
    if not os.path.exists(folder):
        shutil.copytree(source, folder + ".tmp")
        os.replace(folder + ".tmp", folder)
    writefloor = tools.build("writefloor")

    def sidecars():
        return [os.path.join(directory, name) for directory, _, names in os.walk(folder) for name in names
                if name.endswith(".xmp")]

    def remove_sidecars():
        for path in sidecars():
            os.unlink(path)

    def timed(command, stdin=None):
        started = time.perf_counter()
        result = subprocess.run(command, cwd=folder, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                text=stdin is not None)
        if result.returncode not in (0, 1, 2):
            raise RuntimeError(f"{' '.join(command[:3])}... exited with {result.returncode}")
        return (time.perf_counter() - started) * 1000

    remove_sidecars()
    steps = [[] for _ in range(5)]
    written = 0
    for round in range(plan["scan"] + 1):
        times = [timed([PHOTOTAG, "scan", "--format", "ndjson", "."]),
                 timed([PHOTOTAG, "tag", "--format", "ndjson", "."])]
        paths = sidecars()
        written = len(paths)
        times.append(timed([PHOTOTAG, "scan", "--format", "ndjson", "."]))
        times.append(timed([PHOTOTAG, "tag", "--format", "ndjson", "."]))
        if round == plan["scan"]:
            check = subprocess.run([PHOTOTAG, "tag", "--format", "ndjson", "--summary-file", "-", "."], cwd=folder,
                                   capture_output=True, text=True)
            summary = json.loads(check.stdout.strip().splitlines()[-1])["sidecars"]
            if summary["failed"] or summary["unchanged"] != written or summary["created"]:
                raise RuntimeError(f"tag's second run: {summary}, {written} sidecars on disk")
        remove_sidecars()
        times.append(timed([writefloor], stdin="\n".join(paths) + "\n"))
        remove_sidecars()
        if round > 0:  # the first round warms the page cache
            for row, value in zip(steps, times):
                row.append(value)
    runs = plan["scan"]
    rows = [Row("phototag scan --format ndjson", runs, steps[0], count=count),
            Row(f"phototag tag: a new sidecar for {written:,} of them", runs, steps[1], count=count),
            Row("phototag scan, every sidecar there", runs, steps[2], count=count),
            Row("phototag tag again: every sidecar there", runs, steps[3], count=count),
            Row(f"floor: {written:,} safe writes, 1 thread (writefloor.c)", runs, steps[4], count=count)]
    out(render(f"tag: {count:,} generated photos (the scan corpus, copied), warm page cache, {os.cpu_count()} cores; "
               f"sidecars written to {filesystem(folder)}", rows, unit="files/s"))
    results["tag"] = rows


def filesystem(path):
    """The type of the file system `path` is on (from /proc/mounts: the longest mount point)."""
    best, kind = "", "an unknown file system"
    try:
        with open("/proc/mounts") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) > 2 and os.path.realpath(path).startswith(fields[1]) and len(fields[1]) > len(best):
                    best, kind = fields[1], fields[2]
    except OSError:
        pass
    return kind


# ---------------------------------------------------------------------------------------------
# Targets


def find(results, section, prefix):
    for row in results.get(section, []):
        if row.name.startswith(prefix):
            return row if not row.missing and row.times else None
    return None


def targets(results, out):
    """The issue's targets, each with what was measured here."""
    lines = ["\n## targets (from the issue)", f"{'target':56} {'measured':>24}  result"]

    def check(label, value, text, passed):
        verdict = "n/a" if value is None else "PASS" if passed else "MISS"
        lines.append(f"{label:56} {text if value is not None else 'not measured':>24}  {verdict}")

    def ratio(section, peer_prefix):
        phototag, peer = find(results, section, "phototag"), find(results, section, peer_prefix)
        return relative(peer, phototag) if phototag and peer else None

    track = find(results, "tracks", "phototag")
    rate = track.count / (track.median / 1000) if track else None
    check("tracks: Records.json read at >= 50 MB/s", rate, f"{rate:,.0f} MB/s" if rate else "", rate and rate >= 50)
    rss = track.rss / 1024 if track and track.rss else None
    check("tracks: peak RSS <= 200 MB reading it", rss, f"{rss:.0f} MB" if rss else "", rss and rss <= 200)
    value = results.get("track-queries")
    check("tracks: 100,000 photos against 10M fixes <= 1 s", value, f"{value:.2f} s" if value is not None else "",
          value is not None and value <= 1)
    value = ratio("tracks", "exiftool -geotag")
    check("tracks: faster than exiftool -geotag", value, f"{value:.1f}x" if value else "", value and value > 1)
    locate = find(results, "locate", "phototag")
    check("locate: median <= 10 ms", locate, f"{locate.median:.2f} ms" if locate else "",
          locate and locate.median <= 10)
    value = ratio("locate", "exiftool -n")
    check("locate: >= 15x faster than exiftool -n -json", value, f"{value:.1f}x" if value else "", value and value >= 15)
    scan = find(results, "scan", "phototag")
    rate = scan.count / (scan.median / 1000) if scan else None
    check("scan: >= 25,000 files/s", rate, f"{rate:,.0f} files/s" if rate else "", rate and rate >= 25_000)
    floor = find(results, "scan", "floor")
    value = scan.median / floor.median if scan and floor else None
    check("scan: <= 2x the 64 KiB floor", value, f"{value:.2f}x floor" if value else "", value and value <= 2)
    value = ratio("scan", "exiftool -r -n")
    check("scan: >= 250x faster than exiftool -r -n -json", value, f"{value:.0f}x" if value else "", value and value >= 250)
    value = ratio("scan", "exiv2")
    check("scan: >= 7x faster than exiv2", value, f"{value:.1f}x" if value else "", value and value >= 7)
    real = find(results, "real", "phototag")
    real_floor = find(results, "real", "floor: 64 KiB of each, 1 thread")
    value = real.median / real_floor.median if real and real_floor else None
    check("real, warm: <= 2.0x the single-thread 64 KiB floor", value, f"{value:.2f}x floor" if value else "",
          value and value <= 2.0)
    cold = find(results, "cold", "phototag")
    cold_floor = find(results, "cold", f"floor: 64 KiB of each, {FLOOR_THREADS}")
    value = cold.median / cold_floor.median if cold and cold_floor else None
    check(f"cold: <= 1.25x the {FLOOR_THREADS}-thread floor", value, f"{value:.2f}x floor" if value else "",
          value and value <= 1.25)
    value = ratio("fuse", "exiftool")
    check("fuse: >= 50x exiftool's files/s", value, f"{value:.0f}x" if value else "", value and value >= 50)
    fuse = find(results, "fuse", "phototag")
    fuse_floor = find(results, "fuse", f"floor: 64 KiB of each, {FLOOR_THREADS}")
    value = fuse.median / fuse_floor.median if fuse and fuse_floor else None
    check(f"fuse: <= 1.5x the {FLOOR_THREADS}-thread floor", value, f"{value:.2f}x floor" if value else "",
          value and value <= 1.5)
    alloc = results.get("alloc")
    value = alloc["allocations"] if alloc else None
    check("alloc: no allocation per file in the steady state", value,
          f"{value:.1f} mallocs/file" if value is not None else "", value is not None and value < 0.5)
    geocode = find(results, "geocode", "phototag")
    seconds = geocode.median / 1000 * 1_000_000 / geocode.count if geocode else None
    label = "geocode: 1M points <= 1.2 s, whole process"
    if geocode and geocode.count != 1_000_000:
        label = f"geocode: 1M points <= 1.2 s (scaled from {geocode.count:,})"
    check(label, seconds, f"{seconds:.2f} s" if seconds else "", seconds and seconds <= 1.2)
    value = ratio("geocode", "reverse_geocoder mode 2")
    check("geocode: >= 4.7x faster than reverse_geocoder mode 2", value, f"{value:.1f}x" if value else "",
          value and value >= 4.7)
    rss = locate.rss / 1024 if locate and locate.rss else None
    check("locate: peak RSS <= 30 MB", rss, f"{rss:.1f} MB" if rss else "", rss and rss <= 30)
    memory = results.get("memory")
    value = memory[0].rss / memory[1].rss if memory and memory[0].rss and memory[1].rss else None
    check(f"memory: peak RSS of a {memory[0].count:,}-file scan flat (<= 1.1x {memory[1].count:,})" if memory
          else "memory: peak RSS of a 1M-file scan flat (<= 1.1x 100k)", value,
          f"{memory[0].rss / 1024:.1f} MB, {value:.2f}x" if value else "", value and value <= 1.1)
    scan = find(results, "tag", "phototag scan --format")
    tag = find(results, "tag", "phototag tag: a new")
    floor = find(results, "tag", "floor:")
    value = tag.median / scan.median if tag and scan else None
    check("tag: a new sidecar for each photo <= 2x scan", value, f"{value:.2f}x scan" if value else "",
          value and value <= 2)
    value = tag.median / (scan.median + floor.median) if tag and scan and floor else None
    check("tag: new sidecars <= scan + the write floor", value, f"{value:.2f}x" if value else "", value and value <= 1)
    scan = find(results, "tag", "phototag scan, every")
    tag = find(results, "tag", "phototag tag again")
    value = tag.median / scan.median if tag and scan else None
    check("tag: photos with sidecars <= 2x scan over them", value, f"{value:.2f}x scan" if value else "",
          value and value <= 2)
    out("\n".join(lines))


# ---------------------------------------------------------------------------------------------


def snapshot(cache, binary=None):
    """Copies the binaries `make bench` just built (or `binary`, for phototag) into the cache and
    measures the copies, so that a build in the same work tree during the run (a plain `swift
    build -c release` writes to the same .build/release/phototag) cannot swap them
    mid-measurement. Returns a line that says what was measured."""
    global PHOTOTAG, QUERIES
    copies = {}
    for name in ("phototag", "place-queries"):
        source = binary if binary and name == "phototag" else os.path.join(BIN, name)
        if os.path.exists(source):
            target = os.path.join(cache, "bin", name)
            shutil.copy2(source, target + ".tmp")
            os.replace(target + ".tmp", target)
            copies[name] = target
    PHOTOTAG, QUERIES = copies["phototag"], copies.get("place-queries")
    built = datetime.datetime.fromtimestamp(os.path.getmtime(PHOTOTAG), datetime.timezone.utc).strftime("%H:%M:%SZ")
    try:
        ldd = subprocess.run(["ldd", PHOTOTAG], capture_output=True, text=True)
        libraries = ldd.stdout + ldd.stderr
        if "libswiftCore" in libraries:
            linkage = ("WARNING: the Swift runtime is linked dynamically, not as `make build` links it "
                       "(was .build/release rebuilt by a plain `swift build -c release`?)")
        elif "not a dynamic executable" in libraries:
            linkage = "a fully static executable, as installed"
        else:
            linkage = "Swift runtime linked statically"
    except OSError:
        linkage = "linkage unknown (no ldd)"
    shown = os.path.relpath(binary, ROOT) if binary else ".build/release/phototag"
    return f"binary: {shown} built at {built}, {os.path.getsize(PHOTOTAG) / 1e6:.1f} MB, {linkage}"


def versions(tools):
    def first_line(command):
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=60)
            return (result.stdout or result.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "missing"

    rg = subprocess.run([sys.executable, "-c", "import importlib.metadata as m; print(m.version('reverse_geocoder'))"],
                        capture_output=True, text=True).stdout.strip() or "missing"
    return [f"phototag: {first_line([PHOTOTAG, '--version'])}",
            f"exiftool {first_line(['exiftool', '-ver'])}, {first_line(['exiv2', '--version'])}, "
            f"reverse_geocoder {rg} (Python {platform.python_version()}), helpers compiled by {tools.compiler} -O2"]


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as handle:
            model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "")
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True, text=True)
    return f"{os.cpu_count()} CPUs {model}, {platform.machine()}, {platform.system()}; commit {commit.stdout.strip() or '?'}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sections", nargs="*", default=SECTIONS, help=f"any of {', '.join(SECTIONS)} (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer runs (11 fast, 3 scan, 1 ExifTool, 1 reverse_geocoder), no -fast2 row: ~1 minute")
    parser.add_argument("--runs", type=int, help="fresh-process runs of the fast commands (default 31, quick 11)")
    parser.add_argument("--photos", type=int, default=2000, help="photos in the scan corpus (default 2000)")
    parser.add_argument("--videos", type=int, default=2000, help="videos in the videos section (default 2000)")
    parser.add_argument("--points", type=int, default=1_000_000, help="points to geocode (default 1,000,000)")
    parser.add_argument("--queries", type=int, default=1_000_000, help="in-process queries (default 1,000,000)")
    parser.add_argument("--tag-files", type=int, default=10000,
                        help="photos phototag tag reads and writes sidecars for in the tag section (default 10,000)")
    parser.add_argument("--real-files", type=int, default=20000,
                        help="links to real photos in the real section (default 20,000)")
    parser.add_argument("--peer-files", type=int, default=1000,
                        help="of those, the first N that ExifTool and Exiv2 read in the real section (default 1,000)")
    parser.add_argument("--cold-files", type=int, default=8000, help="distinct photo heads in the cold section (default 8,000)")
    parser.add_argument("--fuse-files", type=int, default=1000, help="links read through FUSE (default 1,000)")
    parser.add_argument("--fuse-latency-ms", type=float, default=2.0,
                        help="latency of every open and read on the FUSE mount (default 2 ms)")
    parser.add_argument("--fuse-peer-files", type=int, default=100,
                        help="of those, the first N that the single-thread floor, ExifTool and Exiv2 read (default 100)")
    parser.add_argument("--memory-files", type=int, default=1_000_000,
                        help="links scanned in the memory section, against a tenth as many (default 1,000,000)")
    parser.add_argument("--track-mb", type=int, default=1500,
                        help="size of the generated Records.json of the tracks section (default 1500, quick 150)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the photos and points (default 1)")
    parser.add_argument("--binary", help="the phototag to measure (default .build/release/phototag): compare builds")
    parser.add_argument("--cache", default=os.environ.get("PHOTOTAG_BENCH_CACHE", os.path.join(HERE, ".cache")),
                        help="where the generated photos, points and helpers are kept (default Benchmarks/.cache)")
    args = parser.parse_args()
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {', '.join(unknown)}; sections are {', '.join(SECTIONS)}")
    if args.binary:
        args.binary = os.path.abspath(args.binary)
    if not os.path.exists(args.binary or PHOTOTAG):
        sys.exit(f"bench: {args.binary or '.build/release/phototag'} is missing; run `make bench`")

    if args.quick:
        plan = {"fast": 11, "exiftool-one": 5, "scan": 5, "exiftool-scan": 1, "exiftool-fast2": 0, "exiv2-scan": 3,
                "geocode": 3, "rg": 1, "cold": 3, "fuse": 2, "tracks": 1, "exiftool-tracks": 1}
        if "--track-mb" not in " ".join(sys.argv):
            args.track_mb = 150
    else:
        plan = {"fast": 31, "exiftool-one": 11, "scan": 11, "exiftool-scan": 3, "exiftool-fast2": 1, "exiv2-scan": 5,
                "geocode": 5, "rg": 3, "cold": 5, "fuse": 3, "tracks": 3, "exiftool-tracks": 1}
    if args.runs:
        plan["fast"] = args.runs

    began = time.perf_counter()
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = os.path.join(HERE, "results", f"{stamp}.txt")
    lines = []

    def out(text):
        print(text, flush=True)
        lines.append(text)

    tools = Tools(args.cache)
    binary = snapshot(args.cache, args.binary)
    out(f"# phototag benchmark {stamp}{' (quick)' if args.quick else ''}: {machine()}")
    for line in versions(tools) + [binary]:
        out(f"# {line}")
    results = {}
    photos = manifest = None
    if "locate" in args.sections or "scan" in args.sections:
        started = time.perf_counter()
        photos, manifest = corpus.cached_photos(
            args.cache, args.photos, args.seed,
            progress=lambda done, total: print(f"\rgenerating photos: {done}/{total}", end="", file=sys.stderr, flush=True))
        if time.perf_counter() - started > 1:
            print(file=sys.stderr)
            out(f"(generated {args.photos} photos in {time.perf_counter() - started:.0f} s, cached under "
                f"{os.path.relpath(os.path.dirname(photos), ROOT)})")
    busy = []
    if "geocode" in args.sections:
        points = corpus.cached_points(args.cache, args.points, args.seed)
    if "videos" in args.sections:
        started = time.perf_counter()
        video_folder, video_manifest = videos.cached_videos(
            args.cache, args.videos, args.seed,
            progress=lambda done, total: print(f"\rgenerating videos: {done}/{total}", end="", file=sys.stderr, flush=True))
        if time.perf_counter() - started > 1:
            print(file=sys.stderr)
            out(f"(generated {args.videos} videos in {time.perf_counter() - started:.0f} s)")
    for section in SECTIONS:
        if section not in args.sections:
            continue
        watch = CpuWatch()
        if section == "tiny":
            bench_tiny(tools, plan, out, results)
        elif section == "locate":
            bench_locate(tools, plan, photos, manifest, out, results)
        elif section == "scan":
            bench_scan(tools, plan, photos, manifest, out, results)
        elif section == "geocode":
            bench_geocode(tools, plan, points, args.points, out, results)
        elif section == "queries":
            bench_queries(args.queries, out)
        elif section == "videos":
            bench_videos(tools, plan, video_folder, video_manifest, out, results)
        elif section == "real":
            bench_real(tools, plan, args.cache, args.real_files, args.peer_files, out, results)
        elif section == "cold":
            bench_cold(tools, plan, args.cache, args.cold_files, out, results)
        elif section == "fuse":
            bench_fuse(tools, plan, args.cache, args.fuse_files, args.fuse_latency_ms, args.fuse_peer_files, out,
                       results)
        elif section == "alloc":
            bench_alloc(args.cache, out, results)
        elif section == "memory":
            bench_memory(tools, args.cache, args.memory_files, out, results)
        elif section == "tracks":
            bench_tracks(tools, plan, args.cache, args.track_mb, out, results)
        elif section == "tag":
            bench_tag(tools, plan, args.cache, args.tag_files, args.seed, out, results)
        report = watch.report(busy)
        if report:
            out(report)
    targets(results, out)
    if busy and max(busy) > 0.10:
        out(f"WARNING: other processes used up to {max(busy):.0%} of the CPUs during some sections: "
            "rerun on an idle machine before trusting PASS/MISS")
    out(f"\n(benchmark took {time.perf_counter() - began:.0f} s)")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"results written to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
