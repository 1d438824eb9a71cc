//! `kifu.find` (the games that reach a position or show a pattern, with the plies where they
//! do, one at a time in input order) and `kifu.explore` (what was played next, as an Arrow
//! table): kifu-pipeline's `find` and `explore` jobs, the ones `kifu find` and `kifu explore`
//! run (docs/search.md).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use kifu::par::{Event, Visited};
use kifu::{Format, pgn, sgf};
use kifu_pipeline::explore::{Explorer, Group, Plays};
use kifu_pipeline::find::{ChessSpec, Finder, Query};
use kifu_pipeline::keys::AnyOf;
use kifu_pipeline::{DomScope, DomWork, Formats, Input, PerGame};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::pgn_py::Game;
use crate::scan::{self, Msg, Pump};

/// The query of the keyword arguments, and the `where` tests.
#[allow(clippy::too_many_arguments)]
fn query_of(
    fen: Option<String>,
    subfen: Option<String>,
    material: Option<String>,
    then: Option<Vec<String>>,
    within: Option<u32>,
    min_ply: Option<u32>,
    max_ply: Option<u32>,
    variations: bool,
    where_: Option<Vec<String>>,
) -> PyResult<(Arc<Query>, Arc<Vec<AnyOf>>)> {
    let spec = ChessSpec {
        fen,
        subfen,
        material,
        then: then.unwrap_or_default(),
        within,
        min_ply,
        max_ply,
        variations,
    };
    let query = spec
        .query()
        .map_err(|e| PyValueError::new_err(e.replace("--", "").replace("then ", "then: ")))?;
    let tests = where_
        .unwrap_or_default()
        .iter()
        .map(|t| t.parse::<AnyOf>().map_err(PyValueError::new_err))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((Arc::new(query), Arc::new(tests)))
}

/// One game found, as the scan's thread hands it over.
struct Item {
    file: Arc<str>,
    game: pgn::Game,
    plies: Vec<u32>,
    variation_plies: Vec<u32>,
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
                game,
                plies: m.plies,
                variation_plies: m.variation_plies,
            });
            return None;
        }
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        let _ = self.finder.sgf(&tree);
    }
}

/// A game `kifu.find` found: the game (as `read_pgn` gives it) and the plies where the query
/// matched.
#[pyclass(module = "kifu", name = "Found", frozen)]
pub struct Found {
    /// The game.
    #[pyo3(get)]
    game: Py<Game>,
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
                let game = Py::new(py, Game::new(item.file, item.game, None))?;
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
                    scan::finish(py, &scanned, py_error, Some(Format::Pgn))?;
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
                    r#where = None, threads = None, max_game_bytes = crate::DEFAULT_MAX_GAME_BYTES,
                    name = None))]
#[allow(clippy::too_many_arguments)]
pub fn find(
    source: &Bound<'_, PyAny>,
    fen: Option<String>,
    subfen: Option<String>,
    material: Option<String>,
    then: Option<Vec<String>>,
    within: Option<u32>,
    min_ply: Option<u32>,
    max_ply: Option<u32>,
    variations: bool,
    r#where: Option<Vec<String>>,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
) -> PyResult<FindReader> {
    let (query, tests) = query_of(
        fen, subfen, material, then, within, min_ply, max_ply, variations, r#where,
    )?;
    let (source, slot) = crate::source::extract(source, name)?;
    let mut opts = scan::options(threads)?;
    // the games found wait as DOMs for the consumer: small pieces keep that small
    opts.piece_size = 256 << 10;
    let capacity = opts.threads.max(4);
    let pump = Pump::start(capacity, slot, move |tx, stop| {
        let scope = DomScope::FULL.with_max_game_bytes(max_game_bytes);
        let work = DomWork::new(scope, move |input: &Input| Collect {
            file: Arc::clone(&input.name),
            finder: Finder::new(Arc::clone(&query), true),
            tests: Arc::clone(&tests),
            items: Vec::new(),
        });
        let warn = tx.clone();
        let scanned = scan::scan(source, Formats::only(Format::Pgn), opts, &stop).run(
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
                        item.game.index += info.first_game;
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
        }),
    })
}

/// A piece's plays, of the games passing `where`.
struct Tested {
    plays: Plays,
    tests: Arc<Vec<AnyOf>>,
}

impl PerGame for Tested {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if self.tests.iter().all(|t| t.holds(&game)) {
            self.plays.pgn(&game);
        }
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.plays.sgf(&tree);
    }
}

/// What was played next from the positions of `source` that the query matches: a
/// `pyarrow.Table` with the columns of `kifu explore --json` (docs/search.md).
#[pyfunction]
#[pyo3(signature = (source, *, fen = None, subfen = None, material = None, then = None,
                    within = None, min_ply = None, max_ply = None, variations = false,
                    r#where = None, by = None, max_entries = Explorer::DEFAULT_MAX_ENTRIES,
                    threads = None, max_game_bytes = crate::DEFAULT_MAX_GAME_BYTES, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn explore<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    fen: Option<String>,
    subfen: Option<String>,
    material: Option<String>,
    then: Option<Vec<String>>,
    within: Option<u32>,
    min_ply: Option<u32>,
    max_ply: Option<u32>,
    variations: bool,
    r#where: Option<Vec<String>>,
    by: Option<String>,
    max_entries: usize,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (query, tests) = query_of(
        fen, subfen, material, then, within, min_ply, max_ply, variations, r#where,
    )?;
    let group = by
        .as_deref()
        .map(Group::parse)
        .transpose()
        .map_err(PyValueError::new_err)?;
    let grouped = group.is_some();
    let (source, slot) = crate::source::extract(source, name)?;
    let opts = scan::options(threads)?;
    let scope = if variations {
        DomScope::FULL
    } else {
        DomScope::MAIN_LINE
    }
    .with_max_game_bytes(max_game_bytes);
    let mut explorer = Explorer::new(group.clone(), max_entries.max(1));
    let result = scan::interruptible(py, |stop| {
        let work = DomWork::new(scope, |_: &Input| Tested {
            plays: Plays::new(Arc::clone(&query), group.clone()),
            tests: Arc::clone(&tests),
        });
        scan::scan(source, Formats::only(Format::Pgn), opts, stop).run(
            &work,
            |event| {
                if let Event::Piece {
                    input,
                    visited,
                    info,
                } = event
                {
                    let plays = match &visited {
                        Visited::Pgn(d) => &d.each.plays,
                        Visited::Sgf(d) => &d.each.plays,
                    };
                    explorer.add(&input.name, info.first_game, plays);
                }
                Ok::<(), std::convert::Infallible>(())
            },
            |_| {},
        )
    })?;
    let Ok(scanned) = result;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &scanned, py_error, Some(Format::Pgn))?;
    if explorer.dropped > 0 {
        scan::warn(
            py,
            &format!(
                "kifu.explore: {} plays of moves past max_entries={} not counted",
                explorer.dropped, explorer.max_entries
            ),
        )?;
    }
    let rows = explorer.rows();
    table(py, &rows, grouped)
}

/// The rows as a `pyarrow.Table`, columns and types fixed (an empty table has them too).
fn table<'py>(
    py: Python<'py>,
    rows: &[kifu_pipeline::explore::Row],
    grouped: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pa = py.import("pyarrow").map_err(|_| {
        pyo3::exceptions::PyImportError::new_err(
            "kifu.explore returns a pyarrow.Table: pip install pyarrow",
        )
    })?;
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
    let schema = pa.call_method1("schema", (fields,))?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("schema", schema)?;
    pa.call_method("table", (columns,), Some(&kwargs))
}
