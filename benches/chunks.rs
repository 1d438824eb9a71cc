//! The push parsers fed in chunks of 1 byte to 1 MiB (`Parser::feed`, then `finish`), every
//! event visited: what a caller pays for small reads (a socket, a decoder's output) against
//! one large buffer. The events do not depend on the chunking (the fuzz targets `pgn_chunks`
//! and `sgf_chunks` check it); the time does, through the calls and the carry-over of a token
//! cut by a chunk's end.
//!
//! The input is a generated sample of about 1 MiB of each format (the cost of a chunk is per
//! call and per cut token, the same on any text), so that the 1-byte runs stay short.
//! Run: `cargo bench --bench chunks` (`-- chunks/pgn` for one format, `-- --quick` for a short
//! run).

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kifu::{Control, pgn, sgf};

const SIZES: [usize; 6] = [1, 16, 256, 4 << 10, 64 << 10, 1 << 20];

#[derive(Default)]
struct PgnAll(u64);

impl pgn::Visitor for PgnAll {
    fn on_property(&mut self, _: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        self.0 += tag.value.0.len() as u64;
        Control::Continue
    }
    fn on_move(&mut self, _: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        self.0 += 1 + mv.san.to().map_or(0, |s| s.file as u64);
        Control::Continue
    }
    fn on_comment(&mut self, _: &pgn::Context, c: &pgn::Comment<'_>) -> Control {
        self.0 += c.text.0.len() as u64;
        Control::Continue
    }
}

#[derive(Default)]
struct SgfAll(u64);

impl sgf::Visitor for SgfAll {
    fn on_node(&mut self, _: &sgf::Context) -> Control {
        self.0 += 1;
        Control::Continue
    }
    fn on_value(&mut self, _: &sgf::Context, v: &sgf::Value<'_>) -> Control {
        self.0 += v.raw.as_bytes().len() as u64;
        Control::Continue
    }
}

fn bench(c: &mut Criterion) {
    let data = common::generated_pgn(1 << 20);
    let mut g = c.benchmark_group("chunks/pgn");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    for size in SIZES {
        g.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, &size| {
            b.iter(|| {
                let mut v = PgnAll::default();
                let mut p = pgn::Parser::new();
                for chunk in data.chunks(size) {
                    let _ = p.feed(chunk, &mut v);
                }
                p.finish(&mut v);
                v.0
            })
        });
    }
    g.finish();

    let data = common::generated_sgf(1 << 20);
    let mut g = c.benchmark_group("chunks/sgf");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    for size in SIZES {
        g.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, &size| {
            b.iter(|| {
                let mut v = SgfAll::default();
                let mut p = sgf::Parser::new();
                for chunk in data.chunks(size) {
                    let _ = p.feed(chunk, &mut v);
                }
                p.finish(&mut v);
                v.0
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
