#!/usr/bin/env python3
"""kifu's Go pattern search beside a reference written with sgfmill 1.1.1, game by game.

Usage:
  go_pattern.py GO_FIND_BIN PATTERN [--anchor corner|edge|anywhere] [--swap-colors]
                [FILE|DIR...] [--show N] [--jobs N]
  go_pattern.py --bench ROUNDS GO_FIND_BIN PATTERN [--anchor ...] [--swap-colors] [FILE|DIR...]

GO_FIND_BIN is kifu-pipeline's example `go_find` (cargo build --release -p kifu-pipeline
--example go_find); PATTERN a pattern file read as kifu reads it (parse_pattern below, a port of
kifu_replay::go::Pattern::parse; docs/search.md): rows of X O . ? x o, or a GNU Go pattern file
(`Pattern NAME`, the diagram, the `:` line and what follows, skipped) whose drawn board edge
sets the anchor (--anchor left out, or the same) and turns the pattern as kifu turns it, the
edge on top, so that the next moves compare in kifu's coordinates. E.g., in the oracle venv:
  ~/.cache/kifu-oracle/bin/python scripts/conformance/go_pattern.py \
      target/release/examples/go_find eb112.db ../shared/corpus/sgf
Without a
FILE or DIR, the corpus ../shared/corpus/sgf beside the repository is read; when it is absent,
the script says so and exits 0.

The reference replays each game tree's main line with sgfmill (sgf_grammar.parse_sgf_collection,
Sgf_game.from_coarse_game_tree with override_encoding="ISO-8859-1", sgf_moves.get_setup_and_moves,
boards.Board.play; setup after the root node applied by the harness as FF[4] says, as
replay_compare_go.py does; a move sgfmill refuses on an occupied point is counted and not
played, as kifu does) and tests the pattern on every position of the main line: before each
move (the setup met since the last move applied, that of the move's own node included) and at
the end, numbered by the moves played before it (0: the start); every
symmetry, every place its anchor allows, point by point, a place counted once however many
symmetries put the same points there. It compares, for every game both read:

- the move numbers where the pattern stands (moves played before the position, 0 the start);
- that each next move kifu reports is one the reference finds: a point in the pattern's
  coordinates (within 1 point of the pattern) under one of the places where it stands, by the
  pattern's colour, or tenuki when no place is that near, a pass, or the end.

Trees sgfmill cannot read (non-square boards, points off the board, setup and a move in the root)
are counted apart, not compared. --bench ROUNDS times the two on one core, interleaved: per
round, kifu's search (GO_FIND_BIN -j 1 -q, its CPU seconds: the mean of $KIFU_BENCH_REPEAT runs,
default 20, since one run of about 10 ms is a few of the kernel's clock ticks) and the reference's
loop over the same files (this process's CPU seconds), and prints each round's ratio and their
median (the figures of docs/figures.md). Needs sgfmill==1.1.1 (the oracle venv of
../shared/oracle/README.md).
"""
import collections
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import time

from sgfmill import boards, sgf, sgf_grammar, sgf_moves, sgf_properties

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "corpus", "sgf"))
MARGIN = 1
# --bench: kifu's runs a round (its CPU time is their mean)
REPEAT = int(os.environ.get("KIFU_BENCH_REPEAT", "20"))

# what a pattern point wants: sets of what may stand there
WANTS = {"X": {"b"}, "O": {"w"}, ".": {None}, "*": {None}, "x": {"b", None}, "o": {"w", None},
         "?": {"b", "w", None}}
SWAP = {"X": "O", "O": "X", "x": "o", "o": "x"}


# kifu_replay::go::Pattern::parse (replay/src/go/pattern.rs), line for line: the rows of X O . ?
# x o (* empty), `#` comments and blank lines skipped, a leading byte order mark skipped, the
# board's edge drawn as GNU Go draws it (a first or last row of - and +, a | beginning or ending
# every row) setting the anchor and turning the pattern to have it on top (upper left), and a
# GNU Go pattern file (a `Pattern NAME` line) read as GNU Go writes it: the rows between the
# header and the `:` line, each the first word of its line
MAX_SIDE = 52
# Rust's char::is_whitespace (str::trim), which Python's str.strip does not quite match
RUST_WS = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)}
GNUGO_ONLY = set(",!QYa@$%")


