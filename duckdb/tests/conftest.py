"""Fixtures of the DuckDB extension's tests: a connection of the DuckDB Python package with the
extension loaded, the kifu binary to compare with (`kifu stats`, `kifu export`), sample records,
and the shared corpus (../shared, or $KIFU_SHARED; its tests skip, saying why, without it).

The extension is $KIFU_DUCKDB_EXTENSION, else target/duckdb/kifu.duckdb_extension as
scripts/duckdb/build.sh writes it; the tests skip when it is not built."""

import importlib.util
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

# The package's sample records (python/tests/conftest.py), each with a tag more: the Opera
# game's ECO, a rating in the sloppy record, Black's rank in the Go game.
_spec = importlib.util.spec_from_file_location(
    "kifu_python_samples", ROOT / "python" / "tests" / "conftest.py"
)
assert _spec is not None and _spec.loader is not None
_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_samples)
OPERA = _samples.OPERA.replace('[WhiteElo "2690"]\n', '[WhiteElo "2690"]\n[ECO "C41"]\n')
SLOPPY = _samples.SLOPPY.replace('[Result "*"]\n', '[Result "*"]\n[WhiteElo "1500"]\n')
SGF = _samples.SGF.replace("PW[Gennan]RE", "PW[Gennan]BR[7d]RE")
assert "C41" in OPERA and "1500" in SLOPPY and "BR[7d]" in SGF, "the samples changed"


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


# $KIFU_BIN, else the newer of target/release/kifu and target/debug/kifu, when built: the
# package's fixture
kifu_bin = _samples.kifu_bin


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
