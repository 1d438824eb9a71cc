//! The table pipeline: the same batches at every thread count and piece size, each of
//! `batch_rows` rows but the last, games numbered in their input; and what a scan notes.

use arrow_array::RecordBatch;
use kifu_export::Table;
use kifu_pipeline::tables::{self, TableSpec};
use kifu_pipeline::{Formats, Note, Scan, ScanOptions, Source};

fn games(n: usize) -> Vec<u8> {
    let mut pgn = String::new();
    for k in 0..n {
        pgn.push_str(&format!(
            "[Event \"E{k}\"]\n[White \"W{k}\"]\n[TimeControl \"{}+{}\"]\n\n1. e4 {{c{k}}} e5 (1... c5 2. Nf3) 2. Nf3 Nc6 {} 1-0\n\n",
            k % 1000,
            k % 9,
            if k % 7 == 0 { "oops" } else { "" }
        ));
    }
    pgn.into_bytes()
}

fn run(data: &[u8], threads: usize, piece_size: usize, table: &str) -> Vec<RecordBatch> {
    let source = Source::Bytes {
        name: "g.pgn".into(),
        data: data.to_vec(),
    };
    let options = ScanOptions {
        piece_size,
        ..ScanOptions::with_threads(threads)
    };
    let scan = Scan::new(source, Formats::ANY).with_options(options);
    let mut spec = TableSpec::by_name(table).unwrap();
    spec.batch_rows = 100;
    let mut out = Vec::new();
    let done = tables::scan_table(
        scan,
        &spec,
        |t, b| {
            assert!(!t.is_sgf());
            out.push(b);
            true
        },
        |_| {},
    );
    assert!(!done.stopped && !done.scanned.failed());
    assert_eq!(
        done.rows,
        out.iter().map(|b| b.num_rows() as u64).sum::<u64>()
    );
    out
}

#[test]
fn the_same_batches_at_every_thread_count_and_piece_size() {
    let data = games(1234);
    for table in ["games", "moves"] {
        let one = run(&data, 1, 1 << 20, table);
        let rows: usize = one.iter().map(RecordBatch::num_rows).sum();
        assert!(one[..one.len() - 1].iter().all(|b| b.num_rows() == 100));
        if table == "games" {
            assert_eq!(rows, 1234);
            let index = one[12].column_by_name("game_index").unwrap();
            let index = index
                .as_any()
                .downcast_ref::<arrow_array::Int64Array>()
                .unwrap();
            assert_eq!(index.value(0), 1200, "games numbered in their input");
        }
        for (threads, piece) in [(2, 4096), (3, 1000), (2, 1 << 20)] {
            assert_eq!(
                one,
                run(&data, threads, piece, table),
                "{table} -j{threads}"
            );
        }
    }
}

#[test]
fn notes_name_inputs_without_games_and_inputs_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("a.pgn");
    let sgf = dir.path().join("b.sgf");
    let empty = dir.path().join("c.pgn");
    std::fs::write(&pgn, games(3)).unwrap();
    std::fs::write(&sgf, "(;GM[1]SZ[9];B[ee])").unwrap();
    std::fs::write(&empty, "").unwrap();
    let scan = Scan::new(Source::Paths(vec![pgn, sgf, empty]), Formats::ANY)
        .with_options(ScanOptions::with_threads(2));
    let spec = TableSpec::by_name("games").unwrap();
    let mut notes = Vec::new();
    let mut tables = Vec::new();
    let done = tables::scan_table(
        scan,
        &spec,
        |t, _| {
            tables.push(t);
            true
        },
        |n| notes.push(n),
    );
    assert_eq!(tables, [Table::PgnGames]);
    assert_eq!(done.left_out, 1);
    assert!(matches!(&notes[0], Note::NotInTable { table: "games", .. }));
    assert!(
        notes[0]
            .to_string()
            .ends_with("b.sgf: an SGF input cannot join the games table; not exported")
    );
    assert!(matches!(&notes[1], Note::NoGame { problems: 0, .. }));
    assert_eq!(done.scanned.games, 4);
}

#[test]
fn tags_alone_read_without_the_movetext_are_the_columns_of_the_whole_table() {
    // (`speed` and `tc_base` are read from the `TimeControl` tag: no movetext needed either)
    let data = games(300);
    let whole = run(&data, 2, 4096, "games");
    let mut spec = TableSpec::by_name("games").unwrap();
    spec.batch_rows = 100;
    spec.columns = Some(vec![
        "White".into(),
        "Event".into(),
        "game_index".into(),
        "tags".into(),
        "speed".into(),
        "tc_base".into(),
    ]);
    spec.check_columns().unwrap();
    let scan = Scan::new(
        Source::Bytes {
            name: "g.pgn".into(),
            data: data.clone(),
        },
        Formats::ANY,
    )
    .with_options(ScanOptions::with_threads(2));
    let mut some = Vec::new();
    tables::scan_table(
        scan,
        &spec,
        |_, b| {
            some.push(b);
            true
        },
        |_| {},
    );
    for (w, s) in whole.iter().zip(&some) {
        let names = ["game_index", "Event", "White", "tc_base", "speed", "tags"];
        assert_eq!(
            &w.project(&names.map(|n| w.schema().index_of(n).unwrap()))
                .unwrap(),
            s
        );
    }
    assert_eq!(whole.len(), some.len());
}

