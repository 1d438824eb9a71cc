#!/usr/bin/env bash
# The archive-scale figures of README § Figures (the archives issue), each a pair of whole
# processes run alternately N times (A B A B …), the median of the per-run ratios of wall time
# quoted (and of CPU time, user + system, where it says more on a shared machine):
#
#   scripts/bench/scale_bench.sh [N] [SECTION...]
#
# sections: cli par pzstd codecs memory extract, and
#   commands   -j1 against -j2 for every command, on plain PGN and on the same file by pzstd
#   cutter     the parallel scan's cutter alone beside one parser (examples/cut_rate.rs): how
#              many parsers one cutter feeds, on dense, TCEC and lichess-format PGN
#
# Inputs are built in $KIFU_BENCH_DIR (default /tmp/kifu-bench) from ../shared/corpus.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-5}
shift || true
sections=${*:-cli par pzstd commands cutter codecs memory extract}
corpus=${KIFU_CORPUS:-../shared/corpus}
dir=${KIFU_BENCH_DIR:-/tmp/kifu-bench}
mkdir -p "$dir"
cargo build --release -q -p kifu-cli
cargo build --release -q -p kifu-compare --example pgn_reader_stats --example pgn_throughput
cargo build --release -q -p kifu --example cut_rate
kifu=$PWD/target/release/kifu
anchor=$PWD/target/release/examples/pgn_reader_stats

# ----- inputs ------------------------------------------------------------------------------------
cat_pgn() { find "$1" -name '*.pgn' -print0 | sort -z | xargs -0 cat; }
# the dense and TCEC collections, repeated to about 100 and 280 MB (runs of a second or more:
# time's resolution is 10 ms)
if [ ! -s "$dir/dense.pgn" ]; then
  cat_pgn "$corpus/pgn/large/stockfish-books" > "$dir/one.pgn"
  for _ in 1 2 3 4; do cat "$dir/one.pgn"; done > "$dir/dense.pgn"
fi
if [ ! -s "$dir/tcec.pgn" ]; then
  cat_pgn "$corpus/pgn/large/tcec" > "$dir/one.pgn"
  for _ in 1 2 3 4 5 6 7 8; do cat "$dir/one.pgn"; done > "$dir/tcec.pgn"
fi
rm -f "$dir/one.pgn"
if [ ! -s "$dir/all2.pgn" ]; then
  cat_pgn "$corpus/pgn" > "$dir/all1.pgn"
  cat "$dir/all1.pgn" "$dir/all1.pgn" > "$dir/all2.pgn"
fi
[ -d "$dir/sgf" ] || cp -r "$corpus/sgf" "$dir/sgf"
if [ ! -s "$dir/lichess.pgn" ]; then
  one="$corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn"
  for _ in $(seq 128); do cat "$one"; done > "$dir/lichess.pgn"
fi

# ----- timing ------------------------------------------------------------------------------------
# run CMD: prints "wall cpu" in seconds
times=$(mktemp)
trap 'rm -f "$times"' EXIT
run() {
  /usr/bin/time -o "$times" -f "%e %U %S" bash -c "$1" > /dev/null 2>&1 || true
  tail -1 "$times" | awk '{printf "%.4f %.4f\n", $1, $2 + $3}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
# pair LABEL BYTES CMD_A CMD_B: A's and B's MB/s (best run), median ratio of A's time to B's
pair() {
  local label=$1 bytes=$2 a=$3 b=$4 wa wb ca cb
  local ratios=() cratios=() best_a=999999 best_b=999999
  for _ in $(seq "$n"); do
    read -r wa ca < <(run "$a")
    read -r wb cb < <(run "$b")
    ratios+=("$(awk -v x="$wa" -v y="$wb" 'BEGIN {print x / y}')")
    cratios+=("$(awk -v x="$ca" -v y="$cb" 'BEGIN {print x / y}')")
    best_a=$(awk -v x="$wa" -v y="$best_a" 'BEGIN {print (x < y) ? x : y}')
    best_b=$(awk -v x="$wb" -v y="$best_b" 'BEGIN {print (x < y) ? x : y}')
  done
  local r c
  r=$(printf '%s\n' "${ratios[@]}" | median)
  c=$(printf '%s\n' "${cratios[@]}" | median)
  awk -v l="$label" -v by="$bytes" -v ta="$best_a" -v tb="$best_b" -v r="$r" -v c="$c" 'BEGIN {
    printf "| %s | %.0f | %.0f | **%.2f** | %.2f |\n", l, by / 1e6 / ta, by / 1e6 / tb, r, c }'
}
size() { stat -c %s "$1"; }
header() {
  echo
  echo "### $1"
  echo
  echo "| what (A against B) | A MB/s | B MB/s | B faster: wall | CPU A/B |"
  echo "|---|---:|---:|---:|---:|"
}

