#!/usr/bin/env python3
"""Times the references replaying whole files, for scripts/replay_bench_python.sh.

Usage: replay_time_python.py chess|go FILE...

chess: python-chess 1.11.2, chess.pgn.read_game in a loop (the default GameBuilder replays every
       move, variations included, as kifu's Replayer does), errors collected, not logged.
go:    sgfmill 1.1.1, per game tree: Sgf_game.from_coarse_game_tree, get_setup_and_moves and
       Board.play for every move (occupied points skipped).
Prints one JSON line: files, bytes, games, seconds (wall) and cpu_seconds (time.process_time).
"""
import json
import logging
import os
import sys
import time

logging.disable(logging.CRITICAL)


def chess_run(paths):
    import chess.pgn

    class Quiet(chess.pgn.GameBuilder):
        def handle_error(self, error):
            self.game.errors.append(error)

    games = 0
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as fh:
            while True:
                try:
                    g = chess.pgn.read_game(fh, Visitor=Quiet)
                except Exception:
                    continue
                if g is None:
                    break
                games += 1
    return games


def go_run(paths):
    from sgfmill import sgf, sgf_grammar, sgf_moves
    games = 0
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        try:
            coarse = sgf_grammar.parse_sgf_collection(data)
        except ValueError:
            continue
        for c in coarse:
            try:
                game = sgf.Sgf_game.from_coarse_game_tree(c, override_encoding="ISO-8859-1")
                board, moves = sgf_moves.get_setup_and_moves(game)
            except ValueError:
                continue
            games += 1
            for colour, move in moves:
                if move is not None:
                    try:
                        board.play(move[0], move[1], colour)
                    except ValueError:
                        pass
    return games


def main(argv):
    mode, paths = argv[0], argv[1:]
    t0, c0 = time.perf_counter(), time.process_time()
    games = chess_run(paths) if mode == "chess" else go_run(paths)
    t1, c1 = time.perf_counter(), time.process_time()
    size = sum(os.path.getsize(p) for p in paths)
    print(json.dumps({"tool": "python-chess" if mode == "chess" else "sgfmill", "files": len(paths),
                      "bytes": size, "games": games, "seconds": round(t1 - t0, 6),
                      "cpu_seconds": round(c1 - c0, 6)}))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
