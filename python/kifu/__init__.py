"""kifu: PGN (chess) and SGF (Go) game records at native speed.

Games as Python objects, problems as data (never exceptions), tables as Arrow streams and
Parquet files, a visitor API, and every core. The functions and classes are the native module
``kifu._kifu`` (Rust, through PyO3); this package adds the names that exist for typing (the
visitor protocols, ``Source``, ``Control``, ``TableName``) so that every name of the type stubs
(``__init__.pyi``) can be imported. See docs/python.md.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Iterator, Literal, Protocol, Sequence, TypedDict, Union

from ._kifu import (
    DEFAULT_MAX_GAME_BYTES,
    ArrowStream,
    Diagnostic,
    FindReader,
    Found,
    Game,
    GameTree,
    Move,
    Node,
    Reader,
    Variation,
    __version__,
    check,
    explore,
    find,
    read_pgn,
    read_sgf,
    schema,
    stats,
    stats_by,
    to_arrow,
    to_parquet,
    visit,
)
from ._kifu import _positions

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


class SupportsRead(Protocol):
    """A binary file object as the reading functions take it: anything with ``read(n)``
    returning bytes (``open(p, "rb")``, ``sys.stdin.buffer``, ``io.BytesIO``, an fsspec or
    pyarrow stream)."""

    def read(self, n: int, /) -> bytes: ...


#: A path: ``str`` or ``os.PathLike`` (``pathlib.Path``).
StrPath = Union[str, os.PathLike[str]]
#: What the reading functions take: a path, a list of paths, bytes, or a binary file object.
Source = Union[StrPath, Sequence[StrPath], bytes, bytearray, memoryview, SupportsRead]
#: What a visitor's method returns: go on (``None`` or ``"continue"``), skip what it opened,
#: skip the rest of the game, or stop.
Control = Literal["continue", "skip", "skip_game", "stop", None]
#: The tables of ``to_arrow``, ``to_parquet`` and ``schema``.
TableName = Literal["games", "moves", "trees", "positions"]

#: The reader ``read_pgn`` returns (games), and the one ``read_sgf`` returns (game trees): for
#: annotations (``Reader[Game]`` and ``Reader[GameTree]`` to a type checker).
PgnReader = Reader
SgfReader = Reader


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
    #: the names of the first files and members skipped, each with why
    skipped: list[str]


class GroupRow(TypedDict):
    """One row of ``stats_by``: the object of a line of ``kifu stats --by KEY --json``."""

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


class DiagnosticDict(TypedDict):
    """``Diagnostic.to_dict()``: its fields, ``game`` counted from 1 as ``kifu check --json``
    counts it."""

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


class OtherWritten(TypedDict):
    """The table of a mixed source's other format, written beside ``path`` by ``to_parquet``."""

    path: str
    rows: int
    files: list[str]
    bytes: int


class _Written(TypedDict):
    rows: int
    files: list[str]
    bytes: int


class Written(_Written, total=False):
    """What ``to_parquet`` returns: the rows, files and bytes written; ``other`` for a source
    of both formats."""

    other: OtherWritten


