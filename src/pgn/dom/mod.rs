//! The PGN document model: [`Game`], its move tree, and [`GameBuilder`], the visitor that
//! builds it.
//!
//! A [`Game`] owns its data: tags, the move tree ([`Node`]s with their NAGs, comments and
//! [`Variation`]s), the result and the errors met while reading it. It is built by an ordinary
//! [`Visitor`], [`GameBuilder`]; the iterators [`Games`] (over a byte slice) and [`ReadGames`]
//! (over any [`std::io::Read`], feature `std`) hold one game at a time.
//!
//! # Text
//!
//! Every text of the DOM is a [`String`]: tag names and values (with `\"` and `\\` decoded), move
//! texts and comments. Bytes that are not UTF-8 (old Latin-1 files) are replaced by U+FFFD,
//! exactly as `kifu json` does; the parser reports such tag values as
//! [`ErrorKind::InvalidUtf8`](super::ErrorKind::InvalidUtf8) warnings. Read the events
//! ([`Visitor`]) to see the raw bytes.
//!
//! # Where comments go
//!
//! - Comments before the first move of the game (also those before or between the tags) are the
//!   game comment, [`Game::comments`].
//! - A comment after a move belongs to that move, [`Node::comments`], also when a variation or a
//!   NAG stands between them (`e4 (d4) {c}`: `c` is `e4`'s).
//! - Comments before the first move of a variation are that move's [`Node::comments_before`]; in
//!   a variation without moves (`( {see the game of 1985} )`) they are
//!   [`Variation::comments`].
//! - `%` escape lines are private data of the file and are dropped.
//!
//! This is the shape `kifu json` writes. A NAG before any move of its line and a variation before
//! the first move of the game (reported as
//! [`ErrorKind::VariationBeforeMove`](super::ErrorKind::VariationBeforeMove)) have no move to
//! belong to and are dropped, as in `kifu json`.
//!
//! # Where problems go
//!
//! A game holds the problems met while it is open, in input order. A game stays open from its
//! first token to the next game's first token (or the end of input): text after a result, a
//! stray `)` between games, belong to the game before them. So the parser raises problems
//! outside any game only before the first game (text at the head of a file, say); they go to
//! the **next game**, the first one, before its own. In an input without any game they are
//! dropped (use a [`Visitor`] to see them). `kifu json` does the same.
//!
//! # Recursion
//!
//! The move tree nests as deep as the variations of the input, at most
//! [`Config::max_depth`](super::Config::max_depth) levels (256 by default). Dropping a tree,
//! comparing two (`==`, [`Game::same_content`]), and writing one ([`Writer`](super::Writer)) use
//! explicit stacks, whatever the depth. `Clone`, `Debug` and `Serialize` (feature `serde`) recurse
//! once per level of nesting.
//!
//! # Example
//!
//! ```
//! use kifu::pgn::{Game, Games, Nag};
//!
//! let pgn = b"[White \"Tal\"]\n\n1. e4 {best by test} e5 2. Nf3!? (2. f4 exf4) Nc6 1-0\n";
//! let game: Game = Games::new(pgn).next().unwrap();
//! assert_eq!(game.white(), Some("Tal"));
//! assert_eq!(game.moves.len(), 4);
//! assert_eq!(game.moves[0].comments, ["best by test"]);
//! assert_eq!(game.moves[2].text, "Nf3");
//! assert_eq!(game.moves[2].nags[..], [Nag::SPECULATIVE_MOVE]);
//! assert_eq!(game.moves[2].variations[0].moves[1].text, "exf4");
//! assert_eq!(game.result.map(|r| r.as_str()), Some("1-0"));
//! ```

use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::control::{Control, Status};
use crate::error::Severity;
use crate::position::Position;

use super::commands::{self, Commands, Eval};
use super::nag::{Nag, Outcome};
use super::parser::{Config, Parser};
use super::san::{CastlingSide, Check, Piece, San, SanKind};
use super::visitor::{
    Comment, CommentKind, Context, Error, ErrorKind, Move, MoveRef, NagForm, Tag, Visitor,
};
mod builder;
mod iter;
#[cfg(feature = "serde")]
mod serde;
#[cfg(test)]
mod tests;
mod text;