def rust_trim(s, left=True, right=True):
    i, j = 0, len(s)
    while left and i < j and s[i] in RUST_WS:
        i += 1
    while right and j > i and s[j - 1] in RUST_WS:
        j -= 1
    return s[i:j]


def rust_lines(text):
    """str::lines: split at \n, a \r before it dropped, no last empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l[:-1] if l.endswith("\r") else l for l in lines]


def is_gnugo_header(line):
    t = rust_trim(line, right=False)
    if not t.startswith("Pattern"):
        return False
    rest = t[len("Pattern"):]
    return rest[:1] in (" ", "\t") and rust_trim(rest) != ""


class PatternError(ValueError):
    def __init__(self, line, column, message):
        super().__init__("line %d, column %d: %s" % (line, column, message) if line and column
                         else "line %d: %s" % (line, message) if line else message)


def parse_pattern(text):
    """(rows, anchor): rows as kifu turns them (the drawn edge on top, the drawn corner upper
    left), anchor the one the text draws ("edge", "corner") or None."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = rust_lines(text)
    gnugo = any(is_gnugo_header(l) for l in lines)
    in_diagram = not gnugo
    named = 0
    rows = []  # (line, [(column, char)])
    for i, line in enumerate(lines):
        lineno = i + 1
        t = rust_trim(line)
        if gnugo:
            if is_gnugo_header(line):
                named += 1
                if named > 1:
                    raise PatternError(lineno, 0, "a second pattern (`Pattern NAME`): a search "
                                       "finds one pattern, keep one in the file")
                in_diagram = True
                continue
            if not in_diagram:
                continue
            if t.startswith(":"):
                in_diagram = False
                continue
        if not t or t.startswith("#"):
            continue
        row = []
        for col, c in enumerate(line):
            if c in " \t\r":
                # in GNU Go's files the row is the diagram's first word: a comment follows
                if gnugo and row:
                    break
                continue
            row.append((col + 1, c))
        rows.append((lineno, row))
    if len(rows) > MAX_SIDE + 2:
        raise PatternError(rows[MAX_SIDE + 2][0], 0, "more than %d rows" % MAX_SIDE)

    def edge_row(r):
        return all(c in "-+" for _, c in r)

    top = bool(rows) and edge_row(rows[0][1])
    bottom = len(rows) > 1 and edge_row(rows[-1][1])
    body = rows[int(top):len(rows) - int(bottom)]
    left = bool(body) and bool(body[0][1]) and body[0][1][0][1] == "|"
    right = bool(body) and bool(body[0][1]) and body[0][1][-1][1] == "|"
    if (top and bottom) or (left and right):
        raise PatternError(0, 0, "the board's edge drawn on two opposite sides: a pattern stands "
                           "along one edge or in one corner")
    grid, w = [], 0
    for k, (lineno, row) in enumerate(body):
        for side, at in ((left, 0), (right, max(len(row) - 1, 0))):
            has = at < len(row) and row[at][1] == "|"
            if side != has:
                raise PatternError(lineno, row[at][0] if at < len(row) else 0,
                                   "the board's edge `|` drawn on some rows only")
        inner = row[int(left):len(row) - int(right and bool(row))]
        points = []
        for col, c in inner:
            if c not in WANTS:
                if c in "|-+":
                    why = "a board edge inside the diagram"
                elif c in GNUGO_ONLY:
                    why = "`%s` is a GNU Go pattern point with no equivalent here" % c
                else:
                    why = "`%s` is no pattern point" % c
                raise PatternError(lineno, col, why)
            points.append(c)
            if len(points) > MAX_SIDE:
                raise PatternError(lineno, col, "a row longer than %d points" % MAX_SIDE)
        if k == 0:
            w = len(points)
        elif len(points) != w:
            raise PatternError(lineno, 0, "a row of %d points where the first row has %d (a "
                               "pattern is a rectangle)" % (len(points), w))
        grid.append(points)
    if not grid or w == 0:
        raise PatternError(0, 0, "no pattern: no row of points (X, O, x, o, ., *, ?) in the text")
    if len(grid) > MAX_SIDE:
        raise PatternError(body[MAX_SIDE][0], 0, "more than %d rows" % MAX_SIDE)
    for on, r in ((top, rows[0] if rows else None), (bottom, rows[-1] if rows else None)):
        long = w + int(left) + int(right)
        if on and len(r[1]) != long:
            raise PatternError(r[0], 0, "an edge row of %d characters where the rows (with their "
                               "`|`) have %d" % (len(r[1]), long))
    # turned so that the edge is the top row, the corner the upper-left point
    if bottom:
        grid = grid[::-1]
    if right:
        grid = [r[::-1] for r in grid]
    if (top or bottom) and (left or right):
        anchor = "corner"
    elif top or bottom:
        anchor = "edge"
    elif left or right:
        grid = [list(col) for col in zip(*grid)]
        anchor = "edge"
    else:
        anchor = None
    return grid, anchor


