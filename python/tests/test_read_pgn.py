"""kifu.read_pgn: games as Python objects, from every kind of source."""

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile

import pytest

import kifu
from conftest import ILLEGAL, OPERA, SLOPPY, corpus


def test_tags_moves_comments_nags_variations(pgn_file):
    games = list(kifu.read_pgn(pgn_file))
    assert len(games) == 2
    g = games[0]
    assert isinstance(g, kifu.Game)
    assert g.file == str(pgn_file)
    assert (g.index, g.offset) == (0, 0)
    assert g.tags["White"] == "Morphy, Paul"
    assert g.tag("WhiteElo") == "2690" and g.tag("Nope", "x") == "x"
    assert g.tag_pairs[0] == ("Event", "Paris")
    assert g.comments == ["The Opera Game."]
    assert g.sans[:4] == ["e4", "e5", "Nf3", "d6"]
    assert g.sans[-1] == "Rd8#"
    assert g.plies == len(g) == 33
    assert g.result == "1-0" and g.outcome == "1-0"
    moves = g.moves
    assert [m.san for m in moves] == g.sans
    assert moves[5].nags == [6] and moves[5].comments == ["Too early."]
    assert moves[18].san == "Nxb5" and moves[18].nags == [1]  # `!` is NAG 1
    assert moves[0].clock == 180.0 and moves[0].eval == (31, None)
    assert g.clocks[0] == 180.0 and g.clocks[1] is None
    assert g.evals[0] == (31, None)
    qe6 = moves[27]
    assert qe6.san == "Qe6" and qe6.number == "14b" and qe6.ply == 28
    (var,) = qe6.variations
    assert [m.san for m in var.moves] == ["Qb4", "Bxf6", "gxf6", "Qxb4"]
    assert var.moves[0].depth == 1 and var.moves[0].ply == 28
    assert not g.has_errors and g.errors == []


def test_errors_are_data(pgn_file):
    g = list(kifu.read_pgn(pgn_file))[1]
    assert g.index == 1 and g.offset == len(OPERA.encode())
    assert g.has_errors
    (e,) = g.errors
    assert isinstance(e, kifu.Diagnostic)
    # the game counted from 1, as `kifu check` counts it: the second game (index 1) is game 2
    assert (e.kind, e.severity, e.text, e.move, e.game) == ("unexpected_text", "error", "???", "2b", 2)
    assert e.line == OPERA.count("\n") + 6 and e.column == 19
    assert e.offset == len(OPERA.encode()) + SLOPPY.index("???")
    assert str(e).startswith(f"{pgn_file}:{e.line}:19: error: unexpected text: `???` (game 2, move 2b)")
    assert (e.to_dict()["kind"], e.to_dict()["game"]) == ("unexpected_text", g.index + 1)


def test_sources_bytes_file_object_list(pgn_file, pgn_text):
    by_path = [g.to_json() for g in kifu.read_pgn(pgn_file)]
    by_bytes = [g.to_json() for g in kifu.read_pgn(pgn_text.encode(), name=str(pgn_file))]
    with open(pgn_file, "rb") as f:
        by_file = [g.to_json() for g in kifu.read_pgn(f)]
    by_list = [g.to_json() for g in kifu.read_pgn([pgn_file])]
    by_view = [g.to_json() for g in kifu.read_pgn(memoryview(pgn_text.encode()), name=str(pgn_file))]
    assert by_path == by_bytes == by_file == by_list == by_view
    assert len(by_path) == 2
    assert list(kifu.read_pgn(b""))  == []


def test_usage_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        kifu.read_pgn(tmp_path / "missing.pgn")
    with pytest.raises(TypeError):
        kifu.read_pgn(42)
    with pytest.raises(ValueError):
        kifu.read_pgn(b"1. e4 *", replay="maybe")
    with pytest.raises(ValueError):
        kifu.read_pgn(b"1. e4 *", threads=0)
    with pytest.raises(TypeError):
        list(kifu.read_pgn(io.StringIO("1. e4 *")))


