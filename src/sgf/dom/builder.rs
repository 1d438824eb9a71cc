//! Building [`GameTree`]s from events: [`TreeBuilder`] (a visitor), and the iterators
//! [`GameTrees`](super::GameTrees) (a slice) and [`ReadTrees`](super::ReadTrees) (any `std::io::Read`).
//!
//! The builder is an ordinary [`Visitor`]: `on_node` adds a node under the current one,
//! `on_tree` of a variation remembers the node it branches from (a stack of node ids, one per
//! open variation, on the heap), `on_tree_end` goes back to it. A finished game tree waits in a
//! queue until the next one starts (or the input ends), because the problems that follow it
//! outside any game tree belong to it. The iterators answer [`Control::Stop`] at that moment, so
//! they hold one finished tree and the one being read, never the collection.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use crate::control::Control;
use crate::position::Position;

use super::{ERROR_BYTES, GameTree, NODE_BYTES, NONE, NodeId, PROP_BYTES, TreeError, VALUE_BYTES};
use crate::sgf::visitor::{Context, Error, ErrorKind, NodeRef, Property, Value, Visitor};

/// What a [`TreeBuilder`] keeps of each game tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every node and variation.
    #[default]
    Full,
    /// The root node only (game information): the rest of each game is skipped with
    /// [`Control::SkipGame`], read only to find where it ends.
    GameInfo,
    /// The main line only: variations that are not first children are skipped
    /// ([`Control::Skip`]).
    MainLine,
}

/// A [`Visitor`] that builds [`GameTree`]s.
///
/// Drive it with any parser entry point, then take the trees with
/// [`take_trees`](TreeBuilder::take_trees) or [`pop`](TreeBuilder::pop): the end of input
/// ([`Visitor::on_end`], raised by the parser's `finish`, which `parse` and the
/// [`Reader`](crate::sgf::Reader) call) makes the last tree available, with no flush of the
/// builder's own. For one tree at a time, use [`game_trees`](super::game_trees) or
/// [`ReadTrees`](super::ReadTrees), which drive a builder for you.
///
/// ```
/// use kifu::sgf::{self, Scope, TreeBuilder};
/// let input = b"(;GM[1]PB[Cho];B[pd](;W[dd])(;W[dp]))junk(;GM[1];B[aa])";
/// let mut b = TreeBuilder::with_scope(Scope::MainLine);
/// sgf::parse(input, &mut b);
/// let trees = b.take_trees();
/// assert_eq!(trees.len(), 2);
/// assert_eq!(trees[0].len(), 3); // root, B[pd], W[dd]
/// assert_eq!(trees[0].errors()[0].code(), "W06"); // the junk after it
/// ```
#[derive(Debug)]
pub struct TreeBuilder {
    scope: Scope,
    open: Option<GameTree>,
    /// The node the next node attaches to (`NONE` before the root).
    cur: u32,
    /// Per open variation, the node it branches from.
    stack: Vec<u32>,
    done: VecDeque<GameTree>,
    /// How many trees at the front of `done` are complete (the next tree started, or the
    /// input ended).
    released: usize,
    /// Errors met outside any tree before a tree exists to hold them.
    pending: Vec<TreeError>,
    /// Errors of `pending` dropped past the limit.
    pending_dropped: u64,
    /// Answer `Stop` when a tree is released (for the iterators).
    pub(super) stop_on_release: bool,
    /// The limit of [`GameTree::estimated_bytes`].
    max_game_bytes: usize,
    /// The most problems a tree keeps in [`GameTree::errors`] (the rest are counted).
    max_game_errors: usize,
    /// The open tree reached the limit: the rest of it is skipped.
    full: bool,
    /// The estimate of what the open tree holds, besides the errors it started with (met
    /// before it, which have a budget of their own).
    pub(super) used: usize,
    /// What `used` may reach: the limit, 0 once the tree is full.
    budget: usize,
    /// The problems outside game trees after the last finished tree (or before the first) reached
    /// the limit: the rest are dropped.
    outside_full: bool,
    /// The nodes, properties, values and value bytes of the last finished tree: the room the
    /// next one starts with (the games of a collection are alike), rather than growing each
    /// vector by doubling from nothing, a copy at each step.
    last: [usize; 4],
}

