#!/usr/bin/env python3
"""Batch faults: `phototag scan` over a generated tree of many files, with everything that goes
wrong in real folders, and checks on what comes out.

    Scripts/stress-scan.py [--files 100000] [--binary .build/release/phototag] [--keep]

The tree (in a temporary folder) holds small valid JPEGs, photos without GPS, non-images, empty
`.jpg` files, folders and files nobody may read, FIFOs and a character device named like photos,
a symbolic link loop, a dangling link, a folder 300 levels deep, and, while the scan runs, a
second process deleting some files and truncating others. The scan runs as an unprivileged user
when started as root (so permissions apply), under GNU time for its peak RSS.

Checks: the exit status is 2 (some inputs are unreadable), every output line is a JSON object,
every expected file has exactly one record, each unreadable thing is reported once (a record and
one stderr line, or one stderr note for the loop), FIFOs and devices are errors that were never
opened, and the run finishes. Prints time, files per second and peak RSS; with --compare it
also scans a tree a tenth the size, to show that memory does not grow with the number of files.
"""
import argparse
import json
import os
import shutil
import stat
import subprocess
import statistics
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fixture(name):
    with open(os.path.join(ROOT, "Fixtures", "photos", name), "rb") as handle:
        return handle.read()


def build_tree(base, count):
    """Writes the tree; returns what the checks need to know about it."""
    located, plain = fixture("ne-little-endian.jpg"), fixture("no-exif.jpg")
    expected = {}  # relative path -> expected status (None: any, the file may vanish)
    per_folder = 1000
    made = 0
    folder_index = 0
    while made < count:
        folder = os.path.join(base, f"batch{folder_index // 10:03d}", f"f{folder_index:04d}")
        os.makedirs(folder)
        for index in range(min(per_folder, count - made)):
            kind = (made + index) % 10
            if kind < 6:
                name, data, status = f"IMG_{index:05d}.jpg", located, "located"
            elif kind < 8:
                name, data, status = f"DSC_{index:05d}.JPG", plain, "no-gps"
            elif kind == 8:
                name, data, status = f"notes_{index:05d}.txt", b"not a photo\n", None
            else:
                name, data, status = f"empty_{index:05d}.jpg", b"", "error"
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(data)
            if status is not None:
                expected[os.path.relpath(os.path.join(folder, name), base)] = status
        made += min(per_folder, count - made)
        folder_index += 1
    special = os.path.join(base, "special")
    os.makedirs(special)
    # Unreadable file and folder (the scan runs unprivileged, so these really are unreadable).
    with open(os.path.join(special, "secret.jpg"), "wb") as handle:
        handle.write(located)
    os.chmod(os.path.join(special, "secret.jpg"), 0)
    expected["special/secret.jpg"] = "error"
    os.makedirs(os.path.join(special, "locked"))
    with open(os.path.join(special, "locked", "inside.jpg"), "wb") as handle:
        handle.write(located)
    os.chmod(os.path.join(special, "locked"), 0)
    expected["special/locked"] = "error"
    # A FIFO and a character device named like photos: errors, never opened.
    os.mkfifo(os.path.join(special, "pipe.jpg"))
    expected["special/pipe.jpg"] = "error"
    if os.geteuid() == 0:
        os.mknod(os.path.join(special, "device.jpg"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        expected["special/device.jpg"] = "error"
    # A symbolic link loop and a dangling link.
    os.symlink("..", os.path.join(special, "loop"))
    os.symlink("nowhere.jpg", os.path.join(special, "dangling.jpg"))
    expected["special/dangling.jpg"] = "error"
    # A folder 300 levels deep with a photo at the bottom (paths beyond PATH_MAX are errors).
    deep = os.path.join(special, "deep")
    path = deep
    for level in range(300):
        path = os.path.join(path, f"d{level:03d}")
    os.makedirs(path)
    with open(os.path.join(path, "bottom.jpg"), "wb") as handle:
        handle.write(located)
    expected[os.path.relpath(os.path.join(path, "bottom.jpg"), base)] = None
    # Files that will vanish or shrink during the scan.
    churn = os.path.join(base, "zchurn")
    os.makedirs(churn)
    for index in range(2000):
        with open(os.path.join(churn, f"c{index:04d}.jpg"), "wb") as handle:
            handle.write(located)
        expected[f"zchurn/c{index:04d}.jpg"] = None
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "nobody", base], check=True)
        os.chmod(os.path.join(special, "secret.jpg"), 0)
        os.chmod(os.path.join(special, "locked"), 0)
    return expected, churn


def churn_files(folder, stop):
    """Deletes every third file and truncates every third+1 file while the scan runs."""
    names = sorted(os.listdir(folder))
    for index, name in enumerate(names):
        if stop.is_set():
            return
        path = os.path.join(folder, name)
        try:
            if index % 3 == 0:
                os.unlink(path)
            elif index % 3 == 1:
                with open(path, "r+b") as handle:
                    handle.truncate(30)
        except OSError:
            pass


