//! The PGN visitor: the events a [`Parser`](super::Parser) raises, and what they carry.

use crate::control::Control;
use crate::error::{Diagnostic, Severity};
use crate::position::Position;

use super::nag::{Nag, Outcome};
use super::raw::{RawComment, RawTag};
use super::san::San;

/// Where an event happened: its position in the stream and in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    /// Position of the event's first byte.
    pub pos: Position,
    /// Index of the game in the stream, 0-based.
    pub game: u64,
    /// Variation depth: 0 for the main line (and for game-level events), 1 inside `( … )`, …
    pub depth: u32,
    /// The ply of the last move played on the current line, counted from the start of the game
    /// (a `FEN` tag moves the start: `… b - - 0 14` makes Black's 14th move ply 27). 0 before
    /// the first move. For [`Visitor::on_move`] it is the move's own ply.
    pub ply: u32,
}

impl Context {
    /// Whether the event is on the main line or at game level (`depth == 0`): the game's own
    /// `on_tree` / `on_tree_end`, its tags, and the moves, comments and result outside every
    /// variation.
    ///
    /// ```
    /// use kifu::{Control, pgn::{self, Context, Move, Visitor}};
    /// struct Main(Vec<String>);
    /// impl Visitor for Main {
    ///     fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
    ///         if ctx.is_main_line() {
    ///             self.0.push(String::from_utf8_lossy(mv.text).into_owned());
    ///         }
    ///         Control::Continue
    ///     }
    /// }
    /// let mut v = Main(Vec::new());
    /// pgn::parse(b"1. e4 (1. d4 d5) 1... e5 *", &mut v);
    /// assert_eq!(v.0, ["e4", "e5"]);
    /// ```
    #[inline]
    pub fn is_main_line(&self) -> bool {
        self.depth == 0
    }

    /// Whether the event is inside a variation `( … )` (`depth >= 1`): the opposite of
    /// [`is_main_line`](Self::is_main_line). From `on_tree`, [`Control::Skip`] then skips it.
    ///
    /// ```
    /// use kifu::{Control, pgn::{self, Context, Move, Visitor}};
    /// struct Main(usize);
    /// impl Visitor for Main {
    ///     fn on_tree(&mut self, ctx: &Context) -> Control {
    ///         if ctx.in_variation() { Control::Skip } else { Control::Continue }
    ///     }
    ///     fn on_move(&mut self, _: &Context, _: &Move<'_>) -> Control {
    ///         self.0 += 1;
    ///         Control::Continue
    ///     }
    /// }
    /// let mut v = Main(0);
    /// pgn::parse(b"1. e4 (1. d4 d5) 1... e5 *", &mut v);
    /// assert_eq!(v.0, 2);
    /// ```
    #[inline]
    pub fn in_variation(&self) -> bool {
        self.depth > 0
    }

    /// The move reference of the last move played (`14b` = Black's 14th move), or `None` before
    /// the first move of the line.
    pub fn last_move(&self) -> Option<MoveRef> {
        MoveRef::from_ply(self.ply)
    }
}

/// A move reference: the move number and the side that played it, written `14b` (Black's 14th
/// move) or `6w` (White's 6th move).
///
/// ```
/// use kifu::pgn::MoveRef;
/// assert_eq!(MoveRef::from_ply(28).unwrap().to_string(), "14b");
/// assert_eq!(MoveRef::from_ply(11).unwrap().to_string(), "6w");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveRef {
    /// The full move number, 1-based.
    pub number: u32,
    /// Whether Black played it.
    pub black: bool,
}

impl MoveRef {
    /// The reference of ply `ply` (1 = White's first move); `None` for ply 0.
    pub fn from_ply(ply: u32) -> Option<MoveRef> {
        if ply == 0 {
            return None;
        }
        Some(MoveRef {
            number: ply.div_ceil(2),
            black: ply.is_multiple_of(2),
        })
    }
}

impl core::fmt::Display for MoveRef {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.number, if self.black { 'b' } else { 'w' })
    }
}

/// A tag pair, `[Name "value"]`.
///
/// ```text
/// [White "Kasparov, Garry"]
///  -----  ---------------
///  name   value (raw)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    /// The tag name.
    pub name: &'a [u8],
    /// The value, escapes unresolved; see [`RawTag::decode`].
    pub value: RawTag<'a>,
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move<'a> {
    /// The move parsed for syntax.
    pub san: San,
    /// The move as written, with its check marker, without suffix annotations (`Nf3+`).
    pub text: &'a [u8],
    /// The whole token as written, suffix annotations included (`Nf3+!?`). A suffix also arrives
    /// as its own [`Visitor::on_nag`] event right after the move.
    pub raw: &'a [u8],
}

