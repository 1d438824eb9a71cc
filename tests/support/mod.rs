//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The path of a file of the repository's own test data, `tests/data/<name>` (always there;
/// the tests of a workspace member, one folder down, find it too).
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
