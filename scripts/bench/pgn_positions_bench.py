#!/usr/bin/env python3
"""The PGN positions table's speed beside python-chess building the same twelve bitboards.

Usage: pgn_positions_bench.py KIFU_BIN PGN [--rounds N] [--repeat N] [--before KIFU_BIN]
       [--build BIN]

Rounds interleave (kifu full table, kifu bitboards only, python-chess, then again), each run a
process of its own; the CPU seconds of each (user + system, from the child's rusage) are the
figure that holds on a loaded machine, wall seconds are printed too. Medians over the rounds,
then the medians of each round's ratios (to python-chess, to the binding, to --before).

Each side's clock holds its work and nothing else: the Python loops are timed inside their
process once their modules are imported (the interpreter's start and `import chess`, some 95 ms
of CPU, would be an eighth of python-chess's run over the 1 MB sample, and nothing at an
archive's scale), and the output of kifu's run before is removed before its clock starts (a
`--force` run would otherwise count the deleting of the last run's 100 MB of arrays; python-chess
writes nothing). kifu's clock keeps its own process start (a millisecond).

- kifu: `kifu export PGN×repeat --table positions -j1 -o out.parquet`: every column (Parquet,
  zstd), then `--columns game_index,ply,bitboards`; the positions counted from the Parquet file.
  Then `--to npy` (a directory of NumPy arrays, numbers only: `--columns game_index,ply,
  bitboards,side_to_move,castling,ep_square,policy,score`), its positions counted from the
  header of its `ply.npy`.
- python-chess 1.11.2: chess.pgn.read_game over PGN (once; its rate scales), and for every
  position of the main line, the final one included, the twelve `pieces_mask(piece, color)` in a
  list: the least a Python loop does to get the same numbers (no Parquet written); the loop's CPU
  seconds (`time.process_time`, the file opened and read inside the clock).

- --before KIFU_BIN: a build before a change, its two kifu runs interleaved with the others.
- --build BIN: also the table built in memory by the scan on one thread, no file written (BIN:
  kifu-pipeline's example, `cargo build --release -p kifu-pipeline --example
  positions_in_memory`, then target/release/examples/positions_in_memory): the twelve
  bitboards (`--columns game_index,ply,bitboards`: what the python-chess loop builds, in memory
  as it is), then the `--to npy` columns; what `kifu.positions` asks of the scan (the batches
  as the workers made them), Python's arrays left out. Then the bitboards again with `--recut`:
  the batches cut again to 8,192 rows, as `kifu.to_arrow` hands them on.
- rust-pgn-reader-python-binding (vladkvit's; when installed in the venv: `pip install
  rust-pgn-reader-python-binding==4.1.0`, else skipped, saying so): `parse_games` on one thread
  over the same games repeated as kifu's (an Arrow array of one string per game, made before the
  clock starts), its positions counted (`num_positions`: a 64-square board, castling, en passant
  and clocks per position, in memory as NumPy arrays; no file written).

Needs python-chess and pyarrow: the export-bench venv (scripts/python_env.sh --export-bench).
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def python_chess(path):
    import logging

    import chess
    import chess.pgn

    logging.disable(logging.CRITICAL)
    pieces = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]
    positions = 0
    sink = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            boards = [[board.pieces_mask(t, c) for c in (True, False) for t in pieces]]
            for move in game.mainline_moves():
                board.push(move)
                boards.append([board.pieces_mask(t, c) for c in (True, False) for t in pieces])
            positions += len(boards)
            sink = boards
    del sink
    return positions


def rust_pgn_reader(path, repeat):
    """CPU seconds of rust-pgn-reader-python-binding's parse_games on one thread, and its
    positions."""
    import re

    import pyarrow as pa
    import rust_pgn_reader_python_binding as r

    with open(path, encoding="utf-8", errors="replace") as f:
        games = [g for g in re.split(r"\n\s*\n(?=\[)", f.read()) if g.strip()]
    array = pa.chunked_array([pa.array(games * repeat)])
    t = time.process_time()
    parsed = r.parse_games(array, num_threads=1)
    cpu = time.process_time() - t
    return parsed.num_positions, cpu


NPY_COLUMNS = "game_index,ply,bitboards,side_to_move,castling,ep_square,policy,score"


def npy_rows(path):
    """The rows of a one-dimensional .npy file, from its header."""
    import ast

    with open(path, "rb") as f:
        major = f.read(8)[6]
        size = int.from_bytes(f.read(2 if major == 1 else 4), "little")
        header = ast.literal_eval(f.read(size).decode("latin-1"))
    return header["shape"][0]


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, out


def main(argv):
    if argv and argv[0] == "--python-chess":
        import chess.pgn  # noqa: F401 (imported before the clock starts)

        t = time.process_time()
        n = python_chess(argv[1])
        print(json.dumps({"positions": n, "cpu": time.process_time() - t}))
        return 0
    if argv and argv[0] == "--rust-pgn-reader":
        n, cpu = rust_pgn_reader(argv[1], int(argv[2]))
        print(json.dumps({"positions": n, "cpu": cpu}))
        return 0
    rounds, repeat, before, build = 5, 32, None, None
    for flag in ("--rounds", "--repeat", "--before", "--build"):
        if flag in argv:
            i = argv.index(flag)
            value = argv[i + 1]
            del argv[i:i + 2]
            if flag == "--rounds":
                rounds = int(value)
            elif flag == "--repeat":
                repeat = int(value)
            elif flag == "--build":
                build = value
            else:
                before = value
    kifu, pgn = argv
    import pyarrow.parquet as pq

    tmp = tempfile.mkdtemp(prefix="kifu-positions-bench-")
    try:
        big = os.path.join(tmp, "big.pgn")
        with open(pgn, "rb") as f:
            data = f.read()
        if not data.endswith(b"\n\n"):
            data = data.rstrip(b"\n") + b"\n\n"
        with open(big, "wb") as f:
            for _ in range(repeat):
                f.write(data)
        out = os.path.join(tmp, "out.parquet")
        npy = os.path.join(tmp, "out.npy")
        runs = {
            "kifu, every column": [kifu, "export", big, "--table", "positions", "-j1", "-q",
                                   "--force", "-o", out],
            "kifu, bitboards": [kifu, "export", big, "--table", "positions", "-j1", "-q",
                                "--force", "--columns", "game_index,ply,bitboards", "-o", out],
            "kifu, --to npy": [kifu, "export", big, "--table", "positions", "-j1", "-q",
                               "--force", "--to", "npy", "--columns", NPY_COLUMNS, "-o", npy],
            "python-chess": [sys.executable, os.path.abspath(__file__), "--python-chess", pgn],
        }
        if build:
            runs["kifu, bitboards in memory"] = [build, "--columns", "game_index,ply,bitboards", big]
            runs["kifu, npy columns in memory"] = [build, "--columns", NPY_COLUMNS, big]
            runs["kifu, bitboards in memory, batches of 8,192"] = [
                build, "--recut", "--columns", "game_index,ply,bitboards", big]
        if before:
            runs["before, every column"] = [before] + runs["kifu, every column"][1:]
            runs["before, bitboards"] = [before] + runs["kifu, bitboards"][1:]
            runs["before, --to npy"] = [before] + runs["kifu, --to npy"][1:]
        try:
            import rust_pgn_reader_python_binding  # noqa: F401

            runs["rust-pgn-reader-python-binding"] = [
                sys.executable, os.path.abspath(__file__), "--rust-pgn-reader", pgn, str(repeat)]
        except ImportError:
            print("rust-pgn-reader-python-binding is not installed: skipped", flush=True)
        rates = {k: [] for k in runs}
        for r in range(rounds):
            for name, cmd in runs.items():
                # the run before's output removed outside the clock
                if os.path.isdir(npy):
                    shutil.rmtree(npy)
                if os.path.exists(out):
                    os.remove(out)
                cpu, wall, text = timed(cmd)
                if name == "python-chess":
                    # the loop alone (the interpreter's start and imports outside the clock)
                    n, cpu = json.loads(text)["positions"], json.loads(text)["cpu"]
                elif name == "rust-pgn-reader-python-binding":
                    # its parse alone (the file read and cut into games outside the clock)
                    n, cpu = json.loads(text)["positions"], json.loads(text)["cpu"]
                elif "in memory" in name:
                    n = json.loads(text)["rows"]
                elif name.endswith("--to npy"):
                    n = npy_rows(os.path.join(npy, "ply.npy"))
                else:
                    n = pq.read_metadata(out).num_rows
                rates[name].append(n / cpu)
                print(f"round {r + 1}: {name}: {n:,} positions, {cpu:.3f} s CPU, {wall:.3f} s wall,"
                      f" {n / cpu:,.0f} positions/s/core", flush=True)
        base = statistics.median(rates["python-chess"])
        for name, v in rates.items():
            m = statistics.median(v)
            print(f"median {name}: {m:,.0f} positions/s per core ({m / base:.0f}x python-chess)")
        # the ratios of each round's runs (interleaved, so under the same load), their medians
        anchors = [a for a in ("python-chess", "rust-pgn-reader-python-binding") if a in rates]
        for name, v in rates.items():
            if name in anchors:
                continue
            said = []
            for a in anchors:
                said.append(f"{statistics.median(x / y for x, y in zip(v, rates[a])):.2f}x {a}")
            other = name.replace("kifu", "before", 1)
            if name.startswith("kifu") and other in rates:
                said.append(f"{statistics.median(x / y for x, y in zip(v, rates[other])):.2f}x before")
            print(f"median of ratios, {name}: " + ", ".join(said))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
