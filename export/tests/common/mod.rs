//! Helpers shared by the integration tests of kifu-export.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use kifu_export::{Builder, Table, TableOptions};

/// The repository's own test data, `tests/data/<name>` at the workspace root.
pub fn data_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("data")
        .join(name)
}

/// The shared folder (`../shared` beside the project root, or where `KIFU_SHARED` points) as
/// the crate's `build.rs` found it; the build script then sets `cfg(kifu_shared)`, and every test
/// that calls this carries `#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]`.
/// Run anyway without it (`--ignored`), it panics saying so.
pub fn shared() -> PathBuf {
    match option_env!("KIFU_SHARED_DIR") {
        Some(dir) if cfg!(kifu_shared) => PathBuf::from(dir),
        _ => panic!(
            "this test needs the shared corpus: ../shared beside the project root (or \
             KIFU_SHARED naming it), present when the tests were built (touch build.rs after \
             adding it)"
        ),
    }
}

/// Every file below `dir` whose extension is `ext`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case(ext)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A fresh temporary directory for one test (removed when dropped).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("kifu-export-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

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
