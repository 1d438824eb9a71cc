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
///     within: vec![Some(20)],
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
    /// Per step of `then`, the most plies from the step before to it (`--within` after its
    /// `--then`; `None`, or none given: any later ply).
    pub within: Vec<Option<u32>>,
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
        if self.within.len() > self.then.len() {
            return Err(format!(
                "{} --within for {} --then: each --within bounds the step of the --then before it",
                self.within.len(),
                self.then.len()
            ));
        }
        if self.within.contains(&Some(0)) {
            return Err(
                "--within 0: a step comes at least 1 ply after the one before it (one \
                        position is never two steps)"
                    .into(),
            );
        }
        let mut q = query::Query::new(steps).within_each(&self.within);
        q.min_ply = self.min_ply.unwrap_or(0);
        q.max_ply = self.max_ply.unwrap_or(u32::MAX);
        q.variations = self.variations;
        Ok(Query::Chess(q))
    }
}

/// How a frontend names the query's arguments in its notes ([`query_notes`]): the command
/// line's flags ([`Names::CLI`]) or Python's keyword arguments ([`Names::PYTHON`]).
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// The exact position, as its value follows (`--fen `, `fen=`).
    pub fen: &'static str,
    /// A `fen:` step of a sequence (`--then fen:`).
    pub then_fen: &'static str,
    /// The piece pattern (`--subfen `, `subfen=`).
    pub subfen: &'static str,
}

impl Names {
    /// `kifu find`'s and `kifu explore`'s flags.
    pub const CLI: Names = Names {
        fen: "--fen ",
        then_fen: "--then fen:",
        subfen: "--subfen ",
    };
    /// `kifu.find`'s and `kifu.explore`'s keyword arguments.
    pub const PYTHON: Names = Names {
        fen: "fen=",
        then_fen: "then=fen:",
        subfen: "subfen=",
    };
}

/// Notes on a query that reads as asked but may not be what was meant, for stderr (or
/// Python's warnings): an exact position (`fen`, or a `fen:` step of `then`) without its
/// castling and en passant fields, read as python-chess reads it (`-` for each, White to
/// move when the side is left out too), so that a position with castling rights is not it;
/// a Go pattern larger than a 19x19 board.
///
/// ```
/// use kifu_pipeline::find::{Names, Query, query_notes};
/// let board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
/// let q = Query::Go(kifu_replay::go::Pattern::parse("X").unwrap());
/// let notes = query_notes(Some(&format!("{board} b")), &[], &q, Names::PYTHON);
/// assert!(notes[0].contains(&format!("read as `{board} b - -`")), "{notes:?}");
/// assert!(query_notes(Some(&format!("{board} b KQkq -")), &[], &q, Names::CLI).is_empty());
/// ```
pub fn query_notes(fen: Option<&str>, then: &[String], query: &Query, names: Names) -> Vec<String> {
    let steps = then.iter().flat_map(|t| t.split('&')).filter_map(|s| {
        s.trim()
            .strip_prefix("fen:")
            .map(|f| (names.then_fen, f.trim()))
    });
    let mut notes: Vec<String> = fen
        .map(|f| (names.fen, f.trim()))
        .into_iter()
        .chain(steps)
        .filter_map(|(flag, fen)| short_fen_note(flag, fen, names))
        .collect();
    if let Query::Go(p) = query
        && let Some(n) = large_pattern_warning(p.width(), p.height())
    {
        notes.push(n);
    }
    notes
}

/// The warning for a Go pattern of `w` × `h` points that no 19x19 board holds (turned or
/// not): it stands only on larger boards, so on most games on none.
fn large_pattern_warning(w: u8, h: u8) -> Option<String> {
    (w.max(h) > 19).then(|| {
        format!(
            "warning: the Go pattern is {w}x{h} points, larger than a 19x19 board: it stands \
             only on boards of at least {}x{} (turned or not), never on 19x19, 13x13 or 9x9",
            w.max(h),
            w.min(h)
        )
    })
}