/// The three kinds of PGN comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ … }`; may span lines; does not nest.
    Brace,
    /// `; …` to the end of the line.
    Line,
    /// `% …`: an escape line (a `%` in column 1); private data, outside the game's content.
    Escape,
}

/// A comment, or one piece of a long one.
///
/// A comment longer than [`Config::max_comment_piece`](super::Config::max_comment_piece) arrives
/// in pieces of at most that many bytes, cut on UTF-8 character boundaries: `first` is set on the
/// first piece, `last` on the last; a short comment is one piece with both set. The pieces
/// depend only on the text, never on how the input was chunked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// Which kind of comment.
    pub kind: CommentKind,
    /// The text of this piece.
    pub text: RawComment<'a>,
    /// This is the first piece of the comment.
    pub first: bool,
    /// This is the last piece of the comment.
    pub last: bool,
}

/// How a NAG was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NagForm {
    /// `$n`.
    Numeric,
    /// A suffix glued to a move (`e4!?`).
    Suffix,
    /// A free-standing glyph (`e4 !?`, `±`).
    Glyph,
}

/// What went wrong, for [`Visitor::on_error`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// Text that is no PGN token (`oh?`, `the end`); consecutive ones on a line are reported once.
    #[error("unexpected text")]
    UnexpectedText,
    /// A `}` outside any comment.
    #[error("`}}` without `{{`")]
    StrayBrace,
    /// A `{` comment that runs to end of input, or into the tags of the next game.
    #[error("comment not closed: `}}` not found before the end")]
    UnterminatedComment,
    /// A tag value whose closing quote is missing on its line.
    #[error("tag value not closed: `\"` missing before end of line")]
    UnterminatedTag,
    /// A `[` that does not start a well-formed tag pair.
    #[error("malformed tag pair")]
    MalformedTag,
    /// Quotes inside a tag value that are not escaped (`"The "Big" Open"`); the value is kept.
    #[error("unescaped `\"` inside a tag value")]
    UnescapedQuote,
    /// A `(` whose `)` never came before the game ended.
    #[error("variation not closed before the end of the game")]
    UnclosedVariation,
    /// A `)` without `(`.
    #[error("`)` without `(`")]
    StrayParen,
    /// A variation before any move it could replace.
    #[error("variation before the first move")]
    VariationBeforeMove,
    /// A move number that does not match the move that follows.
    #[error("move number does not match the move sequence")]
    BadMoveNumber,
    /// `$n` with n above 255.
    #[error("NAG out of range (0-255)")]
    NagOutOfRange,
    /// `$` not followed by digits.
    #[error("`$` without a number")]
    BadNag,
    /// A move and a result written as one token (`Qh5#1-0`: by the standard one symbol, since
    /// `#`, digits and `-` continue a symbol); read as the move and the result.
    #[error("move and result run together without a space")]
    MissingSpace,
    /// A token (or tag line, or comment piece) longer than the configured limit.
    #[error("token longer than the configured limit")]
    TokenTooLong,
    /// Variations nested deeper than the configured limit; the deeper ones are skipped.
    #[error("variations nested deeper than the configured limit")]
    TooDeep,
    /// A tag value that is not UTF-8 (an old Latin-1 file, say); the bytes are kept.
    #[error("tag value is not valid UTF-8")]
    InvalidUtf8,
    /// Never raised by the parser: a game grew past the limit of the DOM builder
    /// ([`GameBuilder::with_max_game_bytes`](super::GameBuilder::with_max_game_bytes)); the
    /// rest of it was skipped (or, before the first game, the rest of the problems there were
    /// dropped). The game is delivered as far as it was built.
    #[error("game too large for the DOM: the rest was skipped")]
    GameTooLarge,
}

