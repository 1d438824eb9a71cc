//! `kifu find`: the games that reach a position or show a pattern (docs/search.md), written in
//! the standard form or as JSON lines with the plies where each matched.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited};
use kifu::{pgn, sgf};
use kifu_pipeline::find::{ChessSpec, FindWork, Finder, Matched, Query};
use kifu_pipeline::{DomScope, Input, PerGame};
use kifu_replay::chess::query::{LineSearch, Verdict};
use kifu_replay::go::{Anchor, Pattern};

use crate::args::{Common, GameLimit, MaxCount, OutputArgs};
use crate::out::{self, Guard};
use crate::predicate::Predicate;
use crate::render::{Rendered, To};
use crate::run::{self, Budget, Outcome};

/// What to look for (`kifu find`, `kifu explore`): the forms of docs/search.md.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct QueryArgs {
    /// An exact position: a FEN or an EPD (pieces, side to move, castling, a legal en passant
    /// square; the move counters do not matter). Transpositions are found.
    #[arg(long, value_name = "FEN", help_heading = "Query")]
    pub fen: Option<String>,
    /// A piece pattern: a FEN board part whose pieces must stand on their squares, an empty
    /// square meaning "any" (Scoutfish's sub-fen), optionally followed by `w` or `b`.
    #[arg(long, value_name = "BOARD", help_heading = "Query")]
    pub subfen: Option<String>,
    /// A material signature: `KRPkr` (exactly), or terms with bounds: `Q+` (at least a white
    /// queen), `[BN]2+` (White: two minor pieces or more), `r2-`, `P>=5`, `q=0`.
    #[arg(long, value_name = "SIG", help_heading = "Query")]
    pub material: Option<String>,
    /// Then this position, after the one before (repeat for more steps): `fen:FEN`,
    /// `subfen:BOARD` or `material:SIG`, several joined by ` & `.
    #[arg(long, value_name = "STEP", help_heading = "Query")]
    pub then: Vec<String>,
    /// With --then: each step within N plies of the one before (default: any later ply).
    #[arg(long, value_name = "N", requires = "then", help_heading = "Query")]
    pub within: Option<u32>,
    /// Positions after at least N plies (0: the start).
    #[arg(long, value_name = "N", help_heading = "Query")]
    pub min_ply: Option<u32>,
    /// Positions after at most N plies.
    #[arg(long, value_name = "N", help_heading = "Query")]
    pub max_ply: Option<u32>,
    /// Search the variations too (default: the main line only).
    #[arg(long, help_heading = "Query")]
    pub variations: bool,
    /// A Go pattern: a file of rows of `X` (black), `O` (white), `.` (empty) and `?` (any), as
    /// GNU Go's pattern files write them, or an SGF file whose final position is a whole-board
    /// pattern; found on every position of SGF games' main lines under the 8 symmetries
    /// (docs/search.md § Go patterns).
    #[arg(long, value_name = "FILE", help_heading = "Go query",
          conflicts_with_all = ["fen", "subfen", "material", "then", "min_ply", "max_ply", "variations"])]
    pub go_pattern: Option<std::path::PathBuf>,
    /// Where the Go pattern may stand: `corner` (its upper-left point on a corner point of the
    /// board), `edge` (its top row along an edge) or `anywhere` (the default).
    #[arg(long, value_name = "WHERE", requires = "go_pattern", help_heading = "Go query",
          value_parser = ["corner", "edge", "anywhere"])]
    pub anchor: Option<String>,
    /// Find the Go pattern with black and white exchanged too.
    #[arg(long, requires = "go_pattern", help_heading = "Go query")]
    pub swap_colors: bool,
    /// Build every game before searching it, as before the event search (for tests and
    /// benchmarks: the same answer, slower).
    #[arg(long, hide = true)]
    pub dom_search: bool,
}

// the most bytes of a `--go-pattern` file read: the pipeline's bound, shared with Python
use kifu_pipeline::go_find::{MAX_GO_PATTERN_BYTES, read_pattern_file};

