//! The piece visitor of the jobs that work on whole games (`json`, `fmt`, `filter`, `split`,
//! `dedup`, the tables, Python's `read_pgn`/`read_sgf`): it builds each game with the library's
//! DOM builder and hands it to the job's per-game work as soon as it is complete, on the
//! worker's thread, so that a piece never holds more than one game.

use kifu::{Control, pgn, sgf};

use crate::{GameCount, Input, Problem};

/// What a job does with each game of a piece, and keeps for the sink.
pub trait PerGame: Send {
    /// A PGN game of the piece (its `index` counted in the piece). Give it back when done with
    /// it: the next games are built in its allocations ([`pgn::GameBuilder::recycle`]), so that
    /// building allocates nothing once warm; keep it (`None`) to hand it on.
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game>;
    /// A PGN game the event search of [`FindWork`](crate::find::FindWork) found matching its
    /// query on the main line (its first match: the search of a game ends there) and the
    /// builder kept whole, as [`pgn`](Self::pgn) takes it: a work that needs no more than that
    /// the game matches may skip searching it again. [`pgn`](Self::pgn) by default.
    fn pgn_matched(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.pgn(game)
    }
    /// The writer of the games the event search of [`FindWork`](crate::find::FindWork) finds
    /// matching, when all this work does with such a game is to write it with that writer in
    /// the PGN export format (`None`, the default, otherwise). The search then writes a matching
    /// game straight from the parser's events when it can ([`pgn::EventWriter`]: no variation,
    /// no problem) and hands it on with [`pgn_written`](Self::pgn_written), without building
    /// it; other games come to [`pgn_matched`](Self::pgn_matched) as before.
    fn matched_writer(&self) -> Option<pgn::Writer> {
        None
    }
    /// A matching game written from its events, for a work whose
    /// [`matched_writer`](Self::matched_writer) is `Some`: `text` is the game in PGN as that
    /// writer writes the game built, and `shell` the game built without its content (its
    /// `index`, `offset`, and the problems met before it, which go to it). Give the shell back
    /// as [`pgn`](Self::pgn) does. By default the shell is handed to [`pgn`](Self::pgn).
    fn pgn_written(&mut self, shell: pgn::Game, text: &str) -> Option<pgn::Game> {
        let _ = text;
        self.pgn(shell)
    }
    /// An SGF game tree of the piece (its `index` counted in the piece).
    fn sgf(&mut self, tree: sgf::GameTree);
    /// The piece is over: its last game was handed on.
    fn end(&mut self) {}
    /// Whether the scan goes on (`false`: the consumer is gone; the parser is told to stop).
    fn go_on(&self) -> bool {
        true
    }
}

/// A piece's visitor: the DOM builder `B` (`pgn::GameBuilder`, `sgf::TreeBuilder`) and the
/// job's per-game work `T`.
///
/// ```
/// use kifu::{pgn, sgf};
/// use kifu_pipeline::{Dom, PerGame};
///
/// #[derive(Default)]
/// struct Whites(Vec<String>);
/// impl PerGame for Whites {
///     fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
///         self.0.push(game.white().unwrap_or("?").to_string());
///         Some(game)
///     }
///     fn sgf(&mut self, _: sgf::GameTree) {}
/// }
/// let mut dom = Dom::new("two.pgn", pgn::GameBuilder::new(), Whites::default());
/// pgn::parse(b"[White \"Tal\"]\n\n1. e4 *\n\n[White \"Fischer\"]\n\n1. c4 *", &mut dom);
/// assert_eq!(dom.each.0, ["Tal", "Fischer"]);
/// ```
pub struct Dom<B, T> {
    builder: B,
    file: std::sync::Arc<str>,
    /// The job's work, with what it kept.
    pub each: T,
    /// Problems no game carries (an input without any game).
    pub unclaimed: Vec<Problem>,
    games: u64,
    /// The games of the piece cut at the builder's limit of bytes (their index in the piece).
    cut: Vec<u64>,
}

impl<B, T> Dom<B, T> {
    /// A visitor of input `file` building with `builder`, handing games to `each`.
    pub fn new(file: &str, builder: B, each: T) -> Self {
        Dom {
            builder,
            file: std::sync::Arc::from(file),
            each,
            unclaimed: Vec::new(),
            games: 0,
            cut: Vec::new(),
        }
    }
}

