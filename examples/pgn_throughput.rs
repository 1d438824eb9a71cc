//! Best-of-N timed passes of kifu over one file held in memory, visiting every move or only the
//! headers: a quick throughput check and a target for profilers. With `cmp`, pgn-reader does
//! the same work on the same bytes in the same run (passes interleaved), and the ratio is
//! printed: timings on a shared machine are noisy, ratios much less.
//!
//! `cargo run --release --example pgn_throughput -- FILE [all|headers] [N] [cmp]`
use std::ops::ControlFlow;
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

/// pgn-reader doing the same work.
#[derive(Default)]
struct Theirs(u64, bool);
impl pgn_reader::Visitor for Theirs {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), _: &[u8], value: pgn_reader::RawTag<'_>) -> ControlFlow<()> {
        self.0 += value.as_bytes().len() as u64;
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        if self.1 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
    fn san(&mut self, _: &mut (), san: pgn_reader::SanPlus) -> ControlFlow<()> {
        self.0 += u64::from(matches!(san.san, shakmaty::san::San::Normal { .. }));
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), pgn_reader::Skip> {
        ControlFlow::Continue(pgn_reader::Skip(false))
    }
    fn end_game(&mut self, _: ()) {}
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[1]).unwrap();
    let headers = args.get(2).is_some_and(|a| a == "headers");
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let cmp = args.get(4).is_some_and(|a| a == "cmp");
    let (mut best, mut theirs) = (f64::MAX, f64::MAX);
    for _ in 0..n {
        let t = Instant::now();
        let mut v = All(0, headers);
        let _ = pgn::parse(&data, &mut v);
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(v.0);
        if cmp {
            let t = Instant::now();
            let mut v = Theirs(0, headers);
            pgn_reader::Reader::new(&data[..])
                .visit_all_games(&mut v)
                .unwrap();
            theirs = theirs.min(t.elapsed().as_secs_f64());
            std::hint::black_box(v.0);
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
