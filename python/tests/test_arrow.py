"""kifu.to_arrow and kifu.to_parquet: kifu-export's tables through the Arrow C stream."""

import subprocess

import pytest

import kifu
from conftest import SGF, corpus

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def test_games_table(pgn_file):
    r = kifu.to_arrow(pgn_file)
    assert isinstance(r, pa.RecordBatchReader)
    t = r.read_all()
    assert t.num_rows == 2
    assert t.schema == kifu.schema("games")
    assert t.schema.field("WhiteElo").type == pa.int16()
    assert t.schema.field("UTCDate").type == pa.date32()
    row = t.slice(0, 1).to_pylist()[0]
    assert (row["file"], row["game_index"], row["byte_offset"], row["White"], row["WhiteElo"]) == (str(pgn_file), 0, 0, "Morphy, Paul", 2690)
    assert row["moves"][:3] == ["e4", "e5", "Nf3"] and row["plies"] == 33
    assert row["clocks"][0] == 180.0 and row["evals"][0] == {"cp": 31, "mate": None}
    assert row["outcome"] == "1-0" and row["error_count"] == 0
    assert dict(row["tags"])["Date"] == "1858.??.??"
    sloppy = t.slice(1, 1).to_pylist()[0]
    assert sloppy["error_count"] == 1 and sloppy["errors"][0]["kind"] == "unexpected_text"


def test_moves_trees_positions(pgn_file, sgf_file):
    m = kifu.to_arrow(pgn_file, "moves").read_all()
    assert m.num_rows == 33 + 6 and m.column("san").to_pylist()[:2] == ["e4", "e5"]
    mv = kifu.to_arrow(pgn_file, "moves", variations=True).read_all()
    assert mv.num_rows == m.num_rows + 4 and "line" in mv.schema.names
    t = kifu.to_arrow(sgf_file, "trees").read_all()
    assert t.num_rows == 2 and t.column("PB").to_pylist()[0] == "Honinbo Shusaku"
    assert t.column("moves").to_pylist()[0] == ["ee", "cc", "gc", None]
    sm = kifu.to_arrow(sgf_file, "moves", format="sgf").read_all()
    assert sm.num_rows == 4 + 3
    p = kifu.to_arrow(sgf_file, "positions").read_all()
    assert p.num_rows == 7
    rows = p.to_pylist()
    # kifu-export's positions table (the schema of `kifu export --table positions`)
    assert p.schema.equals(kifu.schema("positions"))
    assert "to_play" not in p.schema.names and "move_number" not in p.schema.names
    assert rows[0]["board"] == bytes(81) and rows[0]["side_to_move"] == "black" and (rows[0]["x"], rows[0]["y"]) == (4, 4)
    assert rows[1]["board"][4 * 9 + 4] == 1 and rows[1]["side_to_move"] == "white" and rows[3]["x"] is None
    assert rows[0]["KM"] == 6.5 and rows[0]["black_rank"] is None and rows[0]["RE"] == "B+R"
    last = rows[-1]
    assert (last["game_index"], last["ply"], last["board_cols"], last["board"]) == (1, 2, 3, bytes([2, 1, 0, 0, 0, 0, 0, 0, 0]))
    np = pytest.importorskip("numpy")
    boards = np.frombuffer(b"".join(p.column("board").to_pylist()[:4]), np.uint8).reshape(4, 9, 9)
    assert boards[1, 4, 4] == 1
    # chess positions: a row per position of the main line, the final one included
    cp = kifu.to_arrow(pgn_file, "positions").read_all()
    assert cp.schema.metadata[b"kifu.table"] == b"pgn_positions"
    assert cp.num_rows == m.num_rows + 2 and cp.column("ply").to_pylist()[:2] == [0, 1]
    assert cp.column("uci").to_pylist()[0] == "e2e4" and len(cp.column("bitboards")[0]) == 12
    assert kifu.to_arrow(pgn_file, "positions", format="pgn").read_all().equals(cp)
    with pytest.raises(ValueError):
        kifu.to_arrow(pgn_file, "nope")


def test_threads_and_batches_equal_one_thread(pgn_text):
    raw = (pgn_text * 4000).encode()
    one = kifu.to_arrow(raw, threads=1, batch_rows=1000).read_all()
    two = kifu.to_arrow(raw, threads=2).read_all()
    assert one.num_rows == 8000
    assert one.equals(two)
    raw_sgf = SGF.encode() * 4000
    for table in ("trees", "positions"):
        a = kifu.to_arrow(raw_sgf, table, threads=1).read_all()
        b = kifu.to_arrow(raw_sgf, table, threads=2).read_all()
        assert a.equals(b) and a.num_rows > 0, table


