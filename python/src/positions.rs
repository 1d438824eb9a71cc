//! The SGF `positions` table (the replay issue's training data): one row per main-line move of a
//! Go game, with the board before it, from kifu-replay's `TrainingRows`. kifu-export has no
//! such table yet, so it is built here, in the layout docs/python.md documents.

use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, Float64Builder, Int16Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use kifu::sgf::{self, Color};
use kifu_replay::go::TrainingRows;

/// The schema of the positions table.
pub fn schema() -> SchemaRef {
    let f = |name: &str, t: DataType, null: bool| Field::new(name, t, null);
    let fields = vec![
        f("file", DataType::Utf8, false),
        f("index", DataType::Int64, false),
        f("offset", DataType::Int64, false),
        f("move_number", DataType::Int32, false),
        f("cols", DataType::Int16, false),
        f("rows", DataType::Int16, false),
        f("board", DataType::Binary, false),
        f("to_play", DataType::Utf8, false),
        f("point", DataType::Utf8, true),
        f("x", DataType::Int16, true),
        f("y", DataType::Int16, true),
        f("black_prisoners", DataType::Int32, false),
        f("white_prisoners", DataType::Int32, false),
        f("error", DataType::Utf8, true),
        f("komi", DataType::Float64, true),
        f("handicap", DataType::Int32, true),
        f("black_rank", DataType::Utf8, true),
        f("white_rank", DataType::Utf8, true),
        f("result", DataType::Utf8, true),
        f("game_key", DataType::Int64, false),
    ];
    let meta = [(
        kifu_export::TABLE_KEY.to_string(),
        "sgf_positions".to_string(),
    )]
    .into();
    Arc::new(Schema::new_with_metadata(fields, meta))
}

/// Builds batches of the positions table.
pub struct Builder {
    schema: SchemaRef,
    file: StringBuilder,
    index: Int64Builder,
    offset: Int64Builder,
    move_number: Int32Builder,
    cols: Int16Builder,
    rows: Int16Builder,
    board: BinaryBuilder,
    to_play: StringBuilder,
    point: StringBuilder,
    x: Int16Builder,
    y: Int16Builder,
    black_prisoners: Int32Builder,
    white_prisoners: Int32Builder,
    error: StringBuilder,
    komi: Float64Builder,
    handicap: Int32Builder,
    black_rank: StringBuilder,
    white_rank: StringBuilder,
    result: StringBuilder,
    game_key: Int64Builder,
    n: usize,
    bytes: usize,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            schema: schema(),
            file: StringBuilder::new(),
            index: Int64Builder::new(),
            offset: Int64Builder::new(),
            move_number: Int32Builder::new(),
            cols: Int16Builder::new(),
            rows: Int16Builder::new(),
            board: BinaryBuilder::new(),
            to_play: StringBuilder::new(),
            point: StringBuilder::new(),
            x: Int16Builder::new(),
            y: Int16Builder::new(),
            black_prisoners: Int32Builder::new(),
            white_prisoners: Int32Builder::new(),
            error: StringBuilder::new(),
            komi: Float64Builder::new(),
            handicap: Int32Builder::new(),
            black_rank: StringBuilder::new(),
            white_rank: StringBuilder::new(),
            result: StringBuilder::new(),
            game_key: Int64Builder::new(),
            n: 0,
            bytes: 0,
        }
    }
}

fn text(
    v: Option<sgf::RawValue<'_>>,
    encoding: &'static kifu::encoding::Encoding,
) -> Option<String> {
    v.map(|v| kifu::encoding::decode(&v.simple_text(), encoding).into_owned())
}

impl Builder {
    /// Adds the rows of `tree`'s main line (none for a tree that is not Go).
    pub fn push(&mut self, file: &str, tree: &sgf::GameTree, charset: kifu_export::Charset) {
        let mut rows = TrainingRows::new(tree).peekable();
        let Some(first) = rows.peek() else {
            return;
        };
        let info = first.game;
        let encoding = charset.encoding_of(tree);
        let (br, wr, re) = (
            text(info.black_rank, encoding),
            text(info.white_rank, encoding),
            text(info.result, encoding),
        );
        for row in rows {
            self.file.append_value(file);
            self.index.append_value(info.index as i64);
            self.offset.append_value(info.offset as i64);
            self.move_number.append_value(row.number as i32);
            self.cols.append_value(i16::from(row.size.cols));
            self.rows.append_value(i16::from(row.size.rows));
            self.bytes += row.board.len() + file.len() + 64;
            self.board.append_value(&row.board);
            self.to_play.append_value(match row.to_play {
                Color::Black => "B",
                Color::White => "W",
            });
            match row.point {
                Some(p) => {
                    self.point.append_value(p.to_string());
                    self.x.append_value(i16::from(p.x));
                    self.y.append_value(i16::from(p.y));
                }
                None => {
                    self.point.append_null();
                    self.x.append_null();
                    self.y.append_null();
                }
            }
            self.black_prisoners.append_value(row.captures[0] as i32);
            self.white_prisoners.append_value(row.captures[1] as i32);
            self.error.append_option(row.error.map(|e| e.code()));
            self.komi.append_option(info.komi);
            self.handicap
                .append_option(info.handicap.and_then(|h| i32::try_from(h).ok()));
            self.black_rank.append_option(br.as_deref());
            self.white_rank.append_option(wr.as_deref());
            self.result.append_option(re.as_deref());
            self.game_key.append_value(info.key as i64);
            self.n += 1;
        }
    }

    /// Rows since the last `finish`.
    pub fn rows(&self) -> usize {
        self.n
    }

    /// About the bytes held.
    pub fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// The rows as a batch; the builder starts anew.
    pub fn finish(&mut self) -> RecordBatch {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.cols.finish()),
            Arc::new(self.rows.finish()),
            Arc::new(self.board.finish()),
            Arc::new(self.to_play.finish()),
            Arc::new(self.point.finish()),
            Arc::new(self.x.finish()),
            Arc::new(self.y.finish()),
            Arc::new(self.black_prisoners.finish()),
            Arc::new(self.white_prisoners.finish()),
            Arc::new(self.error.finish()),
            Arc::new(self.komi.finish()),
            Arc::new(self.handicap.finish()),
            Arc::new(self.black_rank.finish()),
            Arc::new(self.white_rank.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.game_key.finish()),
        ];
        self.n = 0;
        self.bytes = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
            .expect("the positions columns match their schema")
    }
}