def run_scan(binary, base, churn_folder=None):
    command = ["/usr/bin/time", "-f", "%M %e", binary, "scan", "--format", "ndjson", "--no-progress", base]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + command
    stop = threading.Event()
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    churner = None
    if churn_folder:
        churner = threading.Thread(target=churn_files, args=(churn_folder, stop))
        churner.start()
    output, errors = process.communicate(timeout=900)
    elapsed = time.monotonic() - started
    stop.set()
    if churner:
        churner.join()
    error_lines = errors.decode("utf-8", "replace").splitlines()
    rss_kb, _ = error_lines[-1].split()
    # GNU time adds "Command exited with non-zero status N" before its own line.
    diagnostics = [line for line in error_lines[:-1] if not line.startswith("Command exited with")]
    return process.returncode, output, diagnostics, int(rss_kb), elapsed


def check(expected, base, status, output, errors):
    problems = []
    if status != 2:
        problems.append(f"exit status {status}, expected 2")
    records = {}
    for number, line in enumerate(output.splitlines(), 1):
        try:
            record = json.loads(line)
        except ValueError:
            problems.append(f"line {number} is not JSON")
            continue
        relative = os.path.relpath(record["file"], base)
        if relative in records:
            problems.append(f"{relative}: two records")
        records[relative] = record
    for path, wanted in expected.items():
        record = records.get(path)
        if record is None:
            if wanted is not None:
                problems.append(f"{path}: no record")
            continue
        if wanted is not None and record["status"] != wanted:
            problems.append(f"{path}: {record['status']} ({record['error']}), expected {wanted}")
    unexpected = set(records) - set(expected)
    if unexpected:
        problems.append(f"{len(unexpected)} unexpected records, e.g. {sorted(unexpected)[:3]}")
    error_records = [r for r in records.values() if r["status"] == "error"]
    file_errors = [line for line in errors if not line.endswith("(a symbolic link loop or a repeated path)")]
    if len(file_errors) != len(error_records):
        problems.append(f"{len(error_records)} error records but {len(file_errors)} stderr lines")
    loops = [line for line in errors if line.endswith("(a symbolic link loop or a repeated path)")]
    if len(loops) != 1:
        problems.append(f"the symlink loop was reported {len(loops)} times")
    for name in ("special/pipe.jpg", "special/device.jpg"):
        if name in records and not records[name]["error"].startswith("not a regular file"):
            problems.append(f"{name}: {records[name]['error']}")
    return records, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "phototag"))
    parser.add_argument("--compare", action="store_true", help="also scan a tree a tenth the size")
    parser.add_argument("--keep", action="store_true", help="keep the generated tree")
    parser.add_argument("--runs", type=int, default=1,
                        help="scan each tree this many times and report the median time and its range "
                             "(the first run, with files changing under it, is the one checked)")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    failed = False
    sizes = [args.files // 10, args.files] if args.compare else [args.files]
    for size in sizes:
        base = tempfile.mkdtemp(prefix="phototag-stress-")
        os.chmod(base, 0o755)
        try:
            started = time.monotonic()
            expected, churn = build_tree(base, size)
            print(f"stress-scan: built {size:,} files (+ special cases) in {time.monotonic() - started:.1f} s")
            status, output, errors, rss_kb, elapsed = run_scan(binary, base, churn)
            records, problems = check(expected, base, status, output, errors)
            statuses = {}
            for record in records.values():
                statuses[record["status"]] = statuses.get(record["status"], 0) + 1
            print(f"stress-scan: {len(records):,} records in {elapsed:.2f} s ({len(records) / elapsed:,.0f} files/s), "
                  f"peak RSS {rss_kb / 1024:.1f} MB, statuses {dict(sorted(statuses.items()))}")
            if args.runs > 1:
                # The same tree again (the churned files are gone by now): time only.
                times, peaks, counts = [elapsed], [rss_kb], []
                for _ in range(args.runs - 1):
                    _, again, _, again_rss, again_elapsed = run_scan(binary, base)
                    times.append(again_elapsed)
                    peaks.append(again_rss)
                    counts.append(again.count(b"\n"))
                rates = sorted(counts[0] / t for t in times[1:])
                print(f"stress-scan: {args.runs} runs: median {statistics.median(times):.2f} s "
                      f"(range {min(times):.2f}-{max(times):.2f} s); repeat runs of {counts[0]:,} records: "
                      f"median {statistics.median(rates):,.0f} files/s (range {rates[0]:,.0f}-{rates[-1]:,.0f}); "
                      f"peak RSS median {statistics.median(peaks) / 1024:.1f} MB "
                      f"(range {min(peaks) / 1024:.1f}-{max(peaks) / 1024:.1f})")
            for problem in problems[:20]:
                print(f"stress-scan: PROBLEM {problem}")
            failed = failed or bool(problems)
        finally:
            if args.keep:
                print(f"stress-scan: tree kept in {base}")
            else:
                subprocess.run(["chmod", "-R", "u+rwx", base], check=False)
                shutil.rmtree(base, ignore_errors=True)
    print("stress-scan: " + ("FAILED" if failed else "all checks passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
