//! The visitor adapter: wraps your visitor, forwards every PGN event unchanged, and replays the
//! moves on a board as they come.

use kifu::Control;
use kifu::pgn::{self, Comment, Context, MoveRef, Nag, NagForm, Outcome, Tag};

use super::error::{Error, ErrorKind, bounded};
use super::lines::{Engine, NotReplayed, Step};
use super::position::UciParts;
use super::setup::{Setup, SetupTag};
use super::{Position, Uci, Unplayable};

/// A PGN visitor that also hears what the moves do on the board.
///
/// Implement [`kifu::pgn::Visitor`] as usual (every event reaches it unchanged) and the methods
/// here that you need; wrap it in a [`Replayer`] and parse. For each move, `on_move` comes first,
/// then exactly one of [`on_replayed`](Self::on_replayed),
/// [`on_replay_error`](Self::on_replay_error) or [`on_not_replayed`](Self::on_not_replayed).
/// Nothing is allocated per move: [`Replayed`] borrows the positions the adapter keeps, and a
/// FEN is formatted only when you display [`Position::fen`].
///
/// ```
/// use kifu::{Control, pgn::{self, Context, Move, Visitor}};
/// use kifu_replay::chess::{ReplayVisitor, Replayed, Replayer};
///
/// #[derive(Default)]
/// struct Uci(Vec<String>);
/// impl Visitor for Uci {}
/// impl ReplayVisitor for Uci {
///     fn on_replayed(&mut self, ctx: &Context, _: &Move<'_>, r: &Replayed<'_>) -> Control {
///         if ctx.is_main_line() {
///             self.0.push(r.uci().to_string());
///         }
///         Control::Continue
///     }
/// }
///
/// let mut v = Replayer::new(Uci::default());
/// pgn::parse(b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. O-O *", &mut v);
/// assert_eq!(v.into_inner().0, ["e2e4", "e7e5", "g1f3", "b8c6"]); // O-O is illegal here
/// ```
#[allow(unused_variables)]
pub trait ReplayVisitor: pgn::Visitor {
    /// A game's starting position is known (after its tags): `None` when the game is not
    /// replayed (a bad `FEN`, an unsupported `Variant`: reported just before).
    fn on_replay_start(&mut self, ctx: &Context, start: Option<&Position>) -> Control {
        Control::Continue
    }

    /// A move was played: its UCI, the positions before and after it, check and mate.
    fn on_replayed(
        &mut self,
        ctx: &Context,
        mv: &pgn::Move<'_>,
        replayed: &Replayed<'_>,
    ) -> Control {
        Control::Continue
    }

    /// A move was not replayed, because of an earlier problem (see [`NotReplayed`]); the
    /// problem itself was reported once.
    fn on_not_replayed(&mut self, ctx: &Context, mv: &pgn::Move<'_>, why: NotReplayed) -> Control {
        Control::Continue
    }

    /// A replay problem, located: an illegal or ambiguous move, a bad `FEN`, an unsupported
    /// `Variant`.
    fn on_replay_error(&mut self, error: &Error<'_>) -> Control {
        Control::Continue
    }

    /// The game is over (raised just before its `on_tree_end`): where its main line ended and
    /// what was replayed.
    fn on_game_replayed(&mut self, ctx: &Context, game: &GameReplayed<'_>) -> Control {
        Control::Continue
    }
}

impl<V: ReplayVisitor + ?Sized> ReplayVisitor for &mut V {
    fn on_replay_start(&mut self, ctx: &Context, start: Option<&Position>) -> Control {
        (**self).on_replay_start(ctx, start)
    }
    fn on_replayed(&mut self, ctx: &Context, mv: &pgn::Move<'_>, r: &Replayed<'_>) -> Control {
        (**self).on_replayed(ctx, mv, r)
    }
    fn on_not_replayed(&mut self, ctx: &Context, mv: &pgn::Move<'_>, why: NotReplayed) -> Control {
        (**self).on_not_replayed(ctx, mv, why)
    }
    fn on_replay_error(&mut self, error: &Error<'_>) -> Control {
        (**self).on_replay_error(error)
    }
    fn on_game_replayed(&mut self, ctx: &Context, game: &GameReplayed<'_>) -> Control {
        (**self).on_game_replayed(ctx, game)
    }
}

