#!/usr/bin/env bash
# Peak resident memory of `kifu stats` on a ~1 GB stream against a ~1 MB one, both piped
# through stdin. The stream is the PGN (or SGF) corpus in ../shared/corpus concatenated repeatedly.
# Usage: scripts/bench/memory.sh [GB] [pgn|sgf] [THREADS]   (defaults: 1 pgn 1; KIFU_CORPUS=DIR reads
# another directory; THREADS is kifu's -j: 1 reads the stream straight through)
set -eu
cd "$(dirname "$0")/../.."
gb=${1:-1}
format=${2:-pgn}
threads=${3:-1}
corpus=${KIFU_CORPUS:-../shared/corpus/$format}
[ -d "$corpus" ] || { echo "no $corpus: nothing to measure"; exit 0; }
cargo build --release -p kifu-cli -q
kifu=target/release/kifu
all=$(mktemp)
trap 'rm -f "$all"' EXIT
find "$corpus" -name "*.$format" -print0 | LC_ALL=C sort -z | xargs -0 cat > "$all"
one_pass=$(wc -c < "$all")
stream() { # $1 = bytes wanted
    local want=$1 sent=0
    while [ "$sent" -lt "$want" ]; do cat "$all"; sent=$((sent + one_pass)); done | head -c "$want"
}
measure() { # $1 = bytes
    stream "$1" | /usr/bin/time -f '%M' "$kifu" stats -j "$threads" --json --format "$format" - 2>/tmp/kifu-mem.$$ >/tmp/kifu-out.$$
    local rss; rss=$(tail -n 1 /tmp/kifu-mem.$$)
    local games; games=$(sed -E 's/.*"games":([0-9]+).*/\1/' /tmp/kifu-out.$$)
    echo "$1 bytes, $games games: peak RSS ${rss} KiB"
    rm -f /tmp/kifu-mem.$$ /tmp/kifu-out.$$
}
measure 1000000
measure $((gb * 1000000000))
