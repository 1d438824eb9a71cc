//! The SGF `positions` table: one row per main-line move of a Go game, with the board before it
//! (kifu-replay's training rows): the table a training pipeline takes as it is, and a position
//! index (`key`, `ply`, as the PGN `positions` table has them).
//!
//! With [`TableOptions::symmetries`](crate::TableOptions::symmetries) each position is written
//! once per symmetry of the board ([`Symmetry`]: 8 on a square board, the 4 that keep the shape
//! on another), its board, move, ko point and key turned together, the `symmetry` column saying
//! which.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::types::{Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt32Type};
use arrow_array::{ArrayRef, BinaryArray};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use kifu::sgf::{self, BoardSize, Color, GoResult, Point, Rank};
use kifu_replay::go::{GameInfo, Symmetry, TrainingRow, TrainingRows, zobrist};

use crate::Charset;
use crate::buffers::Buffers;
use crate::charset::text;
use crate::cols::{Codes, Nums, clamp_i64, sides};
use crate::positions_filter::PlyFilter;

/// A rank property's value as the `trees` table has it ([`kifu::sgf::Rank::value`]), read from
/// its text decoded as the `trees` table decodes it (the charset guessed only for text that is
/// not ASCII, such as `9段` in GB2312).
fn rank(tree: &sgf::GameTree, value: Option<sgf::RawValue<'_>>, name: &[u8]) -> Option<i16> {
    let value = value?;
    let decoded = value.decoded(name);
    let rank = if decoded.is_ascii() {
        Rank::parse(&decoded)
    } else {
        Rank::parse(text(value, name, Charset::Auto.encoding_of(tree)).as_bytes())
    };
    rank.map(Rank::value)
}

pub(crate) fn fields() -> Vec<Field> {
    vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game_index", DataType::Int64, false),
        Field::new("game_key", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("key", DataType::Int64, false),
        Field::new("symmetry", DataType::Int8, false),
        Field::new("board_cols", DataType::Int32, false),
        Field::new("board_rows", DataType::Int32, false),
        Field::new("board", DataType::Binary, false),
        Field::new("side_to_move", DataType::Utf8, false),
        Field::new("x", DataType::Int16, true),
        Field::new("y", DataType::Int16, true),
        Field::new("policy", DataType::Int16, true),
        Field::new("ko_point", DataType::Int16, true),
        Field::new("captures_black", DataType::UInt32, false),
        Field::new("captures_white", DataType::UInt32, false),
        Field::new("KM", DataType::Float64, true),
        Field::new("HA", DataType::Int32, true),
        Field::new("handicap_stones", DataType::Int32, true),
        Field::new("black_rank", DataType::Int16, true),
        Field::new("white_rank", DataType::Int16, true),
        Field::new("RE", DataType::Utf8, true),
        Field::new("score", DataType::Int8, true),
        Field::new("error", DataType::Utf8, true),
    ]
}

/// The index of a point in the board bytes and in the `policy` and `ko_point` columns:
/// `y * cols + x` (at most 52 × 52 − 1).
fn index_of(p: Point, size: BoardSize) -> i16 {
    (i32::from(p.y) * i32::from(size.cols) + i32::from(p.x)) as i16
}

/// The columns' indexes in [`fields`] (for [`Wanted`]).
mod col {
    pub(super) const FILE: usize = 0;
    pub(super) const GAME_INDEX: usize = 1;
    pub(super) const GAME_KEY: usize = 2;
    pub(super) const PLY: usize = 3;
    pub(super) const KEY: usize = 4;
    pub(super) const SYMMETRY: usize = 5;
    pub(super) const BOARD_COLS: usize = 6;
    pub(super) const BOARD_ROWS: usize = 7;
    pub(super) const BOARD: usize = 8;
    pub(super) const SIDE_TO_MOVE: usize = 9;
    pub(super) const X: usize = 10;
    pub(super) const Y: usize = 11;
    pub(super) const POLICY: usize = 12;
    pub(super) const KO_POINT: usize = 13;
    pub(super) const CAPTURES_BLACK: usize = 14;
    pub(super) const CAPTURES_WHITE: usize = 15;
    pub(super) const KOMI: usize = 16;
    pub(super) const HANDICAP: usize = 17;
    pub(super) const HANDICAP_STONES: usize = 18;
    pub(super) const BLACK_RANK: usize = 19;
    pub(super) const WHITE_RANK: usize = 20;
    pub(super) const RESULT: usize = 21;
    pub(super) const SCORE: usize = 22;
    pub(super) const ERROR: usize = 23;
    /// How many.
    pub(super) const COUNT: usize = 24;
}

