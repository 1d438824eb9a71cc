//! A located problem, owned: from the parser of either format, from a DOM builder's limit, or
//! from a replay on a board. Its `Display` is the line `kifu check` prints (the library's own
//! diagnostic line after `FILE:`), its `Serialize` the object `kifu check --json` writes.

use std::borrow::Cow;
use std::sync::Arc;

use kifu::{Format, Position, Severity, pgn, sgf};
use kifu_replay::{chess, go};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Where a problem comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The parser.
    Parser,
    /// A DOM builder (a game cut at the memory limit).
    Dom,
    /// A replay on a board (`kifu check --legal`, `replay=` in Python).
    Replay,
}

impl Origin {
    /// `parser`, `dom` or `replay`.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Parser => "parser",
            Origin::Dom => "dom",
            Origin::Replay => "replay",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum What {
    Pgn(pgn::GameError),
    Sgf(sgf::TreeError),
    Chess(chess::ReplayError),
    Go(go::GoError),
}

/// A problem met while reading (or replaying) a game, owned: what, how bad, where.
///
/// Its game is counted in what read it: a piece of a larger input, until the piece's first
/// game is known and [`rebase`](Problem::rebase) adds it.
///
/// ```
/// use kifu::pgn::{self, Visitor};
/// use kifu_pipeline::Problem;
///
/// struct Found(Vec<Problem>);
/// impl Visitor for Found {
///     fn on_error(&mut self, e: &pgn::Error<'_>) -> kifu::Control {
///         self.0.push(Problem::pgn("a.pgn", e));
///         kifu::Control::Continue
///     }
/// }
/// let mut found = Found(Vec::new());
/// pgn::parse(b"1. e4 oh? e5 *", &mut found);
/// let p = &found.0[0];
/// assert_eq!(p.to_string(), "a.pgn:1:7: error: unexpected text: `oh?` (game 1, move 1w)");
/// let json = serde_json::to_value(p).unwrap();
/// assert_eq!((json["kind"].as_str(), json["game"].as_u64()), (Some("unexpected_text"), Some(1)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    file: Arc<str>,
    game: u64,
    what: What,
}

impl Problem {
    /// A PGN parser event, in its input `file`.
    pub fn pgn(file: &str, e: &pgn::Error<'_>) -> Problem {
        Problem::pgn_owned(file, &pgn::GameError::from_event(e), e.game)
    }

    /// An SGF parser event.
    pub fn sgf(file: &str, e: &sgf::Error<'_>) -> Problem {
        Problem::sgf_owned(file, &sgf::TreeError::new(e, None), e.game)
    }

    /// A problem a PGN game carries; `game` is the game's index.
    pub fn pgn_owned(file: &str, e: &pgn::GameError, game: u64) -> Problem {
        Problem::new(file, game, What::Pgn(e.clone()))
    }

    /// A problem an SGF game tree carries; `game` is the tree's index.
    pub fn sgf_owned(file: &str, e: &sgf::TreeError, game: u64) -> Problem {
        Problem::new(file, game, What::Sgf(e.clone()))
    }

    /// A chess replay event.
    pub fn chess(file: &str, e: &chess::Error<'_>) -> Problem {
        Problem::chess_owned(file, &chess::ReplayError::from_event(e), e.game)
    }

    /// A Go replay event.
    pub fn go(file: &str, e: &go::Error<'_>) -> Problem {
        Problem::go_owned(file, &go::GoError::from_event(e), e.game)
    }

    /// A chess replay problem of game `game`.
    pub fn chess_owned(file: &str, e: &chess::ReplayError, game: u64) -> Problem {
        Problem::new(file, game, What::Chess(e.clone()))
    }

    /// A Go replay problem of game `game`.
    pub fn go_owned(file: &str, e: &go::GoError, game: u64) -> Problem {
        Problem::new(file, game, What::Go(e.clone()))
    }

    fn new(file: &str, game: u64, what: What) -> Problem {
        Problem {
            file: Arc::from(file),
            game,
            what,
        }
    }

    /// Counts its game from `first_game` (the first game of the piece that met it).
    pub fn rebase(&mut self, first_game: u64) {
        self.game += first_game;
    }

    /// The input's name (`ARCHIVE:MEMBER` inside an archive).
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The format of the game.
    pub fn format(&self) -> Format {
        match self.what {
            What::Pgn(_) | What::Chess(_) => Format::Pgn,
            What::Sgf(_) | What::Go(_) => Format::Sgf,
        }
    }

    /// Where it is in the (decompressed) input; `None` for a replay problem found on a game
    /// held in memory.
    pub fn pos(&self) -> Option<Position> {
        match &self.what {
            What::Pgn(e) => Some(e.pos),
            What::Sgf(e) => Some(e.pos),
            What::Chess(e) => e.pos,
            What::Go(e) => e.pos,
        }
    }

