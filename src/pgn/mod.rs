//! PGN: chess games in Portable Game Notation, read as a stream of events.
//!
//! - [`Parser`]: the push parser. Feed it chunks of any size with [`Parser::feed`], end with
//!   [`Parser::finish`]; it drives your [`Visitor`]. Memory stays bounded by [`Config`].
//! - [`parse`]: the whole input as one slice (the zero-copy fast path).
//! - [`Reader`] (feature `std`): reads from any [`std::io::Read`].
//! - [`Visitor`]: the events, each with a [`Context`] (position, game, depth, ply).
//! - [`EventLog`]: a visitor that records owned [`Event`]s, for tests and debugging.
//! - [`TimeControl`]: the `TimeControl` tag read into its periods, with the [`Speed`] category
//!   lichess gives it.
//!
//! # Example: count games and moves, report errors with their place
//!
//! ```
//! use kifu::{Control, pgn::{self, Context, Error, Move, Visitor}};
//!
//! #[derive(Default)]
//! struct Stats { games: u64, moves: u64, errors: Vec<String> }
//!
//! impl Visitor for Stats {
//!     fn on_tree_end(&mut self, ctx: &Context) -> Control {
//!         if ctx.depth == 0 { self.games += 1 }
//!         Control::Continue
//!     }
//!     fn on_move(&mut self, _: &Context, _: &Move<'_>) -> Control {
//!         self.moves += 1;
//!         Control::Continue
//!     }
//!     fn on_error(&mut self, e: &Error<'_>) -> Control {
//!         let at = e.at.map(|m| m.to_string()).unwrap_or_default();
//!         self.errors.push(format!("{}: move {at}: {}", e.pos, e.kind));
//!         Control::Continue
//!     }
//! }
//!
//! let pgn = b"[Event \"A\"]\n\n1. e4 e5 2. Nf3 oh? Nc6 1-0\n\n1. d4 *";
//! let mut stats = Stats::default();
//! pgn::parse(pgn, &mut stats);
//! assert_eq!((stats.games, stats.moves), (2, 5));
//! assert_eq!(stats.errors, ["3:17: move 2w: unexpected text"]);
//! ```

mod commands;
mod dom;
mod drive;
mod event;
mod lexer;
mod nag;
mod parser;
mod raw;
mod san;
mod simd;
mod time_control;
mod visitor;
mod writer;

pub use commands::{
    Arrow, Arrows, Color, Command, Commands, Eval, Highlight, Score, Squares, strip_commands,
};
#[cfg(feature = "std")]
pub use dom::ReadGames;
pub use dom::{Game, GameBuilder, GameError, Games, MoveText, Nags, Node, Scope, Variation, games};
#[cfg(feature = "std")]
pub use drive::Reader;
pub use event::{Event, EventLog};
pub use nag::{Nag, Outcome};
pub use parser::{Config, Parser};
pub use raw::{RawComment, RawTag};
pub use san::{CastlingSide, Check, Piece, San, SanKind, Square};
pub use time_control::{Period, Periods, Speed, TimeControl};
pub use visitor::{
    Comment, CommentKind, Context, Error, ErrorKind, Move, MoveRef, NagForm, Tag, Visitor,
};
pub use writer::{EventWriter, Writer};

/// The games of `data` as shared slices of it ([`RawGame`](crate::split::RawGame)s), cut at the
/// exact game boundaries of the headers-only skip: no copy, so each game can go to another
/// thread or process while the buffer is shared. The pieces cover `data` exactly, in order.
///
/// ```
/// use bytes::Bytes;
///
/// let data = Bytes::from_static(b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n");
/// let games: Vec<_> = kifu::pgn::split_games(data).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(&games[1].bytes[..], b"[Event \"b\"]\n1. d4 *\n");
/// let game = kifu::pgn::Games::new(&games[1].bytes).next().unwrap();
/// assert_eq!(game.moves[0].text, "d4");
/// ```
pub fn split_games(data: bytes::Bytes) -> crate::split::Split<Parser> {
    crate::split::Split::new(data, Parser::new())
}

use crate::control::Status;

/// Parses a whole input held in memory, with the default [`Config`].
///
/// Events borrow straight from `input` (only a token at the very end is copied). Returns
/// [`Status::Stopped`] if a visitor stopped (the rest is then not read), else
/// [`Status::NeedInput`] after the last game was delivered.
pub fn parse<V: Visitor>(input: &[u8], visitor: &mut V) -> Status {
    Parser::new().parse(input, visitor)
}

impl Parser {
    /// Parses `input` as the whole rest of the stream: [`feed`](Parser::feed), then
    /// [`finish`](Parser::finish) unless a visitor stopped.
    pub fn parse<V: Visitor>(&mut self, input: &[u8], visitor: &mut V) -> Status {
        crate::push::parse(self, input, visitor)
    }
}
