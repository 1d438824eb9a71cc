"""read_pgn and read_sgf in the DuckDB Python package: the rows of `kifu stats`, the columns of
`kifu export` read back with read_parquet, compressed and bundled inputs, the same rows at every
thread count, and the errors of missing and damaged inputs."""

import bz2
import json
import gzip
import lzma
import shutil
import subprocess
import tarfile
import zipfile

import pytest

from conftest import OPERA, SGF, SLOPPY

# a total order of each table's rows, to compare tables read in parallel
ORDER = {
    ("pgn", "games"): "file, game_index",
    ("pgn", "moves"): "file, game_index, ALL",
    ("pgn", "positions"): "file, game_index, ply",
    ("sgf", "trees"): "file, game_index",
    ("sgf", "moves"): "file, game_index, ALL",
    ("sgf", "positions"): "file, game_index, ALL",
}


def reader(fmt):
    return "read_pgn" if fmt == "pgn" else "read_sgf"


def sql_list(paths):
    return "[" + ", ".join(f"'{p}'" for p in paths) + "]"


def rows(con, query):
    return con.execute(query).fetchall()


def same_table(con, ours, theirs, order):
    """Asserts that two queries give the same columns (names and DuckDB types) and rows."""
    a = con.execute(f"DESCRIBE SELECT * FROM {ours}").fetchall()
    b = con.execute(f"DESCRIBE SELECT * FROM {theirs}").fetchall()
    assert [(r[0], r[1]) for r in a] == [(r[0], r[1]) for r in b]
    order = order.replace("ALL", ", ".join(f'"{r[0]}"' for r in a if not r[1].startswith("MAP")))
    x = con.sql(f"SELECT * FROM {ours} ORDER BY {order}").to_arrow_table()
    y = con.sql(f"SELECT * FROM {theirs} ORDER BY {order}").to_arrow_table()
    assert x.num_rows == y.num_rows
    for name in x.column_names:
        assert x[name].equals(y[name]), f"column {name} differs"


def test_loads_and_reads_both_formats(con, sample):
    assert rows(con, f"SELECT count(*) FROM read_pgn('{sample}/games.pgn')") == [(2,)]
    assert rows(con, f"SELECT count(*) FROM read_sgf('{sample}/go.sgf')") == [(2,)]
    got = rows(
        con,
        f"SELECT White, WhiteElo, error_count > 0 FROM read_pgn('{sample}/games.pgn') ORDER BY game_index",
    )
    assert got == [("Morphy, Paul", 2690, False), ("?", 1500, True)]
    # a directory holds both: each function reads its own format
    assert rows(con, f"SELECT count(*) FROM read_pgn('{sample}')") == [(2,)]
    assert rows(con, f"SELECT count(*) FROM read_sgf('{sample}', rows := 'moves')") == [(7,)]


def test_the_input_names_its_rows(con, sample):
    a = sample / "a.pgn"
    b = sample / "b.pgn"
    a.write_text(OPERA)
    b.write_text(SLOPPY + OPERA)
    got = rows(
        con,
        f"SELECT file, count(*) FROM read_pgn({sql_list([a, b])}) GROUP BY file ORDER BY file",
    )
    assert got == [(str(a), 1), (str(b), 2)]
    # a glob, in order
    got = rows(con, f"SELECT DISTINCT file FROM read_pgn('{sample}/?.pgn') ORDER BY file")
    assert got == [(str(a),), (str(b),)]


def test_projection_any_order(con, sample):
    p = sample / "games.pgn"
    got = rows(con, f"SELECT plies, Black, White FROM read_pgn('{p}') ORDER BY game_index")
    # the columns of the whole row, as the whole row has them
    full = con.sql(f"SELECT * FROM read_pgn('{p}') ORDER BY game_index").to_arrow_table()
    assert got == list(zip(*(full[c].to_pylist() for c in ["plies", "Black", "White"])))
    assert got[0] == (33, "Duke Karl / Count Isouard", "Morphy, Paul")
    # tags alone (the parser skips the movetext) and with the movetext, the same values
    tags = rows(con, f"SELECT game_index, byte_offset, Event, WhiteElo FROM read_pgn('{p}') ORDER BY 1")
    with_moves = rows(
        con, f"SELECT game_index, byte_offset, Event, WhiteElo, moves FROM read_pgn('{p}') ORDER BY 1"
    )
    assert tags == [r[:4] for r in with_moves]
    assert rows(con, f"SELECT count(*) FROM read_pgn('{p}') WHERE WhiteElo > 2000") == [(1,)]
    events = rows(con, f"SELECT Event FROM read_pgn('{p}') ORDER BY game_index")
    assert events == [("Paris",), ("A sloppy record",)]
    # count(*) builds no column of the moves table, and counts its rows
    assert rows(con, f"SELECT count(*) FROM read_pgn('{p}', rows := 'moves')") == [(39,)]


