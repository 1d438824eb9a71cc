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
if [ "$over" = 1 ]; then
    echo
    echo "some run took 100 MiB or more"
    exit 1
fi
