#!/usr/bin/env python3
"""docs/duckdb.md § Positions: an explorer as one GROUP BY over read_pgn's positions, a position
index as one COPY … ORDER BY key, and the time of a lookup in the index against a scan.

Usage: duckdb_positions_bench.py EXTENSION PGN [--rounds N] [--repeat N]

PGN is repeated `repeat` times into a temporary file (the corpus's lichess sample ×32: 32 MB);
the index is built once (its time printed), then the rounds interleave the explorer over
read_pgn (a scan) and the same explorer over the index (a lookup), each in a fresh connection;
wall seconds, medians. Needs the Python package `duckdb` (the package venv of
scripts/python_env.sh) and the extension (scripts/duckdb/build.sh).
"""
import os
import shutil
import statistics
import sys
import tempfile
import time

import duckdb

# after 1. e4 c5 2. Nf3 (the Sicilian's main line): its moves, as lichess's explorer shows them
EPD = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -"

EXPLORER = """
SELECT uci, any_value(san) AS san, count(*) AS games,
       round(100 * avg((score = 1)::int), 1) AS won,
       round(100 * avg((score = 0)::int), 1) AS drawn,
       round(100 * avg((score = -1)::int), 1) AS lost,
       round(avg(CASE side_to_move WHEN 'white' THEN WhiteElo ELSE BlackElo END)) AS rating,
       arg_min(file || ':' || (game_index + 1), game_index) AS a_game
FROM {source}
WHERE key = {key}
GROUP BY uci ORDER BY games DESC
"""

INDEX = """
COPY (SELECT key, ply, uci, san, score, side_to_move, WhiteElo, BlackElo, file, game_index
      FROM read_pgn('{pgn}', rows := 'positions') ORDER BY key)
TO '{out}' (FORMAT parquet, ROW_GROUP_SIZE 100000)
"""


def connect(ext):
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{ext}'")
    return con


def timed(con, sql):
    t = time.perf_counter()
    rows = con.execute(sql).fetchall()
    return time.perf_counter() - t, rows


def main(argv):
    rounds, repeat = 5, 32
    for flag in ("--rounds", "--repeat"):
        if flag in argv:
            i = argv.index(flag)
            value = int(argv[i + 1])
            del argv[i:i + 2]
            rounds, repeat = (value, repeat) if flag == "--rounds" else (rounds, value)
    ext, pgn = (os.path.abspath(a) for a in argv)
    tmp = tempfile.mkdtemp(prefix="kifu-duckdb-positions-")
    try:
        big = os.path.join(tmp, "games.pgn")
        with open(pgn, "rb") as f:
            data = f.read().rstrip(b"\n") + b"\n\n"
        with open(big, "wb") as f:
            for _ in range(repeat):
                f.write(data)
        index = os.path.join(tmp, "index.parquet")
        con = connect(ext)
        t, _ = timed(con, INDEX.format(pgn=big, out=index))
        n = con.execute(f"SELECT count(*) FROM '{index}'").fetchone()[0]
        key = con.execute(f"SELECT key FROM read_pgn('{big}', rows := 'positions') "
                          f"WHERE epd = '{EPD}' LIMIT 1").fetchone()[0]
        con.close()
        print(f"{os.path.getsize(big):,} bytes of PGN, {n:,} positions; the index: {t:.2f} s, "
              f"{os.path.getsize(index):,} bytes; key {key}")
        scans, lookups = [], []
        for r in range(rounds):
            con = connect(ext)
            s, a = timed(con, EXPLORER.format(
                source=f"read_pgn('{big}', rows := 'positions')", key=key))
            con.close()
            con = connect(ext)
            lk, b = timed(con, EXPLORER.format(source=f"'{index}'", key=key))
            con.close()
            assert a == b, (a, b)
            scans.append(s)
            lookups.append(lk)
            print(f"round {r + 1}: scan {s:.3f} s, lookup {lk:.4f} s", flush=True)
        for row in a:
            print(row)
        s, lk = statistics.median(scans), statistics.median(lookups)
        print(f"median: scan {s:.3f} s, lookup {lk:.4f} s ({s / lk:.0f}x)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
