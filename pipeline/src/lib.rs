//! # kifu-pipeline: the one pipeline under kifu's frontends
//!
//! The `kifu` command and the Python package are shells over this crate: they parse their
//! arguments, draw on a terminal or build Python objects, and call it for everything else.
//! What it does, once:
//!
//! - [`Source`]: named inputs (paths, directories and archives, a reader such as stdin or a
//!   Python file object, bytes in memory), decompressed and unbundled by `kifu-input`, each
//!   read as PGN or SGF as [`Formats`] says.
//! - [`Scan`]: every core through `kifu::par` — inputs in parallel, large ones cut into pieces
//!   at game boundaries — with the caller's per-piece work, results handed back in input
//!   order, the inputs that failed or held no game reported ([`Scanned`], [`Note`]), and a
//!   stop flag that ends a scan within a read; [`Scan::run_on`] reads the pieces on threads a
//!   host lends instead (DuckDB's, for the DuckDB extension).
//! - [`Dom`] and [`PerGame`]: a piece's visitor that builds each game with the library's DOM
//!   builder and hands it on as soon as it is complete (`json`, `fmt`, `filter`, `split`,
//!   `dedup`, Python's `read_pgn`/`read_sgf`, and the tables).
//! - [`Problem`]: a located problem, owned, of either format, from the parser or a replay,
//!   with the `kifu check` line as its [`Display`](core::fmt::Display) and the `kifu check
//!   --json` object as its [`Serialize`](serde::Serialize).
//! - [`StatsSummary`]: the counts of `kifu stats` and `kifu.stats`, one shape for both;
//!   [`group`]: the games counted per value of a key (`kifu stats --by`), every core, bounded
//!   memory, the same rows at every thread count.
//! - [`keys`]: the keys of a game a user names (tags, root properties, `year`, `speed`, …),
//!   their kinds, how their values compare and are shown, in one place for every frontend.
//! - [`tables`]: the tables of `kifu-export` built on the scan's threads, rebased to their
//!   input's game numbers and cut into batches of a fixed size, so that every thread count
//!   gives the same batches; [`tables::export`] writes them safely (Parquet, CSV, JSON Lines),
//!   which is what both `kifu export` and `kifu.to_parquet` run.
//!
//! # Example
//!
//! Count the games of two inputs, one of them bytes in memory:
//!
//! ```
//! use kifu_pipeline::{Formats, Scan, Source};
//!
//! let pgn = b"[White \"Tal\"]\n\n1. e4 e5 1-0\n\n[White \"Petrosian\"]\n\n1. d4 1/2-1/2\n".to_vec();
//! let scan = Scan::new(Source::Bytes { name: "two.pgn".into(), data: pgn }, Formats::ANY);
//! let mut total = kifu::Stats::default();
//! let scanned = scan
//!     .run(&kifu_pipeline::StatsWork, |event| {
//!         if let kifu::par::Event::Piece { visited, .. } = event {
//!             let (kifu::par::Visited::Pgn(s) | kifu::par::Visited::Sgf(s)) = visited;
//!             total.add(&s);
//!         }
//!         Ok::<(), std::io::Error>(())
//!     }, |_note| {})
//!     .unwrap();
//! assert_eq!((total.games, scanned.games), (2, 2));
//! assert!(scanned.errors.is_empty());
//! ```
#![deny(missing_docs)]

pub mod check;
mod dom;
pub mod explore;
pub mod find;
pub mod go_find;
pub mod group;
pub mod keys;
mod problems;
mod scan;
mod source;
mod stats;
pub mod tables;
mod text;

pub use dom::{Dom, DomScope, DomWork, PerGame, PieceWork};
pub use problems::{Listed, MAX_PROBLEMS_PER_GAME, More, Origin, Problem, Problems};
pub use scan::{
    GameCount, InputError, MAX_CUT_NAMED, Note, Scan, ScanOptions, Scanned, WalkCounts,
};
pub use source::{Formats, Input, Source};
pub use stats::{StatsSummary, StatsWork};
pub use text::shown;