/// The most entries (nodes, properties, values; value bytes) a tree's vectors start with
/// room for, whatever the tree before held.
const MAX_ROOM: usize = 1 << 16;

impl Default for TreeBuilder {
    fn default() -> Self {
        TreeBuilder::with_scope(Scope::default())
    }
}

impl TreeBuilder {
    /// The default of [`with_max_game_bytes`](Self::with_max_game_bytes): 64 MiB. The largest
    /// game tree of the corpus (a joseki dictionary of 1.2 MB, 62,614 moves) estimates at about
    /// 5 MB.
    pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

    /// A builder keeping everything ([`Scope::Full`]), with the default limit.
    pub fn new() -> TreeBuilder {
        TreeBuilder::with_scope(Scope::Full)
    }

    /// A builder keeping what `scope` says, with the default limit
    /// ([`DEFAULT_MAX_GAME_BYTES`](Self::DEFAULT_MAX_GAME_BYTES)).
    pub fn with_scope(scope: Scope) -> TreeBuilder {
        TreeBuilder {
            scope,
            open: None,
            cur: NONE,
            stack: Vec::new(),
            done: VecDeque::new(),
            released: 0,
            pending: Vec::new(),
            pending_dropped: 0,
            stop_on_release: false,
            max_game_bytes: Self::DEFAULT_MAX_GAME_BYTES,
            max_game_errors: Self::DEFAULT_MAX_GAME_ERRORS,
            full: false,
            used: 0,
            budget: 0,
            outside_full: false,
            last: [0; 4],
        }
    }

    /// Bounds the memory of each game tree: the limit of its
    /// [`estimated_bytes`](GameTree::estimated_bytes) (`usize::MAX`: no limit).
    ///
    /// Bad input must not exhaust memory: a file whose last `)` is missing, concatenated
    /// before others, makes every later `(;` of the stream a variation of its tree, and a tree
    /// can hold gigabytes. When the next node, property, value piece or error would take a tree
    /// past the limit, the builder adds an [`ErrorKind::GameTooLarge`](super::ErrorKind::GameTooLarge)
    /// error (`E103`, at the position of what did not fit) and answers [`Control::SkipGame`]: the
    /// parser skips to the end of the tree, and the tree is delivered as far as it was built
    /// (its root node is always kept); the following trees are read as usual. Problems outside
    /// game trees, which go to a tree too (see [`GameTree::errors`]), are dropped past the limit,
    /// with one `E103` saying so; those before a tree have a budget of their own, so that they
    /// never cost it its content. A tree's estimate stays within the limit plus a few errors
    /// (the `E103` and the end-of-input errors that follow a skip), or twice that with problems
    /// before it.
    ///
    /// ```
    /// use kifu::sgf::{self, Config, ErrorKind, GameTrees, Scope, TreeBuilder};
    /// // a tree whose `)` is missing swallows the next ones as variations
    /// let input = b"(;GM[1];B[aa](;GM[1];B[bb];W[cc])(;GM[1];B[dd];W[ee])";
    /// let builder = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(400);
    /// let trees: Vec<_> = GameTrees::with_builder(input, Config::default(), builder).collect();
    /// assert_eq!(trees.len(), 1);
    /// let e = trees[0].errors().iter().find(|e| e.kind == ErrorKind::GameTooLarge).unwrap();
    /// assert_eq!(e.code(), "E103");
    /// assert!(trees[0].len() < 8); // the rest was skipped
    /// ```
    pub fn with_max_game_bytes(mut self, max: usize) -> TreeBuilder {
        self.max_game_bytes = max;
        self
    }

