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

/// `../shared` beside the project root, if it is there (the tests of a workspace member, one
/// folder down, find it too).
pub fn shared() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .take(2)
        .map(|dir| dir.join("..").join("shared"))
        .find(|p| p.is_dir())
}

/// A file under `../shared`, or `None` (with a note on stderr) when the folder is absent.
pub fn shared_file(rel: &str) -> Option<Vec<u8>> {
    match shared() {
        Some(dir) => Some(std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))),
        None => {
            eprintln!("../shared is absent: skipping the part that needs {rel}");
            None
        }
    }
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
