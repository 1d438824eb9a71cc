//! What the tests, benches and fuzz targets of the workspace share, in one place (never
//! published): where the test data and the shared corpus are ([`data_file`], [`shared`]…), and
//! the generator of valid game records ([`valid_gen`]) that `tests/pgn/valid.rs`,
//! `tests/sgf/valid.rs` and the fuzz targets `pgn_valid` and `sgf_valid` drive.
//!
//! The corpus is found at build time: this crate's `build.rs` (a link to the root one) sets
//! `cfg(kifu_shared)` and `KIFU_SHARED_DIR` when `../shared` is there, as it does for every crate
//! whose tests read it.

use std::path::{Path, PathBuf};

pub mod valid_gen;

/// The path of a file of the repository's own test data, `tests/data/<name>` (always there).
pub fn data_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .take(2)
        .map(|dir| dir.join("tests").join("data"))
        .find(|p| p.is_dir())
        .expect("tests/data");
    dir.join(name)
}

/// A file of the repository's own test data, `tests/data/<name>`.
pub fn data_file(name: &str) -> Vec<u8> {
    std::fs::read(data_path(name)).unwrap_or_else(|e| panic!("tests/data/{name}: {e}"))
}

/// The shared folder (`../shared` beside the project root, or where `KIFU_SHARED` points) if the
/// build script found it; `None` without it (the benches say so and measure nothing).
pub fn shared_dir() -> Option<PathBuf> {
    match option_env!("KIFU_SHARED_DIR") {
        Some(dir) if cfg!(kifu_shared) => Some(PathBuf::from(dir)),
        _ => None,
    }
}

/// The shared folder (see [`shared_dir`]); every test that calls this carries
/// `#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]` (the test crate's
/// own `build.rs` sets the cfg too). Run anyway without it (`--ignored`), it panics saying so.
pub fn shared() -> PathBuf {
    shared_dir().unwrap_or_else(|| {
        panic!(
            "this test needs the shared corpus: ../shared beside the project root (or \
             KIFU_SHARED naming it), present when the tests were built (touch build.rs after \
             adding it)"
        )
    })
}

/// The bytes of a file under the shared folder (see [`shared`]).
pub fn shared_file(rel: &str) -> Vec<u8> {
    std::fs::read(shared().join(rel)).unwrap_or_else(|e| panic!("../shared/{rel}: {e}"))
}

/// Every file below `dir` whose name ends with `ext` (case-insensitive), sorted.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