    /// The limit of each tree's [`estimated_bytes`](GameTree::estimated_bytes).
    pub fn max_game_bytes(&self) -> usize {
        self.max_game_bytes
    }

    /// The default of [`with_max_game_errors`](Self::with_max_game_errors): 100.
    pub const DEFAULT_MAX_GAME_ERRORS: usize = 100;

    /// Keeps at most `max` problems in each tree's [`errors`](GameTree::errors) (the first
    /// ones, in input order); the rest are counted in
    /// [`errors_dropped`](GameTree::errors_dropped), and the tree is built on as usual, so what
    /// a tree holds is bounded by its own nodes and text, not by its faults. The `E103` of
    /// [`with_max_game_bytes`](Self::with_max_game_bytes) is always kept. `usize::MAX`: no
    /// limit.
    ///
    /// ```
    /// use kifu::sgf::{Config, GameTrees, Scope, TreeBuilder};
    /// // one node that repeats its move 500 times: a problem each time (E28)
    /// let input = format!("(;GM[1];B[aa]{})", "B[bb]".repeat(500));
    /// let builder = TreeBuilder::with_scope(Scope::Full).with_max_game_errors(10);
    /// let trees: Vec<_> = GameTrees::with_builder(input.as_bytes(), Config::default(), builder).collect();
    /// assert_eq!(trees.len(), 1);
    /// assert_eq!((trees[0].errors().len(), trees[0].errors_dropped()), (10, 490));
    /// ```
    pub fn with_max_game_errors(mut self, max: usize) -> TreeBuilder {
        self.max_game_errors = max;
        self
    }

    /// The most problems each tree keeps ([`with_max_game_errors`](Self::with_max_game_errors)).
    pub fn max_game_errors(&self) -> usize {
        self.max_game_errors
    }

    /// The scope it builds with.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Ends the input: every finished tree becomes available, with the problems that followed
    /// it. [`Visitor::on_end`] calls it, so after the parser's `finish` (which
    /// [`parse`](crate::sgf::parse) and the [`Reader`](crate::sgf::Reader) call) there is
    /// nothing left to do; an explicit call is needed only when the events came some other way,
    /// and a second call changes nothing. Problems met when no game tree was read at all stay
    /// in [`unclaimed_errors`](Self::unclaimed_errors).
    pub fn finish(&mut self) {
        if let Some(t) = self.open.take() {
            // only if the parser did not close it (it always does): keep it anyway
            self.done.push_back(t);
        }
        if let Some(last) = self.done.back_mut() {
            last.errors.append(&mut self.pending);
            last.errors_dropped += core::mem::take(&mut self.pending_dropped);
        }
        self.released = self.done.len();
    }

    /// The problems met outside game trees and not yet given to one: after
    /// the end of input ([`finish`](Self::finish)), those of an input that held no game tree at
    /// all (text that is not SGF), which no [`GameTree`] carries.
    ///
    /// ```
    /// use kifu::sgf::{Reader, Scope, TreeBuilder};
    /// let mut b = TreeBuilder::with_scope(Scope::Full);
    /// Reader::new(&b"no game tree here"[..]).read_all(&mut b).unwrap();
    /// assert!(b.pop().is_none());
    /// assert_eq!(b.unclaimed_errors()[0].code(), "W06");
    /// ```
    pub fn unclaimed_errors(&self) -> &[TreeError] {
        &self.pending
    }

    /// The next complete game tree, if one is ready (complete means the next game tree
    /// started or [`finish`](Self::finish) was called).
    pub fn pop(&mut self) -> Option<GameTree> {
        if self.released == 0 {
            return None;
        }
        self.released -= 1;
        self.done.pop_front()
    }

