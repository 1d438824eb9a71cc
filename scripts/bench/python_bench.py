#!/usr/bin/env python3
"""The kifu Python package beside what Python users run today, as CPU-time ratios.

    $(scripts/python_env.sh --bench) scripts/bench/python_bench.py [ROUNDS] [--only NAME,...] [--quick]

--quick: the PGN comparisons on notnil-chess-history/Carlsen.pgn alone (1.3 MB of master
games; python-chess takes minutes per run on the whole set), python-chess with SAN only.

Each job runs in a child process of its own; jobs of one comparison alternate run by run
(A B A B ...), and each round gives the ratio of the CPU seconds (user + system, every thread
of the child) of the other job to kifu's. The medians of those ratios are printed, with the
wall times, as a Markdown table (docs/python.md quotes it). The machine is shared: wall times
move with its load; CPU time moves less.

Comparisons (corpus under ../shared/corpus, beside the repository):
- pgn: games with their tags and main-line SAN, from notnil-chess-history (master games) and
  stockfish-books/2moves_v2.pgn (short book lines): kifu.read_pgn against python-chess's
  read_game (headers as a dict, the main line's SAN from node.san(); and, the least work
  python-chess can do, its moves without SAN), and against rust-pgn-reader-python-binding 4.1.0 (headers and
  the main line as UCI: it has no SAN output; it takes one string per game, so the file is cut
  into games in Python first, as a user of it must).
- sgf: game trees with root properties and the main line, kgs-6d-u-go-archives (one file per
  game): kifu.read_sgf against sgfmill (Sgf_game.from_bytes, the root's properties, the main
  sequence's moves).
- arrow: the PGN games table, one thread: kifu.to_arrow read to its end against kifu-export's
  own example (export_bench build: DOMs, the table builder, batches; target/release/examples).
- visit: the cost per event of the visitor API (a Python method per move), against a visitor
  defining no method.
"""

import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
NOTNIL = sorted((CORPUS / "pgn/large/notnil-chess-history").glob("*.pgn"))
BOOKS = [CORPUS / "pgn/large/stockfish-books/2moves_v2.pgn"]
PGN = [str(p) for p in NOTNIL + BOOKS]
SGF_DIR = str(CORPUS / "sgf/large/kgs-6d-u-go-archives")
TCEC = sorted(str(p) for p in (CORPUS / "pgn/large/tcec").glob("*.pgn"))

KIFU_PGN = """
import sys, kifu
n = plies = 0
for g in kifu.read_pgn(sys.argv[1:]):
    tags = g.tags
    sans = g.sans
    n += 1
    plies += len(sans)
print(n, plies)
"""

KIFU_PGN_UCI = """
import sys, kifu
n = plies = 0
for g in kifu.read_pgn(sys.argv[1:], main_line=True, replay=True):
    tags = g.tags
    uci = g.uci
    n += 1
    plies += len(uci)
print(n, plies)
"""

PYTHON_CHESS = """
import sys, chess.pgn
n = plies = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            tags = dict(g.headers)
            sans = [node.san() for node in g.mainline()]
            n += 1
            plies += len(sans)
print(n, plies)
"""

PYTHON_CHESS_UCI = """
import sys, chess.pgn
n = plies = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            tags = dict(g.headers)
            moves = [m.uci() for m in g.mainline_moves()]
            n += 1
            plies += len(moves)
print(n, plies)
"""

RUST_PGN_READER = """
import re, sys
import rust_pgn_reader_python_binding as r
n = plies = 0
cut = re.compile(r"\\n\\s*\\n(?=\\[)")
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as f:
        games = [g for g in cut.split(f.read()) if g.strip()]
    parsed = r.parse_games_from_strings(games, num_threads=1)
    for g in parsed:
        tags = g.headers
        moves = g.moves_uci()
        n += 1
        plies += len(moves)
print(n, plies)
"""

KIFU_SGF = """
import sys, kifu
n = moves = 0
for t in kifu.read_sgf(sys.argv[1]):
    props = t.properties
    main = t.moves
    n += 1
    moves += len(main)
print(n, moves)
"""

SGFMILL = """
import os, sys
from sgfmill import sgf
n = moves = failed = 0
for d, _, files in sorted(os.walk(sys.argv[1])):
    for name in sorted(files):
        if not name.lower().endswith(".sgf"):
            continue
        with open(os.path.join(d, name), "rb") as f:
            data = f.read()
        try:
            game = sgf.Sgf_game.from_bytes(data)
        except ValueError:
            failed += 1
            continue
        root = game.get_root()
        props = {p: root.get_raw_list(p) for p in root.properties()}
        main = [node.get_move() for node in game.get_main_sequence()]
        n += 1
        moves += sum(1 for c, _ in main if c is not None)
print(n, moves, failed)
"""

KIFU_ARROW = """
import sys, kifu
rows = 0
for batch in kifu.to_arrow(sys.argv[1:], threads=1):
    rows += batch.num_rows
print(rows)
"""

VISIT_NONE = """
import sys, kifu
class V:
    pass
kifu.visit(sys.argv[1:], V())
print(0)
"""

VISIT_MOVES = """
import sys, kifu
class V:
    n = 0
    def on_move(self, san, ply, depth):
        self.n += 1
v = V()
kifu.visit(sys.argv[1:], v)
print(v.n)
"""


PRELUDE = "import time as _t\n_c0, _w0 = _t.process_time(), _t.perf_counter()\n"
POSTLUDE = "\nprint('CPU', _t.process_time() - _c0, _t.perf_counter() - _w0)\n"


