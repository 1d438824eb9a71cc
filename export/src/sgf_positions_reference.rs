//! The SGF `positions` table as it was built before the board went straight into its column
//! (the rows from `TrainingRows`' iterator, every column appended row by row): the reference
//! the builder's tests compare it with, column by column.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::{
    BinaryBuilder, Float64Builder, Int8Builder, Int16Builder, Int32Builder, Int64Builder,
    StringBuilder, UInt32Builder,
};
use kifu::sgf::{self, BoardSize, Color, GoResult, Point};
use kifu_replay::go::{Symmetry, TrainingRow, TrainingRows, zobrist};

use super::{index_of, rank};
use crate::cols::clamp_i64;
use crate::positions_filter::PlyFilter;

/// The per-game columns, read once per game (at its first row).
#[derive(Debug, Default)]
struct Game {
    ranks: (Option<i16>, Option<i16>),
    /// `RE` as written.
    result: Option<String>,
    /// Black's score: 1 Black won, −1 White won, 0 a draw; `None` unknown.
    black_score: Option<i8>,
    handicap_stones: Option<i32>,
}

impl Game {
    fn of(tree: &sgf::GameTree, first: &TrainingRow<'_>) -> Game {
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
        for &c in &first.board {
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
        }
    }
}

#[derive(Debug)]
pub(crate) struct PositionsBuilder {
    /// Each position once per symmetry of the board.
    symmetries: bool,
    /// The rows kept ([`crate::PositionOptions`]: plies, legal moves only, a sample).
    filter: PlyFilter,
    file: StringBuilder,
    index: Int64Builder,
    game_key: Int64Builder,
    ply: Int32Builder,
    key: Int64Builder,
    symmetry: Int8Builder,
    board_cols: Int32Builder,
    board_rows: Int32Builder,
    board: BinaryBuilder,
    side_to_move: StringBuilder,
    x: Int16Builder,
    y: Int16Builder,
    policy: Int16Builder,
    ko_point: Int16Builder,
    captures_black: UInt32Builder,
    captures_white: UInt32Builder,
    komi: Float64Builder,
    handicap: Int32Builder,
    handicap_stones: Int32Builder,
    black_rank: Int16Builder,
    white_rank: Int16Builder,
    result: StringBuilder,
    score: Int8Builder,
    error: StringBuilder,
    rows: usize,
    bytes: usize,
    /// A board turned by a symmetry (reused).
    turned: Vec<u8>,
}

