//! The SGF visitor adapter: wraps your visitor, forwards every event unchanged, and replays Go
//! games on a board as they come.

use kifu::Control;
use kifu::sgf::{self, Color, Comment, Context, Point, Property, RawValue, Value};

use super::board::Board;
use super::error::Error;
use super::game::{Game, NodeBuf, NodeError, RootInfo, Rules};

/// An SGF visitor that also hears what the Go moves do on the board.
///
/// Implement [`kifu::sgf::Visitor`] as usual (every event reaches it unchanged) and the methods
/// here that you need; wrap it in a [`GoReplayer`] and parse. A node's setup and move are
/// applied when the node ends (so that `KO[]` anywhere in the node counts), just before its
/// `on_node_end` reaches you. Games whose `GM` is not 1 are not replayed.
#[allow(unused_variables)]
pub trait GoReplayVisitor: sgf::Visitor {
    /// The root node is read: the board of the game (its setup applied), or `None` when the game
    /// is not Go (`GM` other than 1).
    fn on_go_start(&mut self, ctx: &Context, board: Option<&Board>) -> Control {
        Control::Continue
    }

    /// A move (or pass) of a node was applied (`ctx.main_line` tells the main line).
    fn on_go_move(&mut self, ctx: &Context, played: &Played<'_>) -> Control {
        Control::Continue
    }

    /// A replay problem, located at the value.
    fn on_go_error(&mut self, error: &Error<'_>) -> Control {
        Control::Continue
    }

    /// The game tree is over (just before its `on_tree_end`): the position at the end of its
    /// main line.
    fn on_go_game(&mut self, ctx: &Context, game: &GoGame<'_>) -> Control {
        Control::Continue
    }
}

impl<V: GoReplayVisitor + ?Sized> GoReplayVisitor for &mut V {
    fn on_go_start(&mut self, ctx: &Context, board: Option<&Board>) -> Control {
        (**self).on_go_start(ctx, board)
    }
    fn on_go_move(&mut self, ctx: &Context, played: &Played<'_>) -> Control {
        (**self).on_go_move(ctx, played)
    }
    fn on_go_error(&mut self, error: &Error<'_>) -> Control {
        (**self).on_go_error(error)
    }
    fn on_go_game(&mut self, ctx: &Context, game: &GoGame<'_>) -> Control {
        (**self).on_go_game(ctx, game)
    }
}

/// A move as applied.
#[derive(Clone, Copy, Debug)]
pub struct Played<'a> {
    /// Who played it.
    pub color: Color,
    /// Where; `None` for a pass (`B[]`, or `B[tt]` on boards up to 19×19).
    pub point: Option<Point>,
    /// Stones it removed: the opponent's captured, or its own group for a suicide.
    pub captured: u32,
    /// Whether it was executed (not for an occupied or off-board point: see the errors).
    pub executed: bool,
    /// The move's number on its path, from 1 (passes included).
    pub number: u32,
    /// The board before the move, when [`GoOptions::before`] asks for it (a copy per move).
    pub before: Option<&'a Board>,
    /// The board after the move: [`Board::points`], [`Board::captures`].
    pub board: &'a Board,
}

/// The end of a game tree, for [`GoReplayVisitor::on_go_game`].
#[derive(Clone, Copy, Debug)]
pub struct GoGame<'a> {
    /// The position after the main line, `None` when the game is not Go.
    pub end: Option<&'a Board>,
    /// Moves of the main line (passes included).
    pub main_line_moves: u32,
    /// Replay problems reported for the tree (variations included).
    pub errors: u32,
}

/// What the Go adapter does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoOptions {
    /// Replay variations too (default `true`); with `false` every variation but the main
    /// line's is skipped, for the wrapped visitor too.
    pub variations: bool,
    /// Give the board before each move in [`Played::before`] (default `false`: it costs a copy
    /// of the board per move).
    pub before: bool,
}

impl Default for GoOptions {
    fn default() -> Self {
        GoOptions {
            variations: true,
            before: false,
        }
    }
}