    /// How bad it is.
    pub fn severity(&self) -> Severity {
        match &self.what {
            What::Pgn(e) => e.severity,
            What::Sgf(e) => e.severity,
            What::Chess(e) => e.kind.severity(),
            What::Go(e) => e.kind.severity(),
        }
    }

    /// Its kind, a stable snake_case word, for every problem: `unexpected_text`,
    /// `illegal_point` (the SGF parser's [`sgf::ErrorKind::name`]), `illegal_move`,
    /// `occupied_point`.
    pub fn kind(&self) -> &'static str {
        match &self.what {
            What::Pgn(e) => e.kind.code(),
            What::Sgf(e) => e.kind.name(),
            What::Chess(e) => e.kind.code(),
            What::Go(e) => e.kind.code(),
        }
    }

    /// The SGF parser's problems: the SGFC-style code of the kind (`E14`, `W35`,
    /// [`sgf::ErrorKind::code`]); `None` for the others (PGN, replays).
    pub fn code(&self) -> Option<&'static str> {
        match &self.what {
            What::Sgf(e) => Some(e.kind.code()),
            What::Pgn(_) | What::Chess(_) | What::Go(_) => None,
        }
    }

    /// The message in words.
    pub fn message(&self) -> String {
        match &self.what {
            What::Pgn(e) => e.message(),
            What::Sgf(e) => e.message(),
            What::Chess(e) => e.kind.to_string(),
            What::Go(e) => e.kind.to_string(),
        }
    }

    /// The offending text (at most 64 bytes from the parser; see [`truncated`](Self::truncated)).
    pub fn text(&self) -> Cow<'_, str> {
        match &self.what {
            What::Pgn(e) => Cow::Borrowed(&e.text),
            What::Sgf(e) => String::from_utf8_lossy(&e.text),
            What::Chess(e) => Cow::Borrowed(&e.text),
            What::Go(e) => Cow::Borrowed(&e.text),
        }
    }

    /// Whether the parser cut the text.
    pub fn truncated(&self) -> bool {
        match &self.what {
            What::Pgn(e) => e.truncated,
            What::Sgf(e) => e.truncated,
            What::Chess(_) | What::Go(_) => false,
        }
    }

    /// The game's index in its input, 0-based (`kifu check` prints it 1-based).
    pub fn game(&self) -> u64 {
        self.game
    }

    /// PGN: the last move played before the problem (`14b`).
    pub fn at_move(&self) -> Option<String> {
        match &self.what {
            What::Pgn(e) => e.at.map(|m| m.to_string()),
            What::Chess(e) => e.at.map(|m| m.to_string()),
            What::Sgf(_) | What::Go(_) => None,
        }
    }

    /// SGF: the node's index on its path from the root, and its variation depth.
    pub fn at_node(&self) -> Option<(u32, u32)> {
        match &self.what {
            What::Sgf(e) => e.at.map(|a| (a.node, a.depth)),
            What::Go(e) => e.at.map(|a| (a.node, a.depth)),
            What::Pgn(_) | What::Chess(_) => None,
        }
    }

    /// Where it comes from.
    pub fn origin(&self) -> Origin {
        match &self.what {
            What::Pgn(e) if e.kind == pgn::ErrorKind::GameTooLarge => Origin::Dom,
            What::Sgf(e) if e.kind == sgf::ErrorKind::GameTooLarge => Origin::Dom,
            What::Pgn(_) | What::Sgf(_) => Origin::Parser,
            What::Chess(_) | What::Go(_) => Origin::Replay,
        }
    }

    /// The library's diagnostic line (after `FILE:`), its game counted from 1.
    fn line(&self) -> String {
        let line = match &self.what {
            What::Pgn(e) => e.diagnostic(self.game).to_string(),
            What::Sgf(e) => {
                let mut d = e.diagnostic();
                d.game = self.game;
                d.to_string()
            }
            What::Chess(e) => e.diagnostic(self.game).to_string(),
            What::Go(e) => {
                let text = e.text.as_bytes();
                let n = text.len().min(go::Error::TEXT_MAX);
                let d = go::Error {
                    kind: e.kind,
                    severity: e.kind.severity(),
                    text: &text[..n],
                    truncated: n < text.len(),
                    pos: e.pos.unwrap_or_default(),
                    game: self.game,
                    at: e.at,
                };
                go::line(&d).to_string()
            }
        };
        // a replay of a game held in memory has no position: no `0:0` for it
        match self.pos() {
            None => line
                .strip_prefix("0:0: ")
                .map(str::to_string)
                .unwrap_or(line),
            Some(_) => line,
        }
    }
}

