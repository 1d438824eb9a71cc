//! What can go wrong while replaying, located like every other kifu diagnostic.

use kifu::pgn::MoveRef;
use kifu::{Diagnostic, Severity};

use super::FenError;

/// What went wrong while replaying a game, for [`ReplayVisitor::on_replay_error`].
///
/// [`ReplayVisitor::on_replay_error`]: super::ReplayVisitor::on_replay_error
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// No legal move of the position matches the move as written; the rest of its line is not
    /// replayed.
    #[error("illegal move")]
    IllegalMove,
    /// More than one legal move matches (`Nd2` with knights on b1 and f3); the rest of its line
    /// is not replayed.
    #[error("ambiguous move")]
    AmbiguousMove,
    /// The `FEN` tag is not a position that can be played from; the game is not replayed.
    #[error("bad FEN: {0}")]
    BadFen(FenError),
    /// The `Variant` tag names a game other than chess and Chess960 (crazyhouse, atomic,
    /// antichess, …); the game is not replayed.
    #[error("unsupported variant: moves not replayed")]
    UnsupportedVariant,
}

impl ErrorKind {
    /// A stable identifier, as `kind` in `kifu json` and `kifu check`: `illegal_move`,
    /// `ambiguous_move`, `bad_fen`, `unsupported_variant`.
    ///
    /// ```
    /// use kifu_replay::chess::ErrorKind;
    /// assert_eq!(ErrorKind::IllegalMove.code(), "illegal_move");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::IllegalMove => "illegal_move",
            ErrorKind::AmbiguousMove => "ambiguous_move",
            ErrorKind::BadFen(_) => "bad_fen",
            ErrorKind::UnsupportedVariant => "unsupported_variant",
        }
    }

    /// How bad it is: always [`Severity::Error`] (a move, a line or a game could not be
    /// replayed).
    pub fn severity(self) -> Severity {
        Severity::Error
    }
}

/// A located replay problem: kind, the offending text (the move as written, the `FEN` or
/// `Variant` value), its position, the game and the move. Its `Display` is the line `kifu check`
/// prints for every other problem:
/// ``LINE:COLUMN: error: illegal move: `Nf6` (game 1, move 14b)``.
///
/// For `illegal_move` and `ambiguous_move`, `at` is the move itself (its ply as the parser
/// counts it); for `bad_fen` and `unsupported_variant`, `None` (the tag comes before any move).
pub type Error<'a> = Diagnostic<'a, ErrorKind, Option<MoveRef>>;

/// An owned replay problem (from the DOM helper, or copied from an [`Error`] event).
///
/// ```
/// use kifu_replay::chess::{replay_game, ErrorKind};
/// let game = kifu::pgn::Games::new(b"1. e4 e5 2. Ke3 *").next().unwrap();
/// let r = replay_game(&game, &Default::default());
/// assert_eq!(r.errors[0].kind, ErrorKind::IllegalMove);
/// assert_eq!(r.errors[0].to_string(), "error: illegal move: `Ke3` (move 2w)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The offending text: the move as written, or the tag's value (bounded as
    /// [`Diagnostic::TEXT_MAX`] bounds it).
    pub text: String,
    /// Where it is in the input, when known (events carry it; a DOM does not).
    pub pos: Option<kifu::Position>,
    /// The move (see [`Error`]).
    pub at: Option<MoveRef>,
}

impl ReplayError {
    /// An owned copy of an [`Error`] event.
    pub fn from_event(e: &Error<'_>) -> ReplayError {
        ReplayError {
            kind: e.kind,
            text: String::from_utf8_lossy(e.text).into_owned(),
            pos: Some(e.pos),
            at: e.at,
        }
    }

    /// The problem as a diagnostic of game `game` (0-based), whose `Display` is the line
    /// `kifu check` prints; the position is 0:0 where it is not known.
    pub fn diagnostic(&self, game: u64) -> Error<'_> {
        let text = self.text.as_bytes();
        let n = text.len().min(Error::TEXT_MAX);
        Error {
            kind: self.kind,
            severity: self.kind.severity(),
            text: &text[..n],
            truncated: n < text.len(),
            pos: self.pos.unwrap_or_default(),
            game,
            at: self.at,
        }
    }
}

/// `[LINE:COLUMN: ]error: MESSAGE: `text` (move 14b)`, as [`kifu::pgn::GameError`] shows.
impl core::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(pos) = self.pos {
            write!(f, "{pos}: ")?;
        }
        write!(f, "{}: {}", self.kind.severity(), self.kind)?;
        if !self.text.is_empty() {
            write!(f, ": `{}`", self.text.escape_debug())?;
        }
        if let Some(at) = self.at {
            write!(f, " (move {at})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ReplayError {}

/// Cuts `text` to what a diagnostic carries.
pub(crate) fn bounded(text: &[u8]) -> (&[u8], bool) {
    let n = text.len().min(Error::TEXT_MAX);
    (&text[..n], n < text.len())
}