pub use builder::{GameBuilder, Scope};
#[cfg(feature = "std")]
pub use iter::ReadGames;
pub use iter::{Games, games};
pub use text::MoveText;

/// The Seven Tag Roster, in its export order, with the value the export format writes when the
/// tag is missing (`Result` takes the game's termination marker instead).
pub(crate) const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// One game: tags, move tree, result, and the errors met while reading it.
///
/// Build one with [`GameBuilder`] (or the iterators [`Games`], [`ReadGames`]), or by hand:
///
/// ```
/// use kifu::pgn::{Game, Node, Outcome};
///
/// let mut game = Game::new();
/// game.set_tag("White", "Morphy");
/// game.moves.push(Node::parse("e4").unwrap());
/// game.moves.push(Node::parse("e5").unwrap());
/// game.result = Some(Outcome::Unknown);
/// assert_eq!(game.white(), Some("Morphy"));
/// assert_eq!(game.event(), None);
/// ```
///
/// `==` compares everything, offsets and errors included; [`Game::same_content`] compares what a
/// round trip through the [`Writer`](super::Writer) keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Index of the game in its stream, 0-based.
    pub index: u64,
    /// Byte offset of the game's first byte (its first tag, or its first comment or move) in the
    /// stream.
    pub offset: u64,
    /// The tag pairs in file order, `(name, value)`, values decoded (`\"` and `\\`), bytes that
    /// are not UTF-8 replaced by U+FFFD.
    pub tags: Vec<(String, String)>,
    /// Comments before the first move (the game comment).
    pub comments: Vec<String>,
    /// The main line.
    pub moves: Vec<Node>,
    /// The termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if the movetext had one. See also
    /// [`Game::result_tag`] and [`Game::termination`].
    pub result: Option<Outcome>,
    /// The problems met while reading the game, in input order.
    ///
    /// A game stays open from its first token to the next game's first token (or the end of
    /// input): text after its result, a stray `)` after it, are its problems. So the parser
    /// reports problems outside any game only before the first game (text at the head of a
    /// file, say): they go to the next game, the first, before its own (in an input without
    /// any game, no game carries them: see [`GameBuilder::unclaimed_errors`]). `kifu json` does
    /// the same.
    ///
    /// ```
    /// use kifu::pgn::{ErrorKind, Games};
    /// let games: Vec<_> = Games::new(b"junk\n1. e4 *\nmore junk\n1. d4 *").collect();
    /// assert_eq!(games[0].errors.len(), 2);
    /// assert_eq!((games[0].errors[0].text.as_str(), games[0].errors[0].pos.line), ("junk", 1));
    /// assert_eq!(games[0].errors[1].text, "more junk"); // after its result: still the first game
    /// assert!(games[1].errors.is_empty());
    /// ```
    pub errors: Vec<GameError>,
    /// How many problems the builder left out of [`errors`](Self::errors): past its count
    /// ([`GameBuilder::with_max_game_errors`], the first 100 by default), or past its memory
    /// limit ([`GameBuilder::with_max_game_bytes`], and `errors` then holds the
    /// `game_too_large` that says where the cut came). `errors.len() + errors_dropped` is the
    /// game's count of problems. Serialized as `errors_dropped`, only when it is not 0 (as
    /// `kifu json` writes it).
    pub errors_dropped: u64,
}

/// The NAGs of a move: held inline up to 16 (a move rarely has more than two), so a
/// [`Node`] costs no allocation for them; a slice otherwise (`nags[0]`, `nags.iter()`,
/// `nags.push(…)`).
pub type Nags = smallvec::SmallVec<[Nag; 16]>;