impl GoOptions {
    /// The main line only.
    pub fn main_line() -> GoOptions {
        GoOptions {
            variations: false,
            ..GoOptions::default()
        }
    }
}

/// A board state saved at a branch point.
#[derive(Clone, Debug)]
struct Saved {
    board: Board,
    moves: u32,
}

/// The SGF visitor adapter: wraps a [`GoReplayVisitor`], forwards every event to it unchanged,
/// and replays the game trees (see the [module](super) for the rules).
///
/// ```
/// use kifu::{Control, sgf::{self, Context, Visitor}};
/// use kifu_replay::go::{GoGame, GoReplayVisitor, GoReplayer, Played};
///
/// #[derive(Default)]
/// struct Captures(u32, String);
/// impl Visitor for Captures {}
/// impl GoReplayVisitor for Captures {
///     fn on_go_move(&mut self, ctx: &Context, p: &Played<'_>) -> Control {
///         if ctx.main_line {
///             self.0 += p.captured;
///         }
///         Control::Continue
///     }
///     fn on_go_game(&mut self, _: &Context, g: &GoGame<'_>) -> Control {
///         self.1 = g.end.unwrap().to_string();
///         Control::Continue
///     }
/// }
/// let mut v = GoReplayer::new(Captures::default());
/// sgf::parse(b"(;SZ[3];B[ba];W[aa];B[ab](;W[cc])(;W[bb]))", &mut v);
/// let c = v.into_inner();
/// assert_eq!(c.0, 1);
/// assert_eq!(c.1, ".X.\nX..\n..O\n");
/// ```
#[derive(Debug)]
pub struct GoReplayer<V> {
    inner: V,
    opts: GoOptions,
    game: Game,
    root: RootInfo,
    node: NodeBuf,
    /// Board states at the open branch points, by depth - 1 (reused).
    saved: Vec<Saved>,
    /// The position where the main line ends, once its innermost tree closed.
    main_end: Option<Saved>,
    before: Option<Board>,
    go: bool,
    started: bool,
    /// `on_node` was seen and its `on_node_end` not yet.
    node_open: bool,
    errors: u32,
}

impl<V: GoReplayVisitor> GoReplayer<V> {
    /// Wraps `inner` with the default [`GoOptions`].
    pub fn new(inner: V) -> GoReplayer<V> {
        GoReplayer::with_options(inner, GoOptions::default())
    }

