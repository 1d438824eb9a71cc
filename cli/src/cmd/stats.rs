//! `kifu stats`: counts over every event.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu::par::{Event, Visited, Work};
use kifu::pgn::{Comment, CommentKind, Context, Error, Move, Nag, NagForm, Tag, Visitor};
use kifu::{Control, sgf};

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
        let mut json = total.to_json(seconds);
        json["inputs"] = read.inputs.into();
        json["streams"] = read.streams.into();
        json["skipped_files"] = read.skipped_files.into();
        json["skipped_members"] = read.skipped_members.into();
        json["skipped"] = read.skipped.clone().into();
        writeln!(out, "{json}")?;
    } else {
        total.write_text(&mut out, seconds)?;
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

/// Totals over all inputs.
#[derive(Debug, Default)]
pub struct Stats {
    pub games: u64,
    pub tags: u64,
    pub mainline_moves: u64,
    pub variation_moves: u64,
    pub comments: u64,
    pub nags: u64,
    pub variations: u64,
    pub errors: u64,
    pub warnings: u64,
    pub bytes: u64,
    /// SGF only.
    pub nodes: u64,
    /// SGF only (for PGN, tag pairs are `tags`).
    pub properties: u64,
}

impl sgf::Visitor for Stats {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        // an alternative (the first subtree of a branching continues the line it branches from)
        if ctx.variation > 0 {
            self.variations += 1;
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.is_game_level() {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_node(&mut self, _: &sgf::Context) -> Control {
        self.nodes += 1;
        Control::Continue
    }
    fn on_property(&mut self, _: &sgf::Context, _: &sgf::Property<'_>) -> Control {
        self.properties += 1;
        Control::Continue
    }
    fn on_move(&mut self, ctx: &sgf::Context, _: &sgf::Move<'_>) -> Control {
        if ctx.main_line {
            self.mainline_moves += 1;
        } else {
            self.variation_moves += 1;
        }
        Control::Continue
    }
    fn on_comment(&mut self, _: &sgf::Context, c: &sgf::Comment<'_>) -> Control {
        if c.first {
            self.comments += 1;
        }
        Control::Continue
    }
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        if e.severity == kifu::Severity::Warning {
            self.warnings += 1;
        }
        self.errors += 1;
        Control::Continue
    }
}

impl Visitor for Stats {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.in_variation() {
            self.variations += 1;
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_property(&mut self, _: &Context, _: &Tag<'_>) -> Control {
        self.tags += 1;
        Control::Continue
    }
    fn on_move(&mut self, ctx: &Context, _: &Move<'_>) -> Control {
        if ctx.is_main_line() {
            self.mainline_moves += 1;
        } else {
            self.variation_moves += 1;
        }
        Control::Continue
    }
    fn on_nag(&mut self, _: &Context, _: Nag, _: NagForm) -> Control {
        self.nags += 1;
        Control::Continue
    }
    fn on_comment(&mut self, _: &Context, c: &Comment<'_>) -> Control {
        if c.first && c.kind != CommentKind::Escape {
            self.comments += 1;
        }
        Control::Continue
    }
    fn on_error(&mut self, e: &Error<'_>) -> Control {
        if e.severity == kifu::Severity::Warning {
            self.warnings += 1;
        }
        self.errors += 1;
        Control::Continue
    }
}

impl Stats {
    /// Adds the counts of `o` (a piece's) to these.
    pub fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.tags += o.tags;
        self.mainline_moves += o.mainline_moves;
        self.variation_moves += o.variation_moves;
        self.comments += o.comments;
        self.nags += o.nags;
        self.variations += o.variations;
        self.errors += o.errors;
        self.warnings += o.warnings;
        self.bytes += o.bytes;
        self.nodes += o.nodes;
        self.properties += o.properties;
    }

    fn mb_per_s(&self, seconds: f64) -> f64 {
        if seconds > 0.0 {
            self.bytes as f64 / 1e6 / seconds
        } else {
            0.0
        }
    }

    pub fn to_json(&self, seconds: f64) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "tags": self.tags,
            "moves": self.mainline_moves + self.variation_moves,
            "mainline_moves": self.mainline_moves,
            "variation_moves": self.variation_moves,
            "comments": self.comments,
            "nags": self.nags,
            "variations": self.variations,
            "errors": self.errors,
            "warnings": self.warnings,
            "nodes": self.nodes,
            "properties": self.properties,
            "bytes": self.bytes,
            "seconds": seconds,
            "mb_per_s": self.mb_per_s(seconds),
        })
    }

    pub fn write_text(&self, out: &mut impl Write, seconds: f64) -> io::Result<()> {
        let moves = self.mainline_moves + self.variation_moves;
        writeln!(out, "games       {:>14}", self.games)?;
        writeln!(out, "tags        {:>14}", self.tags)?;
        writeln!(
            out,
            "moves       {:>14}  ({} main line, {} in variations)",
            moves, self.mainline_moves, self.variation_moves
        )?;
        writeln!(out, "comments    {:>14}", self.comments)?;
        writeln!(out, "nags        {:>14}", self.nags)?;
        writeln!(out, "variations  {:>14}", self.variations)?;
        if self.nodes > 0 {
            writeln!(out, "nodes       {:>14}  (SGF)", self.nodes)?;
            writeln!(out, "properties  {:>14}  (SGF)", self.properties)?;
        }
        writeln!(
            out,
            "errors      {:>14}  ({} of them warnings)",
            self.errors, self.warnings
        )?;
        writeln!(out, "bytes       {:>14}", self.bytes)?;
        writeln!(out, "seconds     {:>14.3}", seconds)?;
        writeln!(out, "MB/s        {:>14.1}", self.mb_per_s(seconds))?;
        Ok(())
    }
}