/// A move of the tree, with its annotations and the variations that replace it.
///
/// ```
/// use kifu::pgn::{Nag, Node, Piece, Variation};
///
/// let mut node = Node::parse("Nf3+").unwrap();
/// assert_eq!(node.san.piece(), Piece::Knight);
/// node.nags.push(Nag::GOOD_MOVE);
/// node.comments.push("the only move".into());
/// node.variations.push(Variation::from_moves(vec![Node::parse("Nc3").unwrap()]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move, parsed for syntax.
    pub san: San,
    /// The move as written, with its check marker, without suffix annotations (`Nf3+` for
    /// `Nf3+!?`; the `!?` is in [`nags`](Node::nags)).
    pub text: MoveText,
    /// The NAGs after the move, suffixes (`!?`) as their numbers (`$5`).
    pub nags: Nags,
    /// Comments before the move. Only the first move of a variation has them when read from PGN.
    pub comments_before: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// The variations that replace this move, in order.
    pub variations: Vec<Variation>,
}

/// A variation (RAV): a line of moves replacing a move.
///
/// Dropping and comparing variations does not recurse, however deep they nest.
#[derive(Clone, Debug, Default, Eq)]
pub struct Variation {
    /// The moves; the first one replaces the move the variation belongs to.
    pub moves: Vec<Node>,
    /// The comments of a variation without moves (`( {see the game of 1985} )`). In a variation
    /// with moves, the comments before the first move are its [`Node::comments_before`].
    pub comments: Vec<String>,
}

/// An owned, located PGN problem, as kept in [`Game::errors`].
///
/// ```
/// use kifu::pgn::{ErrorKind, Games};
/// let game = Games::new(b"1. e4 oh? e5 *").next().unwrap();
/// let e = &game.errors[0];
/// assert_eq!(e.kind, ErrorKind::UnexpectedText);
/// assert_eq!((e.text.as_str(), e.pos.column, e.at.unwrap().to_string()), ("oh?", 7, "1w".into()));
/// assert_eq!(e.to_string(), "1:7: error: unexpected text: `oh?` (move 1w)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// How bad it is.
    pub severity: Severity,
    /// The offending text (bounded, see [`Error::TEXT_MAX`]), U+FFFD for bytes that are not UTF-8.
    pub text: String,
    /// Whether `text` was cut.
    pub truncated: bool,
    /// Where the offending text starts.
    pub pos: Position,
    /// The last move played before the problem, if any.
    pub at: Option<MoveRef>,
}

impl GameError {
    /// An owned copy of an [`Error`] event.
    pub fn from_event(e: &Error<'_>) -> GameError {
        GameError {
            kind: e.kind,
            severity: e.severity,
            text: String::from_utf8_lossy(e.text).into_owned(),
            truncated: e.truncated,
            pos: e.pos,
            at: e.at,
        }
    }

    /// The message (the kind's description), as `kifu json` writes it.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }

    /// The problem as the diagnostic event it was, in game `game` (the game's
    /// [`index`](Game::index)): its `Display` is the line `kifu check` prints.
    ///
    /// ```
    /// let game = kifu::pgn::Games::new(b"1. e4 oh? e5 *").next().unwrap();
    /// let line = game.errors[0].diagnostic(game.index).to_string();
    /// assert_eq!(line, "1:7: error: unexpected text: `oh?` (game 1, move 1w)");
    /// ```
    pub fn diagnostic(&self, game: u64) -> Error<'_> {
        Error {
            kind: self.kind,
            severity: self.severity,
            text: self.text.as_bytes(),
            truncated: self.truncated,
            pos: self.pos,
            game,
            at: self.at,
        }
    }
}

/// The line of [`GameError::diagnostic`] without the game: `LINE:COLUMN: SEVERITY: MESSAGE:
/// `text` (move 14b)`.
impl core::fmt::Display for GameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        crate::error::write_common(
            f,
            self.pos,
            self.severity,
            None,
            &self.kind,
            self.text.as_bytes(),
            self.truncated,
        )?;
        if let Some(at) = self.at {
            write!(f, " (move {at})")?;
        }
        Ok(())
    }
}

impl core::error::Error for GameError {}

// ----- Game -----------------------------------------------------------------------------------

