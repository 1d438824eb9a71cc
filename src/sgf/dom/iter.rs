//! The iterators over game trees: [`GameTrees`] (a slice) and [`ReadTrees`] (any
//! `std::io::Read`).

use super::*;
use crate::control::Status;
use crate::sgf::parser::{Config, Parser};

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
    /// The game trees of `input`, everything kept, with the default [`Config`] (as
    /// `pgn::Games::new`; also [`game_trees`]).
    pub fn new(input: &'a [u8]) -> GameTrees<'a> {
        game_trees(input)
    }

    /// The game trees of `input`, keeping what `scope` says, read with `config`.
    pub fn with_config(input: &'a [u8], scope: Scope, config: Config) -> GameTrees<'a> {
        GameTrees::with_builder(input, config, TreeBuilder::with_scope(scope))
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
pub use read::ReadTrees;

#[cfg(feature = "std")]
mod read {
    use std::io::{self, Read};

    use super::{Config, GameTree, Scope, TreeBuilder};
    use crate::sgf::Reader;

    /// Reads the game trees of any [`Read`] one at a time, in bounded memory: about one game
    /// tree plus the read buffer, whatever the size of the collection.
    ///
    /// ```
    /// use kifu::sgf::ReadTrees;
    /// let data: &[u8] = b"(;GM[1]PW[Sai];B[pd])\n(;GM[1]PW[Toya];B[dd])\n";
    /// let players: Vec<String> = ReadTrees::new(data)
    ///     .map(|t| {
    ///         let t = t.unwrap();
    ///         t.root().value(b"PW").unwrap().text_lossy().into_owned()
    ///     })
    ///     .collect();
    /// assert_eq!(players, ["Sai", "Toya"]);
    /// ```
    #[derive(Debug)]
    pub struct ReadTrees<R> {
        reader: Reader<R>,
        builder: TreeBuilder,
        done: bool,
    }

    impl<R: Read> ReadTrees<R> {
        /// Full game trees, default buffer and [`Config`].
        pub fn new(inner: R) -> ReadTrees<R> {
            ReadTrees::with_config(
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
        ) -> ReadTrees<R> {
            ReadTrees::with_builder(
                Reader::with_config(inner, buffer_size, config),
                TreeBuilder::with_scope(scope),
            )
        }

        /// The game trees read by `reader` (with its buffer size and [`Config`]), built by
        /// `builder` (its scope and limit, see [`TreeBuilder::with_max_game_bytes`]). The builder
        /// should be new.
        ///
        /// ```
        /// use kifu::sgf::{Reader, Scope, TreeBuilder, ReadTrees};
        /// let data: &[u8] = b"(;GM[1];B[aa])(;GM[1];B[bb])";
        /// let builder = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(1 << 20);
        /// assert_eq!(ReadTrees::with_builder(Reader::new(data), builder).count(), 2);
        /// ```
        pub fn with_builder(reader: Reader<R>, mut builder: TreeBuilder) -> ReadTrees<R> {
            builder.stop_on_release = true;
            ReadTrees {
                reader,
                builder,
                done: false,
            }
        }

        /// The builder (for [`TreeBuilder::unclaimed_errors`] after the last tree).
        pub fn builder(&self) -> &TreeBuilder {
            &self.builder
        }

        /// The reader back (with the source inside), as `pgn::ReadGames::into_reader`.
        pub fn into_reader(self) -> Reader<R> {
            self.reader
        }
    }

    impl<R: Read> Iterator for ReadTrees<R> {
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
