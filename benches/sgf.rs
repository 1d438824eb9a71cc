//! The SGF reader's own throughput, on a generated sample (always) and the corpus's large
//! collections concatenated (when `../shared/corpus` is there). Beside sgf-parse: `compare/`.
//!
//! - `sgf/parse/NAME`: the streaming parser, every node and property value visited
//!   (`visit_all`), or the root node only (`root_only`: `SkipGame` after it);
//! - `sgf/dom/NAME`: a `GameTree` built for every game tree, the whole tree (`game_trees`), the
//!   main line (`game_trees_main_line`) or the root (`game_trees_root_only`);
//! - `sgf/write/NAME`: the whole trees written back by `sgf::Writer` (`Layout::Pretty`).
//!
//! Run: `cargo bench --bench sgf` (`-- sgf/dom` for one group, `-- --quick` for a short run).

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kifu::Control;
use kifu::sgf as k;

#[derive(Default)]
struct All(u64);

impl k::Visitor for All {
    fn on_node(&mut self, _: &k::Context) -> Control {
        self.0 += 1;
        Control::Continue
    }
    fn on_value(&mut self, _: &k::Context, v: &k::Value<'_>) -> Control {
        self.0 += v.raw.as_bytes().len() as u64;
        Control::Continue
    }
}

#[derive(Default)]
struct RootOnly(u64);

impl k::Visitor for RootOnly {
    fn on_value(&mut self, _: &k::Context, v: &k::Value<'_>) -> Control {
        self.0 += v.raw.as_bytes().len() as u64;
        Control::Continue
    }
    fn on_node_end(&mut self, _: &k::Context) -> Control {
        Control::SkipGame // the root node is all a game-information scan needs
    }
}

fn bench(c: &mut Criterion) {
    for (name, data) in common::sgf_inputs() {
        let bytes = Throughput::Bytes(data.len() as u64);

        let mut g = c.benchmark_group(format!("sgf/parse/{name}"));
        g.throughput(bytes.clone());
        g.sample_size(10);
        g.bench_function(BenchmarkId::from_parameter("visit_all"), |b| {
            b.iter(|| {
                let mut v = All::default();
                let _ = k::parse(&data, &mut v);
                v.0
            })
        });
        g.bench_function(BenchmarkId::from_parameter("root_only"), |b| {
            b.iter(|| {
                let mut v = RootOnly::default();
                let _ = k::parse(&data, &mut v);
                v.0
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("sgf/dom/{name}"));
        g.throughput(bytes.clone());
        g.sample_size(10);
        for (id, scope) in [
            ("game_trees", k::Scope::Full),
            ("game_trees_main_line", k::Scope::MainLine),
            ("game_trees_root_only", k::Scope::GameInfo),
        ] {
            g.bench_function(BenchmarkId::from_parameter(id), |b| {
                b.iter(|| {
                    k::GameTrees::with_config(&data, scope, k::Config::default())
                        .map(|t| t.len())
                        .sum::<usize>()
                })
            });
        }
        g.finish();

        let trees: Vec<k::GameTree> = k::game_trees(&data).collect();
        let writer = k::Writer::new();
        let mut out = Vec::with_capacity(data.len() * 2);
        for t in &trees {
            writer.write_to_vec(t, &mut out);
        }
        let mut g = c.benchmark_group(format!("sgf/write/{name}"));
        // bytes written
        g.throughput(Throughput::Bytes(out.len() as u64));
        g.sample_size(10);
        g.bench_function(BenchmarkId::from_parameter("pretty"), |b| {
            b.iter(|| {
                out.clear();
                for t in &trees {
                    writer.write_to_vec(t, &mut out);
                }
                out.len()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
