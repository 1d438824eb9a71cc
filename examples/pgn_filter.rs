//! Reads a PGN collection from a file or stdin and writes the games that match to stdout, in the
//! PGN export format. Memory holds one game at a time.
//!
//! ```text
//! cargo run --release --example pgn_filter -- [--player NAME] [--eco PREFIX] [--compact]
//!     [--no-comments] [--no-variations] [FILE|-]
//! ```
//!
//! `--player` matches the White or Black tag (case-insensitive substring), `--eco` the start of
//! the ECO tag; both must match when both are given. With neither, every game is written.
//! A summary goes to stderr, with the size of the largest game (the distance between two game
//! offsets), which bounds the memory the DOM needs.

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use kifu::pgn::{Game, ReadGames, Writer};

struct Filter {
    player: Option<String>,
    eco: Option<String>,
}

impl Filter {
    fn matches(&self, game: &Game) -> bool {
        let player = self.player.as_ref().is_none_or(|p| {
            [game.white(), game.black()]
                .into_iter()
                .flatten()
                .any(|name| name.to_lowercase().contains(p))
        });
        let eco = self
            .eco
            .as_ref()
            .is_none_or(|e| game.tag("ECO").is_some_and(|v| v.starts_with(e.as_str())));
        player && eco
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: pgn_filter [--player NAME] [--eco PREFIX] [--compact] [--no-comments] \
         [--no-variations] [FILE|-]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut filter = Filter {
        player: None,
        eco: None,
    };
    let mut writer = Writer::new();
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--player" => match args.next() {
                Some(p) => filter.player = Some(p.to_lowercase()),
                None => return usage(),
            },
            "--eco" => match args.next() {
                Some(e) => filter.eco = Some(e),
                None => return usage(),
            },
            "--compact" => writer = writer.compact(true),
            "--no-comments" => writer = writer.comments(false),
            "--no-variations" => writer = writer.variations(false),
            "-h" | "--help" => return usage(),
            _ if file.is_none() => file = Some(arg),
            _ => return usage(),
        }
    }
    let input: Box<dyn Read> = match file.as_deref() {
        None | Some("-") => Box::new(io::stdin().lock()),
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    match run(input, &filter, writer) {
        Ok((games, kept, largest)) => {
            eprintln!("{kept} of {games} games written; largest game {largest} bytes");
            ExitCode::SUCCESS
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(input: impl Read, filter: &Filter, writer: Writer) -> io::Result<(u64, u64, u64)> {
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut games, mut kept) = (0, 0);
    let (mut last, mut largest) = (0, 0);
    for game in ReadGames::new(input) {
        let game = game?;
        games += 1;
        largest = largest.max(game.offset - last);
        last = game.offset;
        if filter.matches(&game) {
            kept += 1;
            writer.write(&game, &mut out)?;
        }
    }
    out.flush()?;
    Ok((games, kept, largest))
}
