//! Decodes every input and counts the bytes: the measuring tool of `scripts/bench/input_bench.sh`.
//!
//! `cargo run --release -p kifu-input --example decode -- [-jN] PATH...` prints, on stderr,
//! entries, decoded bytes, raw bytes, seconds and MB/s (of decoded bytes), and the errors;
//! with `--cat`, writes the decoded bytes to stdout too.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use kifu_input::{Options, Progress, for_each_input};

fn main() {
    let mut opts = Options::default();
    let mut args = Vec::new();
    let mut cat = false;
    for a in std::env::args().skip(1) {
        if a == "--cat" {
            cat = true;
        } else if let Some(n) = a.strip_prefix("-j") {
            opts.threads = n.parse().expect("-jN");
        } else {
            args.push(PathBuf::from(a));
        }
    }
    let progress = Progress::new();
    let t = Instant::now();
    let mut decoded = 0u64;
    let mut buf = vec![0u8; 256 << 10];
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let report = for_each_input(&args, &opts, &progress, |e| {
        loop {
            let n = e.reader.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            decoded += n as u64;
            if cat {
                out.write_all(&buf[..n])?;
            }
        }
    });
    out.flush().expect("stdout");
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "entries {} decoded {decoded} raw {} seconds {s:.3} MB/s {:.1}",
        report.entries,
        progress.bytes_read(),
        decoded as f64 / s / 1e6
    );
    for e in &report.errors {
        eprintln!("error: {e}");
    }
    if !report.is_clean() {
        std::process::exit(2);
    }
}
