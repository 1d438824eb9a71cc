//! How the commands that select games (`filter`, `dedup`, `split`) write the games they keep:
//! in the standard form (`kifu fmt`'s writers) or as `kifu json` lines, one game at a time.

use std::io::{self, Write};

use kifu::{pgn, sgf};

use crate::cmd::fmt::{self, Formatted};
use crate::cmd::json::{CharsetChoice, Lines};

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
            To::Std => Rendered::Std(Formatted::new(&fmt::Options::standard(), name)),
            To::Jsonl => Rendered::Json(Lines::new(name, CharsetChoice::Auto)),
        }
    }

    /// Writes a PGN game.
    pub fn pgn(&mut self, game: &pgn::Game) {
        match self {
            Rendered::Std(f) => f.write_pgn(game),
            Rendered::Json(l) => l.push_pgn(game),
        }
    }

    /// Writes an SGF game tree.
    pub fn sgf(&mut self, tree: &sgf::GameTree) {
        match self {
            Rendered::Std(f) => f.write_sgf(tree),
            Rendered::Json(l) => l.push_sgf(tree),
        }
    }

    /// How many games were written.
    pub fn len(&self) -> usize {
        match self {
            Rendered::Std(f) => f.starts.len(),
            Rendered::Json(l) => l.starts.len(),
        }
    }

    /// Writes game `k` out (a JSON line's index counted from `first_game`).
    pub fn write_game(&self, k: usize, out: &mut impl Write, first_game: u64) -> io::Result<()> {
        match self {
            Rendered::Std(f) => {
                let start = f.starts[k].0;
                let end = f.starts.get(k + 1).map_or(f.out.len(), |s| s.0);
                out.write_all(&f.out[start..end])
            }
            Rendered::Json(l) => l.write_game(k, out, first_game),
        }
    }

    /// Writes every game out.
    pub fn write_all(&self, out: &mut impl Write, first_game: u64) -> io::Result<()> {
        match self {
            Rendered::Std(f) => out.write_all(&f.out),
            Rendered::Json(l) => l.write_to(out, first_game),
        }
    }
}
