# %% [markdown]
# # A tour of kifu from Python
#
# A notebook-style script (cells marked `# %%`, as Jupyter, VS Code and Spyder read them):
# run it whole with `python python/examples/tour.py [PGN_OR_DIR [SGF_OR_DIR]]`, or cell by cell.
# Without arguments it makes its own small files in a temporary directory.

# %%
import gzip
import pathlib
import sys
import tempfile
import time

import kifu

print("kifu", kifu.__version__)
work = pathlib.Path(tempfile.mkdtemp(prefix="kifu-tour-"))

PGN = """[Event "Paris"]
[White "Morphy, Paul"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[WhiteElo "2690"]

1. e4 {[%clk 0:03:00]} e5 2. Nf3 d6 3. d4 Bg4 $6 4. dxe5 Bxf3 5. Qxf3 dxe5
6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5! cxb5 11. Bxb5+ Nbd7
12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 (14... Qb4 15. Bxf6 gxf6 16. Qxb4)
15. Bxd7+ Nxd7 16. Qb8+!! Nxb8 17. Rd8# 1-0

[Event "A sloppy record"]
[Result "*"]

1. d4 d5 2. c4 e6 ??? 3. Nc3 Nf6 *
"""
SGF = "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Shusaku]PW[Gennan]RE[B+R];B[ee];W[cc](;B[gc];W[])(;B[gg]))"

pgn_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else work / "games.pgn.gz"
sgf_path = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else work / "games.sgf"
if len(sys.argv) <= 1:
    pgn_path.write_bytes(gzip.compress(PGN.encode()))  # compressed input is read as it is
if len(sys.argv) <= 2:
    sgf_path.write_text(SGF)

# %% [markdown]
# ## Games as Python objects
# `read_pgn` takes a path (plain, compressed, an archive, a directory), bytes, or a binary file
# object, and yields one `Game` at a time, parsed on a thread of its own.

# %%
for game in kifu.read_pgn(pgn_path):
    print(game, game.tags.get("White"), game.sans[:6])
    for problem in game.errors:  # problems are data: located, never exceptions
        print("  ", problem)
    if game.index == 2:
        break

# %%
first = next(iter(kifu.read_pgn(pgn_path, replay="fen")))
qe6 = first.moves[27]
print(qe6.number, qe6.san, "variation:", [m.san for m in qe6.variations[0].moves])
print("clock after 1. e4:", first.moves[0].clock, "s; UCI:", first.uci[:4])
print("final position:", first.final_fen)

# %% [markdown]
# ## Any binary stream, in constant memory
# A file object is read in chunks (`read(n)`) on the parsing thread: a socket, `sys.stdin.buffer`,
# a pyarrow or fsspec stream of an object store. Bytes work too.

# %%
with open(pgn_path, "rb") as f:
    print("from a file object:", sum(1 for _ in kifu.read_pgn(f, name="stream.pgn.gz")), "games")
print("from bytes, on two threads:", [g.plies for g in kifu.read_pgn(pgn_path.read_bytes(), threads=2)])

# %% [markdown]
# ## Problems, counts

# %%
for d in kifu.check(pgn_path)[:5]:
    print(d.file, d.line, d.column, d.kind, repr(d.text), d.move)
print(kifu.stats(pgn_path))

# %% [markdown]
# ## SGF game trees

# %%
for tree in kifu.read_sgf(sgf_path, replay=True):
    print(tree, tree.properties.get("PB"), tree.moves[:4], tree.board_size)
    if tree.final_board is not None:
        cols, rows = tree.board_size
        print("\n".join("".join(".XO"[b] for b in tree.final_board[r * cols:(r + 1) * cols]) for r in range(rows)))
    break

# %% [markdown]
# ## Tables: Arrow, pandas, Polars, DuckDB, Parquet
# `to_arrow` returns a `pyarrow.RecordBatchReader` over the Arrow C stream: the batches are built
# on every core and handed over without a copy.

# %%
try:
    import pyarrow  # noqa: F401

    games = kifu.to_arrow(pgn_path).read_all()
    print(games.select(["game_index", "White", "WhiteElo", "plies", "outcome", "error_count"]).to_pandas())
    moves = kifu.to_arrow(pgn_path, "moves").read_pandas()
    print(moves[["game_index", "ply", "san", "clock"]].head())
    summary = kifu.to_parquet(pgn_path, work / "games.parquet", force=True)
    print(summary)
    try:
        import duckdb

        print(duckdb.sql(f"SELECT outcome, count(*) FROM '{work / 'games.parquet'}' GROUP BY ALL").fetchall())
    except ImportError:
        pass
    positions = kifu.to_arrow(sgf_path, "positions").read_all()
    print("Go positions:", positions.num_rows, "rows; first board bytes:", len(positions.column("board")[0].as_py()))
except ImportError:
    print("pyarrow is not installed: the table examples are skipped")

# %% [markdown]
# ## A visitor in Python
# Only the methods the object defines are called; answering `"skip"` from `on_tree` skips a
# variation in the parser, `variations=False` does it without calling Python at all.

# %%
class Captures:
    def __init__(self):
        self.captures = 0
        self.moves = 0

    def on_tree(self, game, depth):
        return "skip" if depth > 0 else None

    def on_move(self, san, ply, depth):
        self.moves += 1
        self.captures += "x" in san

    def on_end(self):
        return self.captures, self.moves


t = time.perf_counter()
print("captures, moves:", kifu.visit(pgn_path, Captures()), f"{time.perf_counter() - t:.3f}s")