/// The note for a FEN without its castling field (a board, and perhaps the side to move),
/// given as `flag` says; `None` for a FEN that has it (a left-out en passant field changes
/// nothing a user means: `-`).
///
/// ```
/// use kifu_pipeline::find::{Names, short_fen_note};
/// let note = short_fen_note("--reaches ", "8/8/8/8/8/8/8/K6k", Names::CLI).unwrap();
/// assert!(note.contains("read as `8/8/8/8/8/8/8/K6k w - -`"), "{note}");
/// assert!(short_fen_note("--reaches ", "8/8/8/8/8/8/8/K6k w - -", Names::CLI).is_none());
/// ```
pub fn short_fen_note(flag: &str, fen: &str, names: Names) -> Option<String> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    let (&[board] | &[board, _]) = fields.as_slice() else {
        return None;
    };
    let side = fields.get(1).copied().unwrap_or("w");
    let left_out = if fields.len() == 1 {
        "side to move, castling and en passant fields"
    } else {
        "castling and en passant fields"
    };
    Some(format!(
        "note: {flag}`{fen}` has no {left_out}: read as `{board} {side} - -` (as python-chess \
         reads it: no castling right, no en passant square). A position with castling rights \
         gives them: `{board} {side} KQkq -`; for the pieces alone, whatever the rights, use \
         {}{board}",
        names.subfen
    ))
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
    check_ply_bounds(min_ply, max_ply, ["--min-ply", "--max-ply"])
}

