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
//! assert_eq!(game.moves[2].nags, [Nag::SPECULATIVE_MOVE]);
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
    /// How many problems the builder left out of [`errors`](Self::errors) because they did not
    /// fit its limit ([`GameBuilder::with_max_game_bytes`]); `errors` then holds the
    /// `game_too_large` that says where the cut came. Serialized as `errors_dropped`, only when
    /// it is not 0 (as `kifu json` writes it).
    pub errors_dropped: u64,
}

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
    pub text: String,
    /// The NAGs after the move, suffixes (`!?`) as their numbers (`$5`).
    pub nags: Vec<Nag>,
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
/// assert_eq!(e.to_string(), "1:7: move 1w: unexpected text: `oh?`");
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
}

impl core::fmt::Display for GameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.pos)?;
        if let Some(at) = self.at {
            write!(f, ": move {at}")?;
        }
        if self.severity == Severity::Warning {
            f.write_str(": warning")?;
        }
        write!(f, ": {}", self.kind)?;
        if !self.text.is_empty() {
            write!(
                f,
                ": `{}`{}",
                self.text,
                if self.truncated { "…" } else { "" }
            )?;
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
    /// error at its size, plus the bytes of its texts. Lengths are counted, not capacities, so
    /// the allocation can be up to about twice as much. This is what the builder's limit
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

/// What [`Game::estimated_bytes`] counts per item.
const TAG_BYTES: usize = core::mem::size_of::<(String, String)>();
const STRING_BYTES: usize = core::mem::size_of::<String>();
const NODE_BYTES: usize = core::mem::size_of::<Node>();
const NAG_BYTES: usize = core::mem::size_of::<Nag>();
const VARIATION_BYTES: usize = core::mem::size_of::<Variation>();
const ERROR_BYTES: usize = core::mem::size_of::<GameError>();

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
            text: san_text(san),
            nags: Vec::new(),
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
            text: text.to_string(),
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

// ----- the builder ----------------------------------------------------------------------------

/// What a [`GameBuilder`] keeps of each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Keep {
    /// Everything: tags, moves, variations, comments, NAGs, result, errors.
    #[default]
    All,
    /// The main line only: variations are skipped by the parser ([`Control::Skip`]), so they
    /// cost almost nothing and their errors are not reported.
    MainLine,
    /// The tags only: the movetext is skipped ([`Control::SkipGame`] after the tags), the
    /// cheap way to index a collection. [`Game::result`] stays `None` (see
    /// [`Game::result_tag`]), and only the errors of the tag section are kept.
    Headers,
}

/// One open line of moves while a game is being built.
#[derive(Debug, Default)]
struct OpenLine {
    moves: Vec<Node>,
    /// Comments before the line's first move.
    before: Vec<String>,
}

/// A [`Visitor`] that builds [`Game`]s.
///
/// Finished games wait in a queue: take them with [`GameBuilder::pop`] or
/// [`GameBuilder::take_games`]. With [`stop_at_game_end`](GameBuilder::stop_at_game_end) the
/// builder returns [`Control::Stop`] at the end of each game, so that a driver can hand the games
/// out one at a time: that is what [`Games`] and [`ReadGames`] do.
///
/// ```
/// use kifu::pgn::{self, GameBuilder, Keep};
///
/// let pgn = b"[Event \"A\"]\n\n1. e4 (1. d4) e5 *\n\n[Event \"B\"]\n\n1. c4 *\n";
/// let mut builder = GameBuilder::new();
/// pgn::parse(pgn, &mut builder);
/// let games = builder.take_games();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].moves[0].variations.len(), 1);
///
/// let mut headers = GameBuilder::with_keep(Keep::Headers);
/// pgn::parse(pgn, &mut headers);
/// let games = headers.take_games();
/// assert_eq!(games[1].event(), Some("B"));
/// assert!(games[1].moves.is_empty());
/// ```
#[derive(Debug)]
pub struct GameBuilder {
    keep: Keep,
    stop: bool,
    /// The game being built, if one is open.
    game: Option<Game>,
    /// The open lines: the main line, then one per open variation.
    lines: Vec<OpenLine>,
    /// The comment being assembled from its pieces.
    comment: Vec<u8>,
    done: VecDeque<Game>,
    /// The limit of a game's [`Game::estimated_bytes`].
    max_game_bytes: usize,
    /// The estimate of what the open game holds, besides the errors it started with.
    bytes: usize,
    /// The estimate of the errors the open game started with (met before it).
    before: usize,
    /// The open game reached the limit: the rest of it is skipped.
    full: bool,
    /// Errors met before the first game, for it.
    pending: Vec<GameError>,
    /// The estimate of `pending`.
    pending_bytes: usize,
    /// `pending` reached the limit: the rest are dropped.
    pending_full: bool,
    /// How many were dropped.
    pending_dropped: u64,
}

