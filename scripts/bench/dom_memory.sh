#!/usr/bin/env bash
# Peak resident memory of the DOM iterator (`pgn::ReadGames`, through the pgn_filter example:
# every game is built, the few by "Carlsen" are written) on a ~1 GB PGN stream against a ~1 MB
# one, both piped through stdin. The stream is the PGN corpus in ../shared/corpus concatenated
# repeatedly, as in scripts/memory.sh. pgn_filter also reports the largest game of the stream.
# Usage: scripts/bench/dom_memory.sh [GB]   (default 1)
set -eu
cd "$(dirname "$0")/../.."
corpus=../shared/corpus/pgn
[ -d "$corpus" ] || { echo "no $corpus: nothing to measure"; exit 0; }
gb=${1:-1}
cargo build --release --example pgn_filter -q
filter=target/release/examples/pgn_filter
all=$(mktemp)
trap 'rm -f "$all"' EXIT
find "$corpus" -name '*.pgn' -print0 | LC_ALL=C sort -z | xargs -0 cat > "$all"
one_pass=$(wc -c < "$all")
stream() { # $1 = bytes wanted
    local want=$1 sent=0
    while [ "$sent" -lt "$want" ]; do cat "$all"; sent=$((sent + one_pass)); done | head -c "$want"
}
measure() { # $1 = bytes
    local t0 t1
    t0=$(date +%s.%N)
    stream "$1" | /usr/bin/time -f '%M' "$filter" --player carlsen 2>/tmp/kifu-dom-mem.$$ >/dev/null
    t1=$(date +%s.%N)
    local rss; rss=$(tail -n 1 /tmp/kifu-dom-mem.$$)
    local summary; summary=$(tail -n 2 /tmp/kifu-dom-mem.$$ | head -n 1)
    printf '%s bytes: peak RSS %s KiB (%s) in %.1f s\n' "$1" "$rss" "$summary" "$(echo "$t1 - $t0" | bc -l)"
    rm -f /tmp/kifu-dom-mem.$$
}
measure 1000000
measure $((gb * 1000000000))
