//! `kifu find`: the games that reach a position or show a pattern (docs/search.md), written in
//! the standard form or as JSON lines with the plies where each matched.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited};
use kifu::{pgn, sgf};
use kifu_pipeline::find::{CountWork, FindWork, Finder, Matched, Query};
use kifu_pipeline::{DomScope, Input, PerGame};

use crate::args::{Common, GameLimit, MaxCount, OutputArgs};
use crate::out::{self, Guard};
use crate::predicate::Predicate;
use crate::query::QueryArgs;
use crate::render::{Rendered, To};
use crate::run::{self, Budget, Outcome};

/// Find the games that reach a position or show a pattern; write them, or count them.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub query: QueryArgs,
    /// A test on the game's keys, as `kifu filter -w` (docs/cli.md § Keys); repeat: all must
    /// hold.
    #[arg(short = 'w', long = "where", value_name = "TEST")]
    pub tests: Vec<kifu_pipeline::keys::AnyOf>,
    /// Print only how many games matched.
    #[arg(short = 'c', long)]
    pub count: bool,
    /// The form of the games written (jsonl: each game's object with `matched_plies`).
    #[arg(long, value_enum, default_value_t)]
    pub to: To,
    #[command(flatten)]
    pub max: MaxCount,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// A piece's matching games, written.
pub struct Found {
    rendered: Rendered,
    /// With `-c`: the games matched, counted and not written.
    count: Option<u64>,
    finder: Finder,
    predicate: Arc<Predicate>,
    variations: bool,
}

impl Found {
    /// Counts or writes a matching game (`m`: where it matched).
    fn take(&mut self, game: &pgn::Game, m: &Matched) {
        if let Some(n) = &mut self.count {
            *n += 1;
        } else {
            self.rendered.pgn(game);
            self.add_plies(m);
        }
    }

    /// Adds `m` to the JSON line just written.
    fn add_plies(&mut self, m: &Matched) {
        let Rendered::Json(l) = &mut self.rendered else {
            return;
        };
        let start = l.starts.last().map_or(0, |s| s.0);
        if l.out.len() > start && l.out.ends_with(b"}\n") {
            l.out.truncate(l.out.len() - 2);
            let mut plies = b",".to_vec();
            m.write_json(&mut plies, self.variations);
            plies.extend_from_slice(b"}\n");
            l.out.extend_from_slice(&plies);
        }
    }
}

impl PerGame for Found {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if self.predicate.pgn(&game)
            && let Some(m) = self.finder.pgn(&game)
        {
            self.take(&game, &m);
        }
        Some(game)
    }
    fn pgn_matched(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        // the plies matched are written in JSON lines only: else the event search's answer
        // is the game's, and it is not searched again
        if matches!(self.rendered, Rendered::Json(_)) && self.count.is_none() {
            return self.pgn(game);
        }
        if self.predicate.pgn(&game) {
            self.take(&game, &Matched::default());
        }
        Some(game)
    }
    fn matched_writer(&self) -> Option<pgn::Writer> {
        // a matching game written in the standard form, and nothing else done with it
        let only_written = self.count.is_none() && self.predicate.is_empty();
        self.rendered.std_writer().filter(|_| only_written)
    }
    fn pgn_written(&mut self, shell: pgn::Game, text: &str) -> Option<pgn::Game> {
        self.rendered.pgn_text(&shell, text);
        Some(shell)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if self.predicate.sgf(&tree)
            && let Some(m) = self.finder.sgf(&tree)
        {
            if let Some(n) = &mut self.count {
                *n += 1;
            } else {
                self.rendered.sgf(&tree);
                self.add_plies(&m);
            }
        }
    }
}

