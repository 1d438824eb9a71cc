//! The SGF `positions` table built in memory on one thread, no file written: SGF game trees
//! read into DOMs (`sgf::game_trees`), pushed into a `Builder` of `Table::SgfPositions`, a batch
//! finished at the tree that brings it to 8,192 rows (as the table scan's workers finish theirs)
//! and dropped. The work a training loop reading the table in memory
//! pays (Python's `kifu.positions`), beside `kifu export`'s, which adds the writer.
//!
//! ```text
//! cargo run --release -p kifu-export --example sgf_positions_build -- [--symmetries]
//!     [--columns NAME,NAME...] FILE...
//! ```
//!
//! `--columns`: only those columns built (as `kifu export --columns` and `kifu.positions(…,
//! columns=…)` build them); every column without it.
//!
//! Prints one JSON object: trees, rows, board bytes, wall seconds (time it with `/usr/bin/time`
//! or a parent's rusage for CPU seconds; `scripts/bench/sgf_positions_bench.py` does).

use std::time::Instant;

use arrow_array::{Array, BinaryArray};
use kifu_export::{Builder, Table, TableOptions};

/// The rows of a batch (`kifu_pipeline::tables::TableSpec::DEFAULT_BATCH_ROWS`).
const BATCH_ROWS: usize = 8192;

fn main() {
    let mut symmetries = false;
    let mut columns: Option<Vec<String>> = None;
    let mut data = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--symmetries" {
            symmetries = true;
            continue;
        }
        if arg == "--columns" {
            let names = args.next().expect("--columns NAME,NAME...");
            columns = Some(names.split(',').map(str::to_string).collect());
            continue;
        }
        let bytes = std::fs::read(&arg).unwrap_or_else(|e| panic!("{arg}: {e}"));
        data.extend_from_slice(&bytes);
        data.push(b'\n');
    }
    let opts = TableOptions {
        symmetries,
        ..TableOptions::default()
    };
    let start = Instant::now();
    let mut b = Builder::new(Table::SgfPositions, &opts);
    if let Some(names) = &columns {
        b = b.project(names).unwrap_or_else(|e| panic!("{e}"));
    }
    let (mut trees, mut rows, mut board_bytes) = (0u64, 0u64, 0u64);
    let mut finish = |b: &mut Builder| {
        let batch = b.finish();
        rows += batch.num_rows() as u64;
        // the boards' bytes (not the buffer's room)
        board_bytes += batch
            .column_by_name("board")
            .and_then(|c| c.as_any().downcast_ref::<BinaryArray>())
            .map_or(0, |b| b.values().len() as u64);
    };
    for tree in kifu::sgf::game_trees(&data) {
        b.push_sgf("all.sgf", &tree).expect("an SGF table");
        trees += 1;
        // a batch ends as the table scan's workers end theirs: at the tree that brings it to
        // 8,192 rows (`TableSpec::DEFAULT_BATCH_ROWS`; a Go row's estimate, 441 bytes, reaches
        // the 8 MiB of `DEFAULT_BATCH_BYTES` later)
        if b.rows() >= BATCH_ROWS {
            finish(&mut b);
        }
    }
    finish(&mut b);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{{\"trees\": {trees}, \"rows\": {rows}, \"board_bytes\": {board_bytes}, \"seconds\": {secs:.3}}}"
    );
}
