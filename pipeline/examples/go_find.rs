//! The Go pattern search over files, for the conformance script and the figures
//! (scripts/conformance/go_pattern.py): one JSON line per game where the pattern stands, with
//! the move numbers of the positions where it does.
//!
//! ```text
//! cargo run --release -p kifu-pipeline --example go_find -- PATTERN [--anchor corner|edge|anywhere]
//!     [--swap-colors] [--dom] [-j N] [-q] PATH...
//! ```
//!
//! PATTERN is a pattern file (rows of `X O . ?`), or an `.sgf` file whose first game's final
//! position is the whole-board pattern. `--dom` searches each game tree built as a DOM
//! ([`TreeSearch`], as `kifu find` does) instead of the replayed events ([`Scan::go_find`]);
//! `-q` prints the summary only. Prints `{"file":…,"game":N,"moves":[…],"next":[…]}` (games
//! from 0 in their file), then on stderr the games, the matches, the positions tested, the
//! seconds and the positions a second.

use std::io::Write as _;
use std::time::Instant;

use kifu::par::{Event, Visited};
use kifu::sgf::Color;
use kifu::{pgn, sgf};
use kifu_pipeline::go_find::{Appearance, GoHit, GoQuery, Next, TreeSearch};
use kifu_pipeline::{DomScope, DomWork, Formats, Input, PerGame, Scan, ScanOptions, Source};
use kifu_replay::go::{Anchor, Pattern};

/// Appends `s` to `out` as a JSON string.
fn json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out.push(b'"');
}

/// Appends `n` in decimal.
fn int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends what was played next as its JSON string: `"X 2,3"`, `"O tenuki"`, `"X pass"`,
/// `"end"` (as `Next`'s `Display` writes it).
fn next(out: &mut Vec<u8>, next: &Next) {
    let c = |c: Color| if c == Color::Black { b'X' } else { b'O' };
    out.push(b'"');
    match *next {
        Next::At { x, y, color } => {
            out.extend_from_slice(&[c(color), b' ']);
            int(out, x);
            out.push(b',');
            int(out, y);
        }
        Next::Tenuki { color } => out.extend_from_slice(&[c(color), b' ']),
        Next::Pass { color } => out.extend_from_slice(&[c(color), b' ']),
        Next::End => {}
    }
    out.extend_from_slice(match next {
        Next::Tenuki { .. } => b"tenuki\"",
        Next::Pass { .. } => b"pass\"",
        Next::End => b"end\"",
        Next::At { .. } => b"\"",
    });
}

/// Writes a game's line into `out` (emptied first), with no string made per move number or
/// next move: with a lone 4-4 stone's pattern, which stands in most positions, the strings
/// and the formatter took a quarter of the instructions of a search of small files.
fn line(out: &mut Vec<u8>, file: &str, game: u64, apps: &[Appearance]) {
    out.clear();
    out.extend_from_slice(b"{\"file\":");
    json_str(out, file);
    out.extend_from_slice(b",\"game\":");
    int(out, game);
    out.extend_from_slice(b",\"moves\":[");
    for (i, a) in apps.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        int(out, a.ply);
    }
    out.extend_from_slice(b"],\"next\":[");
    for (i, a) in apps.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        next(out, &a.next);
    }
    out.extend_from_slice(b"]}\n");
}

/// The DOM route: each tree searched as it is built.
struct Trees {
    pattern: std::sync::Arc<Pattern>,
    search: TreeSearch,
    found: Vec<Appearance>,
    games: u64,
    hits: Vec<(u64, Vec<Appearance>)>,
}

impl PerGame for Trees {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.games += 1;
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.found.clear();
        self.search.search(&self.pattern, &tree, &mut self.found);
        if !self.found.is_empty() {
            self.hits.push((self.games, self.found.clone()));
        }
        self.games += 1;
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut pattern_file = None;
    // (none asked: the pattern's drawn anchor, or anywhere)
    let mut anchor: Option<Anchor> = None;
    let (mut swap, mut dom, mut quiet, mut threads) = (false, false, false, 0usize);
    let mut paths = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--anchor" => {
                anchor = Some(
                    args.next()
                        .unwrap_or_default()
                        .parse()
                        .unwrap_or_else(|e: String| fail(&e)),
                )
            }
            "--swap-colors" => swap = true,
            "--dom" => dom = true,
            "-q" => quiet = true,
            "-j" => {
                threads = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| fail("-j N"))
            }
            _ if pattern_file.is_none() => pattern_file = Some(a),
            _ => paths.push(std::path::PathBuf::from(a)),
        }
    }
    let Some(pattern_file) = pattern_file else {
        fail("usage: go_find PATTERN [--anchor A] [--swap-colors] [--dom] [-j N] [-q] PATH...")
    };
    let text =
        std::fs::read(&pattern_file).unwrap_or_else(|e| fail(&format!("{pattern_file}: {e}")));
    let pattern = if pattern_file.to_ascii_lowercase().ends_with(".sgf") {
        Pattern::from_sgf(&text)
    } else {
        Pattern::parse(&String::from_utf8_lossy(&text))
    }
    .map_err(|e| e.to_string())
    .and_then(|p| p.with_anchor_asked(anchor))
    .unwrap_or_else(|e| fail(&format!("{pattern_file}: {e}")))
    .swap_colors(swap);
    let mut options = ScanOptions::default();
    if threads > 0 {
        options = ScanOptions::with_threads(threads);
    }
    let scan = Scan::new(Source::Paths(paths), Formats::ANY).with_options(options);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut buf = Vec::new();
    let start = Instant::now();
    let (games, matched, positions);
    if dom {
        let pattern = std::sync::Arc::new(pattern);
        let work = DomWork::new(DomScope::MAIN_LINE, |_: &Input| Trees {
            pattern: pattern.clone(),
            search: TreeSearch::default(),
            found: Vec::new(),
            games: 0,
            hits: Vec::new(),
        });
        let (mut m, mut p) = (0u64, 0u64);
        let scanned = scan
            .run(
                &work,
                |event| {
                    if let Event::Piece {
                        input,
                        visited: Visited::Sgf(d),
                        info,
                    } = event
                    {
                        p += d.each.search.positions;
                        for (g, apps) in &d.each.hits {
                            m += 1;
                            if !quiet {
                                line(&mut buf, &input.name, info.first_game + g, apps);
                                out.write_all(&buf)?;
                            }
                        }
                    }
                    Ok::<_, std::io::Error>(())
                },
                |_| {},
            )
            .unwrap_or_else(|e| fail(&e.to_string()));
        (games, matched, positions) = (scanned.games, m, p);
    } else {
        let found = scan
            .go_find(
                &GoQuery::new(pattern),
                |hit: GoHit| {
                    if !quiet {
                        line(&mut buf, &hit.file, hit.game, &hit.appearances);
                        out.write_all(&buf)?;
                    }
                    Ok::<_, std::io::Error>(())
                },
                |_| {},
            )
            .unwrap_or_else(|e| fail(&e.to_string()));
        (games, matched, positions) = (found.games, found.matched, found.positions);
    }
    out.flush().unwrap_or_else(|e| fail(&e.to_string()));
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "games {games} matched {matched} positions {positions} seconds {secs:.3} positions/s {:.0}",
        positions as f64 / secs.max(1e-9)
    );
}

fn fail(msg: &str) -> ! {
    eprintln!("go_find: {msg}");
    std::process::exit(2)
}