/// [`check_plies`] for a frontend that names the bounds its own way (`min_ply=` in Python,
/// `min_ply :=` in DuckDB): the same refusal, in its names.
///
/// ```
/// use kifu_pipeline::find::check_ply_bounds;
/// assert_eq!(
///     check_ply_bounds(Some(5), Some(2), ["min_ply", "max_ply"]).unwrap_err(),
///     "min_ply 5 is past max_ply 2: no position is between them"
/// );
/// ```
///
/// # Errors
///
/// Both given and the first past the second.
pub fn check_ply_bounds(
    min_ply: Option<u32>,
    max_ply: Option<u32>,
    [min_name, max_name]: [&str; 2],
) -> Result<(), String> {
    match (min_ply, max_ply) {
        (Some(min), Some(max)) if min > max => Err(format!(
            "{min_name} {min} is past {max_name} {max}: no position is between them"
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
/// [`PerGame`] work: with [`PerGame::pgn_matched`] when the event search matched it and the
/// builder kept it whole (the work may then skip searching it again), else with
/// [`PerGame::pgn`]. So what the work sees is what a [`DomWork`](crate::DomWork) would give it,
/// less games that cannot match.
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
        let each = self.each.each(input);
        // a matching game written from its events when the work only writes it
        let stream = match (&self.query, each.matched_writer()) {
            (Some(_), Some(w)) => Some(pgn::EventWriter::new(w)),
            _ => None,
        };
        Sieve {
            builder: self.scope.pgn_builder(),
            stream,
            query: self.query.clone(),
            search: query::LineSearch::default(),
            state: State::Keep,
            holding: false,
            held: Held::default(),
            config: None,
            chunks: Vec::new(),
            file: Arc::from(&*input.name),
            each,
            unclaimed: Vec::new(),
            games: 0,
            ruled_out: 0,
            cut: Vec::new(),
            matched: None,
        }
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        // an SGF tree is built and handed on as a DomWork does
        Dom::new(&input.name, self.scope.sgf_builder(), self.each.each(input))
    }
    fn pgn_ahead(
        &self,
        visitor: &mut Self::Pgn,
        config: &pgn::Config,
        offset: u64,
        bytes: &bytes::Bytes,
    ) {
        if self.query.is_some() {
            visitor.ahead(config, offset, bytes);
        }
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
    /// It matched, and is written from its events ([`pgn::EventWriter`]): its events are
    /// still held, given to the builder only if the writer cannot take the game after all.
    Written,
    /// Ruled out: skipped by the parser, dropped once it ends.
    Out,
}

/// The events of the open game held back from the builder while the search decides: not
/// copied, counted, since the piece's bytes from the game's start ([`Sieve::chunks`]) raise
/// them again.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    /// Where the game starts (its `on_tree`).
    start: kifu::Position,
    /// The game's index, as the piece's parser counts.
    game: u64,
    /// The events held: the builder's events of the game after its `on_tree`.
    events: u32,
    /// The stream offset of the last of them (checked when they are raised again).
    last_at: u64,
    /// What the builder's limit of bytes ([`pgn::GameBuilder::with_max_game_bytes`]) leaves
    /// to its estimate of the game after them, at least: while each event's share fits in
    /// it, the builder answers every one of them with `Continue`.
    room: usize,
    /// The last stream offset an event is held at ([`Sieve::max_span`] past the start).
    until: u64,
    /// The problems among `events`: past the count the builder keeps
    /// ([`pgn::GameBuilder::max_game_errors`]) the game goes to the builder as it comes, which
    /// keeps that many and counts the rest (a game of a million problems is not held whole).
    errors: usize,
}

impl Held {
    /// Counts an event at stream offset `at` as held, taking `extra` (its share of the
    /// builder's estimate) from `room`, if it can be: it is of the game's main line (`main`)
    /// and within the bounds (made once a game, in `on_tree`: this runs for every event).
    #[inline]
    fn take(&mut self, at: u64, extra: usize, main: bool) -> bool {
        if main && extra <= self.room && at <= self.until && self.events < u32::MAX {
            self.room -= extra;
            self.events += 1;
            self.last_at = at;
            true
        } else {
            false
        }
    }

    /// [`take`](Self::take) for an event of context `ctx`.
    #[inline]
    fn holds(&mut self, ctx: &pgn::Context, extra: usize) -> bool {
        let main = ctx.depth == 0 && ctx.game == self.game;
        self.take(ctx.pos.offset, extra, main)
    }
}

/// The most bytes of the input a game's events are held over (4 MiB; less when the builder's
/// limit of bytes is less): a game longer than that goes to the builder as it comes from
/// there, so that the pieces a [`Sieve`] keeps stay few (a game of spaces has a tiny estimate).
/// Games that long are rare (a lichess game is about 2 KB); what is handed on is the same.
const HOLD_SPAN: usize = 4 << 20;

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

/// A PGN piece's visitor of [`FindWork`]: a game's events are held back from the game builder
/// while the search on them decides, then given to it (the game may match, or the search
/// cannot tell) or dropped (it cannot match: the parser skips the rest of it). What the
/// builder gets is what it gets in a [`Dom`], for every game handed on.
///
/// Nothing is copied while the events are held: the piece's bytes are kept (shared, from
/// [`Work::pgn_ahead`](kifu::par::Work::pgn_ahead)), and a game given to the builder is read
/// again from its start by a fresh parser, whose first events (as many as were held) go to
/// the builder; the next ones come from the piece's parser, as they come. Most games never
/// match, so most are read once, without a copy of their text; the prefix of a game that
/// matches is read twice.
///
/// A game that matches is not built at all when the work only writes it
/// ([`PerGame::matched_writer`]): a [`pgn::EventWriter`] is given the game so far (read again
/// from its bytes) and the rest as it comes, the events still held, and the work gets the text
/// ([`PerGame::pgn_written`]); a variation, a problem or the bounds below give the game to the
/// builder as above.
///
/// The events are held only as long as the builder would answer each with `Continue`: until
/// a variation opens (the builder may skip it) or the game could reach the builder's limit of
/// bytes (its estimate, or its bytes in the input: those held are within the limit too); from
/// there they go to the builder as they come, the search going on beside.
pub struct Sieve<T> {
    builder: pgn::GameBuilder,
    /// The writer of the games that match, when the work only writes them
    /// ([`PerGame::matched_writer`]).
    stream: Option<pgn::EventWriter>,
    query: Option<Arc<query::Query>>,
    search: query::LineSearch,
    state: State,
    /// The open game's events since its start are held (the builder has seen its `on_tree`
    /// only).
    holding: bool,
    held: Held,
    /// The parser's limits and the bytes it read or reads next, each with its stream offset:
    /// from the open game's start while its events are held, else the last run (a game may
    /// start in it before its parser raises that game's start).
    config: Option<pgn::Config>,
    chunks: Vec<(u64, bytes::Bytes)>,
    file: Arc<str>,
    /// The job's work, with what it kept.
    pub each: T,
    /// Problems no game carries (an input without any game).
    pub unclaimed: Vec<crate::Problem>,
    games: u64,
    ruled_out: u64,
    /// The games the builder cut at its limit of bytes, by index ([`crate::GameCount::cut`]).
    cut: Vec<u64>,
    /// The index of the last game the event search found matching (handed on with
    /// [`PerGame::pgn_matched`] unless the builder cut it).
    matched: Option<u64>,
}

impl<T> Sieve<T> {
    /// Games the event search ruled out (read, never built nor handed on).
    pub fn ruled_out(&self) -> u64 {
        self.ruled_out
    }

    /// Keeps the bytes the parser reads next (`bytes`, at stream offset `offset`).
    fn ahead(&mut self, config: &pgn::Config, offset: u64, bytes: &bytes::Bytes) {
        self.config = Some(*config);
        let end = offset.saturating_add(bytes.len() as u64);
        if self.holding && end.saturating_sub(self.held.start.offset) > self.max_span() {
            // the game's bytes kept stay within bounds
            self.release();
        }
        if self.holding {
            let start = self.held.start.offset;
            self.chunks
                .retain(|(at, b)| at.saturating_add(b.len() as u64) > start);
        } else if self.chunks.len() > 1 {
            self.chunks.drain(..self.chunks.len() - 1);
        }
        self.chunks.push((offset, bytes.clone()));
    }

    /// The most bytes of a game its events are held over: [`HOLD_SPAN`], or the builder's
    /// limit if lower.
    fn max_span(&self) -> u64 {
        HOLD_SPAN.min(self.builder.max_game_bytes()) as u64
    }

    /// Whether the bytes kept hold the game that starts at `start` from its first byte on.
    fn covers(&self, start: &kifu::Position) -> bool {
        self.config.is_some()
            && start.column < u32::MAX
            && self
                .chunks
                .first()
                .is_some_and(|(at, _)| *at <= start.offset)
            && self
                .chunks
                .last()
                .is_some_and(|(at, b)| at.saturating_add(b.len() as u64) > start.offset)
    }

    /// Gives the builder the events held back (the first `held.events` events of the game
    /// after its start, read again from its bytes; it answers each with `Continue`, the
    /// estimate being within its limit); the next events go to it as they come.
    fn release(&mut self) {
        if !self.holding {
            return;
        }
        self.holding = false;
        if self.state == State::Written {
            // the writer cannot take the game after all: the builder gets it
            self.state = State::Keep;
            if let Some(s) = &mut self.stream {
                s.reset();
            }
        }
        if self.held.events == 0 {
            return;
        }
        let config = self.config.expect("a game is held only with its bytes");
        replay(config, &self.held, &self.chunks, &mut self.builder, false);
    }

    /// Gives an event just held to the writer of a game written from its events (`f` gives
    /// it): if the writer cannot take the game, the builder gets it, every event held (this
    /// one included).
    #[inline]
    fn feed(&mut self, f: impl FnOnce(&mut pgn::EventWriter) -> kifu::Control) {
        if self.state != State::Written {
            return;
        }
        if let Some(s) = &mut self.stream {
            let _ = f(s);
            if s.is_whole() {
                return;
            }
        }
        self.release();
    }
}

/// Raises the events held of a game again (`held.events` after its start) from its bytes
/// (`chunks`, each at its stream offset) with a fresh parser of `config`, to `to`; its start
/// too when `start` (a writer that begins the game there; the builder has seen it).
fn replay<V: pgn::Visitor>(
    config: pgn::Config,
    held: &Held,
    chunks: &[(u64, bytes::Bytes)],
    to: &mut V,
    start: bool,
) {
    let mut parser = pgn::Parser::with_config(config);
    parser.start_at(held.start, held.game);
    let mut replay = Replay {
        to,
        left: held.events,
        started: false,
        start,
        last_at: held.last_at,
    };
    for (at, b) in chunks {
        let from = held.start.offset.saturating_sub(*at) as usize;
        if from >= b.len() {
            continue;
        }
        if parser.feed(&b[from..], &mut replay) != kifu::Status::NeedInput {
            break;
        }
    }
    if replay.left > 0 || !replay.started {
        // the piece's parser raised the rest at the input's end (a move is known to end
        // only there), which is where the bytes kept end
        parser.finish(&mut replay);
    }
    debug_assert_eq!(replay.left, 0, "every held event raised again");
}

/// The first `left` events of a game after its start, raised again by a fresh parser from the
/// game's bytes, to `to` (the builder, which has seen the game's start, or a writer, given the
/// start too); then the parser stops.
struct Replay<'b, V> {
    to: &'b mut V,
    left: u32,
    /// The game's own start was raised.
    started: bool,
    /// The game's own start goes to `to`.
    start: bool,
    /// Where the last event held was: the last one raised again must be there too.
    last_at: u64,
}

impl<V: pgn::Visitor> Replay<'_, V> {
    /// Passes an event at stream offset `at` on (`pass`) while some are left; stops the
    /// parser after the last.
    #[inline]
    fn pass(&mut self, at: u64, pass: impl FnOnce(&mut V) -> kifu::Control) -> kifu::Control {
        if self.left == 0 {
            return kifu::Control::Stop;
        }
        debug_assert!(
            self.left > 1 || at == self.last_at,
            "the last event held raised again"
        );
        let c = pass(self.to);
        debug_assert_eq!(
            c,
            kifu::Control::Continue,
            "a held event is one the builder takes"
        );
        self.left -= 1;
        if self.left == 0 {
            kifu::Control::Stop
        } else {
            kifu::Control::Continue
        }
    }
}

