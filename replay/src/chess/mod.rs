//! Chess: PGN moves replayed on a board.
//!
//! - [`Replayer`]: a [`kifu::pgn::Visitor`] adapter. It wraps your [`ReplayVisitor`], forwards
//!   every event to it unchanged, keeps a board per open line and tells you, for each move, its
//!   UCI, the position after it (FEN on demand, Polyglot key), check and mate, or why it could
//!   not be replayed.
//! - [`replay_game`]: the same for a game held as a DOM ([`kifu::pgn::Game`]): per move its UCI,
//!   FEN and key, the errors, the final position.
//! - [`Position`]: the board (cozy-chess's, with python-chess's FEN rules and Polyglot keys);
//!   [`position_key`] for the key of a FEN.
//! - [`openings`]: a game's opening (ECO code and name) from its moves, after the last named
//!   position of its main line, with the lichess opening table, as lichess names its games.
//!
//! # The rules
//!
//! - **Start**: the standard position, or the `FEN` tag's (with or without `SetUp "1"`, as
//!   python-chess reads it), castling in X-FEN (`KQkq`, file letters) or Shredder-FEN (`HAha`).
//!   The `Variant` tag: chess (`Standard`, `From Position`, …), Chess960 (`Chess960`,
//!   `chess 960`, `fischerandom`, …; castling rights that only Chess960 allows also make a game
//!   Chess960, as python-chess does); anything else (crazyhouse, atomic, antichess, Seirawan,
//!   …) is reported once as `unsupported_variant` and the game is not replayed. A `FEN` that
//!   cannot be read or played from is `bad_fen`, and the game is not replayed either.
//! - **Moves**: SAN, and long algebraic or UCI written in movetext (`e2e4`, `e7e8q`, `Ng1-f3`,
//!   `e1g1`), resolve to the one legal move, with python-chess's rules (see [`Position::resolve`]).
//!   Null moves (`--`, `Z0`) pass the turn (illegal when in check). None legal: `illegal_move`;
//!   more than one: `ambiguous_move`; each located at the move (offset, line, column, game, move
//!   `14b`).
//! - **After an error** the game goes on being read (every event still reaches your visitor).
//!   The rest of that line cannot be replayed: its moves come to
//!   [`ReplayVisitor::on_not_replayed`] with [`NotReplayed::AfterError`], counted in
//!   [`GameReplayed::not_replayed`]. A variation that replaces the failed move itself starts
//!   from the position before it, which is known, and is replayed; a variation that branches
//!   later on that line starts from an unknown position and is not replayed
//!   ([`NotReplayed::UnknownStart`]). python-chess, the reference, stops reading the line at the
//!   first error, variations included.
//! - **Variations** replay from their branch point: a variation replaces the last move played on
//!   its parent line, so it starts from the position before that move; nested ones keep a stack
//!   of positions (no recursion; as deep as the parser's `max_depth`).
//! - **UCI**: castling is written `e1g1` in standard chess and king-takes-rook (`e1h1`, `b1a1`)
//!   in Chess960, as python-chess writes it (UCI engines expect the same: `UCI_Chess960`).
//! - **Keys**: Polyglot's (the key of Polyglot opening books), equal to python-chess's
//!   `chess.polyglot.zobrist_hash`.
//!
//! # Cost
//!
//! The hot path allocates nothing: positions live in the adapter's stack of lines, reused from
//! game to game; a SAN is resolved from attack tables (no move list); the key is updated with a
//! few XORs per move; mate is looked for only after a check; a FEN is formatted only when you
//! display one.
//!
//! # The move generator
//!
//! [cozy-chess](https://crates.io/crates/cozy-chess) 0.3 (MIT): legal move generation for
//! chess and Chess960, no `unsafe` in its move generation, no dependency beyond its own types
//! crate. shakmaty, the other well-kept Rust move generator, is GPL-3.0, which this MIT /
//! Apache-2.0 project cannot ship; it is only a dev-dependency of the benchmark that compares the
//! two. The board type is re-exported as [`cozy`].

mod adapter;
mod dom;
mod error;
mod lines;
pub mod openings;
mod polyglot_table;
mod position;
pub mod query;
mod resolve;
mod setup;

pub use adapter::{GameReplayed, Options, ReplayVisitor, Replayed, Replayer};
pub use dom::{DomOptions, GameReplay, NodeReplay, for_each_node, replay_game};
pub use error::{Error, ErrorKind, ReplayError};
pub use lines::NotReplayed;
pub use position::{Fen, FenError, Position, Uci};
pub use resolve::{Resolved, Unplayable};
pub use setup::Variant;

/// The move generator this module plays on (cozy-chess), for [`Position::board`] and
/// [`Replayed::mv`].
pub use cozy_chess as cozy;

/// The Polyglot key of a position given as FEN (as in `kifu filter --reaches FEN`): the key that
/// [`Replayed::key`] gives for the same position, whatever its clocks. Castling rights that only
/// Chess960 allows are read as Chess960's.
///
/// ```
/// use kifu_replay::chess::position_key;
/// let k = position_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
/// assert_eq!(k, 0x823c9b50fd114196);
/// assert!(position_key("not a fen").is_err());
/// ```
pub fn position_key(fen: &str) -> Result<u64, FenError> {
    Position::from_fen(fen, false).map(|p| p.key())
}

#[cfg(test)]
mod tests;
