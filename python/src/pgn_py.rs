//! `kifu.Game`, `kifu.Move`, `kifu.Variation`: a PGN game as Python objects, converted from the
//! library's DOM (`kifu::pgn::Game`) when asked, attribute by attribute.

use std::sync::Arc;

use kifu::pgn::{self, Command, Commands, Node, Score};
use kifu_replay::chess::{GameReplay, NodeReplay};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::diag::Diagnostic;
use crate::strings::Strings;
use kifu_pipeline::Problem;

/// A PGN game: tags, moves (with comments, NAGs and variations), result, problems.
#[pyclass(module = "kifu", name = "Game", frozen)]
pub struct Game {
    file: Arc<str>,
    game: pgn::Game,
    replay: Option<GameReplay>,
    moves: PyOnceLock<Py<PyList>>,
}

impl Game {
    /// A game read from `file` (with its replay, when asked).
    pub fn new(file: Arc<str>, game: pgn::Game, replay: Option<GameReplay>) -> Game {
        Game {
            file,
            game,
            replay,
            moves: PyOnceLock::new(),
        }
    }

    /// The library's game.
    pub fn inner(&self) -> &pgn::Game {
        &self.game
    }

    fn main_replay(&self) -> Option<impl Iterator<Item = &NodeReplay>> {
        self.replay.as_ref().map(|r| r.main_line())
    }
}

/// The first `[%clk]` of `comments`, in seconds.
fn clock_of(comments: &[String]) -> Option<f64> {
    comments.iter().find_map(|c| {
        Commands::new(c).find_map(|cmd| match cmd {
            Command::Clock(d) => Some(d.as_secs_f64()),
            _ => None,
        })
    })
}

/// The first `[%eval]` of `comments`: `(centipawns, mate)`, one of them `None`.
fn eval_of(comments: &[String]) -> Option<(Option<i32>, Option<i32>)> {
    comments.iter().find_map(|c| {
        Commands::new(c).find_map(|cmd| match cmd {
            Command::Eval(e) => Some(match e.score {
                Score::Centipawns(cp) => (Some(cp), None),
                Score::Mate(m) => (None, Some(m)),
            }),
            _ => None,
        })
    })
}

#[pymethods]
impl Game {
    /// The input's name (`ARCHIVE:MEMBER` inside an archive).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// The game's index in its input, 0-based.
    #[getter]
    fn index(&self) -> u64 {
        self.game.index
    }

    /// Byte offset of the game's first byte in its (decompressed) input.
    #[getter]
    fn offset(&self) -> u64 {
        self.game.offset
    }