    /// Wraps `inner` with `opts`.
    pub fn with_options(inner: V, opts: GoOptions) -> GoReplayer<V> {
        GoReplayer {
            inner,
            opts,
            game: Game::new(Default::default(), Rules::default()),
            root: RootInfo::default(),
            node: NodeBuf::default(),
            saved: Vec::new(),
            main_end: None,
            before: None,
            go: true,
            started: false,
            node_open: false,
            errors: 0,
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

    fn apply_node(&mut self, ctx: &Context) -> Control {
        let mut c = Control::Continue;
        if !self.go {
            return c;
        }
        if self.opts.before {
            match &mut self.before {
                Some(b) => b.clone_from(&self.game.board),
                None => self.before = Some(self.game.board.clone()),
            }
        }
        let node = &self.node;
        let inner = &mut self.inner;
        let errors = &mut self.errors;
        let game_index = ctx.game;
        let at = Some(ctx.node_ref());
        let applied = self.game.apply(node, |e: NodeError| {
            let it = node.items[e.item];
            let raw = &node.bytes[it.start as usize..][..it.len as usize];
            let n = raw.len().min(Error::TEXT_MAX);
            *errors += 1;
            c = both(
                c,
                inner.on_go_error(&Error {
                    kind: e.kind,
                    severity: e.kind.severity(),
                    text: &raw[..n],
                    truncated: n < raw.len(),
                    pos: it.pos.unwrap_or(ctx.pos),
                    game: game_index,
                    at,
                }),
            );
        });
        if let Some(a) = applied {
            let played = Played {
                color: a.color,
                point: a.point,
                captured: a.captured,
                executed: a.executed,
                number: self.game.moves,
                before: self.before.as_ref().filter(|_| self.opts.before),
                board: &self.game.board,
            };
            c = both(c, self.inner.on_go_move(ctx, &played));
        }
        c
    }

    fn start(&mut self, ctx: &Context) -> Control {
        self.started = true;
        self.go = self.root.is_go();
        self.game.reset(self.root.size, self.root.rules);
        let c = self.apply_node(ctx);
        let board = self.go.then_some(&self.game.board);
        both(c, self.inner.on_go_start(ctx, board))
    }
}

/// The stronger of two answers.
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

impl<V: GoReplayVisitor> sgf::Visitor for GoReplayer<V> {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.root = RootInfo::default();
            self.main_end = None;
            self.started = false;
            self.go = true;
            self.errors = 0;
            return self.inner.on_tree(ctx);
        }
        let d = ctx.depth as usize - 1;
        let saved = Saved {
            board: Board::new(Default::default()),
            moves: 0,
        };
        if self.saved.len() <= d {
            self.saved.resize(d + 1, saved);
        }
        let s = &mut self.saved[d];
        s.board.clone_from(&self.game.board);
        s.moves = self.game.moves;
        let c = self.inner.on_tree(ctx);
        if !self.opts.variations && ctx.variation > 0 && c == Control::Continue {
            Control::Skip
        } else {
            c
        }
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.main_line && self.main_end.is_none() && self.started {
            self.main_end = Some(Saved {
                board: self.game.board.clone(),
                moves: self.game.moves,
            });
        }
        if ctx.depth > 0 {
            let d = ctx.depth as usize - 1;
            if let Some(s) = self.saved.get(d) {
                self.game.board.clone_from(&s.board);
                self.game.moves = s.moves;
            }
            return self.inner.on_tree_end(ctx);
        }
        let mut c = Control::Continue;
        if !self.started {
            c = self.start(ctx); // a tree without nodes
        }
        let end = match (&self.main_end, self.go) {
            (Some(s), true) => Some(s),
            _ => None,
        };
        let game = GoGame {
            end: end.map(|s| &s.board),
            main_line_moves: end.map_or(0, |s| s.moves),
            errors: self.errors,
        };
        c = both(c, self.inner.on_go_game(ctx, &game));
        both(c, self.inner.on_tree_end(ctx))
    }

    fn on_node(&mut self, ctx: &Context) -> Control {
        self.node.clear();
        self.node_open = true;
        self.inner.on_node(ctx)
    }

    fn on_node_end(&mut self, ctx: &Context) -> Control {
        if !core::mem::take(&mut self.node_open) {
            // kifu's parser raises the `on_node_end` of the last node of a variation skipped from
            // its `on_tree`, without its `on_node`: nothing of it was read here
            return self.inner.on_node_end(ctx);
        }
        let c = if !self.started {
            self.start(ctx)
        } else {
            self.apply_node(ctx)
        };
        both(c, self.inner.on_node_end(ctx))
    }

    fn on_property(&mut self, ctx: &Context, prop: &Property<'_>) -> Control {
        self.inner.on_property(ctx, prop)
    }

    #[inline]
    fn on_value(&mut self, ctx: &Context, value: &Value<'_>) -> Control {
        if value.first {
            if !self.started && ctx.node == 0 && ctx.depth == 0 && value.last {
                self.root.value(value.name, RawValue(value.raw.0));
            }
            if value.index == 0 || value.name.len() == 2 {
                self.node.value(value.name, value.raw.0, Some(ctx.pos));
            }
        }
        self.inner.on_value(ctx, value)
    }

    fn on_move(&mut self, ctx: &Context, mv: &sgf::Move<'_>) -> Control {
        self.inner.on_move(ctx, mv)
    }

    fn on_comment(&mut self, ctx: &Context, comment: &Comment<'_>) -> Control {
        self.inner.on_comment(ctx, comment)
    }

    fn on_error(&mut self, error: &sgf::Error<'_>) -> Control {
        self.inner.on_error(error)
    }

    fn on_end(&mut self) {
        self.inner.on_end()
    }
}
