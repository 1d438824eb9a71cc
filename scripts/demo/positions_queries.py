#!/usr/bin/env python3
"""Training-set queries over the PGN `positions` table, run by DuckDB and by PySpark (local
mode) over the same Parquet that `kifu export --table positions` wrote, with their answers
printed; `both` runs the two engines and checks that they agree row for row.

    kifu export ../shared/corpus/pgn --table positions -o /tmp/positions.parquet
    python scripts/demo/positions_queries.py /tmp/positions.parquet duckdb
    python scripts/demo/positions_queries.py /tmp/positions.parquet both   # needs pyspark, Java 17

A dataset directory (`kifu export --table positions --dataset -o DIR`) reads the same way.
The table's types are chosen for both engines (docs/export.md § PGN positions): the twelve
bitboards are a list of BIGINT (no unsigned types in Spark), White's pawn … king then Black's,
bit i the square i (a1 = 0); lists are 1-based in `list_extract` (DuckDB) and `element_at`
(Spark) alike.
"""
import sys
import time

# The explorer: the moves played from one position (by EPD: 1. e4 e5 2. Nf3 Nc6), with their
# count and the mean result from the mover's view (`score`: 1 won, 0 draw, -1 lost).
EXPLORER = """
    select uci, count(*) as games, round(avg(score), 3) as mover_score
    from positions
    where epd = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -'
      and uci is not null
    group by uci
    order by games desc, uci
    limit 8
"""
# Queens off the board (White's queen bitboard, the fifth, and Black's, the eleventh, empty),
# by ply band: how often each side to move wins from there.
QUEENLESS = """
    select cast(floor(ply / 20) * 20 as int) as ply_band, count(*) as positions,
           round(avg(score), 3) as mover_score
    from positions
    where {el}(bitboards, 5) = 0 and {el}(bitboards, 11) = 0 and score is not null
    group by 1
    order by 1
    limit 10
"""
# Pieces on the board (the bits set in the twelve bitboards) at each ply of the first 10.
PIECES = """
    select ply, count(*) as positions, round(avg({pieces}), 2) as pieces
    from positions
    where ply < 100 and ply % 10 = 0
    group by ply
    order by ply
"""
SUMMARY = """
    select count(*) as positions, count(distinct key) as distinct_keys,
           sum(case when uci is null then 1 else 0 end) as final_positions,
           min(policy) as min_policy, max(policy) as max_policy
    from positions
"""

DIALECTS = {
    "duckdb": {"el": "list_extract",
               "pieces": "list_sum(list_transform(bitboards, lambda b: bit_count(b)))"},
    "spark": {"el": "element_at",
              "pieces": "aggregate(transform(bitboards, b -> bit_count(b)), 0, (a, c) -> a + c)"},
}
QUERIES = [("summary", SUMMARY), ("explorer after 1. e4 e5 2. Nf3 Nc6", EXPLORER),
           ("queens off, by ply band", QUEENLESS), ("pieces on the board by ply", PIECES)]


def show(title, columns, rows):
    print(f"\n{title}")
    print(" | ".join(columns))
    for r in rows:
        print(" | ".join(str(v) for v in r))


def duckdb_run(path):
    import duckdb
    con = duckdb.connect()
    source = f"{path}/**/*.parquet" if not path.endswith(".parquet") else path
    con.execute(f"create view positions as select * from read_parquet('{source}')")
    types = dict(con.execute("select column_name, column_type from (describe positions)").fetchall())
    print(f"duckdb: bitboards {types['bitboards']}, key {types['key']}")
    answers = []
    for title, q in QUERIES:
        cur = con.execute(q.format(**DIALECTS["duckdb"]))
        rows = cur.fetchall()
        show(title, [d[0] for d in cur.description], rows)
        answers.append(rows)
    return answers


def spark_run(path):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.appName("kifu-positions").master("local[*]")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.parquet(path)
    types = dict(df.dtypes)
    print(f"spark: bitboards {types['bitboards']}, key {types['key']}")
    df.createOrReplaceTempView("positions")
    answers = []
    for title, q in QUERIES:
        out = spark.sql(q.format(**DIALECTS["spark"]))
        rows = [tuple(r) for r in out.collect()]
        show(title, out.columns, rows)
        answers.append(rows)
    spark.stop()
    return answers


def same(a, b):
    """Row for row, numbers compared as numbers (DuckDB's DECIMAL beside Spark's double)."""
    def norm(v):
        return round(float(v), 3) if isinstance(v, (int, float)) or type(v).__name__ == "Decimal" else v
    return [[tuple(norm(v) for v in r) for r in q] for q in a] == \
        [[tuple(norm(v) for v in r) for r in q] for q in b]


if __name__ == "__main__":
    path, engine = sys.argv[1].rstrip("/"), sys.argv[2]
    runs = {"duckdb": duckdb_run, "spark": spark_run}
    answers = {}
    for name in (["duckdb", "spark"] if engine == "both" else [engine]):
        t = time.time()
        answers[name] = runs[name](path)
        print(f"\n{name}: {time.time() - t:.1f} s")
    if engine == "both":
        ok = same(answers["duckdb"], answers["spark"])
        print("\nDuckDB and Spark agree on every row" if ok else "\nDuckDB and Spark DIFFER")
        sys.exit(0 if ok else 1)
