#!/usr/bin/env python3
"""Go replay beside sgfmill 1.1.1, game tree by game tree, on SGF files.

Usage:
  replay_compare_go.py DUMP_BIN FILE|DIR... [--show N] [--jobs N]

DUMP_BIN is kifu-replay's example `replay_dump` (cargo build --release -p kifu-replay --example
replay_dump). For every game tree of every file, on both sides: the position after the main
line, the prisoners each side holds, the number of main-line moves, and the moves that are
rejected.

sgfmill's side is its documented path: sgf_grammar.parse_sgf_collection, then per tree
sgf.Sgf_game.from_coarse_game_tree (override_encoding="ISO-8859-1", so that an unknown CA does
not stop it: only points matter here), sgf_moves.get_setup_and_moves, and boards.Board.play for
each move. Board.play raises ValueError on an occupied point: the harness records the move as
rejected and goes on without it (kifu does the same: `occupied_point`, not played). Prisoners are
counted from the stones each play removes (a suicide's own stones go to the opponent, as kifu
counts them). Board.play does not check ko and plays suicide, so kifu's `ko_violation` and
`suicide` reports have no counterpart: they are counted, not compared. The ko points are: after
each main-line move, the point Board.play returns as forbidden by simple ko against the one
kifu's board holds for the opponent (`replay_dump`'s `kos`, the SGF positions table's
`ko_point`), move by move.

Where get_setup_and_moves refuses a tree for setup properties after the root node (legal in FF[4]),
the harness replays it itself: the main sequence's setup points set as FF[4] says (no capture), the
moves played with Board.play; such trees are counted apart.

Trees are paired by index in their file. Needs sgfmill==1.1.1 (the oracle venv of
../shared/oracle/README.md).
"""
import collections
import json
import multiprocessing
import os
import subprocess
import sys

from sgfmill import boards, sgf, sgf_grammar, sgf_moves, sgf_properties


