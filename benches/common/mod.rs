//! The inputs of the library's benches: a sample made here by the valid-game generator of
//! `testkit/` (always there, so that `cargo bench` runs in a fresh clone), and the collections
//! of the shared corpus (`../shared/corpus`, found by `kifu-testkit`'s build script beside the
//! project root, or where `KIFU_SHARED` points) when it is present.
#![allow(dead_code)] // each bench uses some of it

use std::path::Path;

use kifu::{pgn, sgf};
use kifu_testkit::valid_gen::{self, PgnLimits, SgfLimits, Source};

/// The size of the generated samples: large enough that a pass takes milliseconds, small
/// enough to be made in a moment.
pub const SAMPLE_BYTES: usize = 4 << 20;

/// A small deterministic generator (xorshift64) of the bytes the game generator reads its
/// choices from.
struct Bytes(u64);

impl Bytes {
    fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            *b = (x >> 24) as u8;
        }
    }
}

/// Valid PGN games written by `pgn::Writer` (export format), about `bytes` of them.
pub fn generated_pgn(bytes: usize) -> Vec<u8> {
    let mut rng = Bytes(0x9E37_79B9_7F4A_7C15);
    let mut choices = vec![0u8; 4096];
    let writer = pgn::Writer::new();
    let mut out = String::with_capacity(bytes + 64 * 1024);
    while out.len() < bytes {
        rng.fill(&mut choices);
        let game = valid_gen::pgn_game(&mut Source::new(&choices), &PgnLimits::default());
        writer.write_to_string(&game, &mut out);
        out.push('\n');
    }
    out.into_bytes()
}

/// Valid SGF game trees written by `sgf::Writer`, about `bytes` of them.
pub fn generated_sgf(bytes: usize) -> Vec<u8> {
    let mut rng = Bytes(0xD1B5_4A32_D192_ED03);
    let mut choices = vec![0u8; 4096];
    let writer = sgf::Writer::new();
    let mut out = Vec::with_capacity(bytes + 64 * 1024);
    while out.len() < bytes {
        rng.fill(&mut choices);
        let tree = valid_gen::sgf_tree(&mut Source::new(&choices), &SgfLimits::default());
        writer.write_to_vec(&tree, &mut out);
        out.push(b'\n');
    }
    out
}

/// The files below `dir` whose name ends with `.ext`, sorted, concatenated (a line break after
/// each).
fn concat(dir: &Path, ext: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for f in kifu_testkit::files_with_ext(dir, ext) {
        out.extend(std::fs::read(f).unwrap());
        out.push(b'\n');
    }
    out
}

/// The corpus folder, if the shared data is there.
fn corpus() -> Option<std::path::PathBuf> {
    let dir = kifu_testkit::shared_dir()?.join("corpus");
    if dir.is_dir() { Some(dir) } else { None }
}

/// The PGN inputs, by name: the generated sample, then the corpus's collections (each folder
/// concatenated, as `compare/`'s benches read them).
pub fn pgn_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut v = vec![("generated", generated_pgn(SAMPLE_BYTES))];
    match corpus() {
        Some(c) => {
            let pgn = c.join("pgn");
            for (name, rel) in [
                ("stockfish-books", "large/stockfish-books"),
                ("notnil-chess-history", "large/notnil-chess-history"),
                ("small", "small"),
                ("tcec", "large/tcec"),
            ] {
                let dir = pgn.join(rel);
                if dir.is_dir() {
                    v.push((name, concat(&dir, "pgn")));
                }
            }
        }
        None => eprintln!("../shared/corpus is absent: the generated PGN sample only"),
    }
    v
}

/// The SGF inputs, by name: the generated sample, then the corpus's large collections
/// concatenated into one.
pub fn sgf_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut v = vec![("generated", generated_sgf(SAMPLE_BYTES))];
    match corpus() {
        Some(c) => {
            let dir = c.join("sgf").join("large");
            if dir.is_dir() {
                v.push(("large", concat(&dir, "sgf")));
            }
        }
        None => eprintln!("../shared/corpus is absent: the generated SGF sample only"),
    }
    v
}
