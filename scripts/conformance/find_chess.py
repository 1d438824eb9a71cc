#!/usr/bin/env python3
"""`kifu find` and `kifu explore` beside python-chess 1.11.2, query by query, on PGN files.

Usage:
  find_chess.py KIFU FILE|DIR... [--show N] [--jobs N] [--explore FILE]

KIFU is the `kifu` binary (cargo build --release -p kifu-cli). Run it with the python of the
project's venv that has python-chess (`$(scripts/python_env.sh --conformance)`, or
the oracle venv of ../shared/oracle/README.md).

For every query form of docs/search.md (exact positions from FEN and EPD, sub-FEN patterns,
empty squares too, with and without a side to move, exact and ranged material, sequences
within N plies, a ply range),
`kifu find --to jsonl` runs on the inputs; python-chess reads the same files
(chess.pgn.read_game), replays each game's main line and tests every position of it (the start
included) with its own code: `Board.epd()` for an exact position (python-chess writes the en
passant square only when a capture is legal, as kifu compares), `Board.pieces_mask` for a
pattern, piece counts for material. Games are paired by place (as replay_compare_chess.py pairs
them: a python-chess game with the first kifu game that starts in the bytes it read). A paired game agrees
when both give the same plies, or both none. Every disagreement is printed (up to --show), then
per query: games matched by each, agreeing.

`--explore FILE` (lichess games, e.g. the corpus's shakmaty-benches/lichess_db_1000k.pgn) also
compares `kifu explore --json` for the start position, for the position after 1. e4 e5 2. Nf3
Nc6, and for a pattern, with python-chess's counts of the next moves (games, White/draw/Black,
mean rating of the mover, last date).

Every paired game that differs is then sorted into a category (the games of each file are read
again on both sides: `kifu json` and python-chess), and the count of each is printed, the
unexplained last:
- "pairing shifted by a game python-chess reads from text between games": no kifu game starts
  in the bytes python-chess read for the game (kifu reads that text as part of the game before
  it, whose main line is the one python-chess gives this game, or the text holds no move), or
  the kifu game paired with it is the one python-chess reads as its next game, with the same
  plies (kifu's game k holds what python-chess reads as its game k+1);
- "main lines read to a different move": the two readers stop the main line at a different
  move (a token one takes and the other does not, as replay_compare_chess.py reports), and the
  plies agree as far as both lines go (with `--variations`, the variations' plies the same);
- "python-chess raised an exception reading the game": its reader fails on the game (1.11.2
  raises an IndexError on a variation after an illegal one), so there is no answer to compare,
  and kifu's answer (with `--variations`) is in the variations only;
- "unexplained": any other; the run fails when there is one.

Besides the query forms, one query combines a pattern with `-w WhiteElo>=2000` (the reference
reads the tag as kifu's keys read a number) and one searches variations too (`--variations`:
the reference walks python-chess's game tree in the order a writer writes it, each position
after a variation's move at its ply along its line).
"""
import bisect
import collections
import csv
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_compare_chess import Lines  # noqa: E402

import chess  # noqa: E402
import chess.pgn  # noqa: E402
import logging  # noqa: E402
import math  # noqa: E402

logging.disable(logging.CRITICAL)

OPEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
NAJDORF = "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"
QGD = "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
# both kings castled (twic1599, game 1, ply 30), with the rights many programs write whatever
# the position: python-chess drops those it cannot have
CASTLED_KQKQ = "r1bq1rk1/5pb1/1p1p2p1/1N1np2p/1p2P2P/5P2/PP1QN1P1/1K1R1B1R w KQkq - 0 16"
# a Chess960 start (cutechess-fischerrandom.pgn, game 1) as kifu and python-chess write it:
# X-FEN, `KQkq` naming the outermost rooks, read as Chess960 in a Chess960 game
START_960 = "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1"

W, B = chess.WHITE, chess.BLACK
P, N, BI, R, Q, K = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING


def count(b, color, *kinds):
    return sum(len(b.pieces(k, color)) for k in kinds)


