#!/usr/bin/env bash
# Peak resident memory of every command that reads games, at -j1 and at the default -j, from a
# file and from stdin, on SMALL and LARGE MiB of PGN (defaults 64 and 512): issue 32's goal is
# that the large peak is within 16 MiB of the small one (export: 64 MiB, its row groups). The
# stream is the PGN corpus in ../shared/corpus concatenated repeatedly (KIFU_CORPUS=DIR reads
# another directory). The Go pattern search (find and explore --go-pattern, a lone black 4-4
# stone in a corner) is measured the same way on SMALL and LARGE MiB of SGF: the SGF corpus
# in ../shared/corpus (KIFU_SGF_CORPUS=DIR), less the files that end inside a game tree or a
# value (concatenated, each would make the rest of the stream one tree; sgf_memory.sh does the
# same). A part whose corpus is absent is skipped, and the script says so.
# cli/tests/memory.rs checks the same at 2 and 16 MiB in CI.
# Usage: scripts/bench/command_memory.sh [SMALL_MIB] [LARGE_MIB]
# KIFU_ONLY=REGEX measures only the commands it matches (grep -E), KIFU_BIN=PATH runs that
# binary instead of building the tree's (to set two builds side by side).
set -eu
cd "$(dirname "$0")/../.."
small=${1:-64}
large=${2:-512}
corpus=${KIFU_CORPUS:-../shared/corpus/pgn}
sgf_corpus=${KIFU_SGF_CORPUS:-../shared/corpus/sgf}
if [ ! -d "$corpus" ] && [ ! -d "$sgf_corpus" ]; then
    echo "no $corpus and no $sgf_corpus: nothing to measure"
    exit 0
fi
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)"; exit 0; }
if [ -n "${KIFU_BIN:-}" ]; then
    kifu=$(cd "$(dirname "$KIFU_BIN")" && pwd)/$(basename "$KIFU_BIN")
else
    cargo build --release -p kifu-cli -q
    kifu=$PWD/target/release/kifu
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make() { # $1 = MiB, $2 = file, $3 = the corpus's files concatenated (not empty)
    local want=$(( $1 << 20 ))
    : > "$2"
    while [ "$(stat -c %s "$2")" -lt "$want" ]; do cat "$3" >> "$2"; done
    truncate -s "$want" "$2"
}
peak() { # $1 = input file, $2 = file|stdin, $3 = -j, then the command
    local input=$1 from=$2 j=$3; shift 3
    if [ "$from" = stdin ]; then
        (cd "$work" && /usr/bin/time -f %M -o "$work/peak" "$kifu" "$@" $j - < "$input" > /dev/null 2>&1) || true
    else
        (cd "$work" && /usr/bin/time -f %M -o "$work/peak" "$kifu" "$@" $j "$input" > /dev/null 2>&1) || true
    fi
    tail -n 1 "$work/peak"
}
printf '%-52s %-6s %-5s %10s %10s %8s %s\n' command from -j "${small}MiB" "${large}MiB" grown ok
fail=0
measure() { # $1 = the inputs' extension (pgn, sgf); the commands on stdin, one a line
    local ext=$1 cmd j from a b grown allowed ok
    while IFS= read -r cmd; do
        if [ -n "${KIFU_ONLY:-}" ] && ! printf '%s\n' "$cmd" | grep -Eq -- "$KIFU_ONLY"; then
            continue
        fi
        for j in -j1 ""; do
            for from in file stdin; do
                # shellcheck disable=SC2086
                a=$(peak "$work/small.$ext" $from "$j" $cmd)
                # shellcheck disable=SC2086
                b=$(peak "$work/large.$ext" $from "$j" $cmd)
                grown=$(( (b - a) / 1024 ))
                allowed=16; case $cmd in export*) allowed=64 ;; esac
                ok=yes; [ "$grown" -le "$allowed" ] || { ok=NO; fail=1; }
                printf '%-52s %-6s %-5s %7d MiB %7d MiB %5d MiB %s\n' "$cmd" "$from" "${j:-all}" $((a / 1024)) $((b / 1024)) "$grown" "$ok"
            done
        done
    done
}
if [ -d "$corpus" ]; then
    find "$corpus" -name '*.pgn' -print0 | LC_ALL=C sort -z | xargs -0 cat > "$work/all.pgn"
    make "$small" "$work/small.pgn" "$work/all.pgn"
    make "$large" "$work/large.pgn" "$work/all.pgn"
    measure pgn <<'COMMANDS'
stats
stats --by Event
check
json
fmt
filter -w Result=1-0
dedup
split --games 100000 -o parts --force
split --by Event -o by-event --force
export -o games.parquet --force
export --table moves -o moves.parquet --force
export --table json -o json.jsonl --force
export --table positions -o positions.parquet --force
find --subfen 8/8/2n5/1B6/8/8/8/8
explore --json --subfen 8/8/2n5/8/8/5N2/8/8
COMMANDS
else
    echo "no $corpus: the PGN commands are not measured"
fi
if [ -d "$sgf_corpus" ]; then
    # the files that end inside a game tree or a value (kifu check: E09, E10), left out
    find "$sgf_corpus" -iname '*.sgf' -print0 | xargs -0 "$kifu" check 2>/dev/null \
        | grep -a -E ' E(09|10): ' | sed -E 's/:[0-9]+:[0-9]+: .*//' | sort -u > "$work/open" || true
    find "$sgf_corpus" -iname '*.sgf' -print0 | LC_ALL=C sort -z \
        | while IFS= read -r -d '' f; do grep -qxF "$f" "$work/open" || printf '%s\0' "$f"; done \
        | xargs -0 cat > "$work/all.sgf"
fi
if [ ! -d "$sgf_corpus" ]; then
    echo "no $sgf_corpus: the Go commands are not measured"
elif [ ! -s "$work/all.sgf" ]; then
    echo "no SGF file in $sgf_corpus: the Go commands are not measured"
else
    # a lone black 4-4 stone in an empty corner (the first row and column: anything)
    printf '?????\n?....\n?....\n?..X.\n?....\n' > "$work/44.txt"
    make "$small" "$work/small.sgf" "$work/all.sgf"
    make "$large" "$work/large.sgf" "$work/all.sgf"
    measure sgf <<'COMMANDS'
find --go-pattern 44.txt --anchor corner
explore --json --go-pattern 44.txt --anchor corner
COMMANDS
fi
exit $fail
