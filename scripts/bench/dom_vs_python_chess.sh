#!/usr/bin/env bash
# Throughput of building a game object for every game: kifu's DOM (`pgn::ReadGames`, through the
# pgn_filter example with a filter that matches nothing, so every game is built and none
# written) against python-chess 1.11.2 `chess.pgn.read_game` (../shared/oracle/pgn_oracle.py
# --time) on the same file. MB = 10^6 bytes; best of 3 runs for kifu, one for python-chess.
# Usage: scripts/bench/dom_vs_python_chess.sh [FILE]
#   (default: the notnil-chess-history collection of ../shared/corpus, concatenated)
set -eu
cd "$(dirname "$0")/../.."
py=${KIFU_ORACLE_PY:-$HOME/.cache/kifu-oracle/bin/python}
if [ ! -x "$py" ]; then
    echo "no $py: python3 -m venv ~/.cache/kifu-oracle && ~/.cache/kifu-oracle/bin/pip install chess==1.11.2 sgfmill==1.1.1"
    exit 1
fi
file=${1:-}
tmp=
if [ -z "$file" ]; then
    corpus=../shared/corpus/pgn/large/notnil-chess-history
    [ -d "$corpus" ] || { echo "no $corpus: give a FILE"; exit 1; }
    tmp=$(mktemp --suffix=.pgn)
    trap 'rm -f "$tmp"' EXIT
    find "$corpus" -name '*.pgn' -print0 | LC_ALL=C sort -z | xargs -0 cat > "$tmp"
    file=$tmp
fi
bytes=$(wc -c < "$file")
cargo build --release --example pgn_filter -q
best=
for _ in 1 2 3; do
    t0=$(date +%s.%N)
    target/release/examples/pgn_filter --eco 'no such ECO' "$file" > /dev/null 2>&1
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
kifu_mbs=$(echo "$bytes / $best / 1000000" | bc -l)
printf 'kifu DOM (ReadGames, release): %d bytes in %.3f s: %.1f MB/s\n' "$bytes" "$best" "$kifu_mbs"
py_json=$("$py" ../shared/oracle/pgn_oracle.py --time "$file")
echo "python-chess read_game: $py_json"
py_mbs=$(echo "$py_json" | sed -E 's/.*"mb_per_s": *([0-9.]+).*/\1/')
printf 'ratio: %.0fx\n' "$(echo "$kifu_mbs / $py_mbs" | bc -l)"
