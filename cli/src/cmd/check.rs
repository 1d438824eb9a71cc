//! `kifu check`: every problem, located, as a line (`FILE:LINE:COLUMN: severity: message: `text`
//! (game N, move M)`) or, with `--json`, as one JSON object per line and a closing summary.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu::par::{Event, Visited, Work};
use kifu::{Control, pgn, sgf};
use kifu_replay::chess::{self, ReplayVisitor, Replayer};
use kifu_replay::go::{self, GoReplayVisitor, GoReplayer};

use crate::args::Common;
use crate::run::{self, Outcome};
use kifu_pipeline::Games;
use kifu_pipeline::Input;
use kifu_pipeline::{Listed, Problem, Problems};

/// Print every problem as FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `TEXT` (game N, move
/// M | node K); exit 1 if any.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// One JSON object per problem (JSON Lines), then a summary object.
    #[arg(long)]
    pub json: bool,
    /// Replay the games on a board too: illegal and ambiguous moves, bad FENs, unsupported
    /// variants (chess); occupied points, ko, suicide, points off the board (Go).
    #[arg(long)]
    pub legal: bool,
}

/// `kifu check`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    command(&args.common, args.json, args.legal)
}

/// A piece's problems (the first of each game listed, the rest counted) and games.
pub struct Found {
    file: std::sync::Arc<str>,
    problems: Problems,
    games: u64,
}

impl Found {
    fn new(input: &Input) -> Found {
        Found {
            file: std::sync::Arc::clone(&input.name),
            problems: Problems::new(),
            games: 0,
        }
    }
}

impl pgn::Visitor for Found {
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.games += u64::from(ctx.is_main_line());
        Control::Continue
    }
    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        self.problems.push(Problem::pgn(&self.file, e));
        Control::Continue
    }
}

impl sgf::Visitor for Found {
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        self.games += u64::from(ctx.is_game_level());
        Control::Continue
    }
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        self.problems.push(Problem::sgf(&self.file, e));
        Control::Continue
    }
}

impl ReplayVisitor for Found {
    fn on_replay_error(&mut self, e: &chess::Error<'_>) -> Control {
        self.problems.push(Problem::chess(&self.file, e));
        Control::Continue
    }
}

impl GoReplayVisitor for Found {
    fn on_go_error(&mut self, e: &go::Error<'_>) -> Control {
        self.problems.push(Problem::go(&self.file, e));
        Control::Continue
    }
}

impl Games for Found {
    fn games(&self) -> u64 {
        self.games
    }
}

/// A piece's visitor that found problems.
pub trait Finds: Games {
    /// What it found.
    fn found(&self) -> &Found;
}

impl Finds for Found {
    fn found(&self) -> &Found {
        self
    }
}

impl Finds for Replayer<Found> {
    fn found(&self) -> &Found {
        self.inner()
    }
}

impl Finds for GoReplayer<Found> {
    fn found(&self) -> &Found {
        self.inner()
    }
}

/// The problems of the parse.
struct CheckWork;

impl Work for CheckWork {
    type Input = Input;
    type Pgn = Found;
    type Sgf = Found;
    fn pgn(&self, input: &Input) -> Found {
        Found::new(input)
    }
    fn sgf(&self, input: &Input) -> Found {
        Found::new(input)
    }
}

/// The problems of the parse and of the replay on a board (`--legal`).
struct LegalWork;

impl Work for LegalWork {
    type Input = Input;
    type Pgn = Replayer<Found>;
    type Sgf = GoReplayer<Found>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        Replayer::new(Found::new(input))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        GoReplayer::new(Found::new(input))
    }
}

/// `kifu check [--json] [--legal]`. Exit status 1 when a problem was found, 2 when an input
/// could not be read.
pub fn command(common: &Common, as_json: bool, legal: bool) -> io::Result<ExitCode> {
    if legal {
        report(common, as_json, &LegalWork)
    } else {
        report(common, as_json, &CheckWork)
    }
}

fn report<W>(common: &Common, as_json: bool, work: &W) -> io::Result<ExitCode>
where
    W: Work<Input = Input>,
    W::Pgn: Finds,
    W::Sgf: Finds,
{
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let (mut inputs, mut games, mut errors, mut warnings) = (0u64, 0u64, 0u64, 0u64);
    let scanned = run::scan(common, "checking", work, |event| {
        match event {
            Event::Piece { visited, info, .. } => {
                let found = match &visited {
                    Visited::Pgn(v) => v.found(),
                    Visited::Sgf(v) => v.found(),
                };
                games += found.games;
                for mut listed in found.problems.iter() {
                    let (e, w) = listed.counts();
                    errors += e;
                    warnings += w;
                    listed.rebase(info.first_game);
                    match (&listed, as_json) {
                        (Listed::Problem(p), true) => serde_json::to_writer(&mut out, p)?,
                        (Listed::More(m), true) => serde_json::to_writer(&mut out, m)?,
                        (Listed::Problem(p), false) => write!(out, "{p}")?,
                        (Listed::More(m), false) => write!(out, "{m}")?,
                    }
                    out.write_all(b"\n")?;
                }
            }
            Event::End { .. } => inputs += 1,
        }
        Ok(())
    })?;
    if as_json {
        let summary = serde_json::json!({
            "type": "summary",
            "inputs": inputs,
            "games": games,
            "problems": errors + warnings,
            "errors": errors,
            "warnings": warnings,
            "input_failed": scanned.failed(),
        });
        serde_json::to_writer(&mut out, &summary)?;
        out.write_all(b"\n")?;
    } else if errors + warnings == 0
        && games > 0
        && !scanned.failed()
        && std::io::IsTerminal::is_terminal(&io::stdout())
    {
        // a person at a terminal sees that the check ran, not an empty screen (a pipe gets
        // nothing: no problem, no line)
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        writeln!(
            out,
            "no problem in {games} game{} ({inputs} input{})",
            plural(games),
            plural(inputs)
        )?;
    }
    out.flush()?;
    Ok(Outcome::of(&scanned, errors + warnings > 0).code())
}
