#!/usr/bin/env bash
# Peak resident memory of `kifu stats -jN` on inputs that ask for a lot: decompression bombs
# and headers that ask the decoder for a huge window. Each must stay under 100 MiB at the
# default limits (the bomb is decoded streaming; the window and the dictionary are refused
# with a "memory limit" error).
#
#   bzip2 bomb   32 bzip2 streams of 64 MiB of one byte each (2 GiB decoded, a few KB)
#   bzip2 one    one bzip2 stream of 1 GiB of one byte (many blocks, one stream)
#   zstd window  a zstd frame whose header asks for a 2 GiB window (zstd --long=31)
#   xz dict      an xz stream whose LZMA2 header asks for a 4 GiB dictionary
#
# A second table measures kifu-input alone (its `decode` example, default Options: what the
# decoders hold, without the CLI's parsing).
#
# A third table: hostile rows and games (issue 32), through the commands that write: 400 SGF
# games whose PB is 1 MiB, 200 PGN games with a 1 MiB comment (export), one PGN game of 200 MB
# (cut at --max-game-bytes: every command names it and exits 1); goal under 128 MiB each.
#
# Usage: scripts/bench/bomb_memory.sh [KIFU [DECODE]]   (defaults target/release/kifu and
# target/release/examples/decode, built first when they are the defaults). Needs python3 (bz2,
# lzma, zlib modules) and GNU time (/usr/bin/time).
set -eu
cd "$(dirname "$0")/../.."
kifu=${1:-}
decode=${2:-}
if [ -z "$kifu" ]; then
    cargo build --release -p kifu-cli -q
    kifu=target/release/kifu
fi
if [ -z "$decode" ]; then
    cargo build --release -p kifu-input --example decode -q
    decode=target/release/examples/decode
fi
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time): apt-get install time"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$dir" <<'EOF'
import bz2, lzma, os, struct, sys, zlib
d = sys.argv[1]
# runs of one byte compress about 10,000 to 1; a space, so that the parser skips them quickly
stream = bz2.compress(b" " * (64 << 20), 9)
open(os.path.join(d, "bomb.pgn.bz2"), "wb").write(stream * 32)
c = bz2.BZ2Compressor(9)
parts = [c.compress(b" " * (64 << 20)) for _ in range(16)]
open(os.path.join(d, "one.pgn.bz2"), "wb").write(b"".join(parts) + c.flush())
# zstd frame: descriptor 00 (no checksum, no content size), window descriptor A8 (2^31),
# one raw last block
payload = b"1. e4 e5 *\n"
block = struct.pack("<I", (len(payload) << 3) | 1)[:3]
open(os.path.join(d, "window.pgn.zst"), "wb").write(
    b"\x28\xb5\x2f\xfd\x00\xa8" + block + payload)
# xz: made with a small dictionary, its block header patched to say 4 GiB (property 40)
x = bytearray(lzma.compress(payload * 100, format=lzma.FORMAT_XZ,
                            filters=[{"id": lzma.FILTER_LZMA2, "preset": 0}]))
h = 12
size = (x[h] + 1) * 4
flags = x[h + 1]
p = h + 2
for bit in (0x40, 0x80):
    if flags & bit:
        while x[p] & 0x80:
            p += 1
        p += 1
assert x[p] == 0x21 and x[p + 1] == 1, "LZMA2, one property byte"
x[p + 2] = 40
x[h + size - 4:h + size] = struct.pack("<I", zlib.crc32(bytes(x[h:h + size - 4])))
open(os.path.join(d, "dict.pgn.xz"), "wb").write(bytes(x))
EOF