    /// The tags as a dict (the first value of a repeated tag; `tag_pairs` has them all).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let mut cache = Strings::get(py).cache();
        for (name, value) in self.game.tags.iter().rev() {
            d.set_item(cache.get(py, name), cache.get(py, value))?;
        }
        Ok(d)
    }

    /// The tag pairs in file order, `(name, value)`.
    #[getter]
    fn tag_pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut cache = Strings::get(py).cache();
        PyList::new(
            py,
            self.game.tags.iter().map(|(n, v)| {
                PyTuple::new(py, [cache.get(py, n), cache.get(py, v)]).expect("a pair")
            }),
        )
    }

    /// The value of tag `name` (its first), or `default`.
    #[pyo3(signature = (name, default = None))]
    fn tag(&self, name: &str, default: Option<String>) -> Option<String> {
        self.game.tag(name).map(str::to_string).or(default)
    }

    /// Comments before the first move (the game comment).
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.game.comments.clone()
    }

    /// The main line: a list of `Move`, each with its comments, NAGs and variations.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self
            .moves
            .get_or_try_init(py, || build_moves(py, &self.game, self.replay.as_ref()))?;
        Ok(list.bind(py).clone())
    }

    /// The main line's moves as written (SAN, check marks kept, `!?` left out): the fast path
    /// when only the moves are wanted.
    #[getter]
    fn sans<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Strings::get(py).list(py, self.game.moves.iter().map(|n| &*n.text))
    }

    /// Main-line plies.
    #[getter]
    fn plies(&self) -> usize {
        self.game.moves.len()
    }

    /// The termination marker of the movetext (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`), or `None`.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game.result.map(|o| o.as_str())
    }

    /// The game's result as the game keys (`result`) and the tables' `outcome` read it: the
    /// `Result` tag when it holds one of the four results, else the marker, else `"*"`.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.game.outcome().as_str()
    }

    /// Per main-line ply, the first `[%clk]` of its comments in seconds (`None` without one).
    #[getter]
    fn clocks(&self) -> Vec<Option<f64>> {
        self.game
            .moves
            .iter()
            .map(|n| clock_of(&n.comments))
            .collect()
    }

    /// Per main-line ply, the first `[%eval]`: `(centipawns, None)` or `(None, mate)`, from
    /// White's side; `None` without one.
    #[getter]
    fn evals(&self) -> Vec<Option<(Option<i32>, Option<i32>)>> {
        self.game
            .moves
            .iter()
            .map(|n| eval_of(&n.comments))
            .collect()
    }

    /// The problems met while reading the game (and replaying it, with `replay=`).
    #[getter]
    fn errors(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self
            .game
            .errors
            .iter()
            .map(|e| Diagnostic::from(Problem::pgn_owned(&self.file, e, self.game.index)))
            .collect();
        if let Some(r) = &self.replay {
            out.extend(
                r.errors.iter().map(|e| {
                    Diagnostic::from(Problem::chess_owned(&self.file, e, self.game.index))
                }),
            );
        }
        out
    }

    /// Problems met while reading, beyond those kept (the DOM keeps a bounded number).
    #[getter]
    fn errors_dropped(&self) -> u64 {
        self.game.errors_dropped
    }

    /// Whether the game has problems (reading or replaying).
    #[getter]
    fn has_errors(&self) -> bool {
        self.game.has_errors() || self.replay.as_ref().is_some_and(|r| !r.errors.is_empty())
    }

    /// Whether the game was replayed (`replay=` given).
    #[getter]
    fn replayed(&self) -> bool {
        self.replay.is_some()
    }

    /// With `replay=`: the main line in UCI (`None` for a move that could not be replayed).
    #[getter]
    fn uci(&self) -> Option<Vec<Option<String>>> {
        self.main_replay()
            .map(|it| it.map(|n| n.uci.map(|u| u.to_string())).collect())
    }

    /// With `replay="fen"`: the FEN after each main-line move.
    #[getter]
    fn fens(&self) -> Option<Vec<Option<String>>> {
        self.main_replay()
            .map(|it| it.map(|n| n.fen.clone()).collect())
    }

    /// With `replay=`: the starting position's FEN (`None` when the game could not be set up).
    #[getter]
    fn start_fen(&self) -> Option<String> {
        let r = self.replay.as_ref()?;
        r.start.as_ref().map(|p| p.fen().to_string())
    }

    /// With `replay=`: the FEN after the main line, when every main-line move was replayed.
    #[getter]
    fn final_fen(&self) -> Option<String> {
        self.replay.as_ref().and_then(|r| r.end_fen())
    }

    /// The game's opening named from its moves, whatever its tags say (lichess's names and
    /// rule, as the games table's `opening_eco`, `opening_name`, `opening_ply`): a dict with
    /// `eco`, `name` and `ply`, or `None` when no position of the main line has a name.
    #[getter]
    fn opening<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(o) = kifu_replay::chess::openings::classify(&self.game) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("eco", o.eco)?;
        d.set_item("name", o.name)?;
        d.set_item("ply", o.ply)?;
        Ok(Some(d))
    }

    /// The game in the PGN export format (`compact=True`: the movetext on one line).
    #[pyo3(signature = (compact = false))]
    fn to_pgn(&self, compact: bool) -> String {
        pgn::Writer::new().compact(compact).to_string(&self.game)
    }

    /// The object `kifu json` writes for this game, as JSON text.
    fn to_json(&self) -> PyResult<String> {
        let mut object = kifu_export::JsonObject::default();
        object
            .pgn(&self.game, kifu_export::JsonOptions::default())
            .map_err(pyo3::exceptions::PyValueError::new_err)?;
        Ok(String::from_utf8_lossy(&object.with_file(&self.file)).into_owned())
    }

    fn __len__(&self) -> usize {
        self.game.moves.len()
    }

    fn __repr__(&self) -> String {
        let players = match (self.game.white(), self.game.black()) {
            (Some(w), Some(b)) => format!(" {w} - {b}"),
            _ => String::new(),
        };
        format!(
            "<Game {}#{}{} {} plies {}>",
            self.file,
            self.game.index,
            players,
            self.game.moves.len(),
            self.game.termination().as_str()
        )
    }
}

/// A move, with what the movetext says about it.
#[pyclass(module = "kifu", name = "Move", frozen)]
pub struct Move {
    text: pgn::MoveText,
    nags: pgn::Nags,
    comments: Vec<String>,
    comments_before: Vec<String>,
    ply: u32,
    depth: u32,
    uci: Option<String>,
    fen: Option<String>,
    variations: Py<PyList>,
}

#[pymethods]
impl Move {
    /// The move as written, check marks kept, suffixes (`!?`) left out (they are in `nags`).
    #[getter]
    fn san(&self) -> &str {
        &self.text
    }

