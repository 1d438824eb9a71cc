//! Go replay throughput: kifu's parse + the Go replay adapter beside kifu's plain parse, on the
//! SGF collections of `../shared/corpus/sgf/large` (each file parsed from memory in turn, as
//! a directory of game records is read).
//!
//! Run: `cargo bench -p kifu-replay --bench go_replay [-- ROUNDS [COLLECTION...]]`.
//! The comparison with sgfmill is `scripts/bench/replay_bench_python.sh go` (a Python process cannot be
//! timed from here on equal terms).

use std::path::{Path, PathBuf};
use std::time::Instant;

use kifu::Control;
use kifu::sgf::{self, Context};
use kifu_replay::go::{GoGame, GoOptions, GoReplayVisitor, GoReplayer, Played};

fn files(dir: &Path) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                files.push(p);
            }
        }
    }
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/sgf");
    p.is_dir().then_some(p)
}

#[derive(Default)]
struct Count(u64);
impl sgf::Visitor for Count {
    fn on_move(&mut self, _: &Context, _: &sgf::Move<'_>) -> Control {
        self.0 += 1;
        Control::Continue
    }
}

#[derive(Default)]
struct Replay(u64);
impl sgf::Visitor for Replay {}
impl GoReplayVisitor for Replay {
    fn on_go_move(&mut self, _: &Context, p: &Played<'_>) -> Control {
        self.0 += u64::from(p.captured) + 1;
        Control::Continue
    }
    fn on_go_game(&mut self, _: &Context, g: &GoGame<'_>) -> Control {
        self.0 += u64::from(g.errors);
        Control::Continue
    }
}

fn parse(data: &[Vec<u8>]) -> u64 {
    let mut v = Count::default();
    for f in data {
        sgf::parse(f, &mut v);
    }
    v.0
}

fn replay(data: &[Vec<u8>], opts: GoOptions) -> u64 {
    let mut v = GoReplayer::with_options(Replay::default(), opts);
    for f in data {
        sgf::parse(f, &mut v);
    }
    v.into_inner().0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

type Run = fn(&[Vec<u8>]) -> u64;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !std::env::args().any(|a| a == "--bench") {
        println!("run with `cargo bench -p kifu-replay --bench go_replay`");
        return;
    }
    let Some(root) = corpus() else {
        eprintln!("../shared/corpus is absent: nothing to measure");
        return;
    };
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(7);
    let wanted: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let contenders: [(&str, Run); 3] = [
        ("parse", parse),
        ("replay_main", |d| replay(d, GoOptions::main_line())),
        ("replay", |d| replay(d, GoOptions::default())),
    ];
    for name in [
        "kgs-6d-u-go-archives",
        "fox-go-dataset",
        "computer-go-dataset-ai",
        "tsumego-10k",
    ] {
        if !wanted.is_empty() && !wanted.contains(&name) {
            continue;
        }
        let data = files(&root.join("large").join(name));
        let mb = data.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
        let mut secs = vec![Vec::new(); contenders.len()];
        for _ in 0..rounds {
            for (i, (_, run)) in contenders.iter().enumerate() {
                let t = Instant::now();
                std::hint::black_box(run(std::hint::black_box(&data)));
                secs[i].push(t.elapsed().as_secs_f64());
            }
        }
        println!("{name}: {} files, {mb:.1} MB, {rounds} rounds", data.len());
        for (i, (c, _)) in contenders.iter().enumerate() {
            let s = median(&mut secs[i].clone());
            println!("  {c:>12}: {:8.1} MB/s ({s:.3} s)", mb / s);
        }
    }
}