/// An executor of threads the scan does not own: a queue its workers take jobs from, the most
/// recent first (pieces read out of order).
/// The jobs waiting, whether the workers may end, and the signal of a change.
type Queue = std::sync::Arc<(
    std::sync::Mutex<(Vec<kifu::par::Job>, bool)>,
    std::sync::Condvar,
)>;

struct Lent {
    jobs: Queue,
}
impl kifu::par::Executor for Lent {
    fn execute(&self, job: kifu::par::Job) {
        let (lock, cond) = &*self.jobs;
        lock.lock().unwrap().0.push(job);
        cond.notify_one();
    }
}

/// `run` with `scan_table_on`, the pieces read on `lent` threads of a [`Lent`] executor.
fn run_on(
    data: &[u8],
    threads: usize,
    piece_size: usize,
    table: &str,
    lent: usize,
) -> Vec<RecordBatch> {
    use std::sync::{Arc, Condvar, Mutex};
    let jobs = Arc::new((
        Mutex::new((Vec::<kifu::par::Job>::new(), false)),
        Condvar::new(),
    ));
    let workers: Vec<_> = (0..lent)
        .map(|_| {
            let jobs = Arc::clone(&jobs);
            std::thread::spawn(move || {
                let (lock, cond) = &*jobs;
                loop {
                    let mut q = lock.lock().unwrap();
                    while q.0.is_empty() && !q.1 {
                        q = cond.wait(q).unwrap();
                    }
                    let Some(job) = q.0.pop() else { return };
                    drop(q);
                    job();
                }
            })
        })
        .collect();
    let source = Source::Bytes {
        name: "g.pgn".into(),
        data: data.to_vec(),
    };
    let options = ScanOptions {
        piece_size,
        ..ScanOptions::with_threads(threads)
    };
    let scan = Scan::new(source, Formats::ANY).with_options(options);
    let mut spec = TableSpec::by_name(table).unwrap();
    spec.batch_rows = 100;
    let out = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&out);
    let done = tables::scan_table_on(
        scan,
        &spec,
        &Lent {
            jobs: Arc::clone(&jobs),
        },
        move |_, b| {
            sink.lock().unwrap().push(b);
            true
        },
        |_| {},
    );
    jobs.0.lock().unwrap().1 = true;
    jobs.1.notify_all();
    for w in workers {
        w.join().unwrap();
    }
    assert!(!done.stopped && !done.scanned.failed());
    std::mem::take(&mut *out.lock().unwrap())
}

#[test]
fn the_same_batches_read_on_lent_threads() {
    let data = games(1234);
    for table in ["games", "moves"] {
        let one = run(&data, 1, 1 << 20, table);
        for (threads, piece, lent) in [(2, 4096, 1), (3, 1000, 2), (4, 2000, 3), (1, 4096, 1)] {
            assert_eq!(
                one,
                run_on(&data, threads, piece, table, lent),
                "{table} -j{threads} on {lent} lent threads"
            );
        }
    }
}

/// Batches end at `batch_bytes` of rows too: the first row that brings a batch to them ends
/// it, counted row by row (`tables::row_bytes`), so that rows of any size are held a budget at
/// a time, in the same batches at every thread count and piece size.
#[test]
fn batches_end_at_their_bytes_the_same_at_every_thread_count() {
    let mut data = Vec::new();
    for k in 0..300 {
        // comments of 0 to 6 KB
        let comment = "x".repeat((k * 37) % 6000);
        data.extend_from_slice(
            format!("[Event \"E{k}\"]\n\n1. e4 {{{comment}}} e5 1-0\n\n").as_bytes(),
        );
    }
    let cut = |threads: usize, piece_size: usize| {
        let source = Source::Bytes {
            name: "g.pgn".into(),
            data: data.clone(),
        };
        let options = ScanOptions {
            piece_size,
            ..ScanOptions::with_threads(threads)
        };
        let scan = Scan::new(source, Formats::ANY).with_options(options);
        let mut spec = TableSpec::by_name("games").unwrap();
        spec.batch_rows = 100;
        spec.batch_bytes = 50_000;
        let mut out = Vec::new();
        tables::scan_table(
            scan,
            &spec,
            |_, b| {
                out.push(b);
                true
            },
            |_| {},
        );
        out
    };
    let one = cut(1, 1 << 20);
    assert_eq!(one.iter().map(RecordBatch::num_rows).sum::<usize>(), 300);
    assert!(one.len() > 3, "cut by bytes: {} batches", one.len());
    for b in &one[..one.len() - 1] {
        let n = b.num_rows();
        let bytes = tables::row_bytes(b, 0, n);
        // at the budget, or 100 rows; and one row fewer is under it
        assert!(n == 100 || bytes >= 50_000, "{n} rows, {bytes} bytes");
        assert!(tables::row_bytes(b, 0, n - 1) < 50_000);
    }
    // row by row: the bytes of a batch are the sum of its rows'
    let b = &one[0];
    let each: usize = (0..b.num_rows())
        .map(|k| tables::row_bytes(b, k, k + 1))
        .sum();
    assert_eq!(each, tables::row_bytes(b, 0, b.num_rows()));
    for (threads, piece) in [(2, 4096), (3, 1000), (1, 3000)] {
        assert_eq!(one, cut(threads, piece), "-j{threads}, pieces of {piece}");
    }
}
