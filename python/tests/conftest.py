"""Shared fixtures of the kifu package's tests: sample records, the shared corpus (../shared, or
$KIFU_SHARED; the tests that need it are skipped, with the reason, when it is absent), the kifu
binary (when built), archives made at test time."""

import io
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# as the crates' build.rs look for it
SHARED = pathlib.Path(os.environ.get("KIFU_SHARED") or ROOT.parent / "shared")
CORPUS = SHARED / "corpus"

OPERA = """[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Morphy, Paul"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[WhiteElo "2690"]

{The Opera Game.}
1. e4 {[%clk 0:03:00] [%eval 0.31]} e5 2. Nf3 d6 3. d4 Bg4 $6 {Too early.} 4. dxe5
Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 $2 10. Nxb5! cxb5
11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 (14... Qb4 15. Bxf6 gxf6
16. Qxb4) 15. Bxd7+ Nxd7 16. Qb8+!! Nxb8 17. Rd8# 1-0

"""

SLOPPY = """[Event "A sloppy record"]
[White "?"]
[Black "?"]
[Result "*"]

1. d4 d5 2. c4 e6 ??? 3. Nc3 Nf6 *

"""

ILLEGAL = """[Event "Illegal"]

1. e4 e5 2. Ke3 Nc6 *

"""

SGF = (
    "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]PB[Honinbo Shusaku]PW[Gennan]RE[B+R]C[a root comment]\n"
    ";B[ee];W[cc](;B[gc];W[]C[pass])(;B[gg]))\n"
    "(;GM[1]SZ[3];B[ba];W[aa];B[ab])\n"
)


@pytest.fixture(scope="session")
def pgn_text():
    return OPERA + SLOPPY


@pytest.fixture
def pgn_file(tmp_path, pgn_text):
    p = tmp_path / "games.pgn"
    p.write_text(pgn_text)
    return p


@pytest.fixture
def sgf_file(tmp_path):
    p = tmp_path / "games.sgf"
    p.write_text(SGF)
    return p


def corpus(*parts):
    p = CORPUS.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} is absent (the shared corpus sits beside the repository)")
    return p


@pytest.fixture(scope="session")
def kifu_bin():
    """$KIFU_BIN, else the newer of target/release/kifu and target/debug/kifu, when built."""
    if os.environ.get("KIFU_BIN"):
        return pathlib.Path(os.environ["KIFU_BIN"])
    built = [b for b in (ROOT / "target" / p / "kifu" for p in ("release", "debug")) if b.exists()]
    if not built:
        pytest.skip("the kifu binary is not built (cargo build -p kifu-cli)")
    return max(built, key=lambda b: b.stat().st_mtime)
