//! `kifu.find` (the games that reach a position or show a pattern, with the plies where they
//! do, one at a time in input order) and `kifu.explore` (what was played next, as an Arrow
//! table): kifu-pipeline's `find` and `explore` jobs, the ones `kifu find` and `kifu explore`
//! run (docs/search.md), chess queries on the main line searched on the parser's events first
//! (`find::FindWork`: a game is built only when it may match).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use kifu::par::{Event, Visited};
use kifu::{Format, pgn, sgf};
use kifu_pipeline::explore::{Explorer, Exploring, Group};
use kifu_pipeline::find::{ChessSpec, FindWork, Finder, Query};
use kifu_pipeline::go_find::{GoExplorer, GoQuery, Next};
use kifu_pipeline::go_find::{MAX_GO_PATTERN_BYTES, read_pattern_file};
use kifu_pipeline::keys::AnyOf;
use kifu_pipeline::{DomScope, Formats, Input, PerGame};
use kifu_replay::go::{Anchor, Pattern};
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::pgn_py::Game;
use crate::scan::{self, Msg, Pump};
use crate::sgf_py::GameTree;

/// The Go query of the keyword arguments: `go_pattern` (the pattern's text, or a path to a
/// pattern file or an SGF file), `anchor`, `swap_colors`.
pub struct GoArgs<'a, 'py> {
    /// `go_pattern=`.
    pub pattern: Option<&'a Bound<'py, PyAny>>,
    /// `anchor=`.
    pub anchor: Option<String>,
    /// `swap_colors=`.
    pub swap_colors: bool,
}

/// Whether `text` is a pattern's text rather than a path: it holds a line break, or only the
/// characters of a pattern's points (`X`, `O`, `.`, `*`, `x`, `o`, `?`, spaces), or it is SGF
/// text (`(;` first).
fn is_pattern_text(text: &str) -> bool {
    text.contains('\n')
        || text.trim_start().starts_with("(;")
        || (!text.trim().is_empty()
            && text
                .chars()
                .all(|c| matches!(c, 'X' | 'O' | '.' | '*' | 'x' | 'o' | '?' | ' ' | '\t')))
}

impl GoArgs<'_, '_> {
    /// The pattern, anchored and with its colour swap; `None` without `go_pattern`.
    fn pattern(&self) -> PyResult<Option<Pattern>> {
        let Some(value) = self.pattern.filter(|v| !v.is_none()) else {
            if self.anchor.is_some() || self.swap_colors {
                return Err(PyValueError::new_err(
                    "anchor= and swap_colors= go with go_pattern=",
                ));
            }
            return Ok(None);
        };
        let bad = |what: &str, e: String| PyValueError::new_err(format!("go_pattern {what}: {e}"));
        let text_of = |text: &str| {
            if text.trim_start().starts_with("(;") {
                Pattern::from_sgf(text.as_bytes())
            } else {
                Pattern::parse(text)
            }
            .map_err(|e| bad("text", e.to_string()))
        };
        let pattern = if value.is_instance_of::<PyString>()
            && is_pattern_text(&value.extract::<String>()?)
        {
            text_of(&value.extract::<String>()?)?
        } else {
            let path: std::path::PathBuf = value.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "go_pattern must be the pattern's text (str) or a path (str or os.PathLike)",
                )
            })?;
            let shown = path.display().to_string();
            // read as the CLI reads --go-pattern: up to MAX_GO_PATTERN_BYTES, a larger file
            // (or /dev/zero) refused
            let bytes = read_pattern_file(&path).map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    PyFileNotFoundError::new_err((2, "No such file or directory", shown.clone()))
                } else {
                    pyo3::exceptions::PyOSError::new_err(format!("{shown}: {e}"))
                }
            })?;
            let Some(bytes) = bytes else {
                return Err(bad(
                    &shown,
                    format!(
                        "more than {MAX_GO_PATTERN_BYTES} bytes: not a pattern (at most 52x52 \
                         points or one SGF game)"
                    ),
                ));
            };
            let sgf = path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("sgf"));
            if sgf {
                Pattern::from_sgf(&bytes).map_err(|e| bad(&shown, e.to_string()))?
            } else {
                let text = std::str::from_utf8(&bytes)
                    .map_err(|_| bad(&shown, "not UTF-8 text".into()))?;
                Pattern::parse(text).map_err(|e| bad(&shown, e.to_string()))?
            }
        };
        let anchor: Option<Anchor> =
            self.anchor
                .as_deref()
                .map(str::parse)
                .transpose()
                .map_err(|e: String| {
                    PyValueError::new_err(format!(
                        "anchor must be 'corner', 'edge' or 'anywhere' ({e})"
                    ))
                })?;
        // the anchor a GNU Go file draws (its board edge) unless anchor= says one
        let pattern = pattern
            .with_anchor_asked(anchor)
            .map_err(|e| PyValueError::new_err(format!("go_pattern: {e} (anchor=)")))?;
        Ok(Some(pattern.swap_colors(self.swap_colors)))
    }
}

