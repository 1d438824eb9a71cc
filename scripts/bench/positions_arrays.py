#!/usr/bin/env python3
"""kifu.positions (NumPy batches) beside kifu.to_arrow(table="positions") on the same games:
positions a second, and the peak memory of iterating with a shuffle buffer at two input sizes
(docs/python.md § Figures, issue 35).

    PY=$(scripts/python_env.sh)          # the release wheel
    $PY scripts/bench/positions_arrays.py [--rounds 5] [--repeat 8] [--threads 1] FILE.pgn

Each job runs in a child process of its own, which times itself from after its imports to its
last batch (wall and CPU seconds of the process, every thread), so that `import pyarrow` and
`import numpy` are not counted. The jobs of a round alternate (arrow, positions, positions with
shuffle), the source being FILE written `--repeat` times over into one temporary file; the
table gives the median of the rounds. Then the memory: `positions(..., shuffle=100_000,
threads=2)` over FILE repeated `--repeat` and 8 x `--repeat` times (or the sizes of
`--memory`), one file each, peak RSS of each child (`ru_maxrss`).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, resource, sys, time
import numpy, pyarrow
import kifu
job, source, threads, columns, fmt = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
cols = None if columns == "default" else columns.split(",")
t0, c0 = time.perf_counter(), time.process_time()
rows = 0
if job == "arrow":
    for b in kifu.to_arrow(source, "positions", format=fmt, threads=threads, columns=cols):
        rows += b.num_rows
elif job == "positions":
    for b in kifu.positions(source, format=fmt, threads=threads, columns=cols):
        rows += len(next(iter(b.values())))
elif job.startswith("find"):
    # kifu.find's search as kifu find runs it (the events first), or every game built
    # (variations=True: no game of the lichess sample has one, so the answers are the same)
    rows = sum(1 for _ in kifu.find(source, fen=columns, threads=threads, variations=job == "find_dom"))
elif job == "shuffle":
    for b in kifu.positions(source, format=fmt, threads=threads, columns=cols, shuffle=100_000, seed=0):
        rows += len(next(iter(b.values())))
print(json.dumps({"rows": rows, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def run(job, path, threads, columns, fmt):
    out = subprocess.run([sys.executable, "-c", CHILD, job, path, str(threads), columns, fmt],
                         capture_output=True, check=True, text=True).stdout
    return json.loads(out)


def repeated(src, k, folder, fmt):
    """`src` written `k` times over into one file of `folder` (one input, as an archive is);
    a directory of SGF files: their game trees one after the other, as one collection."""
    out = os.path.join(folder, f"x{k}.{fmt}")
    if os.path.isdir(src):
        names = sorted(os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".sgf"))
        data = b"\n".join(open(n, "rb").read() for n in names)
    else:
        data = open(src, "rb").read()
    with open(out, "wb") as f:
        for _ in range(k):
            f.write(data)
            f.write(b"\n")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", help="a PGN file, an SGF file, or a directory of SGF files")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--memory", default="",
                    help="the input sizes of the memory runs, as repeats of FILE (default: --repeat and 8 x --repeat)")
    ap.add_argument("--find", metavar="FEN",
                    help="instead: kifu.find(fen=FEN) searched on the events first, against every game built")
    ap.add_argument("--columns", default="default",
                    help="columns=, comma-separated ('default': positions' numeric columns and bitboards)")
    a = ap.parse_args()
    fmt = "sgf" if os.path.isdir(a.file) or a.file.endswith(".sgf") else "pgn"
    # to_arrow builds every column unless told: give it the columns positions() builds
    columns = a.columns
    if a.find:
        tmp = tempfile.TemporaryDirectory()
        source = repeated(a.file, a.repeat, tmp.name, fmt)
        got = {"find_sieve": [], "find_dom": []}
        for _ in range(a.rounds):
            for j in got:
                got[j].append(run(j, source, a.threads, a.find, fmt))
        for j, v in got.items():
            print(f"{j}: {v[0]['rows']} games, CPU s median {statistics.median(x['cpu'] for x in v):.3f}, "
                  f"wall s median {statistics.median(x['wall'] for x in v):.3f}")
        return 0
    if columns == "default":
        import kifu  # noqa: PLC0415

        import warnings  # noqa: PLC0415

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            first = next(iter(kifu.positions(a.file, format=fmt, batch_size=1)))
        columns = ",".join(first)
    tmp = tempfile.TemporaryDirectory()
    source = repeated(a.file, a.repeat, tmp.name, fmt)
    jobs = ["arrow", "positions", "shuffle"]
    times = {j: [] for j in jobs}
    rows = {}
    for r in range(a.rounds):
        for j in jobs:
            res = run(j, source, a.threads, columns, fmt)
            times[j].append(res)
            rows.setdefault(j, res["rows"])
            assert rows[j] == res["rows"], (j, rows[j], res["rows"])
        print(f"round {r + 1}: " + "  ".join(f"{j} {times[j][-1]['wall']:.3f}s" for j in jobs), file=sys.stderr)
    assert len(set(rows.values())) == 1, rows
    n = rows["arrow"]
    print(f"source: {a.file} x {a.repeat}, {n} positions, threads={a.threads}, columns={columns}")
    print("| job | wall s (median) | CPU s (median) | positions/s (wall) | positions/CPU s |")
    print("|---|---:|---:|---:|---:|")
    for j in jobs:
        w = statistics.median(x["wall"] for x in times[j])
        c = statistics.median(x["cpu"] for x in times[j])
        print(f"| {j} | {w:.3f} | {c:.3f} | {n / w:,.0f} | {n / c:,.0f} |")
    ratios = [p["wall"] / x["wall"] for p, x in zip(times["positions"], times["arrow"])]
    print(f"positions / to_arrow wall time, per round: {', '.join(f'{r:.2f}' for r in ratios)}; "
          f"median {statistics.median(ratios):.2f}")
    mem = {}
    sizes = [int(k) for k in a.memory.split(",")] if a.memory else [a.repeat, 8 * a.repeat]
    for k in sizes:
        res = run("shuffle", repeated(a.file, k, tmp.name, fmt), 2, columns, fmt)
        mem[k] = res
        print(f"memory: shuffle=100_000, threads=2, {a.file} x {k} ({res['rows']} positions): "
              f"peak RSS {res['rss_kib'] / 1024:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
