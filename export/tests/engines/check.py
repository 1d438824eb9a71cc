"""Reads kifu's exported files with the real engines (pyarrow, DuckDB) and checks them.

Run by export/tests/engines.rs with the venv of scripts/python_env.sh:

    python check.py MANIFEST.json

The manifest names, per group of inputs, the files written and what the library counted.
Values are checked against the `kifu json` objects of the same games (the DOM's own
serialization), re-derived here independently: tags, moves, clocks, errors, root properties.
Types are checked against the documented schema (docs/export.md). Prints one line per group and
`N passed, 0 failed` at the end; exits 1 on the first failure.
"""

import json
import math
import re
import sys

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

CHECKS = 0


def check(cond, what):
    global CHECKS
    if not cond:
        print(f"FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    CHECKS += 1


def strip_not_null(t):
    # nullability and the name pyarrow shows for a map's entries are not part of the type
    return re.sub(r" \('[^']*'\)", "", str(t).replace(" not null", ""))


# The documented types (docs/export.md), as pyarrow prints them.
PGN_ERRORS = (
    "list<item: struct<kind: string, severity: string, message: string, text: string, "
    "byte_offset: int64, line: int64, col: int32, move: string>>"
)
SGF_ERRORS = (
    "list<item: struct<kind: string, code: string, severity: string, message: string, text: string, "
    "byte_offset: int64, line: int64, col: int32, node: int64, depth: int64>>"
)
GAMES_TYPES = {
    "file": "string", "game_index": "int64", "byte_offset": "int64",
    "Event": "string", "Site": "string", "Date": "date32[day]", "Round": "string",
    "White": "string", "Black": "string", "Result": "string",
    "WhiteTitle": "string", "BlackTitle": "string",
    "WhiteElo": "int16", "BlackElo": "int16", "WhiteRatingDiff": "int16", "BlackRatingDiff": "int16",
    "UTCDate": "date32[day]", "UTCTime": "time64[us]",
    "ECO": "string", "Opening": "string", "Termination": "string", "TimeControl": "string",
    "Variant": "string", "Variation": "string", "FEN": "string", "SetUp": "string",
    "EventDate": "date32[day]", "WhiteFideId": "int64", "BlackFideId": "int64",
    "PlyCount": "int32", "Annotator": "string", "WhiteTeam": "string", "BlackTeam": "string",
    "tc_base": "int32", "tc_increment": "int32", "speed": "string",
    "year": "int32", "month": "string",
    "tags": "map<string, string>", "movetext": "string",
    "moves": "list<item: string>", "clocks": "list<item: double>",
    "evals": "list<item: struct<cp: int32, mate: int32>>",
    "plies": "int32", "outcome": "string", "winner": "string",
    "opening_eco": "string", "opening_name": "string", "opening_ply": "int32",
    "error_count": "int32", "errors": PGN_ERRORS,
}
MOVES_TYPES = {
    "file": "string", "game_index": "int64", "ply": "int32", "move_number": "int32",
    "color": "string", "san": "string", "nags": "list<item: int16>", "comment": "string",
    "clock": "double", "eval_cp": "int32", "eval_mate": "int32", "eval_depth": "int32",
    "emt": "double",
}
SGF_TEXT = ["CA", "AP", "GN", "EV", "RO", "DT", "PC", "PB", "BR", "BT", "PW", "WR", "WT", "RE",
            "RU", "OT", "SO", "US", "AN", "opening"]  # ON, a reserved word of SQL: `opening`
TREES_TYPES = {
    "file": "string", "game_index": "int64", "byte_offset": "int64",
    "GM": "int32", "FF": "int32", "SZ": "int32", "KM": "double", "HA": "int32", "TM": "double",
    **{p: "string" for p in SGF_TEXT},
    "board_cols": "int32", "board_rows": "int32",
    "black_rank": "int16", "white_rank": "int16", "year": "int32", "month": "string",
    "outcome": "string", "winner": "string", "win_by": "string",
    "margin": "double",
    "props": "map<string, list<item: string>>", "moves": "list<item: string>",
    "colors": "string", "plies": "int32", "nodes": "int64", "variations": "int64",
    "charset": "string", "error_count": "int32", "errors": SGF_ERRORS,
}
SGF_MOVES_TYPES = {
    "file": "string", "game_index": "int64", "ply": "int32", "node": "int32",
    "color": "string", "point": "string", "x": "int16", "y": "int16", "comment": "string",
}
# The same columns as DuckDB types them.
DUCK_GAMES = {
    "game_index": "BIGINT", "WhiteElo": "SMALLINT", "UTCDate": "DATE", "UTCTime": "TIME",
    "Date": "DATE", "PlyCount": "INTEGER", "tags": "MAP(VARCHAR, VARCHAR)",
    "moves": "VARCHAR[]", "clocks": "DOUBLE[]", "evals": "STRUCT(cp INTEGER, mate INTEGER)[]",
    "movetext": "VARCHAR", "plies": "INTEGER", "tc_base": "INTEGER", "speed": "VARCHAR",
    "opening_eco": "VARCHAR", "opening_name": "VARCHAR", "opening_ply": "INTEGER",
}
DUCK_TREES = {
    "GM": "INTEGER", "KM": "DOUBLE", "SZ": "INTEGER", "PB": "VARCHAR",
    "props": "MAP(VARCHAR, VARCHAR[])", "moves": "VARCHAR[]", "nodes": "BIGINT",
    "black_rank": "SMALLINT", "winner": "VARCHAR", "margin": "DOUBLE",
}


def check_types(schema, expected, what):
    got = {f.name: strip_not_null(f.type) for f in schema}
    for name, ty in expected.items():
        check(got.get(name) == ty, f"{what}: column {name}: {got.get(name)} != {ty}")
    check(set(got) == set(expected), f"{what}: columns {sorted(set(got) ^ set(expected))}")


def check_duck_types(con, source, expected, what):
    got = {row[0]: row[1] for row in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
    for name, ty in expected.items():
        check(got.get(name) == ty, f"{what}: DuckDB type of {name}: {got.get(name)} != {ty}")


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def sample(n, most=300):
    step = max(1, n // most)
    return list(range(0, n, step))


# ----- PGN ---------------------------------------------------------------------------------------

TAG_TYPES = {k: v for k, v in GAMES_TYPES.items() if k[0].isupper()}

# lichess's Speed.byTime: the category of base + 40 x increment (seconds)
SPEED_LIMITS = [(30, "ultraBullet"), (180, "bullet"), (480, "blitz"), (1500, "rapid"),
                (21600, "classical")]
ASCII_WS = " \t\r\n\f"  # what Rust's trim_ascii trims (not \v)
SKIP = object()


def expected_time_control(value):
    """(tc_base, tc_increment, speed) of a TimeControl tag by the documented rule, for the forms
    lichess has a rule for (`S`, `S+I`, `-`), `?` and none; SKIP for the other forms."""
    if value is None or value.strip(ASCII_WS) == "?":
        return (None, None, None)
    v = value.strip(ASCII_WS)
    if v == "-":
        return (None, None, "correspondence")
    m = re.fullmatch(r"([0-9]{1,9})(?:\+([0-9]{1,9}))?", v)
    if not m:
        return SKIP
    base, inc = int(m.group(1)), int(m.group(2) or 0)
    est = base + 40 * inc
    speed = next((s for limit, s in SPEED_LIMITS if est < limit), "correspondence")
    return (base, inc, speed)


def parse_int(s, bits):
    t = s.strip()
    body = t[1:] if t[:1] in "+-" else t
    if not body or not body.isascii() or not body.isdigit():
        return None
    n = int(t)
    return n if -(1 << (bits - 1)) <= n < (1 << (bits - 1)) else None


def parse_date(s):
    import datetime
    m = re.fullmatch(r"(\d{4})([.-])(\d{2})\2(\d{2})", s.strip())
    if not m:
        return None
    try:
        return datetime.date(int(m.group(1)), int(m.group(3)), int(m.group(4)))
    except ValueError:
        return None


def parse_time(s):
    import datetime
    m = re.fullmatch(r"(\d{2}):(\d{2}):(\d{2})", s.strip())
    if not m:
        return None
    h, mi, se = map(int, m.groups())
    if h > 23 or mi > 59 or se > 59:
        return None
    return datetime.time(h, mi, se)


def typed(value, ty):
    return {
        "string": lambda v: v,
        "int16": lambda v: parse_int(v, 16),
        "int32": lambda v: parse_int(v, 32),
        "int64": lambda v: parse_int(v, 64),
        "date32[day]": parse_date,
        "time64[us]": parse_time,
    }[ty](value)


CLK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")


def clock_secs(text):
    whole, _, frac = text.partition(".")
    secs = 0
    for part in whole.split(":"):
        secs = secs * 60 + int(part)
    return secs + (float("0." + frac) if frac else 0.0)


def expected_game(obj):
    """The row of the games table, from a `kifu json` object, by the documented rules."""
    row = {"file": obj["file"], "game_index": obj["index"], "byte_offset": obj["offset"]}
    other = {}

    def put(k, v):
        other[k] = other[k] + "\n" + v if k in other else v

    seen = set()
    for name, value in obj["tags"]:
        if name in TAG_TYPES and name not in seen:
            seen.add(name)
            v = typed(value, TAG_TYPES[name])
            row[name] = v
            if v is None:
                put(name, value)
        else:
            put(name, value)
    for name in TAG_TYPES:
        row.setdefault(name, None)
    row["tags"] = other
    row["moves"] = [m["san"] for m in obj["moves"]]
    row["plies"] = len(obj["moves"])
    clocks = []
    for m in obj["moves"]:
        found = None
        for c in m["comments"]:
            hit = CLK.search(c)
            if hit:
                try:
                    found = clock_secs(hit.group(1))
                except ValueError:
                    found = None
                break
        clocks.append(found)
    row["clocks"] = clocks if any(c is not None for c in clocks) else None
    result_tag = next((v for n, v in obj["tags"] if n == "Result"), None)
    # the game keys' `result`: the Result tag when it holds one of the four, else the marker
    if result_tag is not None and result_tag.strip() in ("1-0", "0-1", "1/2-1/2", "*"):
        row["outcome"] = result_tag.strip()
    elif obj["result"] is not None:
        row["outcome"] = obj["result"]
    else:
        row["outcome"] = None  # another spelling of the tag: not compared
    row["winner"] = {"1-0": "white", "0-1": "black"}.get(row["outcome"])
    row["error_count"] = len(obj["errors"]) + obj.get("errors_dropped", 0)
    row["errors"] = [
        # kifu json's `offset` and `column` are reserved words of SQL: `byte_offset`, `col`
        {{"offset": "byte_offset", "column": "col"}.get(k, k): e[k]
         for k in ("kind", "severity", "message", "text", "offset", "line", "column", "move")}
        for e in obj["errors"]
    ]
    return row


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def check_pgn(group, con):
    name, f = group["name"], group["files"]
    games = group["games"]
    # pyarrow
    t = pq.read_table(f["games"])
    check(t.num_rows == games, f"{name}: pyarrow rows {t.num_rows} != {games}")
    check_types(t.schema, GAMES_TYPES, f"{name} games")
    m = pq.read_table(f["moves"])
    check(m.num_rows == group["move_rows"], f"{name}: moves rows {m.num_rows} != {group['move_rows']}")
    check_types(m.schema, MOVES_TYPES, f"{name} moves")
    # DuckDB
    src = f"read_parquet('{f['games']}')"
    n = con.execute(f"SELECT count(*) FROM {src}").fetchone()[0]
    check(n == games, f"{name}: DuckDB rows {n} != {games}")
    check_duck_types(con, src, DUCK_GAMES, name)
    n = con.execute(f"SELECT count(*) FROM read_parquet('{f['moves']}')").fetchone()[0]
    check(n == group["move_rows"], f"{name}: DuckDB moves rows")
    # values against `kifu json`
    objs = read_jsonl(f["json"])
    check(len(objs) == games, f"{name}: json lines {len(objs)} != {games}")
    cols = ["file", "game_index", "byte_offset", *TAG_TYPES, "moves", "plies", "clocks", "outcome",
            "winner", "error_count", "errors"]
    rows = t.select(cols).to_pylist()
    for i in sample(games):
        exp, got = expected_game(objs[i]), rows[i]
        got_tags = dict(t.column("tags")[i].as_py())
        for k in cols:
            if k in ("outcome", "winner") and exp["outcome"] is None:
                continue
            check(same(got[k], exp[k]), f"{name} game {i}: {k}: {got[k]!r} != {exp[k]!r}")
        check(got_tags == exp["tags"], f"{name} game {i}: tags {got_tags} != {exp['tags']}")
    # the columns read from TimeControl
    tc_rows = t.select(["tc_base", "tc_increment", "speed"]).to_pylist()
    for i in sample(games):
        tag = next((v for n, v in objs[i]["tags"] if n == "TimeControl"), None)
        exp = expected_time_control(tag)
        if exp is SKIP:
            continue
        got = tuple(tc_rows[i][k] for k in ("tc_base", "tc_increment", "speed"))
        check(got == exp, f"{name} game {i}: TimeControl {tag!r}: {got} != {exp}")
    # the opening named from the moves: an ECO code, a name, a ply on the main line
    for r in t.select(["opening_eco", "opening_name", "opening_ply", "plies"]).to_pylist():
        if r["opening_eco"] is None:
            check(r["opening_name"] is None and r["opening_ply"] is None, f"{name}: opening {r}")
            continue
        eco = r["opening_eco"]
        check(len(eco) == 3 and eco[0] in "ABCDE" and eco[1:].isdigit(), f"{name}: opening_eco {eco!r}")
        check(bool(r["opening_name"]) and 1 <= r["opening_ply"] <= min(40, r["plies"]),
              f"{name}: opening {r}")
    # the same values through DuckDB, for a few columns
    for i in sample(games, 40):
        exp = expected_game(objs[i])
        r = con.execute(
            f"SELECT White, WhiteElo, UTCDate, len(moves), plies, error_count, tags "
            f"FROM {src} WHERE game_index = ? AND file = ?",
            [exp["game_index"], exp["file"]],
        ).fetchall()
        check(len(r) == 1, f"{name}: DuckDB row {i}")
        white, elo, date, nmoves, plies, nerr, tags = r[0]
        check(white == exp["White"] and elo == exp["WhiteElo"] and date == exp["UTCDate"],
              f"{name}: DuckDB game {i} tags")
        check(nmoves == exp["plies"] == plies and nerr == exp["error_count"], f"{name}: DuckDB game {i}")
        check(dict(tags) == exp["tags"], f"{name}: DuckDB game {i} map")
    # moves table: the main line of each game, in order
    mv = con.execute(
        f"SELECT file, game_index, list(san ORDER BY ply) FROM read_parquet('{f['moves']}') "
        f"GROUP BY ALL"
    ).fetchall()
    by_game = {(a, b): c for a, b, c in mv}
    for i in sample(games, 60):
        exp = expected_game(objs[i])
        got = by_game.get((exp["file"], exp["game_index"]), [])
        check(got == exp["moves"], f"{name}: moves table of game {i}")
    # CSV through DuckDB's reader
    n = con.execute(f"SELECT count(*) FROM read_csv('{f['csv']}', header = true)").fetchone()[0]
    check(n == games, f"{name}: CSV rows {n} != {games}")
    csv_rows = con.execute(
        f"SELECT game_index, White, moves FROM read_csv('{f['csv']}', header = true, "
        f"all_varchar = true)"
    ).fetchall()
    for i in sample(games, 40):
        idx, white, moves = csv_rows[i]
        exp = expected_game(objs[i])
        check(int(idx) == exp["game_index"] and white == exp["White"], f"{name}: CSV row {i}")
        check(json.loads(moves) == exp["moves"], f"{name}: CSV moves of row {i}")
    check_dataset(con, f["dataset"], games, name, group["parts"])
    if group.get("lichess"):
        lichess_query(con, src, name)
    print(f"{name}: {games} games, {group['move_rows']} moves: pyarrow, DuckDB, CSV, dataset ok")


def check_dataset(con, directory, rows, name, parts):
    n = con.execute(f"SELECT count(*) FROM read_parquet('{directory}/*.parquet')").fetchone()[0]
    check(n == rows, f"{name}: DuckDB dataset rows {n} != {rows}")
    d = ds.dataset(directory, format="parquet")
    check(d.count_rows() == rows, f"{name}: pyarrow dataset rows {d.count_rows()} != {rows}")
    check(len(d.files) == parts, f"{name}: dataset of {len(d.files)} files, not {parts}")
    check(all("kifu-tmp" not in p for p in d.files), f"{name}: a temporary file read")


def lichess_query(con, src, name):
    """A query written for the Lichess/standard-chess-games dataset, run unchanged."""
    q = f"""
        SELECT Opening, count(*) AS games, avg(WhiteElo + BlackElo) / 2 AS rating,
               avg(WhiteRatingDiff) AS gain
        FROM {src}
        WHERE UTCDate >= DATE '2013-01-01' AND UTCTime < TIME '23:59:59'
          AND Termination = 'Normal' AND TimeControl LIKE '%+%'
          AND WhiteTitle IS NULL AND movetext LIKE '1. e4 %'
        GROUP BY Opening ORDER BY games DESC LIMIT 3
    """
    rows = con.execute(q).fetchall()
    check(len(rows) >= 1 and rows[0][1] > 0, f"{name}: the lichess query answers {rows}")


# ----- SGF ---------------------------------------------------------------------------------------

def main_line_nodes(tree):
    out, t = [], tree
    while True:
        out.extend(t["nodes"])
        if not t["variations"]:
            return out
        t = t["variations"][0]


def count_nodes_and_variations(tree):
    nodes, variations, stack = 0, 0, [tree]
    while stack:
        t = stack.pop()
        nodes += len(t["nodes"])
        if len(t["variations"]) > 1:
            variations += len(t["variations"]) - 1
        stack.extend(t["variations"])
    return nodes, variations


def sgf_moves(root_props, nodes):
    size = 19
    sz = next((v for n, v in root_props if n == "SZ"), None)
    cols = rows = 19
    if sz:
        parts = sz[0].split(":")
        try:
            dims = [int(p.strip()) for p in parts]
            if len(dims) == 1 and 1 <= dims[0] <= 52:
                cols = rows = dims[0]
            elif len(dims) == 2 and all(1 <= d <= 52 for d in dims):
                cols, rows = dims
        except ValueError:
            pass
    del size

    def coord(c):
        if "a" <= c <= "z":
            return ord(c) - 97
        if "A" <= c <= "Z":
            return ord(c) - 65 + 26
        return None

    moves, colors = [], ""
    for node in nodes:
        mv = next(((n, v) for n, v in node["props"] if n in ("B", "W")), None)
        if mv is None or not mv[1]:
            continue
        value = mv[1][0]
        if value == "" or (value == "tt" and cols <= 19 and rows <= 19):
            point = None
        else:
            if len(value) != 2:
                continue
            x, y = coord(value[0]), coord(value[1])
            if x is None or y is None or x >= cols or y >= rows:
                continue
            point = value
        moves.append(point)
        colors += "B" if mv[0] == "B" else "W"
    return moves, colors


def expected_rank(text):
    """The value of a rank in the short form FF[4] recommends (`7d`, `3k*`, `9p`), None for no
    rank (`?`, `-`, empty); SKIP for the other forms."""
    if text is None or text.strip() in ("", "?", "-"):
        return None
    m = re.fullmatch(r"\s*([0-9]{1,2})([kdpKDP])\s*[*?]?\s*", text)
    if not m:
        return SKIP
    n, scale = int(m.group(1)), m.group(2).lower()
    if scale == "k":
        return -n if 1 <= n <= 50 else None
    if not 1 <= n <= 9:
        return None
    return n if scale == "d" else 9 + n


def expected_result(text):
    """(winner, win_by, margin) of a result of FF[4] (`B+R`, `W+3.5`, `0`, `Void`, `?`);
    SKIP for the other forms."""
    if text is None:
        return (None, None, None)
    t = text.strip(ASCII_WS)
    if t in ("0", "Draw"):
        return (None, "draw", None)
    if t == "Void":
        return (None, "void", None)
    if t == "?":
        return (None, None, None)
    m = re.fullmatch(r"([BW])\+(R|Resign|T|Time|F|Forfeit|[0-9]+(?:\.[0-9]+)?)?", t)
    if not m:
        return SKIP
    how = m.group(2)
    winner = {"B": "black", "W": "white"}[m.group(1)]
    by = {"R": "resign", "Resign": "resign", "T": "time", "Time": "time", "F": "forfeit",
          "Forfeit": "forfeit"}
    if how is None:
        return (winner, None, None)
    if how in by:
        return (winner, by[how], None)
    return (winner, "points", float(how))


def check_sgf(group, con):
    name, f = group["name"], group["files"]
    trees = group["games"]
    t = pq.read_table(f["games"])
    check(t.num_rows == trees, f"{name}: pyarrow rows {t.num_rows} != {trees}")
    check_types(t.schema, TREES_TYPES, f"{name} trees")
    m = pq.read_table(f["moves"])
    check(m.num_rows == group["move_rows"], f"{name}: moves rows {m.num_rows} != {group['move_rows']}")
    check_types(m.schema, SGF_MOVES_TYPES, f"{name} moves")
    src = f"read_parquet('{f['games']}')"
    n = con.execute(f"SELECT count(*) FROM {src}").fetchone()[0]
    check(n == trees, f"{name}: DuckDB rows")
    check_duck_types(con, src, DUCK_TREES, name)
    objs = read_jsonl(f["json"])
    check(len(objs) == trees, f"{name}: json lines")
    rows = t.select(["file", "game_index", "byte_offset", "PB", "PW", "RE", "KM", "moves", "colors",
                     "nodes", "variations", "error_count", "black_rank", "white_rank", "winner",
                     "win_by", "margin"]).to_pylist()
    for i in sample(trees):
        o, r = objs[i], rows[i]
        check((r["file"], r["game_index"], r["byte_offset"]) == (o["file"], o["index"], o["offset"]),
              f"{name} tree {i}: key")
        nodes = main_line_nodes(o["tree"])
        root = nodes[0]["props"] if nodes else []
        first = lambda p: next((v[0] for n, v in root if n == p and v), None)  # noqa: E731
        for p in ("PB", "PW", "RE"):
            check(r[p] == first(p), f"{name} tree {i}: {p}: {r[p]!r} != {first(p)!r}")
        km = first("KM")
        if km is not None and re.fullmatch(r"\s*[+-]?\d+(\.\d+)?\s*", km):
            check(same(r["KM"], float(km)), f"{name} tree {i}: KM")
        for p, col in (("BR", "black_rank"), ("WR", "white_rank")):
            exp = expected_rank(first(p))
            if exp is not SKIP:
                check(r[col] == exp, f"{name} tree {i}: {col} of {first(p)!r}: {r[col]} != {exp}")
        exp = expected_result(first("RE"))
        if exp is not SKIP:
            got = (r["winner"], r["win_by"], r["margin"])
            check(got == exp, f"{name} tree {i}: result of {first('RE')!r}: {got} != {exp}")
        moves, colors = sgf_moves(root, nodes)
        check(r["moves"] == moves, f"{name} tree {i}: moves {r['moves'][:5]} != {moves[:5]}")
        check(r["colors"] == colors, f"{name} tree {i}: colors")
        n_nodes, n_vars = count_nodes_and_variations(o["tree"])
        check((r["nodes"], r["variations"]) == (n_nodes, n_vars), f"{name} tree {i}: counts")
        check(r["error_count"] == len(o["errors"]) + o.get("errors_dropped", 0), f"{name} tree {i}: errors")
    n = con.execute(f"SELECT count(*) FROM read_csv('{f['csv']}', header = true)").fetchone()[0]
    check(n == trees, f"{name}: CSV rows {n} != {trees}")
    check_dataset(con, f["dataset"], trees, name, group["parts"])
    print(f"{name}: {trees} trees, {group['move_rows']} moves: pyarrow, DuckDB, CSV, dataset ok")


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        manifest = json.load(f)
    con = duckdb.connect()
    for group in manifest["groups"]:
        (check_sgf if group["format"] == "sgf" else check_pgn)(group, con)
    print(f"engines: pyarrow {pa.__version__}, duckdb {duckdb.__version__}")
    print(f"{CHECKS} passed, 0 failed")


if __name__ == "__main__":
    main()