def _require(module: str, function: str, extra: str) -> Any:
    """``module`` imported, or an ``ImportError`` that says what ``function`` needs it for."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"kifu.{function} needs {module}, which is not installed: "
            f"pip install {module} (or kifu[{extra}])"
        ) from e


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
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
    name: str | None = None,
    where: Sequence[str] | None = None,
) -> Any:
    """The table ``to_arrow`` builds, as a ``pandas.DataFrame`` of Arrow dtypes
    (``pd.ArrowDtype``): ``WhiteElo`` stays an integer with nulls, dates stay dates, ``tags`` a
    map; ``where`` keeps the games that pass the key tests of ``kifu export -w``, as in
    ``to_arrow``. Needs pandas and pyarrow."""
    pd = _require("pandas", "to_pandas", "pandas")
    _require("pyarrow", "to_pandas", "pandas")
    reader = to_arrow(
        source,
        table,
        format=format,
        threads=threads,
        variations=variations,
        replay=replay,
        columns=columns,
        charset=charset,
        movetext_width=movetext_width,
        max_game_bytes=max_game_bytes,
        name=name,
        where=where,
    )
    return reader.read_all().to_pandas(types_mapper=pd.ArrowDtype)


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
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
    name: str | None = None,
    where: Sequence[str] | None = None,
) -> Any:
    """The table ``to_arrow`` builds, as a ``polars.DataFrame`` (the Arrow types kept: an
    integer column stays an integer column). Polars takes kifu's Arrow stream itself: pyarrow
    is not needed."""
    pl = _require("polars", "to_polars", "polars")
    stream = to_arrow(
        source,
        table,
        format=format,
        threads=threads,
        variations=variations,
        replay=replay,
        columns=columns,
        charset=charset,
        movetext_width=movetext_width,
        max_game_bytes=max_game_bytes,
        name=name,
        raw=True,
        where=where,
    )
    try:
        return pl.DataFrame(stream)
    except Exception:
        # an error that ended the stream came through it as text: raise kifu's own
        err = stream._error()
        if err is not None:
            raise err from None
        raise


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
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
    name: str | None = None,
    where: Sequence[str] | None = None,
) -> Any:
    """The table ``to_arrow`` builds, as a lazy ``polars.LazyFrame``: nothing is read until
    it is collected, and then only the columns the query uses are built (``columns=``), the
    query's filter runs batch by batch, and a ``head(n)`` stops the scan after n rows. Each
    ``collect()`` reads the source again, so the source is a path, a list of paths or bytes,
    not a file object. Needs polars and pyarrow."""
    pl = _require("polars", "scan_polars", "polars")
    pa = _require("pyarrow", "scan_polars", "polars")
    try:
        from polars.io.plugins import register_io_source
    except ImportError as e:
        raise ImportError(
            f"kifu.scan_polars needs a Polars with IO plugins (polars.io.plugins."
            f"register_io_source; this is Polars {pl.__version__}): upgrade polars"
        ) from e
    if hasattr(source, "read"):
        raise TypeError(
            "kifu.scan_polars reads its source again at every collect(): pass a path, a list "
            "of paths or bytes (for a file object, kifu.to_polars reads it once)"
        )
    options: dict[str, Any] = dict(
        format=format,
        threads=threads,
        variations=variations,
        replay=replay,
        charset=charset,
        movetext_width=movetext_width,
        max_game_bytes=max_game_bytes,
        name=name,
        where=where,
    )
    known: list[Any] = []

    def polars_schema() -> Any:
        if not known:
            if table in ("games", "moves") and format is None and not replay:
                # the first input's format tells the table (PGN games, SGF trees): the
                # schema of a stream of one row, which stops once read
                arrow_schema = to_arrow(
                    source, table, batch_rows=1, **{**options, "threads": 1}
                ).schema
            else:
                arrow_schema = schema(table, format=format, variations=variations, replay=replay)
            known.append(pl.from_arrow(arrow_schema.empty_table()).schema)
        return known[0]

    def batches(
        with_columns: list[str] | None,
        predicate: Any,
        n_rows: int | None,
        batch_size: int | None,
    ) -> Iterator[Any]:
        columns = with_columns
        if columns is not None and predicate is not None:
            needed = predicate.meta.root_names()
            columns = columns + [c for c in needed if c not in columns]
        reader = to_arrow(
            source, table, columns=columns, batch_rows=batch_size or 8192, **options
        )
        left = n_rows
        for batch in reader:
            df = pl.from_arrow(pa.Table.from_batches([batch]))
            if predicate is not None:
                df = df.filter(predicate)
            if with_columns is not None:
                df = df.select(with_columns)
            if left is not None:
                df = df.head(left)
                left -= df.height
            yield df
            if left is not None and left <= 0:
                break

    return register_io_source(batches, schema=polars_schema, explain_name="kifu")


#: The NumPy type of each Arrow number type (``str(pyarrow type)``).
_NUMPY_TYPES = {
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float": "float32",
    "double": "float64",
}


def _view(col: Any, np: Any) -> Any:
    """A numeric Arrow array without nulls as a NumPy view of its values buffer (read-only);
    ``None`` for any other array. (``Array.to_numpy`` would give the same view, through
    pyarrow's pandas conversion, whose first call imports pandas.)"""
    dtype = _NUMPY_TYPES.get(str(col.type))
    if dtype is None or col.null_count:
        return None
    values = np.frombuffer(col.buffers()[1], dtype)
    return values[col.offset : col.offset + len(col)]


# The fewest rows of a batch of the scan behind ``positions`` handed on alone (smaller ones,
# a piece's last rows or a small file's, are put together first), rounded down to a whole
# number of its ``batch_size``, at least one. The scan's batches are those its workers made,
# of 8,192 rows at most (or this many, if more): some 7,000 chess rows a piece of input,
# about 1 MB.
_POSITIONS_GROUP_ROWS = 4096


def _arrays(batch: Any, np: Any, board: tuple[int, int] | None) -> dict[str, Any]:
    """A record batch of ``_positions`` as NumPy arrays: views of its buffers (its numeric
    columns' nulls were filled by the Rust side, the bitboards' values and the boards' bytes are
    viewed as they are), object arrays for text columns (a copy)."""
    out: dict[str, Any] = {}
    n = batch.num_rows
    for name, col in zip(batch.schema.names, batch.columns):
        if name == "bitboards":
            values = _view(col.flatten(), np)
            out[name] = values.view(np.uint64).reshape(n, 12)
        elif name == "board":
            if board is None:
                raise ValueError("kifu.positions: a Go batch without its board size")
            cols, rows = board
            offsets = np.frombuffer(col.buffers()[1], np.int32)[col.offset : col.offset + n + 1]
            data = np.frombuffer(col.buffers()[2], np.uint8)
            if n == 0:
                out[name] = np.empty((0, rows, cols), np.uint8)
            else:
                out[name] = data[offsets[0] : offsets[-1]].reshape(n, rows, cols)
        else:
            view = _view(col, np)
            # booleans (bits) and text (object arrays): a copy
            out[name] = view if view is not None else col.to_numpy(zero_copy_only=False)
    return out


def _shuffled(
    batches: Iterator[dict[str, Any]], size: int, batch_size: int, seed: Any, np: Any
) -> Iterator[dict[str, Any]]:
    """The rows of ``batches`` mixed in a buffer of ``size`` rows (rounded up to whole
    batches): once it is full, each batch that comes takes the places of as many rows drawn at
    random from the buffer, which go out as a batch; at the end, what the buffer holds goes out
    in a random order. The order depends on the rows, ``size``, ``batch_size`` and ``seed`` only."""
    rng = np.random.default_rng(seed)
    capacity = -(-size // batch_size) * batch_size
    buf: dict[str, Any] | None = None
    filled = 0
    last: dict[str, Any] | None = None
    for b in batches:
        k = len(next(iter(b.values()))) if b else 0
        if buf is None:
            buf = {c: np.empty((capacity,) + v.shape[1:], v.dtype) for c, v in b.items()}
        if k < batch_size:
            last = b  # the last batch: mixed in with the buffer at the end
            continue
        if filled < capacity:
            for c, v in b.items():
                buf[c][filled : filled + k] = v
            filled += k
            continue
        idx = rng.choice(capacity, k, replace=False)
        out = {c: buf[c][idx] for c in buf}
        for c, v in b.items():
            buf[c][idx] = v
        yield out
    if buf is None:
        return
    rest = {c: v[:filled] for c, v in buf.items()}
    if last is not None:
        rest = {c: np.concatenate([rest[c], last[c]]) for c in rest}
    total = len(next(iter(rest.values()))) if rest else 0
    order = rng.permutation(total)
    for i in range(0, total, batch_size):
        pick = order[i : i + batch_size]
        yield {c: v[pick] for c, v in rest.items()}


def positions(
    source: Source,
    *,
    format: Literal["pgn", "sgf"] | None = None,
    columns: Sequence[str] | None = None,
    where: Sequence[str] | None = None,
    batch_size: int = 1024,
    shuffle: int = 0,
    seed: int | None = None,
    board_size: int | tuple[int, int] | None = None,
    threads: int | None = None,
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
    name: str | None = None,
    min_ply: int | None = None,
    max_ply: int | None = None,
    legal_only: bool = False,
    sample_rate: float | None = None,
    distinct: bool = False,
    distinct_memory: int = 512 << 20,
    symmetries: bool = False,
) -> Iterator[dict[str, Any]]:
    """The rows of the ``positions`` table of ``source`` as batches of NumPy arrays, a dict per
    batch: for training (docs/python.md § Arrays for training). Chess: ``bitboards`` as
    ``uint64[N, 12]`` and the table's numeric columns; Go: ``board`` as ``uint8[N, rows,
    cols]`` (one board size: ``board_size``, else the first position's) and its numeric
    columns. ``shuffle=N`` mixes the rows in a buffer of N rows (``seed`` makes the order
    reproducible, at any ``threads``). ``where``, ``min_ply``, ``max_ply``, ``legal_only``,
    ``sample_rate`` (with ``seed``), ``distinct``, ``distinct_memory`` and ``symmetries`` (Go:
    each position once per symmetry of the board) choose the rows as ``kifu export``'s flags of
    the same names do. Needs NumPy and pyarrow."""
    np = _require("numpy", "positions", "numpy")
    _require("pyarrow", "positions", "arrow")

    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if shuffle < 0:
        raise ValueError("shuffle must be 0 (no shuffle) or a number of rows")
    if columns is not None and not list(columns):
        raise ValueError("columns= names no column (None: the default ones)")
    # the scan hands on its batches as its workers made them (those of fewer than `group` rows
    # put together), each made into arrays once and cut into views of batch_size rows here: a
    # batch of the scan costs its builders' arrays, the hand-over and the views of each
    # column, whatever its rows
    group = batch_size * max(1, _POSITIONS_GROUP_ROWS // batch_size)
    stream = _positions(
        source,
        format=format,
        columns=list(columns) if columns is not None else None,
        where=list(where) if where is not None else None,
        batch_rows=group,
        board_size=board_size,
        threads=threads,
        max_game_bytes=max_game_bytes,
        name=name,
        min_ply=min_ply,
        max_ply=max_ply,
        legal_only=legal_only,
        sample_rate=sample_rate,
        # the sample's seed (the shuffle's is NumPy's, any int)
        seed=seed if sample_rate is not None else None,
        distinct=distinct,
        distinct_memory=distinct_memory,
        symmetries=symmetries,
    )
    reader = _reader(stream)
    schema = reader.schema
    if columns is not None:
        missing = [c for c in columns if c not in schema.names]
        if missing:
            reader.close()
            raise ValueError(
                f"kifu.positions: no column {missing[0]!r} in the {_table_name(schema)} "
                "positions table (format= chooses the table)"
            )
    meta = schema.metadata or {}
    board: tuple[int, int] | None = None
    if b"kifu.board" in meta:
        c, r = meta[b"kifu.board"].decode().split(",")
        board = (int(c), int(r))

    def arrays() -> Iterator[dict[str, Any]]:
        # views of batch_size rows of each batch of the scan; the rows left at a batch's end
        # wait for the next one's first rows, and only such a batch is a copy
        rest: dict[str, Any] | None = None
        with reader:
            for rb in reader:
                n = rb.num_rows
                if n == 0:
                    continue
                whole = _arrays(rb, np, board)
                at = 0
                if rest is not None:
                    have = len(next(iter(rest.values())))
                    at = min(batch_size - have, n)
                    joined = {c: np.concatenate([rest[c], v[:at]]) for c, v in whole.items()}
                    for v in joined.values():
                        v.flags.writeable = False  # as the views are
                    if have + at < batch_size:
                        rest = joined
                        continue
                    rest = None
                    yield joined
                while n - at >= batch_size:
                    yield {c: v[at : at + batch_size] for c, v in whole.items()}
                    at += batch_size
                if at < n:
                    rest = {c: v[at:] for c, v in whole.items()}
        if rest is not None:
            yield rest

    if shuffle:
        return _shuffled(arrays(), shuffle, batch_size, seed, np)
    return arrays()


def _table_name(schema: Any) -> str:
    meta = schema.metadata or {}
    return "Go" if meta.get(b"kifu.table") == b"sgf_positions" else "chess"


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
