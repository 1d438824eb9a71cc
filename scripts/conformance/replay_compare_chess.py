#!/usr/bin/env python3
"""Chess replay beside python-chess 1.11.2, game by game, on PGN files.

Usage:
  replay_compare_chess.py DUMP_BIN FILE|DIR... [--show N] [--jobs N] [--cache DIR]

DUMP_BIN is kifu-replay's example `replay_dump` (cargo build --release -p kifu-replay --example
replay_dump). For every game, on both sides:
- the FEN after every main-line move (python-chess: `board.fen()` after `board.push`, recorded
  as chess.pgn.read_game replays the game);
- the first problem of the main line or of the game's set-up: python-chess's exception
  (IllegalMoveError, AmbiguousMoveError, InvalidMoveError, ValueError for a FEN or a variant)
  and how many main-line moves were played before it; kifu's `illegal_move`, `ambiguous_move`,
  `bad_fen`, `unsupported_variant`.
A game agrees when both have the same FENs and the same first problem at the same move. Every
disagreement is printed under a category (up to --show per category), then the counts.

Games are paired by place: a python-chess game with the first kifu game that starts inside the
bytes python-chess read for it (file.tell() before and after read_game). Needs python-chess==1.11.2 (the oracle venv of
../shared/oracle/README.md, or `scripts/replay_venv.sh`).
"""
import bisect
import collections
import json
import multiprocessing
import os
import subprocess
import sys

import chess
import chess.pgn
import logging

logging.disable(logging.CRITICAL)


class Builder(chess.pgn.GameBuilder):
    """python-chess's own GameBuilder, recording the FEN after each main-line move and the first
    main-line problem."""

    def begin_game(self):
        super().begin_game()
        self.depth = 0
        self.fens = []
        self.pending = False
        self.first = None      # [kind, moves before it, text]
        self.variant = None

    def begin_variation(self):
        self.depth += 1
        return super().begin_variation()

    def end_variation(self):
        self.depth -= 1
        return super().end_variation()

    def visit_board(self, board):
        if self.variant is None:
            self.variant = type(board).uci_variant if type(board) is not chess.Board else "chess"
        if self.pending:
            self.fens.append(board.fen())
            self.pending = False
        return super().visit_board(board)

    def visit_move(self, board, move):
        if self.depth == 0:
            self.pending = True
        return super().visit_move(board, move)

    def parse_san(self, board, san):
        try:
            return super().parse_san(board, san)
        except ValueError as e:
            if self.depth == 0 and self.first is None:
                self.first = [type(e).__name__, len(self.fens), san]
            raise

    def handle_error(self, error):
        if self.first is None and not isinstance(error, (chess.IllegalMoveError, chess.AmbiguousMoveError, chess.InvalidMoveError)):
            # a set-up problem (FEN, variant): before any move
            self.first = [type(error).__name__ + ": " + str(error), len(self.fens), ""]
        self.game.errors.append(error)

    def result(self):
        game = super().result()
        game.r_fens = self.fens
        game.r_first = self.first
        game.r_variant = self.variant
        return game


class Lines:
    """The file as text lines, as open(path, encoding="utf-8", errors="replace") reads it
    (universal newlines), with tell() giving the byte offset of the next line."""

    def __init__(self, data):
        self.lines = []
        i, n = 0, len(data)
        while i < n:
            j = i
            while j < n and data[j] not in (10, 13):
                j += 1
            end = j + (2 if data[j:j + 2] == b"\r\n" else 1 if j < n else 0)
            self.lines.append((data[i:j].decode("utf-8", "replace") + ("\n" if j < n else ""), i))
            i = end
        self.k = 0
        self.size = n

    def readline(self):
        if self.k >= len(self.lines):
            return ""
        self.k += 1
        return self.lines[self.k - 1][0]

    def tell(self):
        return self.lines[self.k][1] if self.k < len(self.lines) else self.size


def python_chess(path):
    out = []
    with open(path, "rb") as f:
        fh = Lines(f.read())
    if True:
        while True:
            start = fh.tell()
            try:
                game = chess.pgn.read_game(fh, Visitor=Builder)
            except Exception as e:  # python-chess itself raised mid-game
                out.append({"raised": "%s: %s" % (type(e).__name__, e), "start": start, "end": fh.tell()})
                continue
            if game is None:
                break
            out.append({"fens": game.r_fens, "error": game.r_first, "variant": game.r_variant,
                        "start": start, "end": fh.tell()})
    return out


KIND = {"IllegalMoveError": "illegal_move", "AmbiguousMoveError": "ambiguous_move"}


