//! # kifu: game records as a stream of events
//!
//! kifu reads chess games in **PGN** and Go (and other) games in **SGF** as a stream of events,
//! in constant memory, from input of any size fed in chunks of any size. Bad input never panics
//! and never stops the stream: every problem becomes an `on_error` event
//! ([`pgn::Visitor::on_error`], [`sgf::Visitor::on_error`]) with a byte offset, line, column,
//! game index and place in the game (move or node), and parsing goes on. No game is ever lost.
//!
//! - [`pgn`]: the PGN push parser, its visitor and value helpers.
//! - [`sgf`]: the SGF push parser, its visitor and value decoders, with SGFC-style diagnostics.
//! - [`Control`]: what a visitor answers (go on, skip this variation, skip the game, stop).
//! - [`Position`], [`Severity`], [`Diagnostic`]: shared by every format.
//! - [`push`]: the push parsers as generic code sees them, and the one [`push::Reader`] (feature
//!   `std`) behind [`pgn::Reader`] and [`sgf::Reader`].
//! - [`par`] (feature `std`): every core on one input or many, with the result of one.
//!
//! # Example: the main line of each game
//!
//! ```
//! use kifu::{Control, pgn::{self, Context, Move, Visitor}};
//!
//! struct MainLine(Vec<String>);
//! impl Visitor for MainLine {
//!     fn on_tree(&mut self, ctx: &Context) -> Control {
//!         // variations are visited by default: skip them here
//!         if ctx.depth > 0 { Control::Skip } else { Control::Continue }
//!     }
//!     fn on_move(&mut self, _: &Context, mv: &Move<'_>) -> Control {
//!         self.0.push(String::from_utf8_lossy(mv.text).into_owned());
//!         Control::Continue
//!     }
//! }
//!
//! let mut v = MainLine(Vec::new());
//! pgn::parse(b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {good} Nc6 *", &mut v);
//! assert_eq!(v.0, ["e4", "e5", "Nf3", "Nc6"]);
//! ```
//!
//! # Crate features
//!
//! - `std` (default): [`pgn::Reader`] and [`sgf::Reader`] over [`std::io::Read`]. Without it the crate is
//!   `no_std` + `alloc`: the parsers and visitors need nothing else.
//! - `serde`: `serde::Serialize` for the game values ([`pgn::Game`], [`sgf::GameTree`]), in the
//!   shape `kifu json` writes.
//! - `encoding`: `kifu::encoding` — text in the charset SGF's `CA` names, a guess where
//!   it names none, UTF-16 input (encoding_rs, chardetng).

#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

extern crate alloc;

mod carry;
mod classes;
mod control;
mod error;
mod flow;
mod format;
mod junk;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod par;
mod position;
pub mod push;
#[cfg(feature = "std")]
mod reader;
pub mod split;
mod stats;
mod step;
mod utf8;

#[cfg(feature = "encoding")]
#[cfg_attr(docsrs, doc(cfg(feature = "encoding")))]
pub mod encoding;
pub mod pgn;
pub mod sgf;

pub use control::{Control, Status};
pub use error::{Diagnostic, Severity};
pub use format::{Format, UnknownFormat};
pub use position::Position;
pub use stats::Stats;

/// The examples of README.md, compiled and run as doctests.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide to the library, page by page: the pages of the repository's `docs/` folder that
/// are about this crate, so that they read on docs.rs too (their links to other pages of the
/// guide point at files of that folder). Their examples run as doctests. The pages are
/// written for any Markdown reader, so `FF[4]` is text, not a link.
#[cfg(feature = "std")]
#[allow(rustdoc::broken_intra_doc_links)]
pub mod guide {
    #[cfg(feature = "encoding")]
    #[doc = include_str!("../docs/library.md")]
    pub mod library {}

    #[doc = include_str!("../docs/pgn-dom.md")]
    pub mod pgn_dom {}

    #[doc = include_str!("../docs/sgf-dom.md")]
    pub mod sgf_dom {}
}
