//! Tells the tests whether the shared corpus is there: `cfg(kifu_shared)` when a `shared`
//! folder holding `corpus/` sits beside the project root (`../shared` from the root crate,
//! `../../shared` from a member: this one file serves them all, the members' `build.rs` are
//! links to it), or where the `KIFU_SHARED` variable points. Tests that need it are ignored without it (`cargo test`
//! lists them as ignored, with the reason). The library's code never reads this cfg.
//!
//! The folder is looked for when this script runs, that is at build time: after adding
//! `../shared` to an existing build, `touch build.rs` (or set `KIFU_SHARED`) for the tests to
//! see it. Nothing here watches the folder itself (a watched path that is missing would rerun
//! the script, and rebuild the crate, on every build).

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=KIFU_SHARED");
    println!("cargo::rustc-check-cfg=cfg(kifu_shared)");
    let dir = match std::env::var_os("KIFU_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => {
            // beside the project root: the root crate's folder, or a member's one level up (the
            // folder whose Cargo.toml holds the `[workspace]`), never a folder further up
            let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
            let is_root = |d: &std::path::Path| {
                std::fs::read_to_string(d.join("Cargo.toml"))
                    .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
            };
            let root = manifest
                .ancestors()
                .take(2)
                .find(|d| is_root(d))
                .unwrap_or(&manifest);
            root.join("..").join("shared")
        }
    };
    if dir.join("corpus").is_dir() {
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        println!("cargo::rustc-cfg=kifu_shared");
        println!("cargo::rustc-env=KIFU_SHARED_DIR={}", dir.display());
    }
}
