//! Best-of-N timed passes of kifu over the SGF files below a folder, held in memory: each file
//! parsed on its own (`per-file`), or all of them concatenated into one collection. A quick
//! throughput check and a target for profilers.
//!
//! `cargo run --release --example sgf_throughput -- DIR [per-file|collection] [N]`
use std::path::PathBuf;
use std::time::Instant;

use kifu::Control;
use kifu::sgf::{self, Context, Value, Visitor};

#[derive(Default)]
struct All(u64);
impl Visitor for All {
    fn on_node(&mut self, _: &Context) -> Control {
        self.0 += 1;
        Control::Continue
    }
    fn on_value(&mut self, _: &Context, v: &Value<'_>) -> Control {
        self.0 += v.raw.as_bytes().len() as u64;
        Control::Continue
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut paths = Vec::new();
    let mut stack = vec![PathBuf::from(&args[1])];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let mut files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    if args.get(2).is_some_and(|a| a == "collection") {
        files = vec![files.concat()];
    }
    let bytes: usize = files.iter().map(Vec::len).sum();
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut best = f64::MAX;
    for _ in 0..n {
        let t = Instant::now();
        let mut v = All::default();
        for f in &files {
            let _ = sgf::parse(f, &mut v);
        }
        std::hint::black_box(v.0);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} inputs, {bytes} bytes: {:.1} MB/s",
        files.len(),
        bytes as f64 / best / 1e6
    );
}