def exact(fen):
    """The position of `fen`, its castling rights read in the variant of the game tested, as
    python-chess reads them (`chess.Board(fen, chess960=…)`: standard chess's rules for a
    standard game, X-FEN for a Chess960 one)."""
    epd = chess.Board(fen).epd()
    epd960 = chess.Board(fen, chess960=True).epd()
    return lambda b: b.epd() == (epd960 if b.chess960 else epd)


def subfen(board, side=None):
    """Scoutfish's sub-FEN, by python-chess's own board: each piece given stands on its square;
    a `_` square (kifu's mark of a square that must be empty) is empty."""
    empty = 0
    ref = chess.BaseBoard.empty()
    for i, rank in enumerate(board.split("/")):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch == "_":
                empty |= chess.BB_SQUARES[chess.square(f, 7 - i)]
            else:
                ref.set_piece_at(chess.square(f, 7 - i), chess.Piece.from_symbol(ch))
            f += 1
    masks = [(ref.pieces_mask(pt, c), pt, c) for c in (W, B) for pt in chess.PIECE_TYPES
             if ref.pieces_mask(pt, c)]

    def test(b):
        if side is not None and b.turn != side:
            return False
        if b.occupied & empty:
            return False
        return all(b.pieces_mask(pt, c) & m == m for m, pt, c in masks)
    return test


def material_exact(white, black):
    """KRPkr-style: every kind of each side counted exactly (kings always 1)."""
    def test(b):
        for color, sig in ((W, white), (B, black)):
            for kind, letter in ((P, "P"), (N, "N"), (BI, "B"), (R, "R"), (Q, "Q")):
                if len(b.pieces(kind, color)) != sig.count(letter):
                    return False
        return True
    return test


# (name, kifu's arguments, python-chess's test per position or a sequence, ply range)
def seq(steps, within):
    """A sequence; `within` the bound of every later step, or a list of one per later step
    (None: any later ply)."""
    bounds = within if isinstance(within, list) else [within] * (len(steps) - 1)
    return ("seq", steps, [None] + bounds)


def where(tag, at_least, test):
    """`-w TAG>=N`: the game's tag read as kifu's keys read a number (its value trimmed, a finite
    decimal number; the game's first tag of that name), then `test` on its main line."""
    return ("where", tag, at_least, test)


def variations(test):
    """`--variations`: `test` on the main line, and on every position a variation's move reaches
    (each at its ply along its line), in the order of the moves in the text."""
    return ("variations", test)


class FirstTags(chess.pgn.GameBuilder):
    """python-chess's game as it reads it, with `first_tags`: each tag's first value, as kifu's
    keys read a tag (python-chess's headers keep the last of a name given twice)."""

    def begin_game(self):
        super().begin_game()
        self.game.first_tags = {}

    def visit_header(self, tagname, tagvalue):
        self.game.first_tags.setdefault(tagname, tagvalue)
        super().visit_header(tagname, tagvalue)


def tag_number(game, tag):
    value = game.first_tags.get(tag) if game is not None else None
    if value is None or "_" in value:
        return None
    try:
        x = float(value.strip())
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def variation_plies(game, test):
    """The plies (half-moves from the game's start along their line) of the positions after each
    move of a variation where `test` holds, in the order a PGN writer writes the moves: at a
    node, its main move, then each alternative and its whole line, then the main move's line."""
    out = []
    boards = {id(game): (game.board(), 0, False)}  # node: its position, ply, on a variation
    tasks = [("children", game)]
    while tasks:
        kind, node = tasks.pop()
        if kind == "emit":
            parent = node.parent
            board, ply, on_var = boards[id(parent)]
            b = board.copy(stack=False)
            try:
                b.push(node.move)
            except (AssertionError, ValueError):
                continue
            var = on_var or parent.variations[0] is not node
            boards[id(node)] = (b, ply + 1, var)
            if var and test(b):
                out.append(ply + 1)
            continue
        if id(node) not in boards or not node.variations:
            continue
        main, alts = node.variations[0], node.variations[1:]
        order = [("emit", main)]
        for alt in alts:
            order += [("emit", alt), ("children", alt)]
        order.append(("children", main))
        tasks.extend(reversed(order))
    return out


