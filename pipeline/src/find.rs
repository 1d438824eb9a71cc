//! The games that reach a position or show a pattern (`kifu find`, `kifu.find`), and the
//! plies where they do: one [`Query`] per format, tested on each game as it is built, on the
//! scan's threads.
//!
//! The chess queries are kifu-replay's ([`chess::query`](kifu_replay::chess::query)): an exact
//! position, a sub-FEN pattern, a material signature, sequences of them. A Go query is the
//! other arm of [`Query`] when the Go pattern engine lands; until then an SGF game matches no
//! query.
//!
//! ```
//! use kifu_pipeline::find::{Finder, Query};
//! use kifu_replay::chess::query::{Query as ChessQuery, Step};
//!
//! let q = Query::Chess(ChessQuery::new(vec![Step::subfen("8/8/8/8/4P3/8/8/8").unwrap()]));
//! let mut finder = Finder::new(std::sync::Arc::new(q), true);
//! let game = kifu::pgn::Games::new(b"1. e4 e5 2. Nf3 *").next().unwrap();
//! assert_eq!(finder.pgn(&game).unwrap().plies, [1, 2, 3]);
//! ```

use std::sync::Arc;

use kifu::{pgn, sgf};
use kifu_replay::chess::query::{self, Searcher};

use crate::{Dom, DomScope, Input, PerGame, PieceWork};

/// What to look for: a query of one game format.
#[non_exhaustive]
#[derive(Clone, Debug)]
pub enum Query {
    /// A chess query, tested on PGN games (SGF games never match it).
    Chess(query::Query),
    /// A Go pattern ([`go_find`](crate::go_find)), tested on every position of the main line
    /// of SGF games (PGN games never match it); the plies are the move numbers of the positions
    /// where it stands (0: the start).
    Go(kifu_replay::go::Pattern),
}

impl Query {
    /// Whether the query is one exact position (one row per move in `kifu explore`, no
    /// position column needed).
    pub fn is_exact(&self) -> bool {
        match self {
            Query::Chess(q) => q.exact().is_some(),
            Query::Go(_) => false,
        }
    }
}

/// A chess query as its frontends take it, in words: `kifu find`'s flags, `kifu.find`'s
/// keyword arguments (docs/search.md).
///
/// ```
/// use kifu_pipeline::find::ChessSpec;
/// let spec = ChessSpec {
///     subfen: Some("8/8/2n5/1B6/8/8/8/8".into()),
///     then: vec!["material:Q=0 q=0".into()],
///     within: Some(20),
///     ..ChessSpec::default()
/// };
/// assert!(spec.query().is_ok());
/// assert!(ChessSpec::default().query().is_err(), "no query");
/// ```
#[derive(Clone, Debug, Default)]
pub struct ChessSpec {
    /// An exact position, FEN or EPD (`--fen`).
    pub fen: Option<String>,
    /// A piece pattern (`--subfen`).
    pub subfen: Option<String>,
    /// A material signature (`--material`).
    pub material: Option<String>,
    /// The later steps of a sequence (`--then`: `fen:…`, `subfen:…`, `material:…`).
    pub then: Vec<String>,
    /// Each step within this many plies of the one before (`--within`).
    pub within: Option<u32>,
    /// The fewest plies before a position matched (`--min-ply`).
    pub min_ply: Option<u32>,
    /// The most plies before a position matched (`--max-ply`).
    pub max_ply: Option<u32>,
    /// Search the variations too (`--variations`).
    pub variations: bool,
}

impl ChessSpec {
    /// The query, or what is wrong with it (named by its flag: `--fen …: …`).
    ///
    /// # Errors
    ///
    /// No query at all, a part that cannot be read, more than
    /// [`MAX_STEPS`](query::MAX_STEPS) steps, `--min-ply` past `--max-ply` ([`check_plies`]).
    pub fn query(&self) -> Result<Query, String> {
        use kifu_replay::chess::query::{Exact, Material, Step, SubFen};
        check_plies(self.min_ply, self.max_ply)?;
        let mut first = Step::default();
        if let Some(f) = &self.fen {
            first.exact = Some(Exact::parse(f).map_err(|e| format!("--fen {e}"))?);
        }
        if let Some(s) = &self.subfen {
            first.sub = Some(SubFen::parse(s).map_err(|e| format!("--subfen {e}"))?);
        }
        if let Some(m) = &self.material {
            first.material = Some(Material::parse(m).map_err(|e| format!("--material {e}"))?);
        }
        if first.is_empty() {
            return Err(
                "no query: give --fen FEN, --subfen BOARD or --material SIG (docs/search.md)"
                    .into(),
            );
        }
        if self.then.len() >= query::MAX_STEPS {
            return Err(format!(
                "at most {} steps (--then {} times)",
                query::MAX_STEPS,
                query::MAX_STEPS - 1
            ));
        }
        let mut steps = vec![first];
        for t in &self.then {
            steps.push(Step::parse(t).map_err(|e| format!("--then {e}"))?);
        }
        let mut q = query::Query::new(steps).within(self.within);
        q.min_ply = self.min_ply.unwrap_or(0);
        q.max_ply = self.max_ply.unwrap_or(u32::MAX);
        q.variations = self.variations;
        Ok(Query::Chess(q))
    }
}