def sgfmill_file(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        coarse = sgf_grammar.parse_sgf_collection(data)
    except ValueError as e:
        return {"file_error": str(e)}
    out = []
    for c in coarse:
        rec = {}
        try:
            game = sgf.Sgf_game.from_coarse_game_tree(c, override_encoding="ISO-8859-1")
        except ValueError as e:
            out.append({"error": "Sgf_game: %s" % e})
            continue
        extended = False
        try:
            board, moves = sgf_moves.get_setup_and_moves(game)
            setups = {}
        except ValueError as e:
            if "setup properties after the root node" not in str(e):
                out.append({"error": "get_setup_and_moves: %s" % e})
                continue
            # FF[4] allows setup in any node: the harness applies it itself (points set, no
            # capture, as FF[4] says), then plays the moves with Board.play as above
            extended = True
            board = boards.Board(game.get_size())
            moves, setups, bad = [], {}, None
            for node in game.get_main_sequence():
                ab, aw, ae = node.get_setup_stones()
                if ab or aw or ae:
                    setups.setdefault(len(moves), []).append((ab, aw, ae))
                colour, raw = node.get_raw_move()
                if colour is not None:
                    try:
                        moves.append((colour, sgf_properties.interpret_go_point(raw, game.get_size())))
                    except ValueError as e2:
                        bad = e2
                        break
            if bad is not None:
                out.append({"error": "get_setup_and_moves: %s" % bad})
                continue
        size = board.side
        caps = {"b": 0, "w": 0}
        rejected = []
        kos = []

        def count(colour):
            return sum(1 for row in board.board for p in row if p == colour)

        def apply_setup(i):
            for ab, aw, ae in setups.get(i, []):
                for pts, what in ((ab, "b"), (aw, "w"), (ae, None)):
                    for (row, col) in pts:
                        board.board[row][col] = what

        for i, (colour, move) in enumerate(moves):
            apply_setup(i)
            if move is None:
                continue
            row, col = move
            opp = "w" if colour == "b" else "b"
            before_opp, before_own = count(opp), count(colour)
            try:
                ko = board.play(row, col, colour)
            except ValueError:
                rejected.append(i)
                continue
            if ko is not None:
                # sgfmill's (row, col) from the bottom; kifu's (x, y) from the top
                kos.append([i, ko[1], size - 1 - ko[0]])
            caps[colour] += before_opp - count(opp)
            caps[opp] += before_own + 1 - count(colour)
        apply_setup(len(moves))
        rows = []
        for r in range(size - 1, -1, -1):
            rows.append("".join({"b": "X", "w": "O", None: "."}[board.get(r, col)] for col in range(size)))
        rec.update(size=size, board=rows, captures=[caps["b"], caps["w"]], moves=len(moves), rejected=rejected,
                   extended=extended, kos=kos)
        out.append(rec)
    return {"trees": out}


def classify(mine, ref):
    if "error" in ref:
        e = ref["error"]
        kinds = sorted({x[0] for x in mine["errors"]})
        if "setup position not legal" in e:
            return ("sgfmill refuses the setup (it removes stones without liberties and raises); "
                    "kifu sets the points as FF[4] says", e)
        if "setup properties after the root node" in e:
            return ("sgfmill refuses setup after the root node (legal FF[4]); kifu applies it", e)
        if "mixed setup and moves in root node" in e:
            return ("sgfmill refuses setup and a move in the root node; kifu applies the setup, then the move", e)
        if "off board" in e or "point" in e:
            return ("sgfmill refuses the whole game for a point off the board; kifu reports out_of_board "
                    "for that move and plays the rest", "%s; kifu %s" % (e, kinds))
        return ("sgfmill cannot read the game: " + e.split(":")[0] + ": " + e.split(":", 1)[1].strip()[:60], e)
    if not mine["go"]:
        return ("kifu does not replay it (GM is not 1); sgfmill does", "")
    if mine["size"] != [ref["size"], ref["size"]]:
        return ("board size differs", "kifu %s / sgfmill %s" % (mine["size"], ref["size"]))
    mine_rejected = [x[1] for x in mine["errors"] if x[0] == "occupied_point"]
    if mine["moves"] != ref["moves"]:
        return ("main-line move count differs", "kifu %d / sgfmill %d" % (mine["moves"], ref["moves"]))
    if mine_rejected != ref["rejected"]:
        return ("rejected moves differ", "kifu %s / sgfmill %s" % (mine_rejected, ref["rejected"]))
    if mine["board"] != ref["board"]:
        k = next(i for i in range(len(mine["board"])) if mine["board"][i] != ref["board"][i])
        return ("final position differs", "row %d: kifu %s / sgfmill %s" % (k, mine["board"][k], ref["board"][k]))
    if mine["captures"] != ref["captures"]:
        return ("captures differ", "kifu %s / sgfmill %s" % (mine["captures"], ref["captures"]))
    if mine["kos"] != ref["kos"]:
        k = next((a, b) for a, b in zip(mine["kos"] + [None], ref["kos"] + [None]) if a != b)
        return ("ko points differ", "first: kifu %s / sgfmill %s" % k)
    return None


def compare(args):
    dump, path = args
    r = subprocess.run([dump, "go", path], capture_output=True)
    mine = [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]
    ref = sgfmill_file(path)
    res = {"trees": 0, "agree": 0, "agree_extended": 0, "moves": 0, "rejected": 0, "kos": 0,
           "cats": collections.defaultdict(list),
           "file_error": None, "count": None, "kinds": collections.Counter()}
    for m in mine:
        for e in m["errors"]:
            res["kinds"][e[0]] += 1
    if "file_error" in ref:
        res["file_error"] = ref["file_error"]
        return res
    ref = ref["trees"]
    if len(mine) != len(ref):
        res["count"] = (len(mine), len(ref))
    for i in range(min(len(mine), len(ref))):
        res["trees"] += 1
        why = classify(mine[i], ref[i])
        if why is None and ref[i].get("extended"):
            res["agree_extended"] += 1
        elif why is None:
            res["agree"] += 1
            res["moves"] += mine[i]["moves"]
            res["rejected"] += len(ref[i]["rejected"])
            res["kos"] += len(ref[i]["kos"])
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
                paths += [os.path.join(root, n) for n in names if n.lower().endswith(".sgf")]
        else:
            paths.append(a)
    paths.sort()
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(compare, [(dump, p) for p in paths], chunksize=16)
    trees = agree = moves = rejected = agree_ext = kos = 0
    cats = collections.defaultdict(list)
    file_errors, counts = [], []
    kinds = collections.Counter()
    for p, r in zip(paths, results):
        trees += r["trees"]
        agree += r["agree"]
        agree_ext += r["agree_extended"]
        moves += r["moves"]
        rejected += r["rejected"]
        kos += r["kos"]
        kinds.update(r["kinds"])
        for k, v in r["cats"].items():
            cats[k] += v
        if r["file_error"]:
            file_errors.append("%s: %s" % (p, r["file_error"]))
        if r["count"]:
            counts.append("%s: kifu %d trees / sgfmill %d" % (p, *r["count"]))
    for k in sorted(cats, key=lambda k: -len(cats[k])):
        print("## %s: %d tree(s)" % (k, len(cats[k])))
        for line in sorted(cats[k])[:show]:
            print("   " + line)
    if file_errors:
        print("## files sgfmill cannot parse at all (parse_sgf_collection raises): %d" % len(file_errors))
        for line in file_errors[:show]:
            print("   " + line)
    if counts:
        print("## files where the tree counts differ (paired by index up to the shorter): %d" % len(counts))
        for line in counts[:show]:
            print("   " + line)
    print("kifu replay problems reported (all trees): %s" % dict(kinds))
    print("files: %d, trees paired: %d, agree: %d (%.3f%%), and %d more where sgfmill's get_setup_and_moves "
          "refuses setup after the root and the harness applies it (%.3f%% together); main-line moves in "
          "agreeing trees: %d, moves rejected by both at the same place: %d, ko points equal: %d"
          % (len(paths), trees, agree, 100.0 * agree / max(trees, 1), agree_ext,
             100.0 * (agree + agree_ext) / max(trees, 1), moves, rejected, kos))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
