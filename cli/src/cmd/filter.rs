//! `kifu filter`: the games matching every test (tags or root properties, ply bounds, what a
//! game holds), or with `--invert` the others, written in the standard form or as JSON lines.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited};
use kifu::{pgn, sgf};

use crate::args::{Common, GameLimit, MaxCount, OutputArgs};
use crate::out::{self, Guard};
use crate::predicate::Predicate;
use crate::render::{Rendered, To};
use crate::run::{self, Budget, Outcome};
use kifu_pipeline::find::{FindWork, Query};
use kifu_pipeline::{DomScope, DomWork, Input, PerGame};

/// Keep the games that pass every test: `--where` on tags (PGN) or root properties (SGF),
/// ply bounds, what a game holds; write them in the standard form or as JSON lines. Exit 1
/// if no game was kept.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    /// A test NAME OP VALUE, OP one of = != ~ (contains, ignoring case) !~ < <= > >=; NAME a
    /// tag or root property, or a derived key (year, month, speed, tc_base, tc_increment,
    /// opening_eco, opening_name, opening_ply, plies, result, winner, win_by, margin,
    /// black_rank, white_rank), or Player (White or Black; SGF PB or PW). Values compare as the
    /// key's kind: numbers as numbers (`WhiteElo=2500.0`), dates on the parts given
    /// (`Date=2015`, `Date<2021.06`), ranks as ranks (`BR>=7d`), speeds fastest first. Tests
    /// joined by `or` in one -w: one must hold; repeat -w for more: all must hold. A game
    /// without the value passes only != and !~. A misspelt key (`Whiteelo`) or a value a key
    /// never has (`speed=blits`) is refused with the close matches.
    #[arg(short = 'w', long = "where", value_name = "TEST")]
    pub tests: Vec<kifu_pipeline::keys::AnyOf>,
    /// At least this many main-line plies (SGF: moves).
    #[arg(long, value_name = "N")]
    pub min_plies: Option<u64>,
    /// At most this many main-line plies (SGF: moves).
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u64>,
    /// The game holds this (repeat or comma-separate).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub has: Vec<crate::predicate::Feature>,
    /// The game does not hold this.
    #[arg(long, value_delimiter = ',', value_enum)]
    pub lacks: Vec<crate::predicate::Feature>,
    /// PGN: the main line, replayed on a board, reaches this position (its start included),
    /// as `kifu find --fen` finds it (pieces, side to move, castling, a legal en passant
    /// square; the move counters do not matter; docs/search.md).
    #[arg(long, value_name = "FEN")]
    pub reaches: Option<String>,
    /// Keep the games that fail instead.
    #[arg(short = 'v', long)]
    pub invert: bool,
    /// Print only how many games are kept.
    #[arg(short = 'c', long)]
    pub count: bool,
    /// The form of the games written.
    #[arg(long, value_enum, default_value_t)]
    pub to: To,
    #[command(flatten)]
    pub max: MaxCount,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// `kifu filter`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    crate::run::warn_near_misses(args.common.quiet, args.tests.iter().flat_map(|t| t.keys()));
    let reaches = match &args.reaches {
        Some(fen) => {
            if !args.common.quiet
                && let Some(note) = kifu_pipeline::find::short_fen_note(
                    "--reaches ",
                    fen.trim(),
                    kifu_pipeline::find::Names::CLI,
                )
            {
                eprintln!("kifu filter: {note}");
            }
            let step = kifu_replay::chess::query::Step::fen(fen).map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidInput, format!("--reaches {e}"))
            })?;
            Some(kifu_replay::chess::query::Query::new(vec![step]))
        }
        None => None,
    };
    let opts = Options {
        predicate: crate::predicate::Predicate {
            tests: args.tests,
            min_plies: args.min_plies,
            max_plies: args.max_plies,
            has: args.has,
            lacks: args.lacks,
            reaches,
        },
        invert: args.invert,
        to: args.to,
        count: args.count,
        max_game_bytes: args.limit.max_game_bytes,
        max_count: args.max.max_count,
    };
    command(
        &args.common,
        opts,
        args.output.output.as_deref(),
        args.output.force,
    )
}

