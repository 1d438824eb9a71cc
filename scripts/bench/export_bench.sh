#!/usr/bin/env bash
# The figures of docs/export.md (§ Figures), from the export crate's single-thread building
# block (export/examples/export_bench.rs):
#
#   scripts/bench/export_bench.sh speed [ROUNDS]   the games table to Parquet beside a plain parse of
#                                            the same bytes, on dense PGN (stockfish-books) and
#                                            TCEC, runs interleaved; medians of ratios
#   scripts/bench/export_bench.sh python           against a python-chess conversion script and
#                                            pgn2data on the same samples (ratios)
#   scripts/bench/export_bench.sh memory           peak RSS exporting ~1 GB against ~1 MB
#   scripts/bench/export_bench.sh command-memory   the same for the kifu command itself, -j1 and -j2,
#                                            the corpus through stdin once and 15 times
#   scripts/bench/export_bench.sh cli [ROUNDS] [J] the command itself: `kifu export --table games` to
#                                            Parquet against `kifu stats` on the same files, as
#                                            whole processes (-jJ, default 1) run interleaved;
#                                            the median of the ratios of their times
#   scripts/bench/export_bench.sh matrix [ROUNDS]  the same for dense, TCEC and a lichess-format
#                                            stream (the corpus's lichess_db_1000k.pgn repeated
#                                            to 256 MB: clocks on every move, evals on some),
#                                            the games and moves tables, Parquet and CSV, -j1
#                                            and -j2, each against `kifu stats` at the same -j
#
# Needs ../shared/corpus (or KIFU_CORPUS); `python` makes the venv of
# scripts/python_env.sh --export-bench. Timing on a shared machine is noisy: compare the ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=${KIFU_CORPUS:-../shared/corpus}
what=${1:-speed}
rounds=${2:-5}
if [ "$what" = cli ] || [ "$what" = command-memory ] || [ "$what" = matrix ]; then
  cargo build --release -q -p kifu-cli
else
  cargo build --release -q -p kifu-export --example export_bench
fi
K=${KIFU_BIN:-target/release/kifu} # KIFU_BIN: another build to compare
B=target/release/examples/export_bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# `field NAME` reads one number from the JSON object on stdin
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

