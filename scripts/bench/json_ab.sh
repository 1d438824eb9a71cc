#!/usr/bin/env bash
# Two `kifu` binaries' `kifu json` side by side, alternated run by run (best of RUNS each), on
# stockfish-books and tcec (each concatenated) and the large SGF collections: the time of each
# and A's time over B's. Usage: scripts/bench/json_ab.sh KIFU_A KIFU_B [RUNS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
a=$1
b=$2
runs=${3:-3}
corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
    echo "../shared/corpus is absent: nothing to measure" >&2
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in stockfish-books tcec; do
    find "$corpus/pgn/large/$s" -type f -iname '*.pgn' -print0 | sort -z | xargs -0 cat >"$tmp/$s.pgn"
done
best() { # $1 = binary, $2 = input: seconds of the best run
    local best=999 t s e
    for _ in $(seq "$runs"); do
        s=$(date +%s.%N)
        "$1" json "$2" >/dev/null 2>&1 || true
        e=$(date +%s.%N)
        t=$(echo "$e - $s" | bc)
        best=$(echo "if ($t < $best) $t else $best" | bc)
    done
    echo "$best"
}
for f in "$tmp/stockfish-books.pgn" "$tmp/tcec.pgn" "$corpus/sgf/large"; do
    ta=999 tb=999
    for _ in $(seq "$runs"); do
        x=$(runs=1 best "$a" "$f"); ta=$(echo "if ($x < $ta) $x else $ta" | bc)
        x=$(runs=1 best "$b" "$f"); tb=$(echo "if ($x < $tb) $x else $tb" | bc)
    done
    echo "$(basename "$f"): A ${ta}s, B ${tb}s, A/B $(echo "scale=3; $ta / $tb" | bc)"
done
