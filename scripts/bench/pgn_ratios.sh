#!/usr/bin/env bash
# kifu against pgn-reader, interleaved pass by pass (compare/examples/pgn_throughput.rs), on each PGN
# collection of ../shared/corpus/pgn concatenated: the median of RUNS ratios per collection and
# mode. Usage: scripts/bench/pgn_ratios.sh [RUNS] [PASSES]   (defaults 5 and 11)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
passes=${2:-11}
corpus=../shared/corpus/pgn
if [ ! -d "$corpus" ]; then
    echo "../shared/corpus/pgn is absent: nothing to measure" >&2
    exit 0
fi
cargo build --release --locked -p kifu-compare --example pgn_throughput >/dev/null 2>&1
bin=target/release/examples/pgn_throughput
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sets="large/stockfish-books large/notnil-chess-history small large/tcec"
for s in $sets; do
    find "$corpus/$s" -type f -iname '*.pgn' -print0 | sort -z | xargs -0 cat >"$tmp/$(basename "$s").pgn"
done
for mode in all headers; do
    for s in $sets; do
        f="$tmp/$(basename "$s").pgn"
        ratios=()
        for _ in $(seq "$runs"); do
            ratios+=("$("$bin" "$f" "$mode" "$passes" cmp | sed 's/.*ratio //')")
        done
        median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        echo "$mode $(basename "$s"): median ratio $median (runs: ${ratios[*]})"
    done
done
