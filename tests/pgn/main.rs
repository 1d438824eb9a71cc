//! What belongs here: tests of the library reading or writing PGN (chess), one module per
//! concern; SGF's are in `tests/sgf/`, what reads both formats at once in `tests/mixed.rs`, and
//! the helpers every test shares (test data, the corpus, the valid-game generator) in the
//! `kifu-testkit` crate (`testkit/`).
//!
//! One test binary, `pgn`: `cargo test --test pgn corpus::` runs one module. The tests that
//! read the shared corpus are ignored, saying "needs ../shared (the corpus)", without it.

mod chunking; // any chunk boundaries, the same events
mod corpus; // every file of ../shared/corpus/pgn
mod dom; // pgn::Game: the seed, the corpus round trip
mod errors; // bad input located and reported; sloppy input read without errors
mod event_writer; // games written from the parser's events, as from the DOM
mod par; // kifu::par on PGN: the pieces read as one reader reads them
mod seed; // tests/data/seed-kasparov-kramnik-2001.pgn, event by event
mod standard; // valid input read as the standard says, each test named after its rule
mod valid; // generated valid games survive writing and reading back
mod values; // the TimeControl tag typed: round trips, the corpus
