//! Games as shared slices of the input: an archive cut at exact game boundaries into
//! [`Bytes`], without a copy, so that each game can go to another thread, process or language
//! while the archive's buffer is shared ([`pgn::split_games`],
//! [`sgf::split_trees`]).
//!
//! The boundaries are the parser's own (the headers-only skip of PGN, the root-only skip of SGF,
//! both exact): a piece starts where a game starts and ends where the next one starts, so the
//! pieces cover the input exactly, in order, and each parses alone to the same game.

use bytes::Bytes;

use crate::control::{Control, Status};
use crate::{pgn, sgf};

/// One game of a split input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// Index of the game in the input, 0-based.
    pub index: u64,
    /// Stream offset of the piece's first byte.
    pub offset: u64,
    /// The piece: from the start of the game (for the first game, from the start of the input)
    /// to the start of the next game (for the last one, to the end of the input). A slice of the
    /// input's buffer, not a copy.
    pub bytes: Bytes,
}

/// The parsers as a splitter sees them.
pub trait Splitter {
    /// Feeds input to the parser with the splitter's visitor.
    fn feed_marks(&mut self, chunk: &[u8], marks: &mut Marks) -> Status;
    /// Ends the input.
    fn finish_marks(&mut self, marks: &mut Marks);
}

/// The visitor of a split: notes where each game starts and skips the rest of it.
#[derive(Debug, Default)]
pub struct Marks {
    /// Offset of the game just started, not yet taken.
    start: Option<u64>,
}

impl pgn::Visitor for Marks {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.depth > 0 {
            return Control::Continue;
        }
        self.start = Some(ctx.pos.offset);
        Control::Stop
    }

    fn on_tags_end(&mut self, _: &pgn::Context) -> Control {
        Control::Skip
    }
}

impl sgf::Visitor for Marks {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.depth > 0 {
            return Control::Continue;
        }
        self.start = Some(ctx.pos.offset);
        Control::Stop
    }

    fn on_node(&mut self, _: &sgf::Context) -> Control {
        Control::SkipGame
    }
}

impl Splitter for pgn::Parser {
    fn feed_marks(&mut self, chunk: &[u8], marks: &mut Marks) -> Status {
        self.feed(chunk, marks)
    }
    fn finish_marks(&mut self, marks: &mut Marks) {
        self.finish(marks)
    }
}

impl Splitter for sgf::Parser {
    fn feed_marks(&mut self, chunk: &[u8], marks: &mut Marks) -> Status {
        self.feed(chunk, marks)
    }
    fn finish_marks(&mut self, marks: &mut Marks) {
        self.finish(marks)
    }
}

/// The games of an input as [`RawGame`]s, one at a time ([`pgn::split_games`],
/// [`sgf::split_trees`]). An input holding no game at all gives one
/// piece, the whole input (if it is not empty), so that nothing of it is lost.
#[derive(Debug)]
pub struct Split<P> {
    data: Bytes,
    parser: P,
    marks: Marks,
    /// Bytes fed to the parser so far.
    fed: usize,
    /// Start of the piece being gathered, once its game has started.
    piece: Option<usize>,
    index: u64,
    done: bool,
}

impl<P: Splitter> Split<P> {
    /// Splits `data` with `parser` (fresh, or configured as the caller needs).
    pub fn new(data: Bytes, parser: P) -> Self {
        Split {
            data,
            parser,
            marks: Marks::default(),
            fed: 0,
            piece: None,
            index: 0,
            done: false,
        }
    }

    fn piece(&mut self, start: usize, end: usize) -> RawGame {
        let game = RawGame {
            index: self.index,
            offset: start as u64,
            bytes: self.data.slice(start..end),
        };
        self.index += 1;
        game
    }
}

impl<P: Splitter> Iterator for Split<P> {
    type Item = RawGame;

    fn next(&mut self) -> Option<RawGame> {
        while !self.done {
            let rest = &self.data[self.fed..];
            match self.parser.feed_marks(rest, &mut self.marks) {
                Status::Stopped { consumed } => self.fed += consumed,
                Status::NeedInput => {
                    self.fed = self.data.len();
                    self.parser.finish_marks(&mut self.marks);
                    self.done = true;
                }
            }
            if let Some(start) = self.marks.start.take() {
                let start = start as usize;
                match self.piece.replace(start) {
                    // the first game's piece starts with the input
                    None => self.piece = Some(0),
                    Some(prev) => return Some(self.piece(prev, start)),
                }
            }
        }
        let end = self.data.len();
        match self.piece.take() {
            Some(start) => Some(self.piece(start, end)),
            // no game at all: the whole input, once
            None if self.index == 0 && end > 0 => Some(self.piece(0, end)),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    fn pieces<P: Splitter>(split: Split<P>) -> Vec<(u64, Vec<u8>)> {
        split.map(|g| (g.offset, g.bytes.to_vec())).collect()
    }

    #[test]
    fn pgn_pieces_cover_the_input_at_game_starts() {
        let data =
            Bytes::from_static(b"junk\n[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n1. c4 *");
        let got = pieces(pgn::split_games(data.clone()));
        let want: Vec<(u64, Vec<u8>)> = vec![
            (0, b"junk\n[Event \"a\"]\n1. e4 *\n\n".to_vec()),
            (26, b"[Event \"b\"]\n1. d4 *\n".to_vec()),
            (46, b"1. c4 *".to_vec()),
        ];
        assert_eq!(got, want);
        let joined: Vec<u8> = got.into_iter().flat_map(|(_, b)| b).collect();
        assert_eq!(joined, data.to_vec());
    }

    #[test]
    fn sgf_pieces_cover_the_input_at_tree_starts() {
        let data = Bytes::from_static(b"(;GM[1](;B[aa])(;B[bb]))\n(;GM[1];W[cc])");
        let got = pieces(sgf::split_trees(data));
        assert_eq!(
            got,
            [
                (0, b"(;GM[1](;B[aa])(;B[bb]))\n".to_vec()),
                (25, b"(;GM[1];W[cc])".to_vec())
            ]
        );
    }

    #[test]
    fn no_game_is_one_piece_and_nothing_is_none() {
        assert_eq!(
            pieces(pgn::split_games(Bytes::from_static(b"not pgn"))),
            [(0, b"not pgn".to_vec())]
        );
        assert!(pieces(pgn::split_games(Bytes::new())).is_empty());
    }

    #[test]
    fn pieces_share_the_buffer() {
        let data = Bytes::from(b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n".to_vec());
        for g in pgn::split_games(data.clone()) {
            let inside = data.as_ptr_range();
            assert!(inside.contains(&g.bytes.as_ptr()), "a slice of the input");
        }
    }
}