impl<B, T: PerGame> Dom<B, T> {
    fn answer(&self, c: Control) -> Control {
        if self.each.go_on() { c } else { Control::Stop }
    }
}

impl<B, T> GameCount for Dom<B, T> {
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

impl<T: PerGame> Dom<pgn::GameBuilder, T> {
    fn drain(&mut self) {
        while let Some(game) = self.builder.pop() {
            self.games += 1;
            if game
                .errors
                .iter()
                .any(|e| e.kind == pgn::ErrorKind::GameTooLarge)
            {
                self.cut.push(game.index);
            }
            if let Some(done) = self.each.pgn(game) {
                self.builder.recycle(done);
            }
        }
    }
}

impl<T: PerGame> Dom<sgf::TreeBuilder, T> {
    fn drain(&mut self) {
        while let Some(tree) = self.builder.pop() {
            self.games += 1;
            if tree
                .errors()
                .iter()
                .any(|e| e.kind == sgf::ErrorKind::GameTooLarge)
            {
                self.cut.push(tree.index());
            }
            self.each.sgf(tree);
        }
    }
}

/// Hands each event to the builder, and stops the parser once the work says so.
macro_rules! forward {
    ($($name:ident($($arg:ident: $t:ty),*);)*) => {
        $(fn $name(&mut self, $($arg: $t),*) -> Control {
            let c = self.builder.$name($($arg),*);
            self.answer(c)
        })*
    };
}

impl<T: PerGame> pgn::Visitor for Dom<pgn::GameBuilder, T> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        let c = self.builder.on_tree(ctx);
        if ctx.is_main_line() {
            self.drain();
        }
        self.answer(c)
    }
    forward! {
        on_tree_end(ctx: &pgn::Context);
        on_property(ctx: &pgn::Context, tag: &pgn::Tag<'_>);
        on_tags_end(ctx: &pgn::Context);
        on_move(ctx: &pgn::Context, mv: &pgn::Move<'_>);
        on_nag(ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm);
        on_comment(ctx: &pgn::Context, comment: &pgn::Comment<'_>);
        on_result(ctx: &pgn::Context, outcome: pgn::Outcome);
        on_error(error: &pgn::Error<'_>);
    }
    fn on_end(&mut self) {
        self.builder.on_end();
        self.drain();
        self.each.end();
        let file = &self.file;
        let unclaimed = self.builder.unclaimed_errors();
        self.unclaimed
            .extend(unclaimed.iter().map(|e| Problem::pgn_owned(file, e, 0)));
    }
}

impl<T: PerGame> sgf::Visitor for Dom<sgf::TreeBuilder, T> {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        let c = self.builder.on_tree(ctx);
        if ctx.is_game_level() {
            self.drain();
        }
        self.answer(c)
    }
    forward! {
        on_tree_end(ctx: &sgf::Context);
        on_node(ctx: &sgf::Context);
        on_node_end(ctx: &sgf::Context);
        on_property(ctx: &sgf::Context, prop: &sgf::Property<'_>);
        on_value(ctx: &sgf::Context, value: &sgf::Value<'_>);
        on_move(ctx: &sgf::Context, mv: &sgf::Move<'_>);
        on_comment(ctx: &sgf::Context, comment: &sgf::Comment<'_>);
        on_error(error: &sgf::Error<'_>);
    }
    fn on_end(&mut self) {
        self.builder.on_end();
        self.drain();
        self.each.end();
        let file = &self.file;
        let unclaimed = self.builder.unclaimed_errors();
        self.unclaimed.extend(
            unclaimed
                .iter()
                .map(|e| Problem::sgf_owned(file, e, e.game)),
        );
    }
}

/// What a job's builders keep of each game: each format's scope, and the most bytes one game
/// may take ([`pgn::GameBuilder::with_max_game_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomScope {
    /// What the PGN builder keeps.
    pub pgn: pgn::Scope,
    /// What the SGF builder keeps.
    pub sgf: sgf::Scope,
    /// The most bytes of one game (`--max-game-bytes`); a larger game is cut and said.
    pub max_game_bytes: usize,
}

impl DomScope {
    /// Everything of every game.
    pub const FULL: DomScope = DomScope {
        pgn: pgn::Scope::Full,
        sgf: sgf::Scope::Full,
        max_game_bytes: pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES,
    };

    /// The main line of every game (variations skipped by the parser).
    pub const MAIN_LINE: DomScope = DomScope {
        pgn: pgn::Scope::MainLine,
        sgf: sgf::Scope::MainLine,
        max_game_bytes: pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES,
    };

    /// The same scope with another limit on one game's bytes.
    pub fn with_max_game_bytes(self, max_game_bytes: usize) -> DomScope {
        DomScope {
            max_game_bytes,
            ..self
        }
    }
    /// A PGN game builder keeping what this scope says, cutting a game past its limit: the
    /// builder of every job that builds PGN games ([`DomWork`], `find`'s sieve).
    pub fn pgn_builder(&self) -> pgn::GameBuilder {
        pgn::GameBuilder::with_scope(self.pgn).with_max_game_bytes(self.max_game_bytes)
    }

    /// The SGF game tree builder of this scope, as [`pgn_builder`](Self::pgn_builder).
    pub fn sgf_builder(&self) -> sgf::TreeBuilder {
        sgf::TreeBuilder::with_scope(self.sgf).with_max_game_bytes(self.max_game_bytes)
    }
}

/// The work of a job on whole games: for each piece, a [`Dom`] of each format's builder (of
/// `scope`) handing its games to what `each` makes for the piece's input. The one
/// [`Work`](kifu::par::Work) of `json`, `fmt`, `filter`, `split`, `dedup`, the tables and
/// Python's readers.
///
/// ```
/// use kifu::par::{Event, Visited};
/// use kifu::{pgn, sgf};
/// use kifu_pipeline::{DomScope, DomWork, Formats, Input, PerGame, Scan, Source};
///
/// #[derive(Default)]
/// struct Count(u64);
/// impl PerGame for Count {
///     fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
///         self.0 += 1;
///         Some(game)
///     }
///     fn sgf(&mut self, _: sgf::GameTree) {
///         self.0 += 1;
///     }
/// }
/// let work = DomWork::new(DomScope::MAIN_LINE, |_: &Input| Count::default());
/// let source = Source::Bytes { name: "two.pgn".into(), data: b"1. e4 *\n\n1. d4 *".to_vec() };
/// let mut games = 0;
/// Scan::new(source, Formats::default())
///     .run(
///         &work,
///         |event| {
///             if let Event::Piece { visited: Visited::Pgn(dom), .. } = event {
///                 games += dom.each.0;
///             }
///             Ok::<(), ()>(())
///         },
///         |_| {},
///     )
///     .unwrap();
/// assert_eq!(games, 2);
/// ```
pub struct DomWork<F> {
    scope: DomScope,
    each: F,
}

impl<F> DomWork<F> {
    /// Games built as `scope` says, handed to what `each` makes for each piece.
    pub fn new(scope: DomScope, each: F) -> DomWork<F> {
        DomWork { scope, each }
    }

    /// What the builders keep.
    pub fn scope(&self) -> DomScope {
        self.scope
    }

    /// What makes each piece's work.
    pub fn each(&self) -> &F {
        &self.each
    }
}

/// What a [`DomWork`] makes for each piece: the per-game work of a piece of `input`. A closure
/// `Fn(&Input) -> T` is one; a job whose work must be named (in a type) implements it.
pub trait PieceWork: Sync {
    /// The per-game work of a piece.
    type Each: PerGame;
    /// The work of a piece of `input`.
    fn each(&self, input: &Input) -> Self::Each;
}

impl<F, T> PieceWork for F
where
    F: Fn(&Input) -> T + Sync,
    T: PerGame,
{
    type Each = T;
    fn each(&self, input: &Input) -> T {
        self(input)
    }
}

impl<F: PieceWork> kifu::par::Work for DomWork<F> {
    type Input = Input;
    type Pgn = Dom<pgn::GameBuilder, F::Each>;
    type Sgf = Dom<sgf::TreeBuilder, F::Each>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        Dom::new(&input.name, self.scope.pgn_builder(), self.each.each(input))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        Dom::new(&input.name, self.scope.sgf_builder(), self.each.each(input))
    }
}