/// The query of the keyword arguments, and the `where` tests.
#[allow(clippy::too_many_arguments)]
fn query_of(
    fen: Option<String>,
    subfen: Option<String>,
    material: Option<String>,
    then: Option<crate::Texts>,
    within: Option<crate::Within>,
    min_ply: crate::PlyArg,
    max_ply: crate::PlyArg,
    variations: bool,
    where_: Option<crate::Texts>,
    go: &GoArgs<'_, '_>,
) -> PyResult<(Arc<Query>, Arc<Vec<AnyOf>>)> {
    let (min_ply, max_ply) = (
        crate::ply("min_ply", min_ply)?,
        crate::ply("max_ply", max_ply)?,
    );
    let then = then.map(crate::Texts::into_vec).unwrap_or_default();
    let tests = where_
        .map(crate::Texts::into_vec)
        .unwrap_or_default()
        .iter()
        .map(|t| t.parse::<AnyOf>().map_err(PyValueError::new_err))
        .collect::<PyResult<Vec<_>>>()?;
    crate::scan::warn_near_misses(tests.iter().flat_map(|t| t.keys()))?;
    if let Some(pattern) = go.pattern()? {
        let chess = fen.is_some()
            || subfen.is_some()
            || material.is_some()
            || !then.is_empty()
            || within.is_some()
            || min_ply.is_some()
            || max_ply.is_some()
            || variations;
        if chess {
            return Err(PyValueError::new_err(
                "go_pattern= is a Go query: fen, subfen, material, then, within, min_ply, \
                 max_ply and variations are chess's",
            ));
        }
        let query = Query::Go(pattern);
        warn_notes(None, &[], &query)?;
        return Ok((Arc::new(query), Arc::new(tests)));
    }
    let spec = ChessSpec {
        fen,
        subfen,
        material,
        within: match within {
            None => Vec::new(),
            Some(_) if then.is_empty() => {
                return Err(PyValueError::new_err(
                    "within= bounds the steps of then=: no then= step to bound (as --within \
                     needs a --then)",
                ));
            }
            Some(crate::Within::Every(n)) => vec![Some(n); then.len()],
            Some(crate::Within::Each(bounds)) if bounds.len() != then.len() => {
                return Err(PyValueError::new_err(format!(
                    "within= has {} bound{} and then= {} step{}: one bound (or None) per step",
                    bounds.len(),
                    if bounds.len() == 1 { "" } else { "s" },
                    then.len(),
                    if then.len() == 1 { "" } else { "s" }
                )));
            }
            Some(crate::Within::Each(bounds)) => bounds,
        },
        then,
        min_ply,
        max_ply,
        variations,
    };
    let query = spec.query().map_err(|e| {
        PyValueError::new_err(
            e.replace("--", "")
                .replace("then ", "then: ")
                .replace("min-ply", "min_ply")
                .replace("max-ply", "max_ply"),
        )
    })?;
    warn_notes(spec.fen.as_deref(), &spec.then, &query)?;
    Ok((Arc::new(query), Arc::new(tests)))
}

/// Says the query's notes ([`query_notes`](kifu_pipeline::find::query_notes): a FEN without
/// its castling field, a Go pattern larger than a 19x19 board) as `UserWarning`s, as the
/// command line says them on stderr.
fn warn_notes(fen: Option<&str>, then: &[String], query: &Query) -> PyResult<()> {
    for note in
        kifu_pipeline::find::query_notes(fen, then, query, kifu_pipeline::find::Names::PYTHON)
    {
        Python::attach(|py| crate::scan::warn(py, note.trim_start_matches("note: ")))?;
    }
    Ok(())
}

/// One game found, as the scan's thread hands it over.
struct Item {
    file: Arc<str>,
    game: Record,
    plies: Vec<u32>,
    variation_plies: Vec<u32>,
}