QUERIES = [
    ("exact FEN: 1. e4 e5 2. Nf3 Nc6", ["--fen", OPEN], exact(OPEN)),
    ("exact FEN: Najdorf", ["--fen", NAJDORF], exact(NAJDORF)),
    ("exact EPD: 1. d4 Nf6 2. c4 e6", ["--fen", QGD.rsplit(" ", 2)[0] + " id \"qgd\";"], exact(QGD)),
    ("exact FEN with e3 (no legal en passant)", ["--fen", AFTER_E4], exact(AFTER_E4)),
    ("exact FEN, both kings castled, written KQkq (rights it cannot have: dropped)",
     ["--fen", CASTLED_KQKQ], exact(CASTLED_KQKQ)),
    ("exact FEN, a Chess960 start in X-FEN (KQkq: the outermost rooks)",
     ["--fen", START_960], exact(START_960)),
    ("sub-FEN: Bb5, Nc6", ["--subfen", "8/8/2n5/1B6/8/8/8/8"], subfen("8/8/2n5/1B6/8/8/8/8")),
    ("sub-FEN + side: d5 e5 pawns (White's e5, Black's d5), Black to move",
     ["--subfen", "8/8/8/3pP3/8/8/8/8 b"], subfen("8/8/8/3pP3/8/8/8/8", B)),
    ("sub-FEN: castled kings g1 g8 with rooks f1 f8", ["--subfen", "5rk1/8/8/8/8/8/8/5RK1"],
     subfen("5rk1/8/8/8/8/8/8/5RK1")),
    # the pruning rules of a pattern (docs/search.md § How far a game is replayed): pawns that
    # must get to their squares (forward only, a file a capture, en passant), bishops by the
    # colour of their squares, promotions
    ("sub-FEN: a black bishop on g7 and a white pawn on e5",
     ["--subfen", "8/6b1/8/4P3/8/8/8/8"], subfen("8/6b1/8/4P3/8/8/8/8")),
    ("sub-FEN: a white pawn on b6 and a black pawn on g3, White to move",
     ["--subfen", "8/8/1P6/8/8/6p1/8/8 w"], subfen("8/8/1P6/8/8/6p1/8/8", W)),
    ("sub-FEN: two white bishops, c4 and d4 (a light and a dark square)",
     ["--subfen", "8/8/8/8/2BB4/8/8/8"], subfen("8/8/8/8/2BB4/8/8/8")),
    ("sub-FEN: a white queen on b8 and a black king on h8", ["--subfen", "1Q5k/8/8/8/8/8/8/8"],
     subfen("1Q5k/8/8/8/8/8/8/8")),
    ("sub-FEN with an empty square: Bb5, Nc6, d7 empty", ["--subfen", "8/3_4/2n5/1B6/8/8/8/8"],
     subfen("8/3_4/2n5/1B6/8/8/8/8")),
    ("sub-FEN with empty squares: Kg1 behind pawns f2 g2 h2, f3 g3 h3 empty",
     ["--subfen", "8/8/8/8/8/5___/5PPP/6K1"], subfen("8/8/8/8/8/5___/5PPP/6K1")),
    ("-w: Bb5, Nc6, in games where White is rated 2000 or more",
     ["--subfen", "8/8/2n5/1B6/8/8/8/8", "-w", "WhiteElo>=2000"],
     where("WhiteElo", 2000, subfen("8/8/2n5/1B6/8/8/8/8"))),
    ("--variations: a black knight on c6, White to move, variations searched too",
     ["--subfen", "8/8/2n5/8/8/8/8/8 w", "--variations"],
     variations(subfen("8/8/2n5/8/8/8/8/8", W))),
    ("material exact: KRPkr", ["--material", "KRPkr"], material_exact("RP", "R")),
    ("material exact: KQkq", ["--material", "KQkq"], material_exact("Q", "Q")),
    ("material ranges: [BN]2+ Q=0 q=0 (White two minors or more, no queens)",
     ["--material", "[BN]2+ Q=0 q=0"],
     lambda b: count(b, W, BI, N) >= 2 and count(b, W, Q) == 0 and count(b, B, Q) == 0),
    ("material ranges: R2- r>=2 P>4",
     ["--material", "R2- r>=2 P>4"],
     lambda b: count(b, W, R) <= 2 and count(b, B, R) >= 2 and count(b, W, P) > 4),
    ("sequence: 1. e4 e5 2. Nf3 Nc6, then Bb5 within 1 ply",
     ["--fen", OPEN, "--then", "subfen:8/8/8/1B6/8/8/8/8", "--within", "1"],
     seq([exact(OPEN), subfen("8/8/8/1B6/8/8/8/8")], 1)),
    ("sequence: White castled short, then no queens within 20 plies",
     ["--subfen", "8/8/8/8/8/8/8/5RK1", "--then", "material:Q=0 q=0", "--within", "20"],
     seq([subfen("8/8/8/8/8/8/8/5RK1"), lambda b: count(b, W, Q) == 0 and count(b, B, Q) == 0], 20)),
    ("sequence: White castled short, no queens within 20 plies, then a rook ending any time later",
     ["--subfen", "8/8/8/8/8/8/8/5RK1", "--then", "material:Q=0 q=0", "--within", "20",
      "--then", "material:R r [BN]=0 [bn]=0"],
     seq([subfen("8/8/8/8/8/8/8/5RK1"), lambda b: count(b, W, Q) == 0 and count(b, B, Q) == 0,
          lambda b: (count(b, W, R) == 1 and count(b, B, R) == 1 and count(b, W, BI, N) == 0
                     and count(b, B, BI, N) == 0)], [20, None])),
    ("ply range: a white knight on d4, plies 10 to 20",
     ["--subfen", "8/8/8/8/3N4/8/8/8", "--min-ply", "10", "--max-ply", "20"],
     ("range", subfen("8/8/8/8/3N4/8/8/8"), 10, 20)),
]