/// What `kifu filter` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The tests, all of which must hold.
    pub predicate: Predicate,
    /// Keep the games that fail instead.
    pub invert: bool,
    /// The form of the games written.
    pub to: To,
    /// Print only how many games are kept.
    pub count: bool,
    /// The DOM builders' limit on one game.
    pub max_game_bytes: usize,
    /// `-m`: the most games kept (written, or counted with `-c`).
    pub max_count: Option<u64>,
}

/// A piece's kept games.
pub struct Kept {
    rendered: Rendered,
    predicate: Arc<Predicate>,
    invert: bool,
}

impl PerGame for Kept {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if self.predicate.pgn(&game) != self.invert {
            self.rendered.pgn(&game);
        }
        Some(game)
    }
    fn matched_writer(&self) -> Option<pgn::Writer> {
        // `--reaches` alone: a game the event search found reaching the position is kept
        let only_reaches = !self.invert && self.predicate.is_reaches_only();
        self.rendered.std_writer().filter(|_| only_reaches)
    }
    fn pgn_written(&mut self, shell: pgn::Game, text: &str) -> Option<pgn::Game> {
        self.rendered.pgn_text(&shell, text);
        Some(shell)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if self.predicate.sgf(&tree) != self.invert {
            self.rendered.sgf(&tree);
        }
    }
}

/// `kifu filter`. Exit status 1 when no game was kept (as grep) or a kept game could not be
/// written (named on stderr), 2 when an input could not be read.
pub fn command(
    common: &Common,
    opts: Options,
    output: Option<&Path>,
    force: bool,
) -> io::Result<ExitCode> {
    let guard = Guard::new(&common.files, force);
    let mut out = out::open(output, &guard)?;
    let predicate = Arc::new(opts.predicate);
    let (to, invert) = (opts.to, opts.invert);
    let scope = DomScope::FULL.with_max_game_bytes(opts.max_game_bytes);
    let each = |input: &Input| Kept {
        rendered: Rendered::new(to, &input.name),
        predicate: Arc::clone(&predicate),
        invert,
    };
    let mut budget = Budget::new(opts.max_count);
    let mut kept = 0u64;
    let mut unwritten = false;
    // what each piece's kept games become: written, named when they cannot be, or counted
    let mut write = |input: &Input, rendered: &Rendered, first_game: u64| -> io::Result<()> {
        for k in 0..rendered.len() {
            if budget.done() {
                break;
            }
            if let Some(why) = rendered.why_unwritten(k) {
                unwritten = true;
                let n = first_game + rendered.index(k) + 1;
                crate::render::name_unwritten("filter", &input.name, n, why, &mut out)?;
                continue;
            }
            budget.take();
            kept += 1;
            if !opts.count {
                rendered.write_game(k, &mut out, first_game)?;
            }
        }
        Ok(())
    };
    let scanned = match predicate.reaches.as_ref().filter(|_| !invert) {
        // `--reaches`: `kifu find --fen`'s engine, each game searched on the parser's events
        // and built only when it may reach the position (the predicate then tests it whole)
        Some(reaches) => {
            let query = Query::Chess(reaches.clone());
            let work = FindWork::new(&query, scope, each);
            run::scan_in_pieces(
                common,
                "filtering",
                run::piece_size_to(to),
                &work,
                |event| {
                    if let Event::Piece {
                        input,
                        visited,
                        info,
                    } = event
                    {
                        let rendered = match &visited {
                            Visited::Pgn(sieve) => &sieve.each.rendered,
                            Visited::Sgf(dom) => &dom.each.rendered,
                        };
                        write(input, rendered, info.first_game)?;
                    }
                    Ok(())
                },
            )?
        }
        None => {
            let work = DomWork::new(scope, each);
            run::scan_in_pieces(
                common,
                "filtering",
                run::piece_size_to(to),
                &work,
                |event| {
                    if let Event::Piece {
                        input,
                        visited,
                        info,
                    } = event
                    {
                        let rendered = match &visited {
                            Visited::Pgn(dom) => &dom.each.rendered,
                            Visited::Sgf(dom) => &dom.each.rendered,
                        };
                        write(input, rendered, info.first_game)?;
                    }
                    Ok(())
                },
            )?
        }
    };
    if opts.count {
        writeln!(out, "{kept}")?;
    }
    out::finish(out)?;
    Ok(Outcome::of(&scanned, kept == 0 || unwritten).code())
}
