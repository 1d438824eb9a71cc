//! # kifu-replay: what a record means on the board
//!
//! Optional layers on [`kifu`]'s events that keep a board, never a second parser:
//!
//! - [`chess`]: PGN moves resolved to legal moves (SAN, long algebraic, UCI; Chess960), the
//!   position after each (FEN on demand, Polyglot key), check and mate, located
//!   `illegal_move` / `ambiguous_move` / `bad_fen` / `unsupported_variant` errors; a visitor
//!   adapter ([`chess::Replayer`]) and a DOM helper ([`chess::replay_game`]); the opening of a
//!   game, ECO code and name, from the lichess opening table embedded in the crate
//!   ([`chess::openings`]).
//! - [`go`]: SGF Go games on a board of any size up to 52×52: setup, moves, passes, captures,
//!   suicide as the rules say, simple ko; located `occupied_point` / `ko_violation` /
//!   `suicide` / `out_of_board` errors; a visitor adapter ([`go::GoReplayer`]), a DOM helper
//!   ([`go::replay_tree`]) and training rows ([`go::TrainingRows`]).
//!
//! Both are checked against the references (python-chess 1.11.2, sgfmill 1.1.1) on the whole
//! shared corpus; see the crate's README.md.

#![deny(missing_docs)]
#![warn(missing_debug_implementations)]
#![forbid(unsafe_code)]

pub mod chess;
pub mod go;

/// The examples of README.md (the crate's guide), compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReplayDocDoctests;