/// The columns a projection keeps ([`crate::Builder::project`]): the others are not filled
/// (their arrays are empty, and dropped by the projection).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wanted([bool; col::COUNT]);

impl Wanted {
    pub(crate) const ALL: Wanted = Wanted([true; col::COUNT]);

    /// The columns of [`fields`] that `wanted` names.
    pub(crate) fn of(wanted: impl Fn(&str) -> bool) -> Wanted {
        let mut w = [false; col::COUNT];
        for (k, f) in fields().iter().enumerate() {
            w[k] = wanted(f.name());
        }
        Wanted(w)
    }
}

/// The per-game columns, read once per game (at its first row).
#[derive(Debug, Default)]
struct Game {
    ranks: (Option<i16>, Option<i16>),
    /// `RE` as written.
    result: Option<String>,
    /// Black's score: 1 Black won, −1 White won, 0 a draw; `None` unknown.
    black_score: Option<i8>,
    handicap_stones: Option<i32>,
    /// The board's size (the same at every row of a tree).
    size: BoardSize,
}

impl Game {
    /// The game of `tree`, from its first row and the board before its first move.
    fn of(tree: &sgf::GameTree, first: &TrainingRow<'_>, board: &[u8]) -> Game {
        let (b, w) = (first.game.black_rank, first.game.white_rank);
        let re = first.game.result.map(|v| v.simple_text());
        let black_score = re
            .as_deref()
            .and_then(GoResult::parse)
            .and_then(|r| match r {
                GoResult::Win { winner, .. } => Some(if winner == Color::Black { 1 } else { -1 }),
                GoResult::Draw => Some(0),
                GoResult::Void | GoResult::Unknown => None,
            });
        // the stones before the first move: a handicap's when all black
        let (mut black, mut white) = (0i32, 0i32);
        for &c in board {
            match c {
                kifu_replay::go::BLACK => black += 1,
                kifu_replay::go::WHITE => white += 1,
                _ => {}
            }
        }
        Game {
            ranks: (rank(tree, b, b"BR"), rank(tree, w, b"WR")),
            result: re.map(|t| String::from_utf8_lossy(&t).into_owned()),
            black_score,
            handicap_stones: (white == 0).then_some(black),
            size: first.size,
        }
    }
}

/// The SGF `positions` table's builder.
///
/// The board column is not an Arrow builder: each board goes from the replay straight into
/// `board` ([`TrainingRows::next_into`]), one copy, and the array is made of that vector at
/// [`finish`](Self::finish) without another. The columns whose values are the game's (file,
/// game index, komi, ranks, …) are appended once per game, `n` values at a time. After the
/// first batch, each batch's buffers are reserved at its start for as many rows as the one
/// before had (no growth by doubling, no copy of what was built).
#[derive(Debug)]
pub(crate) struct PositionsBuilder {
    /// Each position once per symmetry of the board.
    symmetries: bool,
    /// The rows kept ([`crate::PositionOptions`]: plies, legal moves only, a sample).
    filter: PlyFilter,
    /// The columns filled.
    pub(crate) wanted: Wanted,
    file: StringBuilder,
    index: Nums<i64>,
    game_key: Nums<i64>,
    ply: Nums<i32>,
    key: Nums<i64>,
    symmetry: Nums<i8>,
    board_cols: Nums<i32>,
    board_rows: Nums<i32>,
    /// The boards' bytes, one after the other.
    board: Vec<u8>,
    /// Where each board ends in `board` (Arrow's offsets: a 0 first).
    board_ends: Vec<i32>,
    /// Whether White is to move, a row (the `side_to_move` column's text made at the end).
    white_to_move: Vec<bool>,
    x: Nums<i16>,
    y: Nums<i16>,
    policy: Nums<i16>,
    ko_point: Nums<i16>,
    captures_black: Nums<u32>,
    captures_white: Nums<u32>,
    komi: Nums<f64>,
    handicap: Nums<i32>,
    handicap_stones: Nums<i32>,
    black_rank: Nums<i16>,
    white_rank: Nums<i16>,
    result: StringBuilder,
    score: Nums<i8>,
    error: Codes,
    rows: usize,
    bytes: usize,
    /// The rows and board bytes of the last batch finished: the next one's reservation.
    last: (usize, usize),
    /// The board as played, while its symmetries are written (reused).
    played: Vec<u8>,
    /// A board turned by a symmetry (reused).
    turned: Vec<u8>,
    /// Where the columns of numbers and the boards get their buffers.
    pool: Buffers,
}

