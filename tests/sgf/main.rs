//! What belongs here: tests of the library reading or writing SGF (Go), one module per concern;
//! PGN's are in `tests/pgn/`, what reads both formats at once in `tests/mixed.rs`, and the
//! helpers every test shares (test data, the corpus, the valid-game generator) in the
//! `kifu-testkit` crate (`testkit/`).
//!
//! One test binary, `sgf`: `cargo test --test sgf corpus::` runs one module. The tests that
//! read the shared corpus are ignored, saying "needs ../shared (the corpus)", without it.

mod chunking; // any chunk boundaries, the same events
mod corpus; // every file of ../shared/corpus/sgf
mod dom; // sgf::GameTree: the seed, deep trees, the corpus round trip
mod errors; // each problem located and recovered from; stop, resume, skip
mod par; // kifu::par on SGF: the pieces read as one reader reads them
mod seed; // tests/data/seed-takemiya-cho-meijin-1996.sgf, SGFC's inputs, deep nesting
mod standard; // valid FF[4] that looks like a recovery rule's trigger, read without diagnostics
mod valid; // generated valid game trees survive writing and reading back
mod values; // BR/WR as ranks, RE as results: round trips, the corpus
