//! `kifu fmt`: games rewritten in the standard form, through the DOM (one game in memory at a
//! time): PGN in the export format of the standard (§8.1), SGF as FF\[4\].

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use kifu::par::{Event, Visited};

use crate::args::{Common, GameLimit, MaxCount, OutputArgs};
use crate::out::{self, Guard};
use crate::render::standard::{Formatted, Options, Strip};
use crate::run::{self, Budget, InputTally, Outcome};
use kifu_pipeline::{DomWork, Input, Listed};

/// Rewrite the games in the standard form: PGN in the export format (Seven Tag Roster first,
/// lines of at most 79 characters), SGF as FF[4]. Problems met while reading go to stderr
/// as `kifu check` prints them; the games are written as read (repaired where the reader
/// repairs). Exit 1 if an input held no game but problems.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Leave out any of: comments, variations, nags (comma-separated). For SGF, comments
    /// are C and GC, nags the annotation properties (BM DO IT TE DM GB GW UC HO).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub strip: Vec<StripWhat>,
    /// PGN: each game's movetext on one line; SGF: each game tree on one line.
    #[arg(long)]
    pub compact: bool,
    /// SGF: one node per line.
    #[arg(long, conflicts_with = "compact")]
    pub node_per_line: bool,
    #[command(flatten)]
    pub max: MaxCount,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// What `kifu fmt --strip` can leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StripWhat {
    /// Comments (SGF: C and GC).
    Comments,
    /// Variations.
    Variations,
    /// NAGs (SGF: the annotation properties).
    Nags,
}

/// `kifu fmt`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let opts = Options {
        strip: Strip {
            comments: args.strip.contains(&StripWhat::Comments),
            variations: args.strip.contains(&StripWhat::Variations),
            nags: args.strip.contains(&StripWhat::Nags),
        },
        compact: args.compact,
        node_per_line: args.node_per_line,
        max_game_bytes: args.limit.max_game_bytes,
    };
    command(
        &args.common,
        args.output.output.as_deref(),
        args.output.force,
        &opts,
        args.max.max_count,
    )
}

/// `kifu fmt`: the games rewritten, to stdout or `-o FILE`; the problems met to stderr as
/// `kifu check` prints them. Exit status 1 when an input held no game but problems.
pub fn command(
    common: &Common,
    output: Option<&Path>,
    force: bool,
    opts: &Options,
    max_count: Option<u64>,
) -> io::Result<ExitCode> {
    let mut budget = Budget::new(max_count);
    let guard = Guard::new(&common.files, force);
    let mut out = out::open(output, &guard)?;
    let stderr = io::stderr();
    let color = common.color.on(stderr.is_terminal());
    let mut err = stderr.lock();
    let mut problems = 0u64;
    let mut empty = false;
    let mut tally = InputTally::default();
    let work = DomWork::new(opts.scope(), |input: &Input| {
        Formatted::new(opts, &input.name)
    });
    let scanned = run::scan(common, "formatting", &work, |event| {
        match event {
            Event::Piece { visited, info, .. } => {
                let (done, unclaimed) = match &visited {
                    Visited::Pgn(dom) => {
                        tally.add(dom);
                        (&dom.each, &dom.unclaimed)
                    }
                    Visited::Sgf(dom) => {
                        tally.add(dom);
                        (&dom.each, &dom.unclaimed)
                    }
                };
                // the games written (all of them but past `-m`), and the problems of those
                let mut cut = 0;
                while cut < done.starts.len() && !budget.done() {
                    budget.take();
                    cut += 1;
                }
                let end = done.starts.get(cut).map_or(done.out.len(), |s| s.0);
                let last = done.starts.get(cut).map_or(u64::MAX, |s| s.1);
                let written = done.problems.iter().filter(|p| p.game() < last).cloned();
                let unclaimed = unclaimed.iter().map(|p| Listed::Problem(p.clone()));
                for mut p in written.chain(unclaimed) {
                    // a game's problems past the first ones are a count: all of them are counted
                    problems += p.count();
                    if common.quiet {
                        continue;
                    }
                    p.rebase(info.first_game);
                    crate::render::write_listed(&mut err, &p, color)?;
                }
                done.out.write_range(0, end, &mut out)?;
            }
            Event::End { .. } => {
                // an input without a game but with problems: nothing written for it (the scan
                // names it on stderr)
                if tally.end().is_some() {
                    empty = true;
                }
            }
        }
        Ok(())
    })?;
    out::finish(out)?;
    if problems > 0 && !common.quiet {
        let _ = writeln!(
            err,
            "kifu fmt: {problems} problem(s) met while reading; the games were written as repaired"
        );
    }
    Ok(Outcome::of(&scanned, empty).code())
}
