//! Position queries over a game's positions: an exact position (FEN or EPD), a piece pattern
//! (Scoutfish's sub-FEN), a material signature with ranges, and sequences of them (position A,
//! then B within N plies), on the main line or in variations too, within a ply range.
//!
//! A [`Query`] is parsed once and shared by every thread; a [`Searcher`] walks one game at a
//! time (reused from game to game), replaying its moves with the same board logic as
//! [`replay_game`](super::replay_game), and calls you back at each position where the query
//! matches. The replay of a line ends as soon as the query can no longer match on it:
//!
//! - pieces never come back onto the board and pawns never come back to their starting
//!   squares, so a position with fewer pieces of a kind than the query needs (promotions
//!   counted: a pawn may still become any piece), or without a pawn the query needs on its
//!   starting square, ends the line;
//! - castling rights are never regained: an exact position with a right the game has lost
//!   cannot come any more;
//! - past `max_ply`, nothing is looked at.
//!
//! The grammar of each form, with examples, is in docs/search.md; in short:
//!
//! - **Exact** ([`Exact`]): a FEN or an EPD (its first four fields; the move counters and the
//!   EPD operations are ignored). Two positions are the same when their pieces, side to move,
//!   castling rights and *legal* en passant square are (python-chess's transposition key: the
//!   EPD is the same), so transpositions are found.
//! - **Sub-FEN** ([`SubFen`]): a FEN board part whose pieces must stand on their squares, an
//!   empty square meaning "any" (Scoutfish's `sub-fen`) and `_` a square that must be empty
//!   (CQL's `_`), optionally followed by `w` or `b` for the side to move.
//! - **Material** ([`Material`]): `KRPkr` (exact: White a king, a rook and a pawn, Black a king
//!   and a rook, nothing else), or terms with bounds: `Q+` (White has at least one queen),
//!   `[BN]2+` (White has at least two minor pieces), `r2-` (Black at most two rooks),
//!   `P>=5`, `q=0`.
//!
//! ```
//! use kifu_replay::chess::query::{Query, Searcher, Step};
//!
//! let game = kifu::pgn::Games::new(b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *")
//!     .next()
//!     .unwrap();
//! // the Najdorf, exactly
//! let najdorf = Step::fen("rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq -").unwrap();
//! let q = Query::new(vec![najdorf]);
//! let mut s = Searcher::default();
//! let mut plies = Vec::new();
//! s.search(&game, &q, |hit| {
//!     plies.push(hit.ply);
//!     true
//! });
//! assert_eq!(plies, [10]);
//! // a white knight on d4 and a black pawn on a6, then a white pawn on e5 within 20 plies: no
//! let q = Query::new(vec![
//!     Step::subfen("8/8/p7/8/3N4/8/8/8").unwrap(),
//!     Step::subfen("8/8/8/4P3/8/8/8/8").unwrap(),
//! ])
//! .within(Some(20));
//! assert!(!s.matches(&game, &q));
//! ```

mod forms;
mod need;
mod san;
mod search;
#[cfg(test)]
mod tests;

pub use forms::{Exact, Material, Step, SubFen};
pub use san::san;
pub use search::{Hit, LineSearch, Searcher, Verdict};

use need::*;

use core::fmt;

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};
use kifu::pgn::{Game, Node};

use super::lines::{Engine, Step as Played};
use super::setup::Setup;
use super::{FenError, Position, Resolved};

const KINDS: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// Why a query could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError(String);

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for QueryError {}

fn err<T>(s: impl Into<String>) -> Result<T, QueryError> {
    Err(QueryError(s.into()))
}

/// A query: one step, or a sequence of steps each within its own bound of plies of the one
/// before ([`within`](Query::within), [`within_each`](Query::within_each)), in a ply range, on
/// the main line or in variations too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    steps: Vec<Step>,
    /// Per step, the most plies from the position of the step before it to its own (`None`:
    /// any); the first step's is `None`.
    within: [Option<u32>; MAX_STEPS],
    /// The fewest plies played before a position matched (0: the start may match).
    pub min_ply: u32,
    /// The most plies played before a position matched.
    pub max_ply: u32,
    /// Search the variations too (default: the main line only).
    pub variations: bool,
    /// Whether a step is an exact position, the one part that reads the position's key.
    keyed: bool,
    /// What a move must change for the query's one step to match after a position that did
    /// not ([`LineSearch`]).
    unchanged: Unchanged,
    /// Per colour and kind (a1 = bit 0), the squares the first step's pattern needs a piece of
    /// that kind on ([`LineSearch`] plays no move before a move has brought each of them
    /// there, unless it stood there at the start); none for an exact position or a pattern
    /// with a pawn on its starting square (see [`Query::new`]).
    arrivals: [[u64; 6]; 2],
}