/// `FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `text` (game N, move M | node K (depth D))`, the
/// line `kifu check` prints: the library's diagnostic after the input's name, with control
/// characters of the input escaped so that no name or text forges a line.
impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sep = if self.pos().is_some() { ":" } else { ": " };
        write!(
            f,
            "{}{sep}{}",
            crate::shown(&self.file),
            crate::shown(&self.line())
        )
    }
}

/// The object `kifu check --json` writes: `type` (`problem`), `file`, `line`, `column`,
/// `offset`, `severity`, `kind` (a word), `code` (SGF only: the parser's SGFC-style code, null
/// for a replay's problem), `message`, `text`, `game` (1-based, as in the lines), then `move`
/// (PGN) or `node` and `depth` (SGF); null where none.
impl Serialize for Problem {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pos = self.pos().unwrap_or_default();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("type", "problem")?;
        m.serialize_entry("file", &*self.file)?;
        m.serialize_entry("line", &pos.line)?;
        m.serialize_entry("column", &pos.column)?;
        m.serialize_entry("offset", &pos.offset)?;
        m.serialize_entry("severity", self.severity().as_str())?;
        m.serialize_entry("kind", self.kind())?;
        if self.format() == Format::Sgf {
            m.serialize_entry("code", &self.code())?;
        }
        m.serialize_entry("message", &self.message())?;
        m.serialize_entry("text", &self.text())?;
        m.serialize_entry("game", &(self.game + 1))?;
        match self.format() {
            Format::Pgn => m.serialize_entry("move", &self.at_move())?,
            Format::Sgf => {
                let at = self.at_node();
                m.serialize_entry("node", &at.map(|a| a.0))?;
                m.serialize_entry("depth", &at.map(|a| a.1))?;
            }
        }
        m.end()
    }
}

/// The most problems of one game that kifu lists ([`Problems`]): 100, as the DOM builders keep
/// ([`pgn::GameBuilder::DEFAULT_MAX_GAME_ERRORS`]).
pub const MAX_PROBLEMS_PER_GAME: usize = pgn::GameBuilder::DEFAULT_MAX_GAME_ERRORS;

/// The problems of a game past the first [`MAX_PROBLEMS_PER_GAME`], counted, not listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct More {
    file: Arc<str>,
    format: Format,
    game: u64,
    errors: u64,
    warnings: u64,
}

impl More {
    /// The `count` problems a DOM builder left out of game `game` of input `file` (past its
    /// first [`MAX_PROBLEMS_PER_GAME`], or past its memory limit: `pgn::Game::errors_dropped`,
    /// `sgf::GameTree::errors_dropped`). A builder keeps no severity for what it leaves out:
    /// they are counted as errors.
    ///
    /// ```
    /// use kifu_pipeline::More;
    /// let m = More::dropped("a.pgn", kifu::Format::Pgn, 0, 4_999_900);
    /// assert_eq!((m.count(), m.errors()), (4_999_900, 4_999_900));
    /// ```
    pub fn dropped(file: &str, format: Format, game: u64, count: u64) -> More {
        More {
            file: Arc::from(file),
            format,
            game,
            errors: count,
            warnings: 0,
        }
    }
    /// The input's name.
    pub fn file(&self) -> &str {
        &self.file
    }
    /// The format of the game.
    pub fn format(&self) -> Format {
        self.format
    }
    /// The game's index in its input, 0-based.
    pub fn game(&self) -> u64 {
        self.game
    }
    /// How many of them are errors (or fatal).
    pub fn errors(&self) -> u64 {
        self.errors
    }
    /// How many are warnings.
    pub fn warnings(&self) -> u64 {
        self.warnings
    }
    /// How many in all.
    pub fn count(&self) -> u64 {
        self.errors + self.warnings
    }
    /// The worst of them.
    pub fn severity(&self) -> Severity {
        if self.errors > 0 {
            Severity::Error
        } else {
            Severity::Warning
        }
    }
    /// The message in words.
    pub fn message(&self) -> String {
        format!(
            "{} more problem{} in this game, not listed (the first {MAX_PROBLEMS_PER_GAME} are)",
            self.count(),
            if self.count() == 1 { "" } else { "s" }
        )
    }
    /// Counts its game from `first_game` (as [`Problem::rebase`]).
    pub fn rebase(&mut self, first_game: u64) {
        self.game += first_game;
    }
}

/// `FILE: SEVERITY: N more problems in this game, not listed (the first 100 are) (game G)`.
impl std::fmt::Display for More {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}: {} (game {})",
            crate::shown(&self.file),
            self.severity().as_str(),
            self.message(),
            self.game + 1
        )
    }
}