def read_pattern(path):
    """The pattern file as kifu reads it (UTF-8 text): (rows, anchor drawn or None)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text")
    return parse_pattern(text)


def anchor_of(drawn, asked):
    """The anchor kifu searches with: the one the text draws unless --anchor says one; another
    than the one drawn is refused (Pattern::with_anchor_asked)."""
    if drawn is not None and asked is not None and asked != drawn:
        raise ValueError("the pattern draws the board's edge (%s): the anchor asked, %s, is "
                         "another (--anchor)" % (drawn, asked))
    return asked or drawn or "anywhere"


def transform(s, x, y, w, h):
    """Symmetry s (4: transpose first, 1: flip x, 2: flip y) of the point (x, y) of a w x h
    pattern: (a, b) in the transformed rectangle, and its size."""
    tw, th = (h, w) if s & 4 else (w, h)
    a, b = (y, x) if s & 4 else (x, y)
    if s & 1:
        a = tw - 1 - a
    if s & 2:
        b = th - 1 - b
    return a, b, tw, th


def inverse(s, a, b, w, h):
    tw, th = (h, w) if s & 4 else (w, h)
    if s & 1:
        a = tw - 1 - a
    if s & 2:
        b = th - 1 - b
    return (b, a) if s & 4 else (a, b)


class Search:
    """The pattern under every symmetry (and swap), tried at every place its anchor allows."""

    def __init__(self, rows, anchor, swap):
        self.h, self.w = len(rows), len(rows[0])
        self.anchor = anchor
        self.variants = []
        for swapped in ([False, True] if swap else [False]):
            for s in range(8):
                cells = []
                for y in range(self.h):
                    for x in range(self.w):
                        c = rows[y][x]
                        if swapped:
                            c = SWAP.get(c, c)
                        a, b, tw, th = transform(s, x, y, self.w, self.h)
                        cells.append((a, b, c))
                tests = [(a, b, WANTS[c]) for a, b, c in cells if c != "?"]
                # stones first: they fail soonest
                tests.sort(key=lambda t: len(t[2]))
                self.variants.append((s, swapped, tw, th, cells, tests))
        self.places = {}

    def places_for(self, size):
        if size in self.places:
            return self.places[size]
        out = []
        for (s, swapped, tw, th, cells, tests) in self.variants:
            ps = []
            for y0 in range(size - th + 1):
                for x0 in range(size - tw + 1):
                    ox, oy, _, _ = transform(s, 0, 0, self.w, self.h)
                    ox, oy = x0 + ox, y0 + oy
                    if self.anchor == "corner":
                        ok = ox in (0, size - 1) and oy in (0, size - 1)
                    elif self.anchor == "edge":
                        dx, dy, _, _ = transform(s, 0, 1, self.w, self.h)
                        d = (x0 + dx - ox, y0 + dy - oy)
                        ok = {(0, 1): oy == 0, (0, -1): oy == size - 1, (1, 0): ox == 0,
                              (-1, 0): ox == size - 1}[d]
                    else:
                        ok = True
                    if ok:
                        ps.append((x0, y0))
            out.append(ps)
        self.places[size] = out
        return out

    def matches(self, board, size):
        """The places where the pattern stands: {frozenset of (x, y, char)}: [(s, swapped, x0, y0)]."""
        grid = board.board  # grid[row][col], row 0 at the bottom
        found = {}
        for (s, swapped, tw, th, cells, tests), ps in zip(self.variants, self.places_for(size)):
            for (x0, y0) in ps:
                ok = True
                for (a, b, want) in tests:
                    if grid[size - 1 - (y0 + b)][x0 + a] not in want:
                        ok = False
                        break
                if ok:
                    key = frozenset((x0 + a, y0 + b, c) for a, b, c in cells)
                    found.setdefault(key, []).append((s, swapped, x0, y0))
        return found

    def nexts(self, found, colour, move):
        """The next-move strings kifu may print for this position."""
        if colour is None:
            return {"end"}
        out, tenuki = set(), set()
        for places in found.values():
            for (s, swapped, x0, y0) in places:
                c = colour if not swapped else {"b": "w", "w": "b"}[colour]
                c = "X" if c == "b" else "O"
                if move is None:
                    out.add("%s pass" % c)
                    continue
                row, col = move
                bx, by = col, self.size - 1 - row
                px, py = inverse(s, bx - x0, by - y0, self.w, self.h)
                if -MARGIN <= px < self.w + MARGIN and -MARGIN <= py < self.h + MARGIN:
                    out.add("%s %d,%d" % (c, px, py))
                else:
                    tenuki.add("%s tenuki" % c)
        return out or tenuki


def replay(game):
    """(board, [(colour, move)], {move index: [(ab, aw, ae)]}, extended) or raises ValueError."""
    try:
        board, moves = sgf_moves.get_setup_and_moves(game)
        return board, moves, {}, False
    except ValueError as e:
        if "setup properties after the root node" not in str(e):
            raise
    board = boards.Board(game.get_size())
    moves, setups = [], {}
    for node in game.get_main_sequence():
        ab, aw, ae = node.get_setup_stones()
        if ab or aw or ae:
            setups.setdefault(len(moves), []).append((ab, aw, ae))
        colour, raw = node.get_raw_move()
        if colour is not None:
            moves.append((colour, sgf_properties.interpret_go_point(raw, game.get_size())))
    return board, moves, setups, True


def reference_file(path, search):
    """Per tree: {"error": …} or {"moves": [...], "nexts": [set, ...]}."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        coarse = sgf_grammar.parse_sgf_collection(data)
    except ValueError as e:
        return {"file_error": str(e)}
    out = []
    for c in coarse:
        try:
            game = sgf.Sgf_game.from_coarse_game_tree(c, override_encoding="ISO-8859-1")
            board, moves, setups, extended = replay(game)
        except ValueError as e:
            out.append({"error": str(e)})
            continue
        size = board.side
        search.size = size

        def apply_setup(i):
            for ab, aw, ae in setups.get(i, []):
                for pts, what in ((ab, "b"), (aw, "w"), (ae, None)):
                    for (row, col) in pts:
                        board.board[row][col] = what

        hit_moves, nexts = [], []
        for i, (colour, move) in enumerate(moves):
            # position i: i moves played, the setup met before move i + 1 (its node's too) applied
            apply_setup(i)
            found = search.matches(board, size)
            if found:
                hit_moves.append(i)
                nexts.append(search.nexts(found, colour, move))
            if move is not None:
                try:
                    board.play(move[0], move[1], colour)
                except ValueError:
                    pass  # an occupied point: not played (kifu: occupied_point)
        apply_setup(len(moves))
        if search.matches(board, size):
            hit_moves.append(len(moves))
            nexts.append({"end"})
        out.append({"moves": hit_moves, "nexts": nexts, "extended": extended})
    return {"trees": out}