/// `--min-ply` past `--max-ply`: no position could be searched. Refused by
/// [`ChessSpec::query`] (`kifu find`, `kifu explore`, `kifu.find`, `kifu.explore`) and by
/// `kifu export`.
///
/// ```
/// use kifu_pipeline::find::check_plies;
/// assert!(check_plies(Some(3), Some(3)).is_ok());
/// assert_eq!(
///     check_plies(Some(5), Some(3)).unwrap_err(),
///     "--min-ply 5 is past --max-ply 3: no position is between them"
/// );
/// ```
///
/// # Errors
///
/// Both given and the first past the second.
pub fn check_plies(min_ply: Option<u32>, max_ply: Option<u32>) -> Result<(), String> {
    match (min_ply, max_ply) {
        (Some(min), Some(max)) if min > max => Err(format!(
            "--min-ply {min} is past --max-ply {max}: no position is between them"
        )),
        _ => Ok(()),
    }
}

/// Where a game matched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matched {
    /// The plies (from the game's start: 0 is its first position) of the main-line positions
    /// where the query matched, in order.
    pub plies: Vec<u32>,
    /// The same in variations (each the ply along its line), in the order of the moves, when
    /// the query searches them.
    pub variation_plies: Vec<u32>,
}

impl Matched {
    /// Writes the plies as JSON members: `"matched_plies":[…]`, and
    /// `,"matched_variation_plies":[…]` when `variations`.
    pub fn write_json(&self, out: &mut Vec<u8>, variations: bool) {
        use std::io::Write as _;
        let list = |out: &mut Vec<u8>, name: &str, plies: &[u32]| {
            let _ = write!(out, "\"{name}\":[");
            for (i, p) in plies.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let _ = write!(out, "{p}");
            }
            out.push(b']');
        };
        list(out, "matched_plies", &self.plies);
        if variations {
            out.push(b',');
            list(out, "matched_variation_plies", &self.variation_plies);
        }
    }
}

/// Tests games for a query, one game at a time; one per piece (its buffers are reused from game
/// to game).
#[derive(Debug)]
pub struct Finder {
    query: Arc<Query>,
    searcher: Searcher,
    all: bool,
    go: crate::go_find::TreeSearch,
    go_found: Vec<crate::go_find::Appearance>,
}

impl Finder {
    /// A finder for `query`: with `all`, every ply where a game matches is listed; without, the
    /// search of a game ends at its first match (its plies then hold that one).
    pub fn new(query: Arc<Query>, all: bool) -> Finder {
        Finder {
            query,
            searcher: Searcher::default(),
            all,
            go: crate::go_find::TreeSearch::default(),
            go_found: Vec::new(),
        }
    }

    /// The query.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// Positions replayed so far.
    pub fn positions(&self) -> u64 {
        self.searcher.positions + self.go.positions
    }

    /// Where a PGN game matches, or `None`.
    pub fn pgn(&mut self, game: &pgn::Game) -> Option<Matched> {
        let Query::Chess(q) = &*self.query else {
            return None;
        };
        let mut m = Matched::default();
        let all = self.all;
        self.searcher.search(game, q, |hit| {
            if hit.depth == 0 {
                m.plies.push(hit.ply);
            } else {
                m.variation_plies.push(hit.ply);
            }
            all
        });
        (!m.plies.is_empty() || !m.variation_plies.is_empty()).then_some(m)
    }

    /// Where an SGF game tree matches, or `None` (a chess query never matches Go).
    pub fn sgf(&mut self, tree: &sgf::GameTree) -> Option<Matched> {
        match &*self.query {
            Query::Chess(_) => None,
            Query::Go(pattern) => {
                self.go_found.clear();
                self.go.search(pattern, tree, &mut self.go_found);
                let take = if self.all { usize::MAX } else { 1 };
                let plies: Vec<u32> = self.go_found.iter().take(take).map(|a| a.ply).collect();
                (!plies.is_empty()).then(|| Matched {
                    plies,
                    variation_plies: Vec::new(),
                })
            }
        }
    }
}

