"""kifu: PGN (chess) and SGF (Go) game records at native speed.

Games as Python objects, problems as data (never exceptions), tables as Arrow streams and
Parquet files, a visitor API, and every core. See docs/python.md.

A *source* is a path (a file, compressed or not: zstd, gzip, bzip2, xz; an archive: zip, tar,
tar.gz/bz2/xz/zst; a directory), a list of paths, ``bytes``/``bytearray``/``memoryview``
(maybe compressed, maybe an archive), or a binary file object (anything with ``read(n)``
returning bytes; read in chunks, so a 50 GB stream takes constant memory). Members of an
archive are named ``ARCHIVE:MEMBER``.

Exceptions are raised only for usage errors (``TypeError``, ``ValueError``,
``FileNotFoundError`` for a path that does not exist, ``FileExistsError`` for an output that
exists) and for inputs that cannot be read (``InputError``, an ``OSError``, raised after every
game read before the fault was delivered; or the exception a file object's ``read`` raised).
"""

from __future__ import annotations

import os
from typing import Any, Generic, Iterator, Literal, Protocol, Sequence, TypedDict, TypeVar, Union, final, overload

import numpy
import numpy.typing
import pandas
import polars
import pyarrow
from typing_extensions import Self, TypeAlias

__all__ = [
    "DEFAULT_MAX_GAME_BYTES",
    "ArrowStream",
    "Control",
    "Diagnostic",
    "DiagnosticDict",
    "Error",
    "FindReader",
    "Found",
    "Game",
    "GameTree",
    "GroupRow",
    "InputError",
    "Move",
    "Node",
    "OtherWritten",
    "PgnReader",
    "PgnVisitor",
    "Reader",
    "SgfReader",
    "SgfVisitor",
    "Source",
    "Stats",
    "StrPath",
    "SupportsRead",
    "TableName",
    "Variation",
    "Written",
    "__version__",
    "check",
    "explore",
    "find",
    "positions",
    "read_pgn",
    "read_sgf",
    "scan_polars",
    "schema",
    "stats",
    "stats_by",
    "to_arrow",
    "to_pandas",
    "to_parquet",
    "to_polars",
    "visit",
]

__version__: str
DEFAULT_MAX_GAME_BYTES: int

class SupportsRead(Protocol):
    """A binary file object: anything with ``read(n)`` returning bytes."""

    def read(self, n: int, /) -> bytes: ...

StrPath: TypeAlias = Union[str, os.PathLike[str]]
Source: TypeAlias = Union[StrPath, Sequence[StrPath], bytes, bytearray, memoryview, SupportsRead]
Control: TypeAlias = Literal["continue", "skip", "skip_game", "stop", None]

class Error(Exception):
    """The base of kifu's own exceptions."""

class InputError(Error, OSError):
    """An input could not be read or was cut short; ``errors`` is ``[(name, message), ...]``."""

    errors: list[tuple[str, str]]

@final
class Diagnostic:
    """A located problem (the fields of ``kifu check --json``)."""

    file: str
    format: Literal["pgn", "sgf"]
    line: int | None
    column: int | None
    offset: int | None
    severity: Literal["warning", "error", "fatal"]
    kind: str
    """The kind, a snake_case word for both formats (``unexpected_text``, ``illegal_point``)."""
    code: str | None
    """SGF: SGFC's code of the parser's problem (``E14``, ``W35``); ``None`` for PGN and replays."""
    message: str
    text: str
    truncated: bool
    game: int
    """The game's number in its input, from 1 as ``kifu check`` counts it (``Game.index + 1``)."""
    move: str | None
    node: int | None
    depth: int | None
    source: Literal["parser", "dom", "replay"]
    def to_dict(self) -> DiagnosticDict: ...

class DiagnosticDict(TypedDict):
    """``Diagnostic.to_dict()``: its fields, ``game`` from 1 as in ``kifu check --json``."""

    file: str
    format: Literal["pgn", "sgf"]
    line: int | None
    column: int | None
    offset: int | None
    severity: Literal["warning", "error", "fatal"]
    kind: str
    code: str | None
    message: str
    text: str
    truncated: bool
    game: int
    move: str | None
    node: int | None
    depth: int | None
    source: Literal["parser", "dom", "replay"]