def plies_of(test, boards, game=None):
    """The plies where `test` (a position test, a sequence, a ply range, a key test, variations)
    matches; with variations, (the main line's plies, the variations') when either holds one."""
    if callable(test):
        return [i for i, b in enumerate(boards) if test(b)]
    if test[0] == "where":
        _, tag, at_least, t = test
        x = tag_number(game, tag)
        return plies_of(t, boards, game) if x is not None and x >= at_least else []
    if test[0] == "variations":
        t = test[1]
        main = plies_of(t, boards, game)
        var = variation_plies(game, t) if boards else []
        return (tuple(main), tuple(var)) if main or var else []
    if test[0] == "range":
        _, t, lo, hi = test
        return [i for i, b in enumerate(boards) if lo <= i <= hi and t(b)]
    _, steps, within = test
    last = [None] * len(steps)
    out = []
    for i, b in enumerate(boards):
        for k in range(len(steps) - 1, 0, -1):
            if (last[k - 1] is not None and (within[k] is None or i - last[k - 1] <= within[k])
                    and steps[k](b)):
                last[k] = i
        if steps[0](b):
            last[0] = i
        if last[-1] == i:
            out.append(i)
    return out


def python_chess(path):
    """Per game of `path` (in python-chess's reading): its byte range and, per query, plies."""
    with open(path, "rb") as f:
        fh = Lines(f.read())
    out = []
    while True:
        start = fh.tell()
        try:
            game = chess.pgn.read_game(fh, Visitor=FirstTags)
        except Exception:
            out.append({"start": start, "end": fh.tell(), "raised": True})
            continue
        if game is None:
            break
        try:
            board = game.board()
        except ValueError:  # a variant python-chess does not know: kifu does not replay it either
            board = None
        boards = []
        if type(board) is chess.Board and not any(
                isinstance(e, ValueError) and "variant" in str(e) for e in game.errors):
            boards.append(board.copy(stack=False))
            for mv in game.mainline_moves():
                board.push(mv)
                boards.append(board.copy(stack=False))
        hits = {}
        for qi, (_, _, test) in enumerate(QUERIES):
            p = plies_of(test, boards, game)
            if p:
                hits[qi] = p
        out.append({"start": start, "end": fh.tell(), "hits": hits})
    return out


