#!/usr/bin/env bash
# The ECO codes kifu-replay's opening names give (the lichess table) against pgn-extract's ECO
# classification (`pgn-extract -e`, with the eco.pgn its Debian package ships), game by game, on
# TWIC files of the corpus (or the PGN files given). The games' own ECO tags are removed first; the
# games pgn-extract writes, with its ECO tag, are then named by kifu-replay
# (`replay/examples/openings.rs`), so both sides read the very same games.
# Needs pgn-extract (`apt-get install pgn-extract`) and ../shared/corpus.
# Usage: scripts/conformance/openings_pgn_extract.sh [FILE.pgn...]
set -eu
cd "$(dirname "$0")/../.."
pe=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null || true)
eco=${PGN_EXTRACT_ECO:-/usr/share/pgn-extract/eco.pgn}
[ -n "$pe" ] && [ -f "$eco" ] || { echo "pgn-extract is not installed (apt-get install pgn-extract): nothing to compare"; exit 0; }
if [ $# -eq 0 ]; then
    set -- ../shared/corpus/pgn/small/shakmaty-benches/twic1599_1000k.pgn \
        ../shared/corpus/pgn/large/notnil-chess-history/twic0920.pgn
fi
cargo build --release -q -p kifu-replay --example openings
ours=target/release/examples/openings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
    [ -f "$f" ] || { echo "no $f: skipped"; continue; }
    sed '/^\[ECO /d' "$f" | (cd "$tmp" && "$pe" -e"$eco" -s 2>/dev/null) > "$tmp/pe.pgn"
    "$ours" "$tmp/pe.pgn" > "$tmp/pe.tsv" 2>/dev/null
    # columns: file, game, pgn-extract's ECO, ours (eco, name, ply)
    awk -F'\t' -v f="$(basename "$f")" '
        { n++; if ($3 == "?" && $4 == "?") { none++; next }
          if ($3 == "?" || $4 == "?") { one++; next }
          both++; if ($3 == $4) same++; if (substr($3, 1, 2) == substr($4, 1, 2)) group++
          if (substr($3, 1, 1) == substr($4, 1, 1)) volume++ }
        END { printf "%s: %d games, %d without ECO on either side, %d on one side only; of the %d both classify: same ECO %d (%.1f%%), same group A0…E9 %d (%.1f%%), same volume A…E %d (%.1f%%)\n",
              f, n, none, one, both, same, 100 * same / both, group, 100 * group / both, volume, 100 * volume / both }' "$tmp/pe.tsv"
    if [ -n "${VERBOSE:-}" ]; then
        awk -F'\t' '$3 != $4 { print "  game " $2 ": pgn-extract " $3 ", kifu-replay " $4 " " $5 " (ply " $6 ")" }' "$tmp/pe.tsv"
    fi
done