impl Game {
    /// An empty game: no tags, no moves, no result.
    pub fn new() -> Game {
        Game::default()
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the first tag named `name` to `value`, or appends the tag if there is none.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => {
                v.clear();
                v.push_str(value);
            }
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Removes every tag named `name`; returns whether there was one.
    pub fn remove_tag(&mut self, name: &str) -> bool {
        let n = self.tags.len();
        self.tags.retain(|(t, _)| t != name);
        self.tags.len() != n
    }

    /// The `Event` tag.
    pub fn event(&self) -> Option<&str> {
        self.tag("Event")
    }
    /// The `Site` tag.
    pub fn site(&self) -> Option<&str> {
        self.tag("Site")
    }
    /// The `Date` tag (`YYYY.MM.DD`, `?` for unknown digits).
    pub fn date(&self) -> Option<&str> {
        self.tag("Date")
    }
    /// The `Round` tag.
    pub fn round(&self) -> Option<&str> {
        self.tag("Round")
    }
    /// The `White` tag.
    pub fn white(&self) -> Option<&str> {
        self.tag("White")
    }
    /// The `Black` tag.
    pub fn black(&self) -> Option<&str> {
        self.tag("Black")
    }
    /// The `Result` tag as written. The termination marker of the movetext is
    /// [`Game::result`].
    pub fn result_tag(&self) -> Option<&str> {
        self.tag("Result")
    }
    /// The `FEN` tag: the starting position, when the game does not start from the usual one.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN")
    }
    /// Whether the `SetUp` tag is `"1"` (the game starts from the position of its `FEN` tag).
    pub fn set_up(&self) -> bool {
        self.tag("SetUp") == Some("1")
    }

    /// The result: the termination marker of the movetext, else the `Result` tag if it holds
    /// one, else [`Outcome::Unknown`]. This is what the [`Writer`](super::Writer) ends the game
    /// with.
    ///
    /// ```
    /// use kifu::pgn::{Games, Outcome};
    /// let game = Games::new(b"[Result \"0-1\"]\n\n1. e4").next().unwrap();
    /// assert_eq!((game.result, game.termination()), (None, Outcome::BlackWins));
    /// ```
    pub fn termination(&self) -> Outcome {
        self.result
            .or_else(|| self.result_tag().and_then(|r| Outcome::parse(r.as_bytes())))
            .unwrap_or(Outcome::Unknown)
    }

    /// The game's result as a reader of its tags takes it: the `Result` tag when it holds one
    /// of the four results, else the [`termination`](Self::termination) (the marker of the
    /// movetext). The two differ only when the tag and the marker disagree; this is the
    /// `result` of kifu's game keys and the `score` of its positions table, as python-chess's
    /// `game.headers["Result"]` and the lichess database read a game.
    ///
    /// ```
    /// use kifu::pgn::{Games, Outcome};
    /// let game = Games::new(b"[Result \"1-0\"]\n\n1. e4 0-1").next().unwrap();
    /// assert_eq!((game.outcome(), game.termination()), (Outcome::WhiteWins, Outcome::BlackWins));
    /// ```
    pub fn outcome(&self) -> Outcome {
        self.result_tag()
            .and_then(|r| Outcome::parse(r.trim().as_bytes()))
            .unwrap_or_else(|| self.termination())
    }

