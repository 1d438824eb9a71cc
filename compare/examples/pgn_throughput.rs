//! Best-of-N timed passes of kifu over one file held in memory, visiting every token or only
//! the headers, with the visitors of `benches/pgn.rs`: a quick throughput check and a target
//! for profilers. With `cmp`, pgn-reader does the same work on the same bytes in the same run
//! (passes interleaved), and the ratio is printed: timings on a shared machine are noisy,
//! ratios much less.
//!
//! `cargo run --release -p kifu-compare --example pgn_throughput -- FILE [all|headers] [N] [cmp]`
//!
//! (A visitor that ignores what it is given measures less than this: the compiler drops the
//! work whose result nobody reads, the fields of each SAN above all.)
use std::time::Instant;

use kifu::pgn;

use kifu_compare::pgn_visitors::{KifuAll, KifuHeaders, ReaderAll, ReaderHeaders};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[1]).unwrap();
    let headers = args.get(2).is_some_and(|a| a == "headers");
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let cmp = args.get(4).is_some_and(|a| a == "cmp");
    let (mut best, mut theirs) = (f64::MAX, f64::MAX);
    for _ in 0..n {
        let t = Instant::now();
        let counts = if headers {
            let mut v = KifuHeaders::default();
            let _ = pgn::parse(&data, &mut v);
            v.0
        } else {
            let mut v = KifuAll::default();
            let _ = pgn::parse(&data, &mut v);
            v.0
        };
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(&counts);
        if cmp {
            let t = Instant::now();
            let mut reader = pgn_reader::Reader::new(&data[..]);
            let theirs_counts = if headers {
                let mut v = ReaderHeaders::default();
                reader.visit_all_games(&mut v).unwrap();
                v.0
            } else {
                let mut v = ReaderAll::default();
                reader.visit_all_games(&mut v).unwrap();
                v.0
            };
            theirs = theirs.min(t.elapsed().as_secs_f64());
            std::hint::black_box(&theirs_counts);
        }
    }
    let mb = data.len() as f64 / 1e6;
    if cmp {
        println!(
            "kifu {:.1} MB/s, pgn-reader {:.1} MB/s, ratio {:.3}",
            mb / best,
            mb / theirs,
            theirs / best
        );
    } else {
        println!("{:.1} MB/s", mb / best);
    }
}
