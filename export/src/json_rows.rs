//! The `json` tables: the objects `kifu json` writes, one row per game (or game tree).
//!
//! A row holds `index`, `offset` and `file` as columns (so that [`crate::rebase`] can shift
//! them) and the rest of the object as JSON text, `{"tags":…}` (PGN) or `{"tree":…}` (SGF): the
//! library's own serialization of the DOM (feature `serde`), SGF text decoded as `kifu json`
//! decodes it. The JSON Lines sink puts the line back together exactly as `kifu json` writes
//! it: `{"index":N,"offset":M,"file":"…",` then the rest.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_schema::{DataType, Field};
use kifu::{pgn, sgf};

use crate::cols::clamp_i64;
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
    body: Vec<u8>,
    rows: usize,
    bytes: usize,
}

/// The object `{"index":N,"offset":M,REST` as `{REST`.
fn without_keys(body: &[u8]) -> &[u8] {
    // `{"index":N,"offset":M,` then the rest: the second comma ends the numbers
    let cut = body
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b',')
        .nth(1)
        .map_or(1, |(i, _)| i + 1);
    &body[cut..]
}

impl JsonBuilder {
    pub(crate) fn new(opts: &TableOptions) -> JsonBuilder {
        JsonBuilder {
            charset: opts.charset,
            index: Int64Builder::new(),
            offset: Int64Builder::new(),
            file: StringBuilder::new(),
            json: StringBuilder::new(),
            body: Vec::new(),
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
        let rest = without_keys(&self.body);
        // serde_json writes UTF-8
        let rest = std::str::from_utf8(rest).expect("serde_json writes UTF-8");
        let mut s = String::with_capacity(rest.len() + 1);
        s.push('{');
        s.push_str(rest);
        self.bytes += s.len() + file.len() + 16;
        self.json.append_value(s);
        self.rows += 1;
    }

    pub(crate) fn push_pgn(&mut self, file: &str, game: &pgn::Game) -> Result<(), PushError> {
        self.body.clear();
        serde_json::to_writer(&mut self.body, game).map_err(|e| PushError::NotSerializable {
            index: game.index,
            reason: e.to_string(),
        })?;
        self.row(file, game.index, game.offset);
        Ok(())
    }

    pub(crate) fn push_sgf(&mut self, file: &str, tree: &sgf::GameTree) -> Result<(), PushError> {
        let enc = self.charset.encoding_of(tree);
        let decode = |b: &[u8]| kifu::encoding::decode(b, enc).into_owned();
        self.body.clear();
        serde_json::to_writer(&mut self.body, &tree.with_decoder(&decode)).map_err(|e| {
            PushError::NotSerializable {
                index: tree.index(),
                reason: e.to_string(),
            }
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