/// A move as played on the board.
#[derive(Clone, Copy, Debug)]
pub struct Replayed<'a> {
    /// The move in cozy-chess's form (castling king-takes-rook), `None` for a null move.
    pub mv: Option<cozy_chess::Move>,
    /// What [`uci`](Self::uci) formats.
    uci: UciParts,
    /// The position before the move; `None` when [`Options::before`] is off (a copy of the
    /// position per move saved).
    pub before: Option<&'a Position>,
    /// The position after the move: [`Position::fen`], [`Position::key`], [`Position::board`].
    pub after: &'a Position,
    /// The move gives check.
    pub check: bool,
    /// The move gives mate (computed only when it gives check, unless turned off in
    /// [`Options::mate`]).
    pub mate: bool,
}

impl Replayed<'_> {
    /// The move in UCI: castling `e1g1` in standard chess, king-takes-rook (`e1h1`) in
    /// Chess960, as python-chess writes them; `0000` for a null move. Formatted when asked.
    #[inline]
    pub fn uci(&self) -> Uci {
        self.uci.uci()
    }

    /// The Polyglot key of the position after the move.
    pub fn key(&self) -> u64 {
        self.after.key()
    }
}

/// What was replayed of one game, for [`ReplayVisitor::on_game_replayed`].
#[derive(Clone, Copy, Debug)]
pub struct GameReplayed<'a> {
    /// The starting position; `None` when the game was not replayed.
    pub start: Option<&'a Position>,
    /// The position after the last move of the main line, when every main-line move was
    /// replayed (else `None`).
    pub end: Option<&'a Position>,
    /// Main-line moves replayed.
    pub main_line_plies: u32,
    /// Moves replayed, variations included.
    pub replayed: u64,
    /// Moves not replayed (after an error, in a variation from an unknown position, in a game
    /// not replayed): counted, never dropped silently.
    pub not_replayed: u64,
    /// Replay problems reported for the game.
    pub errors: u32,
    /// A 128-bit key of the main line (its start, its moves and where it ends), when every
    /// main-line move was replayed: games with the same key reach the same final position by
    /// the same moves, whatever notation wrote them (for `kifu dedup --by positions`).
    pub main_line_key: Option<u128>,
}

/// What the adapter computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Replay variations (default `true`). With `false`, every variation is skipped, for the
    /// wrapped visitor too (it sees their `on_tree` and `on_tree_end` only): the fast way to
    /// replay main lines.
    pub variations: bool,
    /// Tell mate from check (default `true`): costs a move generation after each check.
    pub mate: bool,
    /// Give the position before each move in [`Replayed::before`] (default `true`). Variations
    /// need it anyway; for main lines alone, turning it off saves a copy per move.
    pub before: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variations: true,
            mate: true,
            before: true,
        }
    }
}

impl Options {
    /// Main lines only (variations skipped), without the position before each move: the
    /// fastest replay.
    pub fn main_line() -> Options {
        Options {
            variations: false,
            before: false,
            ..Options::default()
        }
    }
}

/// The visitor adapter: wraps a [`ReplayVisitor`], forwards every PGN event to it unchanged, and
/// replays the moves (see the [module](super) for the rules).
#[derive(Debug, Default)]
pub struct Replayer<V> {
    inner: V,
    opts: Options,
    setup: Setup,
    engine: Engine,
    /// The board of the current game is set up.
    started: bool,
}

/// The stronger of two answers: `Stop` over `SkipGame` over `Skip` over `Continue`.
#[inline]
fn both(a: Control, b: Control) -> Control {
    let rank = |c: Control| match c {
        Control::Continue => 0,
        Control::Skip => 1,
        Control::SkipGame => 2,
        Control::Stop => 3,
    };
    if rank(b) > rank(a) { b } else { a }
}

impl<V: ReplayVisitor> Replayer<V> {
    /// Wraps `inner`, with the default [`Options`] (variations replayed, mate told).
    pub fn new(inner: V) -> Replayer<V> {
        Replayer::with_options(inner, Options::default())
    }

    /// Wraps `inner` with `opts`.
    pub fn with_options(inner: V, opts: Options) -> Replayer<V> {
        let mut engine = Engine::default();
        engine.keep_prev = opts.variations || opts.before;
        Replayer {
            inner,
            opts,
            setup: Setup::default(),
            engine,
            started: false,
        }
    }

    /// The wrapped visitor.
    pub fn inner(&self) -> &V {
        &self.inner
    }

    /// The wrapped visitor, mutably.
    pub fn inner_mut(&mut self) -> &mut V {
        &mut self.inner
    }