@final
class Move:
    """A PGN move and what the movetext says about it."""

    @property
    def san(self) -> str: ...
    @property
    def nags(self) -> list[int]: ...
    @property
    def comments(self) -> list[str]: ...
    @property
    def comments_before(self) -> list[str]: ...
    @property
    def variations(self) -> list[Variation]: ...
    @property
    def ply(self) -> int: ...
    @property
    def number(self) -> str: ...
    @property
    def depth(self) -> int: ...
    @property
    def clock(self) -> float | None: ...
    @property
    def eval(self) -> tuple[int | None, int | None] | None: ...
    @property
    def uci(self) -> str | None: ...
    @property
    def fen(self) -> str | None: ...

@final
class Variation:
    @property
    def moves(self) -> list[Move]: ...
    @property
    def comments(self) -> list[str]: ...
    def __len__(self) -> int: ...

@final
class Game:
    """A PGN game. Attributes are converted from the native game when read."""

    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def tag_pairs(self) -> list[tuple[str, str]]: ...
    def tag(self, name: str, default: str | None = None) -> str | None: ...
    @property
    def comments(self) -> list[str]: ...
    @property
    def moves(self) -> list[Move]: ...
    @property
    def sans(self) -> list[str]: ...
    @property
    def plies(self) -> int: ...
    @property
    def result(self) -> str | None: ...
    @property
    def outcome(self) -> str: ...
    @property
    def opening(self) -> dict[str, str | int] | None:
        """The opening named from the moves (``eco``, ``name``, ``ply``), lichess's names."""
    @property
    def clocks(self) -> list[float | None]: ...
    @property
    def evals(self) -> list[tuple[int | None, int | None] | None]: ...
    @property
    def errors(self) -> list[Diagnostic]: ...
    @property
    def errors_dropped(self) -> int: ...
    @property
    def has_errors(self) -> bool: ...
    @property
    def replayed(self) -> bool: ...
    @property
    def uci(self) -> list[str | None] | None: ...
    @property
    def fens(self) -> list[str | None] | None: ...
    @property
    def start_fen(self) -> str | None: ...
    @property
    def final_fen(self) -> str | None: ...
    def to_pgn(self, compact: bool = False) -> str: ...
    def to_json(self) -> str: ...
    def __len__(self) -> int: ...

@final
class Node:
    """A node of an SGF game tree."""

    @property
    def id(self) -> int: ...
    @property
    def properties(self) -> dict[str, list[str]]: ...
    def get(self, ident: str, default: str | None = None) -> str | None: ...
    @property
    def move(self) -> tuple[Literal["B", "W"], str | None] | None: ...
    @property
    def comment(self) -> str | None: ...
    @property
    def children(self) -> list[Node]: ...
    @property
    def parent(self) -> Node | None: ...
    @property
    def tree(self) -> GameTree: ...

@final
class GameTree:
    """An SGF game tree; text decoded in the charset ``CA`` names (or a guess)."""

    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def game_type(self) -> int: ...
    @property
    def board_size(self) -> tuple[int, int]: ...
    @property
    def root(self) -> Node: ...
    @property
    def properties(self) -> dict[str, list[str]]: ...
    def get(self, ident: str, default: str | None = None) -> str | None: ...
    @property
    def main_line(self) -> list[Node]: ...
    @property
    def nodes(self) -> list[Node]: ...
    @property
    def moves(self) -> list[tuple[Literal["B", "W"], str | None]]: ...
    @property
    def node_count(self) -> int: ...
    @property
    def variations(self) -> int: ...
    @property
    def charset(self) -> str: ...
    @property
    def errors(self) -> list[Diagnostic]: ...
    @property
    def has_errors(self) -> bool: ...
    @property
    def replayed(self) -> bool: ...
    @property
    def final_board(self) -> bytes | None: ...
    @property
    def captures(self) -> list[tuple[int, int, int, bool]] | None: ...
    def to_sgf(self) -> str: ...
    def to_json(self) -> str: ...
    def __len__(self) -> int: ...