impl Default for GameBuilder {
    fn default() -> Self {
        GameBuilder {
            keep: Keep::All,
            stop: false,
            game: None,
            lines: Vec::new(),
            comment: Vec::new(),
            done: VecDeque::new(),
            max_game_bytes: GameBuilder::DEFAULT_MAX_GAME_BYTES,
            bytes: 0,
            before: 0,
            full: false,
            pending: Vec::new(),
            pending_bytes: 0,
            pending_full: false,
            pending_dropped: 0,
        }
    }
}

impl GameBuilder {
    /// A builder that keeps everything.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    /// A builder that keeps what `keep` says.
    pub fn with_keep(keep: Keep) -> GameBuilder {
        GameBuilder {
            keep,
            ..GameBuilder::default()
        }
    }

    /// A builder for the tags only: [`Keep::Headers`].
    pub fn headers_only() -> GameBuilder {
        GameBuilder::with_keep(Keep::Headers)
    }

    /// A builder for the main line only: [`Keep::MainLine`].
    pub fn main_line_only() -> GameBuilder {
        GameBuilder::with_keep(Keep::MainLine)
    }

    /// The default of [`with_max_game_bytes`](Self::with_max_game_bytes): 64 MiB. The largest
    /// game of the corpus (157 KB of PGN) estimates at well under a megabyte.
    pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

    /// Bounds the memory of each game: the limit of its
    /// [`estimated_bytes`](Game::estimated_bytes) (`usize::MAX`: no limit).
    ///
    /// Bad input must not exhaust memory: a "game" of gigabytes of movetext without a tag or a
    /// result (a broken export, a file of another format) would otherwise grow without bound.
    /// When the next tag, move, NAG, variation, comment (piece) or error would take a game past
    /// the limit, the builder adds an [`ErrorKind::GameTooLarge`] error (`game_too_large`, at
    /// the position of what did not fit) and answers [`Control::SkipGame`]: the parser skips to
    /// the end of the game, and the game is delivered as far as it was built; the following
    /// games are read as usual. Problems before the first game (which go to it, see
    /// [`Game::errors`]) have a budget of their own, and past it are dropped with one
    /// `game_too_large` saying so. A game's estimate stays within the limit plus two errors, or
    /// twice that with problems before it.
    ///
    /// ```
    /// use kifu::pgn::{Config, ErrorKind, GameBuilder, Games};
    /// let mut pgn = b"[Event \"long\"]\n\n".to_vec();
    /// for _ in 0..1000 {
    ///     pgn.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
    /// }
    /// pgn.extend_from_slice(b"1/2-1/2\n\n[Event \"next\"]\n\n1. e4 *\n");
    /// let builder = GameBuilder::new().with_max_game_bytes(10_000);
    /// let games: Vec<_> = Games::with_builder(&pgn, Config::default(), builder).collect();
    /// assert_eq!(games.len(), 2);
    /// assert!(games[0].moves.len() < 4000);
    /// assert_eq!(games[0].errors[0].kind, ErrorKind::GameTooLarge);
    /// assert_eq!(games[0].errors[0].kind.code(), "game_too_large");
    /// assert_eq!(games[0].result, None); // skipped with the rest
    /// assert_eq!(games[1].event(), Some("next"));
    /// ```
    pub fn with_max_game_bytes(mut self, max: usize) -> GameBuilder {
        self.max_game_bytes = max;
        self
    }