impl PositionsBuilder {
    pub(crate) fn new(opts: &crate::TableOptions) -> PositionsBuilder {
        PositionsBuilder {
            pool: opts.buffers.clone(),
            symmetries: opts.symmetries,
            filter: PlyFilter::new(&opts.positions),
            wanted: Wanted::ALL,
            file: StringBuilder::new(),
            index: Nums::new(),
            game_key: Nums::new(),
            ply: Nums::new(),
            key: Nums::new(),
            symmetry: Nums::new(),
            board_cols: Nums::new(),
            board_rows: Nums::new(),
            board: Vec::new(),
            board_ends: vec![0],
            white_to_move: Vec::new(),
            x: Nums::new(),
            y: Nums::new(),
            policy: Nums::new(),
            ko_point: Nums::new(),
            captures_black: Nums::new(),
            captures_white: Nums::new(),
            komi: Nums::new(),
            handicap: Nums::new(),
            handicap_stones: Nums::new(),
            black_rank: Nums::new(),
            white_rank: Nums::new(),
            result: StringBuilder::new(),
            score: Nums::new(),
            error: Codes::default(),
            rows: 0,
            bytes: 0,
            last: (0, 0),
            played: Vec::new(),
            turned: Vec::new(),
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// At a batch's start: room for the rows of the batch before and a quarter more (a batch
    /// is cut after the tree that fills it, so that room for exactly as many would still grow
    /// once, a copy of the whole column), at most 65,536 rows, in every column filled (the
    /// builders are new after a `finish`; a fresh one holds no buffer, and its first batch
    /// grows as it goes). The buffers are the pool's ([`Buffers`]).
    fn reserve(&mut self) {
        let (rows, bytes) = self.last;
        let n = (rows + rows / 4).min(1 << 16);
        let bytes = bytes / rows.max(1) * n;
        let w = self.wanted.0;
        let pool = &self.pool;
        macro_rules! reserve {
            ($($field:ident: $col:ident),* $(,)?) => {
                $(if w[col::$col] {
                    self.$field.reserve(n, pool);
                })*
            };
        }
        reserve!(
            index: GAME_INDEX,
            game_key: GAME_KEY,
            ply: PLY,
            key: KEY,
            symmetry: SYMMETRY,
            board_cols: BOARD_COLS,
            board_rows: BOARD_ROWS,
            x: X,
            y: Y,
            policy: POLICY,
            ko_point: KO_POINT,
            captures_black: CAPTURES_BLACK,
            captures_white: CAPTURES_WHITE,
            komi: KOMI,
            handicap: HANDICAP,
            handicap_stones: HANDICAP_STONES,
            black_rank: BLACK_RANK,
            white_rank: WHITE_RANK,
            score: SCORE,
        );
        if w[col::SIDE_TO_MOVE] {
            self.white_to_move.reserve(n);
        }
        if w[col::BOARD] {
            if self.board.capacity() == 0 {
                self.board = pool.vec(bytes);
            } else {
                self.board.reserve(bytes);
            }
            self.board_ends.reserve(n + 1);
        }
    }

    /// Adds a row per main-line move of `tree` (none for a tree that is not Go); with
    /// `symmetries`, a row per move and symmetry. The filters of [`crate::PositionOptions`]
    /// leave positions out (a sample's salt: the game's key, its size and moves).
    pub(crate) fn push(&mut self, file: &str, tree: &sgf::GameTree) {
        if self.rows == 0 && self.last.0 > 0 {
            self.reserve();
        }
        let index = clamp_i64(tree.index());
        let mut game: Option<(Game, GameInfo<'_>)> = None;
        let mut state = None;
        let rows_before = self.rows;
        // the game's key only for its column or a sample's salt (a walk of the main line)
        let mut rows = if self.wanted.0[col::GAME_KEY] || self.filter.samples() {
            TrainingRows::new(tree)
        } else {
            TrainingRows::unkeyed(tree)
        };
        loop {
            // the board before the move, straight into the column (taken back if the row is
            // not kept)
            let start = self.board.len();
            let Some(row) = rows.next_into(&mut self.board) else {
                break;
            };
            // the game's columns from its first position (the handicap stones), kept or not
            let (game, _) =
                game.get_or_insert_with(|| (Game::of(tree, row, &self.board[start..]), row.game));
            let ply = row.number.saturating_sub(1) as usize;
            if ply > self.filter.max_ply || (self.filter.legal_only && row.error.is_some()) {
                self.board.truncate(start);
                break;
            }
            let state = state.get_or_insert_with(|| self.filter.start(row.game.key));
            if !self.filter.keep(state, ply, || row.key) {
                self.board.truncate(start);
                continue;
            }
            let size = row.size;
            let square = size.cols == size.rows;
            let count = match (self.symmetries, square) {
                (false, _) => 1,
                (true, true) => 8,
                (true, false) => 4,
            };
            if count == 1 {
                self.row(game, row, size, Symmetry::IDENTITY, row.key);
            } else {
                self.played.clear();
                self.played.extend_from_slice(&self.board[start..]);
                self.board.truncate(start);
                // 0 ..= 3 flip only (no transposition): the shape kept on any board
                for sym in Symmetry::ALL.into_iter().take(count) {
                    let key = if sym == Symmetry::IDENTITY {
                        self.board.extend_from_slice(&self.played);
                        row.key
                    } else {
                        sym.board(size, &self.played, &mut self.turned);
                        self.board.extend_from_slice(&self.turned);
                        zobrist(size, &self.turned, row.to_play)
                    };
                    self.row(game, row, size, sym, key);
                }
            }
        }
        let n = self.rows - rows_before;
        if let Some((game, info)) = game.filter(|_| n > 0) {
            self.per_game(file, index, &game, &info, n);
        }
    }

    /// The columns whose values are the game's, for its `n` rows.
    fn per_game(&mut self, file: &str, index: i64, game: &Game, info: &GameInfo<'_>, n: usize) {
        let w = self.wanted.0;
        if w[col::SYMMETRY] && !self.symmetries {
            self.symmetry.push_n(Some(Symmetry::IDENTITY.0 as i8), n);
        }
        if w[col::BOARD_COLS] {
            self.board_cols.push_n(Some(i32::from(game.size.cols)), n);
        }
        if w[col::BOARD_ROWS] {
            self.board_rows.push_n(Some(i32::from(game.size.rows)), n);
        }
        if w[col::FILE] {
            self.file.append_value_n(file, n);
        }
        if w[col::GAME_INDEX] {
            self.index.push_n(Some(index), n);
        }
        if w[col::GAME_KEY] {
            self.game_key.push_n(Some(info.key as i64), n);
        }
        if w[col::KOMI] {
            self.komi.push_n(info.komi, n);
        }
        if w[col::HANDICAP] {
            let handicap = info.handicap.and_then(|h| i32::try_from(h).ok());
            self.handicap.push_n(handicap, n);
        }
        if w[col::HANDICAP_STONES] {
            self.handicap_stones.push_n(game.handicap_stones, n);
        }
        if w[col::BLACK_RANK] {
            self.black_rank.push_n(game.ranks.0, n);
        }
        if w[col::WHITE_RANK] {
            self.white_rank.push_n(game.ranks.1, n);
        }
        if w[col::RESULT] {
            match &game.result {
                Some(r) => self.result.append_value_n(r, n),
                None => self.result.append_nulls(n),
            }
        }
        self.bytes += n * file.len();
    }

    /// A row's own columns (its board already in `board`, turned by `sym`; `key` its key).
    fn row(
        &mut self,
        game: &Game,
        row: &TrainingRow<'_>,
        size: BoardSize,
        sym: Symmetry,
        key: u64,
    ) {
        let w = self.wanted.0;
        let identity = sym == Symmetry::IDENTITY;
        let turn = |p: Point| if identity { p } else { sym.point(p, size) };
        let point = row.point.map(turn);
        let off_board = row.error == Some(kifu_replay::go::ErrorKind::OutOfBoard);
        let cells = usize::from(size.cols) * usize::from(size.rows);
        if w[col::PLY] {
            let number = i32::try_from(row.number).unwrap_or(i32::MAX);
            self.ply.push(number - 1);
        }
        if w[col::KEY] {
            self.key.push(key as i64);
        }
        // the symmetry of a row without symmetries, and the board's size, are the game's
        if w[col::SYMMETRY] && self.symmetries {
            self.symmetry.push(sym.0 as i8);
        }
        if w[col::BOARD] {
            let end = i32::try_from(self.board.len()).expect("a batch's boards under 2 GiB");
            self.board_ends.push(end);
        } else {
            self.board.clear();
        }
        if w[col::SIDE_TO_MOVE] {
            self.white_to_move.push(row.to_play == Color::White);
        }
        if w[col::X] {
            self.x.push_option(point.map(|p| i16::from(p.x)));
        }
        if w[col::Y] {
            self.y.push_option(point.map(|p| i16::from(p.y)));
        }
        if w[col::POLICY] {
            self.policy.push_option(match point {
                Some(p) => Some(index_of(p, size)),
                None if off_board => None,
                None => Some((i32::from(size.cols) * i32::from(size.rows)) as i16),
            });
        }
        if w[col::KO_POINT] {
            self.ko_point
                .push_option(row.ko.map(|p| index_of(turn(p), size)));
        }
        if w[col::CAPTURES_BLACK] {
            self.captures_black.push(row.captures[0]);
        }
        if w[col::CAPTURES_WHITE] {
            self.captures_white.push(row.captures[1]);
        }
        if w[col::SCORE] {
            self.score
                .push_option(game.black_score.map(|s| match row.to_play {
                    Color::Black => s,
                    Color::White => -s,
                }));
        }
        if w[col::ERROR] {
            self.error.push(row.error.map(|e| e.code()));
        }
        self.rows += 1;
        self.bytes += cells + 80;
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let ends = std::mem::replace(&mut self.board_ends, vec![0]);
        let values = std::mem::take(&mut self.board);
        // the next batch's room is made by `reserve`, at its first tree
        self.last = (self.rows, values.len());
        // the offsets are the boards' ends, from 0, in order: valid by construction
        let board = if self.wanted.0[col::BOARD] {
            BinaryArray::new(
                OffsetBuffer::new(ScalarBuffer::from(ends)),
                self.pool.buffer(values).into_inner(),
                None,
            )
        } else {
            BinaryArray::new_null(0)
        };
        let out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            self.index.finish::<Int64Type>(&self.pool),
            self.game_key.finish::<Int64Type>(&self.pool),
            self.ply.finish::<Int32Type>(&self.pool),
            self.key.finish::<Int64Type>(&self.pool),
            self.symmetry.finish::<Int8Type>(&self.pool),
            self.board_cols.finish::<Int32Type>(&self.pool),
            self.board_rows.finish::<Int32Type>(&self.pool),
            Arc::new(board),
            sides(&mut self.white_to_move, 0),
            self.x.finish::<Int16Type>(&self.pool),
            self.y.finish::<Int16Type>(&self.pool),
            self.policy.finish::<Int16Type>(&self.pool),
            self.ko_point.finish::<Int16Type>(&self.pool),
            self.captures_black.finish::<UInt32Type>(&self.pool),
            self.captures_white.finish::<UInt32Type>(&self.pool),
            self.komi.finish::<Float64Type>(&self.pool),
            self.handicap.finish::<Int32Type>(&self.pool),
            self.handicap_stones.finish::<Int32Type>(&self.pool),
            self.black_rank.finish::<Int16Type>(&self.pool),
            self.white_rank.finish::<Int16Type>(&self.pool),
            Arc::new(self.result.finish()),
            self.score.finish::<Int8Type>(&self.pool),
            self.error.finish(),
        ];
        self.rows = 0;
        self.bytes = 0;
        out
    }
}

#[cfg(test)]
#[path = "sgf_positions_reference.rs"]
mod reference;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PositionOptions, Sample, TableOptions};