over=0
table() { # $1 = title; $2.. = the command before the file (-j N is added)
    local title=$1
    shift
    echo
    echo "$title"
    echo
    printf '| input | bytes | -j1 peak RSS | -j2 peak RSS | -j8 peak RSS | what it says |\n'
    printf '|---|---:|---:|---:|---:|---|\n'
    for f in bomb.pgn.bz2 one.pgn.bz2 window.pgn.zst dict.pgn.xz; do
        row="| $f | $(wc -c < "$dir/$f")"
        said=""
        for j in 1 2 8; do
            /usr/bin/time -f '%M' -o "$dir/rss" "$@" -j"$j" "$dir/$f" \
                > "$dir/out" 2> "$dir/err" || true
            kib=$(tail -n 1 "$dir/rss")
            mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
            [ "$kib" -lt $((100 * 1024)) ] || over=1
            row="$row | $mib MiB"
            if [ -z "$said" ]; then
                said=$(grep -m1 -E 'memory limit|error|corrupt' "$dir/err" || tail -n 1 "$dir/err")
                [ -n "$said" ] || said="$(head -c 60 "$dir/out")"
                said=$(echo "$said" | sed "s|$dir/||g" | tr -s ' \n' ' ' | cut -c1-150)
            fi
        done
        echo "$row | ${said//|/\\|} |"
    done
}
table "kifu stats -jN FILE" "$kifu" stats
table "kifu-input alone: examples/decode -jN FILE (default Options)" "$decode"

# Hostile rows and games (issue 32): 400 SGF games whose PB is 1 MiB and 200 PGN games with a
# comment of 1 MiB (a table's batches were cut by rows only: 830 and 415 MiB), and one PGN
# game of 200 MB (cut at --max-game-bytes, 64 MiB: named on stderr, exit 1). Goal: under
# 128 MiB each.
python3 - "$dir" <<'EOF2'
import gzip, os, sys
d = sys.argv[1]
big = b"x" * (1 << 20)
with gzip.open(os.path.join(d, "rows.sgf.gz"), "wb", 1) as f:
    for _ in range(400):
        f.write(b"(;GM[1]FF[4]SZ[19]PB[" + big + b"];B[aa])\n")
with gzip.open(os.path.join(d, "comments.pgn.gz"), "wb", 1) as f:
    for _ in range(200):
        f.write(b'[Event "x"]\n\n1. e4 {' + big + b'} e5 1-0\n\n')
with gzip.open(os.path.join(d, "game.pgn.gz"), "wb", 1) as f:
    f.write(b'[Event "x"]\n\n')
    n, size, part = 1, 0, []
    while size < 200_000_000:
        s = b"%d. Nf3 Nf6 %d. Ng1 Ng8 " % (n, n + 1)
        part.append(s)
        size += len(s)
        n += 2
        if len(part) == 100_000:
            f.write(b"".join(part))
            part = []
    f.write(b"".join(part) + b"*\n")
EOF2
hostile=0
abs_kifu=$(cd "$(dirname "$kifu")" && pwd)/$(basename "$kifu")
echo
echo "Hostile rows and games: kifu COMMAND -jN FILE (goal: under 128 MiB)"
echo
printf '| input | command | -j1 peak RSS | -j2 peak RSS | exit |\n'
printf '|---|---|---:|---:|---|\n'
while read -r f cmd; do
    row="| $f | $cmd"
    for j in 1 2; do
        # shellcheck disable=SC2086
        (cd "$dir" && /usr/bin/time -f '%M' -o "$dir/rss" "$abs_kifu" $cmd -j"$j" "$f" \
            > /dev/null 2> "$dir/err") && code=0 || code=$?
        kib=$(tail -n 1 "$dir/rss")
        [ "$kib" -lt $((128 * 1024)) ] || hostile=1
        row="$row | $(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }') MiB"
    done
    echo "$row | $code |"
done <<'ROWS'
rows.sgf.gz export -o t.parquet --force
rows.sgf.gz export -o t.csv --force
rows.sgf.gz export --table json -o t.jsonl --force
comments.pgn.gz export -o g.parquet --force
game.pgn.gz fmt
game.pgn.gz filter -w Event=x
game.pgn.gz dedup
game.pgn.gz json
game.pgn.gz split --games 5 -o parts --force
game.pgn.gz export -o h.parquet --force
ROWS
if [ "$hostile" = 1 ]; then
    echo
    echo "some hostile run took 128 MiB or more"
fi
if [ "$over" = 1 ]; then
    echo
    echo "some run took 100 MiB or more"
fi
[ "$over" = 0 ] && [ "$hostile" = 0 ]
