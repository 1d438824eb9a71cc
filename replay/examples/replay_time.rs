//! Times the replay of whole files, for the comparisons with python-chess and sgfmill
//! (`scripts/bench/replay_bench_python.sh`): the files are read into memory first, then replayed
//! `N` times; prints one JSON line with the best time.
//!
//! ```text
//! cargo run --release -p kifu-replay --example replay_time -- MODE N FILE...
//! ```
//!
//! MODE: `chess`, `chess-main` (variations skipped), `chess-parse` (kifu's parse alone), `go`,
//! `go-main`, `go-parse`. `cpu_seconds` is the thread's CPU time (Linux), the figure to compare
//! on a loaded machine.
//!
//! ```text
//! ```

use std::time::Instant;

use kifu::Control;
use kifu::pgn::{self, Context};
use kifu::sgf;
use kifu_replay::chess::{Options, ReplayVisitor, Replayed, Replayer};
use kifu_replay::go::{GoOptions, GoReplayVisitor, GoReplayer, Played};

#[derive(Default)]
struct Chess(u64, u64);
impl pgn::Visitor for Chess {}
impl ReplayVisitor for Chess {
    fn on_replayed(&mut self, _: &Context, _: &pgn::Move<'_>, r: &Replayed<'_>) -> Control {
        self.0 += 1;
        self.1 ^= r.key();
        Control::Continue
    }
}

#[derive(Default)]
struct Go(u64, u64);
impl sgf::Visitor for Go {}
impl GoReplayVisitor for Go {
    fn on_go_move(&mut self, _: &sgf::Context, p: &Played<'_>) -> Control {
        self.0 += 1;
        self.1 += u64::from(p.captured);
        Control::Continue
    }
}

/// CPU time of this thread so far, from /proc (Linux), in seconds; wall time elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

#[derive(Default)]
struct Count(u64);
impl pgn::Visitor for Count {
    fn on_move(&mut self, _: &Context, _: &pgn::Move<'_>) -> Control {
        self.0 += 1;
        Control::Continue
    }
}
impl sgf::Visitor for Count {
    fn on_move(&mut self, _: &sgf::Context, _: &sgf::Move<'_>) -> Control {
        self.0 += 1;
        Control::Continue
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: replay_time chess|chess-main|go|go-main N FILE...");
        std::process::exit(2);
    }
    let n: usize = args[1].parse().expect("a number of runs");
    let data: Vec<Vec<u8>> = args[2..]
        .iter()
        .map(|f| std::fs::read(f).expect("readable"))
        .collect();
    let bytes: usize = data.iter().map(Vec::len).sum();
    let mut best = f64::MAX;
    let mut best_cpu = f64::MAX;
    let mut moves = 0;
    for _ in 0..n {
        let t = Instant::now();
        let c0 = cpu_seconds();
        moves = match args[0].as_str() {
            "chess-parse" => {
                let mut v = Count::default();
                for d in &data {
                    pgn::parse(d, &mut v);
                }
                v.0
            }
            "go-parse" => {
                let mut v = Count::default();
                for d in &data {
                    sgf::parse(d, &mut v);
                }
                v.0
            }
            "chess" | "chess-main" => {
                let opts = if args[0] == "chess" {
                    Options::default()
                } else {
                    Options::main_line()
                };
                let mut v = Replayer::with_options(Chess::default(), opts);
                for d in &data {
                    pgn::parse(d, &mut v);
                }
                let c = v.into_inner();
                std::hint::black_box(c.1);
                c.0
            }
            "go" | "go-main" => {
                let opts = if args[0] == "go" {
                    GoOptions::default()
                } else {
                    GoOptions::main_line()
                };
                let mut v = GoReplayer::with_options(Go::default(), opts);
                for d in &data {
                    sgf::parse(d, &mut v);
                }
                let g = v.into_inner();
                std::hint::black_box(g.1);
                g.0
            }
            m => panic!("unknown mode {m}"),
        };
        best = best.min(t.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c0, cpu_seconds()) {
            best_cpu = best_cpu.min(b - a);
        }
    }
    if best_cpu == f64::MAX {
        best_cpu = best;
    }
    println!(
        "{{\"tool\":\"kifu-replay\",\"mode\":\"{}\",\"files\":{},\"bytes\":{bytes},\"moves\":{moves},\"seconds\":{best:.6},\"cpu_seconds\":{best_cpu:.6},\"mb_per_s\":{:.3},\"cpu_mb_per_s\":{:.3}}}",
        args[0],
        data.len(),
        bytes as f64 / 1e6 / best,
        bytes as f64 / 1e6 / best_cpu
    );
}
