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

use super::dom::{GameTree, NONE, NodeId, OwnedError};
use super::parser::{Config, Parser};
use super::visitor::{Context, Error, Property, Value, Visitor};

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
#[derive(Debug, Default)]
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
    /// Answer `Stop` when a tree is released (for the iterators).
    stop_on_release: bool,
}

impl TreeBuilder {
    /// A builder keeping what `scope` says.
    pub fn new(scope: Scope) -> TreeBuilder {
        TreeBuilder {
            scope,
            cur: NONE,
            ..TreeBuilder::default()
        }
    }

    /// The scope it builds with.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Ends the input: every finished tree becomes available, with the problems that followed
    /// it. Call after the parser's `finish` (the [`Reader`](super::Reader) and [`parse`](super::parse)
    /// call it for you). Problems met when no game tree was read at all are dropped.
    pub fn finish(&mut self) {
        if let Some(t) = self.open.take() {
            // only if the parser did not close it (it always does): keep it anyway
            self.done.push_back(t);
        }
        if let Some(last) = self.done.back_mut() {
            last.errors.append(&mut self.pending);
        }
        self.pending.clear();
        self.released = self.done.len();
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
            self.open = Some(t);
            self.cur = NONE;
            self.stack.clear();
            return if released && self.stop_on_release {
                Control::Stop
            } else {
                Control::Continue
            };
        }
        self.stack.push(self.cur);
        if self.scope == Scope::MainLine && ctx.variation > 0 {
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
        } else {
            self.cur = self.stack.pop().unwrap_or(NONE);
        }
        Control::Continue
    }

    fn on_node(&mut self, _: &Context) -> Control {
        if let Some(t) = self.open.as_mut() {
            self.cur = t.push_node(self.cur);
        }
        Control::Continue
    }

    fn on_node_end(&mut self, ctx: &Context) -> Control {
        if self.scope == Scope::RootOnly && ctx.depth == 0 && ctx.node == 0 {
            Control::SkipGame
        } else {
            Control::Continue
        }
    }

    fn on_property(&mut self, _: &Context, p: &Property<'_>) -> Control {
        if let Some(t) = self.open.as_mut() {
            if self.cur != NONE {
                t.push_prop(self.cur, p.name, p.raw);
            }
        }
        Control::Continue
    }

    fn on_value(&mut self, _: &Context, v: &Value<'_>) -> Control {
        if let Some(t) = self.open.as_mut() {
            if self.cur != NONE {
                if v.first {
                    t.push_value(v.raw.0);
                } else {
                    t.extend_value(v.raw.0);
                }
            }
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        match self.open.as_mut() {
            Some(t) => {
                let node = (self.cur != NONE).then_some(NodeId(self.cur));
                t.errors.push(OwnedError::new(e, node));
            }
            None => {
                let owned = OwnedError::new(e, None);
                let unreleased = self.done.len() > self.released;
                match self.done.back_mut() {
                    // outside game trees: the tree before it
                    Some(t) if e.at.is_none() && unreleased => t.errors.push(owned),
                    // before the first tree, or a game tree before its first node
                    _ => self.pending.push(owned),
                }
            }
        }
        Control::Continue
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
        let mut builder = TreeBuilder::new(scope);
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
            let mut builder = TreeBuilder::new(scope);
            builder.stop_on_release = true;
            TreeReader {
                reader: Reader::with_config(inner, buffer_size, config),
                builder,
                done: false,
            }
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
}