/// When a position cannot match a one-step query because the position before it did not and
/// the move between changed nothing the step looks at ([`LineSearch::play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unchanged {
    /// Always tested: an exact position, a pattern, a step of several parts, a sequence. (A
    /// pattern without a side to move could be skipped unless a piece lands on one of its
    /// squares or leaves one of its empty squares: measured, it did not pay, its test being a
    /// few ANDs.)
    Never,
    /// A material signature alone: only a capture or a promotion changes the counts, and a
    /// move that zeroes no halfmove clock (no capture, no pawn move) is neither.
    Material,
}

impl Unchanged {
    fn of(steps: &[Step]) -> Unchanged {
        match steps {
            [
                Step {
                    exact: None,
                    sub: None,
                    material: Some(_),
                },
            ] => Unchanged::Material,
            _ => Unchanged::Never,
        }
    }
}

/// The most steps of a sequence.
pub const MAX_STEPS: usize = 16;

impl Query {
    /// A query of `steps` (one: a position; more: a sequence), on the main line, any ply. Empty
    /// steps are dropped; no step at all matches every position. At most [`MAX_STEPS`] steps
    /// are kept.
    pub fn new(steps: Vec<Step>) -> Query {
        let mut steps: Vec<Step> = steps.into_iter().filter(|s| !s.is_empty()).collect();
        if steps.is_empty() {
            steps.push(Step::default());
        }
        steps.truncate(MAX_STEPS);
        // Waiting for the pieces pays where the replay's own early end (`Need`) comes late: a
        // pattern of pieces. An exact position, or a pattern with a pawn on its starting
        // square, usually ends a game's replay within its first moves (the first other pawn
        // move, the pawn's own), where the waiting would read the game to its end.
        let mut arrivals = [[0; 6]; 2];
        if let Step {
            exact: None,
            sub: Some(sub),
            ..
        } = &steps[0]
            && sub.need.home == [0; 2]
        {
            arrivals = sub.masks;
        }
        Query {
            keyed: steps.iter().any(|s| s.exact.is_some()),
            unchanged: Unchanged::of(&steps),
            arrivals,
            steps,
            within: [None; MAX_STEPS],
            min_ply: 0,
            max_ply: u32::MAX,
            variations: false,
        }
    }

    /// The same, each step within `n` plies of the one before (`None`: any later ply).
    pub fn within(mut self, n: Option<u32>) -> Query {
        self.within = [n; MAX_STEPS];
        self.within[0] = None;
        self
    }

    /// The same, each step after the first within its own bound of plies of the one before:
    /// `bounds[i]` for step `i + 1` (`None`, or no bound given: any later ply).
    ///
    /// ```
    /// use kifu_replay::chess::query::{Query, Step};
    /// // a knight on c6, then a bishop on b5 within 2 plies, then castled short, any time later
    /// let q = Query::new(vec![
    ///     Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
    ///     Step::subfen("8/8/8/1B6/8/8/8/8").unwrap(),
    ///     Step::subfen("8/8/8/8/8/8/8/5RK1").unwrap(),
    /// ])
    /// .within_each(&[Some(2), None]);
    /// assert_eq!((q.within_of(1), q.within_of(2)), (Some(2), None));
    /// ```
    pub fn within_each(mut self, bounds: &[Option<u32>]) -> Query {
        self.within = [None; MAX_STEPS];
        for (w, &b) in self.within[1..].iter_mut().zip(bounds) {
            *w = b;
        }
        self
    }

    /// The most plies from the position of the step before step `i` to step `i`'s (`None`:
    /// any later ply; always `None` for the first step).
    pub fn within_of(&self, i: usize) -> Option<u32> {
        self.within.get(i).copied().flatten()
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The exact position when the query is one exact position and nothing else.
    pub fn exact(&self) -> Option<&Exact> {
        match &self.steps[..] {
            [s] if s.sub.is_none() && s.material.is_none() => s.exact.as_ref(),
            _ => None,
        }
    }
}

/// The key two positions share exactly when they are the same position for a query: the
/// Polyglot key with the en passant file counted only when an en passant capture is legal
/// (python-chess's transposition key; the same EPD).
///
/// ```
/// use kifu_replay::chess::{Position, query::transposition_key};
/// let a = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false).unwrap();
/// let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 4 9", false).unwrap();
/// assert_eq!(transposition_key(&a), transposition_key(&b));
/// ```
pub fn transposition_key(pos: &Position) -> u64 {
    pos.epd_key()
}
