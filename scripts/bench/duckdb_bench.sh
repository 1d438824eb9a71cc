#!/usr/bin/env bash
# The DuckDB extension against the way there was before it, on one large compressed PGN file:
#
#   A  SELECT count(*), avg(WhiteElo) FROM read_pgn(F)                 (the extension)
#   B  kifu export F -o T.parquet, then the same query over read_parquet(T)  (end to end)
#   C  three columns of read_pgn(F): max(hash(White)), max(hash(Black)), max(hash(Result))
#   D  every column of read_pgn(F): max(hash(COLUMNS(*)))
#
# Runs are interleaved (A B C D, RUNS times) and the medians of per-run ratios quoted (B/A, D/C),
# beside the median wall seconds: the machine is shared and noisy.
#
#   scripts/bench/duckdb_bench.sh [RUNS] [lichess|tcec|FILE]
#
# FILE defaults to lichess games of the corpus (../shared/corpus/pgn/small/shakmaty-benches/
# lichess_db_1000k.pgn, 438 games, 110 times over: about 110 MB, 48,180 games) compressed with
# zstd, made once under ${KIFU_BENCH_DIR:-/tmp/kifu-duckdb-bench}; `tcec` for the TCEC games
# (../shared/corpus/pgn/large/tcec, every file three times over: 107 MB in 2,415 long games with
# an engine comment on every move). The extension and kifu are release builds
# (scripts/duckdb/build.sh, cargo build --release -p kifu-cli), DuckDB the package venv's
# (scripts/python_env.sh). Both read on the machine's cores.
set -euo pipefail
runs=${1:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${KIFU_BENCH_DIR:-${TMPDIR:-/tmp}/kifu-duckdb-bench}
shared=${KIFU_SHARED:-$root/../shared}
mkdir -p "$dir"
file=${2:-lichess}
case "$file" in
  lichess) src=$shared/corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn times=110 ;;
  tcec) src=$shared/corpus/pgn/large/tcec times=3 ;;
  *) src="" ;;
esac
if [ -n "$src" ]; then
  [ -e "$src" ] || { echo "duckdb_bench: no $src: give a FILE" >&2; exit 2; }
  name=$file
  file=$dir/$name$times.pgn.zst
  if [ ! -f "$file" ]; then
    if [ -d "$src" ]; then set -- "$src"/*.pgn; else set -- "$src"; fi
    for _ in $(seq "$times"); do cat "$@"; done | zstd -q -c > "$file.tmp"
    mv "$file.tmp" "$file"
  fi
fi
py=$("$root/scripts/python_env.sh" --no-build)
ext=$("$root/scripts/duckdb/build.sh")
(cd "$root" && cargo build --locked --release -q -p kifu-cli)
kifu=$root/target/release/kifu
echo "file: $file ($(du -h "$file" | cut -f1) compressed, $(zstd -dc "$file" | wc -c | awk '{printf "%.0f MB", $1/1e6}') of PGN); $runs runs; $(nproc) cores"

"$py" - "$ext" "$kifu" "$file" "$dir" "$runs" <<'PY'
import statistics, subprocess, sys, time
import duckdb

ext, kifu, f, dir, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
con.execute(f"LOAD '{ext}'")
parquet = f"{dir}/games.parquet"

def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out

def a():
    return con.execute(f"SELECT count(*), avg(WhiteElo) FROM read_pgn('{f}')").fetchall()

def b():
    subprocess.run([kifu, "export", "-q", "--force", f, "-o", parquet], check=True)
    return con.execute(f"SELECT count(*), avg(WhiteElo) FROM read_parquet('{parquet}')").fetchall()

def c():
    return con.execute(
        f"SELECT max(hash(White)), max(hash(Black)), max(hash(Result)) FROM read_pgn('{f}')"
    ).fetchall()

def d():
    return con.execute(f"SELECT max(hash(COLUMNS(*))) FROM read_pgn('{f}')").fetchall()

times = {k: [] for k in "abcd"}
for _ in range(runs):
    ta, ra = timed(a)
    tb, rb = timed(b)
    assert ra == rb, (ra, rb)
    tc, _ = timed(c)
    td, _ = timed(d)
    for k, t in zip("abcd", (ta, tb, tc, td)):
        times[k].append(t)
med = {k: statistics.median(v) for k, v in times.items()}
ratio_ab = statistics.median(b / a for a, b in zip(times["a"], times["b"]))
ratio_cd = statistics.median(d / c for c, d in zip(times["c"], times["d"]))
print(f"games: {ra[0][0]}, avg(WhiteElo) {ra[0][1]:.1f}")
print("| query | median wall s | ratio (median of per-run ratios) |")
print("|---|---:|---:|")
print(f"| A read_pgn: count(*), avg(WhiteElo) | {med['a']:.2f} | |")
print(f"| B kifu export + read_parquet, same query | {med['b']:.2f} | B/A {ratio_ab:.2f}x |")
print(f"| C read_pgn: 3 columns (White, Black, Result) | {med['c']:.2f} | |")
print(f"| D read_pgn: every column | {med['d']:.2f} | D/C {ratio_cd:.2f}x |")
PY
