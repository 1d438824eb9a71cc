//! A piece's games as `kifu json` lines (the objects of `kifu_export::JsonObject`), each
//! written without its leading `{"index":N,`: the sink, which knows how many games came before
//! the piece, writes it.

use std::io::{self, Write};

use kifu::{pgn, sgf};
use kifu_export::{Charset, JsonObject, JsonOptions};
use kifu_pipeline::PerGame;

use crate::bufs::Out;

/// A piece's games as JSON lines, each without its leading `{"index":N,` (the sink writes it).
pub struct Lines {
    /// The lines.
    pub out: Out,
    /// Where each game's line starts in `out`, and its game's index in the piece: one entry
    /// per game pushed, a game that could not be written with an empty line (see
    /// [`Lines::why_unwritten`]).
    pub starts: Vec<(usize, u64)>,
    /// Games that could not be written (index in the piece, why), in order.
    pub unwritten: Vec<(u64, String)>,
    file: Vec<u8>,
    object: JsonObject,
    charset: Charset,
    /// `--uci`, `--fen`, `--openings`: what each PGN game's object holds beyond the DOM.
    pub options: JsonOptions,
}

impl Lines {
    /// Lines for the games of input `name`, SGF text decoded as `charset` says.
    pub fn new(name: &str, charset: Charset) -> Lines {
        Lines {
            out: Out::new(),
            starts: Vec::new(),
            unwritten: Vec::new(),
            file: kifu_export::file_member(name),
            object: JsonObject::default(),
            charset,
            options: JsonOptions::default(),
        }
    }

    /// Adds the game's line from the object made, or names the game as not written.
    fn push(&mut self, index: u64, made: Result<(), String>) {
        self.starts.push((self.out.len(), index));
        if let Err(why) = made {
            // an empty line in its place: nothing is written for it
            return self.unwritten.push((index, why));
        }
        self.out.extend_from_slice(self.object.offset_member());
        self.out.extend_from_slice(&self.file);
        self.out.extend_from_slice(self.object.rest());
        self.out.push(b'\n');
    }

    /// Adds a PGN game's object (with `uci`, `fen`, `opening` as the options say).
    pub fn push_pgn(&mut self, game: &pgn::Game) {
        let made = self.object.pgn(game, self.options);
        self.push(game.index, made);
    }

    /// Adds an SGF game tree's object, its text decoded as the charset choice says.
    pub fn push_sgf(&mut self, tree: &sgf::GameTree) {
        let made = self.object.sgf(tree, self.charset);
        self.push(tree.index(), made);
    }

    /// Why game `k` of the piece could not be written, or `None` when it was.
    pub fn why_unwritten(&self, k: usize) -> Option<&str> {
        let (start, index) = self.starts[k];
        let end = self.starts.get(k + 1).map_or(self.out.len(), |s| s.0);
        if start < end {
            return None;
        }
        // a written line is never empty (it ends in `}\n`)
        self.unwritten
            .iter()
            .find(|u| u.0 == index)
            .map(|u| u.1.as_str())
    }

    /// Writes game `k` of the piece (its index counted from `first_game`); nothing for a game
    /// that could not be written.
    pub fn write_game(&self, k: usize, out: &mut impl Write, first_game: u64) -> io::Result<()> {
        let (start, index) = self.starts[k];
        let end = self.starts.get(k + 1).map_or(self.out.len(), |s| s.0);
        if start == end {
            return Ok(());
        }
        write!(out, "{{\"index\":{},", first_game + index)?;
        self.out.write_range(start, end, out)
    }
}

impl PerGame for Lines {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.push_pgn(&game);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.push_sgf(&tree);
    }
}
