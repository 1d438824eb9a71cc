//! The SGF `positions` table: one row per main-line move of a Go game, with the board before it
//! (kifu-replay's training rows): the table a training pipeline takes as it is.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::{
    BinaryBuilder, Float64Builder, Int16Builder, Int32Builder, Int64Builder, StringBuilder,
    UInt8Builder, UInt32Builder,
};
use arrow_schema::{DataType, Field};
use kifu::sgf::{self, Color, Rank};
use kifu_replay::go::TrainingRows;

use crate::Charset;
use crate::charset::text;
use crate::cols::clamp_i64;

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
        Field::new("move_number", DataType::Int32, false),
        Field::new("board_cols", DataType::Int32, false),
        Field::new("board_rows", DataType::Int32, false),
        Field::new("board", DataType::Binary, false),
        Field::new("to_play", DataType::UInt8, false),
        Field::new("x", DataType::Int16, true),
        Field::new("y", DataType::Int16, true),
        Field::new("captures_black", DataType::UInt32, false),
        Field::new("captures_white", DataType::UInt32, false),
        Field::new("komi", DataType::Float64, true),
        Field::new("handicap", DataType::Int32, true),
        Field::new("black_rank", DataType::Int16, true),
        Field::new("white_rank", DataType::Int16, true),
        Field::new("result", DataType::Utf8, true),
        Field::new("error", DataType::Utf8, true),
    ]
}

#[derive(Debug, Default)]
pub(crate) struct PositionsBuilder {
    file: StringBuilder,
    index: Int64Builder,
    game_key: Int64Builder,
    move_number: Int32Builder,
    board_cols: Int32Builder,
    board_rows: Int32Builder,
    board: BinaryBuilder,
    to_play: UInt8Builder,
    x: Int16Builder,
    y: Int16Builder,
    captures_black: UInt32Builder,
    captures_white: UInt32Builder,
    komi: Float64Builder,
    handicap: Int32Builder,
    black_rank: Int16Builder,
    white_rank: Int16Builder,
    result: StringBuilder,
    error: StringBuilder,
    rows: usize,
    bytes: usize,
}

impl PositionsBuilder {
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// Adds a row per main-line move of `tree` (none for a tree that is not Go).
    pub(crate) fn push(&mut self, file: &str, tree: &sgf::GameTree) {
        let index = clamp_i64(tree.index());
        let text = |v: Option<sgf::RawValue<'_>>| {
            v.map(|v| String::from_utf8_lossy(&v.simple_text()).into_owned())
        };
        let mut ranks = None;
        for row in TrainingRows::new(tree) {
            let ranks = *ranks.get_or_insert_with(|| {
                let (b, w) = (row.game.black_rank, row.game.white_rank);
                (rank(tree, b, b"BR"), rank(tree, w, b"WR"))
            });
            self.file.append_value(file);
            self.index.append_value(index);
            self.game_key.append_value(row.game.key as i64);
            self.move_number
                .append_value(i32::try_from(row.number).unwrap_or(i32::MAX));
            self.board_cols.append_value(i32::from(row.size.cols));
            self.board_rows.append_value(i32::from(row.size.rows));
            self.board.append_value(&row.board);
            self.to_play.append_value(match row.to_play {
                Color::Black => 1,
                Color::White => 2,
            });
            self.x.append_option(row.point.map(|p| i16::from(p.x)));
            self.y.append_option(row.point.map(|p| i16::from(p.y)));
            self.captures_black.append_value(row.captures[0]);
            self.captures_white.append_value(row.captures[1]);
            self.komi.append_option(row.game.komi);
            self.handicap
                .append_option(row.game.handicap.and_then(|h| i32::try_from(h).ok()));
            self.black_rank.append_option(ranks.0);
            self.white_rank.append_option(ranks.1);
            self.result.append_option(text(row.game.result));
            self.error.append_option(row.error.map(|e| e.code()));
            self.rows += 1;
            self.bytes += file.len() + row.board.len() + 64;
        }
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.game_key.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.board_cols.finish()),
            Arc::new(self.board_rows.finish()),
            Arc::new(self.board.finish()),
            Arc::new(self.to_play.finish()),
            Arc::new(self.x.finish()),
            Arc::new(self.y.finish()),
            Arc::new(self.captures_black.finish()),
            Arc::new(self.captures_white.finish()),
            Arc::new(self.komi.finish()),
            Arc::new(self.handicap.finish()),
            Arc::new(self.black_rank.finish()),
            Arc::new(self.white_rank.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.error.finish()),
        ];
        self.rows = 0;
        self.bytes = 0;
        out
    }
}
