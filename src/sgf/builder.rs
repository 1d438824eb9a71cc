//! Building [`GameTree`]s from events: [`TreeBuilder`] (a visitor), and the iterators
//! [`GameTrees`] (a slice) and [`TreeReader`] (any `std::io::Read`).
//!
//! The builder is an ordinary [`Visitor`]: `on_node` adds a node under the current one,
//! `on_tree` of a variation remembers the node it branches from (a stack of node ids, one per
//! open variation, on the heap), `on_tree_end` goes back to it. A finished game tree waits in a
//! queue until the next one starts (or the input ends), because the problems that follow it
//! outside any game tree belong to it. The iterators answer [`Control::Stop`] at that moment, so
//! they hold one finished tree and the one being read, never the collection.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use crate::control::{Control, Status};
use crate::position::Position;

use super::dom::{
    ERROR_BYTES, GameTree, NODE_BYTES, NONE, NodeId, OwnedError, PROP_BYTES, VALUE_BYTES,
};
use super::parser::{Config, Parser};
use super::visitor::{Context, Error, ErrorKind, NodeRef, Property, Value, Visitor};

/// What a [`TreeBuilder`] keeps of each game tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every node and variation.
    #[default]
    Full,
    /// The root node only (game information): the rest of each game is skipped with
    /// [`Control::SkipGame`], read only to find where it ends.
    RootOnly,
    /// The main line only: variations that are not first children are skipped
    /// ([`Control::Skip`]).
    MainLine,
}

/// A [`Visitor`] that builds [`GameTree`]s.
///
/// Drive it with any parser entry point, then take the trees with
/// [`into_trees`](TreeBuilder::into_trees) (after [`finish`](TreeBuilder::finish)) or
/// [`pop`](TreeBuilder::pop). For one tree at a time, use [`game_trees`] or [`TreeReader`],
/// which drive a builder for you.
///
/// ```
/// use kifu::sgf::{self, Scope, TreeBuilder};
/// let input = b"(;GM[1]PB[Cho];B[pd](;W[dd])(;W[dp]))junk(;GM[1];B[aa])";
/// let mut b = TreeBuilder::new(Scope::MainLine);
/// sgf::parse(input, &mut b);
/// let trees = b.into_trees();
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
    pending: Vec<OwnedError>,
    /// Errors of `pending` dropped past the limit.
    pending_dropped: u64,
    /// Answer `Stop` when a tree is released (for the iterators).
    stop_on_release: bool,
    /// The limit of [`GameTree::estimated_bytes`].
    max_game_bytes: usize,
    /// The open tree reached the limit: the rest of it is skipped.
    full: bool,
    /// The estimate of what the open tree holds, besides the errors it started with (met
    /// before it, which have a budget of their own).
    used: usize,
    /// What `used` may reach: the limit, 0 once the tree is full.
    budget: usize,
    /// The problems outside game trees after the last finished tree (or before the first) reached
    /// the limit: the rest are dropped.
    outside_full: bool,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        TreeBuilder::new(Scope::default())
    }
}

impl TreeBuilder {
    /// The default of [`with_max_game_bytes`](Self::with_max_game_bytes): 64 MiB. The largest
    /// game tree of the corpus (a joseki dictionary of 1.2 MB, 62,614 moves) estimates at about
    /// 5 MB.
    pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