def kifu_find(kifu, args, paths):
    """kifu's matching games: {(file, offset): plies}."""
    r = subprocess.run([kifu, "find", "--to", "jsonl", "-q", *args, *paths], capture_output=True)
    if r.returncode not in (0, 1):
        sys.exit("kifu find %s: exit %d: %s" % (args, r.returncode, r.stderr.decode()))
    found = {}
    for line in r.stdout.decode().splitlines():
        g = json.loads(line)
        if "--variations" in args:
            found[(g["file"], g["offset"])] = (tuple(g["matched_plies"]),
                                               tuple(g["matched_variation_plies"]))
        else:
            found[(g["file"], g["offset"])] = g["matched_plies"]
    return found


SHIFTED = "pairing shifted by a game python-chess reads from text between games"
LINE = "main lines read to a different move"
RAISED = "python-chess raised an exception reading the game"
UNEXPLAINED = "unexplained"
CATEGORIES = [SHIFTED, LINE, RAISED]

_kifu_games = {}
_python_lines = {}


def kifu_offsets(kifu, paths):
    """Where each kifu game starts: {file: [byte offsets, in order]}."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "games.csv")
        r = subprocess.run([kifu, "export", "-q", "--to", "csv", "--columns", "file,byte_offset",
                            "-o", out, *paths], capture_output=True)
        if r.returncode not in (0, 1):
            sys.exit("kifu export: exit %d: %s" % (r.returncode, r.stderr.decode()))
        offsets = collections.defaultdict(list)
        with open(out, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                offsets[row["file"]].append(int(row["byte_offset"]))
    return {k: sorted(v) for k, v in offsets.items()}


def kifu_games(kifu, path):
    """kifu's games of `path`, in order: [(offset, main line as UCI, as far as python-chess
    replays kifu's SAN)]."""
    if path not in _kifu_games:
        r = subprocess.run([kifu, "json", "-q", path], capture_output=True)
        games = []
        for line in r.stdout.decode().splitlines():
            g = json.loads(line)
            tags = dict((k, v) for k, v in g["tags"])
            games.append((g["offset"], replayed(tags.get("FEN"), tags.get("Variant"),
                                                [m["san"] for m in g["moves"]])))
        _kifu_games[path] = games
    return _kifu_games[path]


def replayed(fen, variant, sans):
    """The main line as python-chess replays these SAN moves (UCI), to the first it cannot."""
    if variant and variant.lower() not in ("standard", "chess", "from position"):
        return None
    try:
        board = chess.Board(fen) if fen else chess.Board()
    except ValueError:
        return None
    line = []
    for san in sans:
        try:
            mv = board.parse_san(san)
        except ValueError:
            break
        line.append(mv.uci())
        board.push(mv)
    return line


def python_line(path, start):
    """The main line python-chess reads for its game at byte `start` (UCI), None if it raised."""
    if path not in _python_lines:
        with open(path, "rb") as f:
            _python_lines[path] = Lines(f.read())
    fh = _python_lines[path]
    fh.k = bisect.bisect_left([o for _, o in fh.lines], start)
    try:
        game = chess.pgn.read_game(fh)
    except Exception:
        return None
    if game is None:
        return []
    return [mv.uci() for mv in game.mainline_moves()]