def test_counts_equal_kifu_stats(con, kifu, sample, corpus):
    for fmt, path in [
        ("pgn", sample / "games.pgn"),
        ("pgn", corpus / "pgn" / "small"),
        ("sgf", corpus / "sgf" / "small"),
        ("pgn", corpus / "pgn" / "large" / "tcec"),
    ]:
        games = kifu.stats(path)["games"]
        got = rows(con, f"SELECT count(*) FROM {reader(fmt)}('{path}', ignore_errors := true) WHERE input_error IS NULL")
        assert got == [(games,)], path


@pytest.mark.parametrize(
    "fmt,table",
    [
        ("pgn", "games"),
        ("pgn", "moves"),
        ("pgn", "positions"),
        ("sgf", "trees"),
        ("sgf", "moves"),
        ("sgf", "positions"),
    ],
)
def test_columns_equal_kifu_export(con, kifu, sample, tmp_path, fmt, table):
    src = sample / ("games.pgn" if fmt == "pgn" else "go.sgf")
    out = kifu.export(tmp_path / "out.parquet", src, table=table)
    same_table(
        con,
        f"{reader(fmt)}('{src}', rows := '{table}')",
        f"read_parquet('{out}')",
        ORDER[(fmt, table)],
    )


@pytest.mark.parametrize(
    "fmt,table,path",
    [
        ("pgn", "games", "pgn/small"),
        ("pgn", "moves", "pgn/large/tcec/TCEC_Cup_9_Bronze.pgn"),
        ("sgf", "trees", "sgf/small"),
        ("sgf", "positions", "sgf/small/gnugo/regression/golois"),
    ],
)
def test_corpus_columns_equal_kifu_export(con, kifu, corpus, tmp_path, fmt, table, path):
    src = corpus / path
    out = kifu.export(tmp_path / "out.parquet", src, table=table)
    same_table(
        con,
        f"{reader(fmt)}('{src}', rows := '{table}')",
        f"read_parquet('{out}')",
        ORDER[(fmt, table)],
    )


def test_replay_columns_equal_kifu_export(con, kifu, sample, tmp_path):
    src = sample / "games.pgn"
    for table in ["games", "moves"]:
        out = kifu.export(tmp_path / f"{table}.parquet", src, table=table, extra=["--replay"])
        same_table(
            con,
            f"read_pgn('{src}', rows := '{table}', replay := true)",
            f"read_parquet('{out}')",
            ORDER[("pgn", table)],
        )
    got = rows(con, f"SELECT final_fen IS NOT NULL FROM read_pgn('{src}', replay := true) ORDER BY game_index")
    assert got == [(True,), (True,)]
    # variations: a row per move of every variation, as --variations
    out = kifu.export(tmp_path / "var.parquet", src, table="moves", extra=["--variations", "--replay"])
    same_table(
        con,
        f"read_pgn('{src}', rows := 'moves', variations := true, replay := true)",
        f"read_parquet('{out}')",
        ORDER[("pgn", "moves")],
    )
    assert rows(con, f"SELECT count(*) FROM read_pgn('{src}', rows := 'moves', variations := true)") == [(43,)]


def compressed(dir, name, data):
    """The file `name` (plain, .gz, .bz2, .xz, .zst) holding `data`."""
    path = dir / name
    raw = data.encode()
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(raw))
    elif name.endswith(".bz2"):
        path.write_bytes(bz2.compress(raw))
    elif name.endswith(".xz"):
        path.write_bytes(lzma.compress(raw))
    elif name.endswith(".zst"):
        if not shutil.which("zstd"):
            pytest.skip("no zstd command to make a .zst file")
        path.write_bytes(subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout)
    else:
        path.write_bytes(raw)
    return path