    /// A builder keeping what `scope` says, with the default limit
    /// ([`DEFAULT_MAX_GAME_BYTES`](Self::DEFAULT_MAX_GAME_BYTES)).
    pub fn new(scope: Scope) -> TreeBuilder {
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
            full: false,
            used: 0,
            budget: 0,
            outside_full: false,
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
    /// let builder = TreeBuilder::new(Scope::Full).with_max_game_bytes(400);
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

    /// The scope it builds with.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Ends the input: every finished tree becomes available, with the problems that followed
    /// it. Call after the parser's `finish` (the [`Reader`](super::Reader) and [`parse`](super::parse)
    /// call it for you). Problems met when no game tree was read at all stay in
    /// [`unclaimed_errors`](Self::unclaimed_errors).
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
    /// [`finish`](Self::finish), those of an input that held no game tree at all (text that is
    /// not SGF), which no [`GameTree`] carries.
    ///
    /// ```
    /// use kifu::sgf::{Reader, Scope, TreeBuilder};
    /// let mut b = TreeBuilder::new(Scope::Full);
    /// Reader::new(&b"no game tree here"[..]).read_all(&mut b).unwrap();
    /// b.finish();
    /// assert!(b.pop().is_none());
    /// assert_eq!(b.unclaimed_errors()[0].code(), "W06");
    /// ```
    pub fn unclaimed_errors(&self) -> &[OwnedError] {
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

    /// Every game tree read, after [`finish`](Self::finish) (called here).
    pub fn into_trees(mut self) -> Vec<GameTree> {
        self.finish();
        self.done.into()
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
    fn keep_outside(&mut self, e: OwnedError, in_done: bool) {
        let (errors, dropped, others) = if in_done {
            let Some(t) = self.done.back_mut() else {
                return;
            };
            let others = t.estimated_bytes() - t.errors.len() * ERROR_BYTES;
            (&mut t.errors, &mut t.errors_dropped, others)
        } else {
            (&mut self.pending, &mut self.pending_dropped, 0)
        };
        if others + (errors.len() + 1) * ERROR_BYTES <= self.max_game_bytes {
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
        if ctx.depth == 0 {
            let released = self.release();
            let mut t = GameTree::empty(ctx.game, ctx.pos);
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
        if ctx.depth == 0 {
            if let Some(t) = self.open.take() {
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
        if self.full || self.scope == Scope::RootOnly && ctx.depth == 0 && ctx.node == 0 {
            Control::SkipGame
        } else {
            Control::Continue
        }
    }

    fn on_property(&mut self, ctx: &Context, p: &Property<'_>) -> Control {
        if self.open.is_none() || self.cur == NONE {
            return Control::Continue;
        }
        let name = if p.name == p.raw { 0 } else { p.name.len() };
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
            let keep = if self.full {
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
                    t.errors.push(OwnedError::new(e, node));
                }
            }
            return Control::Continue;
        }
        let owned = OwnedError::new(e, None);
        let unreleased = self.done.len() > self.released;
        // outside game trees: the tree before it; before the first tree, or a game tree before
        // its first node: the next tree
        let in_done = e.at.is_none() && unreleased && !self.done.is_empty();
        self.keep_outside(owned, in_done);
        Control::Continue
    }
}

/// The error that says a tree reached the limit.
fn too_large(pos: Position, game: u64, at: Option<NodeRef>, node: Option<NodeId>) -> OwnedError {
    OwnedError {
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

/// The game trees of a collection held in memory, one at a time: see [`game_trees`].
#[derive(Debug)]
pub struct GameTrees<'a> {
    input: &'a [u8],
    parser: Parser,
    builder: TreeBuilder,
    done: bool,
}

/// The game trees of `input`, one at a time, in full ([`Scope::Full`], default [`Config`]).
/// Never fails: problems are in each tree's [`errors`](GameTree::errors).
///
/// ```
/// use kifu::sgf;
/// let n: Vec<usize> = sgf::game_trees(b"(;B[aa];W[bb])(;B[cc])").map(|t| t.len()).collect();
/// assert_eq!(n, [2, 1]);
/// ```
pub fn game_trees(input: &[u8]) -> GameTrees<'_> {
    GameTrees::with_config(input, Scope::Full, Config::default())
}

impl<'a> GameTrees<'a> {
    /// The game trees of `input`, keeping what `scope` says, read with `config`.
    pub fn with_config(input: &'a [u8], scope: Scope, config: Config) -> GameTrees<'a> {
        GameTrees::with_builder(input, config, TreeBuilder::new(scope))
    }

    /// The game trees of `input`, read with `config` and built by `builder` (its scope and
    /// limit, see [`TreeBuilder::with_max_game_bytes`]). The builder should be new.
    pub fn with_builder(
        input: &'a [u8],
        config: Config,
        mut builder: TreeBuilder,
    ) -> GameTrees<'a> {
        builder.stop_on_release = true;
        GameTrees {
            input,
            parser: Parser::with_config(config),
            builder,
            done: false,
        }
    }
}

impl Iterator for GameTrees<'_> {
    type Item = GameTree;

    fn next(&mut self) -> Option<GameTree> {
        loop {
            if let Some(t) = self.builder.pop() {
                return Some(t);
            }
            if self.done {
                return None;
            }
            match self.parser.feed(self.input, &mut self.builder) {
                Status::Stopped { consumed } => self.input = &self.input[consumed..],
                Status::NeedInput => {
                    self.input = &[];
                    self.parser.finish(&mut self.builder);
                    self.builder.finish();
                    self.done = true;
                }
            }
        }
    }
}

#[cfg(feature = "std")]
pub use read::TreeReader;

#[cfg(feature = "std")]
mod read {
    use std::io::{self, Read};

    use super::{Config, GameTree, Scope, TreeBuilder};
    use crate::sgf::Reader;

    /// Reads the game trees of any [`Read`] one at a time, in bounded memory: about one game
    /// tree plus the read buffer, whatever the size of the collection.
    ///
    /// ```
    /// use kifu::sgf::TreeReader;
    /// let data: &[u8] = b"(;GM[1]PW[Sai];B[pd])\n(;GM[1]PW[Toya];B[dd])\n";
    /// let players: Vec<String> = TreeReader::new(data)
    ///     .map(|t| {
    ///         let t = t.unwrap();
    ///         t.root().value(b"PW").unwrap().text_lossy().into_owned()
    ///     })
    ///     .collect();
    /// assert_eq!(players, ["Sai", "Toya"]);
    /// ```
    #[derive(Debug)]
    pub struct TreeReader<R> {
        reader: Reader<R>,
        builder: TreeBuilder,
        done: bool,
    }

    impl<R: Read> TreeReader<R> {
        /// Full game trees, default buffer and [`Config`].
        pub fn new(inner: R) -> TreeReader<R> {
            TreeReader::with_config(
                inner,
                Scope::Full,
                Reader::<R>::DEFAULT_BUFFER_SIZE,
                Config::default(),
            )
        }

        /// Game trees keeping what `scope` says, read `buffer_size` bytes at a time with
        /// `config`.
        pub fn with_config(
            inner: R,
            scope: Scope,
            buffer_size: usize,
            config: Config,
        ) -> TreeReader<R> {
            TreeReader::with_builder(
                Reader::with_config(inner, buffer_size, config),
                TreeBuilder::new(scope),
            )
        }

        /// The game trees read by `reader` (with its buffer size and [`Config`]), built by
        /// `builder` (its scope and limit, see [`TreeBuilder::with_max_game_bytes`]). The builder
        /// should be new.
        ///
        /// ```
        /// use kifu::sgf::{Reader, Scope, TreeBuilder, TreeReader};
        /// let data: &[u8] = b"(;GM[1];B[aa])(;GM[1];B[bb])";
        /// let builder = TreeBuilder::new(Scope::Full).with_max_game_bytes(1 << 20);
        /// assert_eq!(TreeReader::with_builder(Reader::new(data), builder).count(), 2);
        /// ```
        pub fn with_builder(reader: Reader<R>, mut builder: TreeBuilder) -> TreeReader<R> {
            builder.stop_on_release = true;
            TreeReader {
                reader,
                builder,
                done: false,
            }
        }

        /// The builder (for [`TreeBuilder::unclaimed_errors`] after the last tree).
        pub fn builder(&self) -> &TreeBuilder {
            &self.builder
        }

        /// The source back.
        pub fn into_inner(self) -> R {
            self.reader.into_inner()
        }
    }

    impl<R: Read> Iterator for TreeReader<R> {
        type Item = io::Result<GameTree>;

        /// The next game tree; an I/O error of the source (then the iteration ends).
        fn next(&mut self) -> Option<io::Result<GameTree>> {
            loop {
                if let Some(t) = self.builder.pop() {
                    return Some(Ok(t));
                }
                if self.done {
                    return None;
                }
                match self.reader.read_all(&mut self.builder) {
                    Ok(true) => {
                        self.builder.finish();
                        self.done = true;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::{ErrorKind, parse};

    #[test]
    fn errors_outside_go_to_the_tree_before() {
        let input = b"head\n(;GM[1];B[aa])\nbetween\n(;GM[1])\ntail";
        let trees: Vec<GameTree> = game_trees(input).collect();
        assert_eq!(trees.len(), 2);
        let texts = |t: &GameTree| {
            t.errors()
                .iter()
                .map(|e| (e.kind, e.text.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            texts(&trees[0]),
            [
                (ErrorKind::TextOutsideGame, b"head".to_vec()),
                (ErrorKind::TextOutsideGame, b"between".to_vec())
            ]
        );
        assert_eq!(
            texts(&trees[1]),
            [(ErrorKind::TextOutsideGame, b"tail".to_vec())]
        );
        assert_eq!(trees[1].index(), 1);
        assert_eq!(trees[1].offset(), 28);
    }

    #[test]
    fn same_tree_both_ways() {
        let a: Vec<_> = game_trees(b"(;a[1](;b[2](;c[3])))").collect();
        let b: Vec<_> = game_trees(b"(;a[1];b[2];c[3])").collect();
        assert_eq!(a, b);
        assert_eq!(a[0].len(), 3);
    }

    #[test]
    fn scopes() {
        let input = b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd](;B[ee])(;B[ff])))";
        let count = |scope| {
            let mut b = TreeBuilder::new(scope);
            parse(input, &mut b);
            b.into_trees()[0].len()
        };
        assert_eq!(count(Scope::Full), 7);
        assert_eq!(count(Scope::MainLine), 4);
        assert_eq!(count(Scope::RootOnly), 1);
    }

    #[test]
    fn long_values_joined_and_in_order() {
        let long = "x".repeat(10_000);
        let input = alloc::format!("(;C[{long}]AB[aa][bb][cc])");
        let cfg = Config {
            max_value_piece: 64,
            ..Config::default()
        };
        let t = GameTrees::with_config(input.as_bytes(), Scope::Full, cfg)
            .next()
            .unwrap();
        assert_eq!(t.root().value(b"C").unwrap().0, long.as_bytes());
        let ab: Vec<&[u8]> = t.root().get(b"AB").unwrap().values().map(|v| v.0).collect();
        assert_eq!(ab, [b"aa", b"bb", b"cc"]);
    }

    #[test]
    fn error_nodes() {
        let t = game_trees(b"(;SZ[9];B[aa];W[zz])").next().unwrap();
        assert_eq!(t.errors().len(), 1);
        assert_eq!(t.errors()[0].node, Some(NodeId(2)));
    }

    fn limited(input: &[u8], max: usize) -> Vec<GameTree> {
        let b = TreeBuilder::new(Scope::Full).with_max_game_bytes(max);
        GameTrees::with_builder(input, Config::default(), b).collect()
    }

    fn too_large(t: &GameTree) -> Vec<&OwnedError> {
        t.errors()
            .iter()
            .filter(|e| e.kind == ErrorKind::GameTooLarge)
            .collect()
    }

    #[test]
    fn a_tree_past_the_limit_is_cut_and_the_next_ones_are_read() {
        let moves: String = (0..200)
            .map(|i| if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" })
            .collect();
        let input = alloc::format!("(;GM[1]{moves})(;GM[1];B[cc])(;GM[1];W[dd])");
        let full = limited(input.as_bytes(), usize::MAX);
        assert_eq!(full[0].len(), 201);
        let limit = full[0].estimated_bytes() / 2;
        let trees = limited(input.as_bytes(), limit);
        assert_eq!(trees.len(), 3);
        let cut = &trees[0];
        assert!(cut.len() < 201 && cut.len() > 50, "{}", cut.len());
        assert!(cut.estimated_bytes() <= limit + ERROR_BYTES);
        let e = too_large(cut);
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].code(), e[0].severity),
            ("E103", crate::Severity::Error)
        );
        assert_eq!(e[0].node, Some(NodeId(cut.len() as u32 - 1)));
        assert!(e[0].pos.offset > 0 && e[0].at.is_some());
        // the rest of the tree was skipped, to its `)`
        assert_eq!(trees[1], full[1]);
        assert_eq!(trees[2], full[2]);
        assert!(trees[1].errors().is_empty() && trees[2].errors().is_empty());
    }

    #[test]
    fn the_root_node_is_always_kept() {
        let trees = limited(b"(;GM[1]SZ[19];B[aa])(;GM[1])", 0);
        assert_eq!(trees.len(), 2);
        for t in &trees {
            assert_eq!(t.len(), 1);
            assert!(t.root().properties().next().is_none());
            assert_eq!(too_large(t).len(), 1);
        }
    }

    #[test]
    fn a_long_value_is_cut_in_its_pieces() {
        let long = "x".repeat(100_000);
        let input = alloc::format!("(;GM[1]C[{long}]PB[after];B[aa])(;GM[1])");
        let cfg = Config {
            max_value_piece: 64,
            ..Config::default()
        };
        let b = TreeBuilder::new(Scope::Full).with_max_game_bytes(10_000);
        let trees: Vec<GameTree> = GameTrees::with_builder(input.as_bytes(), cfg, b).collect();
        assert_eq!(trees.len(), 2);
        let c = trees[0].root().value(b"C").unwrap().0.len();
        assert!(c > 9_000 && c < 10_000, "{c}");
        assert!(trees[0].root().get(b"PB").is_none());
        assert_eq!(trees[0].len(), 1);
        assert_eq!(too_large(&trees[0]).len(), 1);
        assert!(trees[0].estimated_bytes() <= 10_000 + ERROR_BYTES);
    }

    #[test]
    fn an_unclosed_tree_swallows_the_rest_within_the_limit() {
        let mut input = b"(;GM[1];B[aa]".to_vec();
        for _ in 0..2_000 {
            input.extend_from_slice(b"\n(;GM[1]PB[x]PW[y];B[pd];W[dp];B[pp])");
        }
        let trees = limited(&input, 8_192);
        assert_eq!(trees.len(), 1); // every later `(;` is a variation of the first tree
        let t = &trees[0];
        assert!(t.estimated_bytes() <= 8_192 + 2 * ERROR_BYTES);
        let codes: Vec<&str> = t.errors().iter().map(|e| e.code()).collect();
        assert_eq!(codes[codes.len() - 2..], ["E103", "E09"]); // after some E32 (`GM` off root)
        // unbounded, the same tree holds every game
        assert_eq!(limited(&input, usize::MAX)[0].len(), 2 + 2_000 * 4);
    }

    #[test]
    fn problems_outside_trees_are_bounded_too() {
        let mut input = b"(;GM[1])".to_vec();
        for _ in 0..1_000 {
            input.extend_from_slice(b"junk\n");
        }
        input.extend_from_slice(b"(;GM[1])");
        let trees = limited(&input, 20 * ERROR_BYTES);
        assert_eq!(trees.len(), 2);
        let n = trees[0].errors().len();
        assert!(n <= 21, "{n}");
        assert_eq!(trees[0].errors_dropped() + n as u64 - 1, 1_000);
        assert_eq!(too_large(&trees[0]).len(), 1);
        assert_eq!(trees[0].errors()[n - 1].kind, ErrorKind::GameTooLarge);
        assert!(trees[1].errors().is_empty());
        // before the first tree: they go to it, bounded the same way
        let mut input = b"junk\n".repeat(1_000);
        input.extend_from_slice(b"(;GM[1];B[aa])");
        let trees = limited(&input, 20 * ERROR_BYTES);
        assert_eq!(trees[0].len(), 2);
        assert!(trees[0].errors().len() <= 21);
        assert_eq!(too_large(&trees[0]).len(), 1);
    }

    #[test]
    fn the_builder_counts_what_estimated_bytes_counts() {
        let long = "y".repeat(5_000);
        for (input, limit) in [
            (
                alloc::format!("(;GM[1]C[{long}]AB[aa][bb];B[zz](;W[cc]AddBlack[dd])(;W[dd]))"),
                usize::MAX,
            ),
            (
                alloc::format!("(;GM[1]C[{long}]AB[aa][bb];B[zz](;W[cc])(;W[dd]))"),
                3_000,
            ),
            (alloc::format!("(;GM[1];B[aa](;W[bb]C[{long}"), 1_000),
            (alloc::format!("(;GM[1];B[aa](;W[bb]C[{long}"), usize::MAX),
        ] {
            let mut b = TreeBuilder::new(Scope::Full).with_max_game_bytes(limit);
            let cfg = Config {
                max_value_piece: 100,
                ..Config::default()
            };
            let mut p = Parser::with_config(cfg);
            let _ = p.feed(input.as_bytes(), &mut b);
            p.finish(&mut b);
            let used = b.used;
            let t = b.into_trees().remove(0);
            assert_eq!(used, t.estimated_bytes(), "{input:.40}");
        }
    }

    #[test]
    fn the_default_limit() {
        let b = TreeBuilder::new(Scope::Full);
        assert_eq!(b.max_game_bytes(), TreeBuilder::DEFAULT_MAX_GAME_BYTES);
        assert_eq!(TreeBuilder::default().max_game_bytes(), 64 << 20);
    }
}
