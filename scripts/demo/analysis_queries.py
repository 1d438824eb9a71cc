#!/usr/bin/env python3
"""The analysis queries of README § Querying the tables, run by DuckDB and by PySpark (local
mode) over a `games` dataset that `kifu export` wrote, with their answers printed.

    kifu export ../shared/corpus/pgn --to parquet --dataset -o /tmp/games
    python scripts/demo/analysis_queries.py /tmp/games duckdb
    python scripts/demo/analysis_queries.py /tmp/games spark     # needs pyspark and Java 17

Nothing here assumes one machine: with Spark, the dataset path may be any URI Spark reads
(hdfs://, s3a://), and the session comes from `spark-submit` on a cluster.
"""
import sys
import time

# Most played openings by rating band (both players' mean Elo, in bands of 200; games with
# both Elos and an opening name or ECO code only), and average game length (plies) by time control.
OPENINGS = """
    with rated as (
        select cast(floor((WhiteElo + BlackElo) / 400.0) * 200 as int) as band,
               coalesce(Opening, ECO) as opening
        from games
        where WhiteElo is not null and BlackElo is not null
          and coalesce(Opening, ECO) is not null and coalesce(Opening, ECO) <> '?'
    ), counted as (
        select band, opening, count(*) as games,
               row_number() over (partition by band order by count(*) desc, opening) as rank
        from rated group by band, opening
    )
    select band, opening, games from counted where rank <= 3 order by band, rank
"""
LENGTH = """
    select TimeControl as time_control, count(*) as games,
           round(avg(plies), 1) as avg_plies
    from games
    where TimeControl is not null and TimeControl <> '?' and plies > 0
    group by TimeControl
    having count(*) >= 20
    order by games desc limit 10
"""
SUMMARY = """
    select count(*) as games, count(distinct file) as files, sum(plies) as plies,
           sum(error_count) as problems from games
"""


def show(title, columns, rows):
    print(f"\n{title}")
    print(" | ".join(columns))
    for r in rows:
        print(" | ".join(str(v) for v in r))


def duckdb_run(path):
    import duckdb
    con = duckdb.connect()
    con.execute(f"create view games as select * from read_parquet('{path}/*.parquet')")
    for title, q in [("summary", SUMMARY), ("top openings by rating band", OPENINGS),
                     ("game length by time control", LENGTH)]:
        cur = con.execute(q)
        show(title, [d[0] for d in cur.description], cur.fetchall())


def spark_run(path):
    from pyspark.sql import SparkSession
    # UTCTime is a Parquet TIME(MICROS): Spark reads TIME columns with this switch (4.1 on)
    spark = (SparkSession.builder.appName("kifu-analysis").master("local[*]")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.timeType.enabled", "true").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.read.parquet(path).createOrReplaceTempView("games")
    for title, q in [("summary", SUMMARY), ("top openings by rating band", OPENINGS),
                     ("game length by time control", LENGTH)]:
        df = spark.sql(q)
        show(title, df.columns, [tuple(r) for r in df.collect()])
    spark.stop()


if __name__ == "__main__":
    path, engine = sys.argv[1], sys.argv[2]
    t = time.time()
    {"duckdb": duckdb_run, "spark": spark_run}[engine](path.rstrip("/"))
    print(f"\n{engine}: {time.time() - t:.1f} s")
