"""kifu.check and kifu.stats: what `kifu check --json` and `kifu stats --json` say."""

import json
import subprocess

import pytest

import kifu
from conftest import ILLEGAL, corpus


def test_check_fields(pgn_file, sgf_file):
    (d,) = kifu.check(pgn_file)
    assert (d.file, d.kind, d.code, d.game, d.move, d.severity, d.source) == (
        str(pgn_file), "unexpected_text", None, 2, "2b", "error", "parser")
    assert d.line and d.column == 19 and d.offset > 0
    assert kifu.check(sgf_file) == []
    ds = kifu.check(b"(;GM[1]SZ[3]QQ[x];B[zz])")
    assert {(d.kind, d.code) for d in ds} >= {("unknown_property", "W35"), ("illegal_point", "E14")}
    # one vocabulary: the keys and values of `kifu check --json` and `kifu json`
    assert [(k, ds[0].to_dict()[k]) for k in ("kind", "code")] == [("kind", ds[0].kind), ("code", ds[0].code)]
    assert all(d.format == "sgf" and d.node is not None for d in ds)


def cli_check(kifu_bin, *args):
    """The problems `kifu check --json ARGS` lists (its summary line left out)."""
    out = subprocess.run([kifu_bin, "check", "--json", *map(str, args)], capture_output=True).stdout
    return [c for c in map(json.loads, out.decode().splitlines()) if c["type"] != "summary"]


def test_check_equals_the_cli(pgn_file, kifu_bin, tmp_path):
    big = tmp_path / "big.pgn"
    big.write_text(pgn_file.read_text() * 2000)
    problems = cli_check(kifu_bin, "-j1", big)
    for threads in (1, 2):
        mine = kifu.check(big, threads=threads)
        assert len(mine) == len(problems) == 2000
        for m, c in zip(mine, problems):
            # one numbering: the game as `kifu check` counts it, attribute and dict alike
            assert (m.line, m.column, m.offset, m.kind, m.code, m.game, m.move, m.text) == (
                c["line"], c["column"], c["offset"], c["kind"], c.get("code"), c["game"], c["move"], c["text"])
            assert {k: m.to_dict()[k] for k in ("line", "column", "game", "move")} == {
                k: c[k] for k in ("line", "column", "game", "move")}
    assert [m.game for m in mine[:3]] == [2, 4, 6]


def test_check_legal_equals_the_cli(kifu_bin, tmp_path):
    # replayed on a board: the illegal moves of both formats, as `kifu check --legal` finds them
    pgn = tmp_path / "illegal.pgn"
    pgn.write_text("1. e4 e5 *\n\n" + ILLEGAL + "1. e4 e5 2. Qh5 Nc6 3. Qxf8 *\n")
    sgf = tmp_path / "ko.sgf"
    sgf.write_text("(;GM[1]SZ[3];B[aa];W[aa])")
    assert kifu.check(pgn) == [] and kifu.check(sgf) == []
    for source in (pgn, sgf):
        mine = kifu.check(source, legal=True, threads=2)
        cli = cli_check(kifu_bin, "--legal", source)
        assert len(mine) == len(cli) > 0, source
        for m, c in zip(mine, cli):
            assert (m.kind, m.code, m.game, m.source) == (c["kind"], c.get("code"), c["game"], "replay")
            assert m.line == c["line"] and str(m).startswith(str(source))
    illegal = kifu.check(pgn, legal=True)
    assert [(d.kind, d.game, d.move) for d in illegal] == [("illegal_move", 2, "2w"), ("illegal_move", 3, "3w")]


def test_stats_equal_the_cli(kifu_bin):
    for d in (corpus("pgn", "large", "notnil-chess-history"), corpus("sgf", "large", "computer-go-dataset-ai")):
        cli = json.loads(subprocess.run([kifu_bin, "stats", "--json", str(d)], capture_output=True, check=True).stdout)
        mine = kifu.stats(d, threads=2)
        for k in cli:
            if k not in ("seconds", "mb_per_s"):
                assert mine[k] == cli[k], (d, k)


def test_stats_sources(pgn_file, pgn_text):
    s = kifu.stats(pgn_file)
    assert (s["games"], s["errors"], s["bytes"]) == (2, 1, len(pgn_text.encode()))
    assert kifu.stats(pgn_text.encode())["games"] == 2
    with open(pgn_file, "rb") as f:
        assert kifu.stats(f)["mainline_moves"] == s["mainline_moves"]
    with pytest.raises(ValueError):
        kifu.stats(pgn_file, format="txt")


def test_stats_by_equals_the_cli(kifu_bin, tmp_path):
    games = "".join(
        f'[White "p{i % 13}"]\n[UTCDate "20{10 + i % 4}.0{1 + i % 9}.01"]\n[Result "{("1-0", "0-1", "1/2-1/2", "*")[i % 4]}"]\n\n1. e4 e5 *\n\n'
        for i in range(500)
    )
    f = tmp_path / "g.pgn"
    f.write_text(games)
    for by, extra in (("White", []), ("month", ["--max-groups", "5"]), ("year", ["--sort", "games"])):
        out = subprocess.run([kifu_bin, "stats", "--by", by, "--json", *extra, str(f)], capture_output=True, check=True).stdout
        cli = [json.loads(line) for line in out.decode().splitlines()]
        kw = {"max_groups": 5} if "--max-groups" in extra else {}
        if "--sort" in extra:
            kw["sort"] = "games"
        for threads in (1, 2):
            if "max_groups" in kw:
                with pytest.warns(UserWarning, match="more than 5 distinct values"):
                    mine = kifu.stats_by(f, by, threads=threads, **kw)
            else:
                mine = kifu.stats_by(f, by, threads=threads, **kw)
            assert mine == cli, (by, threads)
    assert sum(r["games"] for r in cli) == 500
    with pytest.raises(ValueError):
        kifu.stats_by(f, "White Elo")
    with pytest.raises(ValueError):
        kifu.stats_by(f, "White", sort="size")


def test_check_lists_100_problems_of_a_game_and_counts_the_rest():
    # a game of a few KB that raises 3,000 problems: the first 100 listed, one more_problems
    pgn = b"1. e4 " + b") " * 3000 + b"*\n\n1. d4 *\n"
    found = kifu.check(pgn, format="pgn")
    assert len(found) == 101
    more = found[100]
    assert (more.kind, more.game, more.severity) == ("more_problems", 1, "error")
    assert more.message.startswith("2900 more problems")
    assert more.line is None
    # the game as a value keeps the same 100 and counts the rest
    game = next(iter(kifu.read_pgn(pgn)))
    assert (len(game.errors), game.errors_dropped) == (100, 2900)


def test_a_key_close_to_a_known_tag_warns_as_the_cli(pgn_file):
    # read as a tag of that name (PGN allows any tag), with a warning naming the close ones
    with pytest.warns(UserWarning, match="did you mean one of `WhiteElo`, `White`"):
        rows = kifu.stats_by(pgn_file, "WhitElo")
    assert [r["games"] for r in rows] == [2]
    with pytest.warns(UserWarning, match="`WhitElo` is no tag or property kifu knows"):
        assert kifu.to_arrow(pgn_file, where=["WhitElo>=2000"]).read_all().num_rows == 0
    # a tag kifu does not know and close to none: no warning
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kifu.to_arrow(pgn_file, where=["LichessId=x"]).read_all().num_rows == 0
