"""`kifu export --to npz|npy` read with NumPy: every array equals its column of the Arrow table
the same binary writes to Parquet (the null conventions and dtypes of docs/export.md § Arrays),
each `.npy` is the bytes `numpy.save` writes for its array, a `--to npy` directory maps without
a copy, and an `.npz` member's values can be mapped in place too (stored, at a multiple of 64
bytes)."""

import subprocess
import zipfile

import numpy as np
import pyarrow.parquet as pq
import pytest

from conftest import corpus

# the integer columns whose null is -1 (their values are never negative); any other signed
# column's null is its type's smallest value, an unsigned one's its largest
MINUS_ONE = {"policy", "ep_square", "x", "y", "ko_point", "WhiteElo", "BlackElo", "HA", "handicap_stones"}


def export(kifu_bin, inputs, out, *args, check=True):
    cmd = [str(kifu_bin), "export", *map(str, inputs), "-o", str(out), "-q", "--table", "positions", *args]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(done.stderr)
    return done


@pytest.fixture
def kifu_npz(kifu_bin):
    if "npz" not in subprocess.run([kifu_bin, "export", "--help"], capture_output=True, text=True).stdout:
        pytest.skip("this kifu binary writes no npz yet")
    return kifu_bin


def expected(column, array_like):
    """What the array of an Arrow column holds, by the rules of docs/export.md § Arrays."""
    name, col = column
    t = col.type
    values = col.to_pylist()
    if name == "bitboards":
        return np.array(values, dtype=np.int64).view(np.uint64)
    if name == "side_to_move":
        return np.array([{"white": 0, "black": 1}[v] for v in values], dtype=np.uint8)
    if name == "board":
        raise AssertionError("compared by the caller")
    if str(t) in ("double", "float"):
        return np.array([np.nan if v is None else v for v in values], dtype=np.float32)
    if str(t) in ("string", "large_string"):
        return np.array([(v or "").encode() for v in values], dtype=array_like.dtype)
    dtype = np.dtype(t.to_pandas_dtype())
    if np.issubdtype(dtype, np.unsignedinteger):
        null = np.iinfo(dtype).max
    elif name in MINUS_ONE:
        null = -1
    else:
        null = np.iinfo(dtype).min
    return np.array([null if v is None else v for v in values], dtype=dtype)


def assert_arrays_are_the_table(arrays, table):
    assert set(arrays) <= set(table.column_names)
    for name, a in arrays.items():
        assert a.shape[0] == table.num_rows, name
        col = table[name]
        if name == "board":
            rows, cols = table["board_rows"][0].as_py(), table["board_cols"][0].as_py()
            want = np.frombuffer(b"".join(col.to_pylist()), np.uint8).reshape(-1, rows, cols)
            assert a.dtype == np.uint8
            np.testing.assert_array_equal(a, want)
            continue
        want = expected((name, col), a)
        assert a.dtype == want.dtype, name
        np.testing.assert_array_equal(a, want, err_msg=name)


def test_chess_arrays_are_the_arrow_table(kifu_npz, tmp_path, pgn_file):
    out = tmp_path / "p.npz"
    export(kifu_npz, [pgn_file], out)
    z = np.load(out)
    assert z["bitboards"].dtype == np.uint64 and z["bitboards"].shape[1:] == (12,)
    assert z["ply"].dtype == np.int32 and z["policy"].dtype == np.int16 and z["clock"].dtype == np.float32
    assert "epd" not in z.files and "file" not in z.files
    parquet = tmp_path / "p.parquet"
    export(kifu_npz, [pgn_file], parquet, "--columns", ",".join(z.files))
    arrays = {k: z[k] for k in z.files}
    assert_arrays_are_the_table(arrays, pq.read_table(parquet))
    # the planes a network reads, without a loop
    planes = np.unpackbits(z["bitboards"].view(np.uint8), bitorder="little").reshape(-1, 12, 8, 8)
    assert planes[0, 0, 1].sum() == 8, "eight white pawns on the second rank at the start"

    # text when asked, as fixed-width bytes
    text = tmp_path / "t.npz"
    export(kifu_npz, [pgn_file], text, "--columns", "ply,uci,epd")
    t = np.load(text)
    assert t["uci"].dtype.kind == "S"
    parquet_t = tmp_path / "t.parquet"
    export(kifu_npz, [pgn_file], parquet_t, "--columns", "ply,uci,epd")
    assert_arrays_are_the_table({k: t[k] for k in t.files}, pq.read_table(parquet_t))


