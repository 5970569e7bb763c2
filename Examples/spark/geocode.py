"""Geocode a table of coordinates with phototag inside Apache Spark.

    spark-submit --master 'local[2]' --files phototag Examples/spark/geocode.py points.csv places.parquet

Reads a table of coordinates (CSV with a header row, or Parquet: chosen by the input's extension,
or by --input-format), streams every partition through ONE `phototag geocode --format ndjson`
process (started with subprocess in `mapPartitions`), and writes Parquet: the input's columns,
then the place columns below, then `record`, the NDJSON record phototag printed for the row.

The static phototag binary reaches the executors with `spark-submit --files phototag`: each task
finds its copy with `SparkFiles.get("phototag")`, so nothing needs to be installed on the workers.

The latitude and longitude columns are found by name as phototag's own header rule does (lat,
latitude or y; lon, lng, long, longitude or x; any case), or named with --lat and --lon. CSV
values are passed to phototag as their text, so a CSV gives the same answers as `phototag
geocode` run on the file itself. A row whose coordinate is missing or not a coordinate gets an
`error` and no place, like phototag's own error records; no row is dropped.

The place columns: place_geoname_id, place_name, place_admin1, place_admin2, country_code,
country, timezone, place_distance_km, place_bearing, place_basis (boundaries or nearest),
city_geoname_id, city_name, warnings (array of strings) and error. In `record`, the `line` key
counts the lines of the partition's stream (line 1 is a header), not of the input file.
"""

import argparse
import decimal
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

LATITUDE_NAMES = ("lat", "latitude", "y")
LONGITUDE_NAMES = ("lon", "lng", "long", "longitude", "x")

PLACE_FIELDS = [
    T.StructField("place_geoname_id", T.LongType()),
    T.StructField("place_name", T.StringType()),
    T.StructField("place_admin1", T.StringType()),
    T.StructField("place_admin2", T.StringType()),
    T.StructField("country_code", T.StringType()),
    T.StructField("country", T.StringType()),
    T.StructField("timezone", T.StringType()),
    T.StructField("place_distance_km", T.DoubleType()),
    T.StructField("place_bearing", T.IntegerType()),
    T.StructField("place_basis", T.StringType()),
    T.StructField("city_geoname_id", T.LongType()),
    T.StructField("city_name", T.StringType()),
    T.StructField("warnings", T.ArrayType(T.StringType())),
    T.StructField("error", T.StringType()),
    T.StructField("record", T.StringType()),
]


def executable(name):
    """The path of a file shipped with --files, made executable when the copy lost its mode bit."""
    path = SparkFiles.get(name)
    if os.access(path, os.X_OK):
        return path
    copy = os.path.join(tempfile.mkdtemp(prefix="phototag-"), name)
    shutil.copyfile(path, copy)
    os.chmod(copy, stat.S_IRWXU)
    return copy