/// A game found: a PGN game (a chess query) or an SGF game tree (a Go pattern).
enum Record {
    Pgn(pgn::Game),
    Sgf(sgf::GameTree),
}

/// A piece's games found.
struct Collect {
    file: Arc<str>,
    finder: Finder,
    tests: Arc<Vec<AnyOf>>,
    items: Vec<Item>,
}

impl PerGame for Collect {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if self.tests.iter().all(|t| t.holds(&game))
            && let Some(m) = self.finder.pgn(&game)
        {
            self.items.push(Item {
                file: Arc::clone(&self.file),
                game: Record::Pgn(game),
                plies: m.plies,
                variation_plies: m.variation_plies,
            });
            return None;
        }
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if self.tests.iter().all(|t| t.holds(&tree))
            && let Some(m) = self.finder.sgf(&tree)
        {
            self.items.push(Item {
                file: Arc::clone(&self.file),
                game: Record::Sgf(tree),
                plies: m.plies,
                variation_plies: m.variation_plies,
            });
        }
    }
}

/// A game `kifu.find` found: the game (a `Game` as `read_pgn` gives it, or for a Go pattern a
/// `GameTree` as `read_sgf` gives it) and the plies where the query matched (Go: the move
/// numbers of the positions where the pattern stands, 0 the start).
#[pyclass(module = "kifu", name = "Found", frozen)]
pub struct Found {
    /// The game.
    #[pyo3(get)]
    game: Py<PyAny>,
    /// The main-line plies (0: the start) where the query matched.
    #[pyo3(get)]
    plies: Vec<u32>,
    /// The plies in variations (with `variations=True`).
    #[pyo3(get)]
    variation_plies: Vec<u32>,
}

#[pymethods]
impl Found {
    fn __repr__(&self) -> String {
        format!(
            "Found(plies={:?}, variation_plies={:?})",
            self.plies, self.variation_plies
        )
    }
}

/// The games found, one at a time, in input order. Iterating runs the search on threads of
/// its own, the GIL released; stopping early (`close()`, `break`) stops it.
#[pyclass(module = "kifu", name = "FindReader")]
pub struct FindReader {
    state: Mutex<State>,
}

struct State {
    pump: Option<Pump<Item>>,
    queue: VecDeque<Item>,
    /// The format searched (PGN for chess, SGF for a Go pattern).
    format: Format,
}

#[pymethods]
impl FindReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Found>> {
        let state = self
            .state
            .get_mut()
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("reader poisoned"))?;
        loop {
            if let Some(item) = state.queue.pop_front() {
                let game = match item.game {
                    Record::Pgn(g) => Py::new(py, Game::new(item.file, g, None))?.into_any(),
                    Record::Sgf(t) => Py::new(
                        py,
                        GameTree::new(item.file, t, None, kifu_export::Charset::Auto),
                    )?
                    .into_any(),
                };
                return Ok(Some(Found {
                    game,
                    plies: item.plies,
                    variation_plies: item.variation_plies,
                }));
            }
            let Some(pump) = state.pump.as_mut() else {
                return Ok(None);
            };
            match pump.recv(py)? {
                Some(Msg::Items(items)) => state.queue.extend(items),
                Some(Msg::Warn(w)) => scan::warn(py, &w)?,
                Some(Msg::End(scanned)) => {
                    let py_error = pump.take_py_error();
                    state.pump = None;
                    scan::finish(py, &scanned, py_error, Some(state.format))?;
                    return Ok(None);
                }
                None => {
                    state.pump = None;
                    return Ok(None);
                }
            }
        }
    }

    /// Stops the search: its threads end, the games not yet taken are dropped.
    fn close(&mut self) {
        if let Ok(state) = self.state.get_mut() {
            state.pump = None;
            state.queue.clear();
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close();
        false
    }
}

/// The consumer is gone: the scan stops.
#[derive(Debug)]
struct Stopped;

