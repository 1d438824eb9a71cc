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
use kifu::{pgn, sgf};
use kifu_pipeline::go_find::{Appearance, GoHit, GoQuery, TreeSearch};
use kifu_pipeline::{DomScope, DomWork, Formats, Input, PerGame, Scan, ScanOptions, Source};
use kifu_replay::go::{Anchor, Pattern};

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn line(file: &str, game: u64, apps: &[Appearance]) -> String {
    let moves: Vec<String> = apps.iter().map(|a| a.ply.to_string()).collect();
    let next: Vec<String> = apps.iter().map(|a| json_str(&a.next.to_string())).collect();
    format!(
        "{{\"file\":{},\"game\":{game},\"moves\":[{}],\"next\":[{}]}}\n",
        json_str(file),
        moves.join(","),
        next.join(",")
    )
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
    let mut anchor = Anchor::Anywhere;
    let (mut swap, mut dom, mut quiet, mut threads) = (false, false, false, 0usize);
    let mut paths = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--anchor" => {
                anchor = args
                    .next()
                    .unwrap_or_default()
                    .parse()
                    .unwrap_or_else(|e: String| fail(&e))
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
    .unwrap_or_else(|e| fail(&format!("{pattern_file}: {e}")))
    .anchor(anchor)
    .swap_colors(swap);
    let mut options = ScanOptions::default();
    if threads > 0 {
        options = ScanOptions::with_threads(threads);
    }
    let scan = Scan::new(Source::Paths(paths), Formats::ANY).with_options(options);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
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
                                out.write_all(
                                    line(&input.name, info.first_game + g, apps).as_bytes(),
                                )?;
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
                        out.write_all(line(&hit.file, hit.game, &hit.appearances).as_bytes())?;
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
