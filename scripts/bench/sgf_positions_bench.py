#!/usr/bin/env python3
"""The SGF positions table's speed beside sgfmill building the same board arrays.

Usage: sgf_positions_bench.py KIFU_BIN DIR_OR_FILE... [--rounds N] [--repeat N] [--build BIN]
       [--baseline OLD_KIFU_BIN]

Rounds interleave (kifu every column, kifu the board and the move only, kifu to .npy, sgfmill,
then again), each run a process of its own; the CPU seconds of each (user + system, from the
child's rusage) are the figure that holds on a loaded machine, wall seconds are printed too.
Each kifu run's rate is divided by sgfmill's of the same round; the figures are the medians of
those ratios over the rounds (and the median rates). Each side's clock holds its work alone: the
sgfmill loop is timed inside its process once sgfmill is imported (`time.process_time`, the
interpreter's start outside the clock), and kifu's output of the run before is removed before
its clock starts (a `--force` run would count deleting it).

- kifu: `kifu export ALL.sgf --table positions -j1 -o out.parquet`, ALL.sgf the SGF files given
  (every `.sgf` under a folder) one after the other, `--repeat` times over (the rate does not
  depend on the size; a larger input drowns the process's start): every column (Parquet,
  zstd), then `--columns game_index,ply,board,policy`, then `--to npy --columns
  game_index,ply,board,board_rows,board_cols,policy,side_to_move` (a directory of `.npy`
  arrays: the board `uint8[N, 19, 19]`; `board_rows` and `board_cols` give its shape); the rows
  counted from kifu's own line on stderr (`kifu export: N rows in …`).
- `--baseline OLD`: the same kifu runs with another build (`before:`), in the same rounds.
- `--build BIN`: also the table built in memory on one thread, no file written (BIN: kifu-export's
  example, `cargo build --release -p kifu-export --example sgf_positions_build`, then
  target/release/examples/sgf_positions_build): what reading the table in memory costs, the
  writer left out; every column, then the board and the move only (`--columns
  game_index,ply,board,policy`: the arrays the sgfmill loop builds, as `kifu.positions(…,
  columns=…)` builds them).
- sgfmill 1.1.1, once over the same files: each game tree through its documented path
  (`sgf_grammar.parse_sgf_collection`, `Sgf_game.from_coarse_game_tree`,
  `sgf_moves.get_setup_and_moves`), and before every main-line move (passes included) the
  board as kifu's bytes (`cols * rows` bytes, row-major from the top row: 0 empty, 1 black,
  2 white; sgfmill counts its rows from the bottom) and the move's index `y * cols + x` (the
  pass `cols * rows`), then `Board.play` (an occupied point skipped, as kifu does): the least
  a Python loop does to get the same arrays (no file written).

Needs sgfmill==1.1.1 only (the oracle venv of ../shared/oracle/README.md: no NumPy, no pyarrow).
"""
import itertools
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def sgf_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                out += [os.path.join(d, n) for n in names if n.lower().endswith(".sgf")]
        else:
            out.append(p)
    return sorted(out)


def sgfmill_run(files):
    import logging

    from sgfmill import sgf, sgf_grammar, sgf_moves

    logging.disable(logging.CRITICAL)
    code = {None: 0, "b": 1, "w": 2}.__getitem__
    chain = itertools.chain.from_iterable
    positions = 0
    sink = None
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        try:
            coarse = sgf_grammar.parse_sgf_collection(data)
        except ValueError:
            continue
        for c in coarse:
            try:
                game = sgf.Sgf_game.from_coarse_game_tree(c, override_encoding="ISO-8859-1")
                board, moves = sgf_moves.get_setup_and_moves(game)
            except ValueError:
                continue
            n = board.side
            rows = []
            for colour, move in moves:
                # kifu's layout: the top row first; sgfmill's row 0 is the bottom one
                arr = bytes(map(code, chain(reversed(board.board))))
                index = n * n if move is None else (n - 1 - move[0]) * n + move[1]
                rows.append((arr, index))
                if move is not None:
                    try:
                        board.play(move[0], move[1], colour)
                    except ValueError:
                        pass
            positions += len(rows)
            sink = rows
    del sink
    return positions


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout, done.stderr


