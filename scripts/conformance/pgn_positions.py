#!/usr/bin/env python3
"""kifu's PGN positions table beside python-chess 1.11.2, position by position.

Usage: pgn_positions.py KIFU_BIN FILE|DIR... [--jobs N] [--show N]

For every PGN file, `kifu export FILE --table positions --to jsonl -o -` gives a row per position
of each game's main line; python-chess reads the same file (chess.pgn.read_game, standard chess
and Chess960 only) and, for every position of each game's main line (the start, then after each
move, up to the first move it cannot play), computes what the row holds:
- `bitboards`: [board.pieces_mask(t, c) for c in (WHITE, BLACK) for t in (PAWN … KING)], as
  signed 64-bit integers;
- `castling`: 1 White kingside, 2 White queenside, 4 Black kingside, 8 Black queenside
  (board.has_kingside_castling_rights / has_queenside_castling_rights);
- `ep_square`: board.ep_square (set after any double step, as python-chess sets it);
- `halfmove_clock`: board.halfmove_clock;
- `key`: chess.polyglot.zobrist_hash(board), signed; `epd`: board.epd();
- `uci`: board.uci(move) of the move played from it (null at the final position).

Games are paired by their start and moves (board.epd() of the start and the UCI of every move
played): python-chess ends a game at a blank line where kifu reads on, so indexes differ; a game
of either side with no partner is counted, by reason, not compared. A paired game agrees when
every position agrees on every column above. Exit status 1 when a paired game differs.

Run with the oracle's Python (../shared/oracle/README.md: ~/.cache/kifu-oracle/bin/python).
"""
import collections
import io
import json
import logging
import multiprocessing
import os
import subprocess
import sys

import chess
import chess.pgn
import chess.polyglot

logging.disable(logging.CRITICAL)

COLUMNS = "game_index,ply,key,epd,uci,bitboards,castling,ep_square,halfmove_clock,error"
PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]


def signed(x):
    return x - (1 << 64) if x >= 1 << 63 else x


def row_of(board, move):
    castling = (
        (1 if board.has_kingside_castling_rights(chess.WHITE) else 0)
        | (2 if board.has_queenside_castling_rights(chess.WHITE) else 0)
        | (4 if board.has_kingside_castling_rights(chess.BLACK) else 0)
        | (8 if board.has_queenside_castling_rights(chess.BLACK) else 0)
    )
    return (
        signed(chess.polyglot.zobrist_hash(board)),
        board.epd(),
        None if move is None else board.uci(move),
        tuple(signed(board.pieces_mask(t, c)) for c in (chess.WHITE, chess.BLACK) for t in PIECES),
        castling,
        board.ep_square,
        board.halfmove_clock,
    )


def kifu_games(kifu, path):
    """{(start epd, ucis): [rows of each such game]} and the count of games with rows."""
    out = subprocess.run(
        [kifu, "export", path, "--table", "positions", "--to", "jsonl", "--columns", COLUMNS,
         "-o", "-", "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False,
    ).stdout
    games = collections.defaultdict(list)
    current, rows = None, []

    def close():
        if rows:
            ucis = tuple(r[2] for r in rows if r[2] is not None)
            games[(rows[0][1], ucis)].append(rows)

    for line in io.BytesIO(out):
        r = json.loads(line)
        if r["game_index"] != current:
            close()
            current, rows = r["game_index"], []
        # a row whose move kifu could not play (`error`) is the game's last, its `uci` null: the
        # final position of python-chess's main line, which ends there too
        rows.append((r["key"], r["epd"], r["uci"], tuple(r["bitboards"]), r["castling"],
                     r["ep_square"], r["halfmove_clock"]))
    close()
    return games


def oracle_games(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            try:
                game = chess.pgn.read_game(f)
            except Exception:  # noqa: BLE001  (python-chess's own failures: not compared)
                continue
            if game is None:
                return
            try:
                board = game.board()
            except ValueError:  # a variant python-chess does not know, a FEN it cannot read
                yield None, "no board (variant or FEN)"
                continue
            if type(board) is not chess.Board:
                yield None, "variant"
                continue
            rows = []
            for move in game.mainline_moves():
                rows.append(row_of(board, move))
                board.push(move)
            rows.append(row_of(board, None))
            yield rows, None


def compare_file(args):
    kifu, path, show = args
    theirs = kifu_games(kifu, path)
    kifu_count = sum(len(v) for v in theirs.values())
    n = collections.Counter()
    shown = []
    for rows, skip in oracle_games(path):
        if skip:
            n["python-chess: " + skip] += 1
            continue
        key = (rows[0][1], tuple(r[2] for r in rows if r[2] is not None))
        games = theirs.get(key)
        if not games:
            n["python-chess game kifu has not (same start and moves)"] += 1
            continue
        mine = games.pop()
        n["paired games"] += 1
        n["positions compared"] += len(rows)
        if mine == rows:
            n["agree"] += 1
            continue
        n["DIFFER"] += 1
        if len(shown) < show:
            for ply, (a, b) in enumerate(zip(mine, rows)):
                if a != b:
                    shown.append(f"{path}: ply {ply}: kifu {a} python-chess {b}")
                    break
            else:
                shown.append(f"{path}: {len(mine)} kifu rows, {len(rows)} python-chess positions")
    left = sum(len(v) for v in theirs.values())
    n["kifu games python-chess has not"] += left
    n["kifu games"] += kifu_count
    return path, n, shown


def main(argv):
    jobs, show = os.cpu_count() or 1, 10
    for flag in ("--jobs", "--show"):
        if flag in argv:
            i = argv.index(flag)
            value = int(argv[i + 1])
            del argv[i:i + 2]
            if flag == "--jobs":
                jobs = value
            else:
                show = value
    kifu, paths = argv[0], []
    for a in argv[1:]:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                paths += [os.path.join(root, x) for x in names if x.lower().endswith(".pgn")]
        else:
            paths.append(a)
    paths.sort(key=lambda p: -os.path.getsize(p))
    total = collections.Counter()
    shown, unpaired = [], []
    with multiprocessing.Pool(jobs) as pool:
        for path, n, s in pool.imap_unordered(compare_file, [(kifu, p, show) for p in paths]):
            total += n
            shown += s
            alone = (n["kifu games python-chess has not"],
                     n["python-chess game kifu has not (same start and moves)"])
            if any(alone):
                unpaired.append((alone, path))
    for line in shown[:show]:
        print(line)
    for (k, p), path in sorted(unpaired, reverse=True)[:show]:
        print(f"unpaired: {path}: {k} of kifu's, {p} of python-chess's")
    print(f"{len(paths)} files")
    for k in sorted(total):
        print(f"{k}: {total[k]:,}")
    return 1 if total["DIFFER"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