/// The work of `kifu find` and `kifu explore` on chess games: each PGN game is searched on the
/// parser's events as they come ([`LineSearch`](query::LineSearch), the main line), and built
/// only as far as it may still match. A game the search rules out is skipped by the parser from
/// there (the rest of its movetext raises no event) and never handed on; every other game is
/// built whole, as a [`DomWork`](crate::DomWork) of the same scope builds it, and handed to the piece's
/// [`PerGame`] work, which searches it again on its DOM. So what the work sees is what a
/// [`DomWork`](crate::DomWork) would give it, less games that cannot match.
///
/// Without a query to search first (`None`: a Go query, or a chess query over variations,
/// which the event search does not follow) it is a [`DomWork`](crate::DomWork). SGF games are built as a
/// [`DomWork`](crate::DomWork) builds them.
///
/// ```
/// use std::sync::Arc;
/// use kifu::par::{Event, Visited};
/// use kifu_pipeline::find::{FindWork, Query};
/// use kifu_pipeline::{DomScope, Formats, Input, PerGame, Scan, Source};
/// use kifu_replay::chess::query::{Query as ChessQuery, Step};
///
/// #[derive(Default)]
/// struct Handed(Vec<u64>);
/// impl PerGame for Handed {
///     fn pgn(&mut self, game: kifu::pgn::Game) -> Option<kifu::pgn::Game> {
///         self.0.push(game.index);
///         Some(game)
///     }
///     fn sgf(&mut self, _: kifu::sgf::GameTree) {}
/// }
/// let q = Query::Chess(ChessQuery::new(vec![Step::subfen("8/8/8/8/3P4/8/8/8").unwrap()]));
/// let work = FindWork::new(&q, DomScope::FULL, |_: &Input| Handed::default());
/// let data = b"1. e4 e5 2. Nf3 *\n\n1. d4 d5 *\n\n1. e4 d5 2. d4 *\n".to_vec();
/// let mut handed: Vec<u64> = Vec::new();
/// Scan::new(Source::Bytes { name: "three.pgn".into(), data }, Formats::ANY)
///     .run(&work, |event| {
///         if let Event::Piece { visited: Visited::Pgn(v), .. } = event {
///             handed.extend(&v.each.0);
///         }
///         Ok::<(), ()>(())
///     }, |_| {})
///     .unwrap();
/// assert_eq!(handed, [1, 2], "the first game never has a white pawn on d4: not built");
/// ```
pub struct FindWork<F> {
    query: Option<Arc<query::Query>>,
    scope: DomScope,
    each: F,
}

impl<F> FindWork<F> {
    /// The work for `query`, games built as `scope` says, handed to what `each` makes for each
    /// piece. The event search runs for a chess query on the main line only.
    pub fn new(query: &Query, scope: DomScope, each: F) -> FindWork<F> {
        let query = match query {
            Query::Chess(q) if !q.variations => Some(Arc::new(q.clone())),
            _ => None,
        };
        FindWork { query, scope, each }
    }

    /// Without the event search when `sieve` is false: every game built and handed on, as a
    /// [`DomWork`](crate::DomWork) does (the same answers, for comparison).
    pub fn sieve(mut self, sieve: bool) -> FindWork<F> {
        if !sieve {
            self.query = None;
        }
        self
    }

    /// Whether games are searched on the parser's events before they are built.
    pub fn sieves(&self) -> bool {
        self.query.is_some()
    }
}

impl<F: PieceWork> kifu::par::Work for FindWork<F> {
    type Input = Input;
    type Pgn = Sieve<F::Each>;
    type Sgf = Dom<sgf::TreeBuilder, F::Each>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        Sieve {
            builder: self.scope.pgn_builder(),
            query: self.query.clone(),
            search: query::LineSearch::default(),
            state: State::Keep,
            holding: false,
            held: Held::default(),
            file: Arc::from(&*input.name),
            each: self.each.each(input),
            unclaimed: Vec::new(),
            games: 0,
            ruled_out: 0,
            cut: Vec::new(),
        }
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        // an SGF tree is built and handed on as a DomWork does
        Dom::new(&input.name, self.scope.sgf_builder(), self.each.each(input))
    }
}

/// Where the open game stands in a [`Sieve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Searched on its events; its tags are not over yet.
    Tags,
    /// Searched move by move from its start position.
    Moves,
    /// Built whole and handed on (it matched, or the search cannot tell).
    Keep,
    /// Ruled out: skipped by the parser, dropped once it ends.
    Out,
}

/// An event of the open game held back from the builder while the search decides (its bytes in
/// [`Held::bytes`]).
#[derive(Clone, Copy, Debug)]
enum Event {
    Tag(At, Span, Span),
    TagsEnd(At),
    Move(At, pgn::San, Span, Span),
    Nag(At, pgn::Nag, pgn::NagForm),
    Comment(At, pgn::CommentKind, Span, bool, bool),
    Result(At, pgn::Outcome),
    /// The problem in [`Held::errors_at`] at this index.
    Error(u32),
}