    /// The ply before the first move, from the `FEN` tag's side to move and move number
    /// (`… b - - 0 14` gives 27: the first move is Black's 14th); 0 without a `FEN` tag.
    pub fn starting_ply(&self) -> u32 {
        let Some(fen) = self.fen() else { return 0 };
        let mut fields = fen.split_ascii_whitespace();
        let black = fields.nth(1) == Some("b");
        let number = fields
            .nth(3)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..1 << 20).contains(n))
            .unwrap_or(1);
        2 * (number - 1) + u32::from(black)
    }

    /// The tags as the export format writes them: the Seven Tag Roster first, in its order, a
    /// missing one with its default (`?`, `????.??.??`, and for `Result` the
    /// [`termination`](Game::termination)), then the other tags in file order.
    ///
    /// ```
    /// use kifu::pgn::Game;
    /// let mut game = Game::new();
    /// game.set_tag("ECO", "C80");
    /// game.set_tag("White", "Tal");
    /// let tags: Vec<_> = game.export_tags().collect();
    /// assert_eq!(tags[4], ("White", "Tal"));
    /// assert_eq!(tags[6], ("Result", "*"));
    /// assert_eq!(tags[7], ("ECO", "C80"));
    /// ```
    pub fn export_tags(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let term = self.termination().as_str();
        ROSTER
            .iter()
            .map(move |&(name, default)| {
                let default = if name == "Result" { term } else { default };
                (name, self.tag(name).unwrap_or(default))
            })
            .chain(
                self.tags
                    .iter()
                    .filter(|(n, _)| !ROSTER.iter().any(|(r, _)| r == n))
                    .map(|(n, v)| (n.as_str(), v.as_str())),
            )
    }

    /// Whether the game holds an error of severity [`Severity::Error`] or worse (warnings do not
    /// count).
    pub fn has_errors(&self) -> bool {
        self.errors.iter().any(|e| e.severity >= Severity::Error)
    }

    /// The number of moves in the tree, variations included.
    pub fn count_moves(&self) -> usize {
        let mut n = 0;
        walk(&self.moves, |line| n += line.len());
        n
    }

    /// Whether two games have the same content as far as the export format keeps it: compares
    /// [`export_tags`](Game::export_tags), the comments, the moves (SAN, text, NAGs, comments
    /// before and after, variations) and the [`termination`](Game::termination); not the index,
    /// offset or errors. Comments compare up to white space (runs of white space count as one
    /// space; leading and trailing white space is ignored), since the
    /// [`Writer`](super::Writer) wraps long comments.
    ///
    /// A game read from PGN, written with the [`Writer`](super::Writer) and read back has the
    /// same content as the original.
    ///
    /// ```
    /// use kifu::pgn::{Games, Writer};
    /// let game = Games::new(b"1. e4 {  a   comment } e5 *").next().unwrap();
    /// let again = Games::new(Writer::new().to_string(&game).as_bytes()).next().unwrap();
    /// assert!(game.same_content(&again));
    /// assert_ne!(game, again); // the tags differ: the Seven Tag Roster was added
    /// ```
    pub fn same_content(&self, other: &Game) -> bool {
        self.export_tags().eq(other.export_tags())
            && same_comments(&self.comments, &other.comments)
            && self.termination() == other.termination()
            && same_lines(&self.moves, &other.moves, true)
    }

    /// Iterates over the main line.
    pub fn main_line(&self) -> core::slice::Iter<'_, Node> {
        self.moves.iter()
    }

    /// An estimate of the bytes the game owns: every tag, move, NAG, variation, comment and
    /// error at what it costs ([`Game::TAG_BYTES`] and the others: its size, and for a text or
    /// a list that may hold one item, the allocation it takes), plus the bytes of its texts.
    /// Lengths are counted, not capacities, so the allocation can be up to about twice as
    /// much (a line's moves grow by doubling). This is what the builder's limit
    /// ([`GameBuilder::with_max_game_bytes`]) is checked against. Walks the tree (without
    /// recursion).
    ///
    /// ```
    /// use kifu::pgn::Games;
    /// let short = Games::new(b"1. e4 *").next().unwrap();
    /// let long = Games::new(b"1. e4 {a comment} e5 (1... c5) *").next().unwrap();
    /// assert!(0 < short.estimated_bytes() && short.estimated_bytes() < long.estimated_bytes());
    /// ```
    pub fn estimated_bytes(&self) -> usize {
        let mut n = self
            .tags
            .iter()
            .map(|(a, b)| TAG_BYTES + a.len() + b.len())
            .sum::<usize>()
            + strings_bytes(&self.comments)
            + self.errors.iter().map(error_bytes).sum::<usize>();
        let mut stack = vec![self.moves.as_slice()];
        while let Some(line) = stack.pop() {
            for node in line {
                n += NODE_BYTES
                    + node.text.len()
                    + node.nags.len() * NAG_BYTES
                    + strings_bytes(&node.comments_before)
                    + strings_bytes(&node.comments);
                for v in &node.variations {
                    n += VARIATION_BYTES + strings_bytes(&v.comments);
                    stack.push(&v.moves);
                }
            }
        }
        n
    }
}