def test_compressed_and_archives(tmp_path, pgn_text):
    raw = pgn_text.encode()
    expected = [g.sans for g in kifu.read_pgn(raw)]
    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(raw))
    (tmp_path / "b.pgn.bz2").write_bytes(bz2.compress(raw))
    (tmp_path / "c.pgn.xz").write_bytes(lzma.compress(raw))
    for name in ("a.pgn.gz", "b.pgn.bz2", "c.pgn.xz"):
        assert [g.sans for g in kifu.read_pgn(tmp_path / name)] == expected, name
    # compressed bytes, told by their first bytes
    assert [g.sans for g in kifu.read_pgn(gzip.compress(raw))] == expected
    with zipfile.ZipFile(tmp_path / "d.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("one.pgn", raw)
        z.writestr("notes.txt", "not a game")
        z.writestr("two.pgn", raw)
    games = list(kifu.read_pgn(tmp_path / "d.zip"))
    assert [g.file for g in games] == [f"{tmp_path / 'd.zip'}:one.pgn"] * 2 + [f"{tmp_path / 'd.zip'}:two.pgn"] * 2
    with tarfile.open(tmp_path / "e.tar.bz2", "w:bz2") as t:
        info = tarfile.TarInfo("dir/x.pgn")
        info.size = len(raw)
        t.addfile(info, io.BytesIO(raw))
    games = list(kifu.read_pgn(tmp_path / "e.tar.bz2"))
    assert [g.sans for g in games] == expected
    assert games[0].file.endswith("e.tar.bz2:dir/x.pgn")
    # a directory: every PGN below it, archives included, in sorted order
    games = list(kifu.read_pgn(tmp_path))
    assert len(games) == 2 * 3 + 4 + 2


def test_zstd(tmp_path, pgn_text):
    pa = pytest.importorskip("pyarrow")
    raw = pgn_text.encode()
    z = pa.compress(raw, codec="zstd", asbytes=True)
    (tmp_path / "x.pgn.zst").write_bytes(z)
    assert [g.sans for g in kifu.read_pgn(tmp_path / "x.pgn.zst")] == [g.sans for g in kifu.read_pgn(raw)]


def test_truncated_input_raises_after_its_games(tmp_path, pgn_text):
    raw = (pgn_text * 200).encode()
    cut = gzip.compress(raw)[:-20]
    (tmp_path / "cut.pgn.gz").write_bytes(cut)
    got = []
    with pytest.raises(kifu.InputError) as e:
        for g in kifu.read_pgn(tmp_path / "cut.pgn.gz"):
            got.append(g)
    assert len(got) > 200  # every game read before the fault was delivered
    assert "cut.pgn.gz" in str(e.value)
    assert e.value.errors[0][0].endswith("cut.pgn.gz")
    assert isinstance(e.value, OSError)


def test_file_object_exception_is_raised_again():
    class Broken(io.RawIOBase):
        def __init__(self):
            self.n = 0

        def readable(self):
            return True

        def read(self, n=-1):
            self.n += 1
            if self.n > 2:
                raise RuntimeError("the network went away")
            return (OPERA * 10).encode()[:n]

    with pytest.raises(RuntimeError, match="network"):
        list(kifu.read_pgn(Broken()))


def test_headers_only_and_main_line(pgn_file):
    (h, _) = kifu.read_pgn(pgn_file, headers_only=True)
    assert h.tags["Event"] == "Paris" and h.sans == [] and h.plies == 0
    (m, _) = kifu.read_pgn(pgn_file, main_line=True)
    assert m.plies == 33 and all(not mv.variations for mv in m.moves)


def test_replay(pgn_file, tmp_path):
    (g, _) = kifu.read_pgn(pgn_file, replay="fen")
    assert g.replayed
    assert g.uci[:3] == ["e2e4", "e7e5", "g1f3"]
    assert g.uci[22] == "e1c1"  # O-O-O
    assert g.fens[0] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert g.final_fen == g.fens[-1]
    assert g.start_fen.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert g.moves[0].uci == "e2e4" and g.moves[0].fen == g.fens[0]
    var = g.moves[27].variations[0].moves
    assert [m.uci for m in var] == ["e7b4", "g5f6", "g7f6", "b3b4"]
    (u,) = kifu.read_pgn(ILLEGAL.encode(), replay=True)
    assert u.uci == ["e2e4", "e7e5", None, None] and u.fens is not None and u.fens[0] is None
    (e,) = u.errors
    assert (e.kind, e.move, e.text, e.source) == ("illegal_move", "2w", "Ke3", "replay")
    assert e.line is None
    (n,) = kifu.read_pgn(ILLEGAL.encode())
    assert not n.replayed and n.uci is None and not n.errors


def test_threads_give_the_one_thread_games(tmp_path, pgn_text):
    raw = (pgn_text * 3000).encode()  # ~3.5 MB: several pieces of 1 MiB
    one = [(g.index, g.offset, g.sans, [str(e) for e in g.errors]) for g in kifu.read_pgn(raw)]
    two = [(g.index, g.offset, g.sans, [str(e) for e in g.errors]) for g in kifu.read_pgn(raw, threads=2)]
    assert len(one) == 6000
    assert one == two
    assert [i for i, *_ in one] == list(range(6000))


def test_stop_early_and_close(pgn_text):
    raw = (pgn_text * 5000).encode()
    r = kifu.read_pgn(raw)
    first = next(r)
    assert first.index == 0
    r.close()
    assert list(r) == []
    with kifu.read_pgn(raw, threads=2) as r:
        for g in r:
            if g.index == 10:
                break
    for g in kifu.read_pgn(raw):
        break  # dropping the reader stops its thread


def test_max_game_bytes():
    text = b'[Event "broken"]\n\n' + b"Nf3 Nf6 Ng1 Ng8 " * 10_000 + b'\n[Event "next"]\n\n1. e4 *\n'
    games = list(kifu.read_pgn(text, max_game_bytes=100_000))
    assert len(games) == 2
    assert games[0].errors[-1].kind == "game_too_large" and games[0].errors[-1].source == "dom"
    assert games[1].tags["Event"] == "next"


def test_sgf_inputs_are_skipped_with_a_warning(tmp_path, pgn_text):
    (tmp_path / "a.pgn").write_text(pgn_text)
    (tmp_path / "b.sgf").write_text("(;GM[1];B[aa])")
    with pytest.warns(UserWarning, match="b.sgf"):
        r = kifu.read_pgn(tmp_path)
        games = list(r)
    assert len(games) == 2 and r.skipped == [str(tmp_path / "b.sgf")]


def test_no_game_warns():
    with pytest.warns(UserWarning, match="no game read"):
        assert list(kifu.read_pgn(b"} } }")) == []


def test_to_pgn_round_trip(pgn_file):
    for g in kifu.read_pgn(pgn_file):
        (again,) = kifu.read_pgn(g.to_pgn().encode())
        assert again.sans == g.sans
        assert again.tags.items() >= {k: v for k, v in g.tags.items() if v != "?"}.items()


def test_json_is_kifu_json(pgn_file, kifu_bin):
    import subprocess

    out = subprocess.run([kifu_bin, "json", str(pgn_file)], capture_output=True, check=True).stdout
    lines = out.decode().splitlines()
    assert [g.to_json() for g in kifu.read_pgn(pgn_file)] == lines


def test_corpus_files_read_as_the_cli_counts(kifu_bin):
    import json
    import subprocess

    d = corpus("pgn", "large", "notnil-chess-history")
    stats = json.loads(subprocess.run([kifu_bin, "stats", "--json", str(d)], capture_output=True, check=True).stdout)
    games = list(kifu.read_pgn(d, threads=2))
    assert len(games) == stats["games"]
    assert sum(g.plies for g in games) == stats["mainline_moves"]


def test_openings_named_from_the_moves_as_the_table_names_them(tmp_path):
    pgn = (
        '[ECO "A00"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n\n'
        "1. e4 c5 2. Nc3 d6 3. Nf3 Nf6 4. d4 cxd4 5. Nxd4 a6 *\n\n"
        '[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n1. Kb1 *\n'
    )
    games = list(kifu.read_pgn(pgn.encode()))
    najdorf = {"eco": "B90", "name": "Sicilian Defense: Najdorf Variation", "ply": 10}
    assert [g.opening for g in games] == [najdorf, najdorf, None]
    t = kifu.to_arrow(pgn.encode(), columns=["opening_eco", "opening_name", "opening_ply"]).read_all()
    assert t.to_pylist() == [
        {"opening_eco": o["eco"], "opening_name": o["name"], "opening_ply": o["ply"]} if o else
        {"opening_eco": None, "opening_name": None, "opening_ply": None}
        for o in (najdorf, najdorf, None)
    ]
    by = kifu.stats_by(pgn.encode(), "opening_eco", threads=1)
    assert [(r["key"], r["games"]) for r in by] == [("B90", 2), (None, 1)]
