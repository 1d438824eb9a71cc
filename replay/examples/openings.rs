//! Names the opening of each game of PGN files, beside the `ECO` tag the game already has (for
//! the comparison with pgn-extract's classification, `scripts/conformance/openings_pgn_extract.sh`,
//! which has pgn-extract write that tag).
//!
//! ```text
//! cargo run --release -p kifu-replay --example openings -- FILE...
//! ```
//!
//! One line per game, tab-separated: `file`, `game` (from 1), the `ECO` tag (`?` when missing),
//! then the opening kifu-replay names (`eco`, `name`, `ply`; `?`, `?`, `0` when none). A summary on
//! stderr: games, games named, and games whose `ECO` tag equals the code given.

use std::io::Write;

use kifu::pgn::Games;
use kifu_replay::chess::openings;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: openings FILE...");
        std::process::exit(2);
    }
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let (mut games, mut named, mut same) = (0u64, 0u64, 0u64);
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (i, game) in Games::new(&data).enumerate() {
            let tag = game.tag("ECO").unwrap_or("?");
            let o = openings::classify(&game);
            let (eco, name, ply) = o.map_or(("?", "?", 0), |o| (o.eco, o.name, o.ply));
            games += 1;
            named += u64::from(o.is_some());
            same += u64::from(tag == eco);
            writeln!(out, "{file}\t{}\t{tag}\t{eco}\t{name}\t{ply}", i + 1).unwrap();
        }
    }
    out.flush().unwrap();
    eprintln!(
        "{games} games, {named} named, ECO tag = code given: {same} ({:.2}%)",
        100.0 * same as f64 / games.max(1) as f64
    );
}