    /// Game trees that reach every branch of the builder: a ko, passes, a point off the
    /// board, an occupied point, a suicide, a handicap, a rectangle, a game that is not Go,
    /// setup in the middle, ranks and results of every kind, no move at all.
    const TREES: &str = "\
(;GM[1]SZ[4]RE[B+R]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb];B[dd];W[])
(;SZ[9]HA[2]KM[0.5]AB[cc][gg]BR[3d]WR[9\u{6bb5}]RE[W+3.5];W[ee];B[ee];W[zz];B[tt];W[aa];B[ab];W[ba]AB[ii];B[hh])
(;SZ[5:3]KM[6.5]RE[0];B[aa];W[ba];B[ab];W[];B[bb]C[x];W[cc])
(;SZ[3]RE[Void];B[aa];W[ab];B[ba];W[bb];B[ca];W[cb];B[bb])
(;GM[2];B[aa])
(;SZ[19]PB[x]RE[?])
(;SZ[19];B[pd](;W[dp];B[pp])(;W[dd]))
(;SZ[13]RE[B+12];B[gg];W[gh];B[hh];W[tt];B[];W[aa];B[ab])";

    fn trees(data: &[u8]) -> Vec<sgf::GameTree> {
        sgf::game_trees(data).collect()
    }

    /// The columns of `fields` that `wanted` names (every one without a list).
    fn wanted(names: Option<&[&str]>) -> Wanted {
        Wanted::of(|n| names.is_none_or(|names| names.contains(&n)))
    }

