"""kifu.positions: the positions table as batches of NumPy arrays. The arrays equal the table
to_arrow builds (bitboards, boards, every numeric column, nulls filled as documented), views of
its buffers where no null; batches of batch_size rows at every thread count; where= and
columns=; the shuffle buffer (a permutation of the rows, the same for a seed at any threads);
Go boards of one size; and docs/python.md's PyTorch snippet, run with a stand-in for torch
when torch is absent."""

import re
import subprocess
import sys
import types
import warnings

import pytest

import kifu
from conftest import OPERA, ROOT, SGF, corpus

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")


def many_games(n=120):
    """`n` games of the Opera game's moves, WhiteElo 2000 + i, every third one without a
    result (a null score)."""
    out = []
    for i in range(n):
        g = OPERA.replace('[WhiteElo "2690"]', f'[WhiteElo "{2000 + i}"]')
        if i % 3 == 2:
            g = g.replace('[Result "1-0"]', '[Result "*"]').replace("17. Rd8# 1-0", "17. Rd8# *")
        out.append(g)
    return "".join(out)


@pytest.fixture
def games(tmp_path):
    p = tmp_path / "many.pgn"
    p.write_text(many_games())
    return p


# the columns whose nulls are -1, as `kifu export --to npz` writes them (else the type's smallest)
MINUS_ONE = {"policy", "ep_square", "x", "y", "ko_point", "WhiteElo", "BlackElo", "HA", "handicap_stones"}


def fill(name, dtype):
    return -1 if name in MINUS_ONE else np.iinfo(dtype).min


def concat(batches):
    return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}


def equal(a, b):
    return all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a) and a.keys() == b.keys()


