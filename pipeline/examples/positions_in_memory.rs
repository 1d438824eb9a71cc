//! The `positions` table of PGN and SGF inputs built in memory by the table scan, no file
//! written: the scan `kifu.positions` runs (PGN games replayed from the parser's events, SGF
//! trees from their DOM, the batches as the workers made them), each batch dropped as it
//! comes. The work a training loop reading the table in memory pays, Python's arrays left
//! out, beside `kifu export`'s, which adds the writer.
//!
//! ```text
//! cargo run --release -p kifu-pipeline --example positions_in_memory -- [--columns A,B...]
//!     [--threads N] [--recut] INPUT...
//! ```
//!
//! `--columns`: only those columns built (as `kifu export --columns` and `kifu.positions(…,
//! columns=…)` build them); every column without it. `--threads`: 1 by default. `--recut`:
//! the batches cut again to 8,192 rows each, as `kifu.to_arrow` hands them on (the rows of a
//! batch across two of the workers' copied together). Prints one JSON object: rows, batches,
//! wall seconds (time it with a parent's rusage for CPU seconds;
//! `scripts/bench/pgn_positions_bench.py --build` does).

use std::path::PathBuf;
use std::time::Instant;

use kifu_pipeline::tables::{self, TableSpec};
use kifu_pipeline::{Formats, Scan, ScanOptions, Source};

fn main() {
    let mut spec = TableSpec::by_name("positions").expect("the positions tables");
    let mut threads = 1;
    let mut recut = false;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--columns" => {
                let names = args.next().expect("--columns NAME,NAME...");
                spec.columns = Some(names.split(',').map(str::to_string).collect());
            }
            "--threads" => {
                let n = args.next().expect("--threads N");
                threads = n.parse().expect("--threads: a number");
            }
            "--recut" => recut = true,
            _ => inputs.push(PathBuf::from(arg)),
        }
    }
    if let Err(e) = spec.check_columns() {
        panic!("{e}");
    }
    let options = ScanOptions {
        piece_size: tables::POSITIONS_PIECE_SIZE,
        ..ScanOptions::with_threads(threads)
    };
    let start = Instant::now();
    let scan = Scan::new(Source::Paths(inputs), Formats::ANY).with_options(options);
    let (mut rows, mut batches) = (0u64, 0u64);
    let count = |_, batch: arrow_array::RecordBatch| {
        rows += batch.num_rows() as u64;
        batches += 1;
        true
    };
    let done = if recut {
        tables::scan_table(scan, &spec, count, |_| {})
    } else {
        tables::scan_table_as_made(scan, &spec, count, |_| {})
    };
    let secs = start.elapsed().as_secs_f64();
    assert!(done.scanned.errors.is_empty(), "{:?}", done.scanned.errors);
    println!("{{\"rows\": {rows}, \"batches\": {batches}, \"seconds\": {secs:.3}}}");
}
