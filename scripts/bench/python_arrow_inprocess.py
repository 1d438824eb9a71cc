#!/usr/bin/env python3
"""kifu.to_arrow read to its end, timed inside the process (imports apart), beside kifu-export's
own table build (target/release/examples/export_bench build, one thread both), run by run.

    $(scripts/python_env.sh --bench) scripts/bench/python_arrow_inprocess.py [ROUNDS] FILE...

Prints, per round, the Python side's CPU and wall seconds from the first batch asked for to the
last, the Rust build's seconds, and the median of the ratios Rust / Python (1.0: the same
speed). Build the Rust side first: cargo build --release -p kifu-export --example export_bench.
"""

import json
import pathlib
import statistics
import subprocess
import sys
import time

import kifu
import pyarrow  # noqa: F401  (imported before the clock starts)

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "target/release/examples/export_bench"

args = sys.argv[1:]
rounds = int(args.pop(0)) if args and args[0].isdigit() else 5
if not args:
    raise SystemExit(__doc__)
ratios = []
for r in range(rounds):
    t0, w0 = time.process_time(), time.perf_counter()
    rows = sum(b.num_rows for b in kifu.to_arrow(args, threads=1))
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    out = subprocess.run([str(BUILD), "build", *args], capture_output=True, check=True, text=True)
    rust = json.loads(out.stdout)["seconds"]
    ratios.append(rust / wall)
    print(f"round {r + 1}: {rows} rows; to_arrow {cpu:.3f} s CPU, {wall:.3f} s wall; Rust build {rust:.3f} s; ratio {rust / wall:.2f}")
print(f"median ratio (Rust build time / to_arrow time): {statistics.median(ratios):.2f}")
