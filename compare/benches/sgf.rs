//! SGF throughput: kifu beside sgf-parse 4.2.8 on the same bytes.
//!
//! The large SGF folders of `../shared/corpus` concatenated into one collection; kifu visits
//! every property value (`visit_all`) or reads the root node only (`root_only`), sgf-parse
//! builds its tree (its only mode; it needs `&str`, so the bytes are made UTF-8 first, outside
//! the timing). The `sgf/dom` group builds kifu's `GameTree`s beside sgf-parse's tree on the
//! same bytes (kifu's other scopes and its writer, with no other parser beside them, are the
//! root's benches: `cargo bench --bench sgf`).
//! The `sgf/per_file` group reads the same files held as separate buffers, each parsed on its
//! own (kifu visit-all, root only, `game_trees`; sgf-parse on `String`s made beforehand):
//! throughput in bytes over all files, so the cost per file (parser set-up, small inputs) shows.
//! Run: `cargo bench -p kifu-compare --bench sgf` (`-- sgf/dom` or `-- sgf/per_file` for one
//! group).

use std::path::{Path, PathBuf};

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
struct GameInfo(u64);

impl k::Visitor for GameInfo {
    fn on_value(&mut self, _: &k::Context, v: &k::Value<'_>) -> Control {
        self.0 += v.raw.as_bytes().len() as u64;
        Control::Continue
    }
    fn on_node_end(&mut self, _: &k::Context) -> Control {
        Control::SkipGame // the root node is all a game-info scan needs
    }
}

/// The files of the large corpus folders, sorted by path, each in its own buffer.
fn files() -> Option<Vec<Vec<u8>>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/sgf/large");
    if !root.is_dir() {
        eprintln!("../shared/corpus is absent: the SGF benchmarks have nothing to read");
        return None;
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let mut stack = vec![root];
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
    Some(files.iter().map(|f| std::fs::read(f).unwrap()).collect())
}

/// The files concatenated into one collection (a line break after each).
fn collection(files: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for f in files {
        out.extend_from_slice(f);
        out.push(b'\n');
    }
    out
}

fn sgf_parse_lenient(text: &str) -> usize {
    let opts = sgf_parse::ParseOptions {
        lenient: true,
        ..Default::default()
    };
    sgf_parse::parse_with_options(text, &opts)
        .map(|t| t.len())
        .unwrap_or(0)
}

fn bench(c: &mut Criterion) {
    let Some(files) = files() else { return };
    let data = collection(&files);
    let text = String::from_utf8_lossy(&data).into_owned();
    let mut g = c.benchmark_group("sgf/collection");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::from_parameter("kifu_visit_all"), |b| {
        b.iter(|| {
            let mut v = All::default();
            let _ = k::parse(&data, &mut v);
            v.0
        })
    });
    g.bench_function(BenchmarkId::from_parameter("kifu_root_only"), |b| {
        b.iter(|| {
            let mut v = GameInfo::default();
            let _ = k::parse(&data, &mut v);
            v.0
        })
    });
    g.bench_function(BenchmarkId::from_parameter("sgf_parse_tree"), |b| {
        b.iter(|| sgf_parse_lenient(&text))
    });
    g.finish();

    let mut g = c.benchmark_group("sgf/dom");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::from_parameter("kifu_game_trees"), |b| {
        b.iter(|| k::game_trees(&data).map(|t| t.len()).sum::<usize>())
    });
    g.bench_function(BenchmarkId::from_parameter("sgf_parse_tree"), |b| {
        b.iter(|| sgf_parse_lenient(&text))
    });
    g.finish();

    // the same files, each parsed on its own
    let texts: Vec<String> = files
        .iter()
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let rejected = texts.iter().filter(|t| sgf_parse_lenient(t) == 0).count();
    eprintln!(
        "sgf/per_file: {} files, {bytes} bytes; sgf-parse finds no tree in {rejected} of them",
        files.len()
    );
    let mut g = c.benchmark_group("sgf/per_file");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(10);
    g.bench_function(BenchmarkId::from_parameter("kifu_visit_all"), |b| {
        b.iter(|| {
            let mut v = All::default();
            for f in &files {
                let _ = k::parse(f, &mut v);
            }
            v.0
        })
    });
    g.bench_function(BenchmarkId::from_parameter("kifu_root_only"), |b| {
        b.iter(|| {
            let mut v = GameInfo::default();
            for f in &files {
                let _ = k::parse(f, &mut v);
            }
            v.0
        })
    });
    g.bench_function(BenchmarkId::from_parameter("kifu_game_trees"), |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| k::game_trees(f).map(|t| t.len()).sum::<usize>())
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("sgf_parse_tree"), |b| {
        b.iter(|| texts.iter().map(|t| sgf_parse_lenient(t)).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