def run(job):
    """Runs a job: its CPU seconds (every thread), wall seconds and output. A Python job
    measures itself, from its first line to its last (the interpreter's start and the imports
    of the comparison's own modules left out, for every job alike); a program is measured
    whole (children's user + system)."""
    kind, what, args = job
    cmd = [sys.executable, "-c", PRELUDE + what + POSTLUDE, *args] if kind == "py" else [what, *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed:\n{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = out.stdout.strip().splitlines()
    if kind == "py":
        _, c, w = lines[-1].split()
        cpu, wall = float(c), float(w)
        lines = lines[:-1]
    return cpu, wall, lines[-1] if lines else ""


def compare(name, kifu_job, other_job, rounds, size):
    ratios, walls, cpus = [], [], []
    out_k = out_o = ""
    for _ in range(rounds):
        ck, wk, out_k = run(kifu_job)
        co, wo, out_o = run(other_job)
        ratios.append(co / ck)
        walls.append((wk, wo))
        cpus.append((ck, co))
    med = statistics.median(ratios)
    ck = statistics.median(c[0] for c in cpus)
    co = statistics.median(c[1] for c in cpus)
    wk = statistics.median(w[0] for w in walls)
    wo = statistics.median(w[1] for w in walls)
    row = {
        "comparison": name,
        "bytes": size,
        "kifu_cpu_s": round(ck, 3),
        "other_cpu_s": round(co, 3),
        "kifu_wall_s": round(wk, 3),
        "other_wall_s": round(wo, 3),
        "kifu_MB_per_cpu_s": round(size / 1e6 / ck, 2),
        "other_MB_per_cpu_s": round(size / 1e6 / co, 3),
        "cpu_ratio_median": round(med, 2),
        "cpu_ratios": [round(r, 2) for r in ratios],
        "kifu_out": out_k,
        "other_out": out_o,
    }
    if name.startswith("visit"):
        events = int(out_o.split()[0])
        row["ns_per_event"] = round((co - ck) / events * 1e9, 1)
        row["events"] = events
    print(json.dumps(row), flush=True)
    return row


def size_of(paths):
    total = 0
    for p in paths:
        p = pathlib.Path(p)
        if p.is_dir():
            total += sum(f.stat().st_size for f in p.rglob("*.sgf"))
        else:
            total += p.stat().st_size
    return total


def main():
    args = sys.argv[1:]
    rounds = int(args[0]) if args and args[0].isdigit() else 3
    only = None
    if "--only" in args:
        only = set(args[args.index("--only") + 1].split(","))
    if not CORPUS.exists():
        raise SystemExit(f"{CORPUS} is absent: the shared corpus sits beside the repository")
    export_bench = ROOT / "target/release/examples/export_bench"
    quick = "--quick" in args
    global PGN
    if quick:
        PGN = [str(p) for p in NOTNIL if p.name == "Carlsen.pgn"]
    rows = []
    todo = [
        ("pgn: python-chess read_game, SAN", ("py", KIFU_PGN, PGN), ("py", PYTHON_CHESS, PGN), size_of(PGN)),
        ("pgn: python-chess read_game, moves without SAN", ("py", KIFU_PGN, PGN), ("py", PYTHON_CHESS_UCI, PGN), size_of(PGN)),
        ("pgn: rust-pgn-reader-python-binding", ("py", KIFU_PGN, PGN), ("py", RUST_PGN_READER, PGN), size_of(PGN)),
        ("pgn: rust-pgn-reader-python-binding, kifu replaying to UCI", ("py", KIFU_PGN_UCI, PGN), ("py", RUST_PGN_READER, PGN), size_of(PGN)),
        ("sgf: sgfmill", ("py", KIFU_SGF, [SGF_DIR]), ("py", SGFMILL, [SGF_DIR]), size_of([SGF_DIR])),
        ("arrow: export_bench build (Rust), dense", ("py", KIFU_ARROW, PGN), ("bin", str(export_bench), ["build", *PGN]), size_of(PGN)),
        ("arrow: export_bench build (Rust), tcec", ("py", KIFU_ARROW, TCEC), ("bin", str(export_bench), ["build", *TCEC]), size_of(TCEC)),
        ("visit: on_move in Python vs no method", ("py", VISIT_NONE, PGN), ("py", VISIT_MOVES, PGN), size_of(PGN)),
    ]
    for name, a, b, size in todo:
        key = name.split(":")[0]
        if only and key not in only:
            continue
        if quick and "without SAN" in name:
            continue
        if b[0] == "bin" and not pathlib.Path(b[1]).exists():
            print(f"skipped {name}: build it with cargo build --release -p kifu-export --example export_bench", file=sys.stderr)
            continue
        rows.append(compare(name, a, b, rounds, size))
    print()
    print("| comparison | MB | kifu CPU s | other CPU s | kifu wall s | other wall s | CPU ratio (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['comparison']} | {r['bytes'] / 1e6:.1f} | {r['kifu_cpu_s']} | {r['other_cpu_s']} | "
            f"{r['kifu_wall_s']} | {r['other_wall_s']} | **{r['cpu_ratio_median']}x** |"
        )
    for r in rows:
        if "ns_per_event" in r:
            print(f"\nvisitor: {r['ns_per_event']} ns of CPU per on_move call ({r['events']} calls)")


if __name__ == "__main__":
    main()
