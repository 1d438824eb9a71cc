#!/usr/bin/env bash
# kifu-input's measurements: decode throughput of every compression against the reference
# command-line decoders, one thread against two (pzstd frames, pbzip2-style bzip2 streams), and
# the peak memory of a large pzstd stream against a small one. Timings are interleaved run by
# run (tool, -j1, -j2, tool, ...); the figures are medians of per-run ratios.
#
#   scripts/bench/input_bench.sh [RUNS]      (default 5 runs; needs zstd, pzstd, gzip, bzip2, xz, bc)
#
# Work files go to $KIFU_BENCH_DIR (default: a kifu-input-bench folder in the temp dir);
# PZSTD_LEVEL (default 19, as the lichess dumps) is the level of the pzstd file.
set -euo pipefail
runs=${1:-5}
root=${KIFU_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
shared=${KIFU_SHARED:-$root/../shared}
dir=${KIFU_BENCH_DIR:-${TMPDIR:-/tmp}/kifu-input-bench}
level=${PZSTD_LEVEL:-19}
mkdir -p "$dir"
cargo build --release -q -p kifu-input --example decode --example pzstd_write \
  --manifest-path "$root/Cargo.toml"
dec=$root/target/release/examples/decode
pzw=$root/target/release/examples/pzstd_write

# 100+ MB of PGN: the corpus's .pgn files, concatenated as often as needed
big=$dir/corpus.pgn
if [ ! -s "$big" ]; then
  find "$shared/corpus/pgn" -name '*.pgn' -type f -print0 | sort -z > "$dir/list"
  xargs -0 cat < "$dir/list" > "$dir/once.pgn"
  : > "$big"
  while [ "$(stat -c %s "$big")" -lt 100000000 ]; do cat "$dir/once.pgn" >> "$big"; done
fi
size=$(stat -c %s "$big")
echo "input: $big, $size bytes"

make() { # make FILE COMMAND...: FILE from $big unless it exists
  local out=$1; shift
  [ -s "$out" ] || { echo "making $out"; "$@" < "$big" > "$out.tmp" && mv "$out.tmp" "$out"; }
}
make "$dir/c.pgn.zst" zstd -q -3 -c
make "$dir/c.pzst.pgn.zst" pzstd -q -p2 "-$level" -c
make "$dir/c.pgn.gz" gzip -6 -c
make "$dir/c.pgn.bz2" bzip2 -9 -c
if [ ! -s "$dir/c.multi.pgn.bz2" ]; then # pbzip2's layout: one stream per 900 kB
  echo "making $dir/c.multi.pgn.bz2"
  rm -rf "$dir/parts" && mkdir "$dir/parts"
  split -b 900000 -a 4 "$big" "$dir/parts/p"
  for p in "$dir"/parts/p*; do bzip2 -9 -c "$p"; done > "$dir/c.multi.pgn.bz2.tmp"
  mv "$dir/c.multi.pgn.bz2.tmp" "$dir/c.multi.pgn.bz2"
  rm -rf "$dir/parts"
fi
make "$dir/c.pgn.xz" xz -3 -T1 -c

echo "checking the decoded bytes against the original (-j1 and -j2)"
for f in "$dir"/c.*; do
  for j in 1 2; do
    "$dec" --cat -j$j "$f" 2>/dev/null | cmp -s - "$big" || { echo "MISMATCH: $f -j$j"; exit 1; }
  done
done

secs() { # secs COMMAND...: wall seconds
  local t0 t1
  t0=$(date +%s.%N); "$@" > /dev/null 2>&1; t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

bench() { # bench NAME FILE TOOL...: the tool against decode -j1 and decode -j2
  local name=$1 file=$2; shift 2
  local t=() t1=() t2=() r1=() r2=() a b c
  for _ in $(seq "$runs"); do
    a=$(secs sh -c "$* < '$file'")
    b=$(secs "$dec" -j1 "$file")
    c=$(secs "$dec" -j2 "$file")
    t+=("$a"); t1+=("$b"); t2+=("$c")
    r1+=("$(echo "$a / $b" | bc -l)"); r2+=("$(echo "$a / $c" | bc -l)")
  done
  mbs() { echo "$size / $(printf '%s\n' "$@" | median) / 1000000" | bc -l; }
  printf '| %-26s | %11s | %6.0f | %6.0f | %6.0f | %5sx | %5sx |\n' "$name" "$(stat -c %s "$file")" \
    "$(mbs "${t[@]}")" "$(mbs "${t1[@]}")" "$(mbs "${t2[@]}")" \
    "$(printf '%s\n' "${r1[@]}" | median)" "$(printf '%s\n' "${r2[@]}" | median)"
}

echo
echo "MB/s of decoded bytes (medians); ratios: tool time / decode time, per run, median (higher: kifu-input faster)"
echo "| input (tool) | raw bytes | tool MB/s | -j1 MB/s | -j2 MB/s | -j1 vs tool | -j2 vs tool |"
echo "|---|---:|---:|---:|---:|---:|---:|"
bench "plain (cat)" "$big" cat
bench "zstd -3 (zstd -dc)" "$dir/c.pgn.zst" zstd -dc
bench "pzstd -$level (zstd -dc)" "$dir/c.pzst.pgn.zst" zstd -dc
bench "pzstd -$level (pzstd -p2 -dc)" "$dir/c.pzst.pgn.zst" pzstd -q -p2 -dc
bench "gzip -6 (gzip -dc)" "$dir/c.pgn.gz" gzip -dc
bench "bzip2 -9 (bzip2 -dc)" "$dir/c.pgn.bz2" bzip2 -dc
bench "bzip2 900k streams (bzip2 -dc)" "$dir/c.multi.pgn.bz2" bzip2 -dc
bench "xz -3 (xz -dc)" "$dir/c.pgn.xz" xz -dc

# peak memory: a ~1 GB (decoded) pzstd stream against a 1 MB one, both with the 32 MiB frames
# of pzstd -19 (written at level 3 by examples/pzstd_write.rs: level 19 would take an hour
# here), and the real pzstd file above
echo
gb=$dir/gb.pzst.pgn.zst
if [ ! -s "$gb" ]; then
  echo "making $gb"
  # (head closes the pipe early: the writer's broken pipe is expected)
  (set +o pipefail; for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$big"; done | head -c 1000000000 | "$pzw" 3 32 > "$gb.tmp")
  mv "$gb.tmp" "$gb"
fi
head -c 1000000 "$big" | "$pzw" 3 32 > "$dir/mb.pzst.pgn.zst"
echo "peak memory (max RSS) of decode -jN:"
for j in 1 2; do
  for f in "$dir/mb.pzst.pgn.zst" "$gb" "$dir/c.pzst.pgn.zst"; do
    kb=$( { /usr/bin/time -v "$dec" -j$j "$f" > /dev/null; } 2>&1 | awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}')
    printf '  -j%s %-22s %11s bytes raw  %8s KiB\n' "$j" "$(basename "$f")" "$(stat -c %s "$f")" "$kb"
  done
done
