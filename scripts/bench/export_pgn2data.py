"""pgn2data (PyPI) on the same input: its own conversion of PGN into tables (a games CSV and a
moves CSV, with its per-move columns), timed.

    python scripts/bench/export_pgn2data.py OUTDIR FILE.pgn...

Prints `{"files": N, "games": G, "seconds": S}`. Used by scripts/export_bench.sh.
"""

import json
import logging
import os
import sys
import time

from converter.pgn_data import PGNData


def main():
    out, files = sys.argv[1], [os.path.abspath(f) for f in sys.argv[2:]]
    os.makedirs(out, exist_ok=True)
    logging.disable(logging.INFO)
    start = time.perf_counter()
    PGNData(files, os.path.join(os.path.abspath(out), "out")).export()
    seconds = time.perf_counter() - start
    with open(os.path.join(out, "out_game_info.csv"), encoding="utf-8", errors="replace") as f:
        games = sum(1 for _ in f) - 1
    print(json.dumps({"files": len(files), "games": games, "seconds": round(seconds, 3)}))


if __name__ == "__main__":
    main()