    /// Every finished game tree not yet taken, oldest first (as `pgn::GameBuilder::take_games`;
    /// after the input's end, which [`finish`](Self::finish) or the parser's `on_end` marks,
    /// the last one too).
    pub fn take_trees(&mut self) -> Vec<GameTree> {
        self.done.drain(..).collect()
    }

    /// Whether `extra` more bytes fit the open tree. If not, the tree is full: the error that
    /// says so is added (once).
    #[inline(always)]
    fn fits(&mut self, ctx: &Context, extra: usize) -> bool {
        let used = self.used.saturating_add(extra);
        if used <= self.budget {
            self.used = used;
            return true;
        }
        self.cut(ctx.pos, ctx.game, Some(ctx.node_ref()));
        false
    }

    fn fits_at(&mut self, pos: Position, game: u64, at: Option<NodeRef>, extra: usize) -> bool {
        let used = self.used.saturating_add(extra);
        if used <= self.budget {
            self.used = used;
            return true;
        }
        self.cut(pos, game, at);
        false
    }

    /// The open tree reached the limit.
    #[cold]
    #[inline(never)]
    fn cut(&mut self, pos: Position, game: u64, at: Option<NodeRef>) {
        self.budget = 0;
        if self.full {
            return;
        }
        self.full = true;
        let node = (self.cur != NONE).then_some(NodeId(self.cur));
        if let Some(t) = self.open.as_mut() {
            t.errors.push(too_large(pos, game, at, node));
            self.used += ERROR_BYTES;
        }
    }

    /// Keeps an error met outside game trees in `errors` (holding `others` bytes besides), or
    /// drops it past the limit (saying so once).
    fn keep_outside(&mut self, e: TreeError, in_done: bool) {
        let (errors, dropped, others) = if in_done {
            let Some(t) = self.done.back_mut() else {
                return;
            };
            let others = t.estimated_bytes() - t.errors.len() * ERROR_BYTES;
            (&mut t.errors, &mut t.errors_dropped, others)
        } else {
            (&mut self.pending, &mut self.pending_dropped, 0)
        };
        if errors.len() >= self.max_game_errors {
            *dropped += 1;
        } else if others + (errors.len() + 1) * ERROR_BYTES <= self.max_game_bytes {
            errors.push(e);
        } else {
            *dropped += 1;
            if !self.outside_full {
                self.outside_full = true;
                errors.push(too_large(e.pos, e.game, e.at, None));
            }
        }
    }

    fn release(&mut self) -> bool {
        let any = self.done.len() > self.released;
        self.released = self.done.len();
        any
    }
}

