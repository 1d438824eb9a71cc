//! Best-of-N timed passes of kifu over one file held in memory, visiting every move or only the
//! headers: a quick throughput check and a target for profilers.
//!
//! `cargo run --release --example pgn_throughput -- FILE [all|headers] [N]`
use std::time::Instant;

use kifu::Control;
use kifu::pgn::{self, Context, Move, Tag, Visitor};

#[derive(Default)]
struct All(u64, bool);
impl Visitor for All {
    fn on_property(&mut self, _: &Context, t: &Tag<'_>) -> Control {
        self.0 += t.value.0.len() as u64;
        Control::Continue
    }
    fn on_tags_end(&mut self, _: &Context) -> Control {
        if self.1 {
            Control::Skip
        } else {
            Control::Continue
        }
    }
    fn on_move(&mut self, _: &Context, m: &Move<'_>) -> Control {
        self.0 += m.text.len() as u64;
        Control::Continue
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[1]).unwrap();
    let headers = args.get(2).is_some_and(|a| a == "headers");
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut best = f64::MAX;
    for _ in 0..n {
        let t = Instant::now();
        let mut v = All(0, headers);
        let _ = pgn::parse(&data, &mut v);
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(v.0);
    }
    println!("{:.1} MB/s", data.len() as f64 / 1e6 / best);
}
