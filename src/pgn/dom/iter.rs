//! The iterators over games: [`Games`] (a slice) and [`ReadGames`] (any `std::io::Read`).

use super::*;

// ----- iterators ------------------------------------------------------------------------------

/// The games of a PGN text held in memory, one at a time.
///
/// The iterator holds one game (and at most the start of the next) besides the parser's bounded
/// state, however long the input.
///
/// ```
/// use kifu::pgn::Games;
/// let pgn = b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n";
/// let whites: Vec<String> = Games::new(pgn).map(|g| g.moves[0].text.to_string()).collect();
/// assert_eq!(whites, ["e4", "d4"]);
/// ```
#[derive(Debug)]
pub struct Games<'a> {
    parser: Parser,
    builder: GameBuilder,
    rest: &'a [u8],
    finished: bool,
}

/// The games of `input`, everything kept, with the default [`Config`]: [`Games::new`], as
/// `sgf::game_trees`.
pub fn games(input: &[u8]) -> Games<'_> {
    Games::new(input)
}

impl<'a> Games<'a> {
    /// The games of `input`, everything kept, with the default [`Config`].
    pub fn new(input: &'a [u8]) -> Games<'a> {
        Games::with_builder(input, Config::default(), GameBuilder::new())
    }

    /// The games of `input`, read with `config` and built by `builder` (say
    /// [`GameBuilder::headers_only`]).
    pub fn with_builder(input: &'a [u8], config: Config, builder: GameBuilder) -> Games<'a> {
        Games {
            parser: Parser::with_config(config),
            builder: builder.stop_at_game_end(true),
            rest: input,
            finished: false,
        }
    }

    /// Hands back a game the caller is done with, so that the games read next are built in its
    /// room ([`GameBuilder::recycle`]): reading allocates nothing once the games handed back
    /// are as large as the next ones.
    ///
    /// ```
    /// use kifu::pgn::Games;
    /// let mut games = Games::new(b"1. e4 e5 *\n\n1. d4 *\n");
    /// let mut plies = Vec::new();
    /// while let Some(game) = games.next() {
    ///     plies.push(game.moves.len());
    ///     games.recycle(game);
    /// }
    /// assert_eq!(plies, [2, 1]);
    /// ```
    pub fn recycle(&mut self, game: Game) {
        self.builder.recycle(game);
    }
}

impl Iterator for Games<'_> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        loop {
            if let Some(game) = self.builder.pop() {
                return Some(game);
            }
            if self.finished {
                return None;
            }
            match self.parser.feed(self.rest, &mut self.builder) {
                Status::Stopped { consumed } => self.rest = &self.rest[consumed..],
                Status::NeedInput => {
                    self.rest = &[];
                    self.parser.finish(&mut self.builder);
                    self.finished = true;
                }
            }
        }
    }
}

#[cfg(feature = "std")]
pub use self::read_games::ReadGames;

#[cfg(feature = "std")]
mod read_games {
    use std::io::{self, Read};

    use super::{Config, Game, GameBuilder};
    use crate::pgn::Reader;

    /// The games of any [`Read`] (a file, stdin, a decompressor), one at a time (feature `std`).
    ///
    /// Memory holds one game (and at most the start of the next), the parser's bounded state and
    /// the read buffer, however long the input. Each item is a game, or the I/O error that ended
    /// the reading (the game it interrupted is lost; nothing follows it).
    ///
    /// ```
    /// use kifu::pgn::ReadGames;
    /// let file: &[u8] = b"[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. d4 *\n";
    /// let events: Vec<String> = ReadGames::new(file)
    ///     .map(|g| g.unwrap().event().unwrap().to_string())
    ///     .collect();
    /// assert_eq!(events, ["A", "B"]);
    /// ```
    #[derive(Debug)]
    pub struct ReadGames<R> {
        reader: Reader<R>,
        builder: GameBuilder,
        finished: bool,
    }

    impl<R: Read> ReadGames<R> {
        /// The games of `inner`, everything kept, with the default buffer size and [`Config`].
        pub fn new(inner: R) -> ReadGames<R> {
            ReadGames::with_builder(Reader::new(inner), GameBuilder::new())
        }

        /// The games read by `reader` (with its buffer size and [`Config`]), built by `builder`.
        pub fn with_builder(reader: Reader<R>, builder: GameBuilder) -> ReadGames<R> {
            ReadGames {
                reader,
                builder: builder.stop_at_game_end(true),
                finished: false,
            }
        }

        /// A reader over `inner` with this buffer size and these limits, building with `builder`.
        pub fn with_config(
            inner: R,
            buffer_size: usize,
            config: Config,
            builder: GameBuilder,
        ) -> ReadGames<R> {
            ReadGames::with_builder(Reader::with_config(inner, buffer_size, config), builder)
        }

        /// The builder (for [`GameBuilder::unclaimed_errors`] after the last game).
        pub fn builder(&self) -> &GameBuilder {
            &self.builder
        }

        /// The reader back (with the source inside).
        pub fn into_reader(self) -> Reader<R> {
            self.reader
        }

        /// Hands back a game the caller is done with, so that the games read next are built in
        /// its room ([`GameBuilder::recycle`]).
        ///
        /// ```
        /// use kifu::pgn::ReadGames;
        /// let mut games = ReadGames::new(&b"1. e4 e5 *\n\n1. d4 *\n"[..]);
        /// let mut plies = 0;
        /// while let Some(game) = games.next() {
        ///     let game = game.unwrap();
        ///     plies += game.moves.len();
        ///     games.recycle(game);
        /// }
        /// assert_eq!(plies, 3);
        /// ```
        pub fn recycle(&mut self, game: Game) {
            self.builder.recycle(game);
        }
    }

    impl<R: Read> Iterator for ReadGames<R> {
        type Item = io::Result<Game>;

        fn next(&mut self) -> Option<io::Result<Game>> {
            loop {
                if let Some(game) = self.builder.pop() {
                    return Some(Ok(game));
                }
                if self.finished {
                    return None;
                }
                match self.reader.read_all(&mut self.builder) {
                    Ok(true) => self.finished = true,
                    Ok(false) => {}
                    Err(e) => {
                        self.finished = true;
                        return Some(Err(e));
                    }
                }
            }
        }
    }
}
