#!/usr/bin/env bash
# Peak resident memory of `examples/sgf_filter` (game trees built one at a time by
# sgf::TreeReader, every one written back as SGF) on a ~1 GB SGF stream against a ~1 MB one,
# both piped through stdin. The stream is the SGF corpus in ../shared/corpus concatenated
# repeatedly, by default less the few files that end inside a game tree or a value (`kifu check`
# reports E09/E10 for them): concatenated, each makes everything after it one game tree (its `)`
# is missing, so the next `(;` opens a variation).
#
# With --all those files stay in: the first of them swallows the rest of the stream as one
# tree, and what keeps memory bounded is the builder's limit (TreeBuilder::with_max_game_bytes,
# 64 MiB of estimated bytes by default: E103, then the rest of the tree is skipped).
# Usage: scripts/bench/sgf_memory.sh [--all] [GB]   (default 1)
set -eu
cd "$(dirname "$0")/../.."
corpus=../shared/corpus/sgf
[ -d "$corpus" ] || { echo "no $corpus: nothing to measure"; exit 0; }
full=0
if [ "${1:-}" = "--all" ]; then full=1; shift; fi
gb=${1:-1}
cargo build --release --example sgf_filter -q && cargo build --release -p kifu-cli -q
filter=target/release/examples/sgf_filter
all=$(mktemp)
open=$(mktemp)
trap 'rm -f "$all" "$open"' EXIT
if [ "$full" = 1 ]; then
    echo "the full corpus, files unclosed at the end included"
else
    find "$corpus" -iname '*.sgf' -print0 | xargs -0 target/release/kifu check 2>/dev/null \
        | grep -a -E ' E(09|10): ' | sed -E 's/:[0-9]+:[0-9]+: .*//' | sort -u > "$open" || true
    echo "left out (unclosed at the end): $(wc -l < "$open") files"
fi
find "$corpus" -iname '*.sgf' -print0 | LC_ALL=C sort -z \
    | while IFS= read -r -d '' f; do grep -qxF "$f" "$open" || printf '%s\0' "$f"; done \
    | xargs -0 cat > "$all"
one_pass=$(wc -c < "$all")
stream() { # $1 = bytes wanted
    local want=$1 sent=0
    while [ "$sent" -lt "$want" ]; do cat "$all"; sent=$((sent + one_pass)); done | head -c "$want"
}
measure() { # $1 = bytes
    local start end rss out
    start=$(date +%s.%N)
    out=$(stream "$1" | /usr/bin/time -f '%M' "$filter" 2>/tmp/sgf-mem.$$ | wc -c)
    end=$(date +%s.%N)
    rss=$(tail -n 1 /tmp/sgf-mem.$$)
    echo "$1 bytes in, $out bytes written: peak RSS ${rss} KiB ($(echo "$end - $start" | bc) s)"
    rm -f /tmp/sgf-mem.$$
}
measure 1000000
measure $((gb * 1000000000))