/// The games of `source` that reach a position or show a pattern (docs/search.md): an
/// iterator of `Found` (`.game`, `.plies`, `.variation_plies`), in input order.
#[pyfunction]
#[pyo3(signature = (source, *, fen = None, subfen = None, material = None, then = None,
                    within = None, min_ply = None, max_ply = None, variations = false,
                    r#where = None, go_pattern = None, anchor = None, swap_colors = false,
                    threads = None, max_game_bytes = crate::DEFAULT_MAX_GAME_BYTES, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn find(
    source: &Bound<'_, PyAny>,
    fen: Option<String>,
    subfen: Option<String>,
    material: Option<String>,
    then: Option<crate::Texts>,
    within: Option<crate::Within>,
    min_ply: crate::PlyArg,
    max_ply: crate::PlyArg,
    variations: bool,
    r#where: Option<crate::Texts>,
    go_pattern: Option<&Bound<'_, PyAny>>,
    anchor: Option<String>,
    swap_colors: bool,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
) -> PyResult<FindReader> {
    let go = GoArgs {
        pattern: go_pattern,
        anchor,
        swap_colors,
    };
    let (query, tests) = query_of(
        fen, subfen, material, then, within, min_ply, max_ply, variations, r#where, &go,
    )?;
    let format = match *query {
        Query::Go(_) => Format::Sgf,
        _ => Format::Pgn,
    };
    crate::at_least_one("max_game_bytes", max_game_bytes)?;
    let (source, slot) = crate::source::extract(source, name)?;
    let mut opts = scan::options(threads)?;
    // the games found wait as DOMs for the consumer: small pieces keep that small
    opts.piece_size = 256 << 10;
    let capacity = opts.threads.max(4);
    let pump = Pump::start(capacity, slot, move |tx, stop| {
        let scope = DomScope::FULL.with_max_game_bytes(max_game_bytes);
        // a chess query on the main line: each game searched on the parser's events first,
        // built only when it may match (as `kifu find` runs it)
        let searched = Arc::clone(&query);
        let work = FindWork::new(&searched, scope, move |input: &Input| Collect {
            file: Arc::clone(&input.name),
            finder: Finder::new(Arc::clone(&query), true),
            tests: Arc::clone(&tests),
            items: Vec::new(),
        });
        let warn = tx.clone();
        let scanned = scan::scan(source, Formats::only(format), opts, &stop).run(
            &work,
            |event| {
                if let Event::Piece { visited, info, .. } = event {
                    let mut items = match visited {
                        Visited::Pgn(mut d) => std::mem::take(&mut d.each.items),
                        Visited::Sgf(mut d) => std::mem::take(&mut d.each.items),
                    };
                    if items.is_empty() {
                        return Ok(());
                    }
                    for item in &mut items {
                        match &mut item.game {
                            Record::Pgn(game) => game.index += info.first_game,
                            Record::Sgf(tree) => {
                                let pos = tree.position();
                                tree.set_origin(tree.index() + info.first_game, pos);
                            }
                        }
                    }
                    tx.send(Msg::Items(items)).map_err(|_| Stopped)?;
                }
                Ok::<(), Stopped>(())
            },
            |note| {
                if let kifu_pipeline::Note::NoGame { problems, .. } = note
                    && problems > 0
                {
                    let _ = warn.send(Msg::Warn(scan::note_text(&note)));
                }
            },
        );
        if let Ok(scanned) = scanned {
            let _ = tx.send(Msg::End(scanned));
        }
    });
    Ok(FindReader {
        state: Mutex::new(State {
            pump: Some(pump),
            queue: VecDeque::new(),
            format,
        }),
    })
}

