"""kifu.find and kifu.explore: the answers of `kifu find --to jsonl` and `kifu explore --json`
on the same input, the query errors as ValueError, where= and variations=."""

import json
import subprocess

import pytest

import kifu

GAMES = """[Event "a"]
[Result "1-0"]
[WhiteElo "2000"]
[Date "2020.01.01"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "b"]
[Result "0-1"]
[WhiteElo "2200"]
[Date "2021.05.05"]

1. Nf3 Nc6 2. e4 e5 3. Bb5 Nf6 0-1

[Event "c"]
[Result "1/2-1/2"]
[WhiteElo "1800"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 (3. d4 exd4) Bc5 1/2-1/2

"""

OPEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -"


@pytest.fixture
def games(tmp_path):
    p = tmp_path / "three.pgn"
    p.write_text(GAMES)
    return p


def test_find_gives_the_games_and_plies_of_the_cli(games, kifu_bin):
    found = list(kifu.find(games, fen=OPEN))
    assert [f.plies for f in found] == [[4], [4], [4]]
    assert [f.game.index for f in found] == [0, 1, 2]
    assert found[1].game.tags["Event"] == "b"
    out = subprocess.run([kifu_bin, "find", "--to", "jsonl", "--fen", OPEN, games],
                         capture_output=True, check=True).stdout.decode()
    assert [json.loads(l)["matched_plies"] for l in out.splitlines()] == [f.plies for f in found]
    seq = list(kifu.find(games, fen=OPEN, then=["subfen:8/8/8/1B6/8/8/8/8"], within=1))
    assert [f.game.index for f in seq] == [0, 1]
    assert [f.plies for f in kifu.find(games, material="[BN]=4 [bn]=4", min_ply=6, max_ply=6)] == [[6], [6], [6]]
    assert [f.game.index for f in kifu.find(games, fen=OPEN, where=["WhiteElo>=2100"])] == [1]
    # a knight on c6 with e5 empty (`_`), White to move: game b after 1. Nf3 Nc6 only
    assert [(f.game.index, f.plies) for f in kifu.find(games, subfen="8/8/2n5/4_3/8/8/8/8 w")] == [(1, [2])]


def test_one_string_or_a_list_and_a_bound_per_step(games):
    # then= and where= take one string as a list of one
    b5 = "subfen:8/8/8/1B6/8/8/8/8"
    f6 = "subfen:8/8/5n2/8/8/8/8/8"
    assert [f.game.index for f in kifu.find(games, fen=OPEN, then=b5, within=1)] == [0, 1]
    assert [f.game.index for f in kifu.find(games, fen=OPEN, where="WhiteElo>=2100")] == [1]
    # within=: one number for every step, or one bound (or None) per step of then
    assert [f.plies for f in kifu.find(games, fen=OPEN, then=[b5, f6], within=1)] == [[6]]
    assert [f.plies for f in kifu.find(games, fen=OPEN, then=[f6, b5], within=[1, None])] == []
    assert [f.plies for f in kifu.find(games, fen=OPEN, then=[b5, f6], within=[None, 1])] == [[6]]
    with pytest.raises(ValueError, match="within= has 2 bounds and then= 1 step:"):
        kifu.find(games, fen=OPEN, then=b5, within=[1, 2])
    # as many bounds as steps; and no bound without a step, as --within needs a --then
    with pytest.raises(ValueError, match="within= has 1 bound and then= 2 steps:"):
        kifu.find(games, fen=OPEN, then=[b5, f6], within=[1])
    for within in (3, [3]):
        with pytest.raises(ValueError, match="no then= step to bound"):
            kifu.find(games, material="KRPkr", within=within)


def test_variations_and_errors(games):
    q = "rnbqkbnr/pppp1ppp/8/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq -"
    assert list(kifu.find(games, fen=q)) == []
    (f,) = kifu.find(games, fen="r1bqkbnr/pppp1ppp/2n5/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq -", variations=True)
    assert (f.plies, f.variation_plies) == ([], [6])
    for bad in [dict(), dict(fen="x"), dict(subfen="8/8"), dict(material="KX"), dict(fen=OPEN, then=["x"])]:
        with pytest.raises(ValueError):
            kifu.find(games, **bad)
    with pytest.raises(ValueError):
        kifu.explore(games, fen=OPEN, by="rating:0")


