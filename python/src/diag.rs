//! `kifu.Diagnostic`: one located problem, of either format, from the parser or from a
//! replay; the same fields as a line of `kifu check --json`.

use kifu::{Position, Severity, pgn, sgf};
use pyo3::prelude::*;

/// A problem met while reading (or replaying) a game: what, how bad, where.
#[pyclass(module = "kifu", name = "Diagnostic", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The input's name (`ARCHIVE:MEMBER` inside an archive).
    pub file: String,
    /// `"pgn"` or `"sgf"`.
    pub format: &'static str,
    /// 1-based line, or `None` (a replay problem found on a game held in memory).
    pub line: Option<u64>,
    /// 1-based column in bytes, or `None`.
    pub column: Option<u32>,
    /// Byte offset in the (decompressed) input, or `None`.
    pub offset: Option<u64>,
    /// `"warning"`, `"error"` or `"fatal"`.
    pub severity: &'static str,
    /// PGN: the kind (`unexpected_text`, `illegal_move`, ...); SGF: the SGFC-style code (`E14`,
    /// `W35`), or the Go replay's kind (`occupied_point`, ...).
    pub kind: &'static str,
    /// The message in words.
    pub message: String,
    /// The offending text (at most 64 bytes; `truncated` says when more was seen).
    pub text: String,
    /// Whether `text` was cut.
    pub truncated: bool,
    /// The game's index in its input, 0-based (as `Game.index`; `kifu check` prints it 1-based).
    pub game: u64,
    /// PGN: the last move played before the problem (`"14b"`), or `None`.
    #[pyo3(name = "move")]
    pub move_: Option<String>,
    /// SGF: the node's index on its path from the root, or `None` outside game trees.
    pub node: Option<u32>,
    /// SGF: the variation depth of the node.
    pub depth: Option<u32>,
    /// Where the problem comes from: `"parser"`, `"dom"` (a game cut at the memory limit) or
    /// `"replay"`.
    pub source: &'static str,
}

#[pymethods]
impl Diagnostic {
    /// The line `kifu check` prints: `FILE:LINE:COLUMN: SEVERITY: MESSAGE: `text` (game N, move
    /// M)`, the game counted from 1.
    fn __str__(&self) -> String {
        let mut s = self.file.clone();
        if let (Some(l), Some(c)) = (self.line, self.column) {
            s.push_str(&format!(":{l}:{c}"));
        }
        s.push_str(&format!(": {}", self.severity));
        if self.format == "sgf" && self.source != "replay" {
            s.push_str(&format!(" {}", self.kind));
        }
        s.push_str(&format!(": {}", self.message));
        if !self.text.is_empty() || self.truncated {
            let text: String = self
                .text
                .chars()
                .flat_map(|c| {
                    if c.is_control() {
                        c.escape_debug().collect::<Vec<_>>()
                    } else {
                        vec![c]
                    }
                })
                .collect();
            s.push_str(&format!(
                ": `{text}`{}",
                if self.truncated { "…" } else { "" }
            ));
        }
        s.push_str(&format!(" (game {}", self.game + 1));
        if let Some(m) = &self.move_ {
            s.push_str(&format!(", move {m}"));
        }
        if let (Some(n), Some(d)) = (self.node, self.depth) {
            s.push_str(&format!(", node {n} (depth {d})"));
        }
        s.push(')');
        s
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

    /// The fields as a dict (the keys of `kifu check --json`, with `game` 0-based).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("file", &self.file)?;
        d.set_item("format", self.format)?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("offset", self.offset)?;
        d.set_item("severity", self.severity)?;
        d.set_item("kind", self.kind)?;
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

fn severity(s: Severity) -> &'static str {
    s.as_str()
}

fn at(pos: Position) -> (Option<u64>, Option<u32>, Option<u64>) {
    (Some(pos.line), Some(pos.column), Some(pos.offset))
}

impl Diagnostic {
    /// A PGN parser event (`game` already counted in the input).
    pub fn pgn_event(file: &str, e: &pgn::Error<'_>, game: u64) -> Diagnostic {
        let (line, column, offset) = at(e.pos);
        Diagnostic {
            file: file.to_string(),
            format: "pgn",
            line,
            column,
            offset,
            severity: severity(e.severity),
            kind: e.kind.code(),
            message: e.kind.to_string(),
            text: String::from_utf8_lossy(e.text).into_owned(),
            truncated: e.truncated,
            game,
            move_: e.at.map(|m| m.to_string()),
            node: None,
            depth: None,
            source: "parser",
        }
    }

    /// An SGF parser event.
    pub fn sgf_event(file: &str, e: &sgf::Error<'_>, game: u64) -> Diagnostic {
        let (line, column, offset) = at(e.pos);
        Diagnostic {
            file: file.to_string(),
            format: "sgf",
            line,
            column,
            offset,
            severity: severity(e.severity),
            kind: e.kind.code(),
            message: e.kind.to_string(),
            text: String::from_utf8_lossy(e.text).into_owned(),
            truncated: e.truncated,
            game,
            move_: None,
            node: e.at.map(|n| n.node),
            depth: e.at.map(|n| n.depth),
            source: "parser",
        }
    }

    /// A problem a PGN game carries.
    pub fn pgn_owned(file: &str, e: &pgn::GameError, game: u64) -> Diagnostic {
        let mut d = Diagnostic::pgn_event(file, &e.diagnostic(game), game);
        if e.kind == pgn::ErrorKind::GameTooLarge {
            d.source = "dom";
        }
        d
    }

    /// A problem an SGF game tree carries.
    pub fn sgf_owned(file: &str, e: &sgf::TreeError, game: u64) -> Diagnostic {
        let mut d = Diagnostic::sgf_event(file, &e.diagnostic(), game);
        if e.kind == sgf::ErrorKind::GameTooLarge {
            d.source = "dom";
        }
        d
    }

    /// A chess replay problem (a game held in memory keeps no byte positions).
    pub fn chess_replay(file: &str, e: &kifu_replay::chess::ReplayError, game: u64) -> Diagnostic {
        let (line, column, offset) = match e.pos {
            Some(p) => at(p),
            None => (None, None, None),
        };
        Diagnostic {
            file: file.to_string(),
            format: "pgn",
            line,
            column,
            offset,
            severity: severity(e.kind.severity()),
            kind: e.kind.code(),
            message: e.kind.to_string(),
            text: e.text.clone(),
            truncated: false,
            game,
            move_: e.at.map(|m| m.to_string()),
            node: None,
            depth: None,
            source: "replay",
        }
    }

    /// A Go replay problem.
    pub fn go_replay(file: &str, e: &kifu_replay::go::GoError, game: u64) -> Diagnostic {
        let (line, column, offset) = match e.pos {
            Some(p) => at(p),
            None => (None, None, None),
        };
        Diagnostic {
            file: file.to_string(),
            format: "sgf",
            line,
            column,
            offset,
            severity: severity(e.kind.severity()),
            kind: e.kind.code(),
            message: e.kind.to_string(),
            text: e.text.clone(),
            truncated: false,
            game,
            move_: None,
            node: e.at.map(|n| n.node),
            depth: e.at.map(|n| n.depth),
            source: "replay",
        }
    }
}