const _: () = assert!(core::mem::size_of::<Event>() <= 48);

/// An event's [`pgn::Context`] less its game and depth, which every event held shares (the
/// main line of one game: [`Held::game`], depth 0): a held event is 48 bytes, not 80.
#[derive(Clone, Copy, Debug)]
struct At {
    offset: u64,
    line: u64,
    column: u32,
    ply: u32,
}

impl At {
    #[inline]
    fn of(ctx: &pgn::Context) -> At {
        At {
            offset: ctx.pos.offset,
            line: ctx.pos.line,
            column: ctx.pos.column,
            ply: ctx.ply,
        }
    }

    #[inline]
    fn ctx(self, game: u64) -> pgn::Context {
        pgn::Context {
            pos: kifu::Position {
                offset: self.offset,
                line: self.line,
                column: self.column,
            },
            game,
            depth: 0,
            ply: self.ply,
        }
    }
}

/// A problem held back: [`pgn::Error`] with its text in [`Held::bytes`].
#[derive(Clone, Copy, Debug)]
struct ErrorAt {
    kind: pgn::ErrorKind,
    severity: kifu::Severity,
    text: Span,
    truncated: bool,
    pos: kifu::Position,
    game: u64,
    at: Option<pgn::MoveRef>,
}

/// A range of [`Held::bytes`] (which [`Sieve::hold`] keeps within `u32::MAX` bytes).
#[derive(Clone, Copy, Debug)]
struct Span(u32, u32);

/// The events of the open game held back, reused from game to game.
#[derive(Debug, Default)]
struct Held {
    events: Vec<Event>,
    bytes: Vec<u8>,
    /// The problems held, apart (rare, and larger than the other events).
    errors_at: Vec<ErrorAt>,
    /// The game of every event held.
    game: u64,
    /// At least what the builder's estimate of the game would be after them
    /// ([`pgn::GameBuilder::with_max_game_bytes`]): while it stays within the limit, the builder
    /// answers every one of them with `Continue`.
    estimate: usize,
    /// The problems among `events`: past the count the builder keeps
    /// ([`pgn::GameBuilder::max_game_errors`]) the game goes to the builder as it comes, which
    /// keeps that many and counts the rest (a game of a million problems is not held whole).
    errors: usize,
}

impl Held {
    fn clear(&mut self) {
        self.events.clear();
        self.bytes.clear();
        self.errors_at.clear();
        self.estimate = 0;
        self.errors = 0;
    }

    /// Keeps `b`.
    /// Keeps `b` ([`Sieve::hold`] made room for it: its end is within `u32::MAX`).
    #[inline]
    fn span(&mut self, b: &[u8]) -> Span {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(b);
        Span(start as u32, self.bytes.len() as u32)
    }

    fn get(&self, s: Span) -> &[u8] {
        &self.bytes[s.0 as usize..s.1 as usize]
    }
}

/// What a held event adds at most to the builder's estimate, besides its text.
const HELD_TAG: usize = pgn::Game::TAG_BYTES;
const HELD_MOVE: usize = pgn::Game::MOVE_BYTES;
const HELD_NAG: usize = pgn::Game::NAG_BYTES;
const HELD_STRING: usize = pgn::Game::COMMENT_BYTES;
const HELD_ERROR: usize = pgn::Game::ERROR_BYTES;

/// What a text of `len` bytes adds at most to the builder's estimate: 3 bytes a byte (what is
/// not UTF-8 becomes U+FFFD).
fn text(len: usize) -> usize {
    len.saturating_mul(3)
}

/// A PGN piece's visitor of [`FindWork`]: a game's events are held back while the search on
/// them decides, then given to the game builder (the game may match, or the search cannot
/// tell) or dropped (it cannot match: the parser skips the rest of it). What the builder gets
/// is what it gets in a [`Dom`], for every game handed on.
///
/// The events are held only as long as the builder would answer each with `Continue`: until
/// a variation opens (the builder may skip it) or the game could reach the builder's limit of
/// bytes; from there they go to the builder as they come, the search going on beside.
pub struct Sieve<T> {
    builder: pgn::GameBuilder,
    query: Option<Arc<query::Query>>,
    search: query::LineSearch,
    state: State,
    /// The open game's events since its start are in `held` (the builder has seen its
    /// `on_tree` only).
    holding: bool,
    held: Held,
    file: Arc<str>,
    /// The job's work, with what it kept.
    pub each: T,
    /// Problems no game carries (an input without any game).
    pub unclaimed: Vec<crate::Problem>,
    games: u64,
    ruled_out: u64,
    /// The games the builder cut at its limit of bytes, by index ([`crate::GameCount::cut`]).
    cut: Vec<u64>,
}