_G = TypeVar("_G", Game, GameTree, covariant=True)

@final
class Reader(Iterator[_G], Generic[_G]):
    """The games of a source (``Game``s from ``read_pgn``, ``GameTree``s from ``read_sgf``), in
    input order, parsed on a thread of their own."""

    def __iter__(self) -> Self: ...
    def __next__(self) -> _G: ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, *args: object) -> None: ...
    @property
    def skipped(self) -> list[str]: ...

PgnReader: TypeAlias = Reader[Game]
SgfReader: TypeAlias = Reader[GameTree]

@final
class ArrowStream:
    """An Arrow C stream (``__arrow_c_stream__``), consumed once."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

def read_pgn(
    source: Source,
    *,
    headers_only: bool = False,
    main_line: bool = False,
    replay: bool | Literal["uci", "fen"] | None = None,
    threads: int | None = 1,
    max_game_bytes: int = ...,
    name: str | None = None,
) -> Reader[Game]:
    """The PGN games of ``source``: an iterator of ``Game`` in input order.

    ``headers_only`` skips the movetext (at skipping speed); ``main_line`` skips variations;
    ``replay`` replays the moves (``True``/``"uci"``: UCI per move and the final FEN;
    ``"fen"``: the FEN after every move too); ``threads`` parses on that many threads (``None``:
    every core), games still in input order; ``max_game_bytes`` bounds one game in memory (the
    rest of a larger game is skipped and reported as ``game_too_large``).
    """

def read_sgf(
    source: Source,
    *,
    root_only: bool = False,
    main_line: bool = False,
    replay: bool = False,
    threads: int | None = 1,
    max_game_bytes: int = ...,
    charset: str = "auto",
    name: str | None = None,
) -> Reader[GameTree]:
    """The SGF game trees of ``source``: an iterator of ``GameTree`` in input order."""

@final
class Found(Generic[_G]):
    """A game ``find`` found (a ``Game``; a ``GameTree`` for a Go pattern), and the plies where
    the query matched (0: the game's start; Go: the move numbers of the positions)."""

    @property
    def game(self) -> _G: ...
    @property
    def plies(self) -> list[int]:
        """The main-line plies where the query matched, in order."""
    @property
    def variation_plies(self) -> list[int]:
        """The plies in variations (``variations=True``), in the order of the moves."""

@final
class FindReader(Iterator[Found[_G]], Generic[_G]):
    """The games ``find`` found, in input order, searched on threads of their own."""

    def __iter__(self) -> Self: ...
    def __next__(self) -> Found[_G]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, *args: object) -> None: ...

@overload
def find(
    source: Source,
    *,
    fen: str | None = None,
    subfen: str | None = None,
    material: str | None = None,
    then: str | Sequence[str] | None = None,
    within: int | Sequence[int | None] | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    variations: bool = False,
    where: str | Sequence[str] | None = None,
    go_pattern: None = None,
    anchor: None = None,
    swap_colors: Literal[False] = False,
    threads: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
) -> FindReader[Game]:
    """The PGN games of ``source`` that reach a position or show a pattern, as ``kifu find``
    finds them (docs/search.md): an iterator of ``Found`` (``.game``, ``.plies``).

    ``fen`` an exact position (FEN or EPD), ``subfen`` a piece pattern, ``material`` a
    signature (``"KRPkr"``, ``"[BN]2+ q=0"``); all given must hold in one position. ``then``
    the later steps of a sequence (``"subfen:…"``, ``"fen:…"``, ``"material:…"``; one string or
    a list), each within ``within`` plies of the step before it (one number for every step, or a
    list with one bound, or ``None``, per step of ``then``); ``min_ply``/``max_ply`` bound the
    plies; ``variations`` searches them too; ``where`` the key tests of ``kifu filter -w`` (one
    string or a list). A query that cannot be read raises ``ValueError``.
    """
