//! PGN throughput: kifu beside pgn-reader 0.29, same bytes, same work.
//!
//! Two kinds of work on each collection of `../shared/corpus/pgn`:
//! - `visit_all`: every token visited (tags, moves, NAGs, comments, variations, results);
//! - `headers`: tags only, the movetext skipped.
//!
//! Both parsers read the same in-memory bytes: kifu through its zero-copy slice entry point
//! (`kifu_slice`) and through its `Read` driver with a 64 KiB buffer (`kifu_read`), pgn-reader
//! through its `Read` driver (its only entry point). Run:
//! `cargo bench -p kifu-compare --bench pgn`.
//!
//! kifu's own figures (its DOM, its writer, chunked input), with no other parser beside them,
//! are the root's benches: `cargo bench --bench pgn`.

use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kifu::pgn as k;

use kifu_compare::pgn_visitors::{Counts, KifuAll, KifuHeaders, ReaderAll, ReaderHeaders};

// ---- inputs ----

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/pgn");
    p.is_dir().then_some(p)
}

fn concat(dir: &Path) -> Vec<u8> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pgn")) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        out.extend(std::fs::read(f).unwrap());
        out.push(b'\n');
    }
    out
}

/// The collections, by name.
pub fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let Some(root) = corpus() else {
        eprintln!("../shared/corpus is absent: the PGN benchmarks have nothing to read");
        return Vec::new();
    };
    vec![
        (
            "stockfish-books",
            concat(&root.join("large/stockfish-books")),
        ),
        (
            "notnil-chess-history",
            concat(&root.join("large/notnil-chess-history")),
        ),
        ("small", concat(&root.join("small"))),
        ("tcec", concat(&root.join("large/tcec"))),
    ]
}

fn kifu_slice<V: k::Visitor>(data: &[u8], v: &mut V) {
    let _ = k::parse(data, v);
}

fn kifu_read<V: k::Visitor>(data: &[u8], v: &mut V) {
    let mut r = k::Reader::with_config(data, 64 * 1024, k::Config::default());
    r.read_all(v).unwrap();
}

fn reader<V: pgn_reader::Visitor<Output = ()>>(data: &[u8], v: &mut V) {
    let mut r = pgn_reader::Reader::new(data);
    r.visit_all_games(v).unwrap();
}

/// One group: the same bytes through kifu (slice and `Read`) and pgn-reader, with visitors that
/// do the same work.
fn group<K, R>(c: &mut Criterion, work: &str, name: &str, data: &[u8])
where
    K: k::Visitor + Default + Into<Counts>,
    R: pgn_reader::Visitor<Output = ()> + Default + Into<Counts>,
{
    let mut g = c.benchmark_group(format!("pgn/{work}/{name}"));
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::from_parameter("kifu_slice"), |b| {
        b.iter(|| {
            let mut v = K::default();
            kifu_slice(data, &mut v);
            v.into()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("kifu_read"), |b| {
        b.iter(|| {
            let mut v = K::default();
            kifu_read(data, &mut v);
            v.into()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("pgn_reader"), |b| {
        b.iter(|| {
            let mut v = R::default();
            reader(data, &mut v);
            v.into()
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    for (name, data) in inputs() {
        group::<KifuAll, ReaderAll>(c, "visit_all", name, &data);
        group::<KifuHeaders, ReaderHeaders>(c, "headers", name, &data);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
