//! Helpers shared by the integration tests of kifu-export.
#![allow(dead_code, unused_imports)] // each test binary uses some of it

use arrow_array::RecordBatch;
use kifu_export::{Builder, Table, TableOptions};

/// The test data and the corpus, as every crate's tests find them (`kifu_testkit`):
/// `tests/data/<name>`, the shared folder (`../shared`), the files of a folder by extension.
pub use kifu_testkit::{data_path, files_with_ext as files, shared};

/// The batch of `table` built from the games of a PGN text.
pub fn pgn_batch(table: Table, opts: &TableOptions, file: &str, pgn: &[u8]) -> RecordBatch {
    let mut b = Builder::new(table, opts);
    for g in kifu::pgn::Games::new(pgn) {
        b.push_pgn(file, &g).unwrap();
    }
    b.finish()
}

/// The batch of `table` built from the game trees of an SGF text.
pub fn sgf_batch(table: Table, opts: &TableOptions, file: &str, sgf: &[u8]) -> RecordBatch {
    let mut b = Builder::new(table, opts);
    for t in kifu::sgf::game_trees(sgf) {
        b.push_sgf(file, &t).unwrap();
    }
    b.finish()
}