impl<T> Sieve<T> {
    /// Games the event search ruled out (read, never built nor handed on).
    pub fn ruled_out(&self) -> u64 {
        self.ruled_out
    }
}

impl<T> crate::GameCount for Sieve<T> {
    fn games(&self) -> u64 {
        self.games
    }
    fn unclaimed(&self) -> u64 {
        self.unclaimed.len() as u64
    }
    fn cut(&self) -> &[u64] {
        &self.cut
    }
}

impl<T: PerGame> Sieve<T> {
    /// The answer to the parser: `c`, the builder's (or `Continue` for an event held back),
    /// unless the work stops the scan or the game was ruled out.
    fn answer(&self, c: kifu::Control) -> kifu::Control {
        if !self.each.go_on() {
            kifu::Control::Stop
        } else if self.state == State::Out {
            kifu::Control::SkipGame
        } else {
            c
        }
    }

    fn verdict(&mut self, v: query::Verdict) {
        match v {
            query::Verdict::Continue => {}
            query::Verdict::Matched => {
                self.state = State::Keep;
                self.release();
            }
            query::Verdict::Over => {
                self.state = State::Out;
                self.holding = false;
                self.held.clear();
            }
        }
    }

    /// Holds an event back when the game's events are held and `extra` more bytes keep its
    /// estimate within the builder's limit; otherwise gives the builder what was held, and
    /// `false`: the event goes to the builder. `extra`: the event's fixed part and its texts
    /// ([`text`]); `bytes`: the bytes it keeps; `ctx`: its context, if it has one (an event
    /// of another game or off the main line, which never comes while the events are held, is
    /// not held).
    #[inline]
    fn hold(&mut self, ctx: Option<&pgn::Context>, extra: usize, bytes: usize) -> bool {
        if !self.holding {
            return false;
        }
        let h = &mut self.held;
        if h.estimate.saturating_add(extra) <= self.builder.max_game_bytes()
            && h.bytes.len().saturating_add(bytes) <= u32::MAX as usize
            && ctx.is_none_or(|c| c.depth == 0 && c.game == h.game)
        {
            h.estimate += extra;
            return true;
        }
        self.release();
        false
    }

    /// Gives the builder the events held back (it answers each with `Continue`, the estimate
    /// being within its limit); the next events go to it as they come.
    fn release(&mut self) {
        if !self.holding {
            return;
        }
        self.holding = false;
        let (b, h) = (&mut self.builder, &self.held);
        for e in &h.events {
            use pgn::Visitor as _;
            let c = match *e {
                Event::Tag(at, name, value) => b.on_property(
                    &at.ctx(h.game),
                    &pgn::Tag {
                        name: h.get(name),
                        value: pgn::RawTag(h.get(value)),
                    },
                ),
                Event::TagsEnd(at) => b.on_tags_end(&at.ctx(h.game)),
                Event::Move(at, san, text, raw) => b.on_move(
                    &at.ctx(h.game),
                    &pgn::Move {
                        san,
                        text: h.get(text),
                        raw: h.get(raw),
                    },
                ),
                Event::Nag(at, nag, form) => b.on_nag(&at.ctx(h.game), nag, form),
                Event::Comment(at, kind, text, first, last) => b.on_comment(
                    &at.ctx(h.game),
                    &pgn::Comment {
                        kind,
                        text: pgn::RawComment(h.get(text)),
                        first,
                        last,
                    },
                ),
                Event::Result(at, outcome) => b.on_result(&at.ctx(h.game), outcome),
                Event::Error(i) => {
                    let e = h.errors_at[i as usize];
                    b.on_error(&pgn::Error {
                        kind: e.kind,
                        severity: e.severity,
                        text: h.get(e.text),
                        truncated: e.truncated,
                        pos: e.pos,
                        game: e.game,
                        at: e.at,
                    })
                }
            };
            debug_assert_eq!(c, kifu::Control::Continue, "{e:?}");
        }
        self.held.clear();
    }

    /// Hands on the games the builder finished (one ruled out goes back to it).
    fn drain(&mut self) {
        while let Some(game) = self.builder.pop() {
            self.games += 1;
            // a game built past the builder's limit is named, as a `Dom` names it (a game
            // ruled out while its events were held back was never built, so never cut)
            if game
                .errors
                .iter()
                .any(|e| e.kind == pgn::ErrorKind::GameTooLarge)
            {
                self.cut.push(game.index);
            }
            if self.state == State::Out {
                self.ruled_out += 1;
                self.builder.recycle(game);
            } else if let Some(done) = self.each.pgn(game) {
                self.builder.recycle(done);
            }
        }
    }
}

