#!/usr/bin/env bash
# Regenerates the opening names that kifu-replay embeds (`replay/data/chess-openings/`) from the
# lichess data set (lichess-org/chess-openings: a.tsv … e.tsv, CC0) in ../shared/data/chess-openings,
# or in the folder given.
#
# Usage: scripts/data/openings.sh [DIR]
#
# Writes `openings.tsv.zz`: the five files a.tsv … e.tsv concatenated in that order, byte for byte
# (each keeps its header line), compressed with zlib (level 9; python3's standard library), which
# kifu-replay decompresses at first use (miniz_oxide). Copies COPYING.txt (CC0) beside it. Update the
# commit named in SOURCE.md by hand. The test `embedded_openings_equal_the_shared_tsvs`
# (replay/tests/openings.rs, run when ../shared is there) checks that the blob decompresses to the
# shared files.
set -eu
cd "$(dirname "$0")/../.."
src=${1:-../shared/data/chess-openings}
dst=replay/data/chess-openings
for f in a b c d e; do
    [ -f "$src/$f.tsv" ] || { echo "no $src/$f.tsv" >&2; exit 1; }
done
mkdir -p "$dst"
cat "$src"/a.tsv "$src"/b.tsv "$src"/c.tsv "$src"/d.tsv "$src"/e.tsv |
    python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read(), 9))' \
    > "$dst/openings.tsv.zz"
cp "$src/COPYING.txt" "$dst/COPYING.txt"
chmod 644 "$dst/openings.tsv.zz" "$dst/COPYING.txt"
raw=$(cat "$src"/[a-e].tsv | wc -c)
echo "$dst/openings.tsv.zz: $(wc -c < "$dst/openings.tsv.zz") bytes ($raw uncompressed, $(cat "$src"/[a-e].tsv | grep -vc '^eco	') lines)"
if [ -f "$src/SOURCE.md" ]; then
    grep -o 'commit [0-9a-f]*[^)]*' "$src/SOURCE.md" | head -n 1 | sed 's/^/source: /; s/$/ (keep SOURCE.md in step)/'
fi
