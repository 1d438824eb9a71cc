//! `kifu stats`: counts over every event.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu::Stats;
use kifu::par::{Event, Visited, Work};

use crate::args::Common;
use crate::run::{self, Games, Outcome};
use crate::source::Input;

/// Count games, tags, moves, comments, NAGs, variations and errors, with throughput.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `kifu stats`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    command(&args.common, args.json)
}

/// `kifu stats`: the totals over every input, as text or one JSON object.
pub fn command(common: &Common, as_json: bool) -> io::Result<ExitCode> {
    let start = std::time::Instant::now();
    let mut total = Stats::default();
    let scanned = run::scan(common, "reading", &StatsWork, |event| {
        match event {
            Event::Piece { visited, .. } => match visited {
                Visited::Pgn(s) | Visited::Sgf(s) => total.add(&s),
            },
            Event::End { bytes, .. } => total.bytes += bytes,
        }
        Ok(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let out = io::stdout();
    let mut out = out.lock();
    let read = &scanned.report;
    if as_json {
        let mut json = to_json(&total, seconds);
        json["inputs"] = read.inputs.into();
        json["streams"] = read.streams.into();
        json["skipped_files"] = read.skipped_files.into();
        json["skipped_members"] = read.skipped_members.into();
        json["skipped"] = read.skipped.clone().into();
        writeln!(out, "{json}")?;
    } else {
        write_text(&total, &mut out, seconds)?;
        writeln!(
            out,
            "inputs      {:>14}  ({} streams: files and archive members)",
            read.inputs, read.streams
        )?;
        if read.skipped_files + read.skipped_members > 0 {
            writeln!(
                out,
                "skipped     {:>14}  ({} files, {} archive members: neither PGN nor SGF)",
                read.skipped_files + read.skipped_members,
                read.skipped_files,
                read.skipped_members
            )?;
            for name in &read.skipped {
                writeln!(out, "  skipped: {}", crate::run::shown(name))?;
            }
        }
    }
    Ok(Outcome::of(&scanned, false).code())
}

/// One [`Stats`] per piece, added up in the sink.
struct StatsWork;

impl Work for StatsWork {
    type Input = Input;
    type Pgn = Stats;
    type Sgf = Stats;
    fn pgn(&self, _: &Input) -> Stats {
        Stats::default()
    }
    fn sgf(&self, _: &Input) -> Stats {
        Stats::default()
    }
}

impl Games for Stats {
    fn games(&self) -> u64 {
        self.games
    }
}

/// Megabytes a second.
fn mb_per_s(s: &Stats, seconds: f64) -> f64 {
    if seconds > 0.0 {
        s.bytes as f64 / 1e6 / seconds
    } else {
        0.0
    }
}

/// The totals as `kifu stats --json` writes them.
pub fn to_json(s: &Stats, seconds: f64) -> serde_json::Value {
    serde_json::json!({
        "games": s.games,
        "tags": s.tags,
        "moves": s.moves(),
        "mainline_moves": s.mainline_moves,
        "variation_moves": s.variation_moves,
        "comments": s.comments,
        "nags": s.nags,
        "variations": s.variations,
        "errors": s.errors,
        "warnings": s.warnings,
        "nodes": s.nodes,
        "properties": s.properties,
        "bytes": s.bytes,
        "seconds": seconds,
        "mb_per_s": mb_per_s(s, seconds),
    })
}

/// The totals as `kifu stats` writes them.
pub fn write_text(s: &Stats, out: &mut impl Write, seconds: f64) -> io::Result<()> {
    let moves = s.moves();
    writeln!(out, "games       {:>14}", s.games)?;
    writeln!(out, "tags        {:>14}", s.tags)?;
    writeln!(
        out,
        "moves       {:>14}  ({} main line, {} in variations)",
        moves, s.mainline_moves, s.variation_moves
    )?;
    writeln!(out, "comments    {:>14}", s.comments)?;
    writeln!(out, "nags        {:>14}", s.nags)?;
    writeln!(out, "variations  {:>14}", s.variations)?;
    if s.nodes > 0 {
        writeln!(out, "nodes       {:>14}  (SGF)", s.nodes)?;
        writeln!(out, "properties  {:>14}  (SGF)", s.properties)?;
    }
    writeln!(
        out,
        "errors      {:>14}  ({} of them warnings)",
        s.errors, s.warnings
    )?;
    writeln!(out, "bytes       {:>14}", s.bytes)?;
    writeln!(out, "seconds     {:>14.3}", seconds)?;
    writeln!(out, "MB/s        {:>14.1}", mb_per_s(s, seconds))?;
    Ok(())
}
