//! What can go wrong while replaying a Go game, located like every other kifu SGF diagnostic.

use core::fmt;

use kifu::sgf::NodeRef;
use kifu::{Diagnostic, Severity};

/// What went wrong while replaying a Go game.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// A move on a point that holds a stone; the move is not played (sgfmill raises here).
    #[error("move on an occupied point: not played")]
    OccupiedPoint,
    /// A move that retakes a ko at once (simple ko); the move is played (`FF[4]`: execute a move
    /// even if it is illegal; sgfmill does not check ko). Not reported in a node with `KO[]`.
    #[error("ko retaken at once (simple ko)")]
    KoViolation,
    /// A move that leaves its own group without liberties, under rules that forbid suicide
    /// (anything but New Zealand, Ing, Tromp–Taylor); the group is removed, as sgfmill does.
    #[error("suicide under rules that forbid it")]
    Suicide,
    /// A move or a setup point that is not on the board (`B[zz]` on 19×19); not played.
    #[error("point not on the board: not played")]
    OutOfBoard,
}

impl ErrorKind {
    /// A stable identifier: `occupied_point`, `ko_violation`, `suicide`, `out_of_board`.
    ///
    /// ```
    /// use kifu_replay::go::ErrorKind;
    /// assert_eq!(ErrorKind::KoViolation.code(), "ko_violation");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::OccupiedPoint => "occupied_point",
            ErrorKind::KoViolation => "ko_violation",
            ErrorKind::Suicide => "suicide",
            ErrorKind::OutOfBoard => "out_of_board",
        }
    }

    /// Always [`Severity::Error`].
    pub fn severity(self) -> Severity {
        Severity::Error
    }
}

/// A located Go replay problem: kind, the offending value (`dd`), its position, the game tree
/// and the node ([`NodeRef`]: index on its path, tree depth). Show it with [`line()`] (the
/// library's `Display` for SGF diagnostics takes the parser's own kinds only).
pub type Error<'a> = Diagnostic<'a, ErrorKind, Option<NodeRef>>;

/// The line `kifu check` prints for SGF problems:
/// ``LINE:COLUMN: error occupied_point: move on an occupied point: not played: `dd` (game 1,
/// node 12 (depth 0))``.
///
/// ```
/// use kifu::{Control, sgf::{self, Visitor}};
/// use kifu_replay::go::{self, GoReplayVisitor, GoReplayer};
///
/// #[derive(Default)]
/// struct Lines(Vec<String>);
/// impl Visitor for Lines {}
/// impl GoReplayVisitor for Lines {
///     fn on_go_error(&mut self, e: &go::Error<'_>) -> Control {
///         self.0.push(go::line(e).to_string());
///         Control::Continue
///     }
/// }
/// let mut v = GoReplayer::new(Lines::default());
/// sgf::parse(b"(;SZ[9];B[ee];W[ee])", &mut v);
/// assert_eq!(
///     v.into_inner().0,
///     ["1:16: error occupied_point: move on an occupied point: not played: `ee` (game 1, node 2 (depth 0))"]
/// );
/// ```
pub fn line<'e>(e: &'e Error<'_>) -> Line<'e> {
    Line {
        pos: Some(e.pos),
        kind: e.kind,
        text: e.text,
        game: Some(e.game),
        at: e.at,
    }
}

/// A problem shown as one line, see [`line()`].
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pos: Option<kifu::Position>,
    kind: ErrorKind,
    text: &'a [u8],
    game: Option<u64>,
    at: Option<NodeRef>,
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(pos) = self.pos {
            write!(f, "{pos}: ")?;
        }
        write!(
            f,
            "{} {}: {}",
            self.kind.severity(),
            self.kind.code(),
            self.kind
        )?;
        if !self.text.is_empty() {
            write!(
                f,
                ": `{}`",
                String::from_utf8_lossy(self.text).escape_debug()
            )?;
        }
        match (self.game, self.at) {
            (Some(g), Some(at)) => write!(f, " (game {}, {at})", g + 1),
            (Some(g), None) => write!(f, " (game {})", g + 1),
            (None, Some(at)) => write!(f, " ({at})"),
            (None, None) => Ok(()),
        }
    }
}

/// An owned Go replay problem (from the DOM helper, or copied from an [`Error`] event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The offending value as written (`dd`, `aa:cc`).
    pub text: String,
    /// Where it is, when known (events carry it; the DOM does not keep property positions).
    pub pos: Option<kifu::Position>,
    /// The node.
    pub at: Option<NodeRef>,
    /// The index of the move in the main line (0-based, passes included), for a move.
    pub move_index: Option<u32>,
}

impl GoError {
    /// An owned copy of an [`Error`] event.
    pub fn from_event(e: &Error<'_>) -> GoError {
        GoError {
            kind: e.kind,
            text: String::from_utf8_lossy(e.text).into_owned(),
            pos: Some(e.pos),
            at: e.at,
            move_index: None,
        }
    }
}

/// As [`line()`], without the game.
impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Line {
            pos: self.pos,
            kind: self.kind,
            text: self.text.as_bytes(),
            game: None,
            at: self.at,
        }
        .fmt(f)
    }
}

impl std::error::Error for GoError {}