def test_zero_copy_into_engines(pgn_file):
    pd = pytest.importorskip("pandas")
    df = kifu.to_arrow(pgn_file).read_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 2
    pl = pytest.importorskip("polars")
    d = pl.from_arrow(kifu.to_arrow(pgn_file).read_all())
    assert d["White"].to_list()[0] == "Morphy, Paul"
    stream = kifu.to_arrow(pgn_file, raw=True)
    assert isinstance(stream, kifu.ArrowStream)
    d2 = pl.DataFrame(stream)  # the PyCapsule protocol, without pyarrow in between
    assert d2.height == 2
    with pytest.raises(RuntimeError):
        stream.__arrow_c_stream__()
    duckdb = pytest.importorskip("duckdb")
    games = kifu.to_arrow(pgn_file)
    (n,) = duckdb.sql("select count(*), max(WhiteElo) from games").fetchall()
    assert n == (2, 2690)


def test_to_parquet_equals_to_arrow(pgn_file, tmp_path):
    out = tmp_path / "games.parquet"
    s = kifu.to_parquet(pgn_file, out)
    assert s["rows"] == 2 and s["files"] == [str(out)]
    assert pq.read_table(out).equals(kifu.to_arrow(pgn_file).read_all())
    with pytest.raises(FileExistsError):
        kifu.to_parquet(pgn_file, out)
    kifu.to_parquet(pgn_file, out, force=True)
    with pytest.raises(ValueError):
        kifu.to_parquet(pgn_file, pgn_file, force=True)
    ds = tmp_path / "ds"
    s = kifu.to_parquet(pgn_file, ds, table="moves", max_rows_per_file=10)
    assert s["rows"] == 39 and len(s["files"]) == 4 and (ds / "_SUCCESS").exists()
    import pyarrow.dataset as pds
    assert pds.dataset(ds).to_table().num_rows == 39
    csv = tmp_path / "games.csv"
    kifu.to_parquet(pgn_file, csv, to="csv")
    assert csv.read_text().startswith("file,game_index,byte_offset,Event")


def test_equals_kifu_export_command(kifu_bin, tmp_path):
    d = corpus("pgn", "large", "notnil-chess-history")
    if subprocess.run([kifu_bin, "export", "--help"], capture_output=True).returncode != 0:
        pytest.skip("this kifu binary has no export command yet")
    out = tmp_path / "cli.parquet"
    subprocess.run([kifu_bin, "export", str(d), "--to", "parquet", "-o", str(out), "--table", "games"], check=True)
    assert pq.read_table(out).equals(kifu.to_arrow(d, threads=2).read_all())


@pytest.mark.parametrize("table", ["trees", "moves", "positions"])
def test_sgf_tables_equal_kifu_export_command(kifu_bin, tmp_path, table):
    d = corpus("sgf", "small", "katago")
    if subprocess.run([kifu_bin, "export", "--help"], capture_output=True).returncode != 0:
        pytest.skip("this kifu binary has no export command yet")
    out = tmp_path / f"{table}.parquet"
    subprocess.run([kifu_bin, "export", str(d), "--to", "parquet", "-o", str(out), "--table", table, "--format", "sgf"], check=True)
    cli = pq.read_table(out)
    mine = kifu.to_arrow(d, table, format="sgf", threads=2).read_all()
    assert cli.num_rows > 0 and cli.equals(mine)


def test_corpus_table_against_the_export_crate(tmp_path):
    d = corpus("pgn", "large", "tcec")
    mine = kifu.to_arrow(d, threads=2).read_all()
    out = tmp_path / "t.parquet"
    kifu.to_parquet(d, out, threads=1)
    assert pq.read_table(out).equals(mine)
    assert mine.num_rows == kifu.stats(d)["games"]


def test_truncated_input_fails_the_stream(tmp_path, pgn_text):
    import gzip

    (tmp_path / "cut.pgn.gz").write_bytes(gzip.compress((pgn_text * 300).encode())[:-100])
    r = kifu.to_arrow(tmp_path / "cut.pgn.gz", threads=1, batch_rows=100)
    rows = 0
    with pytest.raises(kifu.InputError, match="cut.pgn.gz") as e:
        for b in r:
            rows += b.num_rows
    assert rows >= 500
    assert isinstance(e.value, kifu.Error) and isinstance(e.value, OSError)
    assert e.value.errors[0][0].endswith("cut.pgn.gz")
    # read_all, pandas and friends get kifu's exception too
    with pytest.raises(kifu.InputError):
        kifu.to_arrow(tmp_path / "cut.pgn.gz").read_all()