    /// The table of `trees` built by the builder and by the reference, a batch finished
    /// every `every` trees: the same rows, estimates and arrays, column by column (those
    /// `names` keeps).
    fn same(trees: &[sgf::GameTree], opts: &TableOptions, names: Option<&[&str]>, every: usize) {
        let mut new = PositionsBuilder::new(opts);
        new.wanted = wanted(names);
        let mut old = reference::PositionsBuilder::new(opts);
        let fields = fields();
        let mut batches = 0;
        let mut compare = |new: &mut PositionsBuilder, old: &mut reference::PositionsBuilder| {
            assert_eq!(new.rows(), old.rows());
            assert_eq!(new.estimated_bytes(), old.estimated_bytes());
            let (a, b) = (new.finish(), old.finish());
            assert_eq!(a.len(), b.len());
            for (k, f) in fields.iter().enumerate() {
                if new.wanted.0[k] {
                    assert_eq!(a[k].to_data(), b[k].to_data(), "{}", f.name());
                }
            }
            batches += 1;
        };
        for (k, tree) in trees.iter().enumerate() {
            new.push("f.sgf", tree);
            old.push("f.sgf", tree);
            if (k + 1) % every == 0 {
                compare(&mut new, &mut old);
            }
        }
        compare(&mut new, &mut old);
        assert!(batches > 0);
    }

