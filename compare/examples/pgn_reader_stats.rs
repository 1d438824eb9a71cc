//! The anchor of `kifu stats` as a whole process: pgn-reader 0.29 reading files (through its
//! own buffered `Read` path, as `kifu stats` reads through `std::io::Read`) with the visitor of
//! the benches that counts every tag, move, NAG, comment, variation and result, printing the
//! totals and MB/s. `scripts/bench/scale_bench.sh` runs it beside `kifu stats`.
//!
//! `cargo run --release -p kifu-compare --example pgn_reader_stats -- FILE...`
use std::time::Instant;

use kifu_compare::pgn_visitors::{Counts, ReaderAll};

fn main() {
    let start = Instant::now();
    let mut bytes = 0u64;
    let mut total = Counts::default();
    for path in std::env::args().skip(1) {
        let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        bytes += file.metadata().map_or(0, |m| m.len());
        let mut reader = pgn_reader::Reader::new(file);
        let mut v = ReaderAll::default();
        while let Ok(Some(())) = reader.read_game(&mut v) {}
        let c = v.0;
        total.games += c.games;
        total.tags += c.tags;
        total.moves += c.moves;
        total.nags += c.nags;
        total.comments += c.comments;
        total.variations += c.variations;
        total.outcomes += c.outcomes;
    }
    let s = start.elapsed().as_secs_f64();
    println!("{total:?}");
    println!("MB/s {:.1}", bytes as f64 / 1e6 / s);
}