def test_chess_arrays_are_the_table(games):
    batches = list(kifu.positions(games, batch_size=1000, threads=2))
    t = kifu.to_arrow(games, "positions", format="pgn").read_all()
    assert [len(b["ply"]) for b in batches] == [1000] * (t.num_rows // 1000) + [t.num_rows % 1000]
    got = concat(batches)
    # the default columns: the fixed-width ones and the bitboards, in the table's order
    numeric = [f.name for f in t.schema if pa.types.is_integer(f.type) or pa.types.is_floating(f.type)]
    assert list(got) == [n for n in t.column_names if n in numeric or n in ("bitboards", "side_to_move")]
    assert got["side_to_move"].dtype == np.uint8
    assert got["side_to_move"].tolist() == [int(s == "black") for s in t.column("side_to_move").to_pylist()]
    bb = np.array(t.column("bitboards").to_pylist(), np.int64)
    assert got["bitboards"].dtype == np.uint64 and got["bitboards"].shape == (t.num_rows, 12)
    assert (got["bitboards"].view(np.int64) == bb).all()
    for name in numeric:
        col = t.column(name)
        arr = got[name]
        assert arr.dtype == np.dtype(col.type.to_pandas_dtype()), name
        values = col.to_pylist()
        if pa.types.is_floating(col.type):
            want = np.array([np.nan if v is None else v for v in values], arr.dtype)
            assert np.array_equal(arr, want, equal_nan=True), name
        else:
            null = fill(name, arr.dtype)
            assert arr.tolist() == [null if v is None else v for v in values], name
    # nulls where the table has them: the final position's policy, unknown results' score
    assert (got["policy"] == -1).sum() == t.column("policy").null_count > 0
    assert (got["score"] == -128).sum() == t.column("score").null_count > 0


def test_views_without_a_copy(games):
    b = next(iter(kifu.positions(games, batch_size=500, columns=["ply", "key", "bitboards", "policy"])))
    # every numeric column is a view of an Arrow buffer (read-only), policy too: its nulls (the
    # final positions) were filled as the batch was built
    for name in b:
        assert not b[name].flags.owndata and not b[name].flags.writeable, name
    assert b["bitboards"].base is not None
    assert list(b) == ["ply", "key", "policy", "bitboards"]


def test_threads_and_batches_agree(games):
    one = list(kifu.positions(games, batch_size=777, threads=1))
    two = list(kifu.positions(games, batch_size=777, threads=2))
    assert [len(b["ply"]) for b in one] == [len(b["ply"]) for b in two]
    assert all(equal(a, b) for a, b in zip(one, two))


def test_the_scans_batches_cut_into_batch_size(games, monkeypatch):
    """The scan hands on its batches as its workers made them, cut here into views of
    batch_size rows (a batch across two of the scan's a copy): the batches, their rows and a
    seeded shuffle are the same whatever the scan's batches."""
    def run(**options):
        return list(kifu.positions(games, batch_size=300, threads=2, **options))

    whole, mixed = run(), run(shuffle=1000, seed=3)
    t = kifu.to_arrow(games, "positions", format="pgn").read_all()
    for group in (1, 299, 300, 900, 1000, 10**6):
        monkeypatch.setattr(kifu, "_POSITIONS_GROUP_ROWS", group)
        cut = run()
        rest = t.num_rows % 300
        assert [len(b["ply"]) for b in cut] == [300] * (t.num_rows // 300) + ([rest] if rest else [])
        assert all(equal(a, b) for a, b in zip(whole, cut)) and len(whole) == len(cut)
        assert all(b["bitboards"].shape == (len(b["ply"]), 12) for b in cut)
        # views of the scan's arrays, but where a batch of 300 spans two of the scan's (each a
        # piece's rows, or cut after the game that brings it to max(group, 8,192) rows)
        views = [not b["ply"].flags.owndata for b in cut]
        if group >= 900:
            assert sum(views) > len(cut) // 2, views
        shuffled = run(shuffle=1000, seed=3)
        assert all(equal(a, b) for a, b in zip(mixed, shuffled)) and len(mixed) == len(shuffled)


def test_shuffle_keeps_every_row_across_the_scans_batches(tmp_path):
    """Every row once, shuffled or not, when the scan hands on several batches whose rows are
    no whole number of batch_size (a batch of the scan ends after the game that fills it):
    the rows left at a batch's end go out with the next one's, not as a short batch (the
    shuffle takes a short batch for the input's last)."""
    p = tmp_path / "more.pgn"
    p.write_text(many_games(1000))
    plain = concat(list(kifu.positions(p, batch_size=999)))
    n = len(plain["ply"])
    assert n > 4 * 8192
    rows = lambda d: sorted(zip(d["game_index"].tolist(), d["ply"].tolist()))
    for threads in (1, 2):
        batches = list(kifu.positions(p, batch_size=999, threads=threads))
        rest = [n % 999] if n % 999 else []
        assert [len(b["ply"]) for b in batches] == [999] * (n // 999) + rest
        mixed = concat(list(kifu.positions(p, batch_size=999, shuffle=5000, seed=2, threads=threads)))
        assert rows(mixed) == rows(plain)


def test_shuffle_is_a_seeded_permutation(games):
    plain = concat(list(kifu.positions(games, batch_size=256)))
    n = len(plain["ply"])
    a = list(kifu.positions(games, batch_size=256, shuffle=1000, seed=7, threads=1))
    b = list(kifu.positions(games, batch_size=256, shuffle=1000, seed=7, threads=2))
    c = list(kifu.positions(games, batch_size=256, shuffle=1000, seed=8, threads=2))
    sizes = [len(x["ply"]) for x in a]
    assert sizes == [256] * (n // 256) + [n % 256]
    assert all(equal(x, y) for x, y in zip(a, b))
    sa, sc = concat(a), concat(c)
    assert not np.array_equal(sa["key"], sc["key"])
    # the same rows (game_index and ply name a row), in another order
    rows = lambda d: sorted(zip(d["game_index"].tolist(), d["ply"].tolist()))
    assert rows(sa) == rows(plain) and rows(sc) == rows(plain)
    assert not np.array_equal(sa["game_index"], plain["game_index"])
    # each row keeps its own values
    order = np.lexsort((sa["ply"], sa["game_index"]))
    assert equal({k: v[order] for k, v in sa.items()}, plain)
    # a buffer larger than the input: one permutation of all the rows
    whole = concat(list(kifu.positions(games, batch_size=256, shuffle=10**6, seed=1)))
    assert rows(whole) == rows(plain)
    # the buffer bounds how far a row moves: a row never goes out before the buffer was full
    first = a[0]["game_index"]
    assert first.max() <= 1000 // 35 + 8


def test_where_and_columns(games):
    b = concat(list(kifu.positions(games, where=["WhiteElo>=2100"], columns=["game_index", "WhiteElo"])))
    assert list(b) == ["game_index", "WhiteElo"]
    assert b["WhiteElo"].min() == 2100 and set(b["game_index"].tolist()) == set(range(100, 120))
    t = concat(list(kifu.positions(games, columns=["uci", "side_to_move"], batch_size=10_000)))
    assert t["uci"].dtype == object and t["uci"][0] == "e2e4" and t["uci"][33] is None
    assert t["side_to_move"][:2].tolist() == [0, 1]  # a number, as in kifu export --to npz
    with pytest.raises(ValueError, match="nope"):
        kifu.positions(games, columns=["nope"])
    with pytest.raises(ValueError, match="board"):
        kifu.positions(games, columns=["board"])  # Go's
    with pytest.raises(ValueError):
        kifu.positions(games, where=["WhiteElo>>1"])
    with pytest.raises(ValueError):
        kifu.positions(games, batch_size=0)
    with pytest.raises(ValueError, match="no column"):
        kifu.positions(games, columns=[])
    assert list(kifu.positions(games, where=["WhiteElo>=9000"])) == []


def test_go_boards(tmp_path):
    p = tmp_path / "go.sgf"
    nine = "(;GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[gc];W[])"
    p.write_text(nine + SGF + nine.replace("KM[6.5]", ""))
    t = kifu.to_arrow(p, "positions").read_all()
    with pytest.warns(UserWarning, match="boards other than 9x9"):
        b = concat(list(kifu.positions(p, batch_size=3)))
    nines = [i for i, c in enumerate(t.column("board_cols").to_pylist()) if c == 9]
    assert b["board"].shape == (len(nines), 9, 9) and b["board"].dtype == np.uint8
    boards = t.column("board").to_pylist()
    assert all(b["board"][k].tobytes() == boards[i] for k, i in enumerate(nines))
    assert b["x"].tolist() == [-1 if t.column("x")[i].as_py() is None else t.column("x")[i].as_py() for i in nines]
    assert np.isnan(b["KM"][-1]) and b["KM"][0] == 6.5
    # the other size, chosen
    with pytest.warns(UserWarning, match="other than 3x3"):
        three = concat(list(kifu.positions(p, board_size=3)))
    assert three["board"].shape == (3, 3, 3)
    assert three["board"][2].tolist() == [[2, 1, 0], [0, 0, 0], [0, 0, 0]]
    with pytest.raises(ValueError):
        kifu.positions(p, board_size=(0, 9))


def test_go_corpus_boards_agree_with_the_table():
    src = corpus("sgf", "small", "katago")
    t = kifu.to_arrow(src, "positions").read_all()
    cols, rows = t.column("board_cols").to_pylist(), t.column("board_rows").to_pylist()
    keep = [i for i in range(t.num_rows) if (cols[i], rows[i]) == (19, 19)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the boards of other sizes left out, counted
        got = concat(list(kifu.positions(src, board_size=19, threads=2)))
    want = np.frombuffer(b"".join(t.column("board").take(keep).to_pylist()), np.uint8)
    assert got["board"].shape == (len(keep), 19, 19)
    assert (got["board"].reshape(-1) == want).all()


def torch_snippet():
    text = (ROOT / "docs" / "python.md").read_text()
    (block,) = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S) if "IterableDataset" in b]
    return block


def fake_torch():
    """A stand-in for the part of torch the snippet uses: an IterableDataset base, from_numpy,
    and a DataLoader that iterates the dataset as batch_size=None does."""
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch.utils")
    data = types.ModuleType("torch.utils.data")

    class IterableDataset:
        def __iter__(self):
            raise NotImplementedError

    class DataLoader:
        def __init__(self, dataset, batch_size=1, num_workers=0):
            assert batch_size is None and num_workers == 0
            self.dataset = dataset

        def __iter__(self):
            return iter(self.dataset)

    torch.from_numpy = lambda a: np.asarray(a)
    data.IterableDataset, data.DataLoader = IterableDataset, DataLoader
    torch.utils, utils.data = utils, data
    return {"torch": torch, "torch.utils": utils, "torch.utils.data": data}


def test_the_pytorch_snippet_runs(games, monkeypatch):
    try:
        import torch  # noqa: F401
    except ImportError:
        for name, module in fake_torch().items():
            monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.chdir(games.parent)
    games.rename(games.parent / "games.pgn")
    scope: dict = {}
    exec(compile(torch_snippet(), "docs/python.md (PyTorch)", "exec"), scope)
    assert scope["seen"] == len(list(kifu.positions("games.pgn", columns=["ply"], batch_size=10_000))[0]["ply"])


def test_the_rows_kifu_export_keeps(games, kifu_bin, tmp_path):
    """min_ply, max_ply, legal_only, sample_rate with seed, distinct and where: the rows of
    `kifu export --table positions` with the flags of the same names, at every thread count."""
    pq = pytest.importorskip("pyarrow.parquet")
    options = dict(min_ply=4, max_ply=30, sample_rate=0.5, seed=3, distinct=True, where=["WhiteElo>=2010"])
    out = tmp_path / "p.parquet"
    subprocess.run([kifu_bin, "export", "--table", "positions", "--min-ply", "4", "--max-ply", "30",
                    "--sample-rate", "0.5", "--seed", "3", "--distinct", "-w", "WhiteElo>=2010",
                    "-o", out, games], check=True, capture_output=True)
    cli = pq.read_table(out)
    assert 0 < cli.num_rows < 120 * 34
    for threads in (1, 2):
        t = kifu.to_arrow(games, "positions", threads=threads, **options).read_all()
        assert t.equals(cli)
        got = concat(list(kifu.positions(games, columns=["game_index", "ply", "key"], threads=threads,
                                         batch_size=100, **options)))
        assert got["key"].tolist() == cli.column("key").to_pylist()
        assert got["ply"].tolist() == cli.column("ply").to_pylist()
    with pytest.raises(ValueError, match="positions"):
        kifu.to_arrow(games, "games", min_ply=3)
    with pytest.raises(ValueError):
        kifu.positions(games, sample_rate=1.5)
    # options that change nothing in the positions table: refused, not ignored
    with pytest.raises(ValueError, match="variations=True changes nothing in the positions table"):
        kifu.to_arrow(games, "positions", variations=True)
    # a range of no ply: refused, as the CLI and DuckDB refuse it
    for read in (kifu.positions, lambda g, **o: kifu.to_arrow(g, "positions", **o)):
        with pytest.raises(ValueError, match="^min_ply 5 is past max_ply 2: no position is between them$"):
            read(games, min_ply=5, max_ply=2)
    # a set of keys of no memory means nothing: refused, as --distinct-memory 0 is
    for read in (kifu.positions, lambda g, **o: kifu.to_arrow(g, "positions", **o)):
        with pytest.raises(ValueError, match="distinct_memory"):
            read(games, distinct=True, distinct_memory=0)
    # where= on another table: the games that pass
    g = kifu.to_arrow(games, "games", where=["WhiteElo>=2100"]).read_all()
    assert g.column("WhiteElo").to_pylist() == list(range(2100, 2120))


def test_go_symmetries(tmp_path):
    p = tmp_path / "go.sgf"
    p.write_text("(;GM[1]SZ[9]RE[B+R];B[ee];W[cc];B[gc])")
    plain = concat(list(kifu.positions(p)))
    turned = concat(list(kifu.positions(p, symmetries=True, batch_size=7)))
    assert len(turned["ply"]) == 8 * len(plain["ply"])
    assert sorted(set(turned["symmetry"].tolist())) == list(range(8))
    # each position's boards: its 8 turns, as NumPy turns the board
    first = turned["board"][turned["ply"] == 2]
    want = {m.tobytes() for b in plain["board"][2:3] for m in (np.rot90(b, k) for k in range(4))}
    want |= {m.tobytes() for b in plain["board"][2:3] for m in (np.rot90(b.T, k) for k in range(4))}
    assert {b.tobytes() for b in first} == want
    assert (turned["ko_point"] == -1).all() and plain["policy"].tolist() == [40, 20, 24]  # a row per move: no final position


@pytest.mark.parametrize("go", [False, True])
def test_the_arrays_of_kifu_export_to_npz(games, tmp_path, kifu_bin, go):
    """The default arrays, their types and their nulls' values are those of `kifu export --to
    npz` for the same input."""
    if go:
        src = tmp_path / "go.sgf"
        src.write_text("(;GM[1]SZ[9]KM[6.5]RE[B+R];B[ee];W[cc];B[];W[gc])(;GM[1]SZ[9];B[aa];W[ab])")
    else:
        src = games
    out = tmp_path / "p.npz"
    done = subprocess.run([kifu_bin, "export", "--table", "positions", "--to", "npz", "-o", out, src],
                          capture_output=True)
    if done.returncode != 0 and b"npz" in done.stderr:
        pytest.skip("this kifu binary has no --to npz")
    assert done.returncode == 0, done.stderr
    want = dict(np.load(out))
    got = concat(list(kifu.positions(src, batch_size=10_000)))
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name].dtype == want[name].dtype or want[name].dtype.kind == "f", name
        assert np.array_equal(got[name].astype(want[name].dtype), want[name], equal_nan=want[name].dtype.kind == "f"), name