/// The most a heap allocation costs besides the bytes asked for: the allocator's header and
/// its rounding (glibc's: 8 bytes of header, chunks of 16, 32 at least).
const ALLOC: usize = 16;
/// The fewest items a `Vec` makes room for at its first push (Rust's, for items of up to
/// 1 KiB).
const MIN_CAP: usize = 4;

/// What [`Game::estimated_bytes`] counts for each item besides its texts' bytes: the one
/// measure of a game's size, which the builder's limit and the visitors that keep to it
/// without building the game (`kifu-pipeline`'s) read.
impl Game {
    /// A tag: the pair, and its two strings' allocations.
    pub const TAG_BYTES: usize = core::mem::size_of::<(String, String)>() + 2 * ALLOC;
    /// A comment: its string in a list that may hold only it (a node's first comment makes
    /// room for four), and the allocation of its text.
    pub const COMMENT_BYTES: usize = MIN_CAP * core::mem::size_of::<String>() + 2 * ALLOC;
    /// A move: its node.
    pub const MOVE_BYTES: usize = core::mem::size_of::<Node>();
    /// A NAG (up to 16 a move are kept in the node itself).
    pub const NAG_BYTES: usize = core::mem::size_of::<Nag>();
    /// A variation: its place in a list that may hold only it (a move's first variation makes
    /// room for four), and its line's room for four moves besides the first one, counted as a
    /// move.
    pub const VARIATION_BYTES: usize = MIN_CAP * core::mem::size_of::<Variation>()
        + (MIN_CAP - 1) * core::mem::size_of::<Node>()
        + 2 * ALLOC;
    /// A problem, and the allocation of its text.
    pub const ERROR_BYTES: usize = core::mem::size_of::<GameError>() + ALLOC;
}

const TAG_BYTES: usize = Game::TAG_BYTES;
const STRING_BYTES: usize = Game::COMMENT_BYTES;
const NODE_BYTES: usize = Game::MOVE_BYTES;
const NAG_BYTES: usize = Game::NAG_BYTES;
const VARIATION_BYTES: usize = Game::VARIATION_BYTES;
const ERROR_BYTES: usize = Game::ERROR_BYTES;

fn strings_bytes(v: &[String]) -> usize {
    v.iter().map(|s| STRING_BYTES + s.len()).sum()
}

fn error_bytes(e: &GameError) -> usize {
    ERROR_BYTES + e.text.len()
}

/// Calls `f` on every line of the tree (the main line first), without recursion.
fn walk<'a>(moves: &'a [Node], mut f: impl FnMut(&'a [Node])) {
    let mut stack = vec![moves];
    while let Some(line) = stack.pop() {
        f(line);
        for node in line {
            for v in &node.variations {
                stack.push(&v.moves);
            }
        }
    }
}

fn same_comments(a: &[String], b: &[String]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.split_ascii_whitespace().eq(y.split_ascii_whitespace()))
}

/// Compares two move trees without recursion; `loose` compares comments up to white space.
fn same_lines(a: &[Node], b: &[Node], loose: bool) -> bool {
    let comments = |x: &[String], y: &[String]| {
        if loose { same_comments(x, y) } else { x == y }
    };
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        if a.len() != b.len() {
            return false;
        }
        for (x, y) in a.iter().zip(b) {
            if x.san != y.san
                || x.text != y.text
                || x.nags != y.nags
                || !comments(&x.comments_before, &y.comments_before)
                || !comments(&x.comments, &y.comments)
                || x.variations.len() != y.variations.len()
            {
                return false;
            }
            for (v, w) in x.variations.iter().zip(&y.variations) {
                if !comments(&v.comments, &w.comments) {
                    return false;
                }
                stack.push((&v.moves, &w.moves));
            }
        }
    }
    true
}

// ----- Node and Variation ---------------------------------------------------------------------