/// What was played next from the positions of `source` that the query matches: a
/// `pyarrow.Table` with the columns of `kifu explore --json` (docs/search.md).
#[pyfunction]
#[pyo3(signature = (source, *, fen = None, subfen = None, material = None, then = None,
                    within = None, min_ply = None, max_ply = None, variations = false,
                    r#where = None, go_pattern = None, anchor = None, swap_colors = false,
                    by = None, max_entries = Explorer::DEFAULT_MAX_ENTRIES,
                    threads = None, max_game_bytes = crate::DEFAULT_MAX_GAME_BYTES, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn explore<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    fen: Option<String>,
    subfen: Option<String>,
    material: Option<String>,
    then: Option<crate::Texts>,
    within: Option<crate::Within>,
    min_ply: crate::PlyArg,
    max_ply: crate::PlyArg,
    variations: bool,
    r#where: Option<crate::Texts>,
    go_pattern: Option<&Bound<'py, PyAny>>,
    anchor: Option<String>,
    swap_colors: bool,
    by: Option<String>,
    max_entries: usize,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let go = GoArgs {
        pattern: go_pattern,
        anchor,
        swap_colors,
    };
    let (query, tests) = query_of(
        fen, subfen, material, then, within, min_ply, max_ply, variations, r#where, &go,
    )?;
    let max_entries = crate::at_least_one("max_entries", max_entries)?;
    crate::at_least_one("max_game_bytes", max_game_bytes)?;
    let group = by
        .as_deref()
        .map(Group::parse)
        .transpose()
        .map_err(PyValueError::new_err)?;
    // `by='Evnet'`: did you mean `Event`? (as for the keys of where=)
    if let Some(Group::Key(k)) = &group {
        crate::scan::warn_near_misses([k])?;
    }
    if let Query::Go(pattern) = &*query {
        let key = match group {
            None => None,
            Some(Group::Key(k)) => Some(k),
            Some(_) => {
                return Err(PyValueError::new_err(
                    "by='rating:N' bands the Elo ratings of chess players: group Go games by a \
                     rank (by='black_rank', 'white_rank') or another key",
                ));
            }
        };
        let query = GoQuery::new(pattern.clone()).with_tests(tests.to_vec());
        let grouped = key.is_some();
        let explorer = GoExplorer::grouped(key, max_entries);
        return explore_go(py, source, &query, explorer, grouped, threads, name);
    }
    let grouped = group.is_some();
    let (source, slot) = crate::source::extract(source, name)?;
    let opts = scan::options(threads)?;
    let scope = if variations {
        DomScope::FULL
    } else {
        DomScope::MAIN_LINE
    }
    .with_max_game_bytes(max_game_bytes);
    let mut explorer = Explorer::new(group.clone(), max_entries);
    // as `kifu explore` runs it: a chess query on the main line searched on the parser's
    // events first, a game built only when it may match
    let work = Exploring::new(Arc::clone(&query), group, tests.to_vec()).work(scope);
    let result = scan::interruptible(py, |stop| {
        scan::scan(source, Formats::only(Format::Pgn), opts, stop).run(
            &work,
            |event| {
                explorer.take(event);
                Ok::<(), std::convert::Infallible>(())
            },
            |_| {},
        )
    })?;
    let Ok(scanned) = result;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &scanned, py_error, Some(Format::Pgn))?;
    warn_dropped(py, explorer.dropped, explorer.max_entries)?;
    let rows = explorer.rows();
    table(py, &rows, grouped)
}

/// The warning of an explorer that stopped adding rows at `max_entries`.
fn warn_dropped(py: Python<'_>, dropped: u64, max_entries: usize) -> PyResult<()> {
    if dropped > 0 {
        scan::warn(
            py,
            &format!(
                "kifu.explore: {dropped} {} of moves past max_entries={max_entries} not counted",
                if dropped == 1 { "play" } else { "plays" }
            ),
        )?;
    }
    Ok(())
}

