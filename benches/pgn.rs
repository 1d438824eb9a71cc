//! The PGN reader's own throughput, on a generated sample (always) and the corpus's
//! collections (when `../shared/corpus` is there). Beside other crates: `compare/`.
//!
//! - `pgn/parse/NAME`: the streaming parser, every event visited from a slice (`visit_all`),
//!   the tags only with the movetext skipped (`headers`), and every event through `Read` with a
//!   64 KiB buffer (`visit_all_read`);
//! - `pgn/dom/NAME`: a `pgn::Game` built for every game, from the slice (`games_slice`, the
//!   `Games` iterator) and through `Read` (`games_read`, `ReadGames`), beside the streaming
//!   visit of the same bytes (`visit_all_slice`);
//! - `pgn/write/NAME`: those games written back by `pgn::Writer` (export format).
//!
//! Run: `cargo bench --bench pgn` (`-- pgn/dom` for one group, `-- --quick` for a short run).

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kifu::Control;
use kifu::pgn as k;

/// Every event counted (the move's target square read, so that the SAN is not optimized out).
#[derive(Default)]
struct All {
    games: u64,
    events: u64,
    bytes: u64,
}

impl k::Visitor for All {
    #[inline]
    fn on_tree_end(&mut self, ctx: &k::Context) -> Control {
        if ctx.is_main_line() {
            self.games += 1;
        }
        Control::Continue
    }
    #[inline]
    fn on_property(&mut self, _: &k::Context, tag: &k::Tag<'_>) -> Control {
        self.events += 1;
        self.bytes += (tag.name.len() + tag.value.0.len()) as u64;
        Control::Continue
    }
    #[inline]
    fn on_move(&mut self, _: &k::Context, mv: &k::Move<'_>) -> Control {
        self.events += 1;
        self.bytes += mv.san.to().map_or(0, |s| s.file as u64);
        Control::Continue
    }
    #[inline]
    fn on_nag(&mut self, _: &k::Context, _: k::Nag, _: k::NagForm) -> Control {
        self.events += 1;
        Control::Continue
    }
    #[inline]
    fn on_comment(&mut self, _: &k::Context, c: &k::Comment<'_>) -> Control {
        self.bytes += c.text.0.len() as u64;
        Control::Continue
    }
    #[inline]
    fn on_result(&mut self, _: &k::Context, _: k::Outcome) -> Control {
        self.events += 1;
        Control::Continue
    }
}

/// The tags only: the movetext skipped.
#[derive(Default)]
struct Headers {
    games: u64,
    bytes: u64,
}

impl k::Visitor for Headers {
    #[inline]
    fn on_tree_end(&mut self, ctx: &k::Context) -> Control {
        if ctx.is_main_line() {
            self.games += 1;
        }
        Control::Continue
    }
    #[inline]
    fn on_property(&mut self, _: &k::Context, tag: &k::Tag<'_>) -> Control {
        self.bytes += (tag.name.len() + tag.value.0.len()) as u64;
        Control::Continue
    }
    #[inline]
    fn on_tags_end(&mut self, _: &k::Context) -> Control {
        Control::Skip
    }
}

fn visit_all(data: &[u8]) -> u64 {
    let mut v = All::default();
    let _ = k::parse(data, &mut v);
    v.games + v.events + v.bytes
}

fn bench(c: &mut Criterion) {
    for (name, data) in common::pgn_inputs() {
        let bytes = Throughput::Bytes(data.len() as u64);

        let mut g = c.benchmark_group(format!("pgn/parse/{name}"));
        g.throughput(bytes.clone());
        g.sample_size(10);
        g.bench_function(BenchmarkId::from_parameter("visit_all"), |b| {
            b.iter(|| visit_all(&data))
        });
        g.bench_function(BenchmarkId::from_parameter("headers"), |b| {
            b.iter(|| {
                let mut v = Headers::default();
                let _ = k::parse(&data, &mut v);
                v.games + v.bytes
            })
        });
        g.bench_function(BenchmarkId::from_parameter("visit_all_read"), |b| {
            b.iter(|| {
                let mut v = All::default();
                let mut r = k::Reader::with_config(&data[..], 64 * 1024, k::Config::default());
                r.read_all(&mut v).unwrap();
                v.games + v.events + v.bytes
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("pgn/dom/{name}"));
        g.throughput(bytes.clone());
        g.sample_size(10);
        g.bench_function(BenchmarkId::from_parameter("visit_all_slice"), |b| {
            b.iter(|| visit_all(&data))
        });
        g.bench_function(BenchmarkId::from_parameter("games_slice"), |b| {
            b.iter(|| {
                k::Games::new(&data)
                    .map(|game| game.moves.len())
                    .sum::<usize>()
            })
        });
        g.bench_function(BenchmarkId::from_parameter("games_read"), |b| {
            b.iter(|| {
                k::ReadGames::new(&data[..])
                    .map(|game| game.unwrap().moves.len())
                    .sum::<usize>()
            })
        });
        g.finish();

        let games: Vec<k::Game> = k::Games::new(&data).collect();
        let writer = k::Writer::new();
        let mut out = String::with_capacity(data.len() * 2);
        for game in &games {
            writer.write_to_string(game, &mut out);
        }
        let mut g = c.benchmark_group(format!("pgn/write/{name}"));
        // bytes written
        g.throughput(Throughput::Bytes(out.len() as u64));
        g.sample_size(10);
        g.bench_function(BenchmarkId::from_parameter("export_format"), |b| {
            b.iter(|| {
                out.clear();
                for game in &games {
                    writer.write_to_string(game, &mut out);
                }
                out.len()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
