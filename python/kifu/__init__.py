"""kifu: PGN (chess) and SGF (Go) game records at native speed.

Games as Python objects, problems as data (never exceptions), tables as Arrow streams and
Parquet files, a visitor API, and every core. The functions and classes are the native module
``kifu._kifu`` (Rust, through PyO3); this package adds the names that exist for typing (the
visitor protocols, ``Source``, ``Control``, ``TableName``) so that every name of the type stubs
(``__init__.pyi``) can be imported. See docs/python.md.
"""

from __future__ import annotations

import os
from typing import Any, Literal, Protocol, Sequence, Union

from ._kifu import (
    DEFAULT_MAX_GAME_BYTES,
    ArrowStream,
    Diagnostic,
    Game,
    GameTree,
    Move,
    Node,
    Reader,
    Variation,
    __version__,
    check,
    read_pgn,
    read_sgf,
    schema,
    stats,
    stats_by,
    to_arrow,
    to_parquet,
    visit,
)

class Error(Exception):
    """The base of kifu's own exceptions (usage errors are Python's: ``TypeError``,
    ``ValueError``, ``FileNotFoundError``, ``FileExistsError``)."""


class InputError(Error, OSError):
    """An input could not be read, or was cut short (a truncated ``.zst``, a corrupt archive, a
    file object whose ``read`` failed). Raised after every game read before the fault was
    delivered and the other inputs were read. ``errors`` holds ``(name, message)`` for each
    input that failed."""

    errors: list[tuple[str, str]] = []


def _reader(stream: ArrowStream) -> Any:
    """The ``pyarrow.RecordBatchReader`` of ``to_arrow`` over a kifu stream, its batches passed
    through without a copy; an error that ends the stream is raised as kifu's own exception
    (``InputError``, or ``KeyboardInterrupt`` on Ctrl-C), not as the Arrow error that carried
    its text through the C stream."""
    import pyarrow as pa

    inner = pa.RecordBatchReader.from_stream(stream)

    def batches() -> Any:
        try:
            yield from inner
        except pa.ArrowException:
            err = stream._error()
            if err is not None:
                raise err from None
            raise

    return pa.RecordBatchReader.from_batches(inner.schema, batches())


#: What the reading functions take: a path, a list of paths, bytes, or a binary file object.
Source = Union[
    str, os.PathLike, Sequence[Union[str, os.PathLike]], bytes, bytearray, memoryview, Any
]
#: What a visitor's method returns: go on (``None`` or ``"continue"``), skip what it opened,
#: skip the rest of the game, or stop.
Control = Literal["continue", "skip", "skip_game", "stop", None]
#: The tables of ``to_arrow``, ``to_parquet`` and ``schema``.
TableName = Literal["games", "moves", "trees", "positions"]

#: The reader ``read_pgn`` returns (games), and the one ``read_sgf`` returns (game trees).
PgnReader = Reader
SgfReader = Reader


class PgnVisitor(Protocol):
    """The methods ``visit`` calls for PGN input, named after the library's events (define any
    of them)."""

    def on_input(self, name: str, format: str) -> Control: ...
    def on_tree(self, game: int, depth: int) -> Control: ...
    def on_tree_end(self, game: int, depth: int) -> Control: ...
    def on_property(self, name: str, value: str) -> Control: ...
    def on_tags_end(self, game: int) -> Control: ...
    def on_move(self, san: str, ply: int, depth: int) -> Control: ...
    def on_nag(self, nag: int) -> Control: ...
    def on_comment(self, text: str) -> Control: ...
    def on_result(self, result: str, depth: int) -> Control: ...
    def on_error(self, diagnostic: Diagnostic) -> Control: ...
    def on_end(self) -> Any: ...


class SgfVisitor(Protocol):
    """The methods ``visit`` calls for SGF input, named after the library's events (define any
    of them)."""

    def on_input(self, name: str, format: str) -> Control: ...
    def on_tree(self, game: int, depth: int) -> Control: ...
    def on_tree_end(self, game: int, depth: int) -> Control: ...
    def on_node(self, node: int, depth: int) -> Control: ...
    def on_node_end(self, node: int, depth: int) -> Control: ...
    def on_property(self, name: str, values: list[str]) -> Control: ...
    def on_move(self, color: str, point: str | None, node: int) -> Control: ...
    def on_comment(self, text: str) -> Control: ...
    def on_error(self, diagnostic: Diagnostic) -> Control: ...
    def on_end(self) -> Any: ...


__all__ = [
    "DEFAULT_MAX_GAME_BYTES",
    "ArrowStream",
    "Control",
    "Diagnostic",
    "Error",
    "Game",
    "GameTree",
    "InputError",
    "Move",
    "Node",
    "PgnReader",
    "PgnVisitor",
    "Reader",
    "SgfReader",
    "SgfVisitor",
    "Source",
    "TableName",
    "Variation",
    "__version__",
    "check",
    "read_pgn",
    "read_sgf",
    "schema",
    "stats",
    "stats_by",
    "to_arrow",
    "to_parquet",
    "visit",
]