/// pyarrow, which `kifu.explore` returns its tables in.
fn pyarrow(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyModule>> {
    py.import("pyarrow").map_err(|_| {
        pyo3::exceptions::PyImportError::new_err(
            "kifu.explore returns a pyarrow.Table: pip install pyarrow",
        )
    })
}

/// `pyarrow.table(columns, schema=pyarrow.schema(fields))`.
fn arrow_table<'py>(
    pa: &Bound<'py, pyo3::types::PyModule>,
    fields: Vec<(&str, Bound<'py, PyAny>)>,
    columns: &Bound<'py, pyo3::types::PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    let schema = pa.call_method1("schema", (fields,))?;
    let kwargs = pyo3::types::PyDict::new(pa.py());
    kwargs.set_item("schema", schema)?;
    pa.call_method("table", (columns,), Some(&kwargs))
}

/// The rows as a `pyarrow.Table`, columns and types fixed (an empty table has them too).
fn table<'py>(
    py: Python<'py>,
    rows: &[kifu_pipeline::explore::Row],
    grouped: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let string = pa.call_method0("string")?;
    let int64 = pa.call_method0("int64")?;
    let float64 = pa.call_method0("float64")?;
    let mut fields: Vec<(&str, Bound<'py, PyAny>)> = Vec::new();
    if grouped {
        fields.push(("group", string.clone()));
    }
    fields.extend([
        ("fen", string.clone()),
        ("san", string.clone()),
        ("uci", string.clone()),
        ("games", int64.clone()),
        ("white", int64.clone()),
        ("draws", int64.clone()),
        ("black", int64.clone()),
        ("white_share", float64.clone()),
        ("draw_share", float64.clone()),
        ("black_share", float64.clone()),
        ("mean_elo", float64.clone()),
        ("last_date", string.clone()),
        ("file", string.clone()),
        ("game", int64.clone()),
    ]);
    let columns = pyo3::types::PyDict::new(py);
    macro_rules! col {
        ($name:literal, $f:expr) => {
            columns.set_item($name, rows.iter().map($f).collect::<Vec<_>>())?
        };
    }
    if grouped {
        col!("group", |r| r.group.clone());
    }
    col!("fen", |r| r.fen.clone());
    col!("san", |r| r.san.clone());
    col!("uci", |r| r.uci.clone());
    col!("games", |r| r.games);
    col!("white", |r| r.white);
    col!("draws", |r| r.draws);
    col!("black", |r| r.black);
    col!("white_share", |r| r.white_share);
    col!("draw_share", |r| r.draw_share);
    col!("black_share", |r| r.black_share);
    col!("mean_elo", |r| r.mean_elo);
    col!("last_date", |r| r.last_date.clone());
    col!("file", |r| r.file.clone());
    col!("game", |r| r.game);
    arrow_table(&pa, fields, &columns)
}

/// `kifu.explore(go_pattern=...)`: the next moves from every position where the pattern
/// stands, counted with who won, as `kifu explore --go-pattern --json` writes them.
fn explore_go<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    query: &GoQuery,
    mut explorer: GoExplorer,
    grouped: bool,
    threads: Option<usize>,
    name: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (source, slot) = crate::source::extract(source, name)?;
    let opts = scan::options(threads)?;
    let found = scan::interruptible(py, |stop| {
        scan::scan(source, Formats::only(Format::Sgf), opts, stop).go_find(
            query,
            |hit| {
                explorer.add(&hit);
                Ok::<(), std::convert::Infallible>(())
            },
            |_| {},
        )
    })?;
    let Ok(found) = found;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &found.scanned, py_error, Some(Format::Sgf))?;
    warn_dropped(py, explorer.dropped, explorer.max_entries)?;
    go_table(py, &explorer.rows(), grouped)
}

/// The Go rows as a `pyarrow.Table`: the members of `kifu explore --go-pattern --json`.
fn go_table<'py>(
    py: Python<'py>,
    rows: &[&kifu_pipeline::go_find::NextRow],
    grouped: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let string = pa.call_method0("string")?;
    let int64 = pa.call_method0("int64")?;
    let int8 = pa.call_method0("int8")?;
    let mut fields: Vec<(&str, Bound<'py, PyAny>)> = Vec::new();
    if grouped {
        fields.push(("group", string.clone()));
    }
    fields.extend([
        ("move", string.clone()),
        ("kind", string.clone()),
        ("color", string.clone()),
        ("x", int8.clone()),
        ("y", int8.clone()),
        ("games", int64.clone()),
        ("positions", int64.clone()),
        ("x_wins", int64.clone()),
        ("o_wins", int64.clone()),
        ("other", int64.clone()),
        ("file", string.clone()),
        ("game", int64.clone()),
        ("ply", int64.clone()),
    ]);
    let colour = |c: &sgf::Color| match c {
        sgf::Color::Black => "X",
        sgf::Color::White => "O",
    };
    let parts = |r: &&kifu_pipeline::go_find::NextRow| match &r.next {
        Next::At { x, y, color } => ("point", Some(colour(color)), Some(*x), Some(*y)),
        Next::Tenuki { color } => ("tenuki", Some(colour(color)), None, None),
        Next::Pass { color } => ("pass", Some(colour(color)), None, None),
        Next::End => ("end", None, None, None),
    };
    let columns = pyo3::types::PyDict::new(py);
    macro_rules! col {
        ($name:literal, $f:expr) => {
            columns.set_item($name, rows.iter().map($f).collect::<Vec<_>>())?
        };
    }
    if grouped {
        col!("group", |r| r.group.clone());
    }
    col!("move", |r| r.next.to_string());
    col!("kind", |r| parts(r).0);
    col!("color", |r| parts(r).1);
    col!("x", |r| parts(r).2);
    col!("y", |r| parts(r).3);
    col!("games", |r| r.games);
    col!("positions", |r| r.count);
    col!("x_wins", |r| r.x_wins);
    col!("o_wins", |r| r.o_wins);
    col!("other", |r| r.other);
    col!("file", |r| r.example.file.to_string());
    col!("game", |r| r.example.game + 1);
    col!("ply", |r| r.example.ply);
    arrow_table(&pa, fields, &columns)
}
