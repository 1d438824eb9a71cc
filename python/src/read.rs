//! `kifu.read_pgn` / `kifu.read_sgf`: games built on the scan's threads (the library's DOM
//! builders, with their memory limit), replayed there when asked, and handed to Python one at
//! a time, in input order.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use kifu::par::{Event, Visited};
use kifu::{Format, pgn, sgf};
use kifu_pipeline::{
    DomScope, DomWork, Formats, Input, Note, PerGame, ScanOptions, Scanned, Source,
};
use kifu_replay::chess::{DomOptions, GameReplay, replay_game};
use kifu_replay::go::{TreeReplay, replay_tree};
use pyo3::prelude::*;

use crate::pgn_py::Game;
use crate::scan::{self, Msg, Pump};
use crate::sgf_py::GameTree;
use crate::source::PyErrSlot;

/// One game as the scan's thread hands it over.
pub enum Item {
    /// A PGN game.
    Pgn {
        /// Its input.
        file: Arc<str>,
        /// The game.
        game: pgn::Game,
        /// Its replay, when asked.
        replay: Option<GameReplay>,
    },
    /// An SGF game tree.
    Sgf {
        /// Its input.
        file: Arc<str>,
        /// The tree.
        tree: sgf::GameTree,
        /// Its replay, when asked.
        replay: Option<TreeReplay>,
    },
}

/// Replay: none, UCI (and keys, check), or UCI and FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    /// Not replayed.
    No,
    /// Moves replayed: UCI per move, the final position.
    Uci,
    /// And the FEN after every move.
    Fen,
}

/// What `read_pgn` / `read_sgf` keep of each game.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    /// Tags (root properties) only: the movetext is skipped at skipping speed.
    pub headers_only: bool,
    /// Variations skipped by the parser.
    pub main_line: bool,
    /// Replay the games.
    pub replay: Replay,
    /// The most one game may hold in memory.
    pub max_game_bytes: usize,
    /// Games per message to the Python thread (those of small pieces are gathered up to it).
    pub batch: usize,
}

/// A piece's per-game work (under kifu-pipeline's [`Dom`], which builds the games with the
/// library's builder): replays the games when asked, and keeps them until the piece is handed
/// on (a piece at a time, on one thread too: what it holds is bounded by a piece).
pub struct Collect {
    file: Arc<str>,
    opts: ReadOptions,
    items: Vec<Item>,
}

impl Collect {
    fn new(file: Arc<str>, opts: ReadOptions) -> Self {
        Collect {
            file,
            opts,
            items: Vec::new(),
        }
    }
}

impl PerGame for Collect {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        let replay = match self.opts.replay {
            Replay::No => None,
            r => {
                let o = DomOptions {
                    fen: r == Replay::Fen,
                    ..Default::default()
                };
                Some(replay_game(&game, &o))
            }
        };
        self.items.push(Item::Pgn {
            file: Arc::clone(&self.file),
            game,
            replay,
        });
        None
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        let replay = (self.opts.replay != Replay::No).then(|| replay_tree(&tree));
        self.items.push(Item::Sgf {
            file: Arc::clone(&self.file),
            tree,
            replay,
        });
    }
}

impl ReadOptions {
    /// What the builders keep: the tags (`headers_only`), the main line, or everything.
    fn scope(&self) -> DomScope {
        let scope = if self.headers_only {
            DomScope {
                pgn: pgn::Scope::GameInfo,
                sgf: sgf::Scope::GameInfo,
                ..DomScope::FULL
            }
        } else if self.main_line {
            DomScope::MAIN_LINE
        } else {
            DomScope::FULL
        };
        scope.with_max_game_bytes(self.max_game_bytes)
    }
}