def test_explore_is_the_cli_s_table(games, kifu_bin):
    pytest.importorskip("pyarrow")
    t = kifu.explore(games, fen=OPEN)
    out = subprocess.run([kifu_bin, "explore", "--json", "--fen", OPEN, games],
                         capture_output=True, check=True).stdout.decode()
    assert t.to_pylist() == [json.loads(l) for l in out.splitlines()]
    assert t.column("san").to_pylist() == ["Bb5", "Bc4"]
    assert t.column("games").to_pylist() == [2, 1]
    assert t.column("mean_elo").to_pylist() == [2100.0, 1800.0]
    g = kifu.explore(games, fen=OPEN, by="rating:500")
    assert g.column_names[0] == "group"
    assert g.column("group").to_pylist() == ["1500-1999", "2000-2499"]
    empty = kifu.explore(games, material="KQkq")
    assert empty.num_rows == 0 and empty.column_names == t.column_names
    with pytest.warns(UserWarning, match="max_entries"):
        assert kifu.explore(games, fen=OPEN, max_entries=1).num_rows == 1
    # 0 is refused, as --max-entries 0 and --max-game-bytes 0 are
    for bad in (dict(max_entries=0), dict(max_game_bytes=0)):
        with pytest.raises(ValueError, match="=0: at least 1"):
            kifu.explore(games, fen=OPEN, **bad)
    with pytest.raises(ValueError, match="max_game_bytes=0: at least 1"):
        list(kifu.find(games, fen=OPEN, max_game_bytes=0))
    # a key games lack but one they have is near: a warning naming it, as for where=
    with pytest.warns(UserWarning, match="did you mean `Event`"):
        kifu.explore(games, fen=OPEN, by="Evnet")
    # a board without its castling field: the CLI's note, as a warning in Python's names
    board = OPEN.split()[0]
    with pytest.warns(UserWarning, match=r"fen=`.*` has no castling .* use subfen="):
        kifu.explore(games, fen=board + " w")


def test_explore_has_the_cli_s_end_row_and_unknown_shares(tmp_path, kifu_bin):
    """A game that ends at the position: the row `end` (`uci` None), as `kifu explore --json`;
    a row of `*` games only has no shares (None), as the CLI's null."""
    pytest.importorskip("pyarrow")
    p = tmp_path / "ends.pgn"
    p.write_text(GAMES + '[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n')
    t = kifu.explore(p, fen=OPEN)
    out = subprocess.run([kifu_bin, "explore", "--json", "--fen", OPEN, p],
                         capture_output=True, check=True).stdout.decode()
    assert t.to_pylist() == [json.loads(l) for l in out.splitlines()]
    assert t.column("san").to_pylist() == ["Bb5", "Bc4", "end"]
    end = t.to_pylist()[2]
    assert (end["uci"], end["games"], end["game"]) == (None, 1, 4)
    assert (end["white_share"], end["draw_share"], end["black_share"]) == (None, None, None)


# Go: kifu.find / kifu.explore with go_pattern=, against `kifu find/explore --go-pattern`

GO_GAMES = (
    "(;GM[1]SZ[19]BR[5d]RE[B+R];B[pd];W[qf];B[dd])\n"
    "(;GM[1]SZ[19]BR[1k]RE[W+2.5];B[qq];W[dd];B[cc])\n"
    "(;GM[1]SZ[19]BR[3d]HA[9]RE[0];AB[dd][jd][pd][dj][jj][pj][dp][jp][pp];W[qc])\n"
)
# a lone black 4-4 stone in an empty corner (the first row and column: anything)
LONE_44 = "# a lone 4-4 stone\n?????\n?....\n?....\n?..X.\n?....\n"


@pytest.fixture
def go_games(tmp_path):
    p = tmp_path / "g.sgf"
    p.write_text(GO_GAMES)
    return p


def test_go_find_gives_the_trees_and_move_numbers_of_the_cli(go_games, tmp_path, kifu_bin):
    found = list(kifu.find(go_games, go_pattern=LONE_44, anchor="corner"))
    assert [f.plies for f in found] == [[1, 2, 3], [0, 1]]
    assert [f.game.index for f in found] == [0, 2]
    assert isinstance(found[0].game, kifu.GameTree) and found[0].game.properties["BR"] == ["5d"]
    pattern = tmp_path / "44.txt"
    pattern.write_text(LONE_44)
    for extra, kw in [([], {}), (["--swap-colors"], {"swap_colors": True}),
                      (["--swap-colors", "-w", "BR>=3d"], {"swap_colors": True, "where": ["BR>=3d"]}),
                      (["--anchor", "edge"], {"anchor": "edge"})]:
        if "anchor" not in kw and "--anchor" not in extra:
            extra = ["--anchor", "corner"] + extra
            kw = {"anchor": "corner", **kw}
        out = subprocess.run([kifu_bin, "find", "--go-pattern", pattern, "--to", "jsonl", *extra, go_games],
                             capture_output=True).stdout.decode()
        cli = [json.loads(l)["matched_plies"] for l in out.splitlines()]
        # the pattern as a path (str and pathlib) and as text give the same games
        for given in (pattern, str(pattern), LONE_44):
            assert [f.plies for f in kifu.find(go_games, go_pattern=given, threads=2, **kw)] == cli, (extra, given)
    assert len(list(kifu.find(go_games, go_pattern=LONE_44, anchor="corner", swap_colors=True))) == 3
    # a whole-board pattern from SGF text, and a one-row pattern's text
    assert [f.game.index for f in kifu.find(go_games, go_pattern="(;SZ[19];B[pd];W[qf];B[dd])")] == [0]
    assert len(list(kifu.find(go_games, go_pattern="X.X"))) == 0
    # PGN inputs are not searched for a Go pattern: skipped, said
    pgn = tmp_path / "a.pgn"
    pgn.write_text(GAMES)
    with pytest.warns(UserWarning, match="skipped"):
        assert [f.game.file for f in kifu.find([pgn, go_games], go_pattern=LONE_44, anchor="corner")] == [str(go_games)] * 2


