//! `kifu stats`: counts over every event.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu::Stats;
use kifu::par::{Event, Visited};
use kifu_pipeline::{StatsSummary, StatsWork};

use crate::args::Common;
use crate::run::{self, Outcome};

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
    let summary = StatsSummary {
        stats: total,
        counts: scanned.counts.clone(),
        seconds: start.elapsed().as_secs_f64(),
    };
    let out = io::stdout();
    let mut out = out.lock();
    if as_json {
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        write_text(&summary, &mut out)?;
    }
    Ok(Outcome::of(&scanned, false).code())
}

/// The totals as `kifu stats` writes them.
pub fn write_text(summary: &StatsSummary, out: &mut impl Write) -> io::Result<()> {
    let s = &summary.stats;
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
    writeln!(out, "seconds     {:>14.3}", summary.seconds)?;
    writeln!(out, "MB/s        {:>14.1}", summary.mb_per_s())?;
    let read = &summary.counts;
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
            writeln!(out, "  skipped: {}", kifu_pipeline::shown(name))?;
        }
    }
    Ok(())
}