def coordinate_text(value):
    """A cell as phototag reads it: text as it is, numbers in plain decimal (shortest round trip)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return repr(value)
        return format(decimal.Decimal(repr(value)), "f")
    return str(value)


def input_line(latitude, longitude):
    """One stream line per row, never blank (a blank line has no record): a missing value makes
    a line that phototag reports as an error record."""
    text = f"{coordinate_text(latitude)},{coordinate_text(longitude)}"
    return text.replace("\n", " ").replace("\r", " ") + "\n"


def place_columns(record):
    """The place columns of one phototag geocode record (a dict)."""
    place = record.get("place") or {}
    city = place.get("city") or {}
    return (
        place.get("geonameId"),
        place.get("name"),
        place.get("admin1"),
        place.get("admin2"),
        place.get("countryCode"),
        place.get("country"),
        place.get("timezone"),
        place.get("distanceKm"),
        place.get("bearing"),
        place.get("basis"),
        city.get("geonameId"),
        city.get("name"),
        record.get("warnings") or [],
        record.get("error"),
    )


def geocode_partition(rows, binary, lat_index, lon_index, extra_arguments):
    """Streams one partition through one phototag process; yields each row with its place columns.

    A thread writes the coordinates to phototag's standard input while this one reads the
    records, so neither side waits for the other; the rows written wait in a queue for theirs.
    Each record's `line` is checked against its row's place in the stream, so a record can
    never be paired with the wrong row.
    """
    rows = iter(rows)
    first = next(rows, None)
    if first is None:  # an empty partition: no process (phototag would call no input an error)
        return
    rows = itertools.chain((first,), rows)
    process = subprocess.Popen(
        [binary, "geocode", "--format", "ndjson", "--quiet", *extra_arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    pending = queue.Queue()
    failure = []
    errors = []

    def write():
        try:
            # A header first, so that no data row can be taken for one.
            process.stdin.write(b"latitude,longitude\n")
            for row in rows:
                pending.put(row)
                process.stdin.write(input_line(row[lat_index], row[lon_index]).encode("utf-8"))
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
    line_number = 1
    finished = False
    try:
        for output in process.stdout:
            row = pending.get()
            if row is None:
                raise RuntimeError(f"phototag printed a record with no row left: {output!r}")
            line_number += 1
            text = output.decode("utf-8").rstrip("\n")
            record = json.loads(text)
            if record.get("line") != line_number:
                raise RuntimeError(f"record for line {record.get('line')} where line {line_number} was due")
            yield tuple(row) + place_columns(record) + (text,)
        writer.join()
        reader.join()
        status = process.wait()
        if failure:
            raise failure[0]
        if pending.get() is not None:
            raise RuntimeError("phototag stopped before answering every row")
        # 0: every coordinate has a place; 1: some has none within the filters; 2: some line was
        # not a coordinate (that row carries its error). Every row has its record (checked
        # above), so any other status is a failure of the run.
        if status not in (0, 1, 2):
            message = b"".join(errors).decode("utf-8", "replace").strip()
            raise RuntimeError(f"phototag geocode exited with {status}: {message}")
        finished = True
    finally:
        if not finished and process.poll() is None:
            process.kill()  # the task failed or was cancelled: leave no phototag running


def find_column(columns, names, given):
    """The column named `given`, or the first whose name phototag's header rule accepts."""
    if given:
        if given not in columns:
            raise SystemExit(f"geocode.py: no column named {given!r} (columns: {', '.join(columns)})")
        return given
    for column in columns:
        if column.lower() in names:
            return column
    raise SystemExit(f"geocode.py: no column named {' or '.join(names)}; name it with --lat/--lon")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a CSV file (with a header row) or Parquet, file or folder")
    parser.add_argument("output", help="the Parquet folder to write")
    parser.add_argument("--input-format", choices=("csv", "parquet"), help="default: by extension")
    parser.add_argument("--lat", help="the latitude column (default: found by name)")
    parser.add_argument("--lon", help="the longitude column (default: found by name)")
    parser.add_argument("--partitions", type=int, help="repartition into this many (default: as read, at least the cores)")
    parser.add_argument("--binary", default="phototag", help="the name given to --files")
    parser.add_argument("--mode", default="errorifexists", help="Spark save mode (e.g. overwrite)")
    parser.add_argument("phototag_options", nargs="*", help="after --: more geocode options")
    options = parser.parse_args()

    spark = SparkSession.builder.appName("phototag geocode").getOrCreate()
    input_format = options.input_format or ("parquet" if options.input.rstrip("/").endswith(".parquet") else "csv")
    if input_format == "csv":
        # Every column as text: phototag reads each value exactly as it is written in the file.
        table = spark.read.option("header", True).csv(options.input)
    else:
        table = spark.read.parquet(options.input)
    # Each partition is one phototag process, so as many as the cores at least (a small file is
    # read as one partition); a large table keeps the partitions it is read in.
    partitions = options.partitions or max(table.rdd.getNumPartitions(), spark.sparkContext.defaultParallelism)
    if partitions != table.rdd.getNumPartitions():
        table = table.repartition(partitions)
    lat_column = find_column(table.columns, LATITUDE_NAMES, options.lat)
    lon_column = find_column(table.columns, LONGITUDE_NAMES, options.lon)
    lat_index, lon_index = table.columns.index(lat_column), table.columns.index(lon_column)
    schema = T.StructType(table.schema.fields + PLACE_FIELDS)
    extra = list(options.phototag_options)
    name = options.binary

    def run(rows):
        return geocode_partition(rows, executable(name), lat_index, lon_index, extra)

    places = spark.createDataFrame(table.rdd.mapPartitions(run), schema)
    places.write.mode(options.mode).parquet(options.output)
    spark.stop()


if __name__ == "__main__":
    main()