def compare(args):
    binary, opts, path, search = args
    r = subprocess.run([binary] + opts + [path], capture_output=True)
    mine = {}
    for line in r.stdout.decode().splitlines():
        if line.strip():
            g = json.loads(line)
            mine[g["game"]] = g
    ref = reference_file(path, search)
    res = collections.Counter()
    diffs = []
    if "file_error" in ref:
        res["file_error"] += 1
        return res, diffs
    for i, t in enumerate(ref["trees"]):
        if "error" in t:
            res["refused"] += 1
            continue
        res["trees"] += 1
        k = mine.get(i, {"moves": [], "next": []})
        if k["moves"] != t["moves"]:
            diffs.append("%s game %d: moves kifu %s / sgfmill %s" % (path, i, k["moves"][:12], t["moves"][:12]))
            continue
        if t["moves"]:
            res["matched"] += 1
            res["positions"] += len(t["moves"])
        bad = [(m, n, ok) for m, n, ok in zip(k["moves"], k["next"], t["nexts"]) if n not in ok]
        if bad:
            m, n, ok = bad[0]
            diffs.append("%s game %d: next move after %d: kifu %s / sgfmill %s" % (path, i, m, n, sorted(ok)))
            continue
        res["agree"] += 1
    return res, diffs


def files(args):
    paths = []
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                paths += [os.path.join(root, n) for n in names if n.lower().endswith(".sgf")]
        else:
            paths.append(a)
    return sorted(paths)


