"""What a user's code gets from kifu's type stubs, checked by mypy --strict and pyright
(scripts/ci/python_test.sh runs both on this file; pytest does not collect it). Each
``assert_type`` says the type a checker must infer; each ``type: ignore[CODE]`` marks a call
that must be an error (mypy --strict and pyright both report an ignore that is not needed, so
the mistake staying unflagged fails the check)."""

from __future__ import annotations

import io
import pathlib
from typing import Any

import numpy
import numpy.typing
import pandas
import polars
import pyarrow
from typing_extensions import assert_type

import kifu


def games(path: pathlib.Path) -> None:
    for game in kifu.read_pgn(path):
        assert_type(game, kifu.Game)
        assert_type(game.tags, dict[str, str])
        for e in game.errors:
            assert_type(e.game, int)
    with kifu.read_pgn(str(path), replay="fen") as reader:
        assert_type(reader, kifu.Reader[kifu.Game])
        assert_type(next(reader), kifu.Game)
    reader2: kifu.PgnReader = kifu.read_pgn([path, "b.pgn"])
    reader2.close()
    for tree in kifu.read_sgf(io.BytesIO(b"(;GM[1])")):
        assert_type(tree, kifu.GameTree)
        assert_type(tree.main_line, list[kifu.Node])
    with kifu.read_sgf(b"(;GM[1])") as trees:
        assert_type(trees, kifu.SgfReader)
    kifu.read_pgn(42)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    kifu.read_pgn(open(path))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def counts(path: pathlib.Path) -> None:
    s = kifu.stats(path)
    assert_type(s["skipped"], list[str])
    assert_type(s["games"], int)
    assert_type(s["mb_per_s"], float)
    rows = kifu.stats_by(path, "year")
    assert_type(rows[0]["key"], str | None)
    problems = kifu.check(path, legal=True)
    assert_type(problems[0].to_dict()["game"], int)
    assert_type(problems[0].to_dict()["line"], int | None)
    assert_type(problems[0].kind, str)
    assert_type(problems[0].code, str | None)
    assert_type(problems[0].to_dict()["code"], str | None)


def tables(path: pathlib.Path) -> None:
    assert_type(kifu.to_arrow(path), pyarrow.RecordBatchReader)
    assert_type(kifu.to_arrow(path, "moves", raw=True), kifu.ArrowStream)
    assert_type(kifu.to_pandas(path), pandas.DataFrame)
    assert_type(kifu.to_polars(path, columns=["White"]), polars.DataFrame)
    assert_type(kifu.scan_polars(path, "trees"), polars.LazyFrame)
    written = kifu.to_parquet(path, "games.csv", force=True)
    assert_type(written["rows"], int)
    if "other" in written:
        assert_type(written["other"]["path"], str)
    kifu.to_arrow(path, "openings")  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType]
    kifu.to_parquet(path, "g.parquet", to="xlsx")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


class Captures:
    def __init__(self) -> None:
        self.n = 0

    def on_move(self, san: str, ply: int, depth: int) -> kifu.Control:
        self.n += "x" in san
        return None

    def on_end(self) -> int:
        return self.n


def visitor(path: pathlib.Path) -> None:
    kifu.visit(path, Captures(), variations=False)


def search(path: pathlib.Path) -> None:
    for found in kifu.find(path, fen="8/8/8/8/8/8/8/8 w - -"):
        assert_type(found.game, kifu.Game)
        assert_type(found.plies, list[int])
    for go in kifu.find(path, go_pattern="X.\n.O\n", anchor="corner", swap_colors=True):
        assert_type(go.game, kifu.GameTree)
    assert_type(kifu.explore(path, go_pattern=path, anchor="edge"), pyarrow.Table)
    kifu.find(path, go_pattern="X", anchor="side")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]


def arrays(path: pathlib.Path) -> None:
    for batch in kifu.positions(path, columns=["bitboards", "policy"], shuffle=100_000, seed=1):
        assert_type(batch, dict[str, numpy.typing.NDArray[Any]])
    kifu.positions(path, board_size=(19, 19), where=["BR>=5d"], format="sgf")
    kifu.positions(path, shuffle="yes")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