/// A usage error (exit status 2).
fn usage(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// `--min-ply` past `--max-ply`: no position could be searched (`kifu find`, `kifu explore`,
/// `kifu export`).
pub fn check_plies(min_ply: Option<u32>, max_ply: Option<u32>) -> io::Result<()> {
    kifu_pipeline::find::check_plies(min_ply, max_ply).map_err(usage)
}

impl QueryArgs {
    /// The query the flags give; an error when none is given or one cannot be read.
    pub fn query(&self) -> io::Result<Query> {
        // clap's `requires` does not fire when a chess flag conflicting with --go-pattern is
        // given: checked here
        if self.go_pattern.is_none() {
            if let Some(a) = &self.anchor {
                return Err(usage(format!(
                    "--anchor {a} places a Go pattern: give --go-pattern FILE"
                )));
            }
            if self.swap_colors {
                return Err(usage(
                    "--swap-colors exchanges a Go pattern's colours: give --go-pattern FILE".into(),
                ));
            }
        }
        if let Some(path) = &self.go_pattern {
            return self.go_pattern(path).map(Query::Go);
        }
        if self.fen.is_none() && self.subfen.is_none() && self.material.is_none() {
            return Err(usage(
                "no query: give --fen FEN, --subfen BOARD, --material SIG or --go-pattern FILE \
                 (docs/search.md)"
                    .into(),
            ));
        }
        // --min-ply past --max-ply: refused by the spec (kifu_pipeline::find::check_plies)
        let spec = ChessSpec {
            fen: self.fen.clone(),
            subfen: self.subfen.clone(),
            material: self.material.clone(),
            then: self.then.clone(),
            within: self.within,
            min_ply: self.min_ply,
            max_ply: self.max_ply,
            variations: self.variations,
        };
        spec.query()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    }

    /// The Go pattern of `--go-pattern FILE`, with its anchor and colour swap.
    fn go_pattern(&self, path: &std::path::Path) -> io::Result<Pattern> {
        let bad = |e: String| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("--go-pattern {}: {e}", path.display()),
            )
        };
        let text = read_pattern_file(path).map_err(|e| bad(e.to_string()))?;
        let Some(text) = text else {
            return Err(bad(format!(
                "more than {} bytes: not a pattern (at most 52x52 points or one SGF game)",
                MAX_GO_PATTERN_BYTES
            )));
        };
        let sgf = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("sgf"));
        let pattern = if sgf {
            Pattern::from_sgf(&text)
        } else {
            let text = std::str::from_utf8(&text).map_err(|_| bad("not UTF-8 text".into()))?;
            Pattern::parse(text)
        }
        .map_err(|e| bad(e.to_string()))?;
        let anchor: Anchor = self
            .anchor
            .as_deref()
            .unwrap_or("anywhere")
            .parse()
            .map_err(bad)?;
        Ok(pattern.anchor(anchor).swap_colors(self.swap_colors))
    }
}

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
            if let Some(n) = &mut self.count {
                *n += 1;
            } else {
                self.rendered.pgn(&game);
                self.add_plies(&m);
            }
        }
        Some(game)
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

/// `find -c` on the main line without `-w`: the parser's events replayed straight, no game
/// built (a piece's visitor, counting the games that match).
pub struct Counting {
    query: Arc<kifu_replay::chess::query::Query>,
    search: LineSearch,
    games: u64,
    found: u64,
}

impl pgn::Visitor for Counting {
    fn on_tree(&mut self, ctx: &pgn::Context) -> kifu::Control {
        if !ctx.is_main_line() {
            return kifu::Control::Skip;
        }
        self.games += 1;
        self.search.begin();
        kifu::Control::Continue
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> kifu::Control {
        if ctx.is_main_line() && (tag.name == b"FEN" || tag.name == b"Variant") {
            let value = tag.value.decode();
            self.search.tag(tag.name, &String::from_utf8_lossy(&value));
        }
        kifu::Control::Continue
    }
    fn on_tags_end(&mut self, _: &pgn::Context) -> kifu::Control {
        let v = self.search.start(&self.query);
        self.answer(v)
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> kifu::Control {
        if !ctx.is_main_line() {
            return kifu::Control::Skip;
        }
        let v = self.search.play(&self.query, mv.san);
        self.answer(v)
    }
}

impl Counting {
    fn answer(&mut self, v: Verdict) -> kifu::Control {
        match v {
            Verdict::Continue => kifu::Control::Continue,
            Verdict::Matched => {
                self.found += 1;
                kifu::Control::SkipGame
            }
            Verdict::Over => kifu::Control::SkipGame,
        }
    }
}

impl kifu_pipeline::GameCount for Counting {
    fn games(&self) -> u64 {
        self.games
    }
}

/// SGF games in a count of chess matches: counted as read, never matched.
#[derive(Default)]
pub struct SgfGames(u64);

impl sgf::Visitor for SgfGames {
    fn on_tree(&mut self, ctx: &sgf::Context) -> kifu::Control {
        self.0 += u64::from(ctx.is_game_level());
        kifu::Control::Skip
    }
}

impl kifu_pipeline::GameCount for SgfGames {
    fn games(&self) -> u64 {
        self.0
    }
}

struct CountWork(Arc<kifu_replay::chess::query::Query>);

impl kifu::par::Work for CountWork {
    type Input = Input;
    type Pgn = Counting;
    type Sgf = SgfGames;
    fn pgn(&self, _: &Input) -> Counting {
        Counting {
            query: Arc::clone(&self.0),
            search: LineSearch::default(),
            games: 0,
            found: 0,
        }
    }
    fn sgf(&self, _: &Input) -> SgfGames {
        SgfGames::default()
    }
}

/// `find -c` without `-w` on the main line: no game built.
fn count_only(
    common: &Common,
    q: &kifu_replay::chess::query::Query,
    max: Option<u64>,
) -> io::Result<ExitCode> {
    let work = CountWork(Arc::new(q.clone()));
    let mut budget = Budget::new(max);
    let mut found = 0u64;
    let scanned = run::scan(common, "searching", &work, |event| {
        if let Event::Piece {
            visited: Visited::Pgn(c),
            ..
        } = event
        {
            for _ in 0..c.found {
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
    out.flush()?;
    Ok(Outcome::of(&scanned, found == 0).code())
}

/// `kifu find`. Exit status 1 when no game matched or a game could not be written (named on
/// stderr), 2 when an input could not be read.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let query = Arc::new(args.query.query()?);
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
    let scanned = run::scan(common, "searching", &work, |event| {
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
    })?;
    if count {
        writeln!(out, "{found}")?;
    }
    out::finish(out)?;
    Ok(Outcome::of(&scanned, found == 0 || unwritten).code())
}
