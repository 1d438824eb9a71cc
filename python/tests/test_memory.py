"""Constant memory: a binary stream of a few hundred MB read through a file object (never held
whole), peak RSS measured in a child process against a stream of a few MB: read_pgn, to_arrow,
and positions with a shuffle buffer of 100,000 rows."""

import json
import os
import subprocess
import sys

import pytest

CHILD = r"""
import json, resource, sys
import kifu
from conftest import OPERA, SLOPPY

class Stream:
    '''A binary file object yielding `total` bytes of PGN, made on the fly.'''
    def __init__(self, total):
        self.block = ((OPERA + SLOPPY) * 800).encode()
        self.left = total
    def read(self, n=-1):
        if self.left <= 0:
            return b""
        n = min(n if n and n > 0 else len(self.block), self.left, len(self.block))
        self.left -= n
        return self.block[:n]

mode, total = sys.argv[1], int(sys.argv[2])
games = plies = 0
if mode == "read":
    for g in kifu.read_pgn(Stream(total), threads=2):
        games += 1
        plies += len(g.sans)
elif mode == "arrow":
    for batch in kifu.to_arrow(Stream(total), threads=2):
        games += batch.num_rows
elif mode == "positions":
    # the rows of the positions table, mixed in a buffer of 100,000 of them
    for batch in kifu.positions(Stream(total), threads=2, shuffle=100_000, seed=0):
        games += len(batch["ply"])
print(json.dumps({"games": games, "plies": plies,
                  "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def run(mode, total):
    here = os.path.dirname(__file__)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(total)],
        capture_output=True, check=True, cwd=here, env={**os.environ, "PYTHONPATH": here},
    ).stdout
    return json.loads(out)


@pytest.mark.parametrize("mode", ["read", "arrow", "positions"])
def test_constant_memory_on_a_large_stream(mode):
    big_total = int(os.environ.get("KIFU_MEMORY_TEST_BYTES", 300_000_000))
    # the small stream fills every buffer of the pipeline (pieces, batches, the channel);
    # the large one must need nothing more
    small_total = max(big_total // 10, 20_000_000)
    small = run(mode, small_total)
    big = run(mode, big_total)
    assert big["games"] > 0.9 * big_total / small_total * small["games"]
    growth_mib = (big["rss_kib"] - small["rss_kib"]) / 1024
    print(f"{mode}: {small['rss_kib']} KiB at {small_total / 1e6:.0f} MB, {big['rss_kib']} KiB at {big_total / 1e6:.0f} MB")
    # pieces and batches in flight, not the stream: far below the stream's size
    assert growth_mib < 24, (small, big)
