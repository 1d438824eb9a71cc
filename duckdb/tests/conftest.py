"""Fixtures of the DuckDB extension's tests: a connection of the DuckDB Python package with the
extension loaded, the kifu binary to compare with (`kifu stats`, `kifu export`), sample records,
and the shared corpus (../shared, or $KIFU_SHARED; its tests skip, saying why, without it).

The extension is $KIFU_DUCKDB_EXTENSION, else target/duckdb/kifu.duckdb_extension as
scripts/duckdb/build.sh writes it; the tests skip when it is not built."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("KIFU_SHARED") or ROOT.parent / "shared")
CORPUS = SHARED / "corpus"
EXTENSION = pathlib.Path(
    os.environ.get("KIFU_DUCKDB_EXTENSION") or ROOT / "target" / "duckdb" / "kifu.duckdb_extension"
)

OPERA = """[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Morphy, Paul"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[WhiteElo "2690"]
[ECO "C41"]

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
[WhiteElo "1500"]

1. d4 d5 2. c4 e6 ??? 3. Nc3 Nf6 *

"""

SGF = (
    "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]PB[Honinbo Shusaku]PW[Gennan]BR[7d]RE[B+R]C[a root comment]\n"
    ";B[ee];W[cc](;B[gc];W[]C[pass])(;B[gg]))\n"
    "(;GM[1]SZ[3];B[ba];W[aa];B[ab])\n"
)


@pytest.fixture(scope="session")
def duckdb():
    try:
        import duckdb
    except ImportError:
        pytest.skip("no duckdb Python package (scripts/python_env.sh installs it)")
    return duckdb


@pytest.fixture(scope="session")
def extension():
    if not EXTENSION.exists():
        pytest.skip(f"the extension is not built ({EXTENSION}: scripts/duckdb/build.sh)")
    return EXTENSION


@pytest.fixture
def con(duckdb, extension):
    """A connection with the extension loaded (an unsigned build: allow_unsigned_extensions)."""
    c = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    c.execute(f"LOAD '{extension}'")
    yield c
    c.close()


@pytest.fixture(scope="session")
def kifu_bin():
    """$KIFU_BIN, else the newer of target/release/kifu and target/debug/kifu, when built."""
    if os.environ.get("KIFU_BIN"):
        return pathlib.Path(os.environ["KIFU_BIN"])
    built = [b for b in (ROOT / "target" / p / "kifu" for p in ("release", "debug")) if b.exists()]
    if not built:
        pytest.skip("the kifu binary is not built (cargo build -p kifu-cli)")
    return max(built, key=lambda b: b.stat().st_mtime)


class Kifu:
    """The kifu command, as the tests compare with it."""

    def __init__(self, binary):
        self.binary = binary

    def run(self, *args, check=True):
        return subprocess.run(
            [str(self.binary), *map(str, args)], capture_output=True, text=True, check=check
        )

    def stats(self, *inputs):
        return json.loads(self.run("stats", "--json", "-q", *inputs).stdout)

    def export(self, out, *inputs, table="games", extra=()):
        self.run("export", "-q", "--force", "--table", table, *extra, "-o", out, *inputs)
        return out


@pytest.fixture(scope="session")
def kifu(kifu_bin):
    return Kifu(kifu_bin)


@pytest.fixture
def corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"needs ../shared (the corpus): {CORPUS} is absent")
    return CORPUS


@pytest.fixture
def sample(tmp_path):
    """A folder with games.pgn (two games, one sloppy) and go.sgf (two game trees)."""
    (tmp_path / "games.pgn").write_text(OPERA + SLOPPY)
    (tmp_path / "go.sgf").write_text(SGF)
    return tmp_path
