#!/usr/bin/env bash
# The figures of docs/figures.md § "Openings in the games table": `kifu export --table games`
# with every column against the same export with --columns leaving out opening_eco,
# opening_name and opening_ply (so no game is replayed), as whole processes run interleaved;
# per input, the median of the ratios time without / time with (1.0: the openings cost
# nothing).
#
#   scripts/bench/openings_export_bench.sh [ROUNDS] [FILE…]
#
# By default: the corpus's lichess-format games repeated to about 60 MB, TWIC 920 and the
# stockfish-books lines (8moves_v3: every game is an opening line, the worst case). Needs
# ../shared/corpus (or KIFU_CORPUS) for the defaults. The machine is noisy: read the ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=${KIFU_CORPUS:-../shared/corpus}
rounds=${1:-7}
shift $(( $# > 0 ? 1 : 0 ))
cargo build --release -q -p kifu-cli
K=${KIFU_BIN:-target/release/kifu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  src="$corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn"
  [ -f "$src" ] || { echo "needs $corpus (or KIFU_CORPUS), or FILEs" >&2; exit 3; }
  while [ "$(stat -c %s "$tmp/lichess.pgn" 2>/dev/null || echo 0)" -lt 60000000 ]; do cat "$src" >> "$tmp/lichess.pgn"; done
  files=("$tmp/lichess.pgn" "$corpus/pgn/large/notnil-chess-history/twic0920.pgn"
         "$corpus/pgn/large/stockfish-books/8moves_v3.pgn")
fi
# every column of the games table but the opening ones
"$K" export -q --table games --sample -o "$tmp/s.jsonl" --to jsonl --force 2>/dev/null
cols=$(python3 -c "import json,sys; print(','.join(k for k in json.loads(open(sys.argv[1]).readline()) if not k.startswith('opening_')))" "$tmp/s.jsonl")
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
for f in "${files[@]}"; do
  : > "$tmp/r"; : > "$tmp/a"; : > "$tmp/b"
  for _ in $(seq "$rounds"); do
    s=$(now); "$K" export -q -j1 --table games --columns "$cols" "$f" -o "$tmp/a.parquet" --force
    m=$(now); "$K" export -q -j1 --table games "$f" -o "$tmp/b.parquet" --force
    e=$(now)
    python3 -c "a=$m-$s; b=$e-$m; print(a, file=open('$tmp/a','a')); print(b, file=open('$tmp/b','a')); print(a/b, file=open('$tmp/r','a'))"
  done
  printf '%-28s without %.3f s   with %.3f s   speed with / without (median) %.2f\n' \
    "$(basename "$f")" "$(median < "$tmp/a")" "$(median < "$tmp/b")" "$(median < "$tmp/r")"
done
