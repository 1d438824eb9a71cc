//! Problems met while reading, kept by a piece's visitor and written by the sink once the
//! piece's first game index is known: as `kifu check` lines, or as JSON objects.

use std::io::{self, Write};

use kifu::{Severity, pgn, sgf};
use kifu_replay::{chess, go};

/// A problem, owned; its game index is counted in the piece that met it.
#[derive(Clone, Debug)]
pub enum Problem {
    /// A PGN problem, and the index of its game in the piece.
    Pgn(pgn::GameError, u64),
    /// An SGF problem (its `game` counted in the piece).
    Sgf(sgf::TreeError),
    /// A chess replay problem (`check --legal`), and its game's index in the piece.
    Chess(chess::ReplayError, u64),
    /// A Go replay problem (`check --legal`), and its game's index in the piece.
    Go(go::GoError, u64),
}

impl Problem {
    /// An owned copy of a PGN error event.
    pub fn pgn(e: &pgn::Error<'_>) -> Problem {
        Problem::Pgn(pgn::GameError::from_event(e), e.game)
    }

    /// An owned copy of an SGF error event.
    pub fn sgf(e: &sgf::Error<'_>) -> Problem {
        Problem::Sgf(sgf::TreeError::new(e, None))
    }

    /// How bad it is.
    pub fn severity(&self) -> Severity {
        match self {
            Problem::Pgn(e, _) => e.severity,
            Problem::Sgf(e) => e.severity,
            Problem::Chess(e, _) => e.kind.severity(),
            Problem::Go(e, _) => e.kind.severity(),
        }
    }

    /// Writes `FILE:` and the problem's line (the `Display` of the library's diagnostic), its
    /// game counted from `first_game`.
    pub fn write_line(&self, out: &mut impl Write, file: &str, first_game: u64) -> io::Result<()> {
        // names and quoted text come from the input: escaped, so that none forges a line
        let file = crate::run::shown(file);
        let line = self.line(first_game);
        writeln!(out, "{file}:{}", crate::run::shown(&line))
    }

    /// The problem's text after `FILE:`.
    fn line(&self, first_game: u64) -> String {
        match self {
            Problem::Pgn(e, game) => e.diagnostic(first_game + game).to_string(),
            Problem::Sgf(e) => {
                let mut d = e.diagnostic();
                d.game += first_game;
                d.to_string()
            }
            Problem::Chess(e, game) => e.diagnostic(first_game + game).to_string(),
            Problem::Go(e, game) => go::line(&go_diagnostic(e, first_game + game)).to_string(),
        }
    }

    /// The problem as one JSON object (`kifu check --json`): `file`, `line`, `column`,
    /// `offset`, `severity`, `kind` (PGN) or `code` (SGF), `message`, `text`, `game` (1-based,
    /// as in the lines), and `move` (PGN) or `node` and `depth` (SGF), null where none.
    pub fn to_json(&self, file: &str, first_game: u64) -> serde_json::Value {
        use serde_json::json;
        match self {
            Problem::Pgn(e, game) => json!({
                "type": "problem",
                "file": file,
                "line": e.pos.line,
                "column": e.pos.column,
                "offset": e.pos.offset,
                "severity": e.severity.as_str(),
                "kind": e.kind.code(),
                "message": e.message(),
                "text": e.text,
                "game": first_game + game + 1,
                "move": e.at.map(|m| m.to_string()),
            }),
            Problem::Sgf(e) => json!({
                "type": "problem",
                "file": file,
                "line": e.pos.line,
                "column": e.pos.column,
                "offset": e.pos.offset,
                "severity": e.severity.as_str(),
                "code": e.code(),
                "message": e.message(),
                "text": String::from_utf8_lossy(&e.text),
                "game": first_game + e.game + 1,
                "node": e.at.map(|a| a.node),
                "depth": e.at.map(|a| a.depth),
            }),
            Problem::Chess(e, game) => {
                let pos = e.pos.unwrap_or_default();
                json!({
                    "type": "problem",
                    "file": file,
                    "line": pos.line,
                    "column": pos.column,
                    "offset": pos.offset,
                    "severity": e.kind.severity().as_str(),
                    "kind": e.kind.code(),
                    "message": e.kind.to_string(),
                    "text": e.text,
                    "game": first_game + game + 1,
                    "move": e.at.map(|m| m.to_string()),
                })
            }
            Problem::Go(e, game) => {
                let pos = e.pos.unwrap_or_default();
                json!({
                    "type": "problem",
                    "file": file,
                    "line": pos.line,
                    "column": pos.column,
                    "offset": pos.offset,
                    "severity": e.kind.severity().as_str(),
                    "code": e.kind.code(),
                    "message": e.kind.to_string(),
                    "text": e.text,
                    "game": first_game + game + 1,
                    "node": e.at.map(|a| a.node),
                    "depth": e.at.map(|a| a.depth),
                })
            }
        }
    }
}

/// A Go replay problem as the diagnostic event it was, in game `game`.
fn go_diagnostic(e: &go::GoError, game: u64) -> go::Error<'_> {
    let text = e.text.as_bytes();
    let n = text.len().min(go::Error::TEXT_MAX);
    go::Error {
        kind: e.kind,
        severity: e.kind.severity(),
        text: &text[..n],
        truncated: n < text.len(),
        pos: e.pos.unwrap_or_default(),
        game,
        at: e.at,
    }
}