impl PositionsBuilder {
    pub(crate) fn new(opts: &crate::TableOptions) -> PositionsBuilder {
        PositionsBuilder {
            symmetries: opts.symmetries,
            filter: PlyFilter::new(&opts.positions),
            file: StringBuilder::new(),
            index: Int64Builder::new(),
            game_key: Int64Builder::new(),
            ply: Int32Builder::new(),
            key: Int64Builder::new(),
            symmetry: Int8Builder::new(),
            board_cols: Int32Builder::new(),
            board_rows: Int32Builder::new(),
            board: BinaryBuilder::new(),
            side_to_move: StringBuilder::new(),
            x: Int16Builder::new(),
            y: Int16Builder::new(),
            policy: Int16Builder::new(),
            ko_point: Int16Builder::new(),
            captures_black: UInt32Builder::new(),
            captures_white: UInt32Builder::new(),
            komi: Float64Builder::new(),
            handicap: Int32Builder::new(),
            handicap_stones: Int32Builder::new(),
            black_rank: Int16Builder::new(),
            white_rank: Int16Builder::new(),
            result: StringBuilder::new(),
            score: Int8Builder::new(),
            error: StringBuilder::new(),
            rows: 0,
            bytes: 0,
            turned: Vec::new(),
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// Adds a row per main-line move of `tree` (none for a tree that is not Go); with
    /// `symmetries`, a row per move and symmetry. The filters of [`crate::PositionOptions`]
    /// leave positions out (a sample's salt: the game's key, its size and moves).
    pub(crate) fn push(&mut self, file: &str, tree: &sgf::GameTree) {
        let index = clamp_i64(tree.index());
        let mut game = None;
        let mut state = None;
        for row in TrainingRows::new(tree) {
            // the game's columns from its first position (the handicap stones), kept or not
            let game = game.get_or_insert_with(|| Game::of(tree, &row));
            let ply = row.number.saturating_sub(1) as usize;
            if ply > self.filter.max_ply || (self.filter.legal_only && row.error.is_some()) {
                return;
            }
            let state = state.get_or_insert_with(|| self.filter.start(row.game.key));
            if !self.filter.keep(state, ply, || row.key) {
                continue;
            }
            let size = row.size;
            let square = size.cols == size.rows;
            let count = match (self.symmetries, square) {
                (false, _) => 1,
                (true, true) => 8,
                (true, false) => 4,
            };
            // 0 ..= 3 flip only (no transposition): the shape kept on any board
            for sym in Symmetry::ALL.into_iter().take(count) {
                self.row(file, index, game, &row, size, sym);
            }
        }
    }

    fn row(
        &mut self,
        file: &str,
        index: i64,
        game: &Game,
        row: &TrainingRow<'_>,
        size: BoardSize,
        sym: Symmetry,
    ) {
        let identity = sym == Symmetry::IDENTITY;
        let turn = |p: Point| if identity { p } else { sym.point(p, size) };
        let (board, key) = if identity {
            (&row.board[..], row.key)
        } else {
            sym.board(size, &row.board, &mut self.turned);
            let key = zobrist(size, &self.turned, row.to_play);
            (&self.turned[..], key)
        };
        let point = row.point.map(turn);
        let off_board = row.error == Some(kifu_replay::go::ErrorKind::OutOfBoard);
        self.file.append_value(file);
        self.index.append_value(index);
        self.game_key.append_value(row.game.key as i64);
        let number = i32::try_from(row.number).unwrap_or(i32::MAX);
        self.ply.append_value(number - 1);
        self.key.append_value(key as i64);
        self.symmetry.append_value(sym.0 as i8);
        self.board_cols.append_value(i32::from(size.cols));
        self.board_rows.append_value(i32::from(size.rows));
        self.board.append_value(board);
        self.side_to_move.append_value(match row.to_play {
            Color::Black => "black",
            Color::White => "white",
        });
        self.x.append_option(point.map(|p| i16::from(p.x)));
        self.y.append_option(point.map(|p| i16::from(p.y)));
        self.policy.append_option(match point {
            Some(p) => Some(index_of(p, size)),
            None if off_board => None,
            None => Some((i32::from(size.cols) * i32::from(size.rows)) as i16),
        });
        self.ko_point
            .append_option(row.ko.map(|p| index_of(turn(p), size)));
        self.captures_black.append_value(row.captures[0]);
        self.captures_white.append_value(row.captures[1]);
        self.komi.append_option(row.game.komi);
        self.handicap
            .append_option(row.game.handicap.and_then(|h| i32::try_from(h).ok()));
        self.handicap_stones.append_option(game.handicap_stones);
        self.black_rank.append_option(game.ranks.0);
        self.white_rank.append_option(game.ranks.1);
        self.result.append_option(game.result.as_deref());
        self.score
            .append_option(game.black_score.map(|s| match row.to_play {
                Color::Black => s,
                Color::White => -s,
            }));
        self.error.append_option(row.error.map(|e| e.code()));
        self.rows += 1;
        self.bytes += file.len() + board.len() + 80;
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.game_key.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.key.finish()),
            Arc::new(self.symmetry.finish()),
            Arc::new(self.board_cols.finish()),
            Arc::new(self.board_rows.finish()),
            Arc::new(self.board.finish()),
            Arc::new(self.side_to_move.finish()),
            Arc::new(self.x.finish()),
            Arc::new(self.y.finish()),
            Arc::new(self.policy.finish()),
            Arc::new(self.ko_point.finish()),
            Arc::new(self.captures_black.finish()),
            Arc::new(self.captures_white.finish()),
            Arc::new(self.komi.finish()),
            Arc::new(self.handicap.finish()),
            Arc::new(self.handicap_stones.finish()),
            Arc::new(self.black_rank.finish()),
            Arc::new(self.white_rank.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.score.finish()),
            Arc::new(self.error.finish()),
        ];
        self.rows = 0;
        self.bytes = 0;
        out
    }
}