# One pipeline under both frontends: `kifu.to_parquet` and `kifu export` run kifu-pipeline's
# one `table::export`, so the same input and options give the same bytes, at any thread count.
SAME_BYTES = [
    ("games", [], {}),
    ("games", ["--replay"], {"replay": True}),
    ("moves", [], {}),
    ("moves", ["--replay", "--variations"], {"replay": True, "variations": True}),
]


@pytest.mark.parametrize("table,flags,kwargs", SAME_BYTES)
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("to", ["parquet", "csv", "jsonl"])
def test_to_parquet_writes_the_bytes_of_kifu_export(kifu_bin, tmp_path, pgn_text, table, flags, kwargs, threads, to):
    src = tmp_path / "many.pgn"
    # enough games for several pieces and batches
    src.write_text(pgn_text * 400)
    cli = tmp_path / f"cli.{to}"
    py = tmp_path / f"py.{to}"
    subprocess.run(
        [kifu_bin, "export", "-q", f"-j{threads}", "--piece-size", "16K", str(src), "-o", str(cli), "--table", table, *flags],
        check=True,
    )
    kifu.to_parquet(src, py, table, to=to, threads=3 - threads, **kwargs)
    assert cli.stat().st_size > 0
    assert cli.read_bytes() == py.read_bytes()


def test_to_parquet_writes_the_bytes_of_kifu_export_sgf(kifu_bin, tmp_path, sgf_file):
    for table in ["trees", "moves", "positions"]:
        cli = tmp_path / f"cli-{table}.parquet"
        py = tmp_path / f"py-{table}.parquet"
        subprocess.run([kifu_bin, "export", "-q", str(sgf_file), "-o", str(cli), "--table", table], check=True)
        kifu.to_parquet(sgf_file, py, table, format="sgf")
        assert cli.read_bytes() == py.read_bytes(), table


def test_to_parquet_writes_the_bytes_of_kifu_export_on_the_corpus(kifu_bin, tmp_path):
    d = corpus("pgn", "large", "tcec")
    cli = tmp_path / "cli.parquet"
    py = tmp_path / "py.parquet"
    subprocess.run([kifu_bin, "export", "-q", "-j2", str(d), "-o", str(cli), "--replay"], check=True)
    kifu.to_parquet(d, py, replay=True, threads=1)
    assert cli.read_bytes() == py.read_bytes()


def test_columns_keep_the_values_of_the_whole_table(pgn_file):
    whole = kifu.to_arrow(pgn_file).read_all()
    some = kifu.to_arrow(pgn_file, columns=["plies", "White"]).read_all()
    assert some.column_names == ["White", "plies"]
    assert some.equals(whole.select(["White", "plies"]))
    assert kifu.schema("games", columns=["movetext"]).names == ["movetext"]
    with pytest.raises(ValueError, match="no column `Whyte`"):
        kifu.to_arrow(pgn_file, columns=["Whyte"])


def test_to_parquet_partitions_as_kifu_export(kifu_bin, tmp_path, pgn_text):
    src = tmp_path / "g.pgn"
    src.write_text(pgn_text * 20)
    kifu.to_parquet(src, tmp_path / "py", partition_by=["Result"])
    subprocess.run([kifu_bin, "export", "-q", str(src), "-o", str(tmp_path / "cli"), "--partition-by", "Result"], check=True)
    mine = sorted(p.relative_to(tmp_path / "py") for p in (tmp_path / "py").rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(tmp_path / "cli") for p in (tmp_path / "cli").rglob("*") if p.is_file())
    assert mine == theirs and len(mine) >= 3
    for rel in mine:
        assert (tmp_path / "py" / rel).read_bytes() == (tmp_path / "cli" / rel).read_bytes()
    import pyarrow.dataset as pds
    t = pds.dataset(tmp_path / "py", partitioning="hive").to_table()
    assert t.num_rows == 40


# The table and the file format as `kifu export` picks them: the table of the input's format
# (PGN games, SGF trees) and the format the output's extension names.


