//! `kifu stats`: counts over every event.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu_pipeline::StatsSummary;
use kifu_pipeline::group::{By, Grouped, Grouping, Sort};

use crate::args::Common;
use crate::run::{self, Outcome};

/// Count games, tags, moves, comments, NAGs, variations and errors, with throughput.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Print one JSON object instead of text (with --by: one JSON object a row, JSON Lines).
    #[arg(long)]
    pub json: bool,
    /// Count per value of KEY instead: a tag or root property (`Event`, `White`, `RU`, `BR`),
    /// or a derived key: `year` or `month` (of UTCDate, else Date, else EventDate; SGF DT),
    /// `speed`, `tc_base`, `tc_increment` (of TimeControl), `opening_eco`, `opening_name`,
    /// `opening_ply` (named from the moves), `plies`, `result`, `winner`, SGF `win_by`,
    /// `margin`, `black_rank`, `white_rank` (the keys of `kifu filter -w`). One row a value:
    /// games, plies, White/draw/Black shares, errors.
    #[arg(long, value_name = "KEY", value_parser = By::parse, help_heading = "Grouping")]
    pub by: Option<By>,
    /// The most distinct values with a row of their own (at least 1); the games of later values
    /// are counted in one `(other)` row, with a note.
    #[arg(long, value_name = "N", default_value_t = Grouping::DEFAULT_MAX_GROUPS,
          value_parser = crate::args::parse_count_usize, requires = "by",
          help_heading = "Grouping")]
    pub max_groups: usize,
    /// The order of the rows: by the value (numbers as numbers), or most games first.
    #[arg(long, value_enum, default_value_t = SortBy::Key, requires = "by",
          help_heading = "Grouping")]
    pub sort: SortBy,
}

/// `--sort`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SortBy {
    /// By the value as its key orders them: numbers as numbers, dates, ranks as ranks, speeds
    /// fastest first, else as text; games without a value last.
    Key,
    /// Most games first.
    Games,
}

/// `kifu stats`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    crate::run::warn_near_misses(args.common.quiet, args.by.as_ref().map(|b| b.key()));
    match args.by {
        Some(by) => {
            let grouping = Grouping {
                by,
                max_groups: args.max_groups,
                sort: match args.sort {
                    SortBy::Key => Sort::Key,
                    SortBy::Games => Sort::Games,
                },
            };
            grouped(&args.common, &grouping, args.json)
        }
        None => command(&args.common, args.json),
    }
}

/// `kifu stats --by KEY`: one row per value, as a table or JSON Lines.
fn grouped(common: &Common, grouping: &Grouping, as_json: bool) -> io::Result<ExitCode> {
    let (grouped, scanned) = run::job(common, "reading", |scan| scan.group(grouping, run::note))?;
    run::report(&scanned);
    if grouped.capped {
        eprintln!(
            "kifu: --by {}: more than {} distinct values; the games of the later ones are counted \
             in the (other) row (raise --max-groups)",
            grouped.by.name(),
            grouped.max_groups
        );
    }
    let out = io::stdout();
    let mut out = out.lock();
    if as_json {
        for row in &grouped.rows {
            serde_json::to_writer(&mut out, row)?;
            writeln!(out)?;
        }
    } else {
        write_groups(&grouped, &mut out)?;
    }
    out.flush()?;
    Ok(Outcome::of(&scanned, false).code())
}

/// The rows of `kifu stats --by` as a table: the value (`(none)` for the games without one,
/// `(other)` past the cap), games, plies a game, White/draw/Black shares, errors.
pub fn write_groups(grouped: &Grouped, out: &mut impl Write) -> io::Result<()> {
    let label = |r: &kifu_pipeline::group::Row| -> String {
        match (&r.key, r.other) {
            (_, true) => "(other)".into(),
            (None, false) => "(none)".into(),
            (Some(k), false) => kifu_pipeline::shown(k).into_owned(),
        }
    };
    let labels: Vec<String> = grouped.rows.iter().map(label).collect();
    let width = labels
        .iter()
        .map(|l| l.chars().count())
        .chain([grouped.by.name().chars().count()])
        .max()
        .unwrap_or(0)
        .min(60);
    writeln!(
        out,
        "{:<width$}  {:>12}  {:>10}  {:>6}  {:>6}  {:>6}  {:>8}",
        grouped.by.name(),
        "games",
        "mean plies",
        "white",
        "draw",
        "black",
        "errors"
    )?;
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    for (row, label) in grouped.rows.iter().zip(&labels) {
        let c = &row.counts;
        writeln!(
            out,
            "{:<width$}  {:>12}  {:>10.1}  {:>6}  {:>6}  {:>6}  {:>8}",
            label,
            c.games,
            c.mean_plies(),
            pct(c.white_share()),
            pct(c.draw_share()),
            pct(c.black_share()),
            c.errors
        )?;
    }
    Ok(())
}

/// `kifu stats`: the totals over every input, as text or one JSON object.
pub fn command(common: &Common, as_json: bool) -> io::Result<ExitCode> {
    let (summary, scanned) = run::job(common, "reading", |scan| scan.stats(run::note))?;
    run::report(&scanned);
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
