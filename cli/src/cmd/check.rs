//! `kifu check`: every problem, located, as a line (`FILE:LINE:COLUMN: severity: message: `text`
//! (game N, move M)`) or, with `--json`, as one JSON object per line and a closing summary.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use crate::args::Common;
use crate::run::{self, Outcome};
use kifu_pipeline::Listed;

/// Print every problem as FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `TEXT` (game N, move
/// M | node K); exit 1 if any. With `-q`, print nothing: the exit status says.
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

/// `kifu check [--json] [--legal]`: the pipeline's checking scan ([`kifu_pipeline::Scan::check`],
/// as `kifu.check` has it), printed. Exit status 1 when a problem was found, 2 when an input
/// could not be read; `-q` prints nothing (the status alone answers, as `grep -q`).
pub fn command(common: &Common, as_json: bool, legal: bool) -> io::Result<ExitCode> {
    let stdout = io::stdout();
    let terminal = stdout.is_terminal();
    let color = !as_json && common.color.on(terminal);
    let mut out = io::BufWriter::new(stdout.lock());
    let quiet = common.quiet;
    let checked = run::job(common, "checking", |scan| {
        scan.check(
            legal,
            |listed| {
                if quiet {
                    return Ok(());
                }
                match (&listed, as_json) {
                    (Listed::Problem(p), true) => serde_json::to_writer(&mut out, p)?,
                    (Listed::More(m), true) => serde_json::to_writer(&mut out, m)?,
                    (l, false) => return crate::render::write_listed(&mut out, l, color),
                }
                out.write_all(b"\n")
            },
            run::note,
        )
    })?;
    run::report(&checked.scanned);
    let (inputs, games) = (checked.inputs, checked.games);
    if quiet {
        // nothing said: the exit status answers
    } else if as_json {
        let summary = serde_json::json!({
            "type": "summary",
            "inputs": inputs,
            "games": games,
            "problems": checked.problems(),
            "errors": checked.errors,
            "warnings": checked.warnings,
            "input_failed": checked.scanned.failed(),
        });
        serde_json::to_writer(&mut out, &summary)?;
        out.write_all(b"\n")?;
    } else if checked.problems() == 0 && games > 0 && !checked.scanned.failed() && terminal {
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
    Ok(Outcome::of(&checked.scanned, checked.problems() > 0).code())
}
