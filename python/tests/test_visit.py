"""kifu.visit: the visitor API from Python, its answers and its fast paths."""

import pytest

import kifu
from conftest import SGF


class Everything:
    def __init__(self):
        self.events = []

    def on_input(self, name, fmt):
        self.events.append(("input", fmt))

    def on_tree(self, game, depth):
        self.events.append(("tree", game, depth))

    def on_tree_end(self, game, depth):
        self.events.append(("tree_end", game, depth))

    def on_property(self, name, value):
        self.events.append(("tag", name, value))

    def on_tags_end(self, game):
        self.events.append(("tags_end", game))

    def on_move(self, san, ply, depth):
        self.events.append(("move", san, ply, depth))

    def on_nag(self, nag):
        self.events.append(("nag", nag))

    def on_comment(self, text):
        self.events.append(("comment", text))

    def on_result(self, result, depth):
        self.events.append(("result", result))

    def on_error(self, d):
        self.events.append(("error", d.kind, d.line, d.column))

    def on_end(self):
        return len(self.events)


def test_every_event():
    v = Everything()
    n = kifu.visit(b'[Event "x"]\n\n1. e4 $1 {c} (1. d4) e5 ?? *', v)
    assert n == len(v.events)
    assert v.events == [
        ("input", "pgn"), ("tree", 0, 0), ("tag", "Event", "x"), ("tags_end", 0),
        ("move", "e4", 1, 0), ("nag", 1), ("comment", "c"), ("tree", 0, 1), ("move", "d4", 1, 1),
        ("tree_end", 0, 1), ("move", "e5", 2, 0), ("nag", 4), ("result", "*"), ("tree_end", 0, 0),
    ]


def test_only_defined_methods_and_skips():
    class Moves:
        def __init__(self):
            self.moves = []

        def on_tree(self, game, depth):
            return "skip" if depth > 0 else None

        def on_move(self, san, ply, depth):
            self.moves.append(san)

    v = Moves()
    kifu.visit(b"1. e4 (1. d4 d5) e5 2. Nf3 *", v)
    assert v.moves == ["e4", "e5", "Nf3"]

    class Count:
        n = 0

        def on_move(self, san, ply, depth):
            self.n += 1

    c = Count()
    kifu.visit(b"1. e4 (1. d4 d5) e5 2. Nf3 *", c, variations=False)
    assert c.n == 3
    c = Count()
    kifu.visit(b'[A "1"]\n\n1. e4 e5 *\n\n[A "2"]\n\n1. d4 *', c, headers_only=True)
    assert c.n == 0

    class Heads:
        def __init__(self):
            self.tags, self.moves = [], 0

        def on_property(self, name, value):
            self.tags.append(value)

        def on_tags_end(self, game):
            return "skip"

        def on_move(self, *a):
            self.moves += 1

    h = Heads()
    kifu.visit(b'[A "1"]\n\n1. e4 e5 *\n\n[A "2"]\n\n1. d4 *', h)
    assert (h.tags, h.moves) == (["1", "2"], 0)


def test_stop_skip_game_and_exceptions():
    class Stop:
        n = 0

        def on_move(self, *a):
            self.n += 1
            return "stop" if self.n == 2 else None

    s = Stop()
    kifu.visit(b"1. e4 e5 2. Nf3 *", s)
    assert s.n == 2

    class SkipGame:
        sans = []

        def on_move(self, san, ply, depth):
            self.sans.append(san)
            return "skip_game"

    g = SkipGame()
    kifu.visit(b"1. e4 e5 *\n\n1. d4 d5 *", g)
    assert g.sans == ["e4", "d4"]

    class Boom:
        def on_move(self, *a):
            raise KeyError("boom")

    with pytest.raises(KeyError):
        kifu.visit(b"1. e4 *", Boom())

    class Bad:
        def on_move(self, *a):
            return "sideways"

    with pytest.raises(ValueError):
        kifu.visit(b"1. e4 *", Bad())


def test_sgf_events():
    class V:
        def __init__(self):
            self.props, self.moves, self.nodes = [], [], 0

        def on_node(self, node, depth):
            self.nodes += 1

        def on_property(self, name, values):
            self.props.append((name, values))

        def on_move(self, color, point, node):
            self.moves.append((color, point))

        def on_end(self):
            return self

    v = kifu.visit(SGF.encode(), V())
    assert v.props[:3] == [("GM", ["1"]), ("FF", ["4"]), ("CA", ["UTF-8"])]
    assert ("C", ["a root comment"]) in v.props
    assert v.moves[:4] == [("B", "ee"), ("W", "cc"), ("B", "gc"), ("W", None)]
    assert v.nodes == 6 + 4
    main = kifu.visit(SGF.encode(), V(), variations=False)
    assert ("B", "gg") not in main.moves
    roots = kifu.visit(SGF.encode(), V(), headers_only=True)
    assert roots.moves == [] and roots.nodes == 2


def test_errors_reach_on_error(pgn_file):
    class E:
        found = []

        def on_error(self, d):
            self.found.append(str(d))

    e = E()
    kifu.visit(pgn_file, e)
    assert len(e.found) == 1 and "unexpected text" in e.found[0]


def test_the_pgn_tag_callback_is_named_after_the_library_event():
    class Old:
        def on_tag(self, name, value):
            pass

    with pytest.raises(TypeError, match="on_property"):
        kifu.visit(b'[Event "x"]\n\n1. e4 *\n', Old(), format="pgn")


def test_every_name_of_the_stubs_exists_at_run_time():
    import ast
    import pathlib

    stubs = pathlib.Path(kifu.__file__).with_name("__init__.pyi")
    assert stubs.exists(), "the stubs are in the package"
    assert stubs.with_name("py.typed").exists()
    names = set()
    for node in ast.parse(stubs.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    # the stubs' private names (a TypeVar) are the type checkers' own
    missing = sorted(n for n in names if not n.startswith("_") and not hasattr(kifu, n))
    assert missing == [], missing
    from kifu import PgnVisitor, SgfVisitor  # noqa: F401