/// `find -c` without `-w` on the main line: no game built.
fn count_only(
    common: &Common,
    q: &kifu_replay::chess::query::Query,
    max: Option<u64>,
) -> io::Result<ExitCode> {
    let work = CountWork::new(Arc::new(q.clone()));
    let mut budget = Budget::new(max);
    let mut found = 0u64;
    let mut saw = false;
    let scanned = run::scan(common, "searching", &work, |event| {
        if let Event::Piece {
            visited: Visited::Pgn(c),
            ..
        } = event
        {
            saw = true;
            for _ in 0..c.found() {
                if !budget.take() {
                    break;
                }
                found += 1;
            }
        }
        Ok(())
    })?;
    let mut out = io::stdout().lock();
    writeln!(out, "{found}")?;
    if let Some(n) = crate::query::format_note(false, scanned.games, saw)
        && !common.quiet
    {
        eprintln!("kifu find: {n}");
    }
    out.flush()?;
    Ok(Outcome::of(&scanned, found == 0).code())
}

/// `kifu find`. Exit status 1 when no game matched or a game could not be written (named on
/// stderr), 2 when an input could not be read.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let query = Arc::new(args.query.query()?);
    if !args.common.quiet {
        for note in args.query.notes(&query) {
            eprintln!("kifu find: {note}");
        }
    }
    crate::run::warn_near_misses(args.common.quiet, args.tests.iter().flat_map(|t| t.keys()));
    let common = &args.common;
    if args.count
        && !args.query.dom_search
        && args.tests.is_empty()
        && !args.query.variations
        && args.output.output.is_none()
        && let Query::Chess(q) = &*query
    {
        return count_only(common, q, args.max.max_count);
    }
    let guard = Guard::new(&common.files, args.output.force);
    let mut out = out::open(args.output.output.as_deref(), &guard)?;
    let predicate = Arc::new(Predicate {
        tests: args.tests,
        ..Predicate::default()
    });
    let (to, count, variations) = (args.to, args.count, args.query.variations);
    // every ply is listed only in JSON lines; else a game's search ends at its first match
    let all = to == To::Jsonl && !count;
    // written games keep their variations; a count of main-line matches needs only the main line
    let scope = if count && !variations {
        DomScope::MAIN_LINE
    } else {
        DomScope::FULL
    };
    // a chess query on the main line: each game searched on the parser's events first, built
    // only when it may match
    let work = FindWork::new(
        &query,
        scope.with_max_game_bytes(args.limit.max_game_bytes),
        |input: &Input| Found {
            rendered: Rendered::new(to, &input.name),
            count: count.then_some(0),
            finder: Finder::new(Arc::clone(&query), all),
            predicate: Arc::clone(&predicate),
            variations,
        },
    )
    .sieve(!args.query.dom_search);
    let mut budget = Budget::new(args.max.max_count);
    let mut found = 0u64;
    let mut unwritten = false;
    let mut saw = false;
    let scanned = run::scan_in_pieces(
        common,
        "searching",
        run::piece_size_to(to),
        &work,
        |event| {
            let Event::Piece {
                input,
                visited,
                info,
            } = event
            else {
                return Ok(());
            };
            let each = match &visited {
                Visited::Pgn(dom) => &dom.each,
                Visited::Sgf(dom) => &dom.each,
            };
            saw |= matches!(
                (&visited, &*query),
                (Visited::Pgn(_), Query::Chess(_)) | (Visited::Sgf(_), Query::Go(_))
            );
            if let Some(n) = each.count {
                for _ in 0..n {
                    if !budget.take() {
                        break;
                    }
                    found += 1;
                }
                return Ok(());
            }
            let rendered = &each.rendered;
            for k in 0..rendered.len() {
                if !budget.take() {
                    break;
                }
                found += 1;
                if let Some(why) = rendered.why_unwritten(k) {
                    unwritten = true;
                    let n = info.first_game + rendered.index(k) + 1;
                    crate::render::name_unwritten("find", &input.name, n, why, &mut out)?;
                } else {
                    rendered.write_game(k, &mut out, info.first_game)?;
                }
            }
            Ok(())
        },
    )?;
    if count {
        writeln!(out, "{found}")?;
    }
    out::finish(out)?;
    if let Some(n) = crate::query::format_note(matches!(*query, Query::Go(_)), scanned.games, saw)
        && !args.common.quiet
    {
        eprintln!("kifu find: {n}");
    }
    Ok(Outcome::of(&scanned, found == 0 || unwritten).code())
}