def main(argv):
    show, jobs = 5, os.cpu_count() or 1
    anchor, swap, bench = None, False, 0
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--show", "--jobs", "--anchor", "--bench"):
            v = argv[i + 1]
            i += 2
            if a == "--show":
                show = int(v)
            elif a == "--jobs":
                jobs = int(v)
            elif a == "--bench":
                bench = int(v)
            else:
                if v not in ("corner", "edge", "anywhere"):
                    print("go_pattern: --anchor corner|edge|anywhere, not %r" % v)
                    return 2
                anchor = v
            continue
        if a == "--swap-colors":
            swap = True
        else:
            rest.append(a)
        i += 1
    if len(rest) < 2:
        print(__doc__)
        return 2
    binary = rest.pop(0)
    pattern_file = rest.pop(0)
    try:
        rows, drawn = read_pattern(pattern_file)
        anchor = anchor_of(drawn, anchor)
    except (OSError, ValueError) as e:
        print("go_pattern: %s: %s" % (pattern_file, e))
        return 2
    if not rest:
        if not os.path.isdir(CORPUS):
            print("go_pattern: SKIPPED: no corpus at ../shared/corpus/sgf beside the repository")
            return 0
        rest = [CORPUS]
    paths = files(rest)
    search = Search(rows, anchor, swap)
    opts = [pattern_file, "--anchor", anchor] + (["--swap-colors"] if swap else []) + ["-j", "1"]
    if bench:
        ratios = []
        for r in range(bench):
            # kifu's run is short (about 10 ms on the small files): the CPU time the kernel
            # accounts is read over REPEAT runs, and divided
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            for _ in range(REPEAT):
                k = subprocess.run([binary] + opts + ["-q"] + paths, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            kifu_s = ((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)) / REPEAT
            start = time.process_time()
            trees = positions = 0
            for p in paths:
                for t in reference_file(p, search).get("trees", []):
                    trees += 1
                    positions += len(t.get("moves", []))
            ref_s = time.process_time() - start
            ratios.append(ref_s / max(kifu_s, 1e-9))
            print("round %d: kifu %.3f s (%s), sgfmill loop %.2f s (trees %d, positions with the pattern %d): %.0fx"
                  % (r + 1, kifu_s, k.stderr.decode().strip(), ref_s, trees, positions, ratios[-1]))
        ratios.sort()
        print("files %d; median %.0fx" % (len(paths), ratios[len(ratios) // 2]))
        return 0
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(compare, [(binary, opts, p, search) for p in paths], chunksize=16)
    total = collections.Counter()
    diffs = []
    for r, d in results:
        total.update(r)
        diffs += d
    for line in diffs[:show]:
        print("   " + line)
    print("pattern %s, anchor %s%s: files %d, trees compared %d, agree %d (%.3f%%), with the pattern %d "
          "(positions %d); differ %d; trees sgfmill refuses %d, files it cannot parse %d"
          % (pattern_file, anchor, ", colours swapped" if swap else "", len(paths), total["trees"],
             total["agree"], 100.0 * total["agree"] / max(total["trees"], 1), total["matched"],
             total["positions"], len(diffs), total["refused"], total["file_error"]))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
