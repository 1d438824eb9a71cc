//! SGF: Go (and other) game records in Smart Game Format `FF[1]–FF[4]`, read as a stream of
//! events.
//!
//! - [`Parser`]: the push parser. Feed it chunks of any size with [`Parser::feed`], end with
//!   [`Parser::finish`]; it drives your [`Visitor`]. Memory stays bounded by [`Config`], however
//!   long the values and however deep the nesting (nothing recurses).
//! - [`parse`]: the whole input as one slice (the zero-copy fast path).
//! - [`Reader`] (feature `std`): reads from any [`std::io::Read`].
//! - [`Visitor`]: the events, each with a [`Context`] (position, game, depth, node, variation).
//! - [`RawValue`]: a value as written, with decoders for every `FF[4]` value type (Number, Real,
//!   Double, Color, SimpleText, Text, Point, Move, compose, compressed point lists).
//! - [`EventLog`]: a visitor that records owned [`Event`]s, for tests and debugging.
//! - [`Rank`] and [`GoResult`]: the game information analysts group by (`BR`/`WR`, `RE`),
//!   typed: a rank with a number that orders, the winner, how and by how much.
//!
//! # Flow
//!
//! For each game tree `(;…)` of the collection:
//! 1. `on_tree` (depth 0).
//! 2. Per node `;`: `on_node`; per property `on_property` (identifier, `FF[4]` name and raw
//!    spelling), then per value `on_value` (long values in pieces), a `B`/`W` value followed by
//!    `on_move`, a `C` value by `on_comment`; then `on_node_end`.
//! 3. Per variation: `on_tree` (depth ≥ 1) … `on_tree_end`.
//! 4. `on_tree_end` (depth 0).
//!
//! `on_error` can come anywhere, located (offset, line, column, game, node). A broken game tree
//! never hides the ones after it; text outside game trees is skipped and reported.
//!
//! # Example: moves of the main line, game information, errors with their place
//!
//! ```
//! use kifu::{Control, sgf::{self, Context, Error, Move, Property, Value, Visitor}};
//!
//! #[derive(Default)]
//! struct Game { players: Vec<String>, moves: Vec<String>, errors: Vec<String>, prop: Vec<u8> }
//!
//! impl Visitor for Game {
//!     fn on_tree(&mut self, ctx: &Context) -> Control {
//!         // variations are visited by default: keep to the main line
//!         if ctx.variation > 0 { Control::Skip } else { Control::Continue }
//!     }
//!     fn on_property(&mut self, _: &Context, p: &Property<'_>) -> Control {
//!         self.prop = p.name.to_vec();
//!         Control::Continue
//!     }
//!     fn on_value(&mut self, _: &Context, v: &Value<'_>) -> Control {
//!         if v.name == b"PB" || v.name == b"PW" {
//!             self.players.push(String::from_utf8_lossy(&v.raw.simple_text()).into_owned());
//!         }
//!         Control::Continue
//!     }
//!     fn on_move(&mut self, _: &Context, mv: &Move<'_>) -> Control {
//!         self.moves.push(mv.point.map_or("pass".to_string(), |p| p.to_string()));
//!         Control::Continue
//!     }
//!     fn on_error(&mut self, e: &Error<'_>) -> Control {
//!         self.errors.push(format!("{}: {} {}", e.pos, e.kind.code(), e.kind));
//!         Control::Continue
//!     }
//! }
//!
//! let sgf = b"(;GM[1]SZ[9]PB[Honinbo\\] Shusaku]PW[Gennan]\n;B[ee];W[cc](;B[gc];W[])(;B[gg]))";
//! let mut g = Game::default();
//! sgf::parse(sgf, &mut g);
//! assert_eq!(g.players, ["Honinbo] Shusaku", "Gennan"]);
//! assert_eq!(g.moves, ["ee", "cc", "gc", "pass"]);
//! assert!(g.errors.is_empty());
//!
//! let mut g = Game::default();
//! sgf::parse(b"(;SZ[9];B[ee]W[jj])", &mut g);
//! assert_eq!(g.errors, ["1:14: E37 black and white move in one node", "1:15: E14 illegal point"]);
//! ```

mod dom;
mod drive;
mod event;
mod go_result;
mod lexer;
mod parser;
mod props;
mod rank;
mod raw;
mod visitor;
mod writer;

#[cfg(feature = "std")]
pub use dom::ReadTrees;
pub use dom::{
    Children, GameTree, GameTrees, MainLine, Node, NodeId, Prop, SERDE_MAX_DEPTH, Scope,
    TreeBuilder, TreeError, escape, game_trees,
};
#[cfg(feature = "std")]
pub use drive::Reader;
pub use event::{Event, EventLog};
pub use go_result::{GoResult, WinBy};
pub use parser::{Config, Parser};
pub use rank::{Rank, RankKind, RankMark};
pub use raw::{BoardSize, Color, Double, Point, Points, RawValue};
pub use visitor::{Comment, Context, Error, ErrorKind, Move, NodeRef, Property, Value, Visitor};
/// The game trees of `data` as shared slices of it ([`RawGame`](crate::split::RawGame)s), cut
/// at the exact boundaries of the root-only skip; the pieces cover `data` exactly, in order. As
/// [`pgn::split_games`](crate::pgn::split_games).
///
/// ```
/// use bytes::Bytes;
///
/// let data = Bytes::from_static(b"(;GM[1];B[aa])(;GM[1];W[bb])");
/// let trees: Vec<_> = kifu::sgf::split_trees(data).collect();
/// assert_eq!(&trees[1].bytes[..], b"(;GM[1];W[bb])");
/// ```
pub fn split_trees(data: bytes::Bytes) -> crate::split::Split<Parser> {
    crate::split::Split::new(data, Parser::new())
}

pub use writer::{Layout, Writer};

use crate::control::Status;

/// Parses a whole input held in memory, with the default [`Config`].
///
/// Events borrow straight from `input` (only a token at the very end is copied). Returns
/// [`Status::Stopped`] if a visitor stopped (the rest is then not read), else
/// [`Status::NeedInput`] after the last game tree was delivered.
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
