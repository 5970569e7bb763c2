#!/usr/bin/env python3
"""The numbers of README's "The arithmetic of scale": phototag's throughput per core, and the
Spark examples' overhead against the bare binary.

    Scripts/measure-scale.py [--runs 5] [--points 200000] [--files 5000] [--spark] [--skip-geocode] [--skip-scan]

- geocode: `phototag geocode --format ndjson` on POINTS seeded coordinates (the points of
  `make test-spark`), pinned to one core with taskset, then on every core;
- scan: `phototag scan --jobs 1 --format ndjson` pinned to one core, over a generated tree of
  FILES photos (five fixture photos of different formats, each padded to 256 KiB as a camera's
  image data would follow the metadata), warm (the tree in the page cache) and, when run as root,
  cold (`echo 3 > /proc/sys/vm/drop_caches` before each run; this empties the cache of the whole
  machine);
- with --spark: the wall time of the README's spark-submit line for geocode.py on the same points
  (in .build/spark-test, made by `make test-spark`), against `phototag geocode` alone on all cores,
  and on the first 2,000 points, which tells Spark's fixed cost from its cost per row.

Times are wall times, with the CPU time (user + system of the command and what it waited for)
beside them: on a shared machine the load inflates the wall time, less the CPU time.

Each measurement runs RUNS times; the median and the range are printed. The machine's load is
printed too: on a shared machine the spread is wide, so compare medians.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = ["ne-little-endian.jpg", "sw-big-endian.jpg", "heic-iloc-v1-idat.heic", "png-exif-before-idat.png", "tiff-le.tif"]
SPARK_LINE = "spark-submit --master 'local[2]' --files phototag Examples/spark/geocode.py points.csv places.parquet"


def timed(command, runs, before=None, **options):
    """The wall and CPU times (user + system, of the command and the processes it waited for) of
    `command` (a list, or a shell line with shell=True), in seconds: a list of pairs."""
    times = []
    for _ in range(runs):
        if before:
            before()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime
        times.append((wall, cpu))
        if result.returncode not in (0, 1, 2):
            sys.exit(f"measure-scale: {command} exited with {result.returncode}")
    return times


def report(label, times, count, unit):
    """One line: the median wall time, its range, the rate it gives, and the rate per CPU second
    (what one core does when it is not shared: the machine's load inflates the wall time)."""
    walls = [wall for wall, _ in times]
    cpus = [cpu for _, cpu in times]
    median = statistics.median(walls)
    cpu = statistics.median(cpus)
    print(f"{label}: median {median:.3f} s wall (range {min(walls):.3f}–{max(walls):.3f} s, {len(walls)} runs)"
          f" = {count / median:,.0f} {unit}/s; CPU median {cpu:.3f} s (range {min(cpus):.3f}–{max(cpus):.3f})"
          f" = {count / cpu:,.0f} {unit} per CPU second")


def make_tree(base, count):
    """COUNT photos in folders of 500, each a fixture photo padded to 256 KiB."""
    blobs = []
    for name in PHOTOS:
        with open(os.path.join(ROOT, "Fixtures", "photos", name), "rb") as handle:
            data = handle.read()
        blobs.append((os.path.splitext(name)[1], data + os.urandom(max(0, 262144 - len(data)))))
    for index in range(count):
        folder = os.path.join(base, f"d{index // 500:03d}")
        os.makedirs(folder, exist_ok=True)
        extension, data = blobs[index % len(blobs)]
        with open(os.path.join(folder, f"IMG_{index:06d}{extension}"), "wb") as handle:
            handle.write(data)


def drop_caches():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as handle:
        handle.write("3\n")


def sectors_read():
    """Sectors read from the machine's disks so far (/proc/diskstats, whole disks only)."""
    total = 0
    with open("/proc/diskstats") as handle:
        for line in handle:
            fields = line.split()
            name = fields[2]
            whole = re.fullmatch(r"(sd|vd|xvd)[a-z]+|nvme[0-9]+n[0-9]+", name)
            if whole:
                total += int(fields[5])
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--points", type=int, default=200000)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "phototag"))
    parser.add_argument("--spark", action="store_true")
    parser.add_argument("--skip-geocode", action="store_true")
    parser.add_argument("--skip-scan", action="store_true")
    options = parser.parse_args()
    binary = options.binary
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    work = tempfile.mkdtemp(prefix="measure-scale-", dir=os.path.join(ROOT, ".build"))
    try:
        points = os.path.join(work, "points.csv")
        subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "spark-check.py"), "points",
                        str(options.points), "20261201", points], check=True)
        coordinates = os.path.join(work, "coordinates.csv")
        with open(points) as source, open(coordinates, "w") as target:
            for line in source:
                target.write(line.split(",", 1)[1])
        geocode = f"{binary} geocode --format ndjson --quiet < {coordinates}"
        if not options.skip_geocode:
            report("geocode, one core", timed(["taskset", "-c", "0", "sh", "-c", geocode], options.runs), options.points, "points")
            report("geocode, every core", timed(geocode, options.runs, shell=True), options.points, "points")

        if not options.skip_scan:
            tree = os.path.join(work, "tree")
            make_tree(tree, options.files)
            scan = ["taskset", "-c", "0", binary, "scan", "--jobs", "1", "--format", "ndjson", "--quiet", tree]
            scan_all = [binary, "scan", "--format", "ndjson", "--quiet", tree]
            timed(scan, 1)  # fill the cache
            report("scan warm, one core", timed(scan, options.runs), options.files, "files")
            report("scan warm, every core", timed(scan_all, options.runs), options.files, "files")
            if os.geteuid() == 0 and os.access("/proc/sys/vm/drop_caches", os.W_OK):
                start = sectors_read()
                report("scan cold, one core", timed(scan, options.runs, before=drop_caches), options.files, "files")
                read = (sectors_read() - start) * 512 / options.runs
                print(f"scan cold: {read / 1e6:.1f} MB read from disk per run (all processes), "
                      f"{read / options.files / 1024:.0f} KiB per file")
                report("scan cold, every core", timed(scan_all, options.runs, before=drop_caches),
                       options.files, "files")
            else:
                print("scan cold: not measured (needs root to drop the page cache)")

        if options.spark:
            spark = os.path.join(ROOT, ".build", "spark-test")
            venv = os.path.join(ROOT, ".build", "spark-venv", "bin")
            environment = dict(os.environ, PATH=f"{venv}:{os.environ['PATH']}", SPARK_LOCAL_IP="127.0.0.1",
                               PYSPARK_PYTHON=os.path.join(venv, "python"))
            line = SPARK_LINE.replace("points.csv", "measure.csv").replace("places.parquet", "measure.parquet")
            clean = lambda: shutil.rmtree(os.path.join(spark, "measure.parquet"), ignore_errors=True)
            # The whole table, then its first 2,000 rows: the difference is the cost per row, the
            # rest Spark's fixed cost (the JVM, the session, scheduling, writing Parquet).
            with open(points) as source:
                lines = source.readlines()
            for count in (options.points, 2000):
                with open(os.path.join(spark, "measure.csv"), "w") as target:
                    target.writelines(lines[: count + 1])
                report(f"spark-submit geocode.py, local[2], {count} points",
                       timed(line, options.runs, before=clean, shell=True, cwd=spark, env=environment), count, "points")
            clean()
            os.remove(os.path.join(spark, "measure.csv"))
    finally:
        shutil.rmtree(work)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