def main(argv):
    if argv and argv[0] == "--sgfmill":
        with open(argv[1]) as f:
            files = [l.rstrip("\n") for l in f]
        from sgfmill import sgf, sgf_grammar, sgf_moves  # noqa: F401 (before the clock)

        t = time.process_time()
        n = sgfmill_run(files)
        print(json.dumps({"positions": n, "cpu": time.process_time() - t}))
        return 0
    rounds, repeat, build, baseline = 5, 8, None, None
    for flag in ("--rounds", "--repeat", "--build", "--baseline"):
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
                baseline = value
    kifu, paths = argv[0], argv[1:]
    files = sgf_files(paths)
    tmp = tempfile.mkdtemp(prefix="kifu-sgf-positions-bench-")
    try:
        listing = os.path.join(tmp, "files.txt")
        with open(listing, "w") as f:
            f.write("".join(p + "\n" for p in files))
        big = os.path.join(tmp, "all.sgf")
        size = 0
        with open(big, "wb") as out:
            for _ in range(repeat):
                for p in files:
                    with open(p, "rb") as f:
                        data = f.read()
                    out.write(data.rstrip() + b"\n")
                    size += len(data)
        print(f"{len(files)} files, {size / repeat / 1e6:.1f} MB; kifu reads them {repeat} times "
              f"over ({size / 1e6:.1f} MB), sgfmill once", flush=True)
        out = os.path.join(tmp, "out.parquet")
        npy = os.path.join(tmp, "out.npy")

        def kifu_runs(binary, prefix):
            base = [binary, "export", big, "--table", "positions", "-j1", "--force", "-o"]
            return {
                prefix + "kifu, every column": base + [out],
                prefix + "kifu, board and move": base + [out, "--columns", "game_index,ply,board,policy"],
                prefix + "kifu, to npy": base + [npy, "--to", "npy", "--columns",
                                                 "game_index,ply,board,board_rows,board_cols,policy,side_to_move"],
            }

        runs = kifu_runs(kifu, "")
        if baseline:
            runs.update(kifu_runs(baseline, "before: "))
        runs["sgfmill"] = [sys.executable, os.path.abspath(__file__), "--sgfmill", listing]
        if build:
            runs = {
                "kifu, built in memory": [build, big],
                "kifu, board and move in memory": [build, "--columns", "game_index,ply,board,policy", big],
                **runs,
            }
        rates = {k: [] for k in runs}
        ratios = {k: [] for k in runs}
        for r in range(rounds):
            this_round = {}
            for name, cmd in runs.items():
                # the run before's output removed outside the clock
                if os.path.isdir(npy):
                    shutil.rmtree(npy)
                if os.path.exists(out):
                    os.remove(out)
                cpu, wall, text, err = timed(cmd)
                if name == "sgfmill":
                    # the loop alone (the interpreter's start and imports outside the clock)
                    n, cpu = json.loads(text)["positions"], json.loads(text)["cpu"]
                elif name.endswith("in memory"):
                    n = json.loads(text)["rows"]
                else:
                    m = re.search(rb"kifu export: ([0-9,]+) rows", err)
                    n = int(m.group(1).replace(b",", b""))
                rates[name].append(n / cpu)
                this_round[name] = n / cpu
                print(f"round {r + 1}: {name}: {n:,} positions, {cpu:.3f} s CPU, {wall:.3f} s wall,"
                      f" {n / cpu:,.0f} positions/s/core", flush=True)
            for name, rate in this_round.items():
                ratios[name].append(rate / this_round["sgfmill"])
        for name, v in rates.items():
            m = statistics.median(v)
            x = statistics.median(ratios[name])
            print(f"median {name}: {m:,.0f} positions/s per core; median of the rounds' ratios "
                  f"{x:.1f}x sgfmill")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