impl<V: pgn::Visitor> pgn::Visitor for Replay<'_, V> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> kifu::Control {
        if !self.started && ctx.is_main_line() {
            self.started = true;
            if self.start {
                let _ = self.to.on_tree(ctx);
            }
            return if self.left == 0 {
                kifu::Control::Stop
            } else {
                kifu::Control::Continue
            };
        }
        // (events are held only on the main line, before any variation: never reached)
        kifu::Control::Stop
    }
    fn on_tree_end(&mut self, _: &pgn::Context) -> kifu::Control {
        kifu::Control::Stop
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> kifu::Control {
        self.pass(ctx.pos.offset, |b| b.on_property(ctx, tag))
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> kifu::Control {
        self.pass(ctx.pos.offset, |b| b.on_tags_end(ctx))
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> kifu::Control {
        self.pass(ctx.pos.offset, |b| b.on_move(ctx, mv))
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> kifu::Control {
        self.pass(ctx.pos.offset, |b| b.on_nag(ctx, nag, form))
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> kifu::Control {
        self.pass(ctx.pos.offset, |b| b.on_comment(ctx, comment))
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> kifu::Control {
        self.pass(ctx.pos.offset, |b| b.on_result(ctx, outcome))
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> kifu::Control {
        self.pass(error.pos.offset, |b| b.on_error(error))
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
                self.matched = Some(self.held.game);
                if self.holding
                    && let (Some(config), Some(s)) = (self.config, &mut self.stream)
                {
                    // the game so far to the writer, which takes the rest as it comes (it
                    // takes the game only if it saw its start)
                    s.reset();
                    replay(config, &self.held, &self.chunks, s, true);
                    if s.is_whole() {
                        self.state = State::Written;
                        return;
                    }
                    s.reset();
                }
                self.release();
            }
            query::Verdict::Over => {
                self.state = State::Out;
                self.holding = false;
            }
        }
    }

    /// Holds an event back when the game's events are held, the event (at stream offset `at`)
    /// is of the game's main line (`ctx`, if it has a context) and `extra` more bytes keep its
    /// estimate within the builder's limit; otherwise gives the builder what was held, and
    /// `false`: the event goes to the builder.
    #[inline]
    fn hold(&mut self, ctx: Option<&pgn::Context>, at: u64, extra: usize) -> bool {
        if !self.holding {
            return false;
        }
        let h = &mut self.held;
        let main = ctx.is_none_or(|c| c.depth == 0 && c.game == h.game);
        if h.take(at, extra, main) {
            return true;
        }
        self.release();
        false
    }

    /// A move [`on_move`](pgn::Visitor::on_move)'s inline path does not take: one the
    /// builder gets as it comes (not holding, the tags not over, the game kept or ruled out),
    /// or the first that cannot be held (a variation's, or past the held game's bounds).
    #[inline(never)]
    fn any_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> kifu::Control {
        let c = if self.hold(Some(ctx), ctx.pos.offset, HELD_MOVE + text(mv.text.len())) {
            self.feed(|s| pgn::Visitor::on_move(s, ctx, mv));
            kifu::Control::Continue
        } else {
            pgn::Visitor::on_move(&mut self.builder, ctx, mv)
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

    /// Hands on the games the builder finished (one ruled out goes back to it).
    fn drain(&mut self) {
        while let Some(game) = self.builder.pop() {
            self.games += 1;
            // a game built past the builder's limit is named, as a `Dom` names it (a game
            // ruled out while its events were held back was never built, so never cut)
            let cut = game
                .errors
                .iter()
                .any(|e| e.kind == pgn::ErrorKind::GameTooLarge);
            if cut {
                self.cut.push(game.index);
            }
            if self.state == State::Out {
                self.ruled_out += 1;
                self.builder.recycle(game);
            } else if let (State::Written, true, Some(text)) = (
                self.state,
                self.matched == Some(game.index),
                self.stream.as_ref().and_then(|s| s.finish()),
            ) {
                if let Some(done) = self.each.pgn_written(game, text) {
                    self.builder.recycle(done);
                }
            } else {
                // (a game cut by the builder may have lost the moves that matched)
                let done = if self.matched == Some(game.index) && !cut {
                    self.each.pgn_matched(game)
                } else {
                    self.each.pgn(game)
                };
                if let Some(done) = done {
                    self.builder.recycle(done);
                }
            }
        }
    }
}

impl<T: PerGame> pgn::Visitor for Sieve<T> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> kifu::Control {
        if ctx.is_main_line() {
            self.held = Held {
                start: ctx.pos,
                game: ctx.game,
                room: self.builder.max_game_bytes(),
                until: ctx.pos.offset.saturating_add(self.max_span()),
                ..Held::default()
            };
            (self.state, self.holding) = if self.query.is_some() {
                self.search.begin();
                // (a game whose first bytes are gone, behind a token longer than a piece,
                // goes to the builder as it comes)
                (State::Tags, self.covers(&ctx.pos))
            } else {
                (State::Keep, false)
            };
            let start = ctx.pos.offset;
            self.chunks
                .retain(|(at, b)| at.saturating_add(b.len() as u64) > start);
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
            }
            // the search could not start: the work searches the game built
            State::Tags => self.release(),
            // the game written whole from its events (the builder's is empty)
            State::Written => {
                if let Some(s) = &mut self.stream {
                    let _ = pgn::Visitor::on_tree_end(s, ctx);
                }
                self.holding = false;
            }
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
        if self.hold(Some(ctx), ctx.pos.offset, HELD_TAG + text(len)) {
            self.feed(|s| pgn::Visitor::on_property(s, ctx, tag));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_property(ctx, tag);
        self.answer(c)
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> kifu::Control {
        let c = if self.hold(Some(ctx), ctx.pos.offset, 0) {
            self.feed(|s| pgn::Visitor::on_tags_end(s, ctx));
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
    #[inline(always)]
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> kifu::Control {
        // the usual move, small enough to go inline into the parser's loop: one of the main
        // line's, held, searched, the search going on
        if self.holding
            && self.state == State::Moves
            && let Some(q) = &self.query
            && self.held.holds(ctx, HELD_MOVE + text(mv.text.len()))
        {
            let v = self.search.play(q, mv.san);
            if v == query::Verdict::Continue && self.each.go_on() {
                return kifu::Control::Continue;
            }
            self.verdict(v);
            return self.answer(kifu::Control::Continue);
        }
        self.any_move(ctx, mv)
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> kifu::Control {
        if self.hold(Some(ctx), ctx.pos.offset, HELD_NAG) {
            self.feed(|s| pgn::Visitor::on_nag(s, ctx, nag, form));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_nag(ctx, nag, form);
        self.answer(c)
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> kifu::Control {
        let len = comment.text.as_bytes().len();
        if self.hold(Some(ctx), ctx.pos.offset, HELD_STRING + text(len)) {
            self.feed(|s| pgn::Visitor::on_comment(s, ctx, comment));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_comment(ctx, comment);
        self.answer(c)
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> kifu::Control {
        if self.hold(Some(ctx), ctx.pos.offset, 0) {
            self.feed(|s| pgn::Visitor::on_result(s, ctx, outcome));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_result(ctx, outcome);
        self.answer(c)
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> kifu::Control {
        if self.held.errors >= self.builder.max_game_errors() {
            self.release();
        }
        if self.hold(None, error.pos.offset, HELD_ERROR + text(error.text.len())) {
            self.held.errors += 1;
            self.feed(|s| pgn::Visitor::on_error(s, error));
            return self.answer(kifu::Control::Continue);
        }
        let c = self.builder.on_error(error);
        self.answer(c)
    }
    fn on_end(&mut self) {
        self.release();
        // the piece's bytes go back to the scan
        self.chunks.clear();
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

    /// The games the event search found matching, handed on with `pgn_matched`, over every
    /// test of this module.
    static MATCHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    impl PerGame for Kept {
        fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
            if self.0.pgn(&game).is_some() {
                self.1.push(game.clone());
            }
            Some(game)
        }
        /// A game the event search found matching matches on its DOM too (what `find`
        /// relies on when it does not search it again).
        fn pgn_matched(&mut self, game: pgn::Game) -> Option<pgn::Game> {
            assert!(
                self.0.pgn(&game).is_some(),
                "matched on events only: {game:?}"
            );
            MATCHED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.1.push(game.clone());
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
        kept_in(work, data, threads, 64)
    }

    /// [`kept`] in pieces of about `piece_size` bytes.
    fn kept_in<W>(
        work: &W,
        data: &[u8],
        threads: usize,
        piece_size: usize,
    ) -> (Vec<pgn::Game>, u64, u64)
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
        options.piece_size = piece_size;
        let (mut games, mut unclaimed) = (Vec::new(), 0);
        let scanned = crate::Scan::new(source, crate::Formats::ANY)
            .with_options(options)
            .run(
                work,
                |event| {
                    if let kifu::par::Event::Piece {
                        visited: kifu::par::Visited::Pgn(v),
                        info,
                        ..
                    } = event
                    {
                        let (g, u) = v.into();
                        // (the input's indexes, whatever the pieces)
                        games.extend(g.into_iter().map(|mut g: pgn::Game| {
                            g.index += info.first_game;
                            g
                        }));
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
        assert!(MATCHED.load(std::sync::atomic::Ordering::Relaxed) > 0);
    }

    /// A game given to the builder is read again from its bytes (the events held are counted,
    /// not copied): on inputs put together at random from pieces of games, damaged ones,
    /// line breaks of each kind, games cut at the input's end, every piece size, what the
    /// sieve hands on is what a DOM builds (and in a debug build, the reading again raises
    /// every event held: an assertion).
    #[test]
    fn games_read_again_from_their_bytes_are_the_games_read() {
        const PARTS: &[&str] = &[
            "[Event \"a\"]\n",
            "[Site \"b\"]\r\n",
            "[FEN \"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\"]\n",
            "\n",
            "\r\n",
            "\r",
            "1. e4 e5 2. Nf3 Nc6 ",
            "3. Bb5 a6 ",
            "{[%clk 0:03:00]} ",
            "{a comment\n[Event \"not a tag\"]\n} ",
            "(2... d6 3. Bb5+) ",
            "$1 ",
            "> junk ",
            "1-0\n\n",
            "*\n",
            "1. d4 d5 2. c4 Nc6 3. Nc3 ",
            "Bb5 Nc6 ",
            "{open",
            "é ",
            "; rest of line\n",
            "%escape\n",
            "O-O ",
            "e4",
        ];
        let queries: Vec<Arc<Query>> = [
            Step::subfen("8/8/2n5/1B6/8/8/8/8").unwrap(),
            Step::subfen("8/8/8/8/3P4/8/8/8").unwrap(),
            Step::material("R+").unwrap(),
        ]
        .into_iter()
        .map(|s| Arc::new(Query::Chess(query::Query::new(vec![s]))))
        .collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut matched = 0;
        for round in 0..120 {
            let mut data = Vec::new();
            for _ in 0..next(60) {
                data.extend_from_slice(PARTS[next(PARTS.len())].as_bytes());
            }
            let q = &queries[round % queries.len()];
            let max = [usize::MAX, 300, 60][next(3)];
            let scope = DomScope::FULL.with_max_game_bytes(max);
            let each = |_: &Input| Kept(Finder::new(Arc::clone(q), true), Vec::new());
            let dom = kept_in(&crate::DomWork::new(scope, each), &data, 1, 1 << 20);
            matched += dom.0.len();
            for (threads, piece) in [(1, 1 << 20), (1, 16), (2, 40), (2, 7)] {
                let sieve = FindWork::new(q, scope, each);
                assert_eq!(
                    kept_in(&sieve, &data, threads, piece),
                    dom,
                    "{} {max} -j{threads} {piece}",
                    String::from_utf8_lossy(&data)
                );
            }
        }
        assert!(matched >= 30, "{matched}");
    }

    /// A game the sieve hands on after the piece's parser waited for the input's end (an
    /// unclosed comment's look-ahead for `}`), whose first tag line is past the token limit:
    /// read again from its own start it is the game the piece's parser read (a review found
    /// the two readings apart, the tag kept by one and reported too long by the other).
    #[test]
    fn a_game_read_again_after_a_wait_for_the_end() {
        let data = format!(
            "[Event \"a\"]\n\n1. e4 {{open\n[Event \"{}\"]\n\
             [FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 30\"]\n\n1. Kb2 Kc2 *\n",
            "x".repeat(1100)
        );
        let q = Arc::new(Query::Chess(query::Query::new(vec![
            Step::material("K k").unwrap(),
        ])));
        let each = |_: &Input| Kept(Finder::new(Arc::clone(&q), true), Vec::new());
        let scope = DomScope::FULL;
        let dom = kept_in(
            &crate::DomWork::new(scope, each),
            data.as_bytes(),
            1,
            1 << 20,
        );
        assert_eq!(dom.0.len(), 1);
        assert!(
            dom.0[0]
                .errors
                .iter()
                .any(|e| e.kind == pgn::ErrorKind::TokenTooLong)
        );
        for (threads, piece) in [(1, 1 << 20), (1, 100), (2, 300)] {
            let sieve = FindWork::new(&q, scope, each);
            assert_eq!(kept_in(&sieve, data.as_bytes(), threads, piece), dom);
        }
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
