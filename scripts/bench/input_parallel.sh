#!/usr/bin/env bash
# One decoding thread against two on the files scripts/bench/input_bench.sh made: decode -j1 and
# decode -j2 interleaved run by run; prints the median of per-run ratios (time -j1 / time -j2)
# and the medians of user+system CPU seconds.
#
#   scripts/bench/input_parallel.sh [RUNS] [FILE...]   (default 5 runs; the pzstd and bzip2 files)
#
# On a machine shared with other work, a second core is only there when the others leave it:
# KIFU_NICE=-10 runs the measured commands at a higher priority (as root).
set -euo pipefail
runs=${1:-5}; shift || true
root=${KIFU_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=${KIFU_BENCH_DIR:-${TMPDIR:-/tmp}/kifu-input-bench}
dec=$root/target/release/examples/decode
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$dir/c.pzst.pgn.zst" "$dir/gb.pzst.pgn.zst" "$dir/c.multi.pgn.bz2" "$dir/c.pgn.bz2" "$dir/c.pgn.gz")
run() { # run J FILE: "wall cpu" seconds
  local t; t=$(mktemp)
  /usr/bin/time -f '%e %U %S' -o "$t" nice -n "${KIFU_NICE:-0}" "$dec" -j"$1" "$2" > /dev/null 2>&1
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$t"; rm -f "$t"
}
median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }
echo "| file | -j1 wall s | -j2 wall s | -j1/-j2 (median of ratios) | -j1 cpu s | -j2 cpu s |"
echo "|---|---:|---:|---:|---:|---:|"
for f in "${files[@]}"; do
  w1=(); w2=(); c1=(); c2=(); r=()
  for _ in $(seq "$runs"); do
    read -r a ca < <(run 1 "$f"); read -r b cb < <(run 2 "$f")
    w1+=("$a"); w2+=("$b"); c1+=("$ca"); c2+=("$cb"); r+=("$(echo "$a / $b" | bc -l)")
  done
  printf '| %s | %s | %s | %sx | %s | %s |\n' "$(basename "$f")" \
    "$(printf '%s\n' "${w1[@]}" | median)" "$(printf '%s\n' "${w2[@]}" | median)" \
    "$(printf '%s\n' "${r[@]}" | median)" \
    "$(printf '%s\n' "${c1[@]}" | median)" "$(printf '%s\n' "${c2[@]}" | median)"
done
