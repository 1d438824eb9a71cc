//! The `json` tables: the objects `kifu json` writes, one row per game (or game tree).
//!
//! A row holds `index`, `offset` and `file` as columns (so that [`crate::rebase`] can shift
//! them) and the rest of the object as JSON text, `{"tags":…}` (PGN) or `{"tree":…}` (SGF): the
//! object [`crate::JsonObject`] makes for `kifu json` too. The JSON Lines sink puts the line
//! back together exactly as `kifu json` writes it: `{"index":N,"offset":M,"file":"…",` then the
//! rest.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_schema::{DataType, Field};
use kifu::{pgn, sgf};

use std::fmt::Write as _;

use crate::cols::clamp_i64;
use crate::json_line::{JsonObject, JsonOptions};
use crate::{Charset, PushError, TableOptions};

pub(crate) fn fields() -> Vec<Field> {
    vec![
        Field::new("game_index", DataType::Int64, false),
        Field::new("byte_offset", DataType::Int64, false),
        Field::new("file", DataType::Utf8, false),
        Field::new("json", DataType::Utf8, false),
    ]
}

#[derive(Debug)]
pub(crate) struct JsonBuilder {
    charset: Charset,
    index: Int64Builder,
    offset: Int64Builder,
    file: StringBuilder,
    json: StringBuilder,
    object: JsonObject,
    rows: usize,
    bytes: usize,
}

impl JsonBuilder {
    pub(crate) fn new(opts: &TableOptions) -> JsonBuilder {
        JsonBuilder {
            charset: opts.charset,
            index: Int64Builder::with_capacity(0),
            offset: Int64Builder::with_capacity(0),
            file: StringBuilder::with_capacity(0, 0),
            json: StringBuilder::with_capacity(0, 0),
            object: JsonObject::default(),
            rows: 0,
            bytes: 0,
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    fn row(&mut self, file: &str, index: u64, offset: u64) {
        self.index.append_value(clamp_i64(index));
        self.offset.append_value(clamp_i64(offset));
        self.file.append_value(file);
        // serde_json writes UTF-8
        let rest = std::str::from_utf8(self.object.rest()).expect("serde_json writes UTF-8");
        self.json
            .write_char('{')
            .expect("a string builder takes text");
        self.json
            .write_str(rest)
            .expect("a string builder takes text");
        self.json.append_value("");
        self.bytes += rest.len() + 1 + file.len() + 16;
        self.rows += 1;
    }

    pub(crate) fn push_pgn(&mut self, file: &str, game: &pgn::Game) -> Result<(), PushError> {
        let written = self.object.pgn(game, JsonOptions::default());
        written.map_err(|reason| PushError::NotSerializable {
            index: game.index,
            reason,
        })?;
        self.row(file, game.index, game.offset);
        Ok(())
    }

    pub(crate) fn push_sgf(&mut self, file: &str, tree: &sgf::GameTree) -> Result<(), PushError> {
        let written = self.object.sgf(tree, self.charset);
        written.map_err(|reason| PushError::NotSerializable {
            index: tree.index(),
            reason,
        })?;
        self.row(file, tree.index(), tree.offset());
        Ok(())
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let out: Vec<ArrayRef> = vec![
            Arc::new(self.index.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.file.finish()),
            Arc::new(self.json.finish()),
        ];
        self.rows = 0;
        self.bytes = 0;
        out
    }
}