    fn options() -> Vec<TableOptions> {
        let positions = [
            PositionOptions::default(),
            PositionOptions {
                min_ply: 2,
                max_ply: Some(5),
                ..PositionOptions::default()
            },
            PositionOptions {
                legal_only: true,
                ..PositionOptions::default()
            },
            PositionOptions {
                sample: Sample::new(0.4, 7),
                ..PositionOptions::default()
            },
        ];
        let mut out = Vec::new();
        for symmetries in [false, true] {
            for p in &positions {
                out.push(TableOptions {
                    symmetries,
                    positions: p.clone(),
                    ..TableOptions::default()
                });
            }
        }
        out
    }

    const PROJECTIONS: [Option<&[&str]>; 4] = [
        None,
        Some(&["game_index", "ply", "board", "policy"]),
        Some(&[
            "board_cols",
            "board_rows",
            "board",
            "side_to_move",
            "key",
            "symmetry",
        ]),
        Some(&["file", "RE", "KM", "black_rank", "handicap_stones", "score"]),
    ];

    #[test]
    fn the_builder_makes_the_reference_s_table() {
        let trees = trees(TREES.as_bytes());
        for opts in options() {
            for names in PROJECTIONS {
                for every in [1, 3, usize::MAX] {
                    same(&trees, &opts, names, every);
                }
            }
        }
    }

    #[test]
    fn the_seed_game_makes_the_reference_s_table() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/seed-takemiya-cho-meijin-1996.sgf"
        );
        let data = std::fs::read(path).unwrap();
        let mut trees = trees(&data);
        // two games, so that the second batch is reserved from the first
        trees.extend(self::trees(&data));
        for opts in options() {
            same(&trees, &opts, None, 1);
        }
    }

    /// The game trees of the small SGF corpus, every column: a third of them, a batch every 64
    /// trees; with the symmetries, one in 24.
    #[test]
    #[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
    fn the_corpus_makes_the_reference_s_table() {
        let dir = std::path::PathBuf::from(
            option_env!("KIFU_SHARED_DIR")
                .unwrap_or(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared")),
        )
        .join("corpus/sgf/small");
        let mut stack = vec![dir];
        let mut all = Vec::new();
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                    all.extend(trees(&std::fs::read(&p).unwrap()));
                }
            }
        }
        let trees = all;
        assert!(trees.len() > 1000, "{} trees", trees.len());
        // every third tree (the test's time: the reference is the slower builder), and every
        // 24th with the symmetries (eight rows a position)
        let some: Vec<_> = trees.iter().step_by(3).cloned().collect();
        same(&some, &TableOptions::default(), None, 64);
        let opts = TableOptions {
            symmetries: true,
            ..TableOptions::default()
        };
        let some: Vec<_> = trees.into_iter().step_by(24).collect();
        same(&some, &opts, None, 16);
    }
}