@pytest.mark.parametrize("ext", ["", ".gz", ".bz2", ".xz", ".zst"])
def test_compressed_inputs(con, kifu, tmp_path, ext):
    path = compressed(tmp_path, "games.pgn" + ext, (OPERA + SLOPPY) * 3)
    out = kifu.export(tmp_path / "out.parquet", path)
    same_table(con, f"read_pgn('{path}')", f"read_parquet('{out}')", ORDER[("pgn", "games")])
    assert rows(con, f"SELECT count(*) FROM read_pgn('{path}')") == [(6,)]


def bundle(path, folder, members):
    """An archive (tar.bz2, tar.gz, zip) of `members` of `folder`."""
    kind = path.name.split(".", 1)[1]
    if kind == "zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for m in members:
                z.write(folder / m, m)
    else:
        with tarfile.open(path, "w:" + kind.split(".")[1]) as t:
            for m in members:
                t.add(folder / m, m)
    return path


@pytest.mark.parametrize("kind", ["tar.bz2", "tar.gz", "zip"])
def test_archives(con, kifu, sample, tmp_path, kind):
    (sample / "more.pgn").write_text(OPERA)
    (sample / "more.sgf").write_text(SGF)
    chess = bundle(tmp_path / f"chess.{kind}", sample, ["games.pgn", "more.pgn"])
    go = bundle(tmp_path / f"go.{kind}", sample, ["go.sgf", "more.sgf"])
    for fmt, table, arc in [("pgn", "games", chess), ("pgn", "moves", chess), ("sgf", "trees", go), ("sgf", "positions", go)]:
        out = kifu.export(tmp_path / "out.parquet", arc, table=table)
        same_table(con, f"{reader(fmt)}('{arc}', rows := '{table}')", f"read_parquet('{out}')", ORDER[(fmt, table)])
    names = rows(con, f"SELECT DISTINCT file FROM read_pgn('{chess}') ORDER BY file")
    assert names == [(f"{chess}:games.pgn",), (f"{chess}:more.pgn",)]
    # an archive of both formats: each function reads its own
    both = bundle(tmp_path / f"both.{kind}", sample, ["games.pgn", "go.sgf", "more.pgn"])
    assert rows(con, f"SELECT count(*) FROM read_pgn('{both}')") == [(3,)]
    assert rows(con, f"SELECT count(*) FROM read_sgf('{both}')") == [(2,)]


def test_same_rows_at_every_thread_count(con, kifu, tmp_path):
    # about 8 MB: pieces of 1 MiB, cut where games start, read on several threads
    big = tmp_path / "big.pgn"
    big.write_text((OPERA + SLOPPY) * 5000)
    gz = compressed(tmp_path, "big.pgn.gz", (OPERA + SLOPPY) * 2000)
    for src in [big, gz]:
        results = []
        for duck_threads, kifu_threads in [(1, 1), (1, 2), (4, 4), (2, 3)]:
            con.execute(f"SET threads = {duck_threads}")
            q = (
                f"SELECT game_index, byte_offset, White, plies, moves, errors FROM "
                f"read_pgn('{src}', threads := {kifu_threads}) ORDER BY game_index"
            )
            results.append(con.sql(q).to_arrow_table())
        for r in results[1:]:
            assert r.equals(results[0])
        assert results[0].num_rows == kifu.stats(src)["games"]
        # and the game numbers are the input's, one after the other
        idx = results[0]["game_index"].to_pylist()
        assert idx == list(range(len(idx)))


def test_limit_stops_the_scan(con, tmp_path):
    big = tmp_path / "big.pgn"
    big.write_text((OPERA + SLOPPY) * 5000)
    assert len(rows(con, f"SELECT White FROM read_pgn('{big}') LIMIT 3")) == 3
    # the connection goes on
    assert rows(con, f"SELECT count(*) FROM read_pgn('{big}')") == [(10000,)]


