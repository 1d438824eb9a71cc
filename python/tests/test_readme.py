"""python/README.md (the package's page on PyPI): its Python blocks run as written, in order,
in a folder holding the files they name (made from the sample records of conftest.py), and
what they print is what the README's comments show."""

import contextlib
import io
import re
import zipfile

import pytest

from conftest import OPERA, ROOT, SGF, SLOPPY

README = ROOT / "python" / "README.md"


def blocks():
    return re.findall(r"^```python\n(.*?)^```", README.read_text(), re.M | re.S)


def test_readme_python_blocks_run(tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("pandas")
    pytest.importorskip("polars")
    pgn = (OPERA + SLOPPY).encode()
    (tmp_path / "games.pgn").write_bytes(pgn)
    (tmp_path / "games.pgn.zst").write_bytes(pa.compress(pgn, codec="zstd", asbytes=True))
    (tmp_path / "games.sgf").write_text(SGF)
    with zipfile.ZipFile(tmp_path / "archive.zip", "w") as z:
        z.writestr("2024/01.pgn", pgn)
        z.writestr("go/1.sgf", SGF)
    monkeypatch.chdir(tmp_path)
    found = blocks()
    assert found, "python/README.md has no python block"
    for i, block in enumerate(found):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"python/README.md block {i + 1}", "exec"), {})
        # a comment that shows a printed line (`print(x)  # LINE`) shows what was printed
        for shown in re.findall(r"print\(.*\)\s+# (.*)$", block, re.M):
            assert shown in out.getvalue().splitlines(), (shown, out.getvalue())
    assert (tmp_path / "games.parquet").read_bytes()[:4] == b"PAR1"