/// The object `kifu check --json` writes for it: `type` (`more`), `file`, `game` (1-based),
/// `problems`, `errors`, `warnings`, `message`.
impl Serialize for More {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(7))?;
        m.serialize_entry("type", "more")?;
        m.serialize_entry("file", &*self.file)?;
        m.serialize_entry("game", &(self.game + 1))?;
        m.serialize_entry("problems", &self.count())?;
        m.serialize_entry("errors", &self.errors)?;
        m.serialize_entry("warnings", &self.warnings)?;
        m.serialize_entry("message", &self.message())?;
        m.end()
    }
}

/// What a list of problems holds: a problem, or the count of a game's problems past the first
/// [`MAX_PROBLEMS_PER_GAME`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listed {
    /// A problem, listed.
    Problem(Problem),
    /// A game's problems past the first ones, counted.
    More(More),
}

impl Listed {
    /// Counts its game from `first_game`.
    pub fn rebase(&mut self, first_game: u64) {
        match self {
            Listed::Problem(p) => p.rebase(first_game),
            Listed::More(m) => m.rebase(first_game),
        }
    }
    /// The game's index in its input, 0-based.
    pub fn game(&self) -> u64 {
        match self {
            Listed::Problem(p) => p.game(),
            Listed::More(m) => m.game(),
        }
    }
    /// How many problems it stands for: 1, or the count of a [`More`].
    pub fn count(&self) -> u64 {
        match self {
            Listed::Problem(_) => 1,
            Listed::More(m) => m.count(),
        }
    }
    /// The errors and the warnings it stands for.
    pub fn counts(&self) -> (u64, u64) {
        match self {
            Listed::Problem(p) if p.severity() == Severity::Warning => (0, 1),
            Listed::Problem(_) => (1, 0),
            Listed::More(m) => (m.errors, m.warnings),
        }
    }
}

/// The problems a piece met, as kifu lists them (`kifu check`, `kifu.check`): the first
/// [`MAX_PROBLEMS_PER_GAME`] of each game, in input order, then one [`More`] that counts the
/// rest of that game; so a game of a few kilobytes that raises millions of problems costs a
/// hundred, not millions.
///
/// ```
/// use kifu_pipeline::{Listed, Problem, Problems};
/// use kifu::pgn::{self, Visitor};
///
/// struct Found(Problems);
/// impl Visitor for Found {
///     fn on_error(&mut self, e: &pgn::Error<'_>) -> kifu::Control {
///         self.0.push(Problem::pgn("a.pgn", e));
///         kifu::Control::Continue
///     }
/// }
/// let pgn = format!("1. e4 {}*\n", ") ".repeat(1000));
/// let mut found = Found(Problems::new());
/// pgn::parse(pgn.as_bytes(), &mut found);
/// let list = found.0.finish();
/// assert_eq!(list.len(), 101);
/// let Listed::More(more) = &list[100] else { panic!() };
/// assert_eq!((more.game(), more.count()), (0, 900));
/// assert_eq!(more.to_string(), "a.pgn: error: 900 more problems in this game, not listed (the first 100 are) (game 1)");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Problems {
    list: Vec<Listed>,
    /// The game of the last problem, and how many of its problems are listed.
    game: Option<(u64, usize)>,
    more: Option<More>,
}

impl Problems {
    /// An empty list.
    pub fn new() -> Problems {
        Problems::default()
    }

    /// Adds a problem: listed if it is among the first of its game, else counted.
    pub fn push(&mut self, p: Problem) {
        match &mut self.game {
            Some((g, listed)) if *g == p.game => {
                if *listed < MAX_PROBLEMS_PER_GAME {
                    *listed += 1;
                } else {
                    let more = self.more.get_or_insert_with(|| More {
                        file: Arc::clone(&p.file),
                        format: p.format(),
                        game: p.game,
                        errors: 0,
                        warnings: 0,
                    });
                    match p.severity() {
                        Severity::Warning => more.warnings += 1,
                        _ => more.errors += 1,
                    }
                    return;
                }
            }
            _ => {
                self.close();
                self.game = Some((p.game, 1));
            }
        }
        self.list.push(Listed::Problem(p));
    }

    /// The count of the last game's problems past the first, into the list.
    fn close(&mut self) {
        if let Some(m) = self.more.take() {
            self.list.push(Listed::More(m));
        }
    }

    /// The list, in input order (each game's [`More`] after its listed problems).
    pub fn finish(mut self) -> Vec<Listed> {
        self.close();
        self.list
    }

    /// The list as [`finish`](Self::finish) would give it, without taking it.
    pub fn iter(&self) -> impl Iterator<Item = Listed> + '_ {
        self.list
            .iter()
            .cloned()
            .chain(self.more.clone().map(Listed::More))
    }
}