impl<T: PerGame> pgn::Visitor for Sieve<T> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> kifu::Control {
        if ctx.is_main_line() {
            self.held.clear();
            self.held.game = ctx.game;
            (self.state, self.holding) = if self.query.is_some() {
                self.search.begin();
                (State::Tags, true)
            } else {
                (State::Keep, false)
            };
        } else {
            // the builder may skip a variation: what it gets from here on comes as it comes
            self.release();
        }
        let c = self.builder.on_tree(ctx);
        self.answer(c)
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> kifu::Control {
        if !ctx.is_main_line() {
            let c = self.builder.on_tree_end(ctx);
            return self.answer(c);
        }
        match self.state {
            // the whole main line searched, no match
            State::Moves => {
                self.state = State::Out;
                self.holding = false;
                self.held.clear();
            }
            // the search could not start: the work searches the game built
            State::Tags => self.release(),
            State::Keep | State::Out => {}
        }
        let c = self.builder.on_tree_end(ctx);
        self.drain();
        // between games: nothing to skip
        self.state = State::Keep;
        self.answer(c)
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> kifu::Control {
        if self.state == State::Tags
            && ctx.is_main_line()
            && (tag.name == b"FEN" || tag.name == b"Variant")
        {
            self.search.tag(tag.name, &tag.value.decode_utf8_lossy());
        }
        let len = tag.name.len() + tag.value.as_bytes().len();
        if self.hold(Some(ctx), HELD_TAG + text(len), len) {
            let name = self.held.span(tag.name);
            let value = self.held.span(tag.value.as_bytes());
            self.held.events.push(Event::Tag(At::of(ctx), name, value));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_property(ctx, tag);
        self.answer(c)
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> kifu::Control {
        let c = if self.hold(Some(ctx), 0, 0) {
            self.held.events.push(Event::TagsEnd(At::of(ctx)));
            kifu::Control::Continue
        } else {
            self.builder.on_tags_end(ctx)
        };
        if self.state == State::Tags
            && let Some(q) = &self.query
        {
            let v = self.search.start(q);
            self.state = State::Moves;
            self.verdict(v);
        }
        self.answer(c)
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> kifu::Control {
        let len = mv.raw.len() + mv.text.len();
        let c = if self.hold(Some(ctx), HELD_MOVE + text(mv.text.len()), len) {
            // the move as written is the start of its token (the usual): its bytes kept once
            let raw = self.held.span(mv.raw);
            // (the same bytes, as the parser gives them, need no compare)
            let text = if (mv.text.as_ptr() == mv.raw.as_ptr() && mv.text.len() <= mv.raw.len())
                || mv.raw.starts_with(mv.text)
            {
                Span(raw.0, raw.0 + mv.text.len() as u32)
            } else {
                self.held.span(mv.text)
            };
            self.held
                .events
                .push(Event::Move(At::of(ctx), mv.san, text, raw));
            kifu::Control::Continue
        } else {
            self.builder.on_move(ctx, mv)
        };
        if ctx.is_main_line() {
            match (self.state, &self.query) {
                (State::Moves, Some(q)) => {
                    let v = self.search.play(q, mv.san);
                    self.verdict(v);
                }
                // a move before the tags were over: the search cannot tell
                (State::Tags, _) => {
                    self.state = State::Keep;
                    self.release();
                }
                _ => {}
            }
        }
        self.answer(c)
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> kifu::Control {
        if self.hold(Some(ctx), HELD_NAG, 0) {
            self.held.events.push(Event::Nag(At::of(ctx), nag, form));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_nag(ctx, nag, form);
        self.answer(c)
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> kifu::Control {
        let len = comment.text.as_bytes().len();
        if self.hold(Some(ctx), HELD_STRING + text(len), len) {
            let text = self.held.span(comment.text.as_bytes());
            self.held.events.push(Event::Comment(
                At::of(ctx),
                comment.kind,
                text,
                comment.first,
                comment.last,
            ));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_comment(ctx, comment);
        self.answer(c)
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> kifu::Control {
        if self.hold(Some(ctx), 0, 0) {
            self.held.events.push(Event::Result(At::of(ctx), outcome));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_result(ctx, outcome);
        self.answer(c)
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> kifu::Control {
        if self.held.errors >= self.builder.max_game_errors() {
            self.release();
        }
        if self.hold(None, HELD_ERROR + text(error.text.len()), error.text.len()) {
            self.held.errors += 1;
            let text = self.held.span(error.text);
            let i = self.held.errors_at.len() as u32;
            self.held.events.push(Event::Error(i));
            self.held.errors_at.push(ErrorAt {
                kind: error.kind,
                severity: error.severity,
                text,
                truncated: error.truncated,
                pos: error.pos,
                game: error.game,
                at: error.at,
            });
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_error(error);
        self.answer(c)
    }
    fn on_end(&mut self) {
        self.release();
        self.builder.on_end();
        self.drain();
        self.each.end();
        let file = &self.file;
        let unclaimed = self.builder.unclaimed_errors();
        self.unclaimed.extend(
            unclaimed
                .iter()
                .map(|e| crate::Problem::pgn_owned(file, e, 0)),
        );
    }
}

/// A piece's visitor of `kifu find -c` on the main line without `-w`: the parser's events
/// replayed straight, no game built, the games that match counted.
#[derive(Debug)]
pub struct Counting {
    query: Arc<query::Query>,
    search: query::LineSearch,
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
    /// The games of the piece that matched.
    pub fn found(&self) -> u64 {
        self.found
    }

    fn answer(&mut self, v: query::Verdict) -> kifu::Control {
        match v {
            query::Verdict::Continue => kifu::Control::Continue,
            query::Verdict::Matched => {
                self.found += 1;
                kifu::Control::SkipGame
            }
            query::Verdict::Over => kifu::Control::SkipGame,
        }
    }
}

impl crate::GameCount for Counting {
    fn games(&self) -> u64 {
        self.games
    }
}

/// SGF games in a count of chess matches: counted as read, never matched.
#[derive(Debug, Default)]
pub struct SgfGames(u64);

impl sgf::Visitor for SgfGames {
    fn on_tree(&mut self, ctx: &sgf::Context) -> kifu::Control {
        self.0 += u64::from(ctx.is_game_level());
        kifu::Control::Skip
    }
}

impl crate::GameCount for SgfGames {
    fn games(&self) -> u64 {
        self.0
    }
}

/// The job of `kifu find -c` for a chess query on the main line without key tests: each
/// piece's games counted as they match, from the parser's events, no game built (the pieces
/// give [`Counting`]s; SGF pieces count their trees, never matched).
///
/// ```
/// use std::sync::Arc;
/// use kifu::par::{Event, Visited};
/// use kifu_pipeline::find::CountWork;
/// use kifu_pipeline::{Formats, Scan, Source};
/// use kifu_replay::chess::query::{Query, Step};
///
/// let q = Query::new(vec![Step::subfen("8/8/8/8/4P3/8/8/8").unwrap()]);
/// let source = Source::Bytes { name: "g.pgn".into(), data: b"1. e4 e5 *\n\n1. d4 d5 *\n".to_vec() };
/// let mut found = 0;
/// let work = CountWork::new(Arc::new(q));
/// let sink = |event: Event<'_, CountWork>| {
///     if let Event::Piece { visited: Visited::Pgn(c), .. } = event {
///         found += c.found();
///     }
///     Ok::<(), ()>(())
/// };
/// Scan::new(source, Formats::ANY).run(&work, sink, |_| {}).unwrap();
/// assert_eq!(found, 1);
/// ```
#[derive(Debug)]
pub struct CountWork(Arc<query::Query>);

impl CountWork {
    /// The job for `query`.
    pub fn new(query: Arc<query::Query>) -> CountWork {
        CountWork(query)
    }
}

impl kifu::par::Work for CountWork {
    type Input = Input;
    type Pgn = Counting;
    type Sgf = SgfGames;
    fn pgn(&self, _: &Input) -> Counting {
        Counting {
            query: Arc::clone(&self.0),
            search: query::LineSearch::default(),
            games: 0,
            found: 0,
        }
    }
    fn sgf(&self, _: &Input) -> SgfGames {
        SgfGames::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_replay::chess::query::Step;

    /// The games a piece's work kept: those the finder matched, whole.
    struct Kept(Finder, Vec<pgn::Game>);

    impl PerGame for Kept {
        fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
            if self.0.pgn(&game).is_some() {
                self.1.push(game.clone());
            }
            Some(game)
        }
        fn sgf(&mut self, _: sgf::GameTree) {}
    }

    /// The games kept, and the games and unclaimed problems counted, of `data` read by `work`.
    fn kept<W>(work: &W, data: &[u8], threads: usize) -> (Vec<pgn::Game>, u64, u64)
    where
        W: kifu::par::Work<Input = Input>,
        W::Pgn: crate::GameCount + Into<(Vec<pgn::Game>, u64)>,
        W::Sgf: crate::GameCount,
    {
        let source = crate::Source::Bytes {
            name: "t.pgn".into(),
            data: data.to_vec(),
        };
        let mut options = crate::ScanOptions::with_threads(threads);
        options.piece_size = 64;
        let (mut games, mut unclaimed) = (Vec::new(), 0);
        let scanned = crate::Scan::new(source, crate::Formats::ANY)
            .with_options(options)
            .run(
                work,
                |event| {
                    if let kifu::par::Event::Piece {
                        visited: kifu::par::Visited::Pgn(v),
                        ..
                    } = event
                    {
                        let (g, u) = v.into();
                        games.extend(g);
                        unclaimed += u;
                    }
                    Ok::<(), ()>(())
                },
                |_| {},
            )
            .unwrap();
        (games, scanned.games, unclaimed)
    }

    impl From<Sieve<Kept>> for (Vec<pgn::Game>, u64) {
        fn from(v: Sieve<Kept>) -> Self {
            (v.each.1, v.unclaimed.len() as u64)
        }
    }

    impl From<Dom<pgn::GameBuilder, Kept>> for (Vec<pgn::Game>, u64) {
        fn from(v: Dom<pgn::GameBuilder, Kept>) -> Self {
            (v.each.1, v.unclaimed.len() as u64)
        }
    }

    #[test]
    fn the_sieve_hands_on_the_games_a_dom_builds() {
        let data = b"junk ) before {\n} 1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n\
            [Event \"a\"]\n\n1. d4 d5 $300 2. c4 ) e6 3. Nc3 Nf6 *\n\n\
            [Event \"b\"]\n{pre} 1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 {x} 3. Bb5 a6 1-0\n\n\
            [FEN \"8/8/8/8/8/5k2/8/4K2R w K - 0 1\"]\n\n1. O-O Ke2 2. Rf2+ *\n\n\
            [Event \"c\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Nf3 Nf6 *\n\n\
            1. e4 e5 2. Nf3 Nc6 3. Bb5 {open to the end"
            .to_vec();
        let queries = [
            Step::subfen("8/8/2n5/1B6/8/8/8/8").unwrap(),
            Step::subfen("8/8/8/8/8/8/8/5RK1").unwrap(),
            Step::material("R+").unwrap(),
            Step::subfen("8/8/8/8/2P5/8/8/8").unwrap(),
        ];
        let mut matched = 0;
        for step in queries {
            let q = Query::Chess(query::Query::new(vec![step]));
            let q = Arc::new(q);
            for max in [usize::MAX, 400, 120, 40] {
                let scope = DomScope::FULL.with_max_game_bytes(max);
                let each = |_: &Input| Kept(Finder::new(Arc::clone(&q), true), Vec::new());
                let dom = kept(&crate::DomWork::new(scope, each), &data, 1);
                assert!(dom.1 == 6, "{dom:?}");
                matched += dom.0.len();
                for threads in [1, 2] {
                    let sieve = FindWork::new(&q, scope, each);
                    assert!(sieve.sieves());
                    assert_eq!(kept(&sieve, &data, threads), dom, "{q:?} {max}");
                }
            }
        }
        assert!(matched >= 20, "{matched}");
    }

    #[test]
    fn first_or_every_match() {
        let mut q = query::Query::new(vec![Step::material("Q+ q+").unwrap()]);
        q.variations = true;
        let q = Arc::new(Query::Chess(q));
        let g = pgn::Games::new(b"1. e4 (1. d4 d5) e5 *".as_slice())
            .next()
            .unwrap();
        let mut all = Finder::new(Arc::clone(&q), true);
        let m = all.pgn(&g).unwrap();
        assert_eq!((m.plies, m.variation_plies), (vec![0, 1, 2], vec![1, 2]));
        let mut first = Finder::new(q, false);
        assert_eq!(first.pgn(&g).unwrap().plies, [0]);
        let t = sgf::game_trees(b"(;B[aa])").next().unwrap();
        assert!(first.sgf(&t).is_none());
        // a Go pattern: SGF games only, the move numbers of the positions
        let go = Arc::new(Query::Go(kifu_replay::go::Pattern::parse("X").unwrap()));
        let mut all = Finder::new(Arc::clone(&go), true);
        assert!(all.pgn(&g).is_none());
        let t = sgf::game_trees(b"(;SZ[9];B[aa];W[bb];B[])").next().unwrap();
        assert_eq!(all.sgf(&t).unwrap().plies, [1, 2, 3]);
        assert_eq!(Finder::new(go, false).sgf(&t).unwrap().plies, [1]);
        let mut out = Vec::new();
        Matched {
            plies: vec![1, 2],
            variation_plies: vec![],
        }
        .write_json(&mut out, true);
        assert_eq!(
            out,
            b"\"matched_plies\":[1,2],\"matched_variation_plies\":[]"
        );
    }
}
