//! `kifu.Diagnostic`: one located problem, of either format, from the parser or from a
//! replay: kifu-pipeline's [`Problem`] with its fields as attributes (the keys of a line of
//! `kifu check --json`) and its line as `str()`.

use kifu::Format;
use kifu_pipeline::{Listed, More, Problem};
use pyo3::prelude::*;

/// A problem met while reading (or replaying) a game: what, how bad, where.
#[pyclass(module = "kifu", name = "Diagnostic", frozen)]
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The input's name (`ARCHIVE:MEMBER` inside an archive).
    #[pyo3(get)]
    pub file: String,
    /// `"pgn"` or `"sgf"`.
    #[pyo3(get)]
    pub format: &'static str,
    /// 1-based line, or `None` (a replay problem found on a game held in memory).
    #[pyo3(get)]
    pub line: Option<u64>,
    /// 1-based column in bytes, or `None`.
    #[pyo3(get)]
    pub column: Option<u32>,
    /// Byte offset in the (decompressed) input, or `None`.
    #[pyo3(get)]
    pub offset: Option<u64>,
    /// `"warning"`, `"error"` or `"fatal"`.
    #[pyo3(get)]
    pub severity: &'static str,
    /// The kind, a stable snake_case word for both formats (`unexpected_text`, `illegal_move`,
    /// `illegal_point`, `occupied_point`, ...).
    #[pyo3(get)]
    pub kind: &'static str,
    /// SGF: SGFC's code of the parser's problem (`E14`, `W35`); `None` for PGN and for a
    /// replay's problem.
    #[pyo3(get)]
    pub code: Option<&'static str>,
    /// The message in words.
    #[pyo3(get)]
    pub message: String,
    /// The offending text (at most 64 bytes; `truncated` says when more was seen).
    #[pyo3(get)]
    pub text: String,
    /// Whether `text` was cut.
    #[pyo3(get)]
    pub truncated: bool,
    /// The game's number in its input, counted from 1 as `kifu check` counts it (its lines and
    /// `--json`): `Game.index + 1`.
    #[pyo3(get)]
    pub game: u64,
    /// PGN: the last move played before the problem (`"14b"`), or `None`.
    #[pyo3(get, name = "move")]
    pub move_: Option<String>,
    /// SGF: the node's index on its path from the root, or `None` outside game trees.
    #[pyo3(get)]
    pub node: Option<u32>,
    /// SGF: the variation depth of the node.
    #[pyo3(get)]
    pub depth: Option<u32>,
    /// Where the problem comes from: `"parser"`, `"dom"` (a game cut at the memory limit) or
    /// `"replay"`.
    #[pyo3(get)]
    pub source: &'static str,
    /// The line of `str()`.
    shown: String,
}

impl From<Problem> for Diagnostic {
    fn from(p: Problem) -> Diagnostic {
        let pos = p.pos();
        let at = p.at_node();
        Diagnostic {
            file: p.file().to_string(),
            format: match p.format() {
                Format::Pgn => "pgn",
                Format::Sgf => "sgf",
            },
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.column),
            offset: pos.map(|p| p.offset),
            severity: p.severity().as_str(),
            kind: p.kind(),
            code: p.code(),
            message: p.message(),
            text: p.text().into_owned(),
            truncated: p.truncated(),
            game: p.game() + 1,
            move_: p.at_move(),
            node: at.map(|a| a.0),
            depth: at.map(|a| a.1),
            source: p.origin().as_str(),
            shown: p.to_string(),
        }
    }
}

impl From<More> for Diagnostic {
    /// A game's problems past the first 100, counted: kind `more_problems`, the count in
    /// `message`, no place of its own.
    fn from(m: More) -> Diagnostic {
        Diagnostic {
            file: m.file().to_string(),
            format: match m.format() {
                Format::Pgn => "pgn",
                Format::Sgf => "sgf",
            },
            line: None,
            column: None,
            offset: None,
            severity: m.severity().as_str(),
            kind: "more_problems",
            code: None,
            message: m.message(),
            text: String::new(),
            truncated: false,
            game: m.game() + 1,
            move_: None,
            node: None,
            depth: None,
            source: "parser",
            shown: m.to_string(),
        }
    }
}

impl From<Listed> for Diagnostic {
    fn from(l: Listed) -> Diagnostic {
        match l {
            Listed::Problem(p) => p.into(),
            Listed::More(m) => m.into(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    /// The line `kifu check` prints: `FILE:LINE:COLUMN: SEVERITY: MESSAGE: `text` (game N, move
    /// M)`, the game counted from 1.
    fn __str__(&self) -> String {
        self.shown.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Diagnostic {} {} {:?} at {}:{}:{}>",
            self.severity,
            self.kind,
            self.text,
            self.file,
            self.line.map_or("?".into(), |l| l.to_string()),
            self.column.map_or("?".into(), |c| c.to_string()),
        )
    }

    /// The fields as a dict (the keys and values of `kifu check --json`: `game` from 1).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("file", &self.file)?;
        d.set_item("format", self.format)?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("offset", self.offset)?;
        d.set_item("severity", self.severity)?;
        d.set_item("kind", self.kind)?;
        d.set_item("code", self.code)?;
        d.set_item("message", &self.message)?;
        d.set_item("text", &self.text)?;
        d.set_item("truncated", self.truncated)?;
        d.set_item("game", self.game)?;
        d.set_item("move", &self.move_)?;
        d.set_item("node", self.node)?;
        d.set_item("depth", self.depth)?;
        d.set_item("source", self.source)?;
        Ok(d)
    }
}
