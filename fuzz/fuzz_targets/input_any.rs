//! Arbitrary bytes through `kifu_input::for_each_in_reader`: no panic, bounded memory (run
//! with `-rss_limit_mb`), every error named after the input, and the bytes handed over and the
//! errors the same with one thread and with the thread count the input picks.
//!
//! Input layout (bytes past the end read as 0):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | threads: 1, 2 or 4 (`b0 % 3`), compared with 1 |
//! | 1 | `buffer_size = 4096 + b1 * 64` (4 KiB..20 KiB) |
//! | 2 | `frame_buffer = 1 + b2 * 256`; the bits above pick the name (below) with `b2 % 8` |
//! | 3 | read size of the function: `1 + b3 * 37` |
//! | rest | the input's bytes |
//!
//! Names (`b2 % 8`): `-`, `x.pgn`, `x.pgn.gz`, `x.pgn.zst`, `x.sgf.bz2`, `x.tar.xz`, `x.zip`,
//! `x.tar`. The function reads every entry to its end, or stops the walk (an error of its own)
//! after 8 MiB in all, so that a bomb costs time only up to there.

#![no_main]

use std::io::Cursor;

use kifu_input::{Options, Progress, for_each_in_reader};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 8] = [
    "-",
    "x.pgn",
    "x.pgn.gz",
    "x.pgn.zst",
    "x.sgf.bz2",
    "x.tar.xz",
    "x.zip",
    "x.tar",
];

/// All the bytes handed over (in order) before the function stops.
const BUDGET: usize = 8 << 20;

#[derive(Debug, PartialEq)]
struct Outcome {
    entries: Vec<(String, Vec<u8>, Option<String>)>,
    errors: Vec<String>,
    aborted: bool,
    skipped: u64,
}

fn run(name: &str, data: &[u8], opts: &Options, read: usize) -> Outcome {
    let mut entries = Vec::new();
    let mut total = 0usize;
    let mut buf = vec![0u8; read];
    let r = for_each_in_reader(
        name,
        Cursor::new(data.to_vec()),
        opts,
        &Progress::new(),
        |e| {
            let mut out = Vec::new();
            let mut err = None;
            loop {
                if total >= BUDGET {
                    entries.push((e.name.to_string(), out, None));
                    return Err(std::io::Error::other("enough"));
                }
                match e.reader.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        total += n;
                        out.extend_from_slice(&buf[..n]);
                    }
                    Err(x) => {
                        err = Some(x.to_string());
                        break;
                    }
                }
            }
            let failed = err.is_some();
            entries.push((e.name.to_string(), out, err));
            if failed {
                Err(std::io::Error::other("the reader failed"))
            } else {
                Ok(())
            }
        },
    );
    for e in &r.errors {
        assert!(
            e.name == name || e.name.starts_with(&format!("{name}:")),
            "an error not named after the input: {e}"
        );
        assert!(!e.error.to_string().is_empty());
    }
    Outcome {
        entries,
        errors: r.errors.iter().map(|e| e.to_string()).collect(),
        aborted: r.aborted.is_some(),
        skipped: r.skipped_members,
    }
}

fuzz_target!(|data: &[u8]| {
    let b = |i: usize| data.get(i).copied().unwrap_or(0) as usize;
    let threads = [1, 2, 4][b(0) % 3];
    let name = NAMES[b(2) % 8];
    let opts = |threads| Options {
        threads,
        buffer_size: 4096 + b(1) * 64,
        frame_buffer: 1 + b(2) * 256,
        max_frame_size: 1 << 20,
        decoder_memory_limit: 32 << 20,
    };
    let read = 1 + b(3) * 37;
    let input = data.get(4..).unwrap_or(&[]);
    let one = run(name, input, &opts(1), read);
    if threads > 1 {
        let other = run(name, input, &opts(threads), read);
        assert!(
            other == one,
            "-j{threads} differs from -j1:\n{:?}\n{:?}",
            (
                &other.errors,
                other
                    .entries
                    .iter()
                    .map(|e| (&e.0, e.1.len(), &e.2))
                    .collect::<Vec<_>>()
            ),
            (
                &one.errors,
                one.entries
                    .iter()
                    .map(|e| (&e.0, e.1.len(), &e.2))
                    .collect::<Vec<_>>()
            ),
        );
    }
});