impl Visitor for TreeBuilder {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_game_level() {
            let released = self.release();
            let mut t = GameTree::empty(ctx.game, ctx.pos);
            let [nodes, props, values, bytes] = self.last.map(|n| n.min(MAX_ROOM));
            t.nodes.reserve(nodes);
            t.props.reserve(props);
            t.values.reserve(values);
            t.bytes.reserve(bytes);
            t.errors = core::mem::take(&mut self.pending);
            t.errors_dropped = core::mem::take(&mut self.pending_dropped);
            self.used = 0;
            self.budget = self.max_game_bytes;
            self.open = Some(t);
            self.cur = NONE;
            self.stack.clear();
            self.full = false;
            self.outside_full = false;
            return if released && self.stop_on_release {
                Control::Stop
            } else {
                Control::Continue
            };
        }
        self.stack.push(self.cur);
        if self.full {
            Control::SkipGame
        } else if self.scope == Scope::MainLine && ctx.variation > 0 {
            Control::Skip
        } else {
            Control::Continue
        }
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.is_game_level() {
            if let Some(t) = self.open.take() {
                self.last = [t.nodes.len(), t.props.len(), t.values.len(), t.bytes.len()];
                self.done.push_back(t);
            }
            self.stack.clear();
            self.full = false;
            self.outside_full = false;
        } else {
            self.cur = self.stack.pop().unwrap_or(NONE);
        }
        Control::Continue
    }

    fn on_end(&mut self) {
        self.finish();
    }

    fn on_node(&mut self, ctx: &Context) -> Control {
        let root = self.open.as_ref().is_some_and(GameTree::is_empty);
        // the root node is always kept: a tree read has one
        if !root && !self.fits(ctx, NODE_BYTES) {
            return Control::SkipGame;
        }
        if let Some(t) = self.open.as_mut() {
            self.cur = t.push_node(self.cur);
            if root {
                self.used += NODE_BYTES;
            }
        }
        if self.full {
            Control::SkipGame
        } else {
            Control::Continue
        }
    }

    fn on_node_end(&mut self, ctx: &Context) -> Control {
        if self.full || self.scope == Scope::GameInfo && ctx.is_game_level() && ctx.node == 0 {
            Control::SkipGame
        } else {
            Control::Continue
        }
    }

    fn on_property(&mut self, ctx: &Context, p: &Property<'_>) -> Control {
        if self.open.is_none() || self.cur == NONE {
            return Control::Continue;
        }
        let name = if super::same_bytes(p.name, p.raw) {
            0
        } else {
            p.name.len()
        };
        if !self.fits(ctx, PROP_BYTES + p.raw.len() + name) {
            return Control::SkipGame;
        }
        if let Some(t) = self.open.as_mut() {
            t.push_prop(self.cur, p.name, p.raw);
        }
        Control::Continue
    }

    fn on_value(&mut self, ctx: &Context, v: &Value<'_>) -> Control {
        if self.open.is_none() || self.cur == NONE {
            return Control::Continue;
        }
        if self.full {
            // more pieces of the value that did not fit: the parser is skipping already
            return if v.first {
                Control::SkipGame
            } else {
                Control::Continue
            };
        }
        let span = if v.first { VALUE_BYTES } else { 0 };
        if !self.fits(ctx, span + v.raw.0.len()) {
            return Control::SkipGame;
        }
        if let Some(t) = self.open.as_mut() {
            if v.first {
                t.push_value(v.raw.0);
            } else {
                t.extend_value(v.raw.0);
            }
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        if self.open.is_some() {
            let node = (self.cur != NONE).then_some(NodeId(self.cur));
            // A full tree keeps only the end-of-input errors (those the parser reports while
            // skipping; others may come until the next event answers `SkipGame`, since the
            // parser takes no `SkipGame` from `on_error`). Otherwise a problem that does not
            // fit makes the tree full.
            let many = self
                .open
                .as_ref()
                .is_some_and(|t| t.errors.len() >= self.max_game_errors);
            let keep = if many {
                false
            } else if self.full {
                matches!(
                    e.kind,
                    ErrorKind::UnclosedTree | ErrorKind::UnterminatedValue
                )
            } else {
                self.fits_at(e.pos, e.game, e.at, ERROR_BYTES)
            };
            if let Some(t) = self.open.as_mut() {
                if !keep {
                    t.errors_dropped += 1;
                } else {
                    if self.full {
                        self.used += ERROR_BYTES;
                    }
                    t.errors.push(TreeError::new(e, node));
                }
            }
            return Control::Continue;
        }
        let owned = TreeError::new(e, None);
        let unreleased = self.done.len() > self.released;
        // outside game trees: the tree before it; before the first tree, or a game tree before
        // its first node: the next tree
        let in_done = e.at.is_none() && unreleased && !self.done.is_empty();
        self.keep_outside(owned, in_done);
        Control::Continue
    }
}

/// The error that says a tree reached the limit.
fn too_large(pos: Position, game: u64, at: Option<NodeRef>, node: Option<NodeId>) -> TreeError {
    TreeError {
        kind: ErrorKind::GameTooLarge,
        severity: ErrorKind::GameTooLarge.severity(),
        text: Vec::new(),
        truncated: false,
        pos,
        game,
        at,
        node,
    }
}
