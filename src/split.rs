//! Games as shared slices of the input: an archive cut at exact game boundaries into
//! [`Bytes`], without a copy, so that each game can go to another thread, process or language
//! while the archive's buffer is shared ([`pgn::split_games`](crate::pgn::split_games),
//! [`sgf::split_trees`](crate::sgf::split_trees)).
//!
//! The boundaries are the parser's own (the headers-only skip of PGN, the root-only skip of SGF,
//! both exact): a piece starts where a game starts and ends where the next one starts, so the
//! pieces cover the input exactly, in order, and each parses alone to the same game.

use bytes::Bytes;

use crate::control::{Control, Status};
use crate::push::Feed;

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

impl Marks {
    /// What a format's visitor answers at the start of a (sub)tree at `depth` whose first byte
    /// is at `offset`: a game starts at depth 0, and the split stops there to take it.
    #[inline]
    pub(crate) fn tree(&mut self, depth: u32, offset: u64) -> Control {
        if depth > 0 {
            return Control::Continue;
        }
        self.start = Some(offset);
        Control::Stop
    }
}

/// Every parser that drives [`Marks`] splits: each format implements its visitor (with the
/// format's own skip of the rest of a game) in its module.
impl<P: Feed<Marks>> Splitter for P {
    fn feed_marks(&mut self, chunk: &[u8], marks: &mut Marks) -> Status {
        self.feed(chunk, marks)
    }
    fn finish_marks(&mut self, marks: &mut Marks) {
        self.finish(marks)
    }
}

/// The games of an input as [`RawGame`]s, one at a time
/// ([`pgn::split_games`](crate::pgn::split_games), [`sgf::split_trees`](crate::sgf::split_trees)).
/// An input holding no game at all gives one piece, the whole input (if it is not empty), so
/// that nothing of it is lost.
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