def test_go_arrays_are_the_arrow_table_one_folder_per_board_size(kifu_npz, tmp_path, sgf_file):
    # the fixture holds a 9x9 game and a 3x3 one
    ds = tmp_path / "ds"
    export(kifu_npz, [sgf_file], ds, "--to", "npz", "--rows-per-file", "2")
    parquet = tmp_path / "p.parquet"
    z = np.load(sorted(ds.glob("board=9x9/*.npz"))[0])
    export(kifu_npz, [sgf_file], parquet, "--columns", ",".join(z.files))
    table = pq.read_table(parquet)
    assert sorted(p.name for p in ds.iterdir()) == ["_SUCCESS", "board=3x3", "board=9x9"]
    for size in (9, 3):
        parts = sorted(ds.glob(f"board={size}x{size}/part-*.npz"))
        loaded = [np.load(p) for p in parts]
        assert all(len(part[part.files[0]]) == 2 for part in loaded[:-1]), "two rows a shard but the last"
        arrays = {k: np.concatenate([part[k] for part in loaded]) for k in loaded[0].files}
        mask = np.array(table["board_rows"].to_pylist()) == size
        assert_arrays_are_the_table(arrays, table.filter(mask))
    # one file keeps the first size: the others are left out, said, exit status 1
    one = export(kifu_npz, [sgf_file], tmp_path / "one.npz", check=False)
    assert one.returncode == 1 and "left out" in one.stderr
    assert np.load(tmp_path / "one.npz")["board"].shape[1:] == (9, 9)


def test_each_member_is_what_numpy_save_writes(kifu_npz, tmp_path, pgn_file, sgf_file):
    for source, name in [(pgn_file, "c.npz"), (sgf_file, "g.npz")]:
        out = tmp_path / name
        export(kifu_npz, [source], out, check=False)
        with zipfile.ZipFile(out) as z:
            for info in z.infolist():
                assert info.compress_type == zipfile.ZIP_STORED
                raw = z.read(info)
                path = tmp_path / "saved.npy"
                np.save(path, np.load(out)[info.filename[:-4]])
                assert raw == path.read_bytes(), info.filename


def test_an_npy_directory_maps_without_a_copy(kifu_npz, tmp_path, pgn_file):
    npz, npy = tmp_path / "p.npz", tmp_path / "p"
    export(kifu_npz, [pgn_file], npz)
    export(kifu_npz, [pgn_file], npy, "--to", "npy")
    z = np.load(npz)
    for name in z.files:
        a = np.load(npy / f"{name}.npy", mmap_mode="r")
        assert isinstance(a, np.memmap), name
        np.testing.assert_array_equal(a, z[name])


def test_npz_members_can_be_mapped_in_place(kifu_npz, tmp_path, pgn_file):
    out = tmp_path / "p.npz"
    export(kifu_npz, [pgn_file], out)
    z = np.load(out)
    with zipfile.ZipFile(out) as archive, open(out, "rb") as f:
        for info in archive.infolist():
            # the member's bytes: after its local header (30 bytes, the name, the extra field)
            f.seek(info.header_offset + 26)
            name_len, extra_len = np.frombuffer(f.read(4), "<u2")
            start = info.header_offset + 30 + int(name_len) + int(extra_len)
            assert start % 64 == 0, info.filename
            f.seek(start)
            assert np.lib.format.read_magic(f) == (1, 0)
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            assert f.tell() % 64 == 0
            mapped = np.memmap(out, dtype=dtype, mode="r", offset=f.tell(), shape=shape)
            np.testing.assert_array_equal(mapped, z[info.filename[:-4]])


def test_corpus_chess_arrays(kifu_npz, tmp_path):
    d = corpus("pgn", "small", "chess.js")
    out = tmp_path / "c.npz"
    export(kifu_npz, [d], out, "-j2")
    z = np.load(out)
    parquet = tmp_path / "c.parquet"
    export(kifu_npz, [d], parquet, "--columns", ",".join(z.files), "-j2")
    assert_arrays_are_the_table({k: z[k] for k in z.files}, pq.read_table(parquet))
