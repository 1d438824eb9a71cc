//! Prints every PGN event of a file (or stdin): what the parser sees.
//!
//! `cargo run --example events -- game.pgn`
use kifu::pgn::{EventLog, Reader};

fn main() -> std::io::Result<()> {
    let mut log = EventLog::default();
    match std::env::args_os().nth(1) {
        Some(path) => Reader::new(std::fs::File::open(path)?).read_all(&mut log)?,
        None => Reader::new(std::io::stdin().lock()).read_all(&mut log)?,
    };
    for e in &log.events {
        println!("{e:?}");
    }
    Ok(())
}