    /// The limit of each game's [`estimated_bytes`](Game::estimated_bytes).
    pub fn max_game_bytes(&self) -> usize {
        self.max_game_bytes
    }

    /// Whether to return [`Control::Stop`] at the end of each game (default: no).
    pub fn stop_at_game_end(mut self, stop: bool) -> GameBuilder {
        self.stop = stop;
        self
    }

    /// What the builder keeps.
    pub fn keep(&self) -> Keep {
        self.keep
    }

    /// The problems met outside any game and not yet given to one: after the input ended, those
    /// of an input that held no game at all (text that is not PGN), which no [`Game`] carries.
    ///
    /// ```
    /// use kifu::pgn::{Games, Reader, GameBuilder};
    /// let mut b = GameBuilder::new();
    /// Reader::new(&b"no game here\n"[..]).read_all(&mut b).unwrap();
    /// assert!(b.pop().is_none());
    /// assert_eq!(b.unclaimed_errors().len(), 1);
    /// ```
    pub fn unclaimed_errors(&self) -> &[GameError] {
        &self.pending
    }

    /// The oldest finished game not yet taken.
    pub fn pop(&mut self) -> Option<Game> {
        self.done.pop_front()
    }

    /// Every finished game not yet taken, oldest first.
    pub fn take_games(&mut self) -> Vec<Game> {
        self.done.drain(..).collect()
    }

    /// Whether `extra` more bytes fit the open game. If not, the game is full: the error that
    /// says so is added (once). `at`: the last move before the item.
    fn fits(&mut self, pos: Position, at: Option<MoveRef>, extra: usize) -> bool {
        if self.full {
            return false;
        }
        if self.bytes.saturating_add(extra) <= self.max_game_bytes {
            self.bytes += extra;
            return true;
        }
        self.full = true;
        self.comment.clear();
        if let Some(game) = self.game.as_mut() {
            let e = too_large(pos, at);
            self.bytes += error_bytes(&e);
            game.errors.push(e);
        }
        false
    }

    fn line(&mut self) -> &mut OpenLine {
        if self.lines.is_empty() {
            self.lines.push(OpenLine::default());
        }
        let n = self.lines.len();
        &mut self.lines[n - 1]
    }
}

/// The error that says a game reached the limit.
fn too_large(pos: Position, at: Option<MoveRef>) -> GameError {
    GameError {
        kind: ErrorKind::GameTooLarge,
        severity: ErrorKind::GameTooLarge.severity(),
        text: String::new(),
        truncated: false,
        pos,
        at,
    }
}

/// The answer to the parser for an item of a game.
fn go_on(kept: bool) -> Control {
    if kept {
        Control::Continue
    } else {
        Control::SkipGame
    }
}