for s in $sections; do
  case $s in
  cli)
    header "the CLI beside pgn-reader as whole processes, and -j1 beside the slice path"
    for f in dense tcec; do
      p=$dir/$f.pgn
      pair "$f: pgn-reader process against kifu stats -j1" "$(size "$p")" "$anchor $p" "$kifu stats -q -j1 $p"
      pair "$f: pgn-reader process against kifu stats (-j2)" "$(size "$p")" "$anchor $p" "$kifu stats -q -j2 $p"
    done
    for f in dense tcec; do
      echo "slice entry point on $f: $(target/release/examples/pgn_throughput "$dir/$f.pgn" all 5)"
    done
    ;;
  par)
    header "-j2 against -j1"
    p=$dir/all2.pgn
    pair "stats, $(($(size "$p") / 1000000)) MB plain PGN" "$(size "$p")" "$kifu stats -q -j1 $p" "$kifu stats -q -j2 $p"
    pair "check, same file" "$(size "$p")" "$kifu check -q -j1 $p" "$kifu check -q -j2 $p"
    pair "json, same file" "$(size "$p")" "$kifu json -q -j1 $p" "$kifu json -q -j2 $p"
    sb=$(du -sb "$dir/sgf" | cut -f1)
    pair "stats, a directory of $(find "$dir/sgf" -type f | wc -l) SGF files" "$sb" "$kifu stats -q -j1 $dir/sgf" "$kifu stats -q -j2 $dir/sgf"
    ;;
  pzstd)
    p=$dir/all2.pgn
    [ -s "$p.zst" ] || pzstd -q -p2 -10 "$p" -o "$p.zst"
    header "a pzstd file ($(($(size "$p.zst") / 1000000)) MB compressed, $(($(size "$p") / 1000000)) MB plain; MB/s of plain bytes)"
    pair "kifu stats -j1 against -j2" "$(size "$p")" "$kifu stats -q -j1 $p.zst" "$kifu stats -q -j2 $p.zst"
    pair "zstd -dc | kifu stats - against kifu stats -j2" "$(size "$p")" "zstd -dc $p.zst | $kifu stats -q -" "$kifu stats -q -j2 $p.zst"
    ;;
  commands)
    p=$dir/all2.pgn
    [ -s "$p.zst" ] || pzstd -q -p2 -10 "$p" -o "$p.zst"
    out=$(mktemp -d)
    for f in "$p" "$p.zst"; do
      header "every command, -j1 against -j2: $(basename "$f") ($(($(size "$p") / 1000000)) MB plain; MB/s of plain bytes)"
      pair "stats" "$(size "$p")" "$kifu stats -q -j1 $f" "$kifu stats -q -j2 $f"
      pair "check" "$(size "$p")" "$kifu check -q -j1 $f" "$kifu check -q -j2 $f"
      pair "json" "$(size "$p")" "$kifu json -q -j1 $f" "$kifu json -q -j2 $f"
      pair "fmt" "$(size "$p")" "$kifu fmt -q -j1 $f" "$kifu fmt -q -j2 $f"
      pair "filter -w Result=1-0" "$(size "$p")" "$kifu filter -q -j1 -w Result=1-0 $f" "$kifu filter -q -j2 -w Result=1-0 $f"
      pair "dedup" "$(size "$p")" "$kifu dedup -q -j1 $f" "$kifu dedup -q -j2 $f"
      pair "split --games 100000" "$(size "$p")" "$kifu split -q -j1 --force --games 100000 -o $out/s1 $f" "$kifu split -q -j2 --force --games 100000 -o $out/s2 $f"
      pair "export games, Parquet" "$(size "$p")" "$kifu export -q -j1 --force -o $out/g1.parquet $f" "$kifu export -q -j2 --force -o $out/g2.parquet $f"
      pair "export moves, Parquet" "$(size "$p")" "$kifu export -q -j1 --table moves --force -o $out/m1.parquet $f" "$kifu export -q -j2 --table moves --force -o $out/m2.parquet $f"
    done
    rm -rf "$out"
    ;;
  cutter)
    echo
    echo "### the cutter alone beside one parser (examples/cut_rate.rs, best of $n)"
    echo
    for f in dense tcec lichess; do
      echo "- $f: $(target/release/examples/cut_rate "$dir/$f.pgn" "$n")"
    done
    ;;
  codecs)
    p=$dir/all1.pgn
    [ -s "$p.gz" ] || gzip -6 -c "$p" > "$p.gz"
    [ -s "$p.bz2" ] || bzip2 -9 -c "$p" > "$p.bz2"
    [ -s "$p.xz" ] || xz -3 -c "$p" > "$p.xz"
    [ -s "$dir/sgf.tar.gz" ] || tar -czf "$dir/sgf.tar.gz" -C "$dir" sgf
    header "compressed and bundled input (MB/s of plain bytes; A the reference decoder piped in)"
    pair "gzip: gzip -dc | kifu stats - against kifu stats -j2" "$(size "$p")" "gzip -dc $p.gz | $kifu stats -q -" "$kifu stats -q -j2 $p.gz"
    pair "bzip2: bzip2 -dc | kifu stats - against kifu stats -j2" "$(size "$p")" "bzip2 -dc $p.bz2 | $kifu stats -q -" "$kifu stats -q -j2 $p.bz2"
    pair "xz: xz -dc | kifu stats - against kifu stats -j2" "$(size "$p")" "xz -dc $p.xz | $kifu stats -q -" "$kifu stats -q -j2 $p.xz"
    sb=$(du -sb "$dir/sgf" | cut -f1)
    pair "SGF tar.gz: kifu stats -j1 against -j2" "$sb" "$kifu stats -q -j1 $dir/sgf.tar.gz" "$kifu stats -q -j2 $dir/sgf.tar.gz"
    ;;
  memory)
    p=$dir/all1.pgn
    if [ ! -s "$dir/big.pgn.zst" ]; then
      for _ in $(seq 14); do cat "$p"; done | pzstd -q -p2 -10 -o "$dir/big.pgn.zst"
      head -c 1000000 "$p" | pzstd -q -p2 -10 -o "$dir/small.pgn.zst"
    fi
    echo
    echo "### peak memory of kifu stats -j2 (max RSS)"
    echo
    for f in small big; do
      plain=$(zstd -dc "$dir/$f.pgn.zst" | wc -c)
      rss=$( { /usr/bin/time -f "%M" "$kifu" stats -q -j2 "$dir/$f.pgn.zst" > /dev/null; } 2>&1 | tail -1)
      echo "| $f: $((plain / 1000000)) MB plain, $(($(size "$dir/$f.pgn.zst") / 1000000)) MB pzstd | $rss KiB |"
    done
    ;;
  extract)
    pe=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null || true)
    if [ -z "$pe" ]; then
      echo "pgn-extract is not installed (apt-get install pgn-extract): skipping"
      continue
    fi
    p=$dir/all1.pgn
    header "beside pgn-extract (the same games kept; A pgn-extract, B kifu -j2)"
    pair "filter Result 1-0" "$(size "$p")" "$pe -s -Tr1-0 -o /dev/null $p" "$kifu filter -q -j2 -w Result=1-0 $p"
    pair "dedup" "$(size "$p")" "$pe -s -D -o /dev/null $p" "$kifu dedup -q -j2 $p"
    echo "games kept, pgn-extract / kifu:"
    echo "  filter: $($pe -Tr1-0 -o /dev/null "$p" 2>&1 | grep -o '[0-9]* games matched out of [0-9]*') / $($kifu filter -q -w Result=1-0 -c "$p")"
    echo "  dedup: $($pe -D -o /dev/null "$p" 2>&1 | grep -o '[0-9]* games matched out of [0-9]*') / $($kifu dedup "$p" 2>&1 >/dev/null | tail -1)"
    ;;
  esac
done
