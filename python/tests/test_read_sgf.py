"""kifu.read_sgf: game trees as Python objects."""

import pytest

import kifu
from conftest import SGF, corpus


def test_tree_root_main_line(sgf_file):
    trees = list(kifu.read_sgf(sgf_file))
    assert len(trees) == 2
    t = trees[0]
    assert isinstance(t, kifu.GameTree)
    assert (t.index, t.offset, t.file) == (0, 0, str(sgf_file))
    assert t.properties["PB"] == ["Honinbo Shusaku"]
    assert t.get("KM") == "6.5" and t.get("XX", "none") == "none"
    assert t.board_size == (9, 9) and t.game_type == 1
    assert t.moves == [("B", "ee"), ("W", "cc"), ("B", "gc"), ("W", None)]
    assert [n.move for n in t.main_line] == [None, ("B", "ee"), ("W", "cc"), ("B", "gc"), ("W", None)]
    assert t.main_line[-1].comment == "pass"
    assert t.node_count == len(t) == 6 and t.variations == 1
    root = t.root
    assert root.id == 0 and root.parent is None and root.comment == "a root comment"
    (ee,) = root.children
    assert ee.properties == {"B": ["ee"]}
    (cc,) = ee.children
    assert [c.move for c in cc.children] == [("B", "gc"), ("B", "gg")]
    assert cc.children[1].parent.id == cc.id
    assert t.charset == "UTF-8"
    assert not t.errors and not t.has_errors
    assert trees[1].index == 1 and trees[1].offset == SGF.index("(;GM[1]SZ[3]")


def test_errors_and_replay():
    text = b"(;GM[1]SZ[3]QQ[x];B[ba];W[aa];B[ab];W[ba])"
    (t,) = kifu.read_sgf(text, replay=True)
    assert ("unknown_property", "W35", "parser") in [(e.kind, e.code, e.source) for e in t.errors]
    assert any(e.kind == "occupied_point" and e.code is None and e.source == "replay" for e in t.errors)
    e = [e for e in t.errors if e.source == "parser"][0]
    assert e.line == 1 and e.node is not None and e.format == "sgf"
    assert t.replayed
    assert t.final_board == bytes([0, 1, 0, 1, 0, 0, 0, 0, 0])
    assert t.captures[2] == (1, 1, 0, True)  # B[ab] took W[aa]
    np = pytest.importorskip("numpy")
    board = np.frombuffer(t.final_board, np.uint8).reshape(t.board_size[1], t.board_size[0])
    assert board[0, 1] == 1 and board[1, 0] == 1


def test_root_only_main_line_threads(sgf_file):
    (r, _) = kifu.read_sgf(sgf_file, root_only=True)
    assert r.node_count == 1 and r.properties["PW"] == ["Gennan"]
    (m, _) = kifu.read_sgf(sgf_file, main_line=True)
    assert m.variations == 0 and m.moves[-1] == ("W", None)
    raw = SGF.encode() * 3000
    one = [(t.index, t.offset, t.moves) for t in kifu.read_sgf(raw)]
    two = [(t.index, t.offset, t.moves) for t in kifu.read_sgf(raw, threads=2)]
    assert one == two and len(one) == 6000


def test_charset():
    latin = "(;GM[1]CA[ISO-8859-1]PB[M\xfcller])".encode("latin-1")
    (t,) = kifu.read_sgf(latin)
    assert t.get("PB") == "M\xfcller" and t.charset == "windows-1252"
    (t,) = kifu.read_sgf(latin, charset="utf-8")
    assert t.get("PB") == "M\ufffdller"
    with pytest.raises(ValueError):
        kifu.read_sgf(latin, charset="klingon")


def test_to_sgf_and_json(sgf_file, kifu_bin):
    import subprocess

    for t in kifu.read_sgf(sgf_file):
        (again,) = kifu.read_sgf(t.to_sgf().encode())
        assert again.moves == t.moves
    out = subprocess.run([kifu_bin, "json", str(sgf_file)], capture_output=True, check=True).stdout
    assert [t.to_json() for t in kifu.read_sgf(sgf_file)] == out.decode().splitlines()


def test_corpus_directory_of_sgf(kifu_bin):
    import json
    import subprocess

    d = corpus("sgf", "large", "kgs-6d-u-go-archives")
    stats = json.loads(subprocess.run([kifu_bin, "stats", "--json", str(d)], capture_output=True, check=True).stdout)
    n = sum(1 for _ in kifu.read_sgf(d, root_only=True, threads=2))
    assert n == stats["games"]