impl ErrorKind {
    /// A stable identifier, used as `kind` in `kifu json` and `kifu check`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedText => "unexpected_text",
            ErrorKind::StrayBrace => "stray_brace",
            ErrorKind::UnterminatedComment => "unterminated_comment",
            ErrorKind::UnterminatedTag => "unterminated_tag",
            ErrorKind::MalformedTag => "malformed_tag",
            ErrorKind::UnescapedQuote => "unescaped_quote",
            ErrorKind::UnclosedVariation => "unclosed_variation",
            ErrorKind::StrayParen => "stray_paren",
            ErrorKind::VariationBeforeMove => "variation_before_move",
            ErrorKind::BadMoveNumber => "bad_move_number",
            ErrorKind::NagOutOfRange => "nag_out_of_range",
            ErrorKind::BadNag => "bad_nag",
            ErrorKind::MissingSpace => "missing_space",
            ErrorKind::TokenTooLong => "token_too_long",
            ErrorKind::TooDeep => "too_deep",
            ErrorKind::InvalidUtf8 => "invalid_utf8",
            ErrorKind::GameTooLarge => "game_too_large",
        }
    }

    /// How bad this kind of problem is.
    pub fn severity(self) -> Severity {
        match self {
            ErrorKind::UnescapedQuote | ErrorKind::InvalidUtf8 | ErrorKind::MissingSpace => {
                Severity::Warning
            }
            _ => Severity::Error,
        }
    }
}

/// A located PGN problem: kind, severity, offending text, position, game and move reference.
pub type Error<'a> = Diagnostic<'a, ErrorKind, Option<MoveRef>>;

/// One line: `LINE:COLUMN: SEVERITY: MESSAGE: `text` (game N, move M)`, the game counted from
/// 1, the move where one was played before the problem; control characters of the text are
/// escaped. A tool prefixes its file name (`FILE:`) to get the usual `FILE:LINE:COLUMN:` form.
///
/// ```
/// use kifu::{Control, pgn::{self, Error, Visitor}};
/// struct Lines(Vec<String>);
/// impl Visitor for Lines {
///     fn on_error(&mut self, e: &Error<'_>) -> Control {
///         self.0.push(format!("game.pgn:{e}"));
///         Control::Continue
///     }
/// }
/// let mut v = Lines(Vec::new());
/// pgn::parse(b"1. e4 e5 2. Nf3 } 1-0", &mut v);
/// assert!(v.0[0].starts_with("game.pgn:1:17: "));
/// assert!(v.0[0].ends_with("(game 1, move 2w)"));
/// ```
impl<K: core::fmt::Display> core::fmt::Display for Diagnostic<'_, K, Option<MoveRef>> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.write_line(f, None, "move ")
    }
}

#[cfg(feature = "std")]
impl<K: core::fmt::Debug + core::fmt::Display> std::error::Error
    for Diagnostic<'_, K, Option<MoveRef>>
{
}

/// Receives the events of a PGN stream.
///
/// Every method has a default that does nothing and returns [`Control::Continue`], so a visitor
/// implements only what it needs.
///
/// # Variations are visited by default
///
/// **Moves inside variations arrive through the same [`on_move`](Visitor::on_move) as main-line
/// moves.** Tell them apart with [`Context::is_main_line`] (`depth == 0`), or return
/// [`Control::Skip`] from [`on_tree`](Visitor::on_tree) when [`Context::in_variation`] to skip
/// variations altogether (then only their `on_tree_end` arrives).
///
/// # Flow
///
/// For each game:
/// 1. `on_tree` (depth 0): the game starts.
/// 2. `on_property`* for the tag pairs, `on_comment`* for comments before them.
/// 3. `on_tags_end`: always, also for a game without tags.
/// 4. The movetext: `on_move`, `on_nag`, `on_comment`, `on_tree` / `on_tree_end` (depth ≥ 1)
///    for each variation, `on_result`.
/// 5. `on_tree_end` (depth 0): the game ends.
///
/// After the last game, [`on_end`](Visitor::on_end) (from
/// [`Parser::finish`](super::Parser::finish) or [`parse`](super::parse)): the input is over.
///
/// `on_error` can come at any point, and `%` escape lines arrive as `on_comment` inside games
/// (escape lines between games are dropped). A game ends at its result (comments after the
/// result still belong to it), at the next tag pair, or at the end of input: a game without a
/// result or without a blank line after it is never lost.
///
/// ```
/// use kifu::{Control, pgn::{self, Context, Move, Visitor}};
///
/// #[derive(Default)]
/// struct MainLine(Vec<String>);
///
/// impl Visitor for MainLine {
///     fn on_tree(&mut self, ctx: &Context) -> Control {
///         if ctx.in_variation() { Control::Skip } else { Control::Continue }
///     }
///     fn on_move(&mut self, _ctx: &Context, mv: &Move<'_>) -> Control {
///         self.0.push(String::from_utf8_lossy(mv.text).into_owned());
///         Control::Continue
///     }
/// }
///
/// let mut v = MainLine::default();
/// pgn::parse(b"1. e4 (1. d4 d5) 1... e5 2. Nf3 *", &mut v);
/// assert_eq!(v.0, ["e4", "e5", "Nf3"]);
/// ```
#[allow(unused_variables)]
pub trait Visitor {
    /// A game (`ctx.depth == 0`) or a variation (`ctx.depth >= 1`) begins. For a variation,
    /// [`Control::Skip`] skips it.
    fn on_tree(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// A game or a variation ends. `ctx.depth` matches its `on_tree`.
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// A tag pair.
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        Control::Continue
    }