dense=("$corpus"/pgn/large/stockfish-books/*.pgn)
book="$corpus/pgn/large/stockfish-books/8moves_v3.pgn"
tcec=("$corpus"/pgn/large/tcec/*.pgn)

speed() {
  local name=$1
  shift
  : > "$tmp/ratio" ; : > "$tmp/parse" ; : > "$tmp/pq" ; : > "$tmp/dom" ; : > "$tmp/push" ; : > "$tmp/write"
  for _ in $(seq "$rounds"); do
    p=$("$B" parse "$@")
    q=$("$B" parquet "$@" 2>/dev/null)
    ps=$(echo "$p" | field seconds)
    qs=$(echo "$q" | field seconds)
    echo "$p" | field mb_per_s >> "$tmp/parse"
    echo "$q" | field mb_per_s >> "$tmp/pq"
    python3 -c "print($ps / $qs)" >> "$tmp/ratio"
    for k in dom push write; do
      python3 -c "import json; q = json.loads('$q'); print(q['${k}_s'] / q['seconds'])" >> "$tmp/$k"
    done
  done
  printf '%-6s parse %7.1f MB/s   games->Parquet %6.1f MB/s   ratio %.3f   time: DOM %.0f%%, builder %.0f%%, Parquet %.0f%%\n' \
    "$name" "$(median < "$tmp/parse")" "$(median < "$tmp/pq")" "$(median < "$tmp/ratio")" \
    "$(python3 -c "print(100 * $(median < "$tmp/dom"))")" \
    "$(python3 -c "print(100 * $(median < "$tmp/push"))")" \
    "$(python3 -c "print(100 * $(median < "$tmp/write"))")"
}

python_ratios() {
  py=$(scripts/python_env.sh --export-bench) || { echo "no venv for the Python tools: skipped" >&2; return; }
  # samples: the first 30,000 games of a dense book, and four TCEC files (long engine comments)
  python3 - "$book" "$tmp/dense.pgn" <<'EOF'
import sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src, encoding="utf-8", errors="replace").read()
games = text.split("\n\n[Event ")
open(dst, "w", encoding="utf-8").write("\n\n[Event ".join(games[:30000]) + "\n\n")
EOF
  cat "$corpus"/pgn/large/tcec/TCEC_Cup_1{0,1}_{Final,Semifinal}.pgn > "$tmp/tcec.pgn"
  for s in dense tcec; do
    f="$tmp/$s.pgn"
    : > "$tmp/k"
    : > "$tmp/k2"
    for _ in 1 2 3 4 5; do
      "$B" parquet "$f" 2>/dev/null | field seconds >> "$tmp/k"
      "$B" parquet --no-sync "$f" 2>/dev/null | field seconds >> "$tmp/k2"
    done
    k=$(median < "$tmp/k")
    k2=$(median < "$tmp/k2")
    games=$("$B" parse "$f" | field games)
    pc=$("$py" scripts/bench/export_python_chess.py "$tmp/pc.parquet" "$f" | field seconds)
    p2=$("$py" scripts/bench/export_pgn2data.py "$tmp/p2d" "$f" 2>/dev/null | field seconds)
    printf '%-6s %5d games %8.0f bytes: kifu %.4f s (without fsync %.4f s), python-chess %.2f s (%.0fx; %.0fx), pgn2data %.2f s (%.0fx; %.0fx)\n' \
      "$s" "$games" "$(stat -c %s "$f")" "$k" "$k2" "$pc" "$(python3 -c "print($pc / $k)")" \
      "$(python3 -c "print($pc / $k2)")" "$p2" "$(python3 -c "print($p2 / $k)")" \
      "$(python3 -c "print($p2 / $k2)")"
  done
}

memory() {
  mapfile -t all < <(find "$corpus/pgn" -name '*.pgn' | sort)
  large=()
  for _ in $(seq 15); do large+=("${all[@]}"); done
  small=("$corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn")
  for set in small large; do
    declare -n files=$set
    bytes=$(stat -c %s "${files[@]}" | awk '{s += $1} END {print s}')
    /usr/bin/time -f "%M" -o "$tmp/rss" "$B" parquet --stream "${files[@]}" > "$tmp/out" 2>/dev/null
    # glibc raises its mmap threshold as large blocks are freed, and the heap then fragments:
    # measured again with the threshold fixed, which shows the memory actually held
    MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=65536 \
      /usr/bin/time -f "%M" -o "$tmp/rss2" "$B" parquet --stream "${files[@]}" > /dev/null 2>&1
    printf '%-6s %11d bytes, %8d games: peak RSS %7.1f MiB (glibc threshold fixed: %6.1f MiB)\n' \
      "$set" "$bytes" "$(field games < "$tmp/out")" \
      "$(python3 -c "print($(tail -1 "$tmp/rss") / 1024)")" \
      "$(python3 -c "print($(tail -1 "$tmp/rss2") / 1024)")"
  done
}

# `cli NAME FILES…`: `kifu stats` and `kifu export --table games` (Parquet, the default sink:
# zstd level 1, fsync before the rename), A B A B …; times from the shell, medians
cli() {
  local name=$1
  shift
  local j=${threads:-1}
  : > "$tmp/ratio" ; : > "$tmp/st" ; : > "$tmp/ex"
  local bytes
  bytes=$(stat -c %s "$@" | awk '{s += $1} END {print s}')
  "$K" stats -q -j"$j" "$@" > /dev/null # warm the page cache
  for _ in $(seq "$rounds"); do
    a=$(date +%s.%N)
    "$K" stats -q -j"$j" "$@" > /dev/null
    b=$(date +%s.%N)
    "$K" export -q -j"$j" --table games --to parquet --force -o "$tmp/games.parquet" "$@" 2>/dev/null
    c=$(date +%s.%N)
    python3 -c "print($b - $a)" >> "$tmp/st"
    python3 -c "print($c - $b)" >> "$tmp/ex"
    python3 -c "print(($b - $a) / ($c - $b))" >> "$tmp/ratio"
  done
  printf '%-6s %6.1f MB, -j%s: kifu stats %.3f s (%.1f MB/s), kifu export --table games %.3f s (%.1f MB/s), ratio %.3f (median of %s)\n' \
    "$name" "$(python3 -c "print($bytes / 1e6)")" "$j" \
    "$(median < "$tmp/st")" "$(python3 -c "print($bytes / 1e6 / $(median < "$tmp/st"))")" \
    "$(median < "$tmp/ex")" "$(python3 -c "print($bytes / 1e6 / $(median < "$tmp/ex"))")" \
    "$(median < "$tmp/ratio")" "$rounds"
}

# `matrix`: every input × table × format × -j, `kifu export` against `kifu stats` on the same
# file at the same -j, interleaved; one line each
matrix() {
  local dir=${KIFU_BENCH_DIR:-/tmp/kifu-bench}
  mkdir -p "$dir"
  local lichess=$dir/lichess256.pgn one="$corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn"
  if [ ! -s "$lichess" ]; then
    local n=$(( (256000000 + $(stat -c %s "$one") - 1) / $(stat -c %s "$one") ))
    for _ in $(seq "$n"); do cat "$one"; done > "$lichess"
  fi
  cat "${dense[@]}" > "$tmp/dense.pgn"
  cat "${tcec[@]}" > "$tmp/tcec.pgn"
  echo "| input | table | to | -j | kifu stats | kifu export | export MB/s | stats / export |"
  echo "|---|---|---|---:|---:|---:|---:|---:|"
  for input in dense tcec lichess; do
    local f=$tmp/$input.pgn
    [ "$input" = lichess ] && f=$lichess
    local bytes
    bytes=$(stat -c %s "$f")
    "$K" stats -q -j1 "$f" > /dev/null # warm the page cache
    for table in games moves; do
      for to in parquet csv; do
        for j in 1 2; do
          : > "$tmp/ratio" ; : > "$tmp/st" ; : > "$tmp/ex"
          for _ in $(seq "$rounds"); do
            a=$(date +%s.%N)
            "$K" stats -q -j"$j" "$f" > /dev/null
            b=$(date +%s.%N)
            "$K" export -q -j"$j" --table "$table" --to "$to" --force -o "$tmp/out.$to" "$f" 2>/dev/null
            c=$(date +%s.%N)
            python3 -c "print($b - $a)" >> "$tmp/st"
            python3 -c "print($c - $b)" >> "$tmp/ex"
            python3 -c "print(($b - $a) / ($c - $b))" >> "$tmp/ratio"
          done
          printf '| %s (%.0f MB) | %s | %s | %s | %.3f s | %.3f s | %.1f | **%.3f** |\n' \
            "$input" "$(python3 -c "print($bytes / 1e6)")" "$table" "$to" "$j" \
            "$(median < "$tmp/st")" "$(median < "$tmp/ex")" \
            "$(python3 -c "print($bytes / 1e6 / $(median < "$tmp/ex"))")" "$(median < "$tmp/ratio")"
        done
      done
    done
  done
}

# `command_memory`: peak RSS of the command itself, `kifu export --table games` at -j1 and -j2,
# the PGN corpus streamed through stdin once (72 MB) and 15 times (1.09 GB); and again with
# glibc's mmap threshold fixed
command_memory() {
  mapfile -t all < <(find "$corpus/pgn" -name '*.pgn' | sort)
  for j in 1 2; do
    for n in 1 15; do
      for fixed in 0 1; do
        env $([ "$fixed" = 1 ] && echo MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=65536) \
          /usr/bin/time -f "%M" -o "$tmp/rss" bash -c \
          'n=$1; k=$2; j=$3; out=$4; shift 4; for _ in $(seq "$n"); do cat "$@"; done |
             "$k" export -q -j"$j" --table games --format pgn -o "$out" --force -' \
          _ "$n" "$K" "$j" "$tmp/m.parquet" "${all[@]}"
        printf -- '-j%s x%-2s fixed=%s: peak RSS %7.1f MiB\n' "$j" "$n" "$fixed" \
          "$(python3 -c "print($(tail -1 "$tmp/rss") / 1024)")"
      done
    done
  done
}

case "$what" in
  cli) threads=${3:-1}; cli dense "${dense[@]}"; cli tcec "${tcec[@]}" ;;
  matrix) matrix ;;
  speed) speed dense "${dense[@]}"; speed tcec "${tcec[@]}" ;;
  python) python_ratios ;;
  memory) memory ;;
  command-memory) command_memory ;;
  all) speed dense "${dense[@]}"; speed tcec "${tcec[@]}"; python_ratios; memory ;;
  *) echo "usage: $0 speed [ROUNDS] | cli [ROUNDS] [J] | matrix [ROUNDS] | python | memory | command-memory | all" >&2; exit 2 ;;
esac
