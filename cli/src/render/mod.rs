//! How the commands that select games (`filter`, `dedup`, `split`) write the games they keep:
//! in the standard form (`kifu fmt`'s writers) or as `kifu json` lines, one game at a time.

use std::io::{self, Write};

use kifu::{pgn, sgf};

pub mod lines;
pub mod standard;

use lines::Lines;
use standard::Formatted;

/// The form of the games written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    /// The standard form of each game's format: PGN export format, FF[4] SGF.
    #[default]
    Std,
    /// One JSON object per game, as `kifu json` writes.
    Jsonl,
}

/// A piece's kept games, written.
pub enum Rendered {
    /// In the standard form.
    Std(Formatted),
    /// As JSON lines.
    Json(Lines),
}

impl Rendered {
    /// Games of input `name` to be written in form `to`.
    pub fn new(to: To, name: &str) -> Rendered {
        match to {
            To::Std => Rendered::Std(Formatted::new(&standard::Options::standard(), name)),
            To::Jsonl => Rendered::Json(Lines::new(name, kifu_export::Charset::Auto)),
        }
    }

    /// Writes a PGN game.
    pub fn pgn(&mut self, game: &pgn::Game) {
        match self {
            Rendered::Std(f) => f.write_pgn(game),
            Rendered::Json(l) => l.push_pgn(game),
        }
    }

    /// The writer of PGN games in the standard form (`None` for JSON lines): what a game laid
    /// out from the parser's events ([`pgn::EventWriter`]) must be written with to be taken by
    /// [`pgn_text`](Self::pgn_text).
    pub fn std_writer(&self) -> Option<pgn::Writer> {
        match self {
            Rendered::Std(f) => Some(f.pgn_writer()),
            Rendered::Json(_) => None,
        }
    }

    /// Takes a PGN game laid out from its events as [`std_writer`](Self::std_writer) writes it
    /// (`shell`: the game built without its content, with its index and problems).
    pub fn pgn_text(&mut self, shell: &pgn::Game, text: &str) {
        match self {
            Rendered::Std(f) => f.write_pgn_text(shell, text),
            Rendered::Json(_) => unreachable!("a game laid out from its events is in PGN"),
        }
    }

    /// Writes an SGF game tree.
    pub fn sgf(&mut self, tree: &sgf::GameTree) {
        match self {
            Rendered::Std(f) => f.write_sgf(tree),
            Rendered::Json(l) => l.push_sgf(tree),
        }
    }

    /// How many games were given (written, or named as not written).
    pub fn len(&self) -> usize {
        match self {
            Rendered::Std(f) => f.starts.len(),
            Rendered::Json(l) => l.starts.len(),
        }
    }

    /// Game `k`'s index in the piece.
    pub fn index(&self, k: usize) -> u64 {
        match self {
            Rendered::Std(f) => f.starts[k].1,
            Rendered::Json(l) => l.starts[k].1,
        }
    }

    /// Why game `k` could not be written (a game tree nesting variations deeper than its JSON
    /// serialization goes), or `None` when it was.
    pub fn why_unwritten(&self, k: usize) -> Option<&str> {
        match self {
            Rendered::Std(_) => None,
            Rendered::Json(l) => l.why_unwritten(k),
        }
    }

    /// Writes game `k` out (a JSON line's index counted from `first_game`; nothing for a game
    /// that could not be written).
    pub fn write_game(&self, k: usize, out: &mut impl Write, first_game: u64) -> io::Result<()> {
        match self {
            Rendered::Std(f) => {
                let start = f.starts[k].0;
                let end = f.starts.get(k + 1).map_or(f.out.len(), |s| s.0);
                f.out.write_range(start, end, out)
            }
            Rendered::Json(l) => l.write_game(k, out, first_game),
        }
    }
}

/// Names on stderr a game that could not be written (`kifu COMMAND: FILE: game N: not
/// written: WHY`, `game` counted from 1), after flushing `out` so that stdout and stderr stay in
/// order.
pub fn name_unwritten(
    command: &str,
    input: &str,
    game: u64,
    why: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    out.flush()?;
    eprintln!(
        "kifu {command}: {}: game {game}: not written: {why}",
        kifu_pipeline::shown(input)
    );
    Ok(())
}

/// Bold, for a problem's place.
const BOLD: &str = "\x1b[1m";
/// Red, for an error's severity; yellow for a warning's.
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// Writes a problem's line as `kifu check` prints it, and a newline; with `color`, its place
/// (`FILE:LINE:COLUMN`) in bold and its severity in red (an error) or yellow (a warning).
pub fn write_problem(
    out: &mut impl Write,
    p: &kifu_pipeline::Problem,
    color: bool,
) -> io::Result<()> {
    let line = p.to_string();
    let severity = p.severity().as_str();
    let file = kifu_pipeline::shown(p.file()).len();
    write_colored(out, &line, file, severity, color)
}

/// Writes what is listed of a game's problems ([`write_problem`], or the count of the rest).
pub fn write_listed(
    out: &mut impl Write,
    l: &kifu_pipeline::Listed,
    color: bool,
) -> io::Result<()> {
    match l {
        kifu_pipeline::Listed::Problem(p) => write_problem(out, p, color),
        kifu_pipeline::Listed::More(m) => {
            let file = kifu_pipeline::shown(m.file()).len();
            write_colored(out, &m.to_string(), file, m.severity().as_str(), color)
        }
    }
}

/// `line` and a newline; with `color`, what comes before its severity (`: SEVERITY`, after the
/// file name's `file` bytes) in bold and the severity in its colour.
fn write_colored(
    out: &mut impl Write,
    line: &str,
    file: usize,
    severity: &str,
    color: bool,
) -> io::Result<()> {
    let at = line
        .get(file..)
        .and_then(|rest| rest.find(&format!(": {severity}")))
        .map(|k| file + k);
    let (true, Some(at)) = (color, at) else {
        return writeln!(out, "{line}");
    };
    let hue = if severity == "warning" { YELLOW } else { RED };
    let (place, rest) = line.split_at(at);
    let rest = &rest[2 + severity.len()..];
    writeln!(out, "{BOLD}{place}{RESET}: {hue}{severity}{RESET}{rest}")
}
