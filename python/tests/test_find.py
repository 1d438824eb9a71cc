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