impl Visitor for GameBuilder {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.lines.clear();
            let mut game = Game {
                index: ctx.game,
                offset: ctx.pos.offset,
                ..Game::default()
            };
            // problems before the first game go to it
            game.errors = core::mem::take(&mut self.pending);
            game.errors_dropped = core::mem::take(&mut self.pending_dropped);
            self.before = core::mem::take(&mut self.pending_bytes);
            self.pending_full = false;
            self.bytes = 0;
            self.full = false;
            self.game = Some(game);
        }
        self.lines.push(OpenLine::default());
        if ctx.depth > 0 && self.full {
            return Control::SkipGame;
        }
        if ctx.depth > 0 && self.keep != Keep::All {
            return Control::Skip;
        }
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth > 0 {
            let mut kept = true;
            if self.lines.len() > 1 {
                let line = self.lines.pop().expect("a variation is open");
                let parent = self.line().moves.last_mut().is_some();
                if self.keep == Keep::All && parent {
                    // a full game keeps the variations open when it was cut (at most one per
                    // level): they hold what was read of them
                    if self.full {
                        self.bytes += VARIATION_BYTES;
                    } else {
                        kept = self.fits(ctx.pos, ctx.last_move(), VARIATION_BYTES);
                    }
                    if kept {
                        let mut var = Variation {
                            moves: line.moves,
                            comments: Vec::new(),
                        };
                        if var.moves.is_empty() {
                            var.comments = line.before;
                        }
                        if let Some(parent) = self.line().moves.last_mut() {
                            parent.variations.push(var);
                        }
                    }
                }
            }
            return go_on(kept);
        }
        let mut game = self.game.take().unwrap_or_default();
        let main = core::mem::take(&mut self.lines).into_iter().next();
        if let Some(main) = main {
            game.moves = main.moves;
            game.comments = main.before;
        }
        self.comment.clear();
        self.done.push_back(game);
        if self.stop {
            Control::Stop
        } else {
            Control::Continue
        }
    }

    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        if self.game.is_none() {
            return Control::Continue;
        }
        let name = String::from_utf8_lossy(tag.name).into_owned();
        let value = tag.value.decode_utf8_lossy().into_owned();
        let kept = self.fits(ctx.pos, None, TAG_BYTES + name.len() + value.len());
        if let (true, Some(game)) = (kept, self.game.as_mut()) {
            game.tags.push((name, value));
        }
        go_on(kept)
    }

    fn on_tags_end(&mut self, _: &Context) -> Control {
        if self.keep == Keep::Headers || self.full {
            Control::SkipGame
        } else {
            Control::Continue
        }
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        let text = String::from_utf8_lossy(mv.text).into_owned();
        let before = MoveRef::from_ply(ctx.ply.saturating_sub(1));
        if !self.fits(ctx.pos, before, NODE_BYTES + text.len()) {
            return Control::SkipGame;
        }
        let line = self.line();
        let comments_before = if ctx.depth > 0 && line.moves.is_empty() {
            core::mem::take(&mut line.before)
        } else {
            Vec::new()
        };
        line.moves.push(Node {
            san: mv.san,
            text,
            nags: Vec::new(),
            comments_before,
            comments: Vec::new(),
            variations: Vec::new(),
        });
        Control::Continue
    }

    fn on_nag(&mut self, ctx: &Context, nag: Nag, _: NagForm) -> Control {
        if self.line().moves.is_empty() {
            return go_on(!self.full);
        }
        if !self.fits(ctx.pos, ctx.last_move(), NAG_BYTES) {
            return Control::SkipGame;
        }
        if let Some(node) = self.line().moves.last_mut() {
            node.nags.push(nag);
        }
        Control::Continue
    }

    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        if c.kind == CommentKind::Escape {
            return Control::Continue;
        }
        if self.full {
            return Control::SkipGame;
        }
        if c.first {
            self.comment.clear();
        }
        // the pieces so far count against the limit, so that one endless comment cannot grow
        // without bound
        let so_far = STRING_BYTES + self.comment.len() + c.text.as_bytes().len();
        if self.bytes.saturating_add(so_far) > self.max_game_bytes {
            self.fits(ctx.pos, ctx.last_move(), so_far);
            return Control::SkipGame;
        }
        self.comment.extend_from_slice(c.text.as_bytes());
        if c.last {
            let text = String::from_utf8_lossy(&self.comment).into_owned();
            self.comment.clear();
            if !self.fits(ctx.pos, ctx.last_move(), STRING_BYTES + text.len()) {
                return Control::SkipGame;
            }
            let line = self.line();
            match line.moves.last_mut() {
                Some(node) => node.comments.push(text),
                None => line.before.push(text),
            }
        }
        Control::Continue
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        if ctx.depth == 0 {
            if let Some(game) = self.game.as_mut() {
                game.result = Some(outcome);
            }
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        let owned = GameError::from_event(e);
        let size = error_bytes(&owned);
        if self.game.is_none() {
            // before the first game (the only place outside a game the parser reports
            // problems): for it, within a budget of their own
            if self.pending_bytes + size <= self.max_game_bytes {
                self.pending_bytes += size;
                self.pending.push(owned);
            } else {
                self.pending_dropped += 1;
                if !self.pending_full {
                    self.pending_full = true;
                    let marker = too_large(e.pos, None);
                    self.pending_bytes += error_bytes(&marker);
                    self.pending.push(marker);
                }
            }
            return Control::Continue;
        }
        // A full game keeps only what the parser reports while skipping (a comment open at the
        // end of input); other problems may come until the next event answers `SkipGame`, since
        // the parser takes no `SkipGame` from `on_error`.
        let kept = if self.full {
            e.kind == ErrorKind::UnterminatedComment
        } else {
            self.fits(e.pos, e.at, size)
        };
        if kept {
            if self.full {
                self.bytes += size;
            }
            if let Some(game) = self.game.as_mut() {
                game.errors.push(owned);
            }
        } else if let Some(game) = self.game.as_mut() {
            game.errors_dropped += 1;
        }
        Control::Continue
    }
}

