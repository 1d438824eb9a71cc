//! `kifu::par` on one file held in memory, one thread against N, alternated pass by pass
//! (best of each, and the median of the per-pass ratios), with the visitor of the benches that
//! counts every event.
//!
//! `cargo run --release -p kifu-compare --example par_throughput -- FILE [THREADS] [PASSES] [PIECE_SIZE] [once]`
//! (`once`: only THREADS, PASSES times, for CPU time measured from outside)
use std::time::Instant;

use kifu::{par, pgn, sgf};

use kifu_compare::pgn_visitors::KifuAll;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = bytes::Bytes::from(std::fs::read(&args[1]).unwrap());
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let passes: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let piece_size: usize = args
        .get(4)
        .and_then(|s| s.parse().ok())
        .unwrap_or(par::Options::DEFAULT_PIECE_SIZE);
    let is_sgf = args[1].ends_with(".sgf");
    let run = |threads: usize| {
        let options = par::Options {
            threads,
            piece_size,
            ..Default::default()
        };
        let t = Instant::now();
        let mut pieces = 0u64;
        if is_sgf {
            par::sgf_bytes(
                &options,
                sgf::Config::default(),
                data.clone(),
                sgf::EventLog::default,
                |v, _| {
                    pieces += v.events.len() as u64;
                },
            );
        } else {
            par::pgn_bytes(
                &options,
                pgn::Config::default(),
                data.clone(),
                KifuAll::default,
                |v, _| {
                    std::hint::black_box(&v.0);
                    pieces += 1;
                },
            );
        }
        std::hint::black_box(pieces);
        t.elapsed().as_secs_f64()
    };
    if args.get(5).is_some_and(|a| a == "once") {
        // for CPU-time measurements from outside (`/usr/bin/time`)
        let t = (0..passes).map(|_| run(threads)).fold(f64::MAX, f64::min);
        println!("{threads} threads {:.1} MB/s", data.len() as f64 / 1e6 / t);
        return;
    }
    let (mut one, mut many, mut ratios) = (f64::MAX, f64::MAX, Vec::new());
    for _ in 0..passes {
        let a = run(1);
        let b = run(threads);
        one = one.min(a);
        many = many.min(b);
        ratios.push(a / b);
    }
    ratios.sort_by(f64::total_cmp);
    let mb = data.len() as f64 / 1e6;
    println!(
        "1 thread {:.1} MB/s, {threads} threads {:.1} MB/s: median ratio {:.2}",
        mb / one,
        mb / many,
        ratios[ratios.len() / 2]
    );
}
