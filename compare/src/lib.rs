//! kifu beside other crates that read the same formats (pgn-reader 0.29 with shakmaty 0.30,
//! sgf-parse 4.2.8), kept out of the published crates' dependencies: shakmaty is GPL-3.0.
//!
//! What belongs here: the benches that time kifu against them (`benches/pgn.rs`,
//! `benches/sgf.rs`, `benches/chess_replay.rs`), the throughput examples the measurement scripts
//! run (`examples/`), the visitors both sides use ([`pgn_visitors`]), and the tests that those
//! visitors do the same work (`tests/`). kifu's own benches, with no other crate beside it
//! (parse, DOM, writer, chunked input), are the root package's `benches/`.

pub mod pgn_visitors;