// ----- iterators ------------------------------------------------------------------------------

/// The games of a PGN text held in memory, one at a time.
///
/// The iterator holds one game (and at most the start of the next) besides the parser's bounded
/// state, however long the input.
///
/// ```
/// use kifu::pgn::Games;
/// let pgn = b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n";
/// let whites: Vec<String> = Games::new(pgn).map(|g| g.moves[0].text.clone()).collect();
/// assert_eq!(whites, ["e4", "d4"]);
/// ```
#[derive(Debug)]
pub struct Games<'a> {
    parser: Parser,
    builder: GameBuilder,
    rest: &'a [u8],
    finished: bool,
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

    use super::super::reader::Reader;
    use super::{Config, Game, GameBuilder};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn;

    fn one(pgn: &[u8]) -> Game {
        let mut games = Games::new(pgn);
        let g = games.next().expect("a game");
        assert!(games.next().is_none());
        g
    }

    #[test]
    fn comments_go_where_kifu_json_puts_them() {
        let g = one(b"{pre} [Event \"x\"] {between}\n\n{first} 1. e4 $1 {after} (1. d4 {d} $2) {late} e5 ({v} 1... c5) ( {only} ) *");
        assert_eq!(g.comments, ["pre", "between", "first"]);
        assert_eq!(g.moves[0].comments, ["after", "late"]);
        assert_eq!(g.moves[0].nags, [Nag(1)]);
        assert_eq!(g.moves[0].variations[0].moves[0].comments, ["d"]);
        assert_eq!(g.moves[0].variations[0].moves[0].nags, [Nag(2)]);
        let e5 = &g.moves[1];
        assert_eq!(e5.variations[0].moves[0].comments_before, ["v"]);
        assert!(e5.variations[1].moves.is_empty());
        assert_eq!(e5.variations[1].comments, ["only"]);
        assert_eq!(g.result, Some(Outcome::Unknown));
    }

    #[test]
    fn long_comments_are_joined() {
        let text = "word ".repeat(3000);
        let pgn = format!("1. e4 {{{text}}} *");
        assert_eq!(one(pgn.as_bytes()).moves[0].comments, [text]);
    }

    #[test]
    fn builder_variants() {
        let pgn = b"[Event \"e\"]\n\n1. e4 (1. d4 oh (1. c4)) e5 ?? 1-0\n\n1. Nf3 *";
        let mut b = GameBuilder::main_line_only();
        pgn::parse(pgn, &mut b);
        let games = b.take_games();
        assert_eq!(games.len(), 2);
        assert!(games[0].moves[0].variations.is_empty());
        assert!(games[0].errors.is_empty());
        let mut b = GameBuilder::headers_only();
        pgn::parse(pgn, &mut b);
        let games = b.take_games();
        assert_eq!(games[0].event(), Some("e"));
        assert!(games[0].moves.is_empty() && games[0].result.is_none());
    }

    #[test]
    fn iterator_resumes_exactly() {
        // a game ending at a tag, at a movetext token, and at the end of input
        let pgn = b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 1-0 1. c4 0-1";
        let games: Vec<Game> = Games::new(pgn).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(games[2].moves[0].text, "c4");
        assert_eq!(games[1].index, 1);
        assert_eq!(games[1].offset, 20);
        let mut log = pgn::EventLog::default();
        pgn::parse(pgn, &mut log);
        assert_eq!(log.games(), 3);
    }

    #[test]
    fn deep_trees_drop_and_compare_without_recursion() {
        let mut line = vec![Node::parse("e4").unwrap()];
        for _ in 0..200_000 {
            let mut n = Node::parse("e4").unwrap();
            n.variations.push(Variation::from_moves(line));
            line = vec![n];
        }
        let game = Game {
            moves: line,
            ..Game::new()
        };
        assert!(game.same_content(&game));
        assert_eq!(game.count_moves(), 200_001);
        drop(game);
    }

    #[test]
    fn san_texts() {
        for s in [
            "e4", "exd8=Q+", "Nbd7", "R1a3", "Qh4xe1#", "O-O-O", "--", "N@f3",
        ] {
            assert_eq!(san_text(San::parse(s.as_bytes()).unwrap()), s);
        }
    }

    /// Builds with `limit`; checks the builder's count against `Game::estimated_bytes`.
    fn limited(pgn: &[u8], limit: usize) -> Vec<Game> {
        let mut b = GameBuilder::new().with_max_game_bytes(limit);
        let mut parser = pgn::Parser::new();
        let mut games = Vec::new();
        let mut rest = pgn;
        loop {
            let status = parser.feed(rest, &mut b);
            while let Some(g) = b.pop() {
                games.push(g);
            }
            match status {
                Status::Stopped { consumed } => rest = &rest[consumed..],
                Status::NeedInput => break,
            }
        }
        parser.finish(&mut b);
        games.extend(b.take_games());
        games
    }

    fn too_large(g: &Game) -> usize {
        g.errors
            .iter()
            .filter(|e| e.kind == ErrorKind::GameTooLarge)
            .count()
    }

    #[test]
    fn the_builder_counts_what_estimated_bytes_counts() {
        for pgn in [
            &b"[Event \"x\"]\n[White \"\xff\"]\n\n{pre} 1. e4 $1 {after} (1. d4 {d} $2 (1. c4 c5) {\xfe}) e5 ({v} 1... c5) ( {only} ) oh 2. Nf3!? *"[..],
            b"1. e4 *",
            b"junk ) } before\n[Event \"x\"]\n1. e4 (1. d4",
            b"",
        ] {
            let mut b = GameBuilder::new();
            crate::pgn::parse(pgn, &mut b);
            let game = b.take_games().pop().unwrap_or_default();
            assert_eq!(b.bytes + b.before, game.estimated_bytes(), "{pgn:?}");
        }
    }

    #[test]
    fn a_game_past_the_limit_is_cut_and_the_next_ones_are_read() {
        let mut pgn = b"[Event \"a\"]\n\n".to_vec();
        for i in 1..=500 {
            pgn.extend_from_slice(format!("{i}. Nf3 {{c}} Nf6 $1 ({i}... e5) ").as_bytes());
        }
        pgn.extend_from_slice(b"1-0\n\n[Event \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n");
        let all = limited(&pgn, usize::MAX);
        assert_eq!(all[0].moves.len(), 1000);
        let limit = all[0].estimated_bytes() / 3;
        let games = limited(&pgn, limit);
        assert_eq!(games.len(), 3);
        let cut = &games[0];
        assert!(cut.moves.len() > 100 && cut.moves.len() < 1000);
        assert!(cut.estimated_bytes() <= limit + ERROR_BYTES);
        assert_eq!(too_large(cut), 1);
        let e = &cut.errors[0];
        assert_eq!(
            (e.kind.code(), e.severity),
            ("game_too_large", Severity::Error)
        );
        assert!(e.pos.offset > 0 && e.at.is_some());
        assert_eq!(cut.result, None);
        assert_eq!(games[1..], all[1..]);
        // the same through the iterators
        let b = GameBuilder::new().with_max_game_bytes(limit);
        assert_eq!(
            Games::with_builder(&pgn, Config::default(), b).collect::<Vec<_>>(),
            games
        );
    }

    #[test]
    fn cut_inside_a_variation_and_inside_a_comment() {
        // the variations open when the game is cut are kept, as far as they were read
        let mut pgn = b"1. e4 (1. d4 ".to_vec();
        for _ in 0..200 {
            pgn.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
        }
        pgn.extend_from_slice(b") e5 *\n1. c4 *");
        let games = limited(&pgn, 5_000);
        assert_eq!(games.len(), 2);
        let v = &games[0].moves[0].variations[0].moves;
        assert!(v.len() > 10 && v.len() < 800, "{}", v.len());
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!(games[1].moves[0].text, "c4");
        // an endless comment: its pieces count
        let mut pgn = b"1. e4 {".to_vec();
        pgn.extend_from_slice(&b"word ".repeat(100_000));
        pgn.extend_from_slice(b"} e5 *\n1. c4 *");
        let games = limited(&pgn, 10_000);
        assert_eq!(games.len(), 2);
        assert!(games[0].moves[0].comments.is_empty());
        assert_eq!(too_large(&games[0]), 1);
        assert!(games[0].estimated_bytes() <= 10_000 + ERROR_BYTES);
    }

    #[test]
    fn problems_before_the_first_game_go_to_it() {
        let games = limited(
            b"junk\n) }\n[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *",
            usize::MAX,
        );
        assert_eq!(games.len(), 2);
        let kinds: Vec<_> = games[0]
            .errors
            .iter()
            .map(|e| (e.kind, e.pos.line))
            .collect();
        assert_eq!(
            kinds,
            [
                (ErrorKind::UnexpectedText, 1),
                (ErrorKind::StrayParen, 2),
                (ErrorKind::StrayBrace, 2)
            ]
        );
        assert!(games[1].errors.is_empty());
        // bounded by a budget of their own: the game keeps its content
        let mut pgn = b"junk\n".repeat(1000);
        pgn.extend_from_slice(b"1. e4 e5 *");
        let games = limited(&pgn, 20 * (ERROR_BYTES + 4));
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].errors.len(), 21);
        assert_eq!(games[0].errors[20].kind, ErrorKind::GameTooLarge);
        // and counted
        assert_eq!(games[0].errors_dropped + 20, 1000);
        // no game: none carries them
        assert!(limited(b"junk\n)", usize::MAX).is_empty());
    }

    #[test]
    fn the_default_limit() {
        assert_eq!(GameBuilder::new().max_game_bytes(), 64 << 20);
        assert_eq!(
            GameBuilder::headers_only().max_game_bytes(),
            GameBuilder::DEFAULT_MAX_GAME_BYTES
        );
    }

    #[test]
    fn starting_ply() {
        let mut g = Game::new();
        assert_eq!(g.starting_ply(), 0);
        g.set_tag("FEN", "8/8/8/8/8/8/8/k6K b - - 0 14");
        assert_eq!(g.starting_ply(), 27);
    }
}