@overload
def find(
    source: Source,
    *,
    where: str | Sequence[str] | None = None,
    go_pattern: StrPath,
    anchor: Literal["corner", "edge", "anywhere"] | None = None,
    swap_colors: bool = False,
    threads: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
) -> FindReader[GameTree]:
    """The SGF game trees of ``source`` where the Go pattern ``go_pattern`` stands on a
    position of the main line, as ``kifu find --go-pattern`` finds them: ``Found.game`` a
    ``GameTree``, ``Found.plies`` the move numbers of the positions (0: the start).
    ``go_pattern`` is the pattern's text (rows of ``X``, ``O``, ``.``, ``?``) or a path to a
    pattern file (an ``.sgf`` file: its final position, whole-board); ``anchor`` where it may
    stand; ``swap_colors`` finds it with the colours exchanged too."""

def explore(
    source: Source,
    *,
    fen: str | None = None,
    subfen: str | None = None,
    material: str | None = None,
    then: str | Sequence[str] | None = None,
    within: int | Sequence[int | None] | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    variations: bool = False,
    where: str | Sequence[str] | None = None,
    go_pattern: StrPath | None = None,
    anchor: Literal["corner", "edge", "anywhere"] | None = None,
    swap_colors: bool = False,
    by: str | None = None,
    max_entries: int = ...,
    threads: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
) -> pyarrow.Table:
    """What was played next from the positions the query matches, as ``kifu explore --json``
    (docs/search.md): a ``pyarrow.Table`` of ``fen``, ``san``, ``uci``, ``games``, ``white``,
    ``draws``, ``black``, their shares (``None`` when no game of the row has a known result),
    ``mean_elo``, ``last_date``, ``file``, ``game`` (and ``group`` first with ``by``: a key, or
    ``"rating:200"``); the games that end at a position have a row of their own, ``san``
    ``"end"`` and ``uci`` ``None``. At most ``max_entries`` rows are kept; the plays of later
    ones are counted in a warning.

    With ``go_pattern`` (and ``anchor``, ``swap_colors``, as ``find`` takes them), the rows of
    ``kifu explore --go-pattern --json``: ``move``, ``kind`` (``point``, ``tenuki``, ``pass``,
    ``end``), ``color`` (the pattern's ``X``/``O``), ``x``, ``y`` (the pattern's coordinates),
    ``positions``, ``x_wins``, ``o_wins``, ``other``, ``file``, ``game`` (from 1),
    ``ply`` (and ``group`` first with ``by``: a key of the games, ``black_rank``,
    ``KM``, ``year``…).
    """

def positions(
    source: Source,
    *,
    format: Literal["pgn", "sgf"] | None = None,
    columns: Sequence[str] | None = None,
    where: str | Sequence[str] | None = None,
    batch_size: int = 1024,
    shuffle: int = 0,
    seed: int | None = None,
    board_size: int | tuple[int, int] | None = None,
    threads: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    legal_only: bool = False,
    sample_rate: float | None = None,
    distinct: bool = False,
    distinct_memory: int = 536870912,
    symmetries: bool = False,
) -> Iterator[dict[str, numpy.typing.NDArray[Any]]]:
    """The rows of the ``positions`` table of ``source`` as batches of NumPy arrays, a dict
    per batch of ``batch_size`` rows (the last fewer): chess ``bitboards`` as ``uint64[N,
    12]`` and the numeric columns; Go ``board`` as ``uint8[N, rows, cols]`` (one board size:
    ``board_size``, else the first position's) and the numeric columns. ``columns`` chooses
    (text columns give object arrays); ``where`` the game key tests of ``kifu filter -w``;
    ``shuffle=N`` mixes the rows in a buffer of N rows, ``seed`` makes the order reproducible
    at any ``threads`` (and the sample's of ``sample_rate``). ``min_ply``, ``max_ply``,
    ``legal_only``, ``sample_rate``, ``distinct`` and ``distinct_memory`` choose the rows as
    ``kifu export``'s flags of the same names. The arrays and their nulls' values are those of
    ``kifu export --to npz``: NaN in floats, -1 where a column is never negative (``policy``,
    ``ep_square``, ratings, Go's ``x``/``y``/``ko_point``), else the type's smallest value;
    ``side_to_move`` as uint8 (0 White, 1 Black). Needs NumPy and pyarrow."""