def test_gnugo_pattern_files_are_read_with_their_edges(go_games, tmp_path):
    """A pattern in GNU Go's own format: its drawn edge is its anchor (the lower-left corner
    here), what follows the `:` line is skipped; another anchor than the one drawn is refused."""
    gnugo = "Pattern Hoshi1\n\n|?....   a lone 4-4 stone\n|?..X.\n|?....\n|?....\n|?????\n+-----\n\n:8,J\n"
    want = [f.game.index for f in kifu.find(go_games, go_pattern=LONE_44, anchor="corner")]
    assert [f.game.index for f in kifu.find(go_games, go_pattern=gnugo)] == want
    with pytest.raises(ValueError, match="draws the board's edge"):
        kifu.find(go_games, go_pattern=gnugo, anchor="edge")
    with pytest.raises(ValueError, match="no equivalent"):
        kifu.find(go_games, go_pattern="Pattern A\n\n.,X\n:8\n")


def test_go_pattern_errors(go_games, tmp_path):
    for bad in [dict(go_pattern="X|O\n"), dict(go_pattern="X\nXX\n"), dict(go_pattern=LONE_44, anchor="side"),
                dict(go_pattern=LONE_44, fen=OPEN), dict(go_pattern=LONE_44, min_ply=3), dict(anchor="corner"),
                dict(swap_colors=True, fen=OPEN)]:
        with pytest.raises(ValueError):
            kifu.find(go_games, **bad)
    with pytest.raises(FileNotFoundError):
        kifu.find(go_games, go_pattern=tmp_path / "none.txt")
    # a pattern file is read up to 1 MiB, as the CLI reads --go-pattern: a larger one is refused
    big = tmp_path / "big.txt"
    big.write_text("X.\n" * (1 << 19) + "X.\n")
    for call in [kifu.find, kifu.explore]:
        with pytest.raises(ValueError, match="more than 1048576 bytes: not a pattern"):
            call(go_games, go_pattern=big)


def test_min_ply_past_max_ply_is_refused(games):
    # refused by the pipeline's chess query, as `kifu find --min-ply 5 --max-ply 2` is
    for call in [kifu.find, kifu.explore]:
        with pytest.raises(ValueError, match="^min_ply 5 is past max_ply 2: no position is between them$"):
            call(games, fen=OPEN, min_ply=5, max_ply=2)
    assert len(list(kifu.find(games, fen=OPEN, min_ply=4, max_ply=4))) > 0
    # a negative ply names its argument (not Python's bare OverflowError)
    with pytest.raises(ValueError, match="^min_ply must be 0 or more, not -1$"):
        kifu.find(games, fen=OPEN, min_ply=-1)
    for read in (kifu.positions, lambda g, **o: kifu.to_arrow(g, "positions", **o)):
        with pytest.raises(ValueError, match="^max_ply must be 0 or more, not -2$"):
            read(games, max_ply=-2)


def test_go_explore_is_the_cli_s_table(go_games, tmp_path, kifu_bin):
    pytest.importorskip("pyarrow")
    pattern = tmp_path / "44.txt"
    pattern.write_text(LONE_44)
    for extra, kw in [([], {}), (["--swap-colors"], {"swap_colors": True})]:
        t = kifu.explore(go_games, go_pattern=pattern, anchor="corner", **kw)
        out = subprocess.run([kifu_bin, "explore", "--json", "--go-pattern", pattern, "--anchor", "corner",
                              *extra, go_games], capture_output=True).stdout.decode()
        assert t.to_pylist() == [json.loads(l) for l in out.splitlines()]
    t = kifu.explore(go_games, go_pattern=LONE_44, anchor="corner")
    assert t.column_names == ["move", "kind", "color", "x", "y", "games", "positions", "x_wins",
                              "o_wins", "other", "file", "game", "ply"]
    assert sum(t.column("positions").to_pylist()) == 5
    # a game counts once a row, however many of its positions played the move
    assert all(g <= p for g, p in zip(t.column("games").to_pylist(), t.column("positions").to_pylist()))
    empty = kifu.explore(go_games, go_pattern=LONE_44, where=["BR>=9d"])
    assert empty.num_rows == 0 and empty.column_names == t.column_names


def test_go_explore_by_a_key(go_games, tmp_path, kifu_bin):
    pytest.importorskip("pyarrow")
    pattern = tmp_path / "44.txt"
    pattern.write_text(LONE_44)
    t = kifu.explore(go_games, go_pattern=pattern, anchor="corner", swap_colors=True, by="black_rank")
    out = subprocess.run([kifu_bin, "explore", "--json", "--go-pattern", pattern, "--anchor", "corner",
                          "--swap-colors", "--by", "black_rank", go_games], capture_output=True).stdout.decode()
    assert t.column_names[0] == "group"
    assert t.to_pylist() == [json.loads(l) for l in out.splitlines()]
    with pytest.raises(ValueError, match="rank"):
        kifu.explore(go_games, go_pattern=LONE_44, by="rating:200")
