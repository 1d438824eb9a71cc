#!/usr/bin/env python3
"""Positions a second written as NumPy arrays (`--to npz`, `--to npy`) beside Parquet, for the
same input (docs/figures.md § Arrays, issue 35).

Usage: arrays_bench.py KIFU_BIN INPUT [--rounds N] [--repeat N] [--label NAME]

INPUT is a PGN or SGF file, or a directory; a file is written `--repeat` times into one file
(PGN) or read `--repeat` times as as many inputs (SGF, whose games are trees of their own).
Each round runs, interleaved, each a process of its own, `-j1`:

- `npz`: `kifu export INPUT --table positions -o out.npz` (the columns of numbers, the default
  of the array formats);
- `npy`: the same, `--to npy` (a directory, a file per column);
- `parquet, same columns`: `-o out.parquet --columns` the npz's columns;
- `parquet, every column`: `-o out.parquet` (the table's default, text included).

The CPU seconds of each (user + system, the child's rusage) give positions a second per core;
wall seconds (with the files' fsync) too, and the bytes written. Medians over the rounds. Needs
NumPy (the package venv: scripts/python_env.sh).
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def size(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
    return os.path.getsize(path)


def main(argv):
    import numpy as np

    rounds, repeat, label = 5, 32, None
    for flag in ("--rounds", "--repeat", "--label"):
        if flag in argv:
            i = argv.index(flag)
            value = argv[i + 1]
            del argv[i:i + 2]
            if flag == "--rounds":
                rounds = int(value)
            elif flag == "--repeat":
                repeat = int(value)
            else:
                label = value
    kifu, source = argv
    tmp = tempfile.mkdtemp(prefix="kifu-arrays-bench-")
    try:
        if os.path.isdir(source) or repeat == 1:
            inputs = [source]
        elif source.endswith(".pgn"):
            big = os.path.join(tmp, "big.pgn")
            with open(source, "rb") as f:
                data = f.read()
            if not data.endswith(b"\n\n"):
                data = data.rstrip(b"\n") + b"\n\n"
            with open(big, "wb") as f:
                for _ in range(repeat):
                    f.write(data)
            inputs = [big]
        else:
            inputs = [source] * repeat
        base = [kifu, "export", *inputs, "--table", "positions", "-j1", "-q", "--force"]
        npz = os.path.join(tmp, "out.npz")
        subprocess.run(base + ["-o", npz], check=True)
        columns = ",".join(np.load(npz).files)
        rows = len(np.load(npz)[columns.split(",")[0]])
        outs = {
            "npz": npz,
            "npy": os.path.join(tmp, "out-npy"),
            "parquet, same columns": os.path.join(tmp, "same.parquet"),
            "parquet, every column": os.path.join(tmp, "all.parquet"),
        }
        runs = {
            "npz": base + ["-o", outs["npz"]],
            "npy": base + ["--to", "npy", "-o", outs["npy"]],
            "parquet, same columns": base + ["--columns", columns, "-o", outs["parquet, same columns"]],
            "parquet, every column": base + ["-o", outs["parquet, every column"]],
        }
        cpu = {k: [] for k in runs}
        wall = {k: [] for k in runs}
        for r in range(rounds):
            for name, cmd in runs.items():
                c, w = timed(cmd)
                cpu[name].append(c)
                wall[name].append(w)
                print(f"round {r + 1}: {name}: {c:.3f} s CPU, {w:.3f} s wall, {rows / c:,.0f} positions/s/core",
                      flush=True)
        print(f"{label or source}: {rows:,} positions, {len(inputs)} input(s); medians of {rounds} rounds")
        print("| output | CPU s | wall s | positions / s / core | MB written |")
        print("|---|---:|---:|---:|---:|")
        for name in runs:
            c, w = statistics.median(cpu[name]), statistics.median(wall[name])
            print(f"| {name} | {c:.3f} | {w:.3f} | {rows / c:,.0f} | {size(outs[name]) / 1e6:.1f} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