#[cfg(feature = "serde")]
mod ser {
    //! `Serialize` in the shape of `kifu json` (without its `file` key).

    use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

    use super::{Game, GameError, Node, Variation};
    use alloc::string::String;

    /// A line of moves; `before` goes before the first move's own `comments_before`.
    struct Line<'a> {
        moves: &'a [Node],
        before: &'a [String],
    }

    struct NodeSer<'a> {
        node: &'a Node,
        before: &'a [String],
    }

    /// `comments_before`: two slices as one sequence.
    struct Chain<'a>(&'a [String], &'a [String]);

    impl Serialize for Chain<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter().chain(self.1))
        }
    }

    struct Nags<'a>(&'a [super::Nag]);

    impl Serialize for Nags<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter().map(|n| n.0))
        }
    }

    impl Serialize for NodeSer<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let n = self.node;
            let before = !n.comments_before.is_empty() || !self.before.is_empty();
            let mut st = s.serialize_struct("Node", 4 + usize::from(before))?;
            st.serialize_field("san", &n.text)?;
            st.serialize_field("nags", &Nags(&n.nags))?;
            st.serialize_field("comments", &n.comments)?;
            st.serialize_field("variations", &n.variations)?;
            if before {
                st.serialize_field("comments_before", &Chain(self.before, &n.comments_before))?;
            }
            st.end()
        }
    }

    impl Serialize for Line<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(self.moves.len()))?;
            for (i, node) in self.moves.iter().enumerate() {
                let before = if i == 0 { self.before } else { &[] };
                seq.serialize_element(&NodeSer { node, before })?;
            }
            seq.end()
        }
    }

    /// The move of a variation without moves, as `kifu json` writes it.
    struct CommentOnly<'a>(&'a [String]);

    impl Serialize for CommentOnly<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Node", 4)?;
            st.serialize_field("san", &None::<&str>)?;
            st.serialize_field("nags", &[0u8; 0])?;
            st.serialize_field("comments", self.0)?;
            st.serialize_field("variations", &[0u8; 0])?;
            st.end()
        }
    }

    /// `{"san", "nags", "comments", "variations"}` plus `"comments_before"` when there are some,
    /// as in `kifu json`.
    impl Serialize for Node {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            NodeSer {
                node: self,
                before: &[],
            }
            .serialize(s)
        }
    }

    /// An array of moves; a variation without moves but with comments is one move whose `san`
    /// is `null`, as in `kifu json`.
    impl Serialize for Variation {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if self.moves.is_empty() && !self.comments.is_empty() {
                let mut seq = s.serialize_seq(Some(1))?;
                seq.serialize_element(&CommentOnly(&self.comments))?;
                return seq.end();
            }
            Line {
                moves: &self.moves,
                before: &self.comments,
            }
            .serialize(s)
        }
    }

    struct MoveRefSer(Option<super::MoveRef>);

    impl Serialize for MoveRefSer {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self.0 {
                Some(m) => s.collect_str(&m),
                None => s.serialize_none(),
            }
        }
    }

    struct Message(super::ErrorKind);

    impl Serialize for Message {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&self.0)
        }
    }

    /// `{"column", "kind", "line", "message", "move", "offset", "severity", "text"}`: the keys
    /// in the (alphabetical) order `kifu json` writes them.
    impl Serialize for GameError {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Error", 8)?;
            st.serialize_field("column", &self.pos.column)?;
            st.serialize_field("kind", self.kind.code())?;
            st.serialize_field("line", &self.pos.line)?;
            st.serialize_field("message", &Message(self.kind))?;
            st.serialize_field("move", &MoveRefSer(self.at))?;
            st.serialize_field("offset", &self.pos.offset)?;
            st.serialize_field("severity", self.severity.as_str())?;
            st.serialize_field("text", &self.text)?;
            st.end()
        }
    }

    /// The object `kifu json` writes for the game, without its `file` key: `index`, `offset`,
    /// `tags` (`[name, value]` pairs), `comments`, `moves`, `result` (`null` without a
    /// termination marker), `errors`, and `errors_dropped` when it is not 0.
    impl Serialize for Game {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let fields = if self.errors_dropped > 0 { 8 } else { 7 };
            let mut st = s.serialize_struct("Game", fields)?;
            st.serialize_field("index", &self.index)?;
            st.serialize_field("offset", &self.offset)?;
            st.serialize_field("tags", &self.tags)?;
            st.serialize_field("comments", &self.comments)?;
            st.serialize_field(
                "moves",
                &Line {
                    moves: &self.moves,
                    before: &[],
                },
            )?;
            st.serialize_field("result", &self.result.map(|r| r.as_str()))?;
            st.serialize_field("errors", &self.errors)?;
            if self.errors_dropped > 0 {
                st.serialize_field("errors_dropped", &self.errors_dropped)?;
            }
            st.end()
        }
    }
}