def classify(kifu, path, ref, j, qi, got, want, found):
    """The category of python-chess's game `j` whose plies for query `qi` differ (kifu `got`,
    python-chess `want`); `found`: kifu's matches in the file, [(offset, plies)]."""
    g = ref[j]
    if g.get("raised") and isinstance(got, tuple) and not got[0]:
        # python-chess 1.11.2's reader fails on some games (an IndexError on a variation that
        # follows an illegal one): it gives no answer to compare, and kifu's is in variations
        # only (an answer on the main line stays unexplained)
        return RAISED
    games = kifu_games(kifu, path)
    offsets = [o for o, _ in games]
    plies = dict(found)
    i = bisect.bisect_left(offsets, g["start"])
    theirs = python_line(path, g["start"])
    if theirs is None:
        return UNEXPLAINED
    if i >= len(games) or games[i][0] >= g["end"]:
        # no kifu game starts in what python-chess read as this game: kifu reads its text as part
        # of the game before (the one that starts before it), whose main line, as kifu reads it,
        # is this one (the pairing shifted), or the text holds no move at all
        if i > 0 and games[i - 1][1] == theirs and plies.get(games[i - 1][0]) == want:
            return SHIFTED
        if not theirs:
            return SHIFTED
        return UNEXPLAINED
    mine = games[i][1]
    if mine is None:
        return UNEXPLAINED
    if mine != theirs:
        # kifu's game is the one python-chess reads as its next game (python-chess read text
        # before it as a game of its own)
        if j + 1 < len(ref) and "hits" in ref[j + 1]:
            nxt = python_line(path, ref[j + 1]["start"])
            if nxt == mine and ref[j + 1]["hits"].get(qi) == got:
                return SHIFTED
        common = 0
        while common < min(len(mine), len(theirs)) and mine[common] == theirs[common]:
            common += 1
        # the plies of the positions both lines reach (ply p: after p moves); with variations,
        # theirs the same
        if isinstance(got, tuple) or isinstance(want, tuple):
            if (got[1] if got else ()) != (want[1] if want else ()):
                return UNEXPLAINED
            got, want = got[0] if got else [], want[0] if want else []
        if [p for p in got or [] if p <= common] == [p for p in want or [] if p <= common]:
            return LINE
    return UNEXPLAINED


def files_of(args):
    paths = []
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                paths += [os.path.join(root, n) for n in names if n.lower().endswith(".pgn")]
        else:
            paths.append(a)
    return sorted(paths)