def test_missing_input_raises_naming_it(con, duckdb, sample):
    with pytest.raises(duckdb.Error, match="missing.pgn"):
        con.execute(f"SELECT count(*) FROM read_pgn('{sample}/missing.pgn')").fetchall()
    with pytest.raises(duckdb.Error, match=r"no file matches the pattern"):
        con.execute(f"SELECT count(*) FROM read_pgn('{sample}/*.zst')").fetchall()
    with pytest.raises(duckdb.Error, match="missing.pgn"):
        con.execute(f"SELECT * FROM read_pgn(['{sample}/games.pgn', '{sample}/missing.pgn'])").fetchall()


def damaged(tmp_path):
    """A tar.bz2 of two PGN files, cut short in its second member."""
    good = tmp_path / "src"
    good.mkdir()
    (good / "a.pgn").write_text(OPERA * 50)
    (good / "b.pgn").write_text((OPERA + SLOPPY) * 2000)
    arc = tmp_path / "damaged.tar.bz2"
    with tarfile.open(arc, "w:bz2") as t:
        t.add(good / "a.pgn", "a.pgn")
        t.add(good / "b.pgn", "b.pgn")
    data = arc.read_bytes()
    arc.write_bytes(data[: len(data) * 2 // 3])
    return arc


def test_damaged_archive(con, duckdb, kifu, tmp_path):
    arc = damaged(tmp_path)
    with pytest.raises(duckdb.Error, match="damaged.tar.bz2"):
        con.execute(f"SELECT count(*) FROM read_pgn('{arc}')").fetchall()
    # ignore_errors: the games read, and a row naming the input with its error
    got = rows(
        con,
        f"SELECT file, input_error, count(*) FROM read_pgn('{arc}', ignore_errors := true) "
        "GROUP BY ALL ORDER BY ALL",
    )
    failed = [r for r in got if r[1] is not None]
    assert len(failed) == 1 and failed[0][2] == 1 and failed[0][0].startswith(str(arc)), got
    # the games read before the damage, as kifu reads them
    stats = json.loads(kifu.run("stats", "--json", "-q", arc, check=False).stdout)
    assert sum(r[2] for r in got if r[1] is None) == stats["games"]


def test_bad_arguments(con, duckdb, sample):
    p = sample / "games.pgn"
    with pytest.raises(duckdb.Error, match="rows must be 'games', 'moves' or 'positions'"):
        con.execute(f"SELECT * FROM read_pgn('{p}', rows := 'trees')")
    with pytest.raises(duckdb.Error, match="disagree"):
        con.execute(f"SELECT * FROM read_pgn('{p}', rows := 'moves', \"table\" := 'games')")
    with pytest.raises(duckdb.Error, match="threads must be"):
        con.execute(f"SELECT * FROM read_pgn('{p}', threads := 0)")
    with pytest.raises(duckdb.Error):
        con.execute(f"SELECT * FROM read_sgf('{p}', replay := true)")
    # options that change nothing in the positions rows, and a range of no ply: refused
    for refused in ["replay := true", "variations := true", "min_ply := 5, max_ply := 2"]:
        with pytest.raises(duckdb.Error, match="changes nothing|is past"):
            con.execute(f"SELECT * FROM read_pgn('{p}', rows := 'positions', {refused})")
    with pytest.raises(duckdb.Error, match="source"):
        con.execute("SELECT * FROM read_pgn(42)")
    # the connection goes on
    assert rows(con, f"SELECT count(*) FROM read_pgn('{p}')") == [(2,)]


def test_sgf_columns(con, sample):
    got = rows(con, f"SELECT PB, KM, board_cols FROM read_sgf('{sample}/go.sgf') ORDER BY game_index")
    assert got == [("Honinbo Shusaku", 6.5, 9), (None, None, 3)]


def test_the_footer(extension, tmp_path, duckdb):
    """The metadata DuckDB reads from the file's last 512 bytes: eight 32-byte fields stored last
    to first, then the (empty) signature; a footer naming another C API version is refused."""
    data = extension.read_bytes()
    footer = data[-512:]
    fields = [footer[i * 32 : (i + 1) * 32].rstrip(b"\0").decode() for i in range(8)][::-1]
    assert fields[0] == "4"
    assert fields[1].split("_")[0] in ("linux", "osx", "windows")
    assert fields[2] == "v1.2.0"
    assert fields[3].startswith("v")
    assert fields[4] == "C_STRUCT"
    assert fields[5:] == ["", "", ""]
    assert footer[256:] == b"\0" * 256
    # the same library with a footer naming C API v9.9.9: DuckDB says no, naming the version
    other = tmp_path / "kifu.duckdb_extension"
    other.write_bytes(data[:-512] + footer[:-256].replace(b"v1.2.0", b"v9.9.9") + footer[-256:])
    c = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    with pytest.raises(duckdb.Error, match="v9.9.9"):
        c.execute(f"LOAD '{other}'")
    c.close()


def test_the_issues_queries_group_by_openings_speeds_and_ranks(con, kifu, tmp_path):
    # the values analysts group by, straight from a compressed file and an archive
    najdorf = '[TimeControl "180+2"]\n[WhiteElo "2000"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1-0\n\n'
    transposed = '[TimeControl "60"]\n[WhiteElo "1800"]\n\n1. e4 c5 2. Nc3 d6 3. Nf3 Nf6 4. d4 cxd4 5. Nxd4 a6 0-1\n\n'
    src = compressed(tmp_path, "g.pgn.xz", (najdorf + transposed + OPERA) * 50)
    got = rows(con, f"SELECT opening_eco, count(*), avg(WhiteElo) FROM read_pgn('{src}') GROUP BY ALL ORDER BY 1")
    assert got == [("B90", 100, 1900.0), ("C41", 50, 2690.0)]
    # the same counts as kifu stats --by
    out = kifu.run("stats", "--by", "opening_eco", "--json", "-q", src).stdout
    assert [(r["key"], r["games"]) for r in map(json.loads, out.splitlines())] == [("B90", 100), ("C41", 50)]
    speeds = rows(con, f"SELECT speed, count(*) FROM read_pgn('{src}') GROUP BY ALL ORDER BY 1")
    assert speeds == [("blitz", 50), ("bullet", 50), (None, 50)]
    trees = "".join(
        f"(;GM[1]SZ[19]PB[p{i}]BR[{r}]WR[3k]RE[B+R];B[pd];W[dd])" for i, r in enumerate(["7d", "9p", "5d", "2k", "1d*"])
    )
    folder = tmp_path / "kgs"
    folder.mkdir()
    (folder / "games.sgf").write_text(trees)
    archive = tmp_path / "kgs.tar.bz2"
    with tarfile.open(archive, "w:bz2") as t:
        t.add(folder, arcname="kgs")
    assert rows(con, f"SELECT count(*) FROM read_sgf('{archive}') WHERE black_rank >= 7") == [(2,)]
    assert rows(con, f"SELECT black_rank, winner, win_by FROM read_sgf('{archive}') ORDER BY black_rank") == [
        (-2, "black", "resign"), (1, "black", "resign"), (5, "black", "resign"), (7, "black", "resign"),
        (18, "black", "resign")]


def test_the_former_table_parameter_still_reads(con, sample):
    # `table` (a reserved word, quoted) was the name of `rows`: deprecated, still taken
    p = sample / "games.pgn"
    old = rows(con, f"SELECT count(*) FROM read_pgn('{p}', \"table\" := 'moves')")
    assert old == rows(con, f"SELECT count(*) FROM read_pgn('{p}', rows := 'moves')") == [(39,)]


def test_no_column_needs_quotes(con, duckdb, sample):
    """No column of any table, nor a field of its errors, is a reserved word of DuckDB's SQL."""
    reserved = {r[0] for r in rows(con, "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'")}
    assert "offset" in reserved and "on" in reserved
    for fmt, table in ORDER:
        src = sample / ("games.pgn" if fmt == "pgn" else "go.sgf")
        # (replay and variations add columns to games and moves; positions have them)
        extra = ", replay := true, variations := true" if fmt == "pgn" and table != "positions" else ""
        described = rows(con, f"DESCRIBE SELECT * FROM {reader(fmt)}('{src}', rows := '{table}'{extra})")
        for name, type_, *_ in described:
            assert name.lower() not in reserved, (table, name)
            if name == "errors":
                fields = [f.split(" ")[0] for f in type_[len("STRUCT("):].split(", ")]
                assert not reserved & {f.lower() for f in fields}, type_
    # unquoted, as a user types them
    got = rows(con, f"SELECT e.byte_offset, e.line, e.col FROM (SELECT unnest(errors) AS e FROM read_pgn('{sample}/games.pgn'))")
    assert got and all(r[0] > 0 for r in got)
    got = rows(con, f"SELECT opening FROM read_sgf('{sample}/go.sgf')")
    assert len(got) == 2


def test_errors_kind_is_a_word_and_sgf_keeps_its_code(con, tmp_path):
    """Every problem has a `kind` (a word), SGF's also SGFC's `code` right after it."""
    sgf = tmp_path / "bad.sgf"
    sgf.write_text("(;SZ[9];B[zz])")
    pgn = tmp_path / "bad.pgn"
    pgn.write_text("1. e4 oh? e5 *\n")
    got = rows(con, f"SELECT e.kind, e.code, e.severity FROM (SELECT unnest(errors) AS e FROM read_sgf('{sgf}'))")
    assert got == [("illegal_point", "E14", "error")]
    got = rows(con, f"SELECT e.kind, e.severity FROM (SELECT unnest(errors) AS e FROM read_pgn('{pgn}'))")
    assert got == [("unexpected_text", "error")]
    (sgf_type,) = [t for n, t, *_ in rows(con, f"DESCRIBE SELECT errors FROM read_sgf('{sgf}')")]
    assert sgf_type.startswith("STRUCT(kind VARCHAR, code VARCHAR, severity VARCHAR"), sgf_type


def test_one_name_and_type_for_one_thing(con, sample):
    pos = f"read_sgf('{sample}/go.sgf', rows := 'positions')"
    trees = f"read_sgf('{sample}/go.sgf')"
    types = lambda q: {r[0]: r[1] for r in rows(con, f"DESCRIBE SELECT * FROM {q}")}
    p, t = types(pos), types(trees)
    for name in ["board_cols", "board_rows", "black_rank", "white_rank"]:
        assert p[name] == t[name], name
    assert p["black_rank"] == "SMALLINT"
    # a colour is spelt black or white in every table
    pgn = rows(con, f"SELECT DISTINCT color FROM read_pgn('{sample}/games.pgn', rows := 'moves') ORDER BY 1")
    sgf = rows(con, f"SELECT DISTINCT color FROM read_sgf('{sample}/go.sgf', rows := 'moves') ORDER BY 1")
    assert pgn == sgf == [("black",), ("white",)]


def test_filename_as_read_csv_has_it(con, sample, tmp_path):
    a = sample / "games.pgn"
    arc = bundle(tmp_path / "chess.tar.gz", sample, ["games.pgn"])
    got = rows(con, f"SELECT DISTINCT file, filename FROM read_pgn(['{a}', '{arc}'], filename := true) ORDER BY 1")
    assert got == sorted([(str(a), str(a)), (f"{arc}:games.pgn", str(arc))])
    # the last column, as read_csv adds it; alone, without file (which is made of it)
    names = [r[0] for r in rows(con, f"DESCRIBE SELECT * FROM read_pgn('{a}', filename := true)")]
    assert names[-1] == "filename" and "filename" not in names[:-1]
    assert rows(con, f"SELECT DISTINCT filename FROM read_pgn('{arc}', filename := true)") == [(str(arc),)]
    assert rows(con, f"SELECT count(*) FROM read_pgn('{a}', filename := true)") == [(2,)]
    # with ignore_errors: input_error, then filename; a failed input's row has both
    bad = damaged(tmp_path)
    got = rows(
        con,
        f"SELECT DISTINCT filename, input_error IS NULL FROM read_pgn('{bad}', ignore_errors := true, filename := true) ORDER BY 2",
    )
    assert got == [(str(bad), False), (str(bad), True)]


def test_a_file_name_alone_is_read(con, duckdb, sample, tmp_path):
    # FROM 'x.pgn' as FROM 'x.csv': the replacement scan calls read_pgn or read_sgf
    assert rows(con, f"SELECT count(*) FROM '{sample}/games.pgn'") == [(2,)]
    assert rows(con, f"SELECT count(*) FROM '{sample}/go.sgf'") == [(2,)]
    gz = compressed(tmp_path, "more.PGN.gz", OPERA * 3)
    assert rows(con, f"SELECT count(*), any_value(White) FROM '{gz}'") == [(3, "Morphy, Paul")]
    assert rows(con, f"SELECT count(*) FROM '{sample}/*.pgn'") == [(2,)]
    same_table(con, f"'{sample}/games.pgn'", f"read_pgn('{sample}/games.pgn')", ORDER[("pgn", "games")])
    # other names are DuckDB's: a missing CSV is its own error, not ours
    with pytest.raises(duckdb.Error) as e:
        con.execute(f"SELECT * FROM '{tmp_path}/none.csv'")
    assert "read_pgn" not in str(e.value)


GO_GAMES = (
    "(;GM[1]SZ[9]RE[B+R];B[ee];W[cc];B[gc];W[gg];B[cg])\n"
    "(;GM[1]SZ[9]RE[W+2.5];B[ee];W[gg];B[gc];W[cc];B[ce])\n"  # move 4 reaches game 1's position
    "(;GM[1]SZ[9]RE[W+R];B[ee];W[cc];B[cg];W[gg];B[gc])\n"
)


@pytest.mark.parametrize("fmt,flags,named", [
    ("pgn", ["--min-ply", "3", "--max-ply", "20", "--distinct"],
     "min_ply := 3, max_ply := 20, distinct_positions := true"),
    ("sgf", ["--symmetries", "--legal-only", "--min-ply", "1"],
     "symmetries := true, legal_only := true, min_ply := 1"),
])
def test_positions_filters_are_kifu_export_s(con, sample, tmp_path, kifu_bin, fmt, flags, named):
    src = sample / ("games.pgn" if fmt == "pgn" else "go.sgf")
    out = tmp_path / "p.parquet"
    subprocess.run([kifu_bin, "export", "--table", "positions", *flags, "-o", out, src],
                   check=True, capture_output=True)
    ours = f"{reader(fmt)}('{src}', rows := 'positions', {named})"
    theirs = f"read_parquet('{out}')"
    assert rows(con, f"SELECT count(*) FROM {ours}") == rows(con, f"SELECT count(*) FROM {theirs}")
    same_table(con, ours, theirs, ORDER[(fmt, "positions")])
    with pytest.raises(Exception, match="rows := 'positions'"):
        con.execute(f"SELECT * FROM {reader(fmt)}('{src}', min_ply := 2)")


def test_go_position_lookup_by_key(con, tmp_path):
    """docs/duckdb.md § Go positions: a board lookup, as written there."""
    (tmp_path / "kgs").mkdir()
    (tmp_path / "kgs" / "g.sgf").write_text(GO_GAMES)
    src = tmp_path / "kgs"
    # the position after four moves of game 1 (black ee gc, white cc gg), Black to play
    q = f"""
    WITH p AS (SELECT key FROM read_sgf('{src}', rows := 'positions')
               WHERE game_index = 0 AND ply = 4)
    SELECT game_index, ply, policy FROM read_sgf('{src}', rows := 'positions')
    WHERE key = (SELECT key FROM p) ORDER BY game_index"""
    # games 1 and 2 reach it (another order of the same moves); game 3 does not
    assert rows(con, q) == [(0, 4, 6 * 9 + 2), (1, 4, 4 * 9 + 2)]
    # the empty 9x9 board, Black to play: every game's start, one key
    assert rows(con, f"SELECT count(DISTINCT key), count(*) FROM read_sgf('{src}', rows := 'positions') WHERE ply = 0") == [(1, 3)]
    # turned: game 3's position after 4 moves is game 1's mirrored (cg for gc), found with the symmetries
    turned = f"""
    WITH p AS (SELECT key FROM read_sgf('{src}', rows := 'positions') WHERE game_index = 0 AND ply = 4)
    SELECT DISTINCT game_index FROM read_sgf('{src}', rows := 'positions', symmetries := true)
    WHERE key = (SELECT key FROM p) ORDER BY 1"""
    assert rows(con, turned) == [(0,), (1,), (2,)]
    # a point of the board: a black stone on the centre point (ee) after move 1, in every game
    point = f"""SELECT count(*) FROM read_sgf('{src}', rows := 'positions')
    WHERE ply = 1 AND array_slice(board, 4 * board_cols + 4 + 1, 4 * board_cols + 4 + 1) = '\\x01'::BLOB"""
    assert rows(con, point) == [(3,)]


# Five games of the find tests (cli/tests/find.rs): 1. e4 e5 2. Nf3 Nc6 reached by three of
# them on the main line (one by transposition), then 3. Bb5 twice and 3. Bc4 once.
EXPLORER_GAMES = [
    ("2020.01.01", 2000, 1900, "1-0", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0"),
    ("2021.05.05", 2200, 2100, "0-1", "1. Nf3 Nc6 2. e4 e5 3. Bb5 Nf6 0-1"),
    ("2019.03.03", 1800, 1700, "1/2-1/2", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1/2-1/2"),
    ("2022.02.02", 2400, 2300, "1-0", "1. e4 c5 (1... e5 2. Nf3 Nc6 3. d4) 2. Nf3 d6 1-0"),
    ("2018.??.??", 1500, 1500, "*", "1. e4 e5 2. d4 exd4 3. Qxd4 Nc6 4. Qd5 Nf6 5. Qb5 Qe7 *"),
]
OPEN_EPD = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -"


def test_explorer_and_position_index_as_documented(con, kifu, tmp_path):
    """docs/duckdb.md § Positions: the explorer as one GROUP BY over read_pgn's positions, and
    the same from a position index made with one COPY … ORDER BY key, each equal to what
    `kifu explore --json` counts for the position."""
    src = tmp_path / "games.pgn"
    src.write_text("".join(
        f'[Event "e"]\n[Date "{d}"]\n[Result "{r}"]\n[WhiteElo "{we}"]\n[BlackElo "{be}"]\n\n{m}\n\n'
        for d, we, be, r, m in EXPLORER_GAMES))

    def explorer(source, where):
        # the docs' query, its shares kept as fractions
        return rows(con, f"""
            SELECT uci, any_value(san) AS san, count(*) AS games,
                   avg((score = 1)::int) AS won, avg((score = 0)::int) AS drawn,
                   avg((score = -1)::int) AS lost,
                   avg(CASE side_to_move WHEN 'white' THEN WhiteElo ELSE BlackElo END) AS rating,
                   min(game_index) AS a_game
            FROM {source} WHERE {where} GROUP BY uci ORDER BY games DESC, uci""")

    scan = explorer(f"read_pgn('{src}', rows := 'positions')", f"epd = '{OPEN_EPD}'")
    # Bb5 in games 0 (1-0) and 1 (0-1), Bc4 in game 2 (a draw); the variation of game 3 is
    # not the main line, the score of game 4 (`*`) is unknown
    assert scan == [
        ("f1b5", "Bb5", 2, 0.5, 0.0, 0.5, 2100.0, 0),
        ("f1c4", "Bc4", 1, 0.0, 1.0, 0.0, 1800.0, 2),
    ]
    # kifu explore's rows for the same position (White to move: White's share is the mover's)
    fen = OPEN_EPD + " 2 3"
    out = kifu.run("explore", "--json", "-q", "--fen", fen, src).stdout
    theirs = sorted((r["uci"], r["san"], r["games"], r["white_share"], r["draw_share"],
                     r["black_share"], r["mean_elo"]) for r in map(json.loads, out.splitlines()))
    assert sorted(row[:7] for row in scan) == theirs

    # the position index: sorted by key, row groups small enough that a lookup skips most
    index = tmp_path / "index.parquet"
    con.execute(f"""
        COPY (SELECT key, ply, uci, san, score, side_to_move, WhiteElo, BlackElo, file, game_index
              FROM read_pgn('{src}', rows := 'positions') ORDER BY key)
        TO '{index}' (FORMAT parquet, ROW_GROUP_SIZE 8)""")
    keys = rows(con, f"SELECT DISTINCT key FROM read_pgn('{src}', rows := 'positions') "
                     f"WHERE epd = '{OPEN_EPD}'")
    assert len(keys) == 1, "one position, one Polyglot key"
    key = keys[0][0]
    assert explorer(f"'{index}'", f"key = {key}") == scan
    keys_in_order = [k for (k,) in rows(con, f"SELECT key FROM '{index}'")]
    assert keys_in_order == sorted(keys_in_order)