def classify(mine, ref):
    """None when they agree, else (category, detail)."""
    if "raised" in ref:
        return ("python-chess raised", ref["raised"])
    mf, rf = mine["fens"], ref["fens"]
    me, re_ = mine["error"], ref["error"]
    n = min(len(mf), len(rf))
    k = next((i for i in range(n) if mf[i] != rf[i]), None)
    if k is not None:
        return ("FEN differs", "ply %d: kifu %s / python-chess %s" % (k + 1, mf[k], rf[k]))
    if me is None and re_ is None:
        if len(mf) != len(rf):
            return ("same FENs as far as both go, but the parsers read a different number of main-line "
                    "moves (text read differently: game boundaries, non-PGN text; not a replay difference)",
                    "kifu %d / python-chess %d moves" % (len(mf), len(rf)))
        return None
    if (me is None and not mf and len(rf) >= re_[1]) or (re_ is None and not rf and len(mf) >= me[1]):
        return ("one side read no move of this game (the parsers cut the text into games differently)",
                "kifu %d moves, %s / python-chess %d moves, %s" % (len(mf), me, len(rf), re_))
    if re_ is not None and re_[0] == "InvalidMoveError":
        return ("python-chess could not read a move token (kifu read it, or skipped it as text)",
                "after %d moves: %r; kifu %s" % (re_[1], re_[2], me))
    if re_ is not None and ref.get("variant") not in (None, "chess"):
        if me is not None and me[0] == "unsupported_variant":
            return ("variant: python-chess plays it, kifu reports unsupported_variant", ref["variant"])
    if re_ is not None and re_[0].startswith("ValueError") and "unsupported variant" in re_[0]:
        if me is not None and me[0] == "unsupported_variant":
            return ("variant unknown to both: python-chess plays it as chess, kifu does not replay it", re_[0])
    if me is not None and me[0] == "unsupported_variant" and ref.get("variant") not in (None, "chess"):
        return ("variant: python-chess plays it, kifu reports unsupported_variant", ref["variant"])
    if me is None or re_ is None:
        return ("only one side reports a problem", "kifu %s / python-chess %s" % (me, re_))
    rk = KIND.get(re_[0], "bad_fen" if re_[0].startswith("ValueError") else re_[0])
    if rk != me[0] or re_[1] != me[1]:
        return ("problem differs", "kifu %s / python-chess %s" % (me, re_))
    return None


def compare(args):
    dump, path = args
    r = subprocess.run([dump, "chess", path], capture_output=True)
    mine = [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]
    ref = python_chess(path)
    res = {"games": 0, "agree": 0, "fens": 0, "errors_both": 0, "cats": collections.defaultdict(list),
           "kifu_only": [], "python_only": [], "kifu_games": len(mine), "python_games": len(ref)}
    # pair each python-chess game with the first kifu game that starts inside the bytes it read
    starts = [g["start"] for g in ref]
    used = set()
    pairs = []
    for i, m in enumerate(mine):
        j = bisect.bisect_right(starts, m["offset"]) - 1
        if j >= 0 and m["offset"] < ref[j]["end"] and j not in used:
            used.add(j)
            pairs.append((i, j))
        else:
            res["kifu_only"].append(i)
    res["python_only"] = [j for j in range(len(ref)) if j not in used]
    for i, j in pairs:
        res["games"] += 1
        why = classify(mine[i], ref[j])
        if why is None:
            res["agree"] += 1
            res["fens"] += len(mine[i]["fens"])
            if mine[i]["error"] is not None:
                res["errors_both"] += 1
        else:
            res["cats"][why[0]].append("%s game %d: %s" % (path, i, why[1]))
    return res


def main(argv):
    show, jobs = 5, os.cpu_count() or 1
    for flag in ("--show", "--jobs"):
        if flag in argv:
            i = argv.index(flag)
            v = int(argv[i + 1])
            del argv[i:i + 2]
            if flag == "--show":
                show = v
            else:
                jobs = v
    if len(argv) < 2:
        print(__doc__)
        return 2
    dump, paths = argv[0], []
    for a in argv[1:]:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                paths += [os.path.join(root, n) for n in names if n.lower().endswith(".pgn")]
        else:
            paths.append(a)
    paths.sort(key=lambda p: -os.path.getsize(p))
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(compare, [(dump, p) for p in paths], chunksize=1)
    games = agree = fens = both = 0
    cats = collections.defaultdict(list)
    mismatched = []
    kifu_games = python_games = kifu_only = python_only = 0
    for p, r in zip(paths, results):
        kifu_games += r["kifu_games"]
        python_games += r["python_games"]
        kifu_only += len(r["kifu_only"])
        python_only += len(r["python_only"])
        if r["kifu_only"] or r["python_only"]:
            mismatched.append("%s: kifu games without a python-chess game %s, python-chess games without a kifu game %s"
                              % (p, r["kifu_only"][:5], r["python_only"][:5]))
        games += r["games"]
        agree += r["agree"]
        fens += r["fens"]
        both += r["errors_both"]
        for k, v in r["cats"].items():
            cats[k] += v
    for k in sorted(cats, key=lambda k: -len(cats[k])):
        print("## %s: %d game(s)" % (k, len(cats[k])))
        for line in sorted(cats[k])[:show]:
            print("   " + line)
    if mismatched:
        print("## files where the games do not pair one to one (the parsers cut the text into games differently): %d" % len(mismatched))
        for line in mismatched[:show]:
            print("   " + line)
    print("games: kifu %d, python-chess %d; kifu games without a python-chess game: %d; python-chess games without a kifu game: %d"
          % (kifu_games, python_games, kifu_only, python_only))
    print("files: %d, games paired: %d, agree: %d (%.3f%%), main-line FENs equal in agreeing games: %d, "
          "agreeing games with the same first problem: %d"
          % (len(paths), games, agree, 100.0 * agree / max(games, 1), fens, both))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
