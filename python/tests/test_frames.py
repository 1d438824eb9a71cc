"""kifu.to_pandas, kifu.to_polars and kifu.scan_polars: the tables as data frames of Arrow
types (skipped where pandas or Polars is not installed)."""

import sys

import pytest

import kifu


def test_to_pandas_keeps_arrow_types(pgn_file, sgf_file):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    df = kifu.to_pandas(pgn_file)
    assert isinstance(df, pd.DataFrame) and len(df) == 2
    # WhiteElo stays an integer (with a null for the game without one), not float64 with NaN
    assert isinstance(df["WhiteElo"].dtype, pd.ArrowDtype)
    assert str(df["WhiteElo"].dtype) == "int16[pyarrow]"
    assert df["WhiteElo"].iloc[0] == 2690 and df["WhiteElo"].isna().iloc[1]
    assert str(df["Date"].dtype).startswith("date32") and df["White"].iloc[0] == "Morphy, Paul"
    # the table of the input's format, and the options of to_arrow
    trees = kifu.to_pandas(sgf_file)
    assert list(trees["PB"])[0] == "Honinbo Shusaku"
    moves = kifu.to_pandas(pgn_file, "moves", columns=["game_index", "san"])
    assert list(moves.columns) == ["game_index", "san"] and len(moves) == 39
    # the key tests of kifu export -w, as to_arrow takes them
    assert len(kifu.to_pandas(pgn_file, where=["WhiteElo>=2000"])) == 1


def test_to_polars_keeps_arrow_types(pgn_file, sgf_file):
    pl = pytest.importorskip("polars")
    df = kifu.to_polars(pgn_file)
    assert isinstance(df, pl.DataFrame) and df.height == 2
    assert df.schema["WhiteElo"] == pl.Int16 and df["WhiteElo"].to_list() == [2690, None]
    assert df.schema["Date"] == pl.Date
    assert kifu.to_polars(sgf_file, "positions").height == 7
    assert kifu.to_polars(pgn_file, columns=["White"]).columns == ["White"]
    assert kifu.to_polars(pgn_file, where=["year<=1858"])["White"].to_list() == ["Morphy, Paul"]


def test_to_polars_raises_kifus_exception(tmp_path, pgn_text):
    pytest.importorskip("polars")
    import gzip

    (tmp_path / "cut.pgn.gz").write_bytes(gzip.compress((pgn_text * 300).encode())[:-100])
    with pytest.raises(kifu.InputError, match="cut.pgn.gz"):
        kifu.to_polars(tmp_path / "cut.pgn.gz")


def test_scan_polars_is_lazy_and_pushes_down(pgn_file, pgn_text, sgf_file):
    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    pytest.importorskip("polars.io.plugins")
    lf = kifu.scan_polars(pgn_file)
    assert isinstance(lf, pl.LazyFrame)
    assert lf.collect_schema()["WhiteElo"] == pl.Int16
    assert lf.collect().equals(kifu.to_polars(pgn_file))
    # only the columns asked for are built; the filter runs on the batches
    got = lf.filter(pl.col("WhiteElo") > 2000).select("White", "plies").collect()
    assert got.to_dicts() == [{"White": "Morphy, Paul", "plies": 33}]
    assert lf.select(pl.len()).collect().item() == 2
    # head(n) stops the scan after n rows
    big = (pgn_text * 5000).encode()
    assert kifu.scan_polars(big).head(3).collect().height == 3
    assert kifu.scan_polars(big).select(pl.col("White").n_unique()).collect().item() == 2
    # SGF input: the trees table, as to_arrow gives it; each collect reads the source again
    trees = kifu.scan_polars(sgf_file)
    assert trees.collect_schema()["PB"] == pl.String
    assert trees.collect().height == trees.collect().height == 2
    sides = kifu.scan_polars(sgf_file, "positions").group_by("side_to_move").len().collect()
    assert dict(sides.iter_rows()) == {"black": 4, "white": 3}
    with open(pgn_file, "rb") as f, pytest.raises(TypeError, match="file object"):
        kifu.scan_polars(f)


def test_missing_engine_says_what_to_install(pgn_file, monkeypatch):
    for module, call in (("pandas", kifu.to_pandas), ("polars", kifu.to_polars), ("polars", kifu.scan_polars)):
        monkeypatch.setitem(sys.modules, module, None)  # `import MODULE` raises ImportError
        with pytest.raises(ImportError, match=rf"kifu\.{call.__name__} needs {module}.*pip install {module}"):
            call(pgn_file)
        monkeypatch.undo()


def test_scan_polars_builds_only_the_columns_a_query_uses(pgn_file, monkeypatch):
    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    pytest.importorskip("polars.io.plugins")
    asked = []
    to_arrow = kifu.to_arrow

    def spy(*args, **kwargs):
        asked.append(kwargs.get("columns"))
        return to_arrow(*args, **kwargs)

    monkeypatch.setattr(kifu, "to_arrow", spy)
    lazy = kifu.scan_polars(pgn_file, format="pgn")
    got = lazy.filter(pl.col("WhiteElo") >= 2500).group_by("ECO").agg(pl.len()).collect()
    assert got.height == 1
    # the query's columns only: no movetext, no move lists built
    assert asked == [["WhiteElo", "ECO"]] or asked == [["ECO", "WhiteElo"]]
