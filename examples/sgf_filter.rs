//! Keeps the SGF game trees that match a predicate, read from files, folders or stdin, one
//! game tree at a time (memory stays about one game tree, whatever the input size).
//!
//! ```text
//! cargo run --release --example sgf_filter -- [--player NAME] [--min-moves N] [--count]
//!                                             [--node-per-line] [PATH ...]
//! ```
//!
//! - `--player NAME`: `PB` or `PW` contains NAME (case-insensitive).
//! - `--min-moves N`: at least N moves on the main line.
//! - `--count`: print how many game trees matched, out of how many, instead of the trees.
//! - PATH: `.sgf` files, or folders searched for them; none, or `-`: stdin.
//!
//! The matching game trees are written to stdout in `FF[4]` ([`kifu::sgf::Writer`]).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kifu::sgf::{GameTree, Layout, ReadTrees, Writer};

struct Filter {
    player: Option<String>,
    min_moves: usize,
}

impl Filter {
    fn matches(&self, tree: &GameTree) -> bool {
        if let Some(name) = &self.player {
            let root = tree.root();
            let plays = ["PB", "PW"].iter().any(|p| {
                root.value(p.as_bytes()).is_some_and(|v| {
                    String::from_utf8_lossy(&v.simple_text())
                        .to_lowercase()
                        .contains(name.as_str())
                })
            });
            if !plays {
                return false;
            }
        }
        self.min_moves == 0
            || tree
                .main_line()
                .filter(|n| n.get(b"B").is_some() || n.get(b"W").is_some())
                .nth(self.min_moves - 1)
                .is_some()
    }
}

fn sgf_files(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&d)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                out.push(p);
            }
        }
    }
    Ok(())
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: sgf_filter [--player NAME] [--min-moves N] [--count] [--node-per-line] [PATH ...]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut filter = Filter {
        player: None,
        min_moves: 0,
    };
    let (mut count, mut layout, mut paths) = (false, Layout::Pretty, Vec::new());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--player" => match args.next() {
                Some(n) => filter.player = Some(n.to_lowercase()),
                None => return usage(),
            },
            "--min-moves" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => filter.min_moves = n,
                None => return usage(),
            },
            "--count" => count = true,
            "--node-per-line" => layout = Layout::NodePerLine,
            "-h" | "--help" => return usage(),
            _ => paths.push(a),
        }
    }
    let mut inputs: Vec<Option<PathBuf>> = Vec::new();
    for p in &paths {
        let path = Path::new(p);
        if p == "-" {
            inputs.push(None);
        } else if path.is_dir() {
            let mut files = Vec::new();
            if let Err(e) = sgf_files(path, &mut files) {
                eprintln!("{p}: {e}");
                return ExitCode::FAILURE;
            }
            inputs.extend(files.into_iter().map(Some));
        } else {
            inputs.push(Some(path.to_path_buf()));
        }
    }
    if inputs.is_empty() {
        inputs.push(None);
    }

    let writer = Writer::new().layout(layout);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut seen, mut kept) = (0u64, 0u64);
    for input in inputs {
        let (name, source): (String, Box<dyn Read>) = match &input {
            None => ("<stdin>".into(), Box::new(io::stdin().lock())),
            Some(p) => match std::fs::File::open(p) {
                Ok(f) => (p.display().to_string(), Box::new(f)),
                Err(e) => {
                    eprintln!("{}: {e}", p.display());
                    return ExitCode::FAILURE;
                }
            },
        };
        for tree in ReadTrees::new(source) {
            let tree = match tree {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            seen += 1;
            if !filter.matches(&tree) {
                continue;
            }
            kept += 1;
            if !count {
                if let Err(e) = writer.write(&tree, &mut out) {
                    if e.kind() == io::ErrorKind::BrokenPipe {
                        return ExitCode::SUCCESS;
                    }
                    eprintln!("stdout: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if count {
        let _ = writeln!(out, "{kept} of {seen} game trees");
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}