def test_games_of_sgf_input_is_the_trees_table(sgf_file, pgn_file, recwarn):
    # `to_arrow("go/")`: SGF input without table= or format= gives its trees, not an empty
    # games table with a warning
    t = kifu.to_arrow(sgf_file).read_all()
    assert t.num_rows == 2 and t.schema == kifu.schema("trees")
    assert t.column("PB").to_pylist()[0] == "Honinbo Shusaku"
    assert kifu.to_arrow(SGF.encode()).read_all().schema == kifu.schema("trees")
    with open(sgf_file, "rb") as f:
        assert kifu.to_arrow(f).read_all().num_rows == 2
    # moves of either format
    assert kifu.to_arrow(sgf_file, "moves").read_all().schema == kifu.schema("moves", format="sgf")
    assert kifu.to_arrow(pgn_file, "moves").read_all().schema == kifu.schema("moves")
    assert not [w for w in recwarn.list if issubclass(w.category, UserWarning)]
    # PGN games, still; and an empty source gives the empty PGN games table
    assert kifu.to_arrow(pgn_file).read_all().schema == kifu.schema("games")
    assert kifu.to_arrow(b"").read_all().schema == kifu.schema("games")
    assert kifu.to_arrow(b"", format="sgf").read_all().schema == kifu.schema("trees")
    # a source of both formats: the first input's table, the other's inputs named
    with pytest.warns(UserWarning, match="cannot join the games table"):
        t = kifu.to_arrow([pgn_file, sgf_file]).read_all()
    assert t.num_rows == 2 and t.schema == kifu.schema("games")
    with pytest.warns(UserWarning, match="cannot join the trees table"):
        t = kifu.to_arrow([sgf_file, pgn_file], columns=["file", "game_index"]).read_all()
    assert t.column_names == ["file", "game_index"] and t.num_rows == 2
    # columns only one format's table has name that table (the other would have none)
    t = kifu.to_arrow([sgf_file, pgn_file], columns=["file", "PB"]).read_all()
    assert t.column_names == ["file", "PB"] and t.num_rows == 2
    with pytest.warns(UserWarning, match="its name says SGF"):
        t = kifu.to_arrow(sgf_file, columns=["White", "Black"]).read_all()
    assert t.column_names == ["White", "Black"] and t.num_rows == 0


def test_to_parquet_of_sgf_input_equals_kifu_export(sgf_file, kifu_bin, tmp_path):
    if subprocess.run([kifu_bin, "export", "--help"], capture_output=True).returncode != 0:
        pytest.skip("this kifu binary has no export command yet")
    cli = tmp_path / "cli.parquet"
    subprocess.run([kifu_bin, "export", str(sgf_file), "-o", str(cli)], check=True, capture_output=True)
    mine = tmp_path / "mine.parquet"
    assert kifu.to_parquet(sgf_file, mine)["rows"] == 2
    assert pq.read_table(mine).schema == kifu.schema("trees")
    assert mine.read_bytes() == cli.read_bytes()


def test_to_parquet_format_from_the_extension(pgn_file, tmp_path):
    import json

    # `to_parquet("g.csv")` writes CSV, as `kifu export -o g.csv` does: never Parquet under a
    # .csv name
    csv = tmp_path / "g.csv"
    assert kifu.to_parquet(pgn_file, csv)["rows"] == 2
    assert csv.read_text().startswith("file,game_index,byte_offset,Event")
    for name in ("g.jsonl", "g.ndjson", "G.JSON"):
        out = tmp_path / name
        kifu.to_parquet(pgn_file, out)
        lines = out.read_text().splitlines()
        assert len(lines) == 2 and json.loads(lines[0])["White"] == "Morphy, Paul", name
    for name in ("g.parquet", "g.pq", "g"):
        out = tmp_path / name
        kifu.to_parquet(pgn_file, out)
        assert out.read_bytes()[:4] == b"PAR1" and pq.read_table(out).num_rows == 2, name
    # a name that says another format is refused, and nothing is written
    for name in ("g.txt", "g.xlsx", "g.arrow"):
        with pytest.raises(ValueError, match=r"names no format .*to="):
            kifu.to_parquet(pgn_file, tmp_path / name)
        assert not (tmp_path / name).exists()
    # to= says it outright; a dataset directory is Parquet whatever its name
    kifu.to_parquet(pgn_file, tmp_path / "g.txt", to="csv")
    assert (tmp_path / "g.txt").read_text().startswith("file,")
    ds = kifu.to_parquet(pgn_file, tmp_path / "ds.v2", dataset=True)
    assert ds["files"][0].endswith(".parquet")
    with pytest.raises(ValueError, match="to must be"):
        kifu.to_parquet(pgn_file, tmp_path / "x.parquet", to="xlsx")
    # to= and a name whose extension says another format: refused, naming both
    for name, to in (("x.parquet", "csv"), ("x.csv", "parquet"), ("x.jsonl", "csv")):
        with pytest.raises(ValueError, match="extension says"):
            kifu.to_parquet(pgn_file, tmp_path / name, to=to)
        assert not (tmp_path / name).exists()
    # a compressed file's name: kifu writes none (plain CSV went under `x.csv.gz`)
    for name, to in (("x.csv.gz", "csv"), ("x.parquet.zst", None)):
        with pytest.raises(ValueError, match="writes no"):
            kifu.to_parquet(pgn_file, tmp_path / name, to=to)
        assert not (tmp_path / name).exists()