    /// NAGs, suffixes as their numbers (`!?` is 5).
    #[getter]
    fn nags(&self) -> Vec<u16> {
        self.nags.iter().map(|n| u16::from(n.0)).collect()
    }

    /// Comments after the move.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.comments.clone()
    }

    /// Comments before the move (only the first move of a variation has them).
    #[getter]
    fn comments_before(&self) -> Vec<String> {
        self.comments_before.clone()
    }

    /// The variations that replace this move (each a `Variation`).
    #[getter]
    fn variations<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.variations.bind(py).clone()
    }

    /// The ply (1 for White's first move; a game from a `FEN` counts from its move number).
    #[getter]
    fn ply(&self) -> u32 {
        self.ply
    }

    /// `"14b"`: the move number and side.
    #[getter]
    fn number(&self) -> String {
        pgn::MoveRef::from_ply(self.ply).map_or_else(String::new, |m| m.to_string())
    }

    /// Variation depth: 0 on the main line.
    #[getter]
    fn depth(&self) -> u32 {
        self.depth
    }

    /// `[%clk]` in seconds, or `None`.
    #[getter]
    fn clock(&self) -> Option<f64> {
        clock_of(&self.comments)
    }

    /// `[%eval]`: `(centipawns, None)` or `(None, mate)`, or `None`.
    #[getter]
    fn eval(&self) -> Option<(Option<i32>, Option<i32>)> {
        eval_of(&self.comments)
    }

    /// With `replay=`: the move in UCI, `None` when it could not be replayed.
    #[getter]
    fn uci(&self) -> Option<&str> {
        self.uci.as_deref()
    }

    /// With `replay="fen"`: the position after the move.
    #[getter]
    fn fen(&self) -> Option<&str> {
        self.fen.as_deref()
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("<Move {} {}>", self.number(), &*self.text)
    }
}

/// A variation: moves that replace a move of their parent line.
#[pyclass(module = "kifu", name = "Variation", frozen)]
pub struct Variation {
    moves: Py<PyList>,
    comments: Vec<String>,
}

#[pymethods]
impl Variation {
    /// Its moves.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.moves.bind(py).clone()
    }

    /// Comments of a variation without moves.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.comments.clone()
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.moves.bind(py).len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<Variation of {} moves>", self.moves.bind(py).len())
    }
}

/// The main line as `Move`s, variations inside, walked with an explicit stack (in the order of
/// the PGN text, which is the order of the replay's entries).
fn build_moves(
    py: Python<'_>,
    game: &pgn::Game,
    replay: Option<&GameReplay>,
) -> PyResult<Py<PyList>> {
    struct Frame<'g, 'py> {
        line: &'g [Node],
        next: usize,
        /// The variations of `line[next - 1]` still to build, from this index, and the list
        /// they go to.
        var: usize,
        vars: Option<Bound<'py, PyList>>,
        out: Bound<'py, PyList>,
        base: u32,
        depth: u32,
    }
    let mut entries = replay.map(|r| r.nodes.iter());
    let top = PyList::empty(py);
    let mut stack = vec![Frame {
        line: &game.moves,
        next: 0,
        var: 0,
        vars: None,
        out: top.clone(),
        base: game.starting_ply(),
        depth: 0,
    }];
    while let Some(f) = stack.last_mut() {
        if let Some(vars) = &f.vars {
            let node = &f.line[f.next - 1];
            if f.var < node.variations.len() {
                let v = &node.variations[f.var];
                f.var += 1;
                let moves = PyList::empty(py);
                let variation = Variation {
                    moves: moves.clone().unbind(),
                    comments: v.comments.clone(),
                };
                vars.append(Py::new(py, variation)?)?;
                let (base, depth) = (f.base + f.next as u32 - 1, f.depth + 1);
                stack.push(Frame {
                    line: &v.moves,
                    next: 0,
                    var: 0,
                    vars: None,
                    out: moves,
                    base,
                    depth,
                });
                continue;
            }
            f.vars = None;
        }
        if f.next < f.line.len() {
            let node = &f.line[f.next];
            f.next += 1;
            let entry = entries.as_mut().and_then(|e| e.next());
            let vars = PyList::empty(py);
            let mv = Move {
                text: node.text.clone(),
                nags: node.nags.clone(),
                comments: node.comments.clone(),
                comments_before: node.comments_before.clone(),
                ply: f.base + f.next as u32,
                depth: f.depth,
                uci: entry.and_then(|e| e.uci.map(|u| u.to_string())),
                fen: entry.and_then(|e| e.fen.clone()),
                variations: vars.clone().unbind(),
            };
            f.out.append(Py::new(py, mv)?)?;
            f.var = 0;
            f.vars = (!node.variations.is_empty()).then_some(vars);
            continue;
        }
        stack.pop();
    }
    Ok(top.unbind())
}