    /// Unwraps the visitor.
    pub fn into_inner(self) -> V {
        self.inner
    }

    /// Sets up the board from the tags read so far; reports a problem with them.
    fn start(&mut self, ctx: &Context) -> Control {
        let mut c = Control::Continue;
        match self.setup.start() {
            Ok(pos) => self.engine.start_game(Some(pos)),
            Err((kind, tag)) => {
                self.engine.start_game(None);
                self.engine.errors = 1;
                let (text, pos) = match tag {
                    SetupTag::Fen => (self.setup.fen.as_deref().unwrap_or(""), self.setup.fen_pos),
                    SetupTag::Variant => (self.setup.variant_text.as_str(), self.setup.variant_pos),
                };
                let (text, truncated) = bounded(text.as_bytes());
                c = self.inner.on_replay_error(&Error {
                    kind,
                    severity: kind.severity(),
                    text,
                    truncated,
                    pos,
                    game: ctx.game,
                    at: None,
                });
            }
        }
        both(c, self.inner.on_replay_start(ctx, self.engine.start()))
    }
}

impl<V: ReplayVisitor> pgn::Visitor for Replayer<V> {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.setup.clear();
            self.started = false;
            return self.inner.on_tree(ctx);
        }
        self.engine.enter_variation();
        let c = self.inner.on_tree(ctx);
        if !self.opts.variations && c == Control::Continue {
            Control::Skip
        } else {
            c
        }
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth > 0 {
            self.engine.exit_variation();
            return self.inner.on_tree_end(ctx);
        }
        if !self.started {
            // a game without `on_tags_end` (never raised by kifu's parser, but cheap to allow)
            let _ = self.start(ctx);
        }
        self.started = false;
        let e = &self.engine;
        let summary = GameReplayed {
            start: e.start(),
            end: e.end(),
            main_line_plies: e.main_plies,
            replayed: e.replayed,
            not_replayed: e.skipped,
            errors: e.errors,
            main_line_key: e.main_line_key(),
        };
        let c = self.inner.on_game_replayed(ctx, &summary);
        both(c, self.inner.on_tree_end(ctx))
    }

    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        if ctx.depth == 0 && (tag.name == b"FEN" || tag.name == b"Variant") {
            let value = tag.value.decode();
            self.setup
                .tag(tag.name, &String::from_utf8_lossy(&value), ctx.pos);
        }
        self.inner.on_property(ctx, tag)
    }

    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        let c = self.inner.on_tags_end(ctx);
        let s = self.start(ctx);
        self.started = true;
        both(c, s)
    }

    #[inline]
    fn on_move(&mut self, ctx: &Context, mv: &pgn::Move<'_>) -> Control {
        let c = self.inner.on_move(ctx, mv);
        if !self.started {
            let _ = self.start(ctx);
            self.started = true;
        }
        let mate = self.opts.mate;
        let r = match self.engine.play(mv.san) {
            Step::Played {
                mv: m,
                uci,
                before,
                after,
            } => {
                let check = after.is_check();
                let replayed = Replayed {
                    mv: m,
                    uci,
                    before,
                    after,
                    check,
                    mate: check && mate && after.is_checkmate(),
                };
                self.inner.on_replayed(ctx, mv, &replayed)
            }
            Step::Skipped(why) => self.inner.on_not_replayed(ctx, mv, why),
            Step::Failed(why) => {
                let kind = match why {
                    Unplayable::Illegal => ErrorKind::IllegalMove,
                    Unplayable::Ambiguous => ErrorKind::AmbiguousMove,
                };
                let (text, truncated) = bounded(mv.text);
                self.inner.on_replay_error(&Error {
                    kind,
                    severity: kind.severity(),
                    text,
                    truncated,
                    pos: ctx.pos,
                    game: ctx.game,
                    at: MoveRef::from_ply(ctx.ply),
                })
            }
        };
        both(c, r)
    }

    fn on_nag(&mut self, ctx: &Context, nag: Nag, form: NagForm) -> Control {
        self.inner.on_nag(ctx, nag, form)
    }

    fn on_comment(&mut self, ctx: &Context, comment: &Comment<'_>) -> Control {
        self.inner.on_comment(ctx, comment)
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        self.inner.on_result(ctx, outcome)
    }

    fn on_error(&mut self, error: &pgn::Error<'_>) -> Control {
        self.inner.on_error(error)
    }

    fn on_end(&mut self) {
        self.inner.on_end()
    }
}
