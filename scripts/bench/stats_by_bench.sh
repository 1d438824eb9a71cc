#!/usr/bin/env bash
# The figures of docs/figures.md § "stats --by": `kifu stats --by KEY` against plain `kifu stats`
# on the same file, as whole processes run interleaved (plain, grouped, plain, …); for each key
# the median of the ratios grouped time / plain time.
#
#   scripts/bench/stats_by_bench.sh [ROUNDS] [J] [KEY…]   (defaults: 7 rounds, -j1, keys: year White)
#
# The input: the corpus's lichess-format games (clocks and evals on the moves) repeated to about
# 128 MB in a temporary folder. Needs ../shared/corpus (or KIFU_CORPUS). Timing on a shared
# machine is noisy: read the ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=${KIFU_CORPUS:-../shared/corpus}
rounds=${1:-7}
j=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
keys=("$@")
[ ${#keys[@]} -gt 0 ] || keys=(year White)
src="$corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn"
[ -f "$src" ] || { echo "needs $src (../shared/corpus or KIFU_CORPUS)" >&2; exit 3; }
cargo build --release -q -p kifu-cli
K=${KIFU_BIN:-target/release/kifu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f="$tmp/lichess.pgn"
while [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -lt 128000000 ]; do cat "$src" >> "$f"; done
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "input: $(( $(stat -c %s "$f") / 1000000 )) MB, $("$K" stats --json -q "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])') games; -j$j; $rounds rounds"
for key in "${keys[@]}"; do
  : > "$tmp/r"; : > "$tmp/a"; : > "$tmp/b"
  for _ in $(seq "$rounds"); do
    s=$(now); "$K" stats -q -j"$j" "$f" > /dev/null
    m=$(now); "$K" stats -q -j"$j" --by "$key" "$f" > /dev/null
    e=$(now)
    python3 -c "a=$m-$s; b=$e-$m; print(a, file=open('$tmp/a','a')); print(b, file=open('$tmp/b','a')); print(b/a, file=open('$tmp/r','a'))"
  done
  printf '%-12s stats %.3f s   stats --by %.3f s   ratio (by/plain, median) %.2f\n' \
    "$key" "$(median < "$tmp/a")" "$(median < "$tmp/b")" "$(median < "$tmp/r")"
done
