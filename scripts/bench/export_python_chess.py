"""What users run today to turn PGN into a table: python-chess's read_game, the headers and the
main line's SAN of each game into a pandas DataFrame, written to Parquet.

    python scripts/bench/export_python_chess.py OUT.parquet FILE.pgn...

Prints `{"games": N, "seconds": S}` (the whole conversion, reading to the file written).
Used by scripts/bench/export_bench.sh beside kifu's `games` table on the same input.
"""

import json
import sys
import time

import chess.pgn
import pandas as pd


def main():
    out, files = sys.argv[1], sys.argv[2:]
    start = time.perf_counter()
    rows = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                row = dict(game.headers)
                board = game.board()
                sans = []
                for move in game.mainline_moves():
                    sans.append(board.san(move))
                    board.push(move)
                row["moves"] = sans
                row["plies"] = len(sans)
                rows.append(row)
    pd.DataFrame(rows).to_parquet(out, compression="zstd")
    print(json.dumps({"games": len(rows), "seconds": round(time.perf_counter() - start, 3)}))


if __name__ == "__main__":
    main()
