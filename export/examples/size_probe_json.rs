//! Binary-size probe, the baseline: PGN games from stdin to `kifu json` lines on stdout (the
//! library with `serde`, and `serde_json`). Compare with `size_probe_parquet` (see
//! docs/export.md § Figures).

use std::io::{Read, Write};

fn main() {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let mut out = std::io::stdout().lock();
    for game in kifu::pgn::Games::new(&input) {
        serde_json::to_writer(&mut out, &game).expect("stdout");
        out.write_all(b"\n").expect("stdout");
    }
}
