//! Problems met while reading, kept by a piece's visitor and written by the sink once the
//! piece's first game index is known: as `kifu check` lines, or as JSON objects.

use std::io::{self, Write};

use kifu::{Severity, pgn, sgf};

/// A problem, owned; its game index is counted in the piece that met it.
#[derive(Clone, Debug)]
pub enum Problem {
    /// A PGN problem, and the index of its game in the piece.
    Pgn(pgn::GameError, u64),
    /// An SGF problem (its `game` counted in the piece).
    Sgf(sgf::TreeError),
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
        }
    }

    /// Writes `FILE:` and the problem's line (the `Display` of the library's diagnostic), its
    /// game counted from `first_game`.
    pub fn write_line(&self, out: &mut impl Write, file: &str, first_game: u64) -> io::Result<()> {
        match self {
            Problem::Pgn(e, game) => writeln!(out, "{file}:{}", e.diagnostic(first_game + game)),
            Problem::Sgf(e) => {
                let mut d = e.diagnostic();
                d.game += first_game;
                writeln!(out, "{file}:{d}")
            }
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
        }
    }
}