def check(
    source: Source,
    *,
    format: Literal["pgn", "sgf"] | None = None,
    legal: bool = False,
    threads: int | None = None,
    name: str | None = None,
) -> list[Diagnostic]:
    """Every problem of ``source``, located, in input order (``kifu check --json``'s);
    ``legal=True`` replays each game on a board too (``kifu check --legal``)."""

class Stats(TypedDict):
    """What ``stats`` returns: the object of ``kifu stats --json``."""

    games: int
    tags: int
    moves: int
    mainline_moves: int
    variation_moves: int
    comments: int
    nags: int
    variations: int
    errors: int
    warnings: int
    nodes: int
    properties: int
    bytes: int
    seconds: float
    mb_per_s: float
    inputs: int
    streams: int
    skipped_files: int
    skipped_members: int
    skipped: list[str]

def stats(
    source: Source,
    *,
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    name: str | None = None,
) -> Stats:
    """The counts of ``kifu stats --json``."""

class GroupRow(TypedDict):
    """One row of ``stats_by``: a line of ``kifu stats --by KEY --json``."""

    key: str | None
    other: bool
    games: int
    plies: int
    mean_plies: float
    white: int
    draws: int
    black: int
    white_share: float
    draw_share: float
    black_share: float
    errors: int

def stats_by(
    source: Source,
    by: str,
    *,
    max_groups: int = ...,
    sort: Literal["key", "games"] = "key",
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    name: str | None = None,
) -> list[GroupRow]:
    """The games counted per value of ``by`` (``kifu stats --by KEY --json``): one dict a
    row, with ``key``, ``other``, ``games``, ``plies``, ``mean_plies``, ``white``, ``draws``,
    ``black``, their shares and ``errors``."""

TableName: TypeAlias = Literal["games", "moves", "trees", "positions"]

@overload
def to_arrow(
    source: Source,
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    variations: bool = False,
    replay: bool = False,
    columns: Sequence[str] | None = None,
    charset: str = "auto",
    movetext_width: int | None = None,
    max_game_bytes: int = ...,
    batch_rows: int = 8192,
    name: str | None = None,
    raw: Literal[False] = False,
    where: str | Sequence[str] | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    legal_only: bool = False,
    sample_rate: float | None = None,
    seed: int | None = None,
    distinct: bool = False,
    distinct_memory: int = ...,
    symmetries: bool = False,
) -> pyarrow.RecordBatchReader:
    """A table of ``source`` as Arrow batches. ``games``, ``moves`` and ``positions`` without
    ``format=`` are the table of the first input's format (PGN ``games``, SGF ``trees``; the
    moves or positions of either), as ``kifu export --table`` takes them; ``raw=True`` gives the
    bare ``ArrowStream``. ``where`` keeps the games that pass the key tests of ``kifu export
    -w``; ``min_ply``, ``max_ply``, ``legal_only``, ``sample_rate`` (with ``seed``),
    ``distinct`` and ``distinct_memory`` choose the rows of the ``positions`` tables as
    ``kifu export``'s flags of the same names."""
@overload
def to_arrow(
    source: Source,
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    variations: bool = False,
    replay: bool = False,
    columns: Sequence[str] | None = None,
    charset: str = "auto",
    movetext_width: int | None = None,
    max_game_bytes: int = ...,
    batch_rows: int = 8192,
    name: str | None = None,
    raw: Literal[True],
    where: str | Sequence[str] | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    legal_only: bool = False,
    sample_rate: float | None = None,
    seed: int | None = None,
    distinct: bool = False,
    distinct_memory: int = ...,
    symmetries: bool = False,
) -> ArrowStream: ...
def to_pandas(
    source: Source,
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    variations: bool = False,
    replay: bool = False,
    columns: Sequence[str] | None = None,
    charset: str = "auto",
    movetext_width: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
    where: str | Sequence[str] | None = None,
) -> pandas.DataFrame:
    """The table of ``to_arrow`` as a ``pandas.DataFrame`` of Arrow dtypes (``pd.ArrowDtype``:
    ``WhiteElo`` stays an integer with nulls). Needs pandas and pyarrow."""