impl Node {
    /// A move without annotations, its text written from `san` in standard SAN (`O-O`, `exd8=Q+`,
    /// `--` for a null move).
    ///
    /// ```
    /// use kifu::pgn::{Node, San};
    /// let san = San::parse(b"0-0").unwrap();
    /// assert_eq!(Node::new(san).text, "O-O");
    /// ```
    pub fn new(san: San) -> Node {
        Node {
            san,
            text: san_text(san).into(),
            nags: Nags::new(),
            comments_before: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// A move parsed from SAN text (`Nf3`, `exd8=Q+`), kept as written; `None` if it is no move.
    /// Suffix annotations are not part of a move's text: `Node::parse("e4!")` is `None`.
    pub fn parse(text: &str) -> Option<Node> {
        let san = San::parse(text.as_bytes())?;
        Some(Node {
            text: MoveText::from(text),
            ..Node::new(san)
        })
    }

    /// The comment commands (`[%clk …]`, `[%eval …]`, …) of the comments after the move.
    ///
    /// ```
    /// use kifu::pgn::{Command, Games};
    /// let game = Games::new(b"1. e4 {[%clk 0:03:00] [%eval 0.2]} *").next().unwrap();
    /// let cmds: Vec<_> = game.moves[0].commands().collect();
    /// assert_eq!(cmds.len(), 2);
    /// assert!(matches!(cmds[0], Command::Clock(d) if d.as_secs() == 180));
    /// ```
    pub fn commands(&self) -> impl Iterator<Item = commands::Command<'_>> + '_ {
        self.comments.iter().flat_map(|c| Commands::new(c))
    }

    /// The remaining clock time of the move's first `[%clk …]` command.
    pub fn clock(&self) -> Option<core::time::Duration> {
        self.commands().find_map(|c| match c {
            commands::Command::Clock(d) => Some(d),
            _ => None,
        })
    }

    /// The evaluation of the move's first `[%eval …]` command.
    pub fn eval(&self) -> Option<Eval> {
        self.commands().find_map(|c| match c {
            commands::Command::Eval(e) => Some(e),
            _ => None,
        })
    }
}

impl Variation {
    /// A variation holding these moves.
    pub fn from_moves(moves: Vec<Node>) -> Variation {
        Variation {
            moves,
            comments: Vec::new(),
        }
    }
}

impl PartialEq for Variation {
    /// Exact equality (comments compared byte for byte), without recursion.
    fn eq(&self, other: &Variation) -> bool {
        self.comments == other.comments && same_lines(&self.moves, &other.moves, false)
    }
}

impl Drop for Variation {
    /// Drops the nested variations from an explicit stack, so that a deep tree cannot overflow
    /// the call stack.
    fn drop(&mut self) {
        if self.moves.iter().all(|n| n.variations.is_empty()) {
            return;
        }
        let mut stack = vec![core::mem::take(&mut self.moves)];
        while let Some(mut line) = stack.pop() {
            for node in &mut line {
                for v in &mut node.variations {
                    if !v.moves.is_empty() {
                        stack.push(core::mem::take(&mut v.moves));
                    }
                }
            }
            // `line` drops here: its variations are empty now, so nothing recurses
        }
    }
}

/// Standard SAN for `san`.
pub(crate) fn san_text(san: San) -> String {
    let mut s = String::new();
    match san.kind() {
        SanKind::Castle(CastlingSide::KingSide) => s.push_str("O-O"),
        SanKind::Castle(CastlingSide::QueenSide) => s.push_str("O-O-O"),
        SanKind::Null => s.push_str("--"),
        SanKind::Drop => {
            s.push(san.piece().char());
            s.push('@');
            if let Some(to) = san.to() {
                s.push_str(&to.to_string());
            }
        }
        SanKind::Normal => {
            if san.piece() != Piece::Pawn {
                s.push(san.piece().char());
            }
            if let Some(f) = san.from_file() {
                s.push((b'a' + f) as char);
            }
            if let Some(r) = san.from_rank() {
                s.push((b'1' + r) as char);
            }
            if san.capture() {
                s.push('x');
            }
            if let Some(to) = san.to() {
                s.push_str(&to.to_string());
            }
            if let Some(p) = san.promotion() {
                s.push('=');
                s.push(p.char());
            }
        }
    }
    match san.check() {
        Check::None => {}
        Check::Check => s.push('+'),
        Check::Mate => s.push('#'),
    }
    s
}
