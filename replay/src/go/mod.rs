//! Go: SGF games (`GM[1]`) replayed on a board.
//!
//! - [`GoReplayer`]: a [`kifu::sgf::Visitor`] adapter. It wraps your [`GoReplayVisitor`],
//!   forwards every event to it unchanged, and tells you what each move did ([`Played`]: its
//!   captures, the board after it), what went wrong ([`Error`]), and where the main line ended.
//! - [`replay_tree`]: the main line of a game tree held as a DOM ([`kifu::sgf::GameTree`]).
//! - [`TrainingRows`]: one row per main-line move (the board before it, the side to move, the
//!   move, the ko point, the position's key, captures so far, komi, handicap, ranks, result, a
//!   game key), for training data.
//! - [`zobrist`]: a position's 64-bit key (board size, stones, side to move), which
//!   [`Board::key`] keeps as the stones change; [`Symmetry::board`]: a board turned or flipped.
//! - [`Board`]: the board itself (any size up to 52×52, rectangular too).
//!
//! # The rules
//!
//! - **Size**: the root's `SZ` (`SZ[19]`, `SZ[19:13]` for 19 columns by 13 rows), 19×19 by
//!   default. A tree whose `GM` is not 1 is not replayed.
//! - **Setup** (`AB`, `AW`, `AE`, compressed point lists `AB[aa:cc]` included), in any node:
//!   the points are set as `FF[4]` says ("adding a stone doesn't make any prisoners"): no capture,
//!   whatever stood there. A node's setup is applied before its move.
//! - **Moves** (`B`, `W`): captures of the opponent's groups left without liberties. Passes:
//!   `B[]`, and `B[tt]` on boards up to 19×19 (`FF[3]` / `FF[4]`).
//! - **Illegal moves**, each reported once, located at the value (offset, line, column, game,
//!   node and depth), and then:
//!   - `occupied_point`: the move is not played (sgfmill's `Board.play` raises here);
//!   - `out_of_board` (also for a setup point): not played;
//!   - `ko_violation` (simple ko: retaking a ko at once): played all the same, as `FF[4]` asks
//!     an application to execute a move even if it is illegal (sgfmill does not check ko);
//!   - `suicide` (a move that leaves its own group without liberties and captures nothing):
//!     the group is removed and its stones go to the opponent's prisoners, as sgfmill does;
//!     it is an error unless `RU` allows suicide (New Zealand, Ing / GOE, Tromp–Taylor).
//!
//!   A node with `KO[]` ("execute the move even if illegal") reports neither ko nor suicide.
//! - **Prisoners** ([`Board::captures`]): the opponent's stones a side captured, plus the
//!   opponent's own stones lost to its suicides.
//! - **Variations** (the adapter, by default): each starts from the position at its branch
//!   point; the main line's end is reported in [`GoGame::end`].
//!
//! # The board bytes
//!
//! [`Board::points`] and [`TrainingRow::board`] hold one byte per point, row-major from the
//! upper left as SGF writes points (`aa` is index 0, `ba` index 1, index `y * cols + x`):
//! 0 empty, 1 black, 2 white. In NumPy: `np.frombuffer(board, np.uint8).reshape(rows, cols)`.

mod adapter;
mod board;
mod dom;
mod error;
mod game;
pub mod pattern;

pub use adapter::{GoGame, GoOptions, GoReplayVisitor, GoReplayer, Played};
pub use board::{BLACK, Board, EMPTY, PlayOutcome, WHITE, stone, zobrist};
pub use dom::{GameInfo, GoMove, TrainingRow, TrainingRows, TreeReplay, replay_tree};
pub use error::{Error, ErrorKind, GoError, Line, line};
pub use game::Rules;
pub use pattern::{
    Anchor, MAX_SIDE, Match, Matches, Pattern, PatternError, Stones, Symmetry, Want,
};

#[cfg(test)]
mod tests;
