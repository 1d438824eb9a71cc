#!/usr/bin/env bash
# kifu-input's measurements: decode throughput of every compression against the reference
# command-line decoders, single vs parallel (pzstd frames, pbzip2-style bzip2 streams), and the
# peak memory: a ~1 GB (decoded) pzstd stream against a 1 MB one, both with the 32 MiB frames
# of pzstd -19 (written at level 3 by examples/pzstd_write.rs: level 19 would take an hour
# here), and the real pzstd -19 file above
echo
gb=$dir/gb.pzst.pgn.zst
if [ ! -s "$gb" ]; then
  echo "making $gb"
  for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$big"; done | head -c 1000000000 | "$pzw" 3 32 > "$gb.tmp" && mv "$gb.tmp" "$gb"
fi
head -c 1000000 "$big" | "$pzw" 3 32 > "$dir/mb.pzst.pgn.zst"
echo "peak memory (max RSS) of decode -jN:"
for j in 1 2; do
  for f in "$dir/mb.pzst.pgn.zst" "$gb" "$dir/c.pzst.pgn.zst"; do
    kb=$( { /usr/bin/time -v "$dec" -j$j "$f" > /dev/null; } 2>&1 | awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}')
    printf '  -j%s %-22s %11s bytes raw  %8s KiB\n' "$j" "$(basename "$f")" "$(stat -c %s "$f")" "$kb"
  done
done
