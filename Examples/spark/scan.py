"""Locate a list of photos on shared storage with phototag inside Apache Spark.

    spark-submit --master 'local[2]' --files phototag Examples/spark/scan.py photos.txt photos.parquet

Reads a list of photo paths (one a line, or NUL-separated with --null as `find -print0` writes
them), repartitions it, and runs ONE `phototag locate --files-from - -0 --format ndjson` process
per partition (subprocess in `mapPartitions`), which reads the partition's files. Writes Parquet
(the columns below, then `record`, the NDJSON record phototag printed for the file), or with
--output-format ndjson the records alone, one a line, exactly as phototag prints them.

Every worker must see the files at the same paths: give absolute paths, or paths relative to
--root, the folder phototag runs in on every worker. The list is read as UTF-8 text (Spark's
strings), so a path that is not valid UTF-8 cannot be named in it; a path that does not exist
is an error record, as it is for phototag. The static phototag binary reaches the executors with
`spark-submit --files phototag` (`SparkFiles.get`), so nothing needs to be installed on the
workers.

The Parquet columns: path (as listed), status (located, no-gps, invalid-gps, error), latitude,
longitude, altitude, gps_time, place_geoname_id, place_name, place_admin1, country_code,
country, timezone, local_time, sidecar, warnings (array of strings), error, record.
"""

import argparse
import itertools
import json
import os
import queue
import shutil
import stat
import subprocess
import tempfile
import threading

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import types as T

SCHEMA = T.StructType(
    [
        T.StructField("path", T.StringType()),
        T.StructField("status", T.StringType()),
        T.StructField("latitude", T.DoubleType()),
        T.StructField("longitude", T.DoubleType()),
        T.StructField("altitude", T.DoubleType()),
        T.StructField("gps_time", T.StringType()),
        T.StructField("place_geoname_id", T.LongType()),
        T.StructField("place_name", T.StringType()),
        T.StructField("place_admin1", T.StringType()),
        T.StructField("country_code", T.StringType()),
        T.StructField("country", T.StringType()),
        T.StructField("timezone", T.StringType()),
        T.StructField("local_time", T.StringType()),
        T.StructField("sidecar", T.StringType()),
        T.StructField("warnings", T.ArrayType(T.StringType())),
        T.StructField("error", T.StringType()),
        T.StructField("record", T.StringType()),
    ]
)


def executable(name):
    """The path of a file shipped with --files, made executable when the copy lost its mode bit."""
    path = SparkFiles.get(name)
    if os.access(path, os.X_OK):
        return path
    copy = os.path.join(tempfile.mkdtemp(prefix="phototag-"), name)
    shutil.copyfile(path, copy)
    os.chmod(copy, stat.S_IRWXU)
    return copy


def columns(path, record, text):
    """One output row: the path, the columns of one phototag locate record (a dict), the record."""
    gps = record.get("gps") or {}
    place = record.get("place") or {}
    time = record.get("time") or {}
    return (
        path,
        record.get("status"),
        gps.get("latitude"),
        gps.get("longitude"),
        gps.get("altitude"),
        gps.get("timestamp"),
        place.get("geonameId"),
        place.get("name"),
        place.get("admin1"),
        place.get("countryCode"),
        place.get("country"),
        place.get("timezone"),
        time.get("local"),
        record.get("sidecar"),
        record.get("warnings") or [],
        record.get("error"),
        text,
    )


def locate_partition(paths, binary, root, extra_arguments):
    """Streams one partition's paths through one phototag process; yields a row per path.

    A thread writes the NUL-separated paths to phototag's standard input while this one reads
    the records (one per path, in list order), so neither side waits for the other. Each
    record's `file` is checked against its path, so a record is never paired with another file.
    """
    paths = iter(path for path in paths if path)  # phototag skips empty entries: so do we
    first = next(paths, None)
    if first is None:  # an empty partition: no process
        return
    paths = itertools.chain((first,), paths)
    process = subprocess.Popen(
        [binary, "locate", "--files-from", "-", "-0", "--format", "ndjson", "--quiet", *extra_arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
    )
    pending = queue.Queue()
    failure = []
    errors = []

    def write():
        try:
            for path in paths:
                pending.put(path)
                process.stdin.write(path.encode("utf-8") + b"\0")
        except BaseException as error:  # reported after the records, with phototag's stderr
            failure.append(error)
        finally:
            pending.put(None)
            try:
                process.stdin.close()
            except OSError:
                pass

    def drain_stderr():
        errors.append(process.stderr.read())

    writer = threading.Thread(target=write, daemon=True)
    reader = threading.Thread(target=drain_stderr, daemon=True)
    writer.start()
    reader.start()
    finished = False
    try:
        for output in process.stdout:
            path = pending.get()
            if path is None:
                raise RuntimeError(f"phototag printed a record with no path left: {output!r}")
            text = output.decode("utf-8").rstrip("\n")
            record = json.loads(text)
            if record.get("file") != path:
                raise RuntimeError(f"record for {record.get('file')!r} where {path!r} was due")
            yield columns(path, record, text)
        writer.join()
        reader.join()
        status = process.wait()
        if failure:
            raise failure[0]
        if pending.get() is not None:
            raise RuntimeError("phototag stopped before answering every path")
        # 0: every file located; 1: some has no usable position; 2: some could not be read (its
        # record says why). Every path has its record (checked above), so any other status is a
        # failure of the run.
        if status not in (0, 1, 2):
            message = b"".join(errors).decode("utf-8", "replace").strip()
            raise RuntimeError(f"phototag locate exited with {status}: {message}")
        finished = True
    finally:
        if not finished and process.poll() is None:
            process.kill()  # the task failed or was cancelled: leave no phototag running


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="the list of paths: a text file (or folder of them)")
    parser.add_argument("output", help="the folder to write")
    parser.add_argument("--null", action="store_true", help="the list is NUL-separated (find -print0)")
    parser.add_argument("--root", help="the folder phototag runs in (for relative paths)")
    parser.add_argument("--partitions", type=int, help="repartition into this many (default: the cores)")
    parser.add_argument("--output-format", choices=("parquet", "ndjson"), default="parquet")
    parser.add_argument("--jobs", type=int, default=1, help="files each phototag reads at once")
    parser.add_argument("--binary", default="phototag", help="the name given to --files")
    parser.add_argument("--mode", default="errorifexists", help="Spark save mode (e.g. overwrite)")
    parser.add_argument("phototag_options", nargs="*", help="after --: more locate options")
    options = parser.parse_args()

    spark = SparkSession.builder.appName("phototag scan").getOrCreate()
    context = spark.sparkContext
    if options.null:
        paths = context.newAPIHadoopFile(
            options.input,
            "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
            "org.apache.hadoop.io.LongWritable",
            "org.apache.hadoop.io.Text",
            conf={"textinputformat.record.delimiter": "\0"},
        ).values()
    else:
        paths = context.textFile(options.input)
    paths = paths.repartition(options.partitions or context.defaultParallelism)
    extra = ["--jobs", str(options.jobs), *options.phototag_options]
    name, root = options.binary, options.root

    def run(partition):
        return locate_partition(partition, executable(name), root, extra)

    records = spark.createDataFrame(paths.mapPartitions(run), SCHEMA)
    if options.output_format == "ndjson":
        records.select("record").write.mode(options.mode).text(options.output)
    else:
        records.write.mode(options.mode).parquet(options.output)
    spark.stop()


if __name__ == "__main__":
    main()
