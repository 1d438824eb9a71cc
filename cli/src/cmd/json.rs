//! `kifu json`: one JSON object per game, the library's serialization of the DOM (the one
//! schema, feature `serde`) with the input's name as `"file"`. Each piece's games are written
//! on the worker that read them; the sink puts each object's `"index"` (known only once the
//! pieces before are counted) in front.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu::par::{Event, Visited};
use kifu_export::{Charset, JsonOptions};

use crate::args::{Common, GameLimit, MaxCount};
use crate::render::lines::Lines;
use crate::run::{self, Budget, InputTally, Outcome};
use kifu_pipeline::{DomScope, DomWork, Input};

/// Print one JSON object per game (its schema: docs/json.md). An input holding no game,
/// only problems, is named on stderr, and the exit status is then 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// SGF text encoding: `auto` (per game tree: the charset CA names, else UTF-8, else
    /// ISO-8859-1 unless the text shows another) or a charset name (`utf-8`, `gbk`,
    /// `shift_jis`, …) for every game tree.
    #[arg(long, default_value = "auto")]
    pub charset: String,
    /// PGN: replay the moves and give each its move in UCI (`"uci"`).
    #[arg(long)]
    pub uci: bool,
    /// PGN: replay the moves and give each the FEN after it (`"fen"`).
    #[arg(long)]
    pub fen: bool,
    /// PGN: name each game's opening from its moves (`"opening": {"eco", "name", "ply"}`, null
    /// when no position of the main line has a name), as lichess names it.
    #[arg(long)]
    pub openings: bool,
    #[command(flatten)]
    pub max: MaxCount,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// `kifu json`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let replay = JsonOptions {
        uci: args.uci,
        fen: args.fen,
        openings: args.openings,
    };
    command(
        &args.common,
        &args.charset,
        replay,
        args.limit.max_game_bytes,
        args.max.max_count,
    )
}

/// `--charset NAME`: `auto` or a charset name.
fn charset_by_name(name: &str) -> io::Result<Charset> {
    Charset::by_name(name).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("unknown charset `{name}`"),
        )
    })
}

/// `kifu json`. Exit status 1 when an input held no game but problems, or a game could not be
/// written; 2 when an input could not be read.
pub fn command(
    common: &Common,
    charset: &str,
    options: JsonOptions,
    max_game_bytes: usize,
    max_count: Option<u64>,
) -> io::Result<ExitCode> {
    let mut budget = Budget::new(max_count);
    let charset = charset_by_name(charset)?;
    let scope = DomScope::FULL.with_max_game_bytes(max_game_bytes);
    let work = DomWork::new(scope, |input: &Input| {
        let mut lines = Lines::new(&input.name, charset);
        lines.options = options;
        lines
    });
    let out = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, out.lock());
    let mut tally = InputTally::default();
    let mut found = false;
    // pieces of 256 KiB: a piece's lines are up to ten times its bytes (run::JSON_PIECE_SIZE)
    let scanned = run::scan_in_pieces(common, "reading", run::JSON_PIECE_SIZE, &work, |event| {
        match event {
            Event::Piece {
                input,
                visited,
                info,
            } => {
                let lines = match &visited {
                    Visited::Pgn(dom) => {
                        tally.add(dom);
                        &dom.each
                    }
                    Visited::Sgf(dom) => {
                        tally.add(dom);
                        &dom.each
                    }
                };
                for k in 0..lines.starts.len() {
                    if budget.done() {
                        break;
                    }
                    if let Some(why) = lines.why_unwritten(k) {
                        found = true;
                        let n = info.first_game + lines.starts[k].1 + 1;
                        crate::render::name_unwritten("json", &input.name, n, why, &mut out)?;
                    } else {
                        budget.take();
                        lines.write_game(k, &mut out, info.first_game)?;
                    }
                }
            }
            Event::End { .. } => {
                // an input without a game but with problems: no object carries them (the
                // scan names it on stderr)
                if tally.end().is_some() {
                    found = true;
                }
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(Outcome::of(&scanned, found).code())
}