def explore_reference(path, fen=None, pattern=None):
    """python-chess's explorer rows: {(epd, uci): [games, white, draws, black, elo_sum, elo_n, last_date]},
    uci None for the games whose main line ends at the position (kifu's row `end`)."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0, None])
    target = chess.Board(fen).epd() if fen else None
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            try:
                board = game.board()
            except ValueError:
                continue
            moves = list(game.mainline_moves())
            seen = set()
            for mv in moves + [None]:
                epd = board.epd()
                if (target is not None and epd == target) or (pattern is not None and pattern(board)):
                    key = (epd, mv.uci() if mv else None)
                    if key not in seen:
                        seen.add(key)
                        r = rows[key]
                        r[0] += 1
                        res = game.headers.get("Result", "*")
                        r[1] += res == "1-0"
                        r[2] += res == "1/2-1/2"
                        r[3] += res == "0-1"
                        tag = "WhiteElo" if board.turn == W else "BlackElo"
                        try:
                            e = int(game.headers.get(tag, ""))
                            if e > 0:
                                r[4] += e
                                r[5] += 1
                        except ValueError:
                            pass
                        d = game.headers.get("UTCDate", "")
                        if not d or d.startswith("?"):
                            d = game.headers.get("Date", "")
                        d = d.strip()
                        if d and d[:4].isdigit() and (r[6] is None or d.replace("?", "0") > r[6].replace("?", "0")):
                            r[6] = d
                if mv:
                    board.push(mv)
    return rows


def compare_explore(kifu, path, show):
    cases = [("the start position", ["--fen", chess.STARTING_FEN], chess.STARTING_FEN, None),
             ("after 1. e4 e5 2. Nf3 Nc6", ["--fen", OPEN], OPEN, None),
             ("pattern: a black knight on c6, White to move", ["--subfen", "8/8/2n5/8/8/8/8/8 w"], None,
              subfen("8/8/2n5/8/8/8/8/8", W))]
    ok_all = True
    for name, args, fen, pattern in cases:
        r = subprocess.run([kifu, "explore", "--json", "-q", *args, path], capture_output=True)
        mine = {}
        for line in r.stdout.decode().splitlines():
            o = json.loads(line)
            mine[(o["fen"], o["uci"])] = o
        ref = explore_reference(path, fen, pattern)
        bad = []
        for key in sorted(set(mine) | set(ref), key=lambda k: (k[0], k[1] or "")):
            m, x = mine.get(key), ref.get(key)
            if m is None or x is None:
                bad.append("%s %s: only in %s" % (key[0], key[1], "kifu" if x is None else "python-chess"))
                continue
            mean = x[4] / x[5] if x[5] else None
            got = (m["games"], m["white"], m["draws"], m["black"], m["last_date"])
            want = (x[0], x[1], x[2], x[3], x[6])
            if got != want or (mean is None) != (m["mean_elo"] is None) or (
                    mean is not None and abs(mean - m["mean_elo"]) > 1e-6):
                bad.append("%s %s: kifu %s mean %s / python-chess %s mean %s" % (key[0], key[1], got, m["mean_elo"], want, mean))
        print("explore %s: %d rows, %d plays (python-chess %d rows); differing rows: %d"
              % (name, len(mine), sum(o["games"] for o in mine.values()), len(ref), len(bad)))
        for line in bad[:show]:
            print("   " + line)
        ok_all &= not bad
    return ok_all


def main(argv):
    show, jobs, explore = 5, os.cpu_count() or 1, None
    for flag in ("--show", "--jobs", "--explore"):
        if flag in argv:
            i = argv.index(flag)
            v = argv[i + 1]
            del argv[i:i + 2]
            if flag == "--show":
                show = int(v)
            elif flag == "--jobs":
                jobs = int(v)
            else:
                explore = v
    if len(argv) < 2:
        print(__doc__)
        return 2
    kifu, paths = argv[0], files_of(argv[1:])
    with multiprocessing.Pool(jobs) as pool:
        refs = dict(zip(paths, pool.map(python_chess, paths, chunksize=1)))
    offsets = kifu_offsets(kifu, paths)
    ok = True
    totals = collections.Counter()
    print("%d files, %d python-chess games" % (len(paths), sum(len(v) for v in refs.values())))
    for qi, (name, args, _) in enumerate(QUERIES):
        found = kifu_find(kifu, args, paths)
        per_file = collections.defaultdict(list)
        for (f, off), plies in found.items():
            per_file[f].append((off, plies))
        agree = differ = kifu_n = ref_n = unpaired = 0
        bad = []
        categories = collections.Counter()
        for path in paths:
            ref = refs[path]
            # each python-chess game with the first kifu game that starts in its bytes
            offs = offsets.get(path, [])
            mine = dict(per_file.get(path, []))
            paired = set()
            for j, g in enumerate(ref):
                want = g.get("hits", {}).get(qi)
                i = bisect.bisect_left(offs, g["start"])
                got = None
                if i < len(offs) and offs[i] < g["end"]:
                    paired.add(offs[i])
                    got = mine.get(offs[i])
                kifu_n += got is not None
                ref_n += want is not None
                if got == want:
                    agree += got is not None
                else:
                    differ += 1
                    why = classify(kifu, path, ref, j, qi, got, want, per_file.get(path, []))
                    categories[why] += 1
                    bad.append("%s game at byte %d: kifu %s / python-chess %s: %s"
                               % (path, g["start"], got, want, why))
            unpaired += sum(1 for off in mine if off not in paired)
        print("## %s (kifu find %s)" % (name, " ".join(args)))
        print("   games matched: kifu %d, python-chess %d; agreeing %d; differing %d; kifu games not paired %d"
              % (kifu_n, ref_n, agree, differ, unpaired))
        for cat in CATEGORIES:
            if categories[cat]:
                print("   %-52s %d" % (cat + ":", categories[cat]))
        print("   unexplained: %d" % categories[UNEXPLAINED])
        # every unexplained difference, then the first others
        shown = [b for b in bad if b.endswith(": " + UNEXPLAINED)]
        shown += [b for b in bad if not b.endswith(": " + UNEXPLAINED)][:show]
        for line in shown:
            print("   " + line)
        totals.update(categories)
        ok &= categories[UNEXPLAINED] == 0
    print("differences over all queries: " + ", ".join(
        "%s %d" % (cat, totals[cat]) for cat in CATEGORIES + [UNEXPLAINED]))
    if explore:
        ok &= compare_explore(kifu, explore, show)
    print("no unexplained difference" if ok else "unexplained differences, or explore rows differing")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