    /// The tag section is over (raised for every game, also one without tags).
    /// [`Control::Skip`] here skips the movetext: the cheap way to read headers only.
    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// A move (including null moves).
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        Control::Continue
    }

    /// A NAG: `$n`, a suffix like `!?`, or a free-standing glyph.
    fn on_nag(&mut self, ctx: &Context, nag: Nag, form: NagForm) -> Control {
        Control::Continue
    }

    /// A comment, or a piece of a long one (see [`Comment`]).
    fn on_comment(&mut self, ctx: &Context, comment: &Comment<'_>) -> Control {
        Control::Continue
    }

    /// A termination marker. At depth 0 it is the game's result; inside a variation it is
    /// reported with its depth and ends nothing.
    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        Control::Continue
    }

    /// A problem in the input, located; parsing goes on after it.
    fn on_error(&mut self, error: &Error<'_>) -> Control {
        Control::Continue
    }

    /// The input is over: raised once by [`Parser::finish`](super::Parser::finish) (and so by
    /// [`parse`](super::parse)) after the last game was closed, also when the input held
    /// none. A visitor that collects results can flush them here, so that nothing waits for a
    /// call of its own after the parse.
    fn on_end(&mut self) {}
}

impl<V: Visitor + ?Sized> Visitor for &mut V {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        (**self).on_tree(ctx)
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        (**self).on_tree_end(ctx)
    }
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        (**self).on_property(ctx, tag)
    }
    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        (**self).on_tags_end(ctx)
    }
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        (**self).on_move(ctx, mv)
    }
    fn on_nag(&mut self, ctx: &Context, nag: Nag, form: NagForm) -> Control {
        (**self).on_nag(ctx, nag, form)
    }
    fn on_comment(&mut self, ctx: &Context, comment: &Comment<'_>) -> Control {
        (**self).on_comment(ctx, comment)
    }
    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        (**self).on_result(ctx, outcome)
    }
    fn on_error(&mut self, error: &Error<'_>) -> Control {
        (**self).on_error(error)
    }
    fn on_end(&mut self) {
        (**self).on_end()
    }
}

#[cfg(test)]
mod display_tests {
    extern crate std;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::{Error, Visitor};
    use crate::control::Control;

    struct Lines(Vec<String>);
    impl Visitor for Lines {
        fn on_error(&mut self, e: &Error<'_>) -> Control {
            self.0.push(e.to_string());
            Control::Continue
        }
    }

    #[test]
    fn one_line_each() {
        let mut v = Lines(Vec::new());
        crate::pgn::parse(b"1. e4 e5 2. Nf3 } 1-0", &mut v);
        assert_eq!(v.0.len(), 1, "{:?}", v.0);
        let l = &v.0[0];
        assert!(l.starts_with("1:17: "), "{l}");
        assert!(l.ends_with("(game 1, move 2w)"), "{l}");
        assert!(l.contains("`}`"), "{l}");
        assert!(!l.contains('\n'));
    }

    #[cfg(feature = "std")]
    #[test]
    fn is_an_error() {
        fn takes(_: &dyn std::error::Error) {}
        let mut seen = false;
        struct One<'a>(&'a mut bool);
        impl Visitor for One<'_> {
            fn on_error(&mut self, e: &Error<'_>) -> Control {
                takes(e);
                *self.0 = true;
                Control::Continue
            }
        }
        crate::pgn::parse(b"1. e4 }", &mut One(&mut seen));
        assert!(seen);
    }
}
