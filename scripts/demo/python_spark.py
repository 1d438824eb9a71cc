#!/usr/bin/env python3
"""Game archives to one Parquet dataset with Spark: the archives are shared out over the
executors, and each executor runs kifu.to_arrow on its archives inside mapInArrow.

    python_spark.py --out OUT [--table games|moves|trees|positions] [--format pgn|sgf]
                    [--master local[2]] [--partitions N] INPUT...

INPUT: paths the executors can read (a shared file system, or the same path on every node),
or URIs of a file system pyarrow knows (s3://bucket/key, gs://..., hdfs://host/path: read
there as streams, in chunks). Each may be a plain or compressed file or an archive (zip, tar,
tar.gz/bz2/xz/zst); a directory stands for the files below it, listed on the driver.

Nothing here assumes one machine: every path is an argument, the rows are built where the
archive is read, and the dataset is written by the executors. On a cluster, install the kifu
wheel on every node, or ship an environment with it (docs/python.md says how), and submit:

    spark-submit --master yarn --archives kifu_env.tar.gz#env \\
        --conf spark.pyspark.python=./env/bin/python scripts/demo/python_spark.py \\
        --out s3://bucket/games/ s3://bucket/lichess/2024-*.pgn.zst

Local mode here: `--master local[2]` (the default), with the driver's Python on the executors.
Prints the rows written, the time, and a query over the dataset.
"""

import argparse
import os
import sys
import time


GAMES = (".pgn", ".sgf")
PACKED = (".gz", ".zst", ".bz2", ".xz", ".tgz", ".tar", ".zip")


def wanted(name):
    """In a directory, the files kifu reads: PGN and SGF, compressed or not, and archives
    (the same choice as kifu's own directory walk; licences and read-me files are left)."""
    n = name.lower()
    while n.endswith(PACKED[:4]):
        n = n.rsplit(".", 1)[0]
    return n.endswith(GAMES) or n.endswith(PACKED[4:]) or n.endswith(".tar")


def expand(inputs):
    """Directories listed (on the driver), everything else as given."""
    out = []
    for i in inputs:
        if "://" not in i and os.path.isdir(i):
            for d, _, files in sorted(os.walk(i)):
                out.extend(os.path.join(d, f) for f in sorted(files) if wanted(f))
        else:
            out.append(i)
    return out


def spark_schema(pa_schema):
    """The table's Arrow schema as Spark's. PySpark maps Arrow's time64 to its TIME type (with
    spark.sql.timeType.enabled) but not time32: kifu-export's UTCTime column, time32[ms] in
    this version, is handed over as time64[ns], the unit Spark's TIME type takes (the same values)
    """
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_schema

    fields = []
    for f in pa_schema:
        if pa.types.is_time(f.type):
            f = pa.field(f.name, pa.time64("ns"), f.nullable)
        fields.append(f)
    schema = pa.schema(fields)
    return schema, from_arrow_schema(schema)


def convert(batch, schema):
    """A kifu batch as the schema Spark gets (time columns cast to time64[ns])."""
    import pyarrow as pa

    if batch.schema.equals(schema):
        return batch
    cols = [col if col.type == f.type else col.cast(f.type) for f, col in zip(schema, batch.columns)]
    return pa.RecordBatch.from_arrays(cols, schema=schema)


def open_input(path):
    """A local path as it is; a URI as a stream of its file system (read in chunks by kifu)."""
    if "://" not in path:
        return path
    import pyarrow.fs as pafs

    fs, inner = pafs.FileSystem.from_uri(path)
    return fs.open_input_stream(inner)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--table", default="games")
    ap.add_argument("--format", default=None)
    ap.add_argument("--master", default=None, help="default: local[2] unless spark-submit set one")
    ap.add_argument("--partitions", type=int, default=None, help="default: one per input")
    args = ap.parse_args()

    import kifu
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("kifu archives to parquet")
    if args.master or "spark.master" not in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        builder = builder.master(args.master or "local[2]")
    if (args.master or "local").startswith("local"):
        # executors are this machine's: they run this Python, which has kifu
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.config("spark.sql.execution.arrow.maxRecordsPerBatch", 65536)
    # the TIME type (UTCTime) in Spark SQL and Parquet
    builder = builder.config("spark.sql.timeType.enabled", "true")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")

    inputs = expand(args.inputs)
    arrow_schema, schema = spark_schema(kifu.schema(args.table, format=args.format))
    table, fmt = args.table, args.format

    def read_archives(batches):
        # runs on an executor: each row names one input; its rows stream out batch by batch
        import kifu

        for b in batches:
            for path in b.column("path").to_pylist():
                source = open_input(path)
                for batch in kifu.to_arrow(source, table, format=fmt, threads=1, name=path if "://" in path else None):
                    yield convert(batch, arrow_schema)

    start = time.perf_counter()
    paths = spark.createDataFrame([(p,) for p in inputs], "path string")
    paths = paths.repartition(args.partitions or len(inputs))
    rows = paths.mapInArrow(read_archives, schema)
    rows.write.mode("overwrite").parquet(args.out)
    seconds = time.perf_counter() - start

    written = spark.read.parquet(args.out)
    n = written.count()
    print(f"inputs: {len(inputs)}  rows written: {n}  seconds: {seconds:.1f}  out: {args.out}")
    if table == "games" and (fmt or "pgn") == "pgn":
        written.createOrReplaceTempView("games")
        q = """
            SELECT outcome, count(*) AS games, round(avg(plies), 1) AS avg_plies,
                   sum(error_count) AS problems
            FROM games GROUP BY outcome ORDER BY games DESC
        """
        print(q.strip())
        spark.sql(q).show()
        spark.sql(
            "SELECT ECO, count(*) AS games FROM games WHERE ECO IS NOT NULL "
            "GROUP BY ECO ORDER BY games DESC LIMIT 5"
        ).show()
    else:
        from pyspark.sql import functions as F

        # rows per input: an archive member's name is ARCHIVE:MEMBER
        per_input = F.regexp_replace("file", r":(?!//)[^:]*$", "").alias("input")
        written.groupBy(per_input).agg(F.count("*").alias("rows")).orderBy("input").show(truncate=False)
    spark.stop()


if __name__ == "__main__":
    main()