/// Starts the scan of a `read_*` call on its thread.
pub fn start(
    source: Source,
    py_error: PyErrSlot,
    formats: Formats,
    scan_opts: ScanOptions,
    opts: ReadOptions,
) -> Pump<Item> {
    let capacity = if scan_opts.threads > 1 {
        scan_opts.threads
    } else {
        4
    };
    Pump::start(capacity, py_error, move |tx, stop| {
        let work = DomWork::new(opts.scope(), move |input: &Input| {
            Collect::new(Arc::clone(&input.name), opts)
        });
        let warn = tx.clone();
        // the games of small pieces (a file of one game each: a folder of SGF files) are sent
        // `batch` at a time, not piece by piece: each message wakes the Python thread
        let pending = std::cell::RefCell::new(Vec::new());
        let flush = |tx: &std::sync::mpsc::SyncSender<Msg<Item>>| {
            let items = std::mem::take(&mut *pending.borrow_mut());
            if items.is_empty() {
                Ok(())
            } else {
                tx.send(Msg::Items(items)).map_err(|_| Stopped)
            }
        };
        let scanned = scan::scan(source, formats, scan_opts, &stop).run(
            &work,
            |event| {
                if let Event::Piece { visited, info, .. } = event {
                    let mut items = match visited {
                        Visited::Pgn(mut d) => std::mem::take(&mut d.each.items),
                        Visited::Sgf(mut d) => std::mem::take(&mut d.each.items),
                    };
                    if info.first_game > 0 {
                        for item in &mut items {
                            shift(item, info.first_game);
                        }
                    }
                    let full = {
                        let mut p = pending.borrow_mut();
                        if p.is_empty() {
                            *p = items;
                        } else {
                            p.append(&mut items);
                        }
                        p.len() >= opts.batch
                    };
                    if full {
                        flush(&tx)?;
                    }
                }
                Ok::<(), Stopped>(())
            },
            |note| {
                if let Note::NoGame { problems, .. } = note
                    && problems > 0
                {
                    // the games read before it first, then the warning
                    if flush(&warn).is_ok() {
                        let _ = warn.send(Msg::Warn(scan::note_text(&note)));
                    }
                }
            },
        );
        if let Ok(scanned) = scanned
            && flush(&tx).is_ok()
        {
            let _ = tx.send(Msg::End(scanned));
        }
    })
}

/// The consumer is gone: the scan stops.
#[derive(Debug)]
struct Stopped;

/// Counts a piece's game from the input's start.
fn shift(item: &mut Item, first_game: u64) {
    match item {
        Item::Pgn { game, .. } => game.index += first_game,
        Item::Sgf { tree, .. } => {
            let pos = tree.position();
            tree.set_origin(tree.index() + first_game, pos);
        }
    }
}

/// The games of a source, one at a time, in input order: `Game` (PGN) or `GameTree` (SGF)
/// objects. Iterating runs the parser on a thread of its own, the GIL released; stopping
/// early (`close()`, `break`, `del`) stops it.
#[pyclass(module = "kifu", name = "Reader")]
pub struct Reader {
    state: Mutex<State>,
}

struct State {
    pump: Option<Pump<Item>>,
    queue: VecDeque<Item>,
    wanted: Format,
    charset: kifu_export::Charset,
    outcome: Option<Scanned>,
}

impl Reader {
    /// A reader over the scan `pump`.
    pub fn new(pump: Pump<Item>, wanted: Format, charset: kifu_export::Charset) -> Reader {
        Reader {
            state: Mutex::new(State {
                pump: Some(pump),
                queue: VecDeque::new(),
                wanted,
                charset,
                outcome: None,
            }),
        }
    }
}

fn convert(py: Python<'_>, item: Item, charset: kifu_export::Charset) -> PyResult<Py<PyAny>> {
    Ok(match item {
        Item::Pgn { file, game, replay } => Py::new(py, Game::new(file, game, replay))?.into_any(),
        Item::Sgf { file, tree, replay } => {
            Py::new(py, GameTree::new(file, tree, replay, charset))?.into_any()
        }
    })
}

#[pymethods]
impl Reader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let state = self
            .state
            .get_mut()
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("reader poisoned"))?;
        loop {
            if let Some(item) = state.queue.pop_front() {
                return convert(py, item, state.charset).map(Some);
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
                    let end = scan::finish(py, &scanned, py_error, Some(state.wanted));
                    state.outcome = Some(scanned);
                    end?;
                    return Ok(None);
                }
                None => {
                    state.pump = None;
                    return Ok(None);
                }
            }
        }
    }

    /// Stops reading: the scan's thread ends, the games not yet taken are dropped.
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

    /// Inputs skipped because their names say the other format (known at the end).
    #[getter]
    fn skipped(&self) -> Vec<String> {
        self.state
            .lock()
            .ok()
            .and_then(|s| s.outcome.as_ref().map(|o| o.skipped_format.clone()))
            .unwrap_or_default()
    }
}
