"""An output never replaces an input, however the input is reached (issue 32): the file a file
object reads (its fileno()) is an input, as a path is; to_parquet refuses it with force too,
and leaves it untouched."""

import gzip
import io
import os

import pytest

import kifu

GAME = b'[Event "?"]\n[White "P1"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n'


def names(d):
    return sorted(p.name for p in d.iterdir())


def test_to_parquet_refuses_the_file_a_file_object_reads(tmp_path):
    src = tmp_path / "in.pgn"
    src.write_bytes(GAME * 10)
    with open(src, "rb") as f:
        with pytest.raises(ValueError, match="is one of the inputs"):
            kifu.to_parquet(f, str(src), force=True)
    assert src.read_bytes() == GAME * 10, "the PGN is not replaced with Parquet"
    assert names(tmp_path) == ["in.pgn"], "nothing left beside it"
    # by another path: a link to it
    link = tmp_path / "link.pgn"
    os.symlink(src, link)
    with open(link, "rb") as f:
        with pytest.raises(ValueError, match="is one of the inputs"):
            kifu.to_parquet(f, src, force=True)
    assert src.read_bytes() == GAME * 10
    link.unlink()


def test_to_parquet_refuses_the_compressed_file_a_gzip_file_object_reads(tmp_path):
    src = tmp_path / "in.pgn.gz"
    src.write_bytes(gzip.compress(GAME * 10))
    before = src.read_bytes()
    with gzip.open(src, "rb") as f:
        with pytest.raises(ValueError, match="is one of the inputs"):
            kifu.to_parquet(f, src, format="pgn", force=True)
    assert src.read_bytes() == before


def test_to_parquet_refuses_a_dataset_holding_the_file_a_file_object_reads(tmp_path):
    ds = tmp_path / "ds"
    ds.mkdir()
    part = ds / "part-00000.parquet"
    part.write_bytes(GAME * 10)
    (ds / "_SUCCESS").write_bytes(b"")
    with open(part, "rb") as f:
        with pytest.raises(ValueError, match="is one of the inputs"):
            kifu.to_parquet(f, ds, format="pgn", dataset=True, force=True)
    assert part.read_bytes() == GAME * 10
    assert names(tmp_path) == ["ds"]


def test_a_file_object_protects_its_file_only_while_it_is_read(tmp_path):
    src = tmp_path / "in.pgn"
    src.write_bytes(GAME * 10)
    out = tmp_path / "out.parquet"
    # another output is written; then the same path again, read from elsewhere
    with open(src, "rb") as f:
        assert kifu.to_parquet(f, out, format="pgn")["rows"] == 10
    with open(src, "rb") as f:
        assert kifu.to_parquet(f, out, format="pgn", force=True)["rows"] == 10
    # once the export is over, the file is no input any more (to= says Parquet: the name says
    # no format kifu writes)
    with pytest.raises(ValueError, match="names no format"):
        kifu.to_parquet(io.BytesIO(GAME), src, format="pgn", force=True)
    assert kifu.to_parquet(io.BytesIO(GAME), src, format="pgn", to="parquet", force=True)["rows"] == 1
    assert src.read_bytes()[:4] == b"PAR1"