def to_polars(
    source: Source,
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    variations: bool = False,
    replay: bool = False,
    columns: Sequence[str] | None = None,
    charset: str = "auto",
    movetext_width: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
    where: str | Sequence[str] | None = None,
) -> polars.DataFrame:
    """The table of ``to_arrow`` as a ``polars.DataFrame`` (Arrow types kept). Needs polars."""

def scan_polars(
    source: Source,
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    threads: int | None = None,
    variations: bool = False,
    replay: bool = False,
    charset: str = "auto",
    movetext_width: int | None = None,
    max_game_bytes: int = ...,
    name: str | None = None,
    where: str | Sequence[str] | None = None,
) -> polars.LazyFrame:
    """The table of ``to_arrow`` as a lazy ``polars.LazyFrame``: read at each ``collect()``,
    only the columns the query uses built, its filter run batch by batch, ``head(n)`` stopping
    the scan. The source is a path, paths or bytes (not a file object). Needs polars and
    pyarrow."""

class OtherWritten(TypedDict):
    """The table of a mixed source's other format, written beside ``path``."""

    path: str
    rows: int
    files: list[str]
    bytes: int

class _Written(TypedDict):
    rows: int
    files: list[str]
    bytes: int

class Written(_Written, total=False):
    """What ``to_parquet`` returns; ``other`` for a source of both formats."""

    other: OtherWritten

def to_parquet(
    source: Source,
    path: StrPath,
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    to: Literal["parquet", "csv", "jsonl", "json"] | None = None,
    threads: int | None = None,
    variations: bool = False,
    replay: bool = False,
    columns: Sequence[str] | None = None,
    charset: str = "auto",
    movetext_width: int | None = None,
    max_game_bytes: int = ...,
    force: bool = False,
    max_rows_per_file: int | None = None,
    dataset: bool = False,
    partition_by: Sequence[str] | None = None,
    row_group_rows: int | None = None,
    zstd_level: int | None = None,
    name: str | None = None,
    where: str | Sequence[str] | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    legal_only: bool = False,
    sample_rate: float | None = None,
    seed: int | None = None,
    distinct: bool = False,
    distinct_memory: int = ...,
    symmetries: bool = False,
) -> Written:
    """Writes a table to ``path`` (one file, or a dataset directory) as ``to`` says, else as
    ``path``'s extension says (``.parquet``/``.pq``, ``.csv``, ``.jsonl``/``.ndjson``/``.json``;
    Parquet without one; another extension is a ``ValueError``); ``{"rows", "files", "bytes"}``,
    and for a source of both formats ``"other"``: ``{"path", "rows", "files", "bytes"}`` of the
    other format's table, written beside ``path`` (``games.sgf.parquet``). The rows are
    chosen as ``to_arrow`` chooses them (``where``, the positions filters)."""

def schema(
    table: TableName = "games",
    *,
    format: Literal["pgn", "sgf"] | None = None,
    variations: bool = False,
    replay: bool = False,
    columns: Sequence[str] | None = None,
) -> pyarrow.Schema: ...

class PgnVisitor(Protocol):
    """The methods ``visit`` calls for PGN input (define any of them)."""

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
    """The methods ``visit`` calls for SGF input (define any of them)."""

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

def visit(
    source: Source,
    visitor: object,
    *,
    format: Literal["pgn", "sgf"] | None = None,
    variations: bool = True,
    headers_only: bool = False,
    name: str | None = None,
) -> Any:
    """Calls ``visitor``'s ``on_*`` methods for each event of ``source``; returns ``on_end()``."""
